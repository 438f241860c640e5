//! What PHP's cipher names mean, asked of the cipher suite so the php rows
//! carry its canonical names, modes, labels, size rules and key strengths.
//!
//! PHP lists ciphers by OpenSSL's lower-case aliases (`aes-128-cbc`). The
//! cipher suite resolves such a name to its own description
//! ([`cryptobench_suite_cipher::published`]), so the size rules and labels
//! here are the suite's, not a copy. Curves need nothing here: a php key
//! generation cell takes its family, key bits and labels from the native
//! cell beside it.

use cryptobench_suite_cipher::catalog::{self, CipherDesc};

/// A cipher as the native cipher and aead suites describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct CipherMeta {
    /// PHP's (OpenSSL's) method name.
    pub method: String,
    /// Canonical name (`AES-128-CBC`, `ChaCha20`).
    pub canonical: String,
    /// Mode name as the cipher suite prints it (`CBC`, `CFB8`, `stream`, `AEAD`).
    pub mode: &'static str,
    /// Key bytes.
    pub key_len: usize,
    /// IV bytes.
    pub iv_len: usize,
    /// Block bytes (1 for stream ciphers).
    pub block: usize,
    /// Effective key strength, bits.
    pub key_bits: usize,
    /// Family (`AES`, `DES-EDE3`, `CHACHA20`).
    pub family: String,
    /// The cipher suite's description.
    desc: CipherDesc,
}

impl CipherMeta {
    /// Whether messages are padded here when not whole blocks.
    pub fn pads(&self) -> bool {
        self.desc.mode.pads()
    }
    /// Why `bytes` cannot be a message of this cipher (the cipher suite's
    /// size rules), if it cannot.
    pub fn size_rule(&self, bytes: u64) -> Option<String> {
        catalog::size_rule(&self.desc, bytes)
    }
    /// The cipher suite's security labels.
    pub fn labels(&self) -> Vec<String> {
        catalog::labels(&self.desc)
    }
}

/// Describes PHP's `method` as the cipher suite does (`None` when the
/// native OpenSSL cannot fetch it).
pub fn cipher_meta(method: &str) -> Option<CipherMeta> {
    let desc = cryptobench_suite_cipher::published::openssl_cipher(method)?;
    Some(CipherMeta {
        method: method.to_string(),
        canonical: desc.name.clone(),
        mode: desc.mode.name(),
        key_len: desc.key_len,
        iv_len: desc.iv_len,
        block: desc.block,
        key_bits: desc.key_bits,
        family: desc.family.clone(),
        desc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn php_names_get_the_native_suites_names() {
        let cbc = cipher_meta("aes-128-cbc").expect("aes-128-cbc");
        assert_eq!(
            (cbc.canonical.as_str(), cbc.mode, cbc.key_bits, cbc.block),
            ("AES-128-CBC", "CBC", 128, 16)
        );
        assert!(cbc.pads());
        let chacha = cipher_meta("chacha20").expect("chacha20");
        assert_eq!(
            (chacha.canonical.as_str(), chacha.mode),
            ("ChaCha20", "stream")
        );
        let tdes = cipher_meta("des-ede3-cbc").expect("des-ede3-cbc");
        assert_eq!((tdes.family.as_str(), tdes.key_bits), ("DES-EDE3", 168));
        assert!(tdes
            .labels()
            .contains(&"64-bit block (Sweet32)".to_string()));
        let gcm = cipher_meta("aes-256-gcm").expect("aes-256-gcm");
        assert_eq!((gcm.canonical.as_str(), gcm.mode), ("AES-256-GCM", "AEAD"));
        assert!(cipher_meta("no-such-cipher").is_none());
    }

    #[test]
    fn size_rules_follow_the_mode() {
        let wrap = cipher_meta("aes-128-wrap").expect("aes-128-wrap");
        assert!(wrap
            .size_rule(4)
            .is_some_and(|r| r.contains("multiples of 8")));
        assert!(wrap.size_rule(1024).is_none());
        let xts = cipher_meta("aes-128-xts").expect("aes-128-xts");
        assert_eq!(xts.key_bits, 128);
        assert!(xts.size_rule(20_000_000).is_some());
    }
}
