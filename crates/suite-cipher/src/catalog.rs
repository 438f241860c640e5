//! What a cipher is, independent of the library that implements it: its
//! canonical name, mode, sizes, the size rules of its mode, and its security
//! labels.
//!
//! Every backend describes its ciphers with the same [`CipherDesc`], so the
//! plan, the labels, the ranking and the cross-backend agreement all work on
//! one shape. Canonical names follow OpenSSL's spelling (`AES-128-CBC`,
//! `BF-CFB`, `DES-EDE3`); ciphers OpenSSL lacks get names in the same style
//! (`BF-CFB8`, `TWOFISH-256-CBC`).

use crate::engine::{CipherError, Engine, EngineRequest};
use cryptobench_core::Library;
use std::fmt;

/// One cipher library: what it offers (its catalog of [`CipherDesc`]s) and
/// how it builds an [`Engine`]. Adding a library is one module implementing
/// this plus one line in [`crate::registry::all`].
pub trait CipherBackend: Library {
    /// Every cipher it offers here, named canonically.
    fn ciphers(&self) -> Vec<CipherDesc>;
    /// The engine of `request.desc` (one of [`CipherBackend::ciphers`]) for
    /// one direction with this key and IV; `request.key` may differ in
    /// length from `desc.key_len` (known-answer vectors).
    fn engine(&self, request: EngineRequest<'_>) -> Result<Box<dyn Engine>, CipherError>;
}

/// A registered backend.
pub type Backend = &'static dyn CipherBackend;

impl fmt::Display for dyn CipherBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for dyn CipherBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Backends are one each, so the name is the identity.
impl PartialEq for dyn CipherBackend {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

/// A mode of operation, as far as sizes and padding are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Electronic codebook: blocks only (padded here), no IV.
    Ecb,
    /// Cipher block chaining: blocks only (padded here).
    Cbc,
    /// Full-block cipher feedback.
    Cfb,
    /// 1-bit cipher feedback (one block operation per bit).
    Cfb1,
    /// 8-bit cipher feedback (one block operation per byte).
    Cfb8,
    /// Full-block output feedback.
    Ofb,
    /// 8-bit output feedback (libmcrypt's `ofb`).
    Ofb8,
    /// Counter mode.
    Ctr,
    /// A stream cipher (RC4, ChaCha20, WAKE).
    Stream,
    /// XEX tweakable mode for storage (double key).
    Xts,
    /// Key wrap (RFC 3394 / RFC 3217): multiples of 8 bytes, at least 16.
    Wrap,
    /// Key wrap with padding (RFC 5649): any length from 1 byte.
    WrapPad,
    /// CBC with ciphertext stealing: one whole message per call, longer
    /// than one block, no padding.
    Cts,
    /// The null cipher (copies its input).
    Null,
    /// Authenticated modes: measured by the aead suite.
    Aead,
    /// TLS record-layer composites (cipher + HMAC stitched together).
    TlsComposite,
}

impl Mode {
    /// Short name, as shown in tables.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ECB",
            Mode::Cbc => "CBC",
            Mode::Cfb => "CFB",
            Mode::Cfb1 => "CFB1",
            Mode::Cfb8 => "CFB8",
            Mode::Ofb => "OFB",
            Mode::Ofb8 => "OFB8",
            Mode::Ctr => "CTR",
            Mode::Stream => "stream",
            Mode::Xts => "XTS",
            Mode::Wrap => "wrap",
            Mode::WrapPad => "wrap-pad",
            Mode::Cts => "CBC-CTS",
            Mode::Null => "null",
            Mode::Aead => "AEAD",
            Mode::TlsComposite => "TLS composite",
        }
    }
    /// Whether messages are PKCS#7-padded here when their size is not a
    /// multiple of the block (the modes that only take whole blocks).
    pub fn pads(self) -> bool {
        matches!(self, Mode::Ecb | Mode::Cbc)
    }
    /// Whether one context can encrypt message after message, its state
    /// (chaining value, counter) carrying on as a fresh IV would.
    pub fn chains(self) -> bool {
        !matches!(self, Mode::Wrap | Mode::WrapPad | Mode::Cts)
    }
}

/// One cipher as one backend offers it.
#[derive(Debug, Clone, PartialEq)]
pub struct CipherDesc {
    /// Canonical name shared by every backend (`AES-128-CBC`).
    pub name: String,
    /// Which library.
    pub backend: Backend,
    /// The library's own name (`BF-CBC`, `blowfish/ncfb`).
    pub native: String,
    /// Algorithm family (`AES`, `BF`, `DES-EDE3`), for KATs and labels.
    pub family: String,
    /// Mode of operation.
    pub mode: Mode,
    /// Key length in bytes used for timing.
    pub key_len: usize,
    /// Effective key strength in bits, when it differs from the key length
    /// (DES parity bits, RC2-40, RC4-40, 2-key 3DES).
    pub key_bits: usize,
    /// IV length in bytes (0 = none).
    pub iv_len: usize,
    /// Block length in bytes (1 for stream ciphers).
    pub block: usize,
    /// Only in OpenSSL's legacy provider.
    pub legacy: bool,
}

