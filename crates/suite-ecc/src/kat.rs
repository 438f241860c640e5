//! Known-answer key pairs: a fixed private key must give the published
//! public key in every backend before any of its key generation is timed.
//!
//! Sources, next to each vector:
//! - X25519 / X448: RFC 7748 section 6.1 / 6.2 (Alice's key pair).
//! - Ed25519 / Ed448: RFC 8032 section 7.1 TEST 1 / section 7.4 "Blank".
//! - P-256: RFC 6979 appendix A.2.5 (private key x, public key Ux, Uy).

use crate::curves::Kind;
use crate::ops::KeyError;
use cryptobench_core::CheckResult;

/// One private key and the public key it must give.
pub struct KnownKey {
    /// Where the vector is published.
    pub source: &'static str,
    /// Private key (raw form: scalar or seed), hex.
    pub private: &'static str,
    /// Public key (raw form; SEC1 uncompressed for P-256), hex.
    pub public: &'static str,
}

/// RFC 7748 section 6.1, Alice.
pub const X25519: KnownKey = KnownKey {
    source: "RFC 7748 section 6.1",
    private: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
    public: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
};

/// RFC 7748 section 6.2, Alice.
pub const X448: KnownKey = KnownKey {
    source: "RFC 7748 section 6.2",
    private: "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b",
    public: "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0",
};

/// RFC 8032 section 7.1, TEST 1.
pub const ED25519: KnownKey = KnownKey {
    source: "RFC 8032 section 7.1 TEST 1",
    private: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
};

/// RFC 8032 section 7.4, "Blank" (Ed448, empty message).
pub const ED448: KnownKey = KnownKey {
    source: "RFC 8032 section 7.4 Blank",
    private: "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
    public: "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180",
};

/// RFC 6979 appendix A.2.5 (P-256 key pair), public key as 04 || Ux || Uy.
pub const P256: KnownKey = KnownKey {
    source: "RFC 6979 appendix A.2.5",
    private: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
    public: "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
};

/// The vector for an Edwards/Montgomery curve.
pub fn for_kind(kind: Kind) -> Option<&'static KnownKey> {
    match kind {
        Kind::X25519 => Some(&X25519),
        Kind::X448 => Some(&X448),
        Kind::Ed25519 => Some(&ED25519),
        Kind::Ed448 => Some(&ED448),
        Kind::Weierstrass(_) => None,
    }
}

/// Runs `derive` (private -> public) on the vector of `kind` and compares.
pub fn check_with(
    kind: Kind,
    backend: &str,
    derive: impl Fn(&[u8]) -> Result<Vec<u8>, KeyError>,
) -> CheckResult {
    let Some(v) = for_kind(kind) else {
        return CheckResult::skipped("kat: public key", "no vector for this curve");
    };
    check_vector(v, backend, derive)
}

/// Compares `derive(private)` with the vector's public key.
pub fn check_vector(
    v: &KnownKey,
    backend: &str,
    derive: impl Fn(&[u8]) -> Result<Vec<u8>, KeyError>,
) -> CheckResult {
    let name = format!("kat: {}", v.source);
    let (Ok(d), Ok(q)) = (hex::decode(v.private), hex::decode(v.public)) else {
        return CheckResult::fail(name, "vector is not hex");
    };
    match derive(&d) {
        Ok(got) if got == q => CheckResult::pass(name, format!("{backend}: public key matches")),
        Ok(got) => CheckResult::fail(
            name,
            format!("{backend}: public key {} != {}", hex::encode(got), v.public),
        ),
        Err(e) => CheckResult::fail(name, format!("{backend}: {e}")),
    }
}

/// The OpenSSL known-answer check of an Edwards/Montgomery curve.
pub fn openssl_known_answer(kind: Kind) -> CheckResult {
    check_with(kind, "OpenSSL", |d| {
        crate::ossl::edx_public_from_private(kind, d)
    })
}
