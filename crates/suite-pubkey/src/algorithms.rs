//! The parameter sets: one row per algorithm with its kind, security level
//! and the byte sizes a TLS handshake carries.
//!
//! Sizes are the standards' (FIPS 203/204/205, RFC 7748/8032, SEC1,
//! PKCS#1) and are checked against what every backend produces, so a
//! handshake table never prints a size nobody measured.

use cryptobench_core::{names, Error};

/// What an algorithm does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Key encapsulation: keygen, encaps, decaps.
    Kem,
    /// Diffie-Hellman key agreement: keygen, derive.
    Agreement,
    /// Signatures: keygen, sign, verify.
    Signature,
}

/// One parameter set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Algorithm {
    /// Canonical name (`ML-KEM-768`, `ECDSA-P256`, `RSA-2048-PSS`).
    pub name: &'static str,
    /// KEM, key agreement or signature.
    pub kind: Kind,
    /// Classical security strength in bits (NIST SP 800-57 Table 2 for the
    /// classical sets, the NIST category's AES key size for the PQ ones).
    pub security_bits: u32,
    /// Post-quantum (or hybrid with a post-quantum part).
    pub post_quantum: bool,
    /// Encoded public key (or key share) size.
    pub public_bytes: usize,
    /// Ciphertext (KEM), peer share (agreement) or signature size.
    pub output_bytes: usize,
    /// Where the encodings come from.
    pub standard: &'static str,
    /// In the default grid (the others need `--algorithms` or `--full`).
    pub default: bool,
}

// One call per table row reads as the table it is.
#[allow(clippy::too_many_arguments)]
const fn alg(
    name: &'static str,
    kind: Kind,
    security_bits: u32,
    post_quantum: bool,
    public_bytes: usize,
    output_bytes: usize,
    standard: &'static str,
    default: bool,
) -> Algorithm {
    Algorithm {
        name,
        kind,
        security_bits,
        post_quantum,
        public_bytes,
        output_bytes,
        standard,
        default,
    }
}

use Kind::{Agreement as A, Kem as K, Signature as S};

/// Every parameter set, KEMs first.
pub static ALGORITHMS: &[Algorithm] = &[
    alg("ML-KEM-512", K, 128, true, 800, 768, "FIPS 203", true),
    alg("ML-KEM-768", K, 192, true, 1184, 1088, "FIPS 203", true),
    alg("ML-KEM-1024", K, 256, true, 1568, 1568, "FIPS 203", true),
    // draft-ietf-tls-ecdhe-mlkem: ML-KEM-768 share then X25519 share.
    alg(
        "X25519MLKEM768",
        K,
        192,
        true,
        1216,
        1120,
        "draft-ietf-tls-ecdhe-mlkem",
        true,
    ),
    alg("X25519", A, 128, false, 32, 32, "RFC 7748", true),
    alg("X448", A, 224, false, 56, 56, "RFC 7748", true),
    alg(
        "ECDH-P256",
        A,
        128,
        false,
        65,
        65,
        "SEC1 uncompressed point",
        true,
    ),
    alg(
        "ECDH-P384",
        A,
        192,
        false,
        97,
        97,
        "SEC1 uncompressed point",
        true,
    ),
    alg(
        "ECDH-P521",
        A,
        256,
        false,
        133,
        133,
        "SEC1 uncompressed point",
        true,
    ),
    alg("ML-DSA-44", S, 128, true, 1312, 2420, "FIPS 204", true),
    alg("ML-DSA-65", S, 192, true, 1952, 3309, "FIPS 204", true),
    alg("ML-DSA-87", S, 256, true, 2592, 4627, "FIPS 204", true),
    alg(
        "SLH-DSA-SHA2-128s",
        S,
        128,
        true,
        32,
        7856,
        "FIPS 205",
        true,
    ),
    alg(
        "SLH-DSA-SHA2-128f",
        S,
        128,
        true,
        32,
        17088,
        "FIPS 205",
        true,
    ),
    alg(
        "SLH-DSA-SHAKE-128s",
        S,
        128,
        true,
        32,
        7856,
        "FIPS 205",
        false,
    ),
    alg(
        "SLH-DSA-SHAKE-128f",
        S,
        128,
        true,
        32,
        17088,
        "FIPS 205",
        false,
    ),
    alg("Ed25519", S, 128, false, 32, 64, "RFC 8032", true),
    alg("Ed448", S, 224, false, 57, 114, "RFC 8032", true),
    // ECDSA signatures are DER (as in TLS); 72 / 104 / 141 bytes at most.
    alg(
        "ECDSA-P256",
        S,
        128,
        false,
        65,
        72,
        "SEC1 point, X9.62 DER signature",
        true,
    ),
    alg(
        "ECDSA-P384",
        S,
        192,
        false,
        97,
        104,
        "SEC1 point, X9.62 DER signature",
        true,
    ),
    alg(
        "ECDSA-P521",
        S,
        256,
        false,
        133,
        141,
        "SEC1 point, X9.62 DER signature",
        false,
    ),
    alg(
        "RSA-2048-PKCS1",
        S,
        112,
        false,
        270,
        256,
        "PKCS#1 v1.5, SHA-256",
        true,
    ),
    alg(
        "RSA-2048-PSS",
        S,
        112,
        false,
        270,
        256,
        "PKCS#1 PSS, SHA-256",
        true,
    ),
    alg(
        "RSA-3072-PKCS1",
        S,
        128,
        false,
        398,
        384,
        "PKCS#1 v1.5, SHA-256",
        true,
    ),
    alg(
        "RSA-3072-PSS",
        S,
        128,
        false,
        398,
        384,
        "PKCS#1 PSS, SHA-256",
        false,
    ),
    alg(
        "RSA-4096-PKCS1",
        S,
        152,
        false,
        526,
        512,
        "PKCS#1 v1.5, SHA-256",
        true,
    ),
    alg(
        "RSA-4096-PSS",
        S,
        152,
        false,
        526,
        512,
        "PKCS#1 PSS, SHA-256",
        false,
    ),
    alg(
        "RSA-7680-PKCS1",
        S,
        192,
        false,
        974,
        960,
        "PKCS#1 v1.5, SHA-256",
        false,
    ),
    alg(
        "RSA-15360-PKCS1",
        S,
        256,
        false,
        1934,
        1920,
        "PKCS#1 v1.5, SHA-256",
        false,
    ),
];

