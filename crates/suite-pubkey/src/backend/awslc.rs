//! aws-lc-rs, the library rustls uses: ML-KEM, X25519 and ECDH, ECDSA,
//! Ed25519 and RSA from AWS-LC (built from source by `aws-lc-sys`).

use crate::algorithms::{by_name, Algorithm, Kind};
use crate::backend::rustcrypto::check_rsa_bits;
use crate::engines::{
    impl_entry, AgreementSecret, BackendLists, Entry, Kem, KemPublic, KemSecret, KeyAgreement,
    Missing, Signer, SigningKey, VerifyingKey,
};
use crate::error::{contributory, expect_len, PkError};
use aws_lc_rs::encoding::{AsBigEndian, AsDer};
use aws_lc_rs::signature::{self as sig, KeyPair as _};
use aws_lc_rs::{agreement, kem, rand::SystemRandom};

/// Backend name.
pub const NAME: &str = "aws-lc-rs";

/// This backend's lists, for the registry in [`crate::engines`].
pub const LISTS: BackendLists = BackendLists::new(kems, agreements, signers);

fn version() -> String {
    "aws-lc-rs 1.19 (AWS-LC, aws-lc-sys 0.47)".into()
}

fn alg(name: &str) -> &'static Algorithm {
    by_name(name).expect("a name from the table")
}

fn failed(what: &str) -> impl Fn(aws_lc_rs::error::Unspecified) -> PkError + '_ {
    move |_| PkError::crypto(format!("aws-lc-rs: {what} failed"))
}

fn rejected(what: &'static str) -> impl Fn(aws_lc_rs::error::KeyRejected) -> PkError {
    move |e| PkError::encoding(format!("{what} rejected by aws-lc-rs: {e}"))
}

// ---------------------------------------------------------------- ML-KEM

struct MlKem(&'static str);
impl_entry!(MlKem, NAME, |_| version());

impl MlKem {
    fn id(&self) -> &'static kem::Algorithm<kem::AlgorithmId> {
        match self.0 {
            "ML-KEM-512" => &kem::ML_KEM_512,
            "ML-KEM-768" => &kem::ML_KEM_768,
            _ => &kem::ML_KEM_1024,
        }
    }
}

struct MlKemSecret(kem::DecapsulationKey<kem::AlgorithmId>);
struct MlKemPublic(kem::EncapsulationKey<kem::AlgorithmId>);

