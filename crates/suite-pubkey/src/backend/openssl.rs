//! OpenSSL through the `openssl` crate: RSA, ECDSA, ECDH, X25519/X448,
//! Ed25519/Ed448.
//!
//! Every key keeps one prepared `EVP_PKEY_CTX` (padding and digest set once)
//! and signs a digest, the way `openssl speed` drives `EVP_PKEY_sign`;
//! the message is hashed inside the timed region because a TLS server
//! hashes its transcript too (about 1% of an ECDSA P-256 signature).
//! EdDSA signs the message itself through one `EVP_MD_CTX`.

use crate::algorithms::{by_name, Algorithm};
use crate::backend::rustcrypto::check_rsa_bits;
use crate::engines::{
    impl_entry, AgreementSecret, BackendLists, Entry, Kem, KeyAgreement, Missing, Signer,
    SigningKey, VerifyingKey,
};
use crate::error::{contributory, expect_len, PkError};
use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::{EcGroup, EcKey, EcPoint, PointConversionForm};
use openssl::error::ErrorStack;
use openssl::hash::MessageDigest;
use openssl::md::{Md, MdRef};
use openssl::md_ctx::MdCtx;
use openssl::nid::Nid;
use openssl::pkey::{HasPublic, Id, PKey, Private, Public};
use openssl::pkey_ctx::PkeyCtx;
use openssl::rsa::{Padding, Rsa};
use openssl::sign::RsaPssSaltlen;
use std::cell::RefCell;

/// Backend name.
pub const NAME: &str = "openssl";

/// This backend's lists, for the registry in [`crate::engines`].
pub const LISTS: BackendLists = BackendLists::new(kems, agreements, signers);

fn version() -> String {
    openssl::version::version().to_string()
}

fn alg(name: &str) -> &'static Algorithm {
    by_name(name).expect("a name from the table")
}

fn ossl(e: openssl::error::ErrorStack) -> PkError {
    PkError::crypto(format!("OpenSSL: {e}"))
}

/// How a set maps onto OpenSSL.
#[derive(Clone, Copy)]
enum Shape {
    /// A named prime curve (NID) and its scalar size.
    Ec(Nid, usize),
    /// X25519, X448, Ed25519, Ed448 (raw keys).
    Raw(Id),
    /// RSA of `bits` with PSS or PKCS#1 v1.5 padding.
    Rsa { bits: u32, pss: bool },
}

fn shape(name: &str) -> Shape {
    match name {
        "ECDH-P256" | "ECDSA-P256" => Shape::Ec(Nid::X9_62_PRIME256V1, 32),
        "ECDH-P384" | "ECDSA-P384" => Shape::Ec(Nid::SECP384R1, 48),
        "ECDH-P521" | "ECDSA-P521" => Shape::Ec(Nid::SECP521R1, 66),
        "X25519" => Shape::Raw(Id::X25519),
        "X448" => Shape::Raw(Id::X448),
        "Ed25519" => Shape::Raw(Id::ED25519),
        "Ed448" => Shape::Raw(Id::ED448),
        other => {
            let a = alg(other);
            Shape::Rsa {
                bits: a.rsa_bits().unwrap_or(2048) as u32,
                pss: a.is_pss(),
            }
        }
    }
}

fn generate(shape: Shape) -> Result<PKey<Private>, PkError> {
    match shape {
        Shape::Ec(nid, _) => {
            let group = EcGroup::from_curve_name(nid).map_err(ossl)?;
            PKey::from_ec_key(EcKey::generate(&group).map_err(ossl)?).map_err(ossl)
        }
        Shape::Raw(id) => match id {
            Id::X25519 => PKey::generate_x25519(),
            Id::X448 => PKey::generate_x448(),
            Id::ED25519 => PKey::generate_ed25519(),
            _ => PKey::generate_ed448(),
        }
        .map_err(ossl),
        Shape::Rsa { bits, .. } => PKey::from_rsa(Rsa::generate(bits).map_err(ossl)?).map_err(ossl),
    }
}

