//! The object-safe face of the cipher: a [`Scheme`] is a loaded key on some
//! backend, used by the command line without knowing which arithmetic runs.
//! Engines (a curve's arithmetic, G's table, the 256 `char` points) are
//! built once per process by their backend ([`crate::arith::backend`]) and
//! shared.

use crate::arith::{self, Arithmetic, Backend, EngineTask};
use crate::cipher::{CurveEngine, Keys};
use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::executor::Executor;
use crate::format::RawCiphertext;
use crate::keys::{KeyMaterial, RngSource};
use cryptobench_core::Error;
use std::sync::Arc;

/// A key on a backend, ready to encrypt (and decrypt, with a secret key).
pub trait Scheme: Send + Sync {
    /// The curve.
    fn curve(&self) -> Curve;
    /// The arithmetic backend.
    fn arith(&self) -> Backend;
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
    fn arith(&self) -> Backend {
        self.arith().backend()
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

struct Open<'a> {
    key: Option<&'a KeyMaterial>,
    rng: RngSource,
}

impl EngineTask for Open<'_> {
    type Output = Box<dyn Scheme>;
    fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<Box<dyn Scheme>, Error> {
        Ok(match self.key {
            Some(k) => Box::new(Keys::load(engine, k)?),
            None => Box::new(Keys::generate(engine, self.rng)?),
        })
    }
}

/// Loads `key` (or generates one from `rng` when `None`) on `backend`.
pub fn open(
    curve: Curve,
    backend: Backend,
    key: Option<&KeyMaterial>,
    rng: RngSource,
) -> Result<Box<dyn Scheme>, Error> {
    arith::backend::run(backend, curve, Open { key, rng })
}
