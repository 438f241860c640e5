//! The capabilities: one trait per family ([`Kem`], [`KeyAgreement`],
//! [`Signer`]) and one registry list each ([`kems`], [`agreements`],
//! [`signers`]).
//!
//! An entry is one backend's implementation of one parameter set. Keys cross
//! the trait as the standards' byte encodings (FIPS 203/204/205, RFC 7748 /
//! 8032, SEC1, PKCS#1 / PKCS#8 DER), so checks run generically over the
//! lists: any backend's public key feeds any other backend, which is what the
//! interop matrix and the file commands need. Keys are parsed once into the
//! backend's own objects ([`KemSecret`], [`SigningKey`], ...), so the timed
//! operations never include parsing. A backend is one file in `backend/`
//! plus one line in [`BACKENDS`]; a set a backend lacks is an entry that says
//! why ([`Missing`]).

use crate::algorithms::Algorithm;
use crate::backend;
use crate::error::PkError;

/// A backend's side of one parameter set: name, version, availability.
pub trait Entry: Send + Sync {
    /// Backend name in results (`openssl`, `rustcrypto`, ...).
    fn backend(&self) -> &'static str;
    /// The library's version.
    fn version(&self) -> String;
    /// The parameter set.
    fn algorithm(&self) -> &'static Algorithm;
    /// [`PkError::Unavailable`] with the reason when the backend lacks it here.
    fn available(&self) -> Result<(), PkError> {
        Ok(())
    }
}

/// Implements [`Entry`] for a backend's set type, a tuple struct whose
/// field 0 is the set's name: `impl_entry!(Type, backend name, version
/// of a set)`, plus `available = check` for a set that is not always
/// usable. Every backend's entries name themselves through this one
/// definition.
macro_rules! impl_entry {
    ($ty:ident, $backend:expr, $version:expr $(, available = $available:expr)?) => {
        impl $crate::engines::Entry for $ty {
            fn backend(&self) -> &'static str {
                $backend
            }
            fn version(&self) -> String {
                ($version)(self.0)
            }
            fn algorithm(&self) -> &'static $crate::algorithms::Algorithm {
                $crate::algorithms::by_name(self.0).expect("a name from the table")
            }
            $(
                fn available(&self) -> Result<(), $crate::error::PkError> {
                    ($available)(self)
                }
            )?
        }
    };
}
pub(crate) use impl_entry;

/// A decapsulation key, parsed.
pub trait KemSecret: Send {
    /// The encapsulation (public) key, encoded.
    fn public_key(&self) -> Vec<u8>;
    /// The decapsulation key, encoded; `Err` when the library keeps it sealed.
    fn secret_key(&self) -> Result<Vec<u8>, PkError>;
    /// Recovers the shared secret (implicit rejection: a bad ciphertext
    /// yields a pseudo-random secret, not an error).
    fn decaps(&self, ciphertext: &[u8]) -> Result<Vec<u8>, PkError>;
}

/// An encapsulation key, parsed.
pub trait KemPublic: Send {
    /// A fresh (ciphertext, shared secret).
    fn encaps(&self) -> Result<(Vec<u8>, Vec<u8>), PkError>;
}

/// Key encapsulation (ML-KEM, the X25519MLKEM768 hybrid).
pub trait Kem: Entry {
    /// A fresh key pair.
    fn generate(&self) -> Result<Box<dyn KemSecret>, PkError>;
    /// The key pair of FIPS 203 seed `d || z` (64 bytes), for known answers.
    fn generate_from_seed(&self, _seed: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
        Err(PkError::Unavailable(format!(
            "{} does not expose seeded ML-KEM key generation",
            self.backend()
        )))
    }
    /// Parses an encoded decapsulation key.
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn KemSecret>, PkError>;
    /// Parses an encoded encapsulation key.
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn KemPublic>, PkError>;
}

/// A Diffie-Hellman secret, parsed.
pub trait AgreementSecret: Send {
    /// Our share (public key), encoded.
    fn public_key(&self) -> Vec<u8>;
    /// The secret, encoded.
    fn secret_key(&self) -> Result<Vec<u8>, PkError>;
    /// The shared secret with the peer's encoded share (parsed here: a TLS
    /// server parses the client's share on every handshake).
    fn derive(&self, peer: &[u8]) -> Result<Vec<u8>, PkError>;
    /// Binds a peer share for [`AgreementSecret::derive_prepared`] (parsed
    /// and validated here, outside the timed region, as `openssl speed`
    /// prepares its derive context once).
    fn prepare_peer(&mut self, peer: &[u8]) -> Result<(), PkError>;
    /// The shared secret with the prepared peer share.
    fn derive_prepared(&mut self) -> Result<Vec<u8>, PkError>;
}

/// Classical key agreement (X25519, X448, ECDH on the NIST curves).
pub trait KeyAgreement: Entry {
    /// A fresh key pair.
    fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError>;
    /// Parses an encoded secret.
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError>;
}

