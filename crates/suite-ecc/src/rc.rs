//! RustCrypto (p256, p384, p521, k256) and the dalek crates (ed25519-dalek,
//! x25519-dalek): the second implementation that OpenSSL's keys are checked
//! against, and a backend of its own.
//!
//! The four Weierstrass crates share one shape, so one macro writes their
//! [`CurveOps`]; only the curve module differs. Randomness is the operating
//! system's (`OsRng`), as an application would use it.

use crate::curves::Kind;
use crate::ops::{failed, signature_checks, CurveOps, KeyError, Op, CHECKED_KEYS, DIGEST};
use cryptobench_core::{CaseError, CheckResult};
use rand_core::OsRng;
use std::hint::black_box;

/// Crate versions, for the backend's version string.
pub const CRATES: [(&str, &str); 6] = [
    ("p256", "0.13"),
    ("p384", "0.13"),
    ("p521", "0.13"),
    ("k256", "0.13"),
    ("ed25519-dalek", "2"),
    ("x25519-dalek", "2"),
];

/// OpenSSL names of the curves RustCrypto covers.
pub const CURVES: [&str; 6] = [
    "prime256v1",
    "secp384r1",
    "secp521r1",
    "secp256k1",
    "Ed25519",
    "X25519",
];

macro_rules! weierstrass {
    ($module:ident, $krate:ident, $openssl_name:literal) => {
        mod $module {
            use super::*;
            use $krate::ecdsa::signature::hazmat::{PrehashSigner, PrehashVerifier};
            use $krate::ecdsa::{Signature, SigningKey, VerifyingKey};
            use $krate::elliptic_curve::sec1::ToEncodedPoint;
            use $krate::{PublicKey, SecretKey};

            pub fn public(d: &[u8]) -> Option<Vec<u8>> {
                let s = SecretKey::from_slice(d).ok()?;
                Some(s.public_key().to_encoded_point(false).as_bytes().to_vec())
            }

            pub struct Ops {
                nid: i32,
                secret: SecretKey,
                peer: PublicKey,
                signing: SigningKey,
                verifying: VerifyingKey,
                signature: Signature,
            }

            impl Ops {
                pub fn new(nid: i32, op: Op) -> Result<Self, CaseError> {
                    let secret = SecretKey::random(&mut OsRng);
                    let peer = SecretKey::random(&mut OsRng).public_key();
                    let signing = SigningKey::from_slice(&secret.to_bytes())
                        .map_err(|e| failed("signing key", e))?;
                    let verifying = VerifyingKey::from(&signing);
                    let signature: Signature = match signing.sign_prehash(&DIGEST) {
                        Ok(s) => s,
                        // ecdsa 0.16 refuses digests shorter than half the
                        // field (33 bytes on P-521); only signing cases care.
                        Err(_) if matches!(op, Op::Sign | Op::Verify) => {
                            return Err(CaseError::Skipped(short_digest_reason($openssl_name)))
                        }
                        Err(_) => Signature::from_scalars(
                            secret.to_nonzero_scalar().to_bytes(),
                            secret.to_nonzero_scalar().to_bytes(),
                        )
                        .map_err(|e| failed("placeholder signature", e))?,
                    };
                    Ok(Self {
                        nid,
                        secret,
                        peer,
                        signing,
                        verifying,
                        signature,
                    })
                }
            }

            impl CurveOps for Ops {
                fn keygen(&mut self) -> Result<(), CaseError> {
                    let s = SecretKey::random(&mut OsRng);
                    black_box(s.public_key());
                    black_box(s);
                    Ok(())
                }
                fn ecdh(&mut self) -> Result<(), CaseError> {
                    let shared = $krate::ecdh::diffie_hellman(
                        self.secret.to_nonzero_scalar(),
                        self.peer.as_affine(),
                    );
                    black_box(shared.raw_secret_bytes());
                    Ok(())
                }
                fn sign(&mut self) -> Result<(), CaseError> {
                    let s: Signature = self
                        .signing
                        .sign_prehash(black_box(&DIGEST))
                        .map_err(|e| failed("sign", e))?;
                    black_box(s);
                    Ok(())
                }
                fn verify(&mut self) -> Result<(), CaseError> {
                    self.verifying
                        .verify_prehash(black_box(&DIGEST), &self.signature)
                        .map_err(|_| CaseError::Failed("valid signature rejected".into()))
                }
                fn checks(&mut self, op: Op) -> Vec<CheckResult> {
                    match op {
                        Op::Keygen => {
                            let mut checks = vec![crate::ops::each_fresh_key(
                                "key: on curve, n*Q = O, Q = d*G (OpenSSL)",
                                format!("{CHECKED_KEYS} fresh keys checked by OpenSSL"),
                                |_| {
                                    let s = SecretKey::random(&mut OsRng);
                                    let q = s.public_key().to_encoded_point(false);
                                    crate::ossl::check_foreign_key(
                                        self.nid,
                                        &s.to_bytes(),
                                        q.as_bytes(),
                                    )
                                },
                            )];
                            if $openssl_name == "prime256v1" {
                                checks.push(crate::kat::check_vector(
                                    &crate::kat::P256,
                                    "RustCrypto",
                                    |d| {
                                        public(d).ok_or_else(|| {
                                            KeyError::Library("scalar refused".into())
                                        })
                                    },
                                ));
                            }
                            checks
                        }
                        Op::Ecdh => {
                            let a = SecretKey::random(&mut OsRng);
                            let b = SecretKey::random(&mut OsRng);
                            let ab = $krate::ecdh::diffie_hellman(
                                a.to_nonzero_scalar(),
                                b.public_key().as_affine(),
                            );
                            let ba = $krate::ecdh::diffie_hellman(
                                b.to_nonzero_scalar(),
                                a.public_key().as_affine(),
                            );
                            let same = ab.raw_secret_bytes() == ba.raw_secret_bytes();
                            vec![crate::ops::agreement_check(Ok(same))]
                        }
                        Op::Sign | Op::Verify => {
                            let signing = self.signing.clone();
                            let verifying = self.verifying.clone();
                            let mut sign = |m: &[u8]| -> Result<Vec<u8>, KeyError> {
                                let s: Signature = signing
                                    .sign_prehash(m)
                                    .map_err(|e| KeyError::Library(e.to_string()))?;
                                Ok(s.to_bytes().to_vec())
                            };
                            let mut verify = |m: &[u8], s: &[u8]| -> bool {
                                Signature::from_slice(s)
                                    .map(|sig| verifying.verify_prehash(m, &sig).is_ok())
                                    .unwrap_or(false)
                            };
                            signature_checks(&mut sign, &mut verify)
                        }
                    }
                }
            }
        }
    };
}

