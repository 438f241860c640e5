//! RustCrypto: `ml-kem`, `ml-dsa`, `slh-dsa`, `rsa`, `p256`/`p384`/`p521`,
//! `ed25519-dalek`, `x25519-dalek`. Pure Rust, one generation of traits
//! (rand_core 0.6, signature 2) except `slh-dsa`, whose only FIPS 205
//! release is on the next one; its keys are made from OS bytes directly.

use crate::algorithms::Algorithm;
use crate::engines::{
    impl_entry, random, AgreementSecret, BackendLists, Entry, Kem, KemPublic, KemSecret,
    KeyAgreement, Missing, Signer, SigningKey, VerifyingKey,
};
use crate::error::{contributory, expect_len, PkError};
use rand_core::OsRng;

/// Backend name.
pub const NAME: &str = "rustcrypto";

/// This backend's lists, for the registry in [`crate::engines`].
pub const LISTS: BackendLists = BackendLists::new(kems, agreements, signers);

/// The crate behind a set (versions as locked in Cargo.lock).
fn crate_of(alg: &str) -> &'static str {
    match alg {
        a if a.starts_with("ML-KEM") => "ml-kem 0.2.3",
        a if a.starts_with("ML-DSA") => "ml-dsa 0.1.2",
        a if a.starts_with("SLH-DSA") => "slh-dsa 0.2.0-rc.5",
        a if a.starts_with("RSA") => "rsa 0.9.10",
        a if a.ends_with("P256") => "p256 0.13.2",
        a if a.ends_with("P384") => "p384 0.13.1",
        a if a.ends_with("P521") => "p521 0.13.3",
        "Ed25519" => "ed25519-dalek 2.2.0",
        "X25519" => "x25519-dalek 2.0.1",
        "X448" => "x448 (not used)",
        _ => "ed448-goldilocks (not used)",
    }
}

fn version_of(alg: &str) -> String {
    format!("RustCrypto {}", crate_of(alg))
}

/// A set whose RustCrypto crate (`krate`) has only pre-releases, which the
/// suite does not build on.
fn pre_release_only(set: &str, krate: &str) -> Missing {
    let reason = format!("RustCrypto's {krate} has only pre-releases (0.14.0-pre)");
    Missing::new(NAME, version_of(set), set, reason)
}

// ---------------------------------------------------------------- ML-KEM

macro_rules! ml_kem {
    ($entry:ident, $secret:ident, $public:ident, $kem:ty) => {
        struct $entry(&'static str);
        impl_entry!($entry, NAME, version_of);
        struct $secret(<$kem as ml_kem::KemCore>::DecapsulationKey);
        struct $public(<$kem as ml_kem::KemCore>::EncapsulationKey);

        impl Kem for $entry {
            fn generate(&self) -> Result<Box<dyn KemSecret>, PkError> {
                let (dk, _ek) = <$kem as ml_kem::KemCore>::generate(&mut OsRng);
                Ok(Box::new($secret(dk)))
            }
            fn generate_from_seed(&self, seed: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
                expect_len("ML-KEM seed d || z", seed, 64)?;
                let d =
                    ml_kem::B32::try_from(&seed[..32]).map_err(|_| PkError::encoding("seed"))?;
                let z =
                    ml_kem::B32::try_from(&seed[32..]).map_err(|_| PkError::encoding("seed"))?;
                let (dk, _ek) = <$kem as ml_kem::KemCore>::generate_deterministic(&d, &z);
                Ok(Box::new($secret(dk)))
            }
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
                use ml_kem::EncodedSizeUser;
                type Dk = <$kem as ml_kem::KemCore>::DecapsulationKey;
                let enc = ml_kem::Encoded::<Dk>::try_from(secret).map_err(|_| {
                    PkError::encoding(format!(
                        "{} decapsulation key has {} bytes; expected the FIPS 203 encoding",
                        self.0,
                        secret.len()
                    ))
                })?;
                Ok(Box::new($secret(Dk::from_bytes(&enc))))
            }
            fn import_public(&self, public: &[u8]) -> Result<Box<dyn KemPublic>, PkError> {
                use ml_kem::EncodedSizeUser;
                type Ek = <$kem as ml_kem::KemCore>::EncapsulationKey;
                expect_len("encapsulation key", public, self.algorithm().public_bytes)?;
                let enc = ml_kem::Encoded::<Ek>::try_from(public)
                    .map_err(|_| PkError::encoding("encapsulation key length"))?;
                Ok(Box::new($public(Ek::from_bytes(&enc))))
            }
        }

        impl KemSecret for $secret {
            fn public_key(&self) -> Vec<u8> {
                use ml_kem::EncodedSizeUser;
                self.0.encapsulation_key().as_bytes().to_vec()
            }
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                use ml_kem::EncodedSizeUser;
                Ok(self.0.as_bytes().to_vec())
            }
            fn decaps(&self, ciphertext: &[u8]) -> Result<Vec<u8>, PkError> {
                use ml_kem::kem::Decapsulate;
                let ct = ml_kem::Ciphertext::<$kem>::try_from(ciphertext).map_err(|_| {
                    PkError::encoding(format!(
                        "ciphertext has {} bytes; expected the FIPS 203 length",
                        ciphertext.len()
                    ))
                })?;
                let ss = self
                    .0
                    .decapsulate(&ct)
                    .map_err(|_| PkError::crypto("decapsulation failed"))?;
                Ok(ss.to_vec())
            }
        }

        impl KemPublic for $public {
            fn encaps(&self) -> Result<(Vec<u8>, Vec<u8>), PkError> {
                use ml_kem::kem::Encapsulate;
                let (ct, ss) = self
                    .0
                    .encapsulate(&mut OsRng)
                    .map_err(|_| PkError::crypto("encapsulation failed"))?;
                Ok((ct.to_vec(), ss.to_vec()))
            }
        }
    };
}

