//! The arithmetic seam: one [`Arithmetic`] per (backend, curve).
//!
//! ElGamal needs little from a curve library: fixed-base multiplication by a
//! precomputed table (G, and the public key Q, both fixed for a key),
//! constant-time variable-base multiplication (d * y1 on decryption),
//! addition, batch conversion to affine, and SEC1 point compression. The
//! cipher ([`crate::cipher`]) is written once against this trait, so the
//! report can show the same ElGamal over several libraries side by side
//! (`arith=openssl|rustcrypto|native`). [`backend`] registers them.
//!
//! Koblitz encoding needs no extra operation: the point with affine x and an
//! even y is exactly what SEC1 decompression of `0x02 || x` returns, so
//! [`Arithmetic::decompress`] both parses ciphertext files and encodes
//! plaintext. [`Arithmetic::encode_many`] lets a backend search the
//! counters of many chunks together (OpenSSL's P-256 does, eight square
//! roots at a time: [`p256_lift`]).

pub mod backend;
pub mod native;
pub mod ossl;
pub mod p256_lift;
pub mod rustcrypto;

pub use backend::{all, default_for, parse, ArithBackend, Backend, EngineTask};

use crate::curve::Curve;
use cryptobench_core::Error;

/// Curve arithmetic as ElGamal uses it. Implementations must reject
/// off-curve input in [`Arithmetic::decompress`] and keep secret scalars
/// (in [`Arithmetic::mul_fixed`] and [`Arithmetic::mul_ct`]) on
/// constant-time code paths.
pub trait Arithmetic: Send + Sync + 'static {
    /// A point; any internal representation.
    type Point: Send + Sync;
    /// A secret scalar in [1, n-1].
    type Scalar: Send + Sync;
    /// Fixed-base precomputation for one point.
    type Table: Send + Sync;
    /// Per-thread working memory (OpenSSL's `BN_CTX`).
    type Scratch;

    /// The curve.
    fn curve(&self) -> Curve;
    /// The registered backend this arithmetic belongs to.
    fn backend(&self) -> Backend;
    /// Fresh working memory for one thread.
    fn scratch(&self) -> Result<Self::Scratch, Error>;
    /// A scalar from `scalar_bytes` big-endian bytes already known to be in [1, n-1].
    fn scalar(&self, be: &[u8]) -> Result<Self::Scalar, Error>;
    /// The precomputed table of the generator G.
    fn generator_table(&self) -> &Self::Table;
    /// Precomputes the table of `base` (the public key Q).
    fn table(&self, base: &Self::Point, s: &mut Self::Scratch) -> Result<Self::Table, Error>;
    /// k * base for the base of `table`; constant time in k.
    fn mul_fixed(
        &self,
        table: &Self::Table,
        k: &Self::Scalar,
        s: &mut Self::Scratch,
    ) -> Result<Self::Point, Error>;
    /// k * base + m for the base of `table` (ElGamal's y2 = k*Q + M);
    /// constant time in k. A backend may keep k * base in scratch memory
    /// instead of allocating a point for it.
    fn mul_fixed_add(
        &self,
        table: &Self::Table,
        k: &Self::Scalar,
        m: &Self::Point,
        s: &mut Self::Scratch,
    ) -> Result<Self::Point, Error> {
        let kq = self.mul_fixed(table, k, s)?;
        self.add(&kq, m, s)
    }
    /// Overwrites `k` with the scalar of `be` (as [`Arithmetic::scalar`]),
    /// reusing its memory where the backend can.
    fn set_scalar(&self, k: &mut Self::Scalar, be: &[u8]) -> Result<(), Error> {
        *k = self.scalar(be)?;
        Ok(())
    }
    /// k * p for any p; constant time in k.
    fn mul_ct(
        &self,
        p: &Self::Point,
        k: &Self::Scalar,
        s: &mut Self::Scratch,
    ) -> Result<Self::Point, Error>;
    /// a + b.
    fn add(
        &self,
        a: &Self::Point,
        b: &Self::Point,
        s: &mut Self::Scratch,
    ) -> Result<Self::Point, Error>;
    /// a - b.
    fn sub(
        &self,
        a: &Self::Point,
        b: &Self::Point,
        s: &mut Self::Scratch,
    ) -> Result<Self::Point, Error>;
    /// Converts points to affine form in one batch (Montgomery's trick).
    fn normalize(&self, points: &mut [Self::Point], s: &mut Self::Scratch) -> Result<(), Error>;
    /// Parses a SEC1 compressed point (`02|03 || x`); `None` when malformed,
    /// x >= p, or x is not on the curve. Never returns the identity.
    fn decompress(&self, sec1: &[u8], s: &mut Self::Scratch) -> Option<Self::Point>;
    /// The point with affine x (big-endian, `field_bytes` long) and even y,
    /// when x < p is on the curve: one Koblitz candidate. The default is
    /// SEC1 decompression of `0x02 || x`; a backend may answer faster.
    fn lift_even(&self, x: &[u8], s: &mut Self::Scratch) -> Option<Self::Point> {
        let mut sec1 = Vec::with_capacity(1 + x.len());
        sec1.push(0x02);
        sec1.extend_from_slice(x);
        self.decompress(&sec1, s)
    }
    /// Koblitz-encodes many chunks at once. `bases` holds one
    /// `field_bytes`-long big-endian x per chunk whose last byte (the
    /// counter j) is zero; each chunk's point, with the smallest j that puts
    /// it on the curve (as [`crate::encoding::encode_chunk`]), is pushed onto
    /// `out` in order. The default searches one chunk at a time with
    /// [`Arithmetic::lift_even`]; a backend may search many together.
    fn encode_many(
        &self,
        bases: &[u8],
        out: &mut Vec<Self::Point>,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        crate::encoding::encode_each(self, bases, out, s)
    }
    /// SEC1 compressed encoding; an error for the identity.
    fn compress(&self, p: &Self::Point, s: &mut Self::Scratch) -> Result<Vec<u8>, Error>;
    /// Writes affine x (big-endian, `field_bytes` long) into `out`; false for
    /// the identity. Cheapest after [`Arithmetic::normalize`].
    fn affine_x(
        &self,
        p: &Self::Point,
        out: &mut [u8],
        s: &mut Self::Scratch,
    ) -> Result<bool, Error>;
}

/// An error from a library call that should not fail on valid input.
pub(crate) fn lib_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::failed(what, e.to_string())
}