weierstrass!(nist_p256, p256, "prime256v1");
weierstrass!(nist_p384, p384, "secp384r1");
weierstrass!(nist_p521, p521, "secp521r1");
weierstrass!(secg_k256, k256, "secp256k1");

/// Why RustCrypto cannot sign the suite's 32-byte digest on a curve.
pub fn short_digest_reason(curve: &str) -> String {
    format!(
        "unsupported: RustCrypto ecdsa 0.16 refuses a 32-byte prehash on {curve} \
         (it requires at least half the field size)"
    )
}

/// Whether RustCrypto can run `op` on `curve` with the suite's digest.
pub fn unsupported(curve: &str, op: Op) -> Option<String> {
    (curve == "secp521r1" && matches!(op, Op::Sign | Op::Verify))
        .then(|| short_digest_reason(curve))
}

/// The RustCrypto public point (SEC1 uncompressed) of a private scalar on a
/// curve it covers; `None` for other curves or a refused scalar.
pub fn public_from_scalar(curve: &str, d: &[u8]) -> Option<Vec<u8>> {
    match curve {
        "prime256v1" => nist_p256::public(d),
        "secp384r1" => nist_p384::public(d),
        "secp521r1" => nist_p521::public(d),
        "secp256k1" => secg_k256::public(d),
        _ => None,
    }
}

/// RustCrypto operations on one of its curves, prepared for any operation.
pub fn ops_for(curve: &crate::curves::Curve, op: Op) -> Result<Box<dyn CurveOps>, CaseError> {
    let nid = match curve.kind {
        Kind::Weierstrass(nid) => nid,
        Kind::Ed25519 => return Ok(Box::new(DalekEd25519::new())),
        Kind::X25519 => return Ok(Box::new(DalekX25519::new())),
        _ => {
            return Err(CaseError::Skipped(format!(
                "RustCrypto has no {}",
                curve.name
            )))
        }
    };
    Ok(match curve.name.as_str() {
        "prime256v1" => Box::new(nist_p256::Ops::new(nid, op)?),
        "secp384r1" => Box::new(nist_p384::Ops::new(nid, op)?),
        "secp521r1" => Box::new(nist_p521::Ops::new(nid, op)?),
        "secp256k1" => Box::new(secg_k256::Ops::new(nid, op)?),
        other => return Err(CaseError::Skipped(format!("RustCrypto has no {other}"))),
    })
}