ml_kem!(MlKem512, MlKem512Secret, MlKem512Public, ml_kem::MlKem512);
ml_kem!(MlKem768, MlKem768Secret, MlKem768Public, ml_kem::MlKem768);
ml_kem!(
    MlKem1024,
    MlKem1024Secret,
    MlKem1024Public,
    ml_kem::MlKem1024
);

/// RustCrypto's KEMs.
pub fn kems() -> Vec<Box<dyn Kem>> {
    vec![
        Box::new(MlKem512("ML-KEM-512")),
        Box::new(MlKem768("ML-KEM-768")),
        Box::new(MlKem1024("ML-KEM-1024")),
    ]
}

// ---------------------------------------------------------- key agreement

struct X25519(&'static str);
impl_entry!(X25519, NAME, version_of);
struct X25519Secret(x25519_dalek::StaticSecret, Option<x25519_dalek::PublicKey>);

impl KeyAgreement for X25519 {
    fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError> {
        Ok(Box::new(X25519Secret(
            x25519_dalek::StaticSecret::random_from_rng(OsRng),
            None,
        )))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError> {
        let bytes: [u8; 32] = secret
            .try_into()
            .map_err(|_| PkError::encoding("X25519 secret must be 32 bytes (RFC 7748)"))?;
        Ok(Box::new(X25519Secret(
            x25519_dalek::StaticSecret::from(bytes),
            None,
        )))
    }
}

impl AgreementSecret for X25519Secret {
    fn public_key(&self) -> Vec<u8> {
        x25519_dalek::PublicKey::from(&self.0).as_bytes().to_vec()
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(self.0.to_bytes().to_vec())
    }
    fn derive(&self, peer: &[u8]) -> Result<Vec<u8>, PkError> {
        let peer = x25519_share(peer)?;
        contributory(self.0.diffie_hellman(&peer).as_bytes().to_vec())
    }
    fn prepare_peer(&mut self, peer: &[u8]) -> Result<(), PkError> {
        self.1 = Some(x25519_share(peer)?);
        Ok(())
    }
    fn derive_prepared(&mut self) -> Result<Vec<u8>, PkError> {
        let peer = self.1.as_ref().ok_or_else(no_peer)?;
        contributory(self.0.diffie_hellman(peer).as_bytes().to_vec())
    }
}

fn no_peer() -> PkError {
    PkError::crypto("no peer share prepared")
}

fn x25519_share(peer: &[u8]) -> Result<x25519_dalek::PublicKey, PkError> {
    let peer: [u8; 32] = peer
        .try_into()
        .map_err(|_| PkError::encoding("X25519 share must be 32 bytes (RFC 7748)"))?;
    Ok(x25519_dalek::PublicKey::from(peer))
}

macro_rules! ecdh {
    ($entry:ident, $secret:ident, $curve:ident) => {
        struct $entry(&'static str);
        impl_entry!($entry, NAME, version_of);
        struct $secret($curve::SecretKey, Option<$curve::PublicKey>);

        impl KeyAgreement for $entry {
            fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError> {
                Ok(Box::new($secret(
                    $curve::SecretKey::random(&mut OsRng),
                    None,
                )))
            }
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError> {
                let want = (self.algorithm().public_bytes - 1) / 2;
                expect_len("EC secret scalar", secret, want)?;
                $curve::SecretKey::from_slice(secret)
                    .map(|k| Box::new($secret(k, None)) as Box<dyn AgreementSecret>)
                    .map_err(|_| PkError::encoding("EC secret scalar out of range"))
            }
        }

        impl AgreementSecret for $secret {
            fn public_key(&self) -> Vec<u8> {
                use $curve::elliptic_curve::sec1::ToEncodedPoint;
                self.0
                    .public_key()
                    .to_encoded_point(false)
                    .as_bytes()
                    .to_vec()
            }
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                Ok(self.0.to_bytes().to_vec())
            }
            fn derive(&self, peer: &[u8]) -> Result<Vec<u8>, PkError> {
                let peer = $curve::PublicKey::from_sec1_bytes(peer)
                    .map_err(|_| PkError::encoding("not a point on the curve (SEC1)"))?;
                let shared =
                    $curve::ecdh::diffie_hellman(self.0.to_nonzero_scalar(), peer.as_affine());
                Ok(shared.raw_secret_bytes().to_vec())
            }
            fn prepare_peer(&mut self, peer: &[u8]) -> Result<(), PkError> {
                self.1 = Some(
                    $curve::PublicKey::from_sec1_bytes(peer)
                        .map_err(|_| PkError::encoding("not a point on the curve (SEC1)"))?,
                );
                Ok(())
            }
            fn derive_prepared(&mut self) -> Result<Vec<u8>, PkError> {
                let peer = self.1.as_ref().ok_or_else(no_peer)?;
                let shared =
                    $curve::ecdh::diffie_hellman(self.0.to_nonzero_scalar(), peer.as_affine());
                Ok(shared.raw_secret_bytes().to_vec())
            }
        }
    };
}

ecdh!(EcdhP256, EcdhP256Secret, p256);
ecdh!(EcdhP384, EcdhP384Secret, p384);
ecdh!(EcdhP521, EcdhP521Secret, p521);

/// RustCrypto's key agreements.
pub fn agreements() -> Vec<Box<dyn KeyAgreement>> {
    vec![
        Box::new(X25519("X25519")),
        Box::new(pre_release_only("X448", "x448")),
        Box::new(EcdhP256("ECDH-P256")),
        Box::new(EcdhP384("ECDH-P384")),
        Box::new(EcdhP521("ECDH-P521")),
    ]
}

// ------------------------------------------------------------- signatures

/// FIPS 204 signing-key coefficient check: s1 and s2 pack each
/// coefficient as eta - c in bitlen(2 eta) bits, so a value above 2 eta is
/// malformed. ml-dsa 0.1.2 asserts on such keys; they are refused here
/// first so no user file can make it panic.
fn ml_dsa_secret_in_range(secret: &[u8], k: usize, l: usize, eta: u32) -> bool {
    let bits = if eta == 2 { 3 } else { 4 };
    let start = 32 + 32 + 64;
    let len = (k + l) * 256 * bits / 8;
    let Some(packed) = secret.get(start..start + len) else {
        return false;
    };
    (0..(k + l) * 256).all(|i| {
        let bit = i * bits;
        let word = packed[bit / 8] as u32 | (*packed.get(bit / 8 + 1).unwrap_or(&0) as u32) << 8;
        (word >> (bit % 8)) & ((1 << bits) - 1) <= 2 * eta
    })
}

macro_rules! ml_dsa {
    ($entry:ident, $signing:ident, $verifying:ident, $p:ty, $k:literal, $l:literal, $eta:literal) => {
        struct $entry(&'static str);
        impl_entry!($entry, NAME, version_of);
        // The FIPS 204 expanded key (what liboqs and the files carry); ml-dsa
        // 0.1 deprecates that encoding in favour of the 32-byte seed.
        struct $signing(ml_dsa::ExpandedSigningKey<$p>, Option<Vec<u8>>);
        struct $verifying(ml_dsa::VerifyingKey<$p>);

        impl Signer for $entry {
            fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
                let seed = ml_dsa::B32::from(random::<32>());
                let key = ml_dsa::ExpandedSigningKey::<$p>::from_seed(&seed);
                let public = key.verifying_key().encode().to_vec();
                Ok(Box::new($signing(key, Some(public))))
            }
            #[allow(deprecated)]
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
                let enc =
                    ml_dsa::ExpandedSigningKeyBytes::<$p>::try_from(secret).map_err(|_| {
                        PkError::encoding(format!(
                            "{} signing key has {} bytes; expected the FIPS 204 encoding",
                            self.0,
                            secret.len()
                        ))
                    })?;
                if !ml_dsa_secret_in_range(secret, $k, $l, $eta) {
                    return Err(PkError::encoding(
                        "ML-DSA signing key has s1/s2 coefficients out of range (FIPS 204)",
                    ));
                }
                let key = ml_dsa::ExpandedSigningKey::<$p>::from_expanded(&enc);
                Ok(Box::new($signing(key, None)))
            }
            fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
                let enc = ml_dsa::EncodedVerifyingKey::<$p>::try_from(public)
                    .map_err(|_| PkError::encoding("ML-DSA verifying key length"))?;
                Ok(Box::new($verifying(ml_dsa::VerifyingKey::<$p>::decode(
                    &enc,
                ))))
            }
        }

        impl SigningKey for $signing {
            fn public_key(&self) -> Result<Vec<u8>, PkError> {
                self.1.clone().ok_or_else(|| {
                    PkError::encoding("a FIPS 204 signing key does not carry its public key")
                })
            }
            #[allow(deprecated)]
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                Ok(self.0.to_expanded().to_vec())
            }
            fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
                // Hedged (fresh rnd), empty context: M' = 0 || 0 || M (FIPS 204 Alg. 2).
                let rnd = ml_dsa::B32::from(random::<32>());
                Ok(self
                    .0
                    .sign_internal(&[&[0, 0], message], &rnd)
                    .encode()
                    .to_vec())
            }
        }

        impl VerifyingKey for $verifying {
            fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
                let Ok(enc) = ml_dsa::EncodedSignature::<$p>::try_from(signature) else {
                    return Ok(false);
                };
                let Some(sig) = ml_dsa::Signature::<$p>::decode(&enc) else {
                    return Ok(false);
                };
                Ok(self.0.verify_with_context(message, &[], &sig))
            }
        }
    };
}

