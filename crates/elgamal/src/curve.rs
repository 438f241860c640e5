//! The three curves: `P-256`, `secp256k1` and the breakable `toy64`.
//!
//! A [`Curve`] is only a name with its domain parameters as hexadecimal
//! text; arithmetic lives in [`crate::arith`]. Keeping the parameters as text
//! makes them easy to compare with a key file's `params` and with each
//! backend's own copy (the tests cross-check OpenSSL's).

use cryptobench_core::{names, Error};

/// Label carried by every `toy64` case, key and ciphertext.
pub const TOY64_LABEL: &str =
    "insecure: toy64 is a 64-bit curve, breakable (a 112-bit prime ECDLP was solved in 2009)";

/// Domain parameters of a short-Weierstrass curve y^2 = x^3 + a*x + b over
/// GF(p) with a generator G of prime order n (cofactor 1), as lower-case
/// hexadecimal without prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurveParams {
    /// Field prime.
    pub p: &'static str,
    /// Coefficient a.
    pub a: &'static str,
    /// Coefficient b.
    pub b: &'static str,
    /// Generator x.
    pub gx: &'static str,
    /// Generator y.
    pub gy: &'static str,
    /// Order of G (prime; the curve has cofactor 1).
    pub n: &'static str,
}

/// Source: SEC 2 v2 section 2.4.2 (secp256r1) = FIPS 186-4 appendix D.1.2.3.
const P256: CurveParams = CurveParams {
    p: "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
    a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc",
    b: "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
    gx: "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
    gy: "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
    n: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
};

/// Source: SEC 2 v2 section 2.4.1 (secp256k1).
const SECP256K1: CurveParams = CurveParams {
    p: "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
    a: "0000000000000000000000000000000000000000000000000000000000000000",
    b: "0000000000000000000000000000000000000000000000000000000000000007",
    gx: "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
    gy: "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8",
    n: "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
};

/// toy64, as printed by `scripts/gen_toy64.py` (rerun it to reproduce; the
/// test `toy64_parameters_recheck` re-verifies every property).
pub mod toy64_params {
    /// Field prime: the largest prime below 2^64 that is 3 mod 4.
    pub const P: u64 = 0xffffffffffffff43;
    /// a = p - 3.
    pub const A: u64 = 0xffffffffffffff40;
    /// b from SHA-256("cryptobench toy64 b" || counter 215), see the script.
    pub const B: u64 = 0x8676af9e113016c3;
    /// Generator x (SHA-256("cryptobench toy64 G" || counter 1)).
    pub const GX: u64 = 0x2ca9a435b7d40ccd;
    /// Generator y (the even root).
    pub const GY: u64 = 0x0cca56d50f23e0d8;
    /// Prime group order.
    pub const N: u64 = 0xffffffffe547ed3d;
}

const TOY64_HEX: CurveParams = CurveParams {
    p: "ffffffffffffff43",
    a: "ffffffffffffff40",
    b: "8676af9e113016c3",
    gx: "2ca9a435b7d40ccd",
    gy: "0cca56d50f23e0d8",
    n: "ffffffffe547ed3d",
};

/// A curve this crate knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Curve {
    /// 64-bit toy curve (breakable; stands in for the seed's 64-bit keys).
    Toy64,
    /// NIST P-256 (secp256r1).
    P256,
    /// secp256k1.
    Secp256k1,
}

impl Curve {
    /// Every curve, in table order.
    pub const ALL: [Curve; 3] = [Curve::Toy64, Curve::P256, Curve::Secp256k1];
    /// Canonical names, as accepted on the command line and in files.
    pub const NAMES: [&'static str; 3] = ["toy64", "P-256", "secp256k1"];

    /// Canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Curve::Toy64 => "toy64",
            Curve::P256 => "P-256",
            Curve::Secp256k1 => "secp256k1",
        }
    }

    /// Resolves a user-typed name (case and separators ignored, "did you mean").
    pub fn parse(name: &str) -> Result<Curve, Error> {
        // Common aliases of P-256 are accepted too.
        let folded = names::fold(name);
        if folded == "secp256r1" || folded == "prime256v1" || folded == "nistp256" {
            return Ok(Curve::P256);
        }
        let found = names::resolve("curve", name, &Self::NAMES)?;
        Ok(Self::ALL[Self::NAMES.iter().position(|n| *n == found).unwrap_or(0)])
    }

    /// Domain parameters as hexadecimal text.
    pub fn params(self) -> CurveParams {
        match self {
            Curve::Toy64 => TOY64_HEX,
            Curve::P256 => P256,
            Curve::Secp256k1 => SECP256K1,
        }
    }

    /// Bits of the field prime p.
    pub fn field_bits(self) -> usize {
        match self {
            Curve::Toy64 => 64,
            Curve::P256 | Curve::Secp256k1 => 256,
        }
    }

    /// Bytes of a field element (and of an x coordinate in SEC1).
    pub fn field_bytes(self) -> usize {
        self.field_bits().div_ceil(8)
    }

    /// Bytes of a scalar (the secret key in a key file).
    pub fn scalar_bytes(self) -> usize {
        self.field_bytes()
    }

    /// Bytes of a SEC1 compressed point.
    pub fn compressed_len(self) -> usize {
        1 + self.field_bytes()
    }

    /// The group order n, big-endian, `scalar_bytes` long.
    pub fn order_be(self) -> Vec<u8> {
        hex_fixed(self.params().n, self.scalar_bytes())
    }

    /// Labels every case and file of this curve carries.
    pub fn labels(self) -> Vec<String> {
        match self {
            Curve::Toy64 => vec![TOY64_LABEL.to_string()],
            _ => Vec::new(),
        }
    }

    /// Whether it is the breakable toy curve.
    pub fn is_toy(self) -> bool {
        self == Curve::Toy64
    }
}

impl std::fmt::Display for Curve {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Decodes a constant hex string into exactly `len` big-endian bytes.
pub(crate) fn hex_fixed(text: &str, len: usize) -> Vec<u8> {
    let raw = hex::decode(text).unwrap_or_default();
    let mut out = vec![0u8; len.saturating_sub(raw.len())];
    out.extend_from_slice(&raw[raw.len().saturating_sub(len)..]);
    out
}