fn import_secret(a: &Algorithm, shape: Shape, secret: &[u8]) -> Result<PKey<Private>, PkError> {
    match shape {
        Shape::Ec(nid, len) => {
            expect_len("EC secret scalar", secret, len)?;
            let group = EcGroup::from_curve_name(nid).map_err(ossl)?;
            let d = BigNum::from_slice(secret).map_err(ossl)?;
            let mut ctx = BigNumContext::new().map_err(ossl)?;
            let mut order = BigNum::new().map_err(ossl)?;
            group.order(&mut order, &mut ctx).map_err(ossl)?;
            // The range is the whole check: the public point is computed
            // from d on a curve of cofactor 1, so `check_key`'s further
            // tests (on the curve, order * Q = O, d * G = Q) cannot fail,
            // and their scalar multiplications made P-384's Wycheproof
            // check take 3.5 s of every run's building.
            if d.num_bits() == 0 || d >= order {
                return Err(PkError::encoding("EC secret scalar out of range"));
            }
            let mut public = EcPoint::new(&group).map_err(ossl)?;
            public.mul_generator2(&group, &d, &mut ctx).map_err(ossl)?;
            let key = EcKey::from_private_components(&group, &d, &public).map_err(ossl)?;
            PKey::from_ec_key(key).map_err(ossl)
        }
        Shape::Raw(id) => PKey::private_key_from_raw_bytes(secret, id)
            .map_err(|_| PkError::encoding(format!("{} secret has the wrong length", a.name))),
        Shape::Rsa { .. } => {
            let key = PKey::private_key_from_pkcs8(secret)
                .map_err(|_| PkError::encoding("RSA private key: expected PKCS#8 DER"))?;
            check_rsa_bits(a, key.bits() as usize)?;
            Ok(key)
        }
    }
}

fn import_public(a: &Algorithm, shape: Shape, public: &[u8]) -> Result<PKey<Public>, PkError> {
    match shape {
        Shape::Ec(nid, _) => {
            let group = EcGroup::from_curve_name(nid).map_err(ossl)?;
            let mut ctx = BigNumContext::new().map_err(ossl)?;
            let point = EcPoint::from_bytes(&group, public, &mut ctx)
                .map_err(|_| PkError::encoding("not a point on the curve (SEC1)"))?;
            let key = EcKey::from_public_key(&group, &point).map_err(ossl)?;
            key.check_key()
                .map_err(|_| PkError::encoding("not a valid public point"))?;
            PKey::from_ec_key(key).map_err(ossl)
        }
        Shape::Raw(id) => {
            expect_len("public key", public, a.public_bytes)?;
            PKey::public_key_from_raw_bytes(public, id).map_err(ossl)
        }
        Shape::Rsa { .. } => {
            let rsa = Rsa::public_key_from_der_pkcs1(public)
                .map_err(|_| PkError::encoding("RSA public key: expected PKCS#1 DER"))?;
            PKey::from_rsa(rsa).map_err(ossl)
        }
    }
}

fn public_bytes(shape: Shape, key: &PKey<Private>) -> Result<Vec<u8>, PkError> {
    match shape {
        Shape::Ec(nid, _) => {
            let group = EcGroup::from_curve_name(nid).map_err(ossl)?;
            let mut ctx = BigNumContext::new().map_err(ossl)?;
            let ec = key.ec_key().map_err(ossl)?;
            ec.public_key()
                .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)
                .map_err(ossl)
        }
        Shape::Raw(_) => key.raw_public_key().map_err(ossl),
        Shape::Rsa { .. } => key
            .rsa()
            .and_then(|r| r.public_key_to_der_pkcs1())
            .map_err(ossl),
    }
}

fn secret_bytes(shape: Shape, key: &PKey<Private>) -> Result<Vec<u8>, PkError> {
    match shape {
        Shape::Ec(_, len) => key
            .ec_key()
            .and_then(|ec| ec.private_key().to_vec_padded(len as i32))
            .map_err(ossl),
        Shape::Raw(_) => key.raw_private_key().map_err(ossl),
        Shape::Rsa { .. } => key.private_key_to_pkcs8().map_err(ossl),
    }
}

// ---------------------------------------------------------- key agreement