ml_dsa!(
    MlDsa44,
    MlDsa44Signing,
    MlDsa44Verifying,
    ml_dsa::MlDsa44,
    4,
    4,
    2
);
ml_dsa!(
    MlDsa65,
    MlDsa65Signing,
    MlDsa65Verifying,
    ml_dsa::MlDsa65,
    6,
    5,
    4
);
ml_dsa!(
    MlDsa87,
    MlDsa87Signing,
    MlDsa87Verifying,
    ml_dsa::MlDsa87,
    8,
    7,
    2
);

macro_rules! slh_dsa {
    ($entry:ident, $signing:ident, $verifying:ident, $p:ty) => {
        struct $entry(&'static str);
        impl_entry!($entry, NAME, version_of);
        struct $signing(slh_dsa::SigningKey<$p>);
        struct $verifying(slh_dsa::VerifyingKey<$p>);

        impl Signer for $entry {
            fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
                // n = 16 for the 128-bit sets: SK.seed, SK.prf, PK.seed.
                let (seed, prf, pk_seed) = (random::<16>(), random::<16>(), random::<16>());
                Ok(Box::new($signing(
                    slh_dsa::SigningKey::<$p>::slh_keygen_internal(&seed, &prf, &pk_seed),
                )))
            }
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
                slh_dsa::SigningKey::<$p>::try_from(secret)
                    .map(|k| Box::new($signing(k)) as Box<dyn SigningKey>)
                    .map_err(|_| {
                        PkError::encoding("SLH-DSA signing key: expected 64 bytes (FIPS 205)")
                    })
            }
            fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
                slh_dsa::VerifyingKey::<$p>::try_from(public)
                    .map(|k| Box::new($verifying(k)) as Box<dyn VerifyingKey>)
                    .map_err(|_| {
                        PkError::encoding("SLH-DSA verifying key: expected 32 bytes (FIPS 205)")
                    })
            }
        }

        impl SigningKey for $signing {
            fn public_key(&self) -> Result<Vec<u8>, PkError> {
                let vk: &slh_dsa::VerifyingKey<$p> = self.0.as_ref();
                Ok(vk.to_bytes().to_vec())
            }
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                Ok(self.0.to_bytes().to_vec())
            }
            fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
                // Hedged (opt_rand fresh), empty context, as FIPS 205 recommends.
                let sig = self
                    .0
                    .try_sign_with_context(message, &[], Some(&random::<16>()))
                    .map_err(|_| PkError::crypto("signing failed"))?;
                Ok(sig.to_bytes().to_vec())
            }
        }

        impl VerifyingKey for $verifying {
            fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
                let Ok(sig) = slh_dsa::Signature::<$p>::try_from(signature) else {
                    return Ok(false);
                };
                Ok(self.0.try_verify_with_context(message, &[], &sig).is_ok())
            }
        }
    };
}