impl Algorithm {
    /// The RSA modulus size, for RSA sets.
    pub fn rsa_bits(&self) -> Option<usize> {
        let rest = self.name.strip_prefix("RSA-")?;
        rest.split('-').next()?.parse().ok()
    }
    /// Whether `op` does a random amount of work per call by design:
    /// ML-DSA signing rejects and retries (about 4 tries on average for
    /// ML-DSA-44, any one call 1 to 15 or more), RSA key generation
    /// searches for primes. Such a case's fastest round is a lucky batch,
    /// so `compare` judges it by its median.
    pub fn work_varies(&self, op: &str) -> bool {
        let ml_dsa_sign = self.name.starts_with("ML-DSA") && (op == SIGN || op == SIGN_DIGEST);
        let rsa_keygen = self.rsa_bits().is_some() && op == KEYGEN;
        ml_dsa_sign || rsa_keygen
    }
    /// RSA with PSS padding.
    pub fn is_pss(&self) -> bool {
        self.name.ends_with("-PSS")
    }
    /// The operations this kind has, keygen first.
    pub fn operations(&self) -> &'static [&'static str] {
        match self.kind {
            Kind::Kem => &[KEYGEN, ENCAPS, DECAPS],
            Kind::Agreement => &[KEYGEN, DERIVE],
            Kind::Signature => &[KEYGEN, SIGN, VERIFY],
        }
    }
}

/// Operation names, as results store them.
pub const KEYGEN: &str = "keygen";
/// KEM encapsulation.
pub const ENCAPS: &str = "encaps";
/// KEM decapsulation.
pub const DECAPS: &str = "decaps";
/// Diffie-Hellman shared secret from our secret and the peer's share.
pub const DERIVE: &str = "derive";
/// Signature generation.
pub const SIGN: &str = "sign";
/// Signature verification.
pub const VERIFY: &str = "verify";
/// Signing a ready digest: what `openssl speed` times for RSA and ECDSA
/// (no hashing of the message), planned only beside that peer.
pub const SIGN_DIGEST: &str = "sign-digest";

/// An algorithm by exact canonical name.
pub fn by_name(name: &str) -> Option<&'static Algorithm> {
    ALGORITHMS.iter().find(|a| a.name == name)
}

/// Resolves a user-given name (case and separators ignored, did-you-mean).
pub fn resolve(name: &str) -> Result<&'static Algorithm, Error> {
    let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
    let found = names::resolve("pubkey algorithm", name, &names)?;
    Ok(by_name(found).expect("resolved from the table"))
}

/// Resolves a comma-separated list.
pub fn resolve_list(list: &str) -> Result<Vec<&'static Algorithm>, Error> {
    let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
    Ok(names::resolve_list("pubkey algorithm", list, &names)?
        .into_iter()
        .filter_map(by_name)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_case_and_separator_blind_with_suggestions() {
        assert_eq!(resolve("mlkem768").unwrap().name, "ML-KEM-768");
        assert_eq!(resolve("ecdsa_p256").unwrap().name, "ECDSA-P256");
        let err = resolve("ML-KEM-786").unwrap_err().to_string();
        assert!(err.contains("did you mean ML-KEM-768"), "{err}");
    }

    #[test]
    fn rsa_sets_know_their_modulus_and_padding() {
        assert_eq!(resolve("RSA-15360-PKCS1").unwrap().rsa_bits(), Some(15360));
        assert!(resolve("RSA-2048-PSS").unwrap().is_pss());
        assert_eq!(resolve("Ed25519").unwrap().rsa_bits(), None);
    }
}
