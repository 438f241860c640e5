//! What PHP's names mean, asked of the native suites so the php rows carry
//! their canonical names, modes, labels, size rules and key strengths.
//!
//! PHP lists ciphers by OpenSSL's lower-case aliases (`aes-128-cbc`) and
//! curves by OpenSSL's short names. The cipher suite resolves such a name
//! to its own description ([`cryptobench_suite_cipher::published`]), so the
//! size rules and labels here are the suite's, not a copy; curves are
//! described through the same system OpenSSL the ecc suite uses.

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

/// A curve as the ecc suite describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurveMeta {
    /// Family (`Prime`, `Secp`, `Sect`, `C2pnb`, `C2tnb`, `Brainpool`, `Other`).
    pub family: &'static str,
    /// Field size, bits (the seed's "key length").
    pub key_bits: u32,
    /// Half the group order's bits.
    pub security_bits: u32,
    /// Binary field.
    pub binary: bool,
}

impl CurveMeta {
    /// Labels as the ecc suite gives them (the ones derivable here).
    pub fn labels(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.security_bits < 112 {
            out.push("< 112-bit security".to_string());
        }
        if self.binary {
            out.push("binary curve (removed from TLS 1.3)".to_string());
        }
        out
    }
}

/// Describes a curve short name through the native OpenSSL.
pub fn curve_meta(curve: &str) -> Option<CurveMeta> {
    let nid = crate::interop::curve_nid(curve)?;
    let group = openssl::ec::EcGroup::from_curve_name(nid).ok()?;
    let lower = curve.to_ascii_lowercase();
    let family = if lower.starts_with("brainpool") {
        "Brainpool"
    } else if lower.starts_with("prime") {
        "Prime"
    } else if lower.starts_with("c2pnb") {
        "C2pnb"
    } else if lower.starts_with("c2tnb") {
        "C2tnb"
    } else if lower.starts_with("secp") {
        "Secp"
    } else if lower.starts_with("sect") {
        "Sect"
    } else {
        "Other"
    };
    let binary = lower.starts_with("sect")
        || lower.starts_with("c2")
        || lower.starts_with("oakley-ec2n")
        || matches!(
            lower.as_str(),
            "wap-wsg-idm-ecid-wtls1"
                | "wap-wsg-idm-ecid-wtls3"
                | "wap-wsg-idm-ecid-wtls4"
                | "wap-wsg-idm-ecid-wtls5"
                | "wap-wsg-idm-ecid-wtls10"
                | "wap-wsg-idm-ecid-wtls11"
        );
    Some(CurveMeta {
        family,
        key_bits: group.degree(),
        security_bits: group.order_bits() / 2,
        binary,
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

    #[test]
    fn curves_are_described_as_the_ecc_suite_does() {
        let p256 = curve_meta("prime256v1").expect("prime256v1");
        assert_eq!(
            (p256.family, p256.key_bits, p256.security_bits),
            ("Prime", 256, 128)
        );
        assert!(p256.labels().is_empty());
        let sect = curve_meta("sect163k1").expect("sect163k1");
        assert!(sect.binary && sect.family == "Sect");
        assert!(sect.labels().iter().any(|l| l.starts_with("binary")));
    }
}