/// Why a message size cannot be taken by a mode, if it cannot.
pub fn size_rule(desc: &CipherDesc, bytes: u64) -> Option<String> {
    match desc.mode {
        Mode::Xts if bytes < 16 => Some("XTS needs at least one 16-byte block".into()),
        // IEEE 1619: at most 2^20 blocks per data unit; OpenSSL enforces it.
        Mode::Xts if bytes > 16 << 20 => {
            Some("XTS data unit is at most 2^20 blocks (16 MiB, IEEE 1619)".into())
        }
        Mode::Wrap if bytes < 16 || !bytes.is_multiple_of(8) => Some(format!(
            "key wrap takes multiples of 8 bytes, at least 16 (RFC 3394); {bytes} B is not"
        )),
        Mode::Cts if bytes <= 16 => {
            Some("CBC ciphertext stealing needs more than one 16-byte block".into())
        }
        Mode::Aead => Some("authenticated mode: see aead".into()),
        Mode::Null => Some("the null cipher does not encrypt".into()),
        Mode::TlsComposite => Some(
            "TLS record-layer composite (MAC-then-encrypt stitched); only meaningful inside TLS"
                .into(),
        ),
        _ if bytes == 0 => Some("empty message".into()),
        _ => None,
    }
}

/// Label: electronic codebook.
pub const LABEL_ECB: &str = "ECB";
/// Label: 64-bit block, birthday-bound attacks after a few GB (Sweet32).
pub const LABEL_SWEET32: &str = "64-bit block (Sweet32)";
/// Label: a broken cipher or key size.
pub const LABEL_BROKEN: &str = "broken";
/// Label: no integrity protection (every cipher of this suite).
pub const LABEL_NO_AUTH: &str = "no authentication";
/// Label: needs OpenSSL's legacy provider.
pub const LABEL_LEGACY: &str = "legacy provider";

/// Families that are broken whatever the key (RC4 biases, DES's 56-bit key,
/// the Enigma-like crypt(1) rotor machine).
const BROKEN_FAMILIES: [&str; 4] = ["RC4", "DES", "ENIGMA", "ARCFOUR"];

/// Whether a cipher is broken: a broken family, or an effective key of 56
/// bits or less (RC2-40, RC4-40).
pub fn is_broken(desc: &CipherDesc) -> bool {
    BROKEN_FAMILIES.contains(&desc.family.as_str()) || desc.key_bits <= 56
}

/// The security labels of a cipher, in a fixed order.
pub fn labels(desc: &CipherDesc) -> Vec<String> {
    let mut out = Vec::new();
    if desc.mode == Mode::Ecb {
        out.push(LABEL_ECB.to_string());
    }
    if desc.block == 8 {
        out.push(LABEL_SWEET32.to_string());
    }
    if is_broken(desc) {
        out.push(LABEL_BROKEN.to_string());
    }
    // Listed-only AEADs and TLS composites carry their own MAC.
    if !matches!(desc.mode, Mode::Aead | Mode::TlsComposite) {
        out.push(LABEL_NO_AUTH.to_string());
    }
    if desc.legacy {
        out.push(LABEL_LEGACY.to_string());
    }
    out.push(format!("key {}-bit", desc.key_bits));
    out
}

/// Whether the ranking may recommend it: none of ECB, 64-bit block,
/// broken, legacy (authentication aside, which no cipher here has).
pub fn recommended(labels: &[String]) -> bool {
    !labels
        .iter()
        .any(|l| l == LABEL_ECB || l == LABEL_SWEET32 || l == LABEL_BROKEN || l == LABEL_LEGACY)
}

/// PKCS#7 padding length for a message of `len` bytes.
pub fn pad_len(len: usize, block: usize) -> usize {
    block - len % block
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(name: &str, family: &str, mode: Mode, key_bits: usize, block: usize) -> CipherDesc {
        CipherDesc {
            name: name.into(),
            backend: &crate::openssl_backend::OpenSsl,
            native: name.into(),
            family: family.into(),
            mode,
            key_len: key_bits / 8,
            key_bits,
            iv_len: block,
            block,
            legacy: false,
        }
    }

    #[test]
    fn labels_follow_the_cipher() {
        let ecb = labels(&desc("AES-128-ECB", "AES", Mode::Ecb, 128, 16));
        assert_eq!(ecb, ["ECB", "no authentication", "key 128-bit"]);
        let des = labels(&desc("DES-CBC", "DES", Mode::Cbc, 56, 8));
        assert!(des.contains(&LABEL_SWEET32.to_string()));
        assert!(des.contains(&LABEL_BROKEN.to_string()));
        let rc2 = labels(&desc("RC2-40-CBC", "RC2", Mode::Cbc, 40, 8));
        assert!(rc2.contains(&LABEL_BROKEN.to_string()));
        let rc4 = labels(&desc("RC4", "RC4", Mode::Stream, 128, 1));
        assert!(rc4.contains(&LABEL_BROKEN.to_string()));
        assert!(!recommended(&rc4));
        let ctr = labels(&desc("AES-256-CTR", "AES", Mode::Ctr, 256, 16));
        assert!(recommended(&ctr));
        assert!(!ctr.contains(&LABEL_BROKEN.to_string()));
    }

    #[test]
    fn special_modes_refuse_sizes_with_reasons() {
        let xts = desc("AES-128-XTS", "AES", Mode::Xts, 256, 16);
        assert!(size_rule(&xts, 4).unwrap().contains("16-byte"));
        assert!(size_rule(&xts, 20_000_000).unwrap().contains("2^20"));
        assert!(size_rule(&xts, 4096).is_none());
        let wrap = desc("AES-128-WRAP", "AES", Mode::Wrap, 128, 8);
        assert!(size_rule(&wrap, 4).unwrap().contains("multiples of 8"));
        assert!(size_rule(&wrap, 1024).is_none());
        let cbc = desc("AES-128-CBC", "AES", Mode::Cbc, 128, 16);
        assert!(size_rule(&cbc, 4).is_none());
        assert_eq!(pad_len(4, 16), 12);
        assert_eq!(pad_len(16, 16), 16);
    }
}