/// A signing key, parsed.
pub trait SigningKey: Send {
    /// The verifying key, encoded; `Err` when an imported secret does not
    /// carry it (a FIPS 204 signing key holds no t1).
    fn public_key(&self) -> Result<Vec<u8>, PkError>;
    /// The signing key, encoded; `Err` when the library keeps it sealed.
    fn secret_key(&self) -> Result<Vec<u8>, PkError>;
    /// Signs `message`.
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError>;
    /// The digest [`SigningKey::sign`] would sign for `message`, for a
    /// backend that can sign a ready digest (RSA, ECDSA).
    fn prehash(&self, _message: &[u8]) -> Result<Vec<u8>, PkError> {
        Err(PkError::Unavailable(
            "this backend signs whole messages only".into(),
        ))
    }
    /// Signs a digest made by [`SigningKey::prehash`]: the same signature
    /// as `sign(message)` without the hashing, which is what `openssl speed`
    /// times.
    fn sign_prehashed(&self, _digest: &[u8]) -> Result<Vec<u8>, PkError> {
        Err(PkError::Unavailable(
            "this backend signs whole messages only".into(),
        ))
    }
}

/// A verifying key, parsed.
pub trait VerifyingKey: Send {
    /// True when `signature` is valid for `message`; a malformed signature
    /// is `Ok(false)`, like any other forgery.
    fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError>;
}

/// Signatures (ML-DSA, SLH-DSA, EdDSA, ECDSA, RSA).
pub trait Signer: Entry {
    /// A fresh key pair.
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError>;
    /// Parses an encoded signing key.
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError>;
    /// Parses an encoded verifying key.
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError>;
}

/// What one backend registers: its list of each family, an empty list
/// for a family it lacks.
pub struct BackendLists {
    kems: fn() -> Vec<Box<dyn Kem>>,
    agreements: fn() -> Vec<Box<dyn KeyAgreement>>,
    signers: fn() -> Vec<Box<dyn Signer>>,
}

impl BackendLists {
    /// A backend's three lists.
    pub const fn new(
        kems: fn() -> Vec<Box<dyn Kem>>,
        agreements: fn() -> Vec<Box<dyn KeyAgreement>>,
        signers: fn() -> Vec<Box<dyn Signer>>,
    ) -> Self {
        Self {
            kems,
            agreements,
            signers,
        }
    }
}

/// The registry: one line per backend, in report order.
const BACKENDS: [BackendLists; 5] = [
    backend::rustcrypto::LISTS,
    backend::openssl::LISTS,
    backend::awslc::LISTS,
    backend::libcrux::LISTS,
    backend::liboqs::LISTS,
];

/// Every KEM entry: each backend's list, then the hybrids composed over them.
pub fn kems() -> Vec<Box<dyn Kem>> {
    let mut out = base_kems();
    out.extend(crate::hybrid::kems());
    out
}

/// The KEMs the backends implement themselves (the hybrids build on these).
pub fn base_kems() -> Vec<Box<dyn Kem>> {
    BACKENDS.iter().flat_map(|b| (b.kems)()).collect()
}

/// Every key-agreement entry.
pub fn agreements() -> Vec<Box<dyn KeyAgreement>> {
    BACKENDS.iter().flat_map(|b| (b.agreements)()).collect()
}

/// Every signature entry.
pub fn signers() -> Vec<Box<dyn Signer>> {
    BACKENDS.iter().flat_map(|b| (b.signers)()).collect()
}

/// Backend names in registry order.
pub fn backend_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    let all = kems()
        .iter()
        .map(|e| e.backend())
        .chain(agreements().iter().map(|e| e.backend()))
        .chain(signers().iter().map(|e| e.backend()))
        .collect::<Vec<_>>();
    for n in all {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// A parameter set a backend lacks, with the reason; it answers every
/// family's trait so one constructor serves all three lists.
pub struct Missing {
    /// Backend name.
    pub backend: &'static str,
    /// Backend version.
    pub version: String,
    /// The set it lacks.
    pub algorithm: &'static Algorithm,
    /// Why.
    pub reason: String,
}

impl Missing {
    /// A boxed entry for `alg` on `backend`, unavailable because `reason`.
    pub fn new(
        backend: &'static str,
        version: String,
        alg: &str,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            backend,
            version,
            algorithm: crate::algorithms::by_name(alg).expect("a name from the table"),
            reason: reason.into(),
        }
    }
    fn err(&self) -> PkError {
        PkError::Unavailable(self.reason.clone())
    }
}

impl Entry for Missing {
    fn backend(&self) -> &'static str {
        self.backend
    }
    fn version(&self) -> String {
        self.version.clone()
    }
    fn algorithm(&self) -> &'static Algorithm {
        self.algorithm
    }
    fn available(&self) -> Result<(), PkError> {
        Err(self.err())
    }
}

impl Kem for Missing {
    fn generate(&self) -> Result<Box<dyn KemSecret>, PkError> {
        Err(self.err())
    }
    fn import_secret(&self, _: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
        Err(self.err())
    }
    fn import_public(&self, _: &[u8]) -> Result<Box<dyn KemPublic>, PkError> {
        Err(self.err())
    }
}

impl KeyAgreement for Missing {
    fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError> {
        Err(self.err())
    }
    fn import_secret(&self, _: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError> {
        Err(self.err())
    }
}

impl Signer for Missing {
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
        Err(self.err())
    }
    fn import_secret(&self, _: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
        Err(self.err())
    }
    fn import_public(&self, _: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
        Err(self.err())
    }
}

/// Random bytes from the operating system (key generation, KEM coins).
pub fn random<const N: usize>() -> [u8; N] {
    use rand_core::RngCore;
    let mut out = [0u8; N];
    rand_core::OsRng.fill_bytes(&mut out);
    out
}