/// Checks an Edwards/Montgomery key pair given as raw bytes against a
/// second implementation: the dalek crates for the 25519 curves (which also
/// decompress the point and test n*Q = O), OpenSSL's raw-key import for
/// the 448 curves.
pub fn check_edx_key(kind: Kind, d: &[u8], q: &[u8]) -> Result<(), KeyError> {
    let mismatch = |why: &str| KeyError::Mismatch(why.into());
    use curve25519_dalek::edwards::CompressedEdwardsY;
    use curve25519_dalek::montgomery::MontgomeryPoint;
    let d32: Option<[u8; 32]> = d.try_into().ok();
    let q32: Option<[u8; 32]> = q.try_into().ok();
    match kind {
        Kind::Ed25519 => {
            let (d, q) = d32
                .zip(q32)
                .ok_or_else(|| mismatch("Ed25519 keys are 32 bytes"))?;
            let ours = ed25519_dalek::SigningKey::from_bytes(&d)
                .verifying_key()
                .to_bytes();
            let point = CompressedEdwardsY(q)
                .decompress()
                .ok_or_else(|| mismatch("public key is not on the curve"))?;
            if !point.is_torsion_free() {
                return Err(mismatch("public point does not have the group order"));
            }
            if ours != q {
                return Err(mismatch("ed25519-dalek derives a different public key"));
            }
            Ok(())
        }
        Kind::X25519 => {
            let (d, q) = d32
                .zip(q32)
                .ok_or_else(|| mismatch("X25519 keys are 32 bytes"))?;
            let ours = x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(d));
            let point = MontgomeryPoint(q)
                .to_edwards(0)
                .ok_or_else(|| mismatch("u-coordinate is on the twist"))?;
            if !point.is_torsion_free() {
                return Err(mismatch("public point does not have the group order"));
            }
            if ours.as_bytes() != &q {
                return Err(mismatch("x25519-dalek derives a different public key"));
            }
            Ok(())
        }
        Kind::X448 | Kind::Ed448 => {
            let again = crate::ossl::edx_public_from_private(kind, d)?;
            if again != q {
                return Err(mismatch(
                    "re-importing the private key gives a different public key",
                ));
            }
            Ok(())
        }
        Kind::Weierstrass(_) => Err(mismatch("not an Edwards/Montgomery curve")),
    }
}

/// What [`check_edx_key`] uses as the second path, for check details.
pub fn edx_second_path(kind: Kind) -> &'static str {
    match kind {
        Kind::Ed25519 => "ed25519-dalek (point decompressed, l*Q = O tested)",
        Kind::X25519 => "x25519-dalek (u mapped to Edwards, l*Q = O tested)",
        _ => "OpenSSL raw private-key import (no second library for Curve448 here)",
    }
}

/// ed25519-dalek.
pub struct DalekEd25519 {
    signing: ed25519_dalek::SigningKey,
    signature: ed25519_dalek::Signature,
}

impl DalekEd25519 {
    fn new() -> Self {
        use ed25519_dalek::Signer;
        let signing = ed25519_dalek::SigningKey::generate(&mut OsRng);
        let signature = signing.sign(&DIGEST);
        Self { signing, signature }
    }
}

impl CurveOps for DalekEd25519 {
    fn keygen(&mut self) -> Result<(), CaseError> {
        let k = ed25519_dalek::SigningKey::generate(&mut OsRng);
        black_box(k.verifying_key());
        Ok(())
    }
    fn sign(&mut self) -> Result<(), CaseError> {
        use ed25519_dalek::Signer;
        black_box(self.signing.sign(black_box(&DIGEST)));
        Ok(())
    }
    fn verify(&mut self) -> Result<(), CaseError> {
        use ed25519_dalek::Verifier;
        self.signing
            .verifying_key()
            .verify(black_box(&DIGEST), &self.signature)
            .map_err(|_| CaseError::Failed("valid signature rejected".into()))
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        use ed25519_dalek::{Signer, Verifier};
        match op {
            Op::Keygen => edx_keygen_checks(
                Kind::Ed25519,
                "ed25519-dalek",
                |d| {
                    let d = ed25519_dalek::SigningKey::from_bytes(&scalar_32(d)?);
                    Ok(d.verifying_key().to_bytes().to_vec())
                },
                || {
                    let k = ed25519_dalek::SigningKey::generate(&mut OsRng);
                    (k.to_bytes().to_vec(), k.verifying_key().to_bytes().to_vec())
                },
            ),
            Op::Ecdh => vec![CheckResult::skipped("ecdh", "signature curve")],
            Op::Sign | Op::Verify => {
                let signing = self.signing.clone();
                let mut sign = |m: &[u8]| Ok(signing.sign(m).to_bytes().to_vec());
                let mut verify = |m: &[u8], s: &[u8]| {
                    ed25519_dalek::Signature::from_slice(s)
                        .map(|sig| signing.verifying_key().verify(m, &sig).is_ok())
                        .unwrap_or(false)
                };
                signature_checks(&mut sign, &mut verify)
            }
        }
    }
}

