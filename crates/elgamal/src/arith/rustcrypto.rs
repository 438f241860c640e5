//! [`Arithmetic`] over RustCrypto's `p256` (P-256) and `k256` (secp256k1).
//!
//! Both crates multiply a variable point in constant time; neither keeps a
//! table for an arbitrary fixed point, so this module builds one: 64 rows of
//! the 16 affine multiples j * 16^w * P, read with constant-time selects, so
//! a fixed-base multiplication is 64 mixed additions and no doubling. The
//! same table serves G and the public key Q.

use super::backend::{cached, ArithBackend, Backend, EngineCell, EngineTask};
use super::Arithmetic;
use crate::cipher::CurveEngine;
use crate::curve::Curve;
use cryptobench_core::{Availability, Error};
use std::sync::{Arc, OnceLock};

/// Crate versions shown as this backend's version.
pub const VERSION: &str = "RustCrypto p256 0.13, k256 0.13";

/// Why toy64 does not run here.
const NO_TOY64: &str = "rustcrypto offers no 64-bit curve; toy64 uses the native arithmetic";

/// The registered backend: `p256` on P-256, `k256` on secp256k1.
pub struct Rustcrypto;

impl ArithBackend for Rustcrypto {
    fn name(&self) -> &'static str {
        "rustcrypto"
    }
    fn version(&self) -> String {
        VERSION.to_string()
    }
    fn availability(&self, curve: Curve) -> Availability {
        match curve {
            Curve::P256 | Curve::Secp256k1 => Availability::Available,
            Curve::Toy64 => Availability::Unavailable(NO_TOY64.into()),
        }
    }
    /// On secp256k1 `k256` is about 10x OpenSSL's generic ladder.
    fn fastest_on(&self, curve: Curve) -> bool {
        curve == Curve::Secp256k1
    }
    fn prepare<T: EngineTask>(&self, curve: Curve, task: T) -> Result<T::Output, Error> {
        match curve {
            Curve::P256 => task.run(p256_engine()?),
            Curve::Secp256k1 => task.run(k256_engine()?),
            Curve::Toy64 => Err(Error::usage(NO_TOY64)),
        }
    }
}

/// The RustCrypto engine of P-256, built once per process.
pub fn p256_engine() -> Result<Arc<CurveEngine<RustcryptoP256>>, Error> {
    static CELL: EngineCell<RustcryptoP256> = OnceLock::new();
    cached(&CELL, || Ok(RustcryptoP256::new()))
}

/// The RustCrypto engine of secp256k1, built once per process.
pub fn k256_engine() -> Result<Arc<CurveEngine<RustcryptoK256>>, Error> {
    static CELL: EngineCell<RustcryptoK256> = OnceLock::new();
    cached(&CELL, || Ok(RustcryptoK256::new()))
}

/// Rows of a fixed-base table: 256-bit scalars in 4-bit windows.
const ROWS: usize = 64;
const ENTRIES: usize = 16;