slh_dsa!(
    SlhSha2s,
    SlhSha2sSigning,
    SlhSha2sVerifying,
    slh_dsa::Sha2_128s
);
slh_dsa!(
    SlhSha2f,
    SlhSha2fSigning,
    SlhSha2fVerifying,
    slh_dsa::Sha2_128f
);
slh_dsa!(
    SlhShakes,
    SlhShakesSigning,
    SlhShakesVerifying,
    slh_dsa::Shake128s
);
slh_dsa!(
    SlhShakef,
    SlhShakefSigning,
    SlhShakefVerifying,
    slh_dsa::Shake128f
);

struct Ed25519(&'static str);
impl_entry!(Ed25519, NAME, version_of);
struct Ed25519Signing(ed25519_dalek::SigningKey);
struct Ed25519Verifying(ed25519_dalek::VerifyingKey);

impl Signer for Ed25519 {
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
        Ok(Box::new(Ed25519Signing(
            ed25519_dalek::SigningKey::generate(&mut OsRng),
        )))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
        let seed: [u8; 32] = secret
            .try_into()
            .map_err(|_| PkError::encoding("Ed25519 secret must be the 32-byte seed (RFC 8032)"))?;
        Ok(Box::new(Ed25519Signing(
            ed25519_dalek::SigningKey::from_bytes(&seed),
        )))
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
        let bytes: [u8; 32] = public
            .try_into()
            .map_err(|_| PkError::encoding("Ed25519 public key must be 32 bytes (RFC 8032)"))?;
        ed25519_dalek::VerifyingKey::from_bytes(&bytes)
            .map(|k| Box::new(Ed25519Verifying(k)) as Box<dyn VerifyingKey>)
            .map_err(|_| PkError::encoding("not an Ed25519 point"))
    }
}

