//! What PHP's names mean, asked of the native OpenSSL so the php rows carry
//! the native suites' canonical names, modes, labels and key strengths.
//!
//! PHP lists ciphers by OpenSSL's lower-case aliases (`aes-128-cbc`) and
//! curves by OpenSSL's short names; the native suites name a cipher by
//! OpenSSL's first name (`EVP_CIPHER_get0_name`, upper-cased when it has no
//! capitals) and a curve by its short name. Both PHP and the native side
//! use the same system OpenSSL here, so fetching the cipher by PHP's name
//! gives exactly the native suite's description.

use std::ffi::{c_char, CStr, CString};

extern "C" {
    // OpenSSL 3.0; not bound by openssl-sys.
    fn EVP_CIPHER_get0_name(cipher: *const openssl_sys::EVP_CIPHER) -> *const c_char;
}

// EVP_CIPH_* from openssl/evp.h (OpenSSL 3.0).
const EVP_CIPH_MODE: u64 = 0xF0007;
const EVP_CIPH_FLAG_AEAD_CIPHER: u64 = 0x0020_0000;

/// A cipher as the native cipher and aead suites describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
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
}

impl CipherMeta {
    /// Whether messages are padded here when not whole blocks.
    pub fn pads(&self) -> bool {
        matches!(self.mode, "ECB" | "CBC")
    }
    /// Why `bytes` cannot be a message of this cipher (the cipher suite's
    /// size rules), if it cannot.
    pub fn size_rule(&self, bytes: u64) -> Option<String> {
        match self.mode {
            "XTS" if bytes < 16 => Some("XTS needs at least one 16-byte block".into()),
            "XTS" if bytes > 16 << 20 => {
                Some("XTS data unit is at most 2^20 blocks (16 MiB, IEEE 1619)".into())
            }
            "wrap" if bytes < 16 || !bytes.is_multiple_of(8) => Some(format!(
                "key wrap takes multiples of 8 bytes, at least 16 (RFC 3394); {bytes} B is not"
            )),
            "CBC-CTS" if bytes <= 16 => {
                Some("CBC ciphertext stealing needs more than one 16-byte block".into())
            }
            "AEAD" => Some("authenticated mode: see aead".into()),
            "null" => Some("the null cipher does not encrypt".into()),
            "TLS composite" => Some(
                "TLS record-layer composite (MAC-then-encrypt stitched); only meaningful inside TLS"
                    .into(),
            ),
            _ if bytes == 0 => Some("empty message".into()),
            _ => None,
        }
    }
    /// The cipher suite's security labels.
    pub fn labels(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.mode == "ECB" {
            out.push("ECB".to_string());
        }
        if self.block == 8 {
            out.push("64-bit block (Sweet32)".to_string());
        }
        if ["RC4", "DES", "ENIGMA", "ARCFOUR"].contains(&self.family.as_str())
            || self.key_bits <= 56
        {
            out.push("broken".to_string());
        }
        out.push("no authentication".to_string());
        out.push(format!("key {}-bit", self.key_bits));
        out
    }
}

fn canonical(name: &str) -> String {
    if name.chars().any(|c| c.is_ascii_uppercase()) {
        name.to_string()
    } else {
        name.to_ascii_uppercase()
    }
}

/// The family part of a canonical name (the cipher suite's rule).
pub fn family_of(name: &str) -> String {
    let up = name.to_ascii_uppercase();
    for fam in [
        "DES-EDE3", "DES-EDE", "DES3", "DESX", "RC4", "RC2", "CHACHA20",
    ] {
        if up.starts_with(fam) {
            return if fam == "DES3" {
                "DES-EDE3".into()
            } else {
                fam.into()
            };
        }
    }
    up.split('-').next().unwrap_or(&up).to_string()
}

fn mode_of(name: &str, flags: u64) -> &'static str {
    let up = name.to_ascii_uppercase();
    if up.contains("HMAC") {
        return "TLS composite";
    }
    if up == "NULL" {
        return "null";
    }
    if up.ends_with("-CTS") {
        return "CBC-CTS";
    }
    if flags & EVP_CIPH_FLAG_AEAD_CIPHER != 0 || up.contains("POLY1305") {
        return "AEAD";
    }
    match flags & EVP_CIPH_MODE {
        0x0 => "stream",
        0x1 => "ECB",
        0x2 => "CBC",
        0x3 if up.ends_with("CFB1") => "CFB1",
        0x3 if up.ends_with("CFB8") => "CFB8",
        0x3 => "CFB",
        0x4 => "OFB",
        0x5 => "CTR",
        0x10001 => "XTS",
        0x10002 if up.contains("PAD") => "wrap-pad",
        0x10002 => "wrap",
        _ => "AEAD",
    }
}

fn key_bits(family: &str, name: &str, mode: &str, key_len: usize) -> usize {
    let up = name.to_ascii_uppercase();
    match family {
        "DES" => 56,
        "DES-EDE" => 112,
        "DES-EDE3" => 168,
        "DESX" => 184,
        _ if up.contains("-40") => 40,
        _ if up.contains("-64") => 64,
        _ if mode == "XTS" => key_len * 4,
        _ => key_len * 8,
    }
}

/// Describes PHP's `method` through the native OpenSSL (`None` when the
/// native OpenSSL cannot fetch it).
pub fn cipher_meta(method: &str) -> Option<CipherMeta> {
    let _ = cryptobench_backends::openssl_lib::ensure_providers();
    let c = CString::new(method).ok()?;
    // SAFETY: EVP_CIPHER_fetch returns an owned EVP_CIPHER or NULL; it is
    // read and freed here.
    unsafe {
        let cipher =
            openssl_sys::EVP_CIPHER_fetch(std::ptr::null_mut(), c.as_ptr(), std::ptr::null());
        if cipher.is_null() {
            openssl_sys::ERR_clear_error();
            return None;
        }
        let name_ptr = EVP_CIPHER_get0_name(cipher);
        let name = if name_ptr.is_null() {
            method.to_string()
        } else {
            CStr::from_ptr(name_ptr).to_string_lossy().into_owned()
        };
        let flags = openssl_sys::EVP_CIPHER_get_flags(cipher) as u64;
        let key_len = openssl_sys::EVP_CIPHER_get_key_length(cipher).max(0) as usize;
        let iv_len = openssl_sys::EVP_CIPHER_get_iv_length(cipher).max(0) as usize;
        let block = openssl_sys::EVP_CIPHER_get_block_size(cipher).max(1) as usize;
        openssl_sys::EVP_CIPHER_free(cipher);
        let canonical = canonical(&name);
        let family = family_of(&canonical);
        let mode = mode_of(&canonical, flags);
        Some(CipherMeta {
            method: method.to_string(),
            key_bits: key_bits(&family, &canonical, mode, key_len),
            canonical,
            mode,
            key_len,
            iv_len,
            block,
            family,
        })
    }
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
    let nid = cryptobench_runtime::interop::curve_nid(curve)?;
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
