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
        return Err(Error::Encoding("chunk longer than the encoding allows"));
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
    Err(no_counter())
}

/// [`Arithmetic::encode_many`] one chunk at a time: for each
/// `field_bytes`-long base x (counter byte zero), the point of the smallest
/// counter j on the curve.
pub fn encode_each<A: Arithmetic + ?Sized>(
    arith: &A,
    bases: &[u8],
    out: &mut Vec<A::Point>,
    s: &mut A::Scratch,
) -> Result<(), Error> {
    let fb = arith.curve().field_bytes();
    if !bases.len().is_multiple_of(fb) {
        return Err(Error::Encoding(
            "Koblitz bases are not whole field elements",
        ));
    }
    for base in bases.chunks_exact(fb) {
        let mut x = base.to_vec();
        let mut found = None;
        for j in 0..=255u8 {
            x[fb - 1] = j;
            if let Some(p) = arith.lift_even(&x, s) {
                found = Some(p);
                break;
            }
        }
        out.push(found.ok_or_else(no_counter)?);
    }
    Ok(())
}

fn no_counter() -> Error {
    Error::Encoding(
        "no counter j in 0..=255 puts this chunk on the curve (probability about 2^-256)",
    )
}

/// Writes the Koblitz bases of the chunks `first..end` of `msg` (c bytes
/// each, the last one zero-padded) into `bases`, `field_bytes` per chunk:
/// m in the c bytes before the counter byte, which is zero.
pub fn write_bases(
    msg: &[u8],
    c: usize,
    fb: usize,
    chunks: std::ops::Range<usize>,
    bases: &mut Vec<u8>,
) {
    bases.clear();
    for i in chunks {
        let at = bases.len();
        bases.resize(at + fb, 0);
        let chunk = &msg[(i * c).min(msg.len())..((i + 1) * c).min(msg.len())];
        bases[at + fb - 1 - c..at + fb - 1 - c + chunk.len()].copy_from_slice(chunk);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_put_the_chunk_before_a_zero_counter() {
        let mut bases = Vec::new();
        write_bases(b"abcdefgh", 3, 8, 1..3, &mut bases);
        // Chunks 1 ("def") and 2 ("gh" padded with a zero on the right).
        assert_eq!(
            bases,
            [0, 0, 0, 0, b'd', b'e', b'f', 0, 0, 0, 0, 0, b'g', b'h', 0, 0]
        );
    }

    #[test]
    fn encoding_many_equals_encoding_each_chunk() {
        let engine = crate::arith::ossl::engine(Curve::P256).expect("P-256");
        let arith = engine.arith();
        let mut s = arith.scratch().expect("scratch");
        let msg: Vec<u8> = (0..30 * 40u32).map(|i| (i * 37 % 251) as u8).collect();
        let mut bases = Vec::new();
        write_bases(&msg, 30, 32, 0..40, &mut bases);
        let mut many = Vec::new();
        arith
            .encode_many(&bases, &mut many, &mut s)
            .expect("encode");
        let mut each = Vec::new();
        encode_each(arith, &bases, &mut each, &mut s).expect("encode");
        assert_eq!(many.len(), 40);
        for (i, (a, b)) in many.iter().zip(&each).enumerate() {
            let one = encode_chunk(arith, &msg[i * 30..(i + 1) * 30], 30, &mut s)
                .expect("encode")
                .0;
            let bytes = |p| arith.compress(p, &mut arith.scratch().expect("scratch"));
            assert_eq!(bytes(a).expect("a"), bytes(b).expect("b"), "chunk {i}");
            assert_eq!(bytes(a).expect("a"), bytes(&one).expect("one"), "chunk {i}");
        }
    }
}