impl SigningKey for Ed25519Signing {
    fn public_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(self.0.verifying_key().as_bytes().to_vec())
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(self.0.to_bytes().to_vec())
    }
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
        use ed25519_dalek::Signer as _;
        Ok(self.0.sign(message).to_bytes().to_vec())
    }
}

impl VerifyingKey for Ed25519Verifying {
    fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
        let Ok(sig) = ed25519_dalek::Signature::from_slice(signature) else {
            return Ok(false);
        };
        Ok(self.0.verify_strict(message, &sig).is_ok())
    }
}

macro_rules! ecdsa {
    ($entry:ident, $signing:ident, $verifying:ident, $curve:ident) => {
        struct $entry(&'static str);
        impl_entry!($entry, NAME, version_of);
        struct $signing($curve::ecdsa::SigningKey);
        struct $verifying($curve::ecdsa::VerifyingKey);

        impl Signer for $entry {
            fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
                Ok(Box::new($signing($curve::ecdsa::SigningKey::random(
                    &mut OsRng,
                ))))
            }
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
                let want = (self.algorithm().public_bytes - 1) / 2;
                expect_len("EC secret scalar", secret, want)?;
                $curve::ecdsa::SigningKey::from_slice(secret)
                    .map(|k| Box::new($signing(k)) as Box<dyn SigningKey>)
                    .map_err(|_| PkError::encoding("EC secret scalar out of range"))
            }
            fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
                $curve::ecdsa::VerifyingKey::from_sec1_bytes(public)
                    .map(|k| Box::new($verifying(k)) as Box<dyn VerifyingKey>)
                    .map_err(|_| PkError::encoding("not a point on the curve (SEC1)"))
            }
        }

        impl SigningKey for $signing {
            fn public_key(&self) -> Result<Vec<u8>, PkError> {
                Ok($curve::ecdsa::VerifyingKey::from(&self.0)
                    .to_encoded_point(false)
                    .as_bytes()
                    .to_vec())
            }
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                Ok(self.0.to_bytes().to_vec())
            }
            fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
                use $curve::ecdsa::signature::Signer as _;
                let sig: $curve::ecdsa::Signature = self.0.sign(message);
                Ok(sig.to_der().as_bytes().to_vec())
            }
        }

        impl VerifyingKey for $verifying {
            fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
                use $curve::ecdsa::signature::Verifier as _;
                let Ok(sig) = $curve::ecdsa::Signature::from_der(signature) else {
                    return Ok(false);
                };
                Ok(self.0.verify(message, &sig).is_ok())
            }
        }
    };
}