impl Kem for MlKem {
    fn generate(&self) -> Result<Box<dyn KemSecret>, PkError> {
        let dk = kem::DecapsulationKey::generate(self.id()).map_err(failed("keygen"))?;
        Ok(Box::new(MlKemSecret(dk)))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
        let dk = kem::DecapsulationKey::new(self.id(), secret)
            .map_err(rejected("ML-KEM decapsulation key"))?;
        Ok(Box::new(MlKemSecret(dk)))
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn KemPublic>, PkError> {
        let ek = kem::EncapsulationKey::new(self.id(), public)
            .map_err(rejected("ML-KEM encapsulation key"))?;
        Ok(Box::new(MlKemPublic(ek)))
    }
}

impl KemSecret for MlKemSecret {
    fn public_key(&self) -> Vec<u8> {
        self.0
            .encapsulation_key()
            .and_then(|ek| ek.key_bytes().map(|b| b.as_ref().to_vec()))
            .unwrap_or_default()
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(self
            .0
            .key_bytes()
            .map_err(failed("key export"))?
            .as_ref()
            .to_vec())
    }
    fn decaps(&self, ciphertext: &[u8]) -> Result<Vec<u8>, PkError> {
        let ss = self
            .0
            .decapsulate(kem::Ciphertext::from(ciphertext))
            .map_err(failed("decapsulation"))?;
        Ok(ss.as_ref().to_vec())
    }
}

impl KemPublic for MlKemPublic {
    fn encaps(&self) -> Result<(Vec<u8>, Vec<u8>), PkError> {
        let (ct, ss) = self.0.encapsulate().map_err(failed("encapsulation"))?;
        Ok((ct.as_ref().to_vec(), ss.as_ref().to_vec()))
    }
}

/// aws-lc-rs's KEMs.
pub fn kems() -> Vec<Box<dyn Kem>> {
    ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"]
        .into_iter()
        .map(|a| Box::new(MlKem(alg(a).name)) as Box<dyn Kem>)
        .collect()
}

// ---------------------------------------------------------- key agreement

struct Agreement(&'static str);
impl_entry!(Agreement, NAME, |_| version());

fn agreement_alg(name: &str) -> &'static agreement::Algorithm {
    match name {
        "X25519" => &agreement::X25519,
        "ECDH-P256" => &agreement::ECDH_P256,
        "ECDH-P384" => &agreement::ECDH_P384,
        _ => &agreement::ECDH_P521,
    }
}

struct AgreementKey {
    name: &'static str,
    key: agreement::PrivateKey,
    prepared: Option<agreement::ParsedPublicKey>,
}

impl KeyAgreement for Agreement {
    fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError> {
        let key =
            agreement::PrivateKey::generate(agreement_alg(self.0)).map_err(failed("keygen"))?;
        Ok(Box::new(AgreementKey {
            name: self.0,
            key,
            prepared: None,
        }))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError> {
        let key = agreement::PrivateKey::from_private_key(agreement_alg(self.0), secret)
            .map_err(rejected("private key"))?;
        Ok(Box::new(AgreementKey {
            name: self.0,
            key,
            prepared: None,
        }))
    }
}

impl AgreementKey {
    fn parse(&self, peer: &[u8]) -> Result<agreement::ParsedPublicKey, PkError> {
        expect_len("peer share", peer, alg(self.name).public_bytes)?;
        agreement::ParsedPublicKey::try_from(agreement::UnparsedPublicKey::new(
            agreement_alg(self.name),
            peer,
        ))
        .map_err(rejected("peer share"))
    }
    /// The shared secret. X25519 refuses an all-zero one, and aws-lc-rs's
    /// refusal of one (its only failure on a parsed share) is reported as
    /// the low-order point it is.
    fn agree(&self, peer: agreement::ParsedPublicKey) -> Result<Vec<u8>, PkError> {
        let xdh = self.name == "X25519";
        let failed = if xdh {
            PkError::LowOrder(Some("aws-lc-rs: key agreement failed".into()))
        } else {
            PkError::crypto("aws-lc-rs: key agreement failed")
        };
        let shared = agreement::agree(&self.key, peer, failed, |k| Ok(k.to_vec()))?;
        if xdh {
            contributory(shared)
        } else {
            Ok(shared)
        }
    }
}

impl AgreementSecret for AgreementKey {
    fn public_key(&self) -> Vec<u8> {
        self.key
            .compute_public_key()
            .map(|k| k.as_ref().to_vec())
            .unwrap_or_default()
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        if self.name == "X25519" {
            let bin: aws_lc_rs::encoding::Curve25519SeedBin =
                self.key.as_be_bytes().map_err(failed("key export"))?;
            Ok(bin.as_ref().to_vec())
        } else {
            let bin: aws_lc_rs::encoding::EcPrivateKeyBin =
                self.key.as_be_bytes().map_err(failed("key export"))?;
            Ok(bin.as_ref().to_vec())
        }
    }
    fn derive(&self, peer: &[u8]) -> Result<Vec<u8>, PkError> {
        let parsed = self.parse(peer)?;
        self.agree(parsed)
    }
    fn prepare_peer(&mut self, peer: &[u8]) -> Result<(), PkError> {
        self.prepared = Some(self.parse(peer)?);
        Ok(())
    }
    fn derive_prepared(&mut self) -> Result<Vec<u8>, PkError> {
        let peer = self
            .prepared
            .clone()
            .ok_or_else(|| PkError::crypto("no peer share prepared"))?;
        self.agree(peer)
    }
}

/// aws-lc-rs's key agreements.
pub fn agreements() -> Vec<Box<dyn KeyAgreement>> {
    let mut out: Vec<Box<dyn KeyAgreement>> = ["X25519", "ECDH-P256", "ECDH-P384", "ECDH-P521"]
        .into_iter()
        .map(|a| Box::new(Agreement(alg(a).name)) as Box<dyn KeyAgreement>)
        .collect();
    out.push(Box::new(Missing::new(
        NAME,
        version(),
        "X448",
        "aws-lc-rs has no X448",
    )));
    out
}

// ------------------------------------------------------------- signatures

struct Signature(&'static str);
impl_entry!(Signature, NAME, |_| version());

enum SignKey {
    Ecdsa(sig::EcdsaKeyPair),
    Ed25519(sig::Ed25519KeyPair),
    Rsa(sig::RsaKeyPair, &'static dyn sig::RsaEncoding),
}

struct VerifyKey {
    alg: &'static dyn sig::VerificationAlgorithm,
    public: Vec<u8>,
}

impl Signature {
    fn ecdsa_signing(&self) -> &'static sig::EcdsaSigningAlgorithm {
        match self.0 {
            "ECDSA-P384" => &sig::ECDSA_P384_SHA384_ASN1_SIGNING,
            "ECDSA-P521" => &sig::ECDSA_P521_SHA512_ASN1_SIGNING,
            _ => &sig::ECDSA_P256_SHA256_ASN1_SIGNING,
        }
    }
    fn rsa_encoding(&self) -> &'static dyn sig::RsaEncoding {
        if self.algorithm().is_pss() {
            &sig::RSA_PSS_SHA256
        } else {
            &sig::RSA_PKCS1_SHA256
        }
    }
    fn verification(&self) -> &'static dyn sig::VerificationAlgorithm {
        match self.0 {
            "ECDSA-P256" => &sig::ECDSA_P256_SHA256_ASN1,
            "ECDSA-P384" => &sig::ECDSA_P384_SHA384_ASN1,
            "ECDSA-P521" => &sig::ECDSA_P521_SHA512_ASN1,
            "Ed25519" => &sig::ED25519,
            _ if self.algorithm().is_pss() => &sig::RSA_PSS_2048_8192_SHA256,
            _ => &sig::RSA_PKCS1_2048_8192_SHA256,
        }
    }
}

impl Signer for Signature {
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
        Ok(Box::new(match self.0 {
            "ECDSA-P256" | "ECDSA-P384" | "ECDSA-P521" => SignKey::Ecdsa(
                sig::EcdsaKeyPair::generate(self.ecdsa_signing()).map_err(failed("keygen"))?,
            ),
            "Ed25519" => {
                SignKey::Ed25519(sig::Ed25519KeyPair::generate().map_err(failed("keygen"))?)
            }
            _ => {
                let size =
                    match self.algorithm().rsa_bits() {
                        Some(2048) => aws_lc_rs::rsa::KeySize::Rsa2048,
                        Some(3072) => aws_lc_rs::rsa::KeySize::Rsa3072,
                        Some(4096) => aws_lc_rs::rsa::KeySize::Rsa4096,
                        _ => return Err(PkError::Unavailable(
                            "aws-lc-rs generates RSA keys of 2048, 3072, 4096 and 8192 bits only"
                                .into(),
                        )),
                    };
                SignKey::Rsa(
                    sig::RsaKeyPair::generate(size).map_err(failed("keygen"))?,
                    self.rsa_encoding(),
                )
            }
        }))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
        Ok(Box::new(match self.0 {
            "ECDSA-P256" | "ECDSA-P384" | "ECDSA-P521" => {
                // The public point from the scalar, through the ECDH key type.
                let ecdh = match self.0 {
                    "ECDSA-P256" => &agreement::ECDH_P256,
                    "ECDSA-P384" => &agreement::ECDH_P384,
                    _ => &agreement::ECDH_P521,
                };
                let public = agreement::PrivateKey::from_private_key(ecdh, secret)
                    .map_err(rejected("EC secret scalar"))?
                    .compute_public_key()
                    .map_err(failed("public key"))?;
                SignKey::Ecdsa(
                    sig::EcdsaKeyPair::from_private_key_and_public_key(
                        self.ecdsa_signing(),
                        secret,
                        public.as_ref(),
                    )
                    .map_err(rejected("EC key"))?,
                )
            }
            "Ed25519" => SignKey::Ed25519(
                sig::Ed25519KeyPair::from_seed_unchecked(secret)
                    .map_err(rejected("Ed25519 seed"))?,
            ),
            _ => {
                let kp = sig::RsaKeyPair::from_pkcs8(secret)
                    .map_err(rejected("RSA private key (PKCS#8 DER)"))?;
                check_rsa_bits(self.algorithm(), kp.public_modulus_len() * 8)?;
                SignKey::Rsa(kp, self.rsa_encoding())
            }
        }))
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
        // aws-lc-rs parses at verify time; the length check catches junk early.
        if public.is_empty() {
            return Err(PkError::encoding("empty public key"));
        }
        Ok(Box::new(VerifyKey {
            alg: self.verification(),
            public: public.to_vec(),
        }))
    }
}

