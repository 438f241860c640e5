//! Koblitz encoding of bytes as curve points, exactly as
//! docs/elgamal-format.md specifies, so that an independent program decodes
//! the same way.
//!
//! A chunk of c bytes is the big-endian integer m. Its point has
//! x = m * 256 + j for the smallest j in 0..=255 such that x < p and
//! x^3 + a*x + b is a square mod p, and y is the even square root: that is
//! precisely the SEC1 decompression of `0x02 || x`, which every arithmetic
//! backend already implements (and which rejects x >= p). Decoding is
//! floor(x / 256): drop x's last byte.
//!
//! `char` puts one byte in each point (c = 1, as seed 002); `packed` puts
//! c = floor((bitlen(p) - 1) / 8) - 1 bytes (30 on 256-bit curves, 6 on
//! toy64), so that m * 256 + 255 < 2^(bitlen(p) - 1) < p always; its last
//! chunk is zero-padded on the right and the plaintext length is stored.
//!
//! The number of candidates tried depends on the plaintext, so encoding is
//! not constant time: one more reason this scheme is for reproducing the
//! paper, not for protecting data (see docs/elgamal-security.md).

use crate::arith::Arithmetic;
use crate::curve::Curve;
use cryptobench_core::{names, Error};

/// How plaintext bytes become points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// One byte per point (seed 002).
    Char,
    /// As many bytes per point as fit below p with room for the counter.
    Packed,
}

impl Encoding {
    /// Both encodings.
    pub const ALL: [Encoding; 2] = [Encoding::Char, Encoding::Packed];
    /// Names on the command line and in files.
    pub const NAMES: [&'static str; 2] = ["char", "packed"];

    /// Name on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Char => "char",
            Encoding::Packed => "packed",
        }
    }
    /// Resolves a user-typed name.
    pub fn parse(name: &str) -> Result<Self, Error> {
        let found = names::resolve("encoding", name, &Self::NAMES)?;
        Ok(if found == "char" {
            Encoding::Char
        } else {
            Encoding::Packed
        })
    }
    /// Plaintext bytes per point (c).
    pub fn chunk_bytes(self, curve: Curve) -> usize {
        match self {
            Encoding::Char => 1,
            Encoding::Packed => (curve.field_bits() - 1) / 8 - 1,
        }
    }
    /// Points (ciphertext pairs) for a plaintext of `len` bytes.
    pub fn points_for(self, curve: Curve, len: usize) -> usize {
        len.div_ceil(self.chunk_bytes(curve))
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The point of one chunk (at most c bytes; a short chunk is zero-padded on
/// the right), and the counter j that was used.
pub fn encode_chunk<A: Arithmetic>(
    arith: &A,
    chunk: &[u8],
    c: usize,
    s: &mut A::Scratch,
) -> Result<(A::Point, u8), Error> {
    let fb = arith.curve().field_bytes();
    if chunk.len() > c || c + 1 > fb {
        return Err(Error::other("chunk longer than the encoding allows"));
    }
    let mut x = vec![0u8; fb];
    // x = m * 256 + j: m's c bytes end just before x's last byte.
    x[fb - 1 - c..fb - 1 - c + chunk.len()].copy_from_slice(chunk);
    for j in 0..=255u8 {
        x[fb - 1] = j;
        if let Some(p) = arith.lift_even(&x, s) {
            return Ok((p, j));
        }
    }
    Err(Error::other(
        "no counter j in 0..=255 puts this chunk on the curve (probability about 2^-256)",
    ))
}

/// Recovers a chunk of c bytes from affine x (big-endian, field-sized):
/// floor(x / 256) must fit c bytes.
pub fn decode_x(x: &[u8], c: usize, out: &mut [u8]) -> Result<(), Error> {
    let fb = x.len();
    let m = &x[..fb - 1];
    let (high, low) = m.split_at(m.len() - c);
    if high.iter().any(|&b| b != 0) || out.len() != c {
        return Err(Error::usage(
            "ciphertext does not decrypt to a valid encoding (wrong key or altered ciphertext)",
        ));
    }
    out.copy_from_slice(low);
    Ok(())
}

/// The 256 `char` points, computed once per curve and backend.
pub struct CharTable<A: Arithmetic> {
    points: Vec<A::Point>,
}

impl<A: Arithmetic> CharTable<A> {
    /// Encodes every byte value (and brings the points to affine form).
    pub fn new(arith: &A) -> Result<Self, Error> {
        let mut s = arith.scratch()?;
        let mut points = Vec::with_capacity(256);
        for b in 0..=255u8 {
            points.push(encode_chunk(arith, &[b], 1, &mut s)?.0);
        }
        arith.normalize(&mut points, &mut s)?;
        Ok(Self { points })
    }
    /// The point of byte `b`.
    pub fn point(&self, b: u8) -> &A::Point {
        &self.points[b as usize]
    }
}
