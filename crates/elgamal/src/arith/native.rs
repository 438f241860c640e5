//! [`Arithmetic`] for toy64 over this crate's own 64-bit code ([`crate::toy64`]).

use super::backend::{cached, ArithBackend, Backend, EngineCell, EngineTask};
use super::Arithmetic;
use crate::cipher::CurveEngine;
use crate::curve::Curve;
use crate::toy64::{FixedTable, Point, Toy64};
use cryptobench_core::{Availability, Error};
use std::sync::{Arc, OnceLock};

/// The registered backend: this crate's arithmetic, toy64 only.
pub struct Native;

impl ArithBackend for Native {
    fn name(&self) -> &'static str {
        "native"
    }
    fn version(&self) -> String {
        format!("cryptobench-elgamal {}", env!("CARGO_PKG_VERSION"))
    }
    fn availability(&self, curve: Curve) -> Availability {
        if curve == Curve::Toy64 {
            Availability::Available
        } else {
            Availability::Unavailable(format!(
                "native arithmetic implements only toy64, not {curve}"
            ))
        }
    }
    fn fastest_on(&self, curve: Curve) -> bool {
        curve == Curve::Toy64
    }
    fn prepare<T: EngineTask>(&self, _curve: Curve, task: T) -> Result<T::Output, Error> {
        task.run(engine()?)
    }
}

/// The toy64 engine, built once per process.
pub fn engine() -> Result<Arc<CurveEngine<NativeToy64>>, Error> {
    static CELL: EngineCell<NativeToy64> = OnceLock::new();
    cached(&CELL, || Ok(NativeToy64::new()))
}

/// toy64 arithmetic with its generator table.
pub struct NativeToy64 {
    curve: Toy64,
    g_table: FixedTable,
}

impl Default for NativeToy64 {
    fn default() -> Self {
        Self::new()
    }
}

impl NativeToy64 {
    /// Builds the curve and G's table.
    pub fn new() -> Self {
        let curve = Toy64::default();
        let g_table = curve.table(&curve.generator());
        Self { curve, g_table }
    }
    /// The underlying curve.
    pub fn inner(&self) -> &Toy64 {
        &self.curve
    }
}

impl Arithmetic for NativeToy64 {
    type Point = Point;
    type Scalar = u64;
    type Table = FixedTable;
    type Scratch = ();

    fn curve(&self) -> Curve {
        Curve::Toy64
    }
    fn backend(&self) -> Backend {
        &Native
    }
    fn scratch(&self) -> Result<(), Error> {
        Ok(())
    }
    fn scalar(&self, be: &[u8]) -> Result<u64, Error> {
        let bytes: [u8; 8] = be
            .try_into()
            .map_err(|_| Error::usage("a toy64 scalar is 8 bytes"))?;
        Ok(u64::from_be_bytes(bytes))
    }
    fn generator_table(&self) -> &FixedTable {
        &self.g_table
    }
    fn table(&self, base: &Point, _: &mut ()) -> Result<FixedTable, Error> {
        Ok(self.curve.table(base))
    }
    fn mul_fixed(&self, table: &FixedTable, k: &u64, _: &mut ()) -> Result<Point, Error> {
        Ok(self.curve.mul_fixed(table, *k))
    }
    fn mul_ct(&self, p: &Point, k: &u64, _: &mut ()) -> Result<Point, Error> {
        Ok(self.curve.mul(p, *k))
    }
    fn add(&self, a: &Point, b: &Point, _: &mut ()) -> Result<Point, Error> {
        Ok(self.curve.add(a, b))
    }
    fn sub(&self, a: &Point, b: &Point, _: &mut ()) -> Result<Point, Error> {
        Ok(self.curve.sub(a, b))
    }
    fn normalize(&self, points: &mut [Point], _: &mut ()) -> Result<(), Error> {
        self.curve.normalize(points);
        Ok(())
    }
    fn decompress(&self, sec1: &[u8], _: &mut ()) -> Option<Point> {
        let (&prefix, x) = sec1.split_first()?;
        let x: [u8; 8] = x.try_into().ok()?;
        let odd = match prefix {
            0x02 => false,
            0x03 => true,
            _ => return None,
        };
        self.curve.lift_x(u64::from_be_bytes(x), odd)
    }
    fn compress(&self, p: &Point, _: &mut ()) -> Result<Vec<u8>, Error> {
        let (x, y) = self
            .curve
            .affine(p)
            .ok_or_else(|| Error::Encoding("cannot encode the point at infinity"))?;
        let mut out = Vec::with_capacity(9);
        out.push(0x02 | (y & 1) as u8);
        out.extend_from_slice(&x.to_be_bytes());
        Ok(out)
    }
    fn affine_x(&self, p: &Point, out: &mut [u8], _: &mut ()) -> Result<bool, Error> {
        match self.curve.affine(p) {
            Some((x, _)) => {
                out.copy_from_slice(&x.to_be_bytes());
                Ok(true)
            }
            None => Ok(false),
        }
    }
}