impl SigningKey for SignKey {
    fn public_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(match self {
            SignKey::Ecdsa(k) => k.public_key().as_ref().to_vec(),
            SignKey::Ed25519(k) => k.public_key().as_ref().to_vec(),
            SignKey::Rsa(k, _) => k.public_key().as_ref().to_vec(),
        })
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        Ok(match self {
            SignKey::Ecdsa(k) => {
                let bin: aws_lc_rs::encoding::EcPrivateKeyBin = k
                    .private_key()
                    .as_be_bytes()
                    .map_err(failed("key export"))?;
                bin.as_ref().to_vec()
            }
            SignKey::Ed25519(k) => {
                let bin: aws_lc_rs::encoding::Curve25519SeedBin = k
                    .seed()
                    .map_err(failed("key export"))?
                    .as_be_bytes()
                    .map_err(failed("key export"))?;
                bin.as_ref().to_vec()
            }
            SignKey::Rsa(k, _) => {
                let der: aws_lc_rs::encoding::Pkcs8V1Der =
                    k.as_der().map_err(failed("key export"))?;
                der.as_ref().to_vec()
            }
        })
    }
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
        let rng = SystemRandom::new();
        Ok(match self {
            SignKey::Ecdsa(k) => k
                .sign(&rng, message)
                .map_err(failed("signing"))?
                .as_ref()
                .to_vec(),
            SignKey::Ed25519(k) => k.sign(message).as_ref().to_vec(),
            SignKey::Rsa(k, enc) => {
                let mut out = vec![0u8; k.public_modulus_len()];
                k.sign(*enc, &rng, message, &mut out)
                    .map_err(failed("signing"))?;
                out
            }
        })
    }
}

impl VerifyingKey for VerifyKey {
    fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
        Ok(sig::UnparsedPublicKey::new(self.alg, &self.public)
            .verify(message, signature)
            .is_ok())
    }
}

/// aws-lc-rs's signers.
pub fn signers() -> Vec<Box<dyn Signer>> {
    let mut out: Vec<Box<dyn Signer>> = Vec::new();
    for a in crate::algorithms::ALGORITHMS {
        if a.kind != Kind::Signature {
            continue;
        }
        let missing = |why: &str| Box::new(Missing::new(NAME, version(), a.name, why));
        if a.name.starts_with("ML-DSA") {
            out.push(missing(
                "aws-lc-rs has ML-DSA only behind its `unstable` feature",
            ));
        } else if a.name.starts_with("SLH-DSA") {
            out.push(missing("aws-lc-rs has no SLH-DSA"));
        } else if a.name == "Ed448" {
            out.push(missing("aws-lc-rs has no Ed448"));
        } else if a.rsa_bits().is_some_and(|b| b > 8192) {
            out.push(missing("aws-lc-rs takes RSA keys of 2048 to 8192 bits"));
        } else {
            out.push(Box::new(Signature(a.name)));
        }
    }
    out
}