macro_rules! rustcrypto_arith {
    ($name:ident, $krate:ident, $curve:expr, $doc:literal) => {
        #[doc = $doc]
        pub mod $krate {
            use super::*;
            use ::$krate::elliptic_curve::group::prime::PrimeCurveAffine;
            use ::$krate::elliptic_curve::group::Curve as _;
            use ::$krate::elliptic_curve::point::AffineCoordinates as _;
            use ::$krate::elliptic_curve::sec1::{FromEncodedPoint as _, ToEncodedPoint as _};
            use ::$krate::elliptic_curve::subtle::{
                Choice, ConditionallySelectable, ConstantTimeEq,
            };
            use ::$krate::elliptic_curve::PrimeField as _;
            use ::$krate::{AffinePoint, EncodedPoint, FieldBytes, ProjectivePoint, Scalar};

            /// A point, with its affine form once [`Arithmetic::normalize`] has run.
            #[derive(Clone, Copy, Debug)]
            pub struct Point {
                proj: ProjectivePoint,
                affine: Option<AffinePoint>,
            }

            impl Point {
                fn new(proj: ProjectivePoint) -> Self {
                    Self { proj, affine: None }
                }
                fn affine(&self) -> AffinePoint {
                    self.affine.unwrap_or_else(|| self.proj.to_affine())
                }
            }

            /// A secret scalar and its big-endian digits.
            pub struct SecretScalar {
                value: Scalar,
                bytes: FieldBytes,
            }

            impl Drop for SecretScalar {
                fn drop(&mut self) {
                    use ::zeroize::Zeroize as _;
                    self.bytes.as_mut_slice().zeroize();
                    self.value = Scalar::ZERO;
                }
            }

            /// 64 rows of 16 affine multiples.
            pub struct Table {
                rows: Vec<[AffinePoint; ENTRIES]>,
            }

            /// The arithmetic, with G's table.
            pub struct $name {
                g_table: Table,
            }

            impl Default for $name {
                fn default() -> Self {
                    Self::new()
                }
            }

            impl $name {
                /// Builds G's table.
                pub fn new() -> Self {
                    Self {
                        g_table: build_table(&ProjectivePoint::GENERATOR),
                    }
                }
            }

            fn build_table(base: &ProjectivePoint) -> Table {
                let mut rows = Vec::with_capacity(ROWS);
                let mut step = *base;
                for _ in 0..ROWS {
                    let mut proj = [ProjectivePoint::IDENTITY; ENTRIES];
                    for j in 1..ENTRIES {
                        proj[j] = proj[j - 1] + step;
                    }
                    step = proj[ENTRIES - 1] + step;
                    let mut row = [AffinePoint::identity(); ENTRIES];
                    ProjectivePoint::batch_normalize(&proj, &mut row);
                    rows.push(row);
                }
                Table { rows }
            }

            fn lookup(row: &[AffinePoint; ENTRIES], digit: u8) -> AffinePoint {
                let mut out = row[0];
                for (j, entry) in row.iter().enumerate().skip(1) {
                    let hit: Choice = (j as u8).ct_eq(&digit);
                    out = AffinePoint::conditional_select(&out, entry, hit);
                }
                out
            }

            impl Arithmetic for $name {
                type Point = Point;
                type Scalar = SecretScalar;
                type Table = Table;
                type Scratch = ();

                fn curve(&self) -> Curve {
                    $curve
                }
                fn backend(&self) -> Backend {
                    &Rustcrypto
                }
                fn scratch(&self) -> Result<(), Error> {
                    Ok(())
                }
                fn scalar(&self, be: &[u8]) -> Result<SecretScalar, Error> {
                    if be.len() != 32 {
                        return Err(Error::usage("a 256-bit scalar is 32 bytes"));
                    }
                    let bytes = FieldBytes::clone_from_slice(be);
                    let value = Option::<Scalar>::from(Scalar::from_repr(bytes))
                        .ok_or_else(|| Error::usage("scalar is not below the group order"))?;
                    Ok(SecretScalar { value, bytes })
                }
                fn generator_table(&self) -> &Table {
                    &self.g_table
                }
                fn table(&self, base: &Point, _: &mut ()) -> Result<Table, Error> {
                    Ok(build_table(&base.proj))
                }
                fn mul_fixed(
                    &self,
                    table: &Table,
                    k: &SecretScalar,
                    _: &mut (),
                ) -> Result<Point, Error> {
                    let mut acc = ProjectivePoint::IDENTITY;
                    // Row w holds multiples of 16^w: the least significant
                    // nibble (last byte, low half) goes with row 0.
                    for (w, row) in table.rows.iter().enumerate() {
                        let byte = k.bytes[31 - w / 2];
                        let digit = if w % 2 == 0 { byte & 0x0f } else { byte >> 4 };
                        acc += lookup(row, digit);
                    }
                    Ok(Point::new(acc))
                }
                fn mul_ct(&self, p: &Point, k: &SecretScalar, _: &mut ()) -> Result<Point, Error> {
                    Ok(Point::new(p.proj * k.value))
                }
                fn add(&self, a: &Point, b: &Point, _: &mut ()) -> Result<Point, Error> {
                    Ok(Point::new(match b.affine {
                        Some(bb) => a.proj + bb,
                        None => a.proj + b.proj,
                    }))
                }
                fn sub(&self, a: &Point, b: &Point, _: &mut ()) -> Result<Point, Error> {
                    Ok(Point::new(a.proj - b.proj))
                }
                fn normalize(&self, points: &mut [Point], _: &mut ()) -> Result<(), Error> {
                    let proj: Vec<ProjectivePoint> = points.iter().map(|p| p.proj).collect();
                    let mut affine = vec![AffinePoint::identity(); proj.len()];
                    ProjectivePoint::batch_normalize(&proj, &mut affine);
                    for (p, a) in points.iter_mut().zip(affine) {
                        p.affine = Some(a);
                    }
                    Ok(())
                }
                fn decompress(&self, sec1: &[u8], _: &mut ()) -> Option<Point> {
                    if sec1.len() != 33 || !matches!(sec1[0], 0x02 | 0x03) {
                        return None;
                    }
                    let encoded = EncodedPoint::from_bytes(sec1).ok()?;
                    let affine: AffinePoint =
                        Option::from(AffinePoint::from_encoded_point(&encoded))?;
                    Some(Point {
                        proj: ProjectivePoint::from(affine),
                        affine: Some(affine),
                    })
                }
                fn compress(&self, p: &Point, _: &mut ()) -> Result<Vec<u8>, Error> {
                    let a = p.affine();
                    if bool::from(a.is_identity()) {
                        return Err(Error::Encoding("cannot encode the point at infinity"));
                    }
                    Ok(a.to_encoded_point(true).as_bytes().to_vec())
                }
                fn affine_x(&self, p: &Point, out: &mut [u8], _: &mut ()) -> Result<bool, Error> {
                    let a = p.affine();
                    if bool::from(a.is_identity()) {
                        return Ok(false);
                    }
                    out.copy_from_slice(&a.x());
                    Ok(true)
                }
            }
        }
        pub use $krate::$name;
    };
}

rustcrypto_arith!(
    RustcryptoP256,
    p256,
    Curve::P256,
    "P-256 over RustCrypto `p256` (primeorder's constant-time windowed multiplication)."
);
rustcrypto_arith!(
    RustcryptoK256,
    k256,
    Curve::Secp256k1,
    "secp256k1 over RustCrypto `k256` (GLV endomorphism, constant time)."
);