/// x25519-dalek.
pub struct DalekX25519 {
    secret: x25519_dalek::StaticSecret,
    peer: x25519_dalek::PublicKey,
}

impl DalekX25519 {
    fn new() -> Self {
        let secret = x25519_dalek::StaticSecret::random_from_rng(OsRng);
        let other = x25519_dalek::StaticSecret::random_from_rng(OsRng);
        Self {
            secret,
            peer: x25519_dalek::PublicKey::from(&other),
        }
    }
}

impl CurveOps for DalekX25519 {
    fn keygen(&mut self) -> Result<(), CaseError> {
        let s = x25519_dalek::StaticSecret::random_from_rng(OsRng);
        black_box(x25519_dalek::PublicKey::from(&s));
        Ok(())
    }
    fn ecdh(&mut self) -> Result<(), CaseError> {
        black_box(self.secret.diffie_hellman(black_box(&self.peer)));
        Ok(())
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        use x25519_dalek::{PublicKey, StaticSecret};
        match op {
            Op::Keygen => edx_keygen_checks(
                Kind::X25519,
                "x25519-dalek",
                |d| {
                    Ok(PublicKey::from(&StaticSecret::from(scalar_32(d)?))
                        .as_bytes()
                        .to_vec())
                },
                || {
                    let s = StaticSecret::random_from_rng(OsRng);
                    let public = PublicKey::from(&s).as_bytes().to_vec();
                    (s.to_bytes().to_vec(), public)
                },
            ),
            Op::Ecdh => {
                let a = StaticSecret::random_from_rng(OsRng);
                let b = StaticSecret::random_from_rng(OsRng);
                let ab = a.diffie_hellman(&PublicKey::from(&b));
                let ba = b.diffie_hellman(&PublicKey::from(&a));
                let same = ab.as_bytes() == ba.as_bytes();
                vec![crate::ops::agreement_check(Ok(same))]
            }
            Op::Sign | Op::Verify => vec![CheckResult::skipped("sign", "key-agreement curve")],
        }
    }
}

/// A 32-byte private key, as the Edwards and Montgomery APIs take it.
fn scalar_32(d: &[u8]) -> Result<[u8; 32], KeyError> {
    d.try_into()
        .map_err(|_| KeyError::Mismatch("bad length".into()))
}

/// Key generation's checks on an Edwards or Montgomery curve: the
/// standard's known answer through `derive` (private to public key), then
/// OpenSSL deriving the same public key from `fresh` pairs.
pub fn edx_keygen_checks(
    kind: Kind,
    backend: &str,
    derive: impl Fn(&[u8]) -> Result<Vec<u8>, KeyError>,
    fresh: impl FnMut() -> (Vec<u8>, Vec<u8>),
) -> Vec<CheckResult> {
    vec![
        crate::kat::check_with(kind, backend, derive),
        cross_check_edx(kind, backend, fresh),
    ]
}

/// Keys generated by `backend` give the same public key in OpenSSL.
fn cross_check_edx(
    kind: Kind,
    backend: &str,
    mut fresh: impl FnMut() -> (Vec<u8>, Vec<u8>),
) -> CheckResult {
    let name = "cross-backend: OpenSSL derives the same public key";
    for i in 0..CHECKED_KEYS {
        let (d, q) = fresh();
        match crate::ossl::edx_public_from_private(kind, &d) {
            Ok(theirs) if theirs == q => {}
            Ok(_) => return CheckResult::fail(name, format!("{backend} key {i}: OpenSSL differs")),
            Err(e) => return CheckResult::fail(name, format!("{backend} key {i}: {e}")),
        }
    }
    CheckResult::pass(name, format!("{CHECKED_KEYS} fresh {backend} keys"))
}