struct Agreement(&'static str);

struct AgreementKey {
    shape: Shape,
    key: PKey<Private>,
    /// A derive context bound to the last peer share (see `prepare_peer`).
    prepared: RefCell<Option<PkeyCtx<Private>>>,
}

impl_entry!(Agreement, NAME, |_| version());

impl KeyAgreement for Agreement {
    fn generate(&self) -> Result<Box<dyn AgreementSecret>, PkError> {
        let shape = shape(self.0);
        Ok(Box::new(AgreementKey {
            shape,
            key: generate(shape)?,
            prepared: RefCell::new(None),
        }))
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn AgreementSecret>, PkError> {
        let shape = shape(self.0);
        Ok(Box::new(AgreementKey {
            shape,
            key: import_secret(self.algorithm(), shape, secret)?,
            prepared: RefCell::new(None),
        }))
    }
}

impl AgreementKey {
    fn context(&self, peer: &[u8]) -> Result<PkeyCtx<Private>, PkError> {
        let name = match self.shape {
            Shape::Ec(Nid::X9_62_PRIME256V1, _) => "ECDH-P256",
            Shape::Ec(Nid::SECP384R1, _) => "ECDH-P384",
            Shape::Ec(_, _) => "ECDH-P521",
            Shape::Raw(Id::X25519) => "X25519",
            _ => "X448",
        };
        let peer = import_public(alg(name), self.shape, peer)?;
        let mut ctx = PkeyCtx::new(&self.key).map_err(ossl)?;
        ctx.derive_init().map_err(ossl)?;
        ctx.derive_set_peer(&peer).map_err(|e| self.refusal(e))?;
        Ok(ctx)
    }

    /// A derive's secret. X25519 and X448 refuse an all-zero secret, and
    /// OpenSSL's refusal of one (its only failure on a parsed peer share)
    /// is reported as the low-order point it is.
    fn secret(&self, derived: Result<Vec<u8>, ErrorStack>) -> Result<Vec<u8>, PkError> {
        match (self.shape, derived) {
            (Shape::Raw(_), Ok(s)) => contributory(s),
            (_, Ok(s)) => Ok(s),
            (_, Err(e)) => Err(self.refusal(e)),
        }
    }

    fn refusal(&self, e: ErrorStack) -> PkError {
        match self.shape {
            Shape::Raw(_) => PkError::LowOrder(Some(format!("OpenSSL: {e}"))),
            _ => ossl(e),
        }
    }
}

impl AgreementSecret for AgreementKey {
    fn public_key(&self) -> Vec<u8> {
        public_bytes(self.shape, &self.key).unwrap_or_default()
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        secret_bytes(self.shape, &self.key)
    }
    fn derive(&self, peer: &[u8]) -> Result<Vec<u8>, PkError> {
        let mut out = Vec::new();
        let derived = self.context(peer)?.derive_to_vec(&mut out);
        self.secret(derived.map(|_| out))
    }
    fn prepare_peer(&mut self, peer: &[u8]) -> Result<(), PkError> {
        *self.prepared.get_mut() = Some(self.context(peer)?);
        Ok(())
    }
    fn derive_prepared(&mut self) -> Result<Vec<u8>, PkError> {
        let ctx = self
            .prepared
            .get_mut()
            .as_mut()
            .ok_or_else(|| PkError::crypto("no peer share prepared"))?;
        let mut out = Vec::new();
        let derived = ctx.derive_to_vec(&mut out);
        self.secret(derived.map(|_| out))
    }
}

// ------------------------------------------------------------- signatures

struct Signature(&'static str);

/// The digest a set signs with (none for EdDSA).
fn digest_of(name: &str) -> Option<(&'static MdRef, MessageDigest)> {
    match name {
        "Ed25519" | "Ed448" => None,
        "ECDSA-P384" => Some((Md::sha384(), MessageDigest::sha384())),
        "ECDSA-P521" => Some((Md::sha512(), MessageDigest::sha512())),
        _ => Some((Md::sha256(), MessageDigest::sha256())),
    }
}

/// A digest fetched once, with its context: `openssl::hash::hash` would
/// fetch the algorithm and allocate a context on every call, work that
/// `openssl speed` does not time.
struct Prehash {
    md: Md,
    ctx: MdCtx,
}

impl Prehash {
    fn new(digest: MessageDigest) -> Result<Self, PkError> {
        let name = digest.type_().short_name().map_err(ossl)?;
        Ok(Prehash {
            md: Md::fetch(None, name, None).map_err(ossl)?,
            ctx: MdCtx::new().map_err(ossl)?,
        })
    }

    /// The digest of `message`, into `out`; its length.
    fn digest(&mut self, message: &[u8], out: &mut [u8; 64]) -> Result<usize, PkError> {
        self.ctx.digest_init(&self.md).map_err(ossl)?;
        self.ctx.digest_update(message).map_err(ossl)?;
        self.ctx.digest_final(out).map_err(ossl)
    }
}

/// How a key signs or verifies: prepared once, outside the timed region.
enum KeyCtx<T> {
    /// RSA / ECDSA: the digest, through a prepared context.
    Digest(PkeyCtx<T>, Prehash),
    /// EdDSA: the message, through one `EVP_MD_CTX`.
    Message(MdCtx),
}

impl<T: HasPublic> KeyCtx<T> {
    /// The context of `set` for `key`; `init_digest` and `init_message`
    /// start it for signing or for verifying.
    fn new(
        set: &str,
        key: &PKey<T>,
        init_digest: impl FnOnce(&mut PkeyCtx<T>) -> Result<(), ErrorStack>,
        init_message: impl FnOnce(&mut MdCtx) -> Result<(), ErrorStack>,
    ) -> Result<Self, PkError> {
        Ok(match digest_of(set) {
            Some((_, md)) => {
                let mut ctx = PkeyCtx::new(key).map_err(ossl)?;
                init_digest(&mut ctx).map_err(ossl)?;
                set_rsa(&mut ctx, shape(set))?;
                KeyCtx::Digest(ctx, Prehash::new(md)?)
            }
            None => {
                let mut ctx = MdCtx::new().map_err(ossl)?;
                init_message(&mut ctx).map_err(ossl)?;
                KeyCtx::Message(ctx)
            }
        })
    }
}

struct SignKey {
    shape: Shape,
    key: PKey<Private>,
    ctx: RefCell<KeyCtx<Private>>,
}

struct VerifyKey {
    ctx: RefCell<KeyCtx<Public>>,
}

impl_entry!(Signature, NAME, |_| version());

fn set_rsa(ctx: &mut PkeyCtx<impl HasPublic>, shape: Shape) -> Result<(), PkError> {
    if let Shape::Rsa { pss, .. } = shape {
        ctx.set_signature_md(Md::sha256()).map_err(ossl)?;
        if pss {
            ctx.set_rsa_padding(Padding::PKCS1_PSS).map_err(ossl)?;
            ctx.set_rsa_pss_saltlen(RsaPssSaltlen::DIGEST_LENGTH)
                .map_err(ossl)?;
            ctx.set_rsa_mgf1_md(Md::sha256()).map_err(ossl)?;
        } else {
            ctx.set_rsa_padding(Padding::PKCS1).map_err(ossl)?;
        }
    }
    Ok(())
}

impl Signature {
    fn signing(&self, key: PKey<Private>) -> Result<Box<dyn SigningKey>, PkError> {
        let ctx = KeyCtx::new(
            self.0,
            &key,
            |c| c.sign_init(),
            |c| c.digest_sign_init(None, &key).map(drop),
        )?;
        Ok(Box::new(SignKey {
            shape: shape(self.0),
            key,
            ctx: RefCell::new(ctx),
        }))
    }
}

impl Signer for Signature {
    fn generate(&self) -> Result<Box<dyn SigningKey>, PkError> {
        self.signing(generate(shape(self.0))?)
    }
    fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn SigningKey>, PkError> {
        self.signing(import_secret(self.algorithm(), shape(self.0), secret)?)
    }
    fn import_public(&self, public: &[u8]) -> Result<Box<dyn VerifyingKey>, PkError> {
        let key = import_public(self.algorithm(), shape(self.0), public)?;
        let ctx = KeyCtx::new(
            self.0,
            &key,
            |c| c.verify_init(),
            |c| c.digest_verify_init(None, &key).map(drop),
        )?;
        Ok(Box::new(VerifyKey {
            ctx: RefCell::new(ctx),
        }))
    }
}

impl SigningKey for SignKey {
    fn public_key(&self) -> Result<Vec<u8>, PkError> {
        public_bytes(self.shape, &self.key)
    }
    fn secret_key(&self) -> Result<Vec<u8>, PkError> {
        secret_bytes(self.shape, &self.key)
    }
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
        let mut out = Vec::new();
        match &mut *self.ctx.borrow_mut() {
            KeyCtx::Digest(ctx, prehash) => {
                let mut digest = [0u8; 64];
                let len = prehash.digest(message, &mut digest)?;
                sign_digest(ctx, self.key.size(), &digest[..len], &mut out)?;
            }
            KeyCtx::Message(ctx) => {
                ctx.digest_sign_to_vec(message, &mut out).map_err(ossl)?;
            }
        }
        Ok(out)
    }
    fn prehash(&self, message: &[u8]) -> Result<Vec<u8>, PkError> {
        match &mut *self.ctx.borrow_mut() {
            KeyCtx::Digest(_, prehash) => {
                let mut digest = [0u8; 64];
                let len = prehash.digest(message, &mut digest)?;
                Ok(digest[..len].to_vec())
            }
            KeyCtx::Message(_) => Err(eddsa_signs_messages()),
        }
    }
    fn sign_prehashed(&self, digest: &[u8]) -> Result<Vec<u8>, PkError> {
        let mut out = Vec::new();
        match &mut *self.ctx.borrow_mut() {
            KeyCtx::Digest(ctx, _) => sign_digest(ctx, self.key.size(), digest, &mut out)?,
            KeyCtx::Message(_) => return Err(eddsa_signs_messages()),
        }
        Ok(out)
    }
}

fn eddsa_signs_messages() -> PkError {
    PkError::Unavailable("EdDSA signs the whole message (no prehashed form here)".into())
}

/// One EVP_PKEY_sign into a buffer of the key's largest signature, as
/// `openssl speed` does: `sign_to_vec` first asks for the length with a
/// second call (for ECDSA an ASN.1 encoding of the group order, about 3% of
/// a P-256 signature).
fn sign_digest(
    ctx: &mut PkeyCtx<Private>,
    max_len: usize,
    digest: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), PkError> {
    out.resize(max_len, 0);
    let written = ctx.sign(digest, Some(out)).map_err(ossl)?;
    out.truncate(written);
    Ok(())
}

impl VerifyingKey for VerifyKey {
    fn verify(&self, message: &[u8], signature: &[u8]) -> Result<bool, PkError> {
        // OpenSSL reports a malformed signature as an error: a rejection.
        Ok(match &mut *self.ctx.borrow_mut() {
            KeyCtx::Digest(ctx, prehash) => {
                let mut digest = [0u8; 64];
                let len = prehash.digest(message, &mut digest)?;
                ctx.verify(&digest[..len], signature).unwrap_or(false)
            }
            KeyCtx::Message(ctx) => ctx.digest_verify(message, signature).unwrap_or(false),
        })
    }
}

// ---------------------------------------------------------------- lists

fn no_pq(alg: &str) -> Missing {
    let v = version();
    let reason = if openssl::version::number() >= 0x3050_0000 {
        format!("{v} has {alg}, but the openssl crate has no API for it yet")
    } else {
        format!("{v} has no {alg} (added in OpenSSL 3.5)")
    };
    Missing::new(NAME, version(), alg, reason)
}

/// OpenSSL's KEMs: none before 3.5.
pub fn kems() -> Vec<Box<dyn Kem>> {
    ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"]
        .into_iter()
        .map(|a| Box::new(no_pq(a)) as Box<dyn Kem>)
        .collect()
}

/// OpenSSL's key agreements.
pub fn agreements() -> Vec<Box<dyn KeyAgreement>> {
    ["X25519", "X448", "ECDH-P256", "ECDH-P384", "ECDH-P521"]
        .into_iter()
        .map(|a| Box::new(Agreement(alg(a).name)) as Box<dyn KeyAgreement>)
        .collect()
}

/// OpenSSL's signers.
pub fn signers() -> Vec<Box<dyn Signer>> {
    let mut out: Vec<Box<dyn Signer>> = Vec::new();
    for a in crate::algorithms::ALGORITHMS {
        if a.kind != crate::algorithms::Kind::Signature {
            continue;
        }
        if a.name.starts_with("ML-DSA") || a.name.starts_with("SLH-DSA") {
            out.push(Box::new(no_pq(a.name)));
        } else {
            out.push(Box::new(Signature(a.name)));
        }
    }
    out
}