ecdsa!(EcdsaP256, EcdsaP256Signing, EcdsaP256Verifying, p256);
ecdsa!(EcdsaP384, EcdsaP384Signing, EcdsaP384Verifying, p384);
ecdsa!(EcdsaP521, EcdsaP521Signing, EcdsaP521Verifying, p521);

/// RSA through the `rsa` crate: PKCS#1 v1.5 or PSS (salt = 32), SHA-256.
struct Rsa(&'static str);
impl_entry!(Rsa, NAME, version_of);

/// The padding's key objects, built once so no sign or verify clones a key.
enum RsaSigning {
    Pkcs1(rsa::pkcs1v15::SigningKey<sha2::Sha256>),
    Pss(rsa::pss::BlindedSigningKey<sha2::Sha256>),
}
enum RsaVerifying {
    Pkcs1(rsa::pkcs1v15::VerifyingKey<sha2::Sha256>),
    Pss(rsa::pss::VerifyingKey<sha2::Sha256>),
}

impl Rsa {
    fn signing(&self, key: rsa::RsaPrivateKey) -> Box<dyn SigningKey> {
        Box::new(if self.algorithm().is_pss() {
            RsaSigning::Pss(rsa::pss::BlindedSigningKey::new(key))
        } else {
            RsaSigning::Pkcs1(rsa::pkcs1v15::SigningKey::new(key))
        })
    }
}

impl Signer for Rsa {
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
        let bits = self.algorithm().rsa_bits().unwrap_or(2048);
        let key = rsa::RsaPrivateKey::new(&mut OsRng, bits).map_err(PkError::crypto)?;
        Ok(self.signing(key))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
        use rsa::pkcs8::DecodePrivateKey;
        use rsa::traits::PublicKeyParts;
        let key = rsa::RsaPrivateKey::from_pkcs8_der(secret)
            .map_err(|e| PkError::encoding(format!("RSA private key (PKCS#8 DER): {e}")))?;
        check_rsa_bits(self.algorithm(), key.size() * 8)?;
        Ok(self.signing(key))
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
        let key = rsa_public_from_pkcs1(public)?;
        Ok(Box::new(if self.algorithm().is_pss() {
            RsaVerifying::Pss(rsa::pss::VerifyingKey::new(key))
        } else {
            RsaVerifying::Pkcs1(rsa::pkcs1v15::VerifyingKey::new(key))
        }))
    }
}

