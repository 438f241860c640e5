//! X25519MLKEM768 as TLS 1.3 composes it (draft-ietf-tls-ecdhe-mlkem):
//! ML-KEM-768 first, then X25519, in both key shares and in the secret.
//!
//! client share = ML-KEM-768 ek (1184) || X25519 public (32)
//! server share = ML-KEM-768 ciphertext (1088) || X25519 public (32)
//! secret       = ML-KEM-768 secret (32) || X25519 secret (32)
//!
//! It is composed over any ML-KEM-768 entry and an X25519 entry, so each
//! backend's hybrid is its own ML-KEM plus its own X25519 where it has one
//! (aws-lc-rs, RustCrypto), else RustCrypto's x25519-dalek.

use crate::algorithms::{by_name, Algorithm};
use crate::backend::rustcrypto;
use crate::engines::{agreements, AgreementSecret, Entry, Kem, KemPublic, KemSecret, KeyAgreement};
use crate::error::{expect_len, PkError};
use std::sync::Arc;

/// The hybrid's name in the table.
pub const NAME: &str = "X25519MLKEM768";
/// ML-KEM-768 encapsulation key bytes (FIPS 203).
const EK_BYTES: usize = 1184;
/// ML-KEM-768 ciphertext bytes.
const CT_BYTES: usize = 1088;
/// X25519 share bytes (RFC 7748).
const X25519_BYTES: usize = 32;

/// One composition: an ML-KEM-768 and an X25519.
pub struct Hybrid {
    backend: &'static str,
    mlkem: Arc<dyn Kem>,
    x25519: Arc<dyn KeyAgreement>,
}

impl Entry for Hybrid {
    fn backend(&self) -> &'static str {
        self.backend
    }
    fn version(&self) -> String {
        if self.mlkem.backend() == self.x25519.backend() {
            self.mlkem.version()
        } else {
            format!("{} + {}", self.mlkem.version(), self.x25519.version())
        }
    }
    fn algorithm(&self) -> &'static Algorithm {
        by_name(NAME).expect("a name from the table")
    }
    fn available(&self) -> Result<(), PkError> {
        self.mlkem.available().and(self.x25519.available())
    }
}

struct HybridSecret {
    mlkem: Box<dyn KemSecret>,
    x25519: Box<dyn AgreementSecret>,
}

struct HybridPublic {
    mlkem: Box<dyn KemPublic>,
    x25519: Arc<dyn KeyAgreement>,
    client_share: Vec<u8>,
}

impl Kem for Hybrid {
    fn generate(&self) -> Result<Box<dyn KemSecret>, PkError> {
        Ok(Box::new(HybridSecret {
            mlkem: self.mlkem.generate()?,
            x25519: self.x25519.generate()?,
        }))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
        let dk_len = secret.len().checked_sub(X25519_BYTES).ok_or_else(|| {
            PkError::encoding("X25519MLKEM768 secret: ML-KEM-768 dk (2400) || X25519 (32)")
        })?;
        let (dk, x) = secret.split_at(dk_len);
        Ok(Box::new(HybridSecret {
            mlkem: self.mlkem.import_secret(dk)?,
            x25519: self.x25519.import_secret(x)?,
        }))
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn KemPublic>, PkError> {
        expect_len(
            "X25519MLKEM768 client share",
            public,
            EK_BYTES + X25519_BYTES,
        )?;
        let (ek, x) = public.split_at(EK_BYTES);
        Ok(Box::new(HybridPublic {
            mlkem: self.mlkem.import_public(ek)?,
            x25519: self.x25519.clone(),
            client_share: x.to_vec(),
        }))
    }
}

impl KemSecret for HybridSecret {
    fn public_key(&self) -> Vec<u8> {
        let mut out = self.mlkem.public_key();
        out.extend(self.x25519.public_key());
        out
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        let mut out = self.mlkem.secret_key()?;
        out.extend(self.x25519.secret_key()?);
        Ok(out)
    }
    fn decaps(&self, ciphertext: &[u8]) -> Result<Vec<u8>, PkError> {
        expect_len(
            "X25519MLKEM768 server share",
            ciphertext,
            CT_BYTES + X25519_BYTES,
        )?;
        let (ct, x) = ciphertext.split_at(CT_BYTES);
        let mut secret = self.mlkem.decaps(ct)?;
        secret.extend(self.x25519.derive(x)?);
        Ok(secret)
    }
}

impl KemPublic for HybridPublic {
    fn encaps(&self) -> Result<(Vec<u8>, Vec<u8>), PkError> {
        // The server's side: encapsulate, then an ephemeral X25519 share.
        let (mut share, mut secret) = self.mlkem.encaps()?;
        let eph = self.x25519.generate()?;
        secret.extend(eph.derive(&self.client_share)?);
        share.extend(eph.public_key());
        Ok((share, secret))
    }
}

/// One hybrid per ML-KEM-768 entry that is available.
pub fn kems() -> Vec<Box<dyn Kem>> {
    let x25519: Vec<Arc<dyn KeyAgreement>> = agreements()
        .into_iter()
        .filter(|a| a.algorithm().name == "X25519" && a.available().is_ok())
        .map(Arc::from)
        .collect();
    let fallback = x25519
        .iter()
        .find(|a| a.backend() == rustcrypto::NAME)
        .cloned();
    let mut out: Vec<Box<dyn Kem>> = Vec::new();
    for mlkem in crate::engines::base_kems() {
        if mlkem.algorithm().name != "ML-KEM-768" || mlkem.available().is_err() {
            continue;
        }
        let own = x25519
            .iter()
            .find(|a| a.backend() == mlkem.backend())
            .cloned();
        let (backend, partner) = match (own, &fallback) {
            (Some(x), _) => (mlkem.backend(), x),
            (None, Some(x)) => (composite(mlkem.backend()), x.clone()),
            (None, None) => continue,
        };
        out.push(Box::new(Hybrid {
            backend,
            mlkem: Arc::from(mlkem),
            x25519: partner,
        }));
    }
    out
}

/// "libcrux+rustcrypto": the ML-KEM backend with RustCrypto's X25519.
fn composite(mlkem: &str) -> &'static str {
    match mlkem {
        "libcrux" => "libcrux+rustcrypto",
        "liboqs" => "liboqs+rustcrypto",
        _ => "rustcrypto",
    }
}
