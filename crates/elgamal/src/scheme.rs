//! The object-safe face of the cipher: a [`Scheme`] is a loaded key on some
//! backend, used by the command line without knowing which arithmetic runs.
//! Engines (a curve's arithmetic, G's table, the 256 `char` points) are
//! built once per process and shared.

use crate::arith::native::NativeToy64;
use crate::arith::ossl::OpensslArith;
use crate::arith::rustcrypto::{RustcryptoK256, RustcryptoP256};
use crate::arith::{ArithKind, Arithmetic};
use crate::cipher::{CurveEngine, Keys};
use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::executor::Executor;
use crate::format::RawCiphertext;
use crate::keys::{KeyMaterial, RngSource};
use cryptobench_core::Error;
use std::sync::{Arc, OnceLock};

/// A key on a backend, ready to encrypt (and decrypt, with a secret key).
pub trait Scheme: Send + Sync {
    /// The curve.
    fn curve(&self) -> Curve;
    /// The arithmetic backend.
    fn arith(&self) -> ArithKind;
    /// The key as stored.
    fn material(&self) -> &KeyMaterial;
    /// Encrypts into compressed pairs.
    fn encrypt_raw(
        &self,
        msg: &[u8],
        encoding: Encoding,
        exec: &dyn Executor,
        rng: RngSource,
    ) -> Result<RawCiphertext, Error>;
    /// Validates the points and decrypts.
    fn decrypt_raw(&self, ct: &RawCiphertext, exec: &dyn Executor) -> Result<Vec<u8>, Error>;
}

impl<A: Arithmetic> Scheme for Keys<A> {
    fn curve(&self) -> Curve {
        Keys::curve(self)
    }
    fn arith(&self) -> ArithKind {
        self.arith().kind()
    }
    fn material(&self) -> &KeyMaterial {
        Keys::material(self)
    }
    fn encrypt_raw(
        &self,
        msg: &[u8],
        encoding: Encoding,
        exec: &dyn Executor,
        rng: RngSource,
    ) -> Result<RawCiphertext, Error> {
        let ct = self.encrypt(msg, encoding, exec, rng)?;
        Ok(RawCiphertext {
            curve: Keys::curve(self),
            encoding,
            length: msg.len(),
            pairs: self.serialize_pairs(&ct)?,
        })
    }
    fn decrypt_raw(&self, raw: &RawCiphertext, exec: &dyn Executor) -> Result<Vec<u8>, Error> {
        let curve = Keys::curve(self);
        if raw.curve != curve {
            return Err(Error::usage(format!(
                "ciphertext is for {}, but the key is for {curve}",
                raw.curve
            )));
        }
        let ct = self.parse_pairs(raw.encoding, raw.length, &raw.pairs)?;
        self.decrypt(&ct, exec)
    }
}

type Cell<A> = OnceLock<Result<Arc<CurveEngine<A>>, String>>;

fn cached<A: Arithmetic>(
    cell: &'static Cell<A>,
    make: impl FnOnce() -> Result<A, Error>,
) -> Result<Arc<CurveEngine<A>>, Error> {
    cell.get_or_init(|| {
        make()
            .and_then(CurveEngine::new)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(Error::other)
}

/// The toy64 engine.
pub fn native_engine() -> Result<Arc<CurveEngine<NativeToy64>>, Error> {
    static CELL: Cell<NativeToy64> = OnceLock::new();
    cached(&CELL, || Ok(NativeToy64::new()))
}

/// The OpenSSL engine of P-256 or secp256k1.
pub fn openssl_engine(curve: Curve) -> Result<Arc<CurveEngine<OpensslArith>>, Error> {
    static P256: Cell<OpensslArith> = OnceLock::new();
    static K256: Cell<OpensslArith> = OnceLock::new();
    match curve {
        Curve::P256 => cached(&P256, || OpensslArith::new(Curve::P256)),
        Curve::Secp256k1 => cached(&K256, || OpensslArith::new(Curve::Secp256k1)),
        Curve::Toy64 => Err(unsupported(ArithKind::Openssl, curve)),
    }
}

/// The RustCrypto engine of P-256.
pub fn p256_engine() -> Result<Arc<CurveEngine<RustcryptoP256>>, Error> {
    static CELL: Cell<RustcryptoP256> = OnceLock::new();
    cached(&CELL, || Ok(RustcryptoP256::new()))
}

/// The RustCrypto engine of secp256k1.
pub fn k256_engine() -> Result<Arc<CurveEngine<RustcryptoK256>>, Error> {
    static CELL: Cell<RustcryptoK256> = OnceLock::new();
    cached(&CELL, || Ok(RustcryptoK256::new()))
}

fn unsupported(kind: ArithKind, curve: Curve) -> Error {
    Error::usage(kind.unsupported_reason(curve).unwrap_or_default())
}

fn keys<A: Arithmetic>(
    engine: Arc<CurveEngine<A>>,
    key: Option<&KeyMaterial>,
    rng: RngSource,
) -> Result<Box<dyn Scheme>, Error> {
    Ok(Box::new(match key {
        Some(k) => Keys::load(engine, k)?,
        None => Keys::generate(engine, rng)?,
    }))
}

/// Loads `key` (or generates one from `rng` when `None`) on backend `kind`.
pub fn open(
    curve: Curve,
    kind: ArithKind,
    key: Option<&KeyMaterial>,
    rng: RngSource,
) -> Result<Box<dyn Scheme>, Error> {
    match (kind, curve) {
        (ArithKind::Native, Curve::Toy64) => keys(native_engine()?, key, rng),
        (ArithKind::Openssl, Curve::P256 | Curve::Secp256k1) => {
            keys(openssl_engine(curve)?, key, rng)
        }
        (ArithKind::Rustcrypto, Curve::P256) => keys(p256_engine()?, key, rng),
        (ArithKind::Rustcrypto, Curve::Secp256k1) => keys(k256_engine()?, key, rng),
        _ => Err(unsupported(kind, curve)),
    }
}