/// PKCS#1 `RSAPublicKey` DER. `from_pkcs1_der` caps moduli at 4096 bits;
/// the NIST Table 1 sizes need 15360, so the cap is raised explicitly.
fn rsa_public_from_pkcs1(der: &[u8]) -> Result<rsa::RsaPublicKey, PkError> {
    use rsa::pkcs1::der::Decode;
    let parsed = rsa::pkcs1::RsaPublicKey::from_der(der)
        .map_err(|e| PkError::encoding(format!("RSA public key (PKCS#1 DER): {e}")))?;
    let n = rsa::BigUint::from_bytes_be(parsed.modulus.as_bytes());
    let e = rsa::BigUint::from_bytes_be(parsed.public_exponent.as_bytes());
    rsa::RsaPublicKey::new_with_max_size(n, e, 16_384)
        .map_err(|e| PkError::encoding(format!("RSA public key: {e}")))
}

/// An imported RSA key must have the set's modulus size.
pub fn check_rsa_bits(alg: &Algorithm, bits: usize) -> Result<(), PkError> {
    match alg.rsa_bits() {
        Some(want) if want != bits => Err(PkError::encoding(format!(
            "{} needs a {want}-bit modulus; this key has {bits} bits",
            alg.name
        ))),
        _ => Ok(()),
    }
}

impl RsaSigning {
    fn private(&self) -> &rsa::RsaPrivateKey {
        match self {
            RsaSigning::Pkcs1(k) => k.as_ref(),
            RsaSigning::Pss(k) => k.as_ref(),
        }
    }
}

impl SigningKey for RsaSigning {
    fn public_key(&self) -> Result<Vec<u8>, PkError> {
        use rsa::pkcs1::EncodeRsaPublicKey;
        Ok(self
            .private()
            .to_public_key()
            .to_pkcs1_der()
            .map_err(PkError::crypto)?
            .as_bytes()
            .to_vec())
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        use rsa::pkcs8::EncodePrivateKey;
        Ok(self
            .private()
            .to_pkcs8_der()
            .map_err(PkError::crypto)?
            .as_bytes()
            .to_vec())
    }
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
        use rsa::signature::{RandomizedSigner, SignatureEncoding};
        // Both blinded, as every other backend signs.
        let sig = match self {
            RsaSigning::Pkcs1(k) => k.try_sign_with_rng(&mut OsRng, message).map(|s| s.to_vec()),
            RsaSigning::Pss(k) => k.try_sign_with_rng(&mut OsRng, message).map(|s| s.to_vec()),
        };
        sig.map_err(|_| PkError::crypto("signing failed"))
    }
}

impl VerifyingKey for RsaVerifying {
    fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
        use rsa::signature::Verifier;
        Ok(match self {
            RsaVerifying::Pkcs1(k) => rsa::pkcs1v15::Signature::try_from(signature)
                .is_ok_and(|sig| k.verify(message, &sig).is_ok()),
            RsaVerifying::Pss(k) => rsa::pss::Signature::try_from(signature)
                .is_ok_and(|sig| k.verify(message, &sig).is_ok()),
        })
    }
}

/// RustCrypto's signers.
pub fn signers() -> Vec<Box<dyn Signer>> {
    let mut out: Vec<Box<dyn Signer>> = vec![
        Box::new(MlDsa44("ML-DSA-44")),
        Box::new(MlDsa65("ML-DSA-65")),
        Box::new(MlDsa87("ML-DSA-87")),
        Box::new(SlhSha2s("SLH-DSA-SHA2-128s")),
        Box::new(SlhSha2f("SLH-DSA-SHA2-128f")),
        Box::new(SlhShakes("SLH-DSA-SHAKE-128s")),
        Box::new(SlhShakef("SLH-DSA-SHAKE-128f")),
        Box::new(Ed25519("Ed25519")),
        Box::new(pre_release_only("Ed448", "ed448-goldilocks")),
        Box::new(EcdsaP256("ECDSA-P256")),
        Box::new(EcdsaP384("ECDSA-P384")),
        Box::new(EcdsaP521("ECDSA-P521")),
    ];
    for a in crate::algorithms::ALGORITHMS {
        if a.rsa_bits().is_some() {
            out.push(Box::new(Rsa(a.name)));
        }
    }
    out
}
