//! Checks shared by every case of a curve, run once per process: the
//! Koblitz table property and agreement between independent backends.

use crate::arith::{self, Arithmetic, Backend, EngineTask};
use crate::cipher::CurveEngine;
use crate::curve::Curve;
use crate::encoding::{decode_x, encode_chunk, Encoding};
use crate::executor::Serial;
use crate::keys::RngSource;
use crate::scheme;
use cryptobench_core::{CheckResult, Error};
use std::sync::{Arc, OnceLock};

/// The `char` table property on `arith`: every byte b encodes to a point
/// whose x decodes to b, with the smallest counter j that works.
pub fn char_table_property<A: Arithmetic>(arith: &A) -> Result<(), Error> {
    let mut s = arith.scratch()?;
    let fb = arith.curve().field_bytes();
    let mut x = vec![0u8; fb];
    for b in 0..=255u8 {
        let (mut p, j) = encode_chunk(arith, &[b], 1, &mut s)?;
        arith.normalize(std::slice::from_mut(&mut p), &mut s)?;
        if !arith.affine_x(&p, &mut x, &mut s)? {
            return Err(Error::check_failed(
                "encoding-table",
                format!("byte {b}: encoded to infinity"),
            ));
        }
        let mut back = [0u8; 1];
        decode_x(&x, 1, &mut back)?;
        if back[0] != b || x[fb - 1] != j {
            return Err(Error::check_failed(
                "encoding-table",
                format!("byte {b}: decodes to {}", back[0]),
            ));
        }
        for smaller in 0..j {
            let mut sec1 = vec![0u8; 1 + fb];
            sec1[0] = 0x02;
            sec1[fb - 1] = b;
            sec1[fb] = smaller;
            if arith.decompress(&sec1, &mut s).is_some() {
                return Err(Error::check_failed(
                    "encoding-table",
                    format!("byte {b}: counter {smaller} < {j} already gives a point"),
                ));
            }
        }
    }
    Ok(())
}

/// Seeded ciphertext of a fixed message on one backend (compressed pairs).
fn seeded_ciphertext(curve: Curve, backend: Backend) -> Result<Vec<[Vec<u8>; 2]>, Error> {
    let rng = RngSource::Seeded(2024);
    let keys = scheme::open(curve, backend, None, rng)?;
    let mut pairs = keys
        .encrypt_raw(b"seed 002", Encoding::Char, &Serial, rng)?
        .pairs;
    pairs.extend(
        keys.encrypt_raw(b"packed encoding", Encoding::Packed, &Serial, rng)?
            .pairs,
    );
    Ok(pairs)
}

/// [`char_table_property`] as a task on a backend's engine.
struct CharTable;

impl EngineTask for CharTable {
    type Output = ();
    fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<(), Error> {
        char_table_property(engine.arith())
    }
}

fn compute(curve: Curve) -> Vec<CheckResult> {
    let backends: Vec<Backend> = arith::all()
        .into_iter()
        .filter(|b| arith::backend::implements(*b, curve))
        .collect();
    let table = backends.iter().try_for_each(|&b| {
        arith::backend::run(b, curve, CharTable).map_err(|e| Error::failed(b.name(), e))
    });
    let mut out = vec![match table {
        Ok(()) => CheckResult::pass(
            "encoding-table",
            "all 256 char points decode back, each with the smallest counter j",
        ),
        Err(e) => CheckResult::fail("encoding-table", e.to_string()),
    }];
    // Independent libraries must agree bit for bit on a seeded key and message.
    if let Some((&first, others)) = backends.split_first().filter(|(_, o)| !o.is_empty()) {
        let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
        out.push(match agreement(curve, first, others) {
            Ok(()) => CheckResult::pass(
                "cross-backend",
                format!(
                    "seeded key and ciphertext identical on {}",
                    names.join(" and ")
                ),
            ),
            Err(e) => CheckResult::fail("cross-backend", e.to_string()),
        });
    }
    out
}

/// Whether every backend of `others` gives `first`'s seeded ciphertext.
fn agreement(curve: Curve, first: Backend, others: &[Backend]) -> Result<(), Error> {
    let on = |b: Backend| seeded_ciphertext(curve, b).map_err(|e| Error::failed(b.name(), e));
    let expected = on(first)?;
    for &other in others {
        if on(other)? != expected {
            return Err(Error::check_failed(
                "cross-backend",
                format!("{} and {} ciphertexts differ", first.name(), other.name()),
            ));
        }
    }
    Ok(())
}

/// The checks of `curve`, computed once per process.
pub fn curve_checks(curve: Curve) -> Vec<CheckResult> {
    static CELLS: [OnceLock<Vec<CheckResult>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = Curve::ALL.iter().position(|c| *c == curve).unwrap_or(0);
    CELLS[i].get_or_init(|| compute(curve)).clone()
}
