//! Koblitz candidates on P-256, fast: the square root that `packed`
//! encoding needs for every point.
//!
//! Encrypting a `char` point costs two fixed-base multiplications (nistz256
//! tables); a `packed` point costs those plus the Koblitz search: about two
//! candidates x, each a square test of x^3 + a*x + b, and one square root.
//! With RustCrypto's field code a candidate is a full exponentiation
//! (~0.8 of a fixed-base multiplication), which held `packed` near 17x
//! `char` instead of the 20x its 30 bytes per point allow. Here:
//!
//! - P-256 has p = 3 mod 4, so alpha^((p+1)/4) is the root when alpha is a
//!   square, and squaring it back tests that: one exponentiation per
//!   candidate gives both answer and root.
//! - One point at a time ([`lift_even`]): a variable-time binary Jacobi
//!   symbol rejects non-squares for a fraction of an exponentiation, so only
//!   the candidate that succeeds pays for the root. Encoding is already
//!   documented as not constant time (the number of candidates depends on
//!   the plaintext); no secret enters here.
//! - Many points at once ([`koblitz_many`]) on CPUs with AVX-512 IFMA:
//!   eight candidates (of eight different chunks) are exponentiated
//!   together in 52-bit limbs, so each lane costs an eighth of a vector
//!   exponentiation; a lane whose candidate is not a square moves on to the
//!   next counter j in the next round.
//!
//! The results are exactly the format's (docs/elgamal-format.md): the
//! smallest j, the even root; tests compare them with RustCrypto's SEC1
//! decompression.

/// Four 64-bit limbs, least significant first.
type Limbs = [u64; 4];

/// p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (FIPS 186-4 D.1.2.3).
const P: Limbs = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0,
    0xffff_ffff_0000_0001,
];
/// 2^512 mod p: converts into the Montgomery domain (R = 2^256).
const R2: Limbs = [
    0x3,
    0xffff_fffb_ffff_ffff,
    0xffff_ffff_ffff_fffe,
    0x4_ffff_fffd,
];
/// a = p - 3 times R mod p.
const A_MONT: Limbs = [
    0xffff_ffff_ffff_fffc,
    0x3_ffff_ffff,
    0,
    0xffff_fffc_0000_0004,
];
/// b (FIPS 186-4 D.1.2.3) times R mod p.
const B_MONT: Limbs = [
    0xd89c_df62_29c4_bddf,
    0xacf0_05cd_7884_3090,
    0xe5a2_20ab_f721_2ed6,
    0xdc30_061d_0487_4834,
];

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = (acc as u128) + (a as u128) * (b as u128) + (carry as u128);
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = (a as u128) + (b as u128) + (carry as u128);
    (t as u64, (t >> 64) as u64)
}

/// a - b - borrow (borrow 0 or 1); the new borrow is 0 or 1.
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// a - b mod 2^256 and whether it borrowed.
fn sub(a: &Limbs, b: &Limbs) -> (Limbs, bool) {
    let mut out = [0u64; 4];
    let mut borrow = 0;
    for i in 0..4 {
        (out[i], borrow) = sbb(a[i], b[i], borrow);
    }
    (out, borrow == 1)
}

/// The representative in [0, p) of a value below 2^256.
fn canonical(a: &Limbs) -> Limbs {
    let (d, borrow) = sub(a, &P);
    if borrow {
        *a
    } else {
        d
    }
}

/// Montgomery reduction of a 512-bit product: t / 2^256 mod p, below 2^256
/// (not necessarily below p). p = -1 mod 2^64, so each round's multiplier
/// is the low word itself, and m * p = m * (2^96 - 1) + m * p3 * 2^192.
#[inline(always)]
fn reduce(t: [u64; 8]) -> Limbs {
    const P3: u64 = P[3];
    let [t0, t1, t2, t3, t4, t5, t6, t7] = t;
    let (a1, c) = adc(t1, t0 << 32, 0);
    let (a2, c) = adc(t2, t0 >> 32, c);
    let (a3, c) = mac(t3, t0, P3, c);
    let (a4, c0) = adc(t4, c, 0);
    let (b2, c) = adc(a2, a1 << 32, 0);
    let (b3, c) = adc(a3, a1 >> 32, c);
    let (b4, c) = mac(a4, a1, P3, c);
    let (b5, c1) = adc(t5, c, c0);
    let (d3, c) = adc(b3, b2 << 32, 0);
    let (d4, c) = adc(b4, b2 >> 32, c);
    let (d5, c) = mac(b5, b2, P3, c);
    let (d6, c2) = adc(t6, c, c1);
    let (e4, c) = adc(d4, d3 << 32, 0);
    let (e5, c) = adc(d5, d3 >> 32, c);
    let (e6, c) = mac(d6, d3, P3, c);
    let (e7, c3) = adc(t7, c, c2);
    let r = [e4, e5, e6, e7];
    if c3 != 0 {
        // The value is below 2^256 + p: one subtraction brings it under 2^256.
        sub(&r, &P).0
    } else {
        r
    }
}

/// a * b / 2^256 mod p (inputs and output below 2^256).
#[inline(always)]
fn mul(a: &Limbs, b: &Limbs) -> Limbs {
    let mut t = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0;
        for j in 0..4 {
            (t[i + j], carry) = mac(t[i + j], a[i], b[j], carry);
        }
        t[i + 4] = carry;
    }
    reduce(t)
}

/// a^2 / 2^256 mod p: ten word products instead of sixteen.
#[inline(always)]
fn sqr(a: &Limbs) -> Limbs {
    let (t1, c) = mac(0, a[0], a[1], 0);
    let (t2, c) = mac(0, a[0], a[2], c);
    let (t3, t4) = mac(0, a[0], a[3], c);
    let (t3, c) = mac(t3, a[1], a[2], 0);
    let (t4, t5) = mac(t4, a[1], a[3], c);
    let (t5, t6) = mac(t5, a[2], a[3], 0);
    let t7 = t6 >> 63;
    let t6 = (t6 << 1) | (t5 >> 63);
    let t5 = (t5 << 1) | (t4 >> 63);
    let t4 = (t4 << 1) | (t3 >> 63);
    let t3 = (t3 << 1) | (t2 >> 63);
    let t2 = (t2 << 1) | (t1 >> 63);
    let t1 = t1 << 1;
    let (t0, c) = mac(0, a[0], a[0], 0);
    let (t1, c) = adc(t1, c, 0);
    let (lo, hi) = mac(0, a[1], a[1], 0);
    let (t2, c) = adc(t2, lo, c);
    let (t3, c) = adc(t3, hi, c);
    let (lo, hi) = mac(0, a[2], a[2], 0);
    let (t4, c) = adc(t4, lo, c);
    let (t5, c) = adc(t5, hi, c);
    let (lo, hi) = mac(0, a[3], a[3], 0);
    let (t6, c) = adc(t6, lo, c);
    let (t7, _) = adc(t7, hi, c);
    reduce([t0, t1, t2, t3, t4, t5, t6, t7])
}

/// a + b mod p, below 2^256.
fn add(a: &Limbs, b: &Limbs) -> Limbs {
    let mut out = [0u64; 4];
    let mut carry = 0;
    for i in 0..4 {
        (out[i], carry) = adc(a[i], b[i], carry);
    }
    if carry != 0 {
        sub(&out, &P).0
    } else {
        out
    }
}

fn sqn(a: &Limbs, n: usize) -> Limbs {
    let mut x = *a;
    for _ in 0..n {
        x = sqr(&x);
    }
    x
}

/// a^((p+1)/4) in the Montgomery domain: (p+1)/4 = 2^254 - 2^222 + 2^190
/// + 2^94, by the addition chain RustCrypto's `p256` uses.
fn pow_sqrt(a: &Limbs) -> Limbs {
    let t11 = mul(a, &sqr(a));
    let t1111 = mul(&t11, &sqn(&t11, 2));
    let t8 = mul(&t1111, &sqn(&t1111, 4));
    let x16 = mul(&sqn(&t8, 8), &t8);
    let r = mul(&sqn(&x16, 16), &x16);
    let r = mul(&sqn(&r, 32), a);
    let r = mul(&sqn(&r, 96), a);
    sqn(&r, 94)
}

fn to_mont(a: &Limbs) -> Limbs {
    mul(a, &R2)
}

fn from_mont(a: &Limbs) -> Limbs {
    canonical(&mul(a, &[1, 0, 0, 0]))
}

fn from_be(bytes: &[u8; 32]) -> Limbs {
    let mut out = [0u64; 4];
    for (i, limb) in out.iter_mut().enumerate() {
        let at = 32 - 8 * (i + 1);
        *limb = u64::from_be_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
    }
    out
}

fn to_be(a: &Limbs) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, limb) in a.iter().enumerate() {
        let at = 32 - 8 * (i + 1);
        out[at..at + 8].copy_from_slice(&limb.to_be_bytes());
    }
    out
}

fn is_zero(a: &Limbs) -> bool {
    a.iter().all(|&w| w == 0)
}

fn less(a: &Limbs, b: &Limbs) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

fn shr(a: &mut Limbs, s: u32) {
    for i in 0..3 {
        a[i] = (a[i] >> s) | (a[i + 1] << (64 - s));
    }
    a[3] >>= s;
}

/// The Jacobi symbol (a | n) for odd n, by the binary algorithm (variable
/// time): 1, -1, or 0 when they share a factor.
pub fn jacobi(a: &Limbs, n: &Limbs) -> i32 {
    let (mut a, mut n) = (*a, *n);
    // Bit 0 of `flip` is the sign: (-1)^flip.
    let mut flip = 0u64;
    if !less(&a, &n) {
        // Reduce a below n with repeated subtraction only for the inputs
        // used here (a < 2^256, n near 2^256): at most a few steps.
        while !less(&a, &n) {
            a = sub(&a, &n).0;
        }
    }
    while !is_zero(&a) {
        let tz = if a[0] == 0 { 63 } else { a[0].trailing_zeros() };
        if tz > 0 {
            // (2 | n) = -1 exactly when n = 3 or 5 mod 8.
            if tz & 1 == 1 {
                flip ^= ((n[0] >> 1) ^ (n[0] >> 2)) & 1;
            }
            shr(&mut a, tz);
            continue;
        }
        if less(&a, &n) {
            std::mem::swap(&mut a, &mut n);
            // Reciprocity: flips when both are 3 mod 4.
            flip ^= (a[0] >> 1) & (n[0] >> 1) & 1;
        }
        a = sub(&a, &n).0;
    }
    if n != [1, 0, 0, 0] {
        0
    } else if flip & 1 == 1 {
        -1
    } else {
        1
    }
}

/// One Koblitz candidate: x and alpha = x^3 + a*x + b, when x < p.
struct Candidate {
    /// alpha in the Montgomery domain (below 2^256).
    alpha_mont: Limbs,
    /// alpha, canonical.
    alpha: Limbs,
}

impl Candidate {
    fn new(x_be: &[u8; 32]) -> Option<Self> {
        let x = from_be(x_be);
        if !less(&x, &P) {
            return None;
        }
        let xm = to_mont(&x);
        let alpha_mont = add(&mul(&add(&sqr(&xm), &A_MONT), &xm), &B_MONT);
        Some(Self {
            alpha: from_mont(&alpha_mont),
            alpha_mont,
        })
    }
    /// The even square root (big-endian) given a candidate root r
    /// (canonical), when r^2 = alpha.
    fn even_root(&self, r: &Limbs) -> Option<[u8; 32]> {
        let back = canonical(&sqr(&to_mont(r)));
        if back != canonical(&self.alpha_mont) {
            return None;
        }
        let y = if r[0] & 1 == 0 || is_zero(r) {
            *r
        } else {
            sub(&P, r).0
        };
        Some(to_be(&y))
    }
    /// The root by one scalar exponentiation, after the Jacobi test.
    fn root_scalar(&self) -> Option<[u8; 32]> {
        if jacobi(&self.alpha, &P) < 0 {
            return None;
        }
        self.even_root(&from_mont(&pow_sqrt(&self.alpha_mont)))
    }
}

/// y (big-endian) of the P-256 point with affine x (big-endian) and even y,
/// when x < p is on the curve: SEC1 decompression of `0x02 || x`.
pub fn lift_even(x: &[u8; 32]) -> Option<[u8; 32]> {
    Candidate::new(x)?.root_scalar()
}

/// For each base x (big-endian; its last byte, the counter, is replaced),
/// the smallest counter j with x + j on the curve and that point's even y;
/// `None` where no j in 0..=255 works.
pub fn koblitz_many(bases: &[[u8; 32]]) -> Vec<Option<(u8, [u8; 32])>> {
    #[cfg(target_arch = "x86_64")]
    {
        if ifma::available() {
            return ifma::koblitz_many(bases);
        }
    }
    bases.iter().map(koblitz_one).collect()
}

/// The search of one base, a candidate at a time.
pub fn koblitz_one(base: &[u8; 32]) -> Option<(u8, [u8; 32])> {
    koblitz_from(base, 0)
}

/// The search of one base from counter `start` on.
fn koblitz_from(base: &[u8; 32], start: u8) -> Option<(u8, [u8; 32])> {
    let mut x = *base;
    for j in start..=255u8 {
        x[31] = j;
        if let Some(y) = lift_even(&x) {
            return Some((j, y));
        }
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod ifma;

#[cfg(test)]
mod tests {
    use super::*;
    use p256::elliptic_curve::point::DecompressPoint as _;
    use p256::elliptic_curve::sec1::ToEncodedPoint as _;
    use p256::elliptic_curve::subtle::Choice;

    /// RustCrypto's SEC1 decompression of `02 || x`: y, big-endian.
    fn reference(x: &[u8; 32]) -> Option<[u8; 32]> {
        let bytes = p256::FieldBytes::clone_from_slice(x);
        let p: p256::AffinePoint =
            Option::from(p256::AffinePoint::decompress(&bytes, Choice::from(0)))?;
        let enc = p.to_encoded_point(false);
        enc.y().map(|y| {
            let mut out = [0u8; 32];
            out.copy_from_slice(y);
            out
        })
    }

    /// A reproducible stream of 32-byte values (splitmix64).
    fn values(n: usize, seed: u64) -> Vec<[u8; 32]> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        (0..n)
            .map(|_| {
                let mut v = [0u8; 32];
                for w in v.chunks_mut(8) {
                    w.copy_from_slice(&next().to_be_bytes());
                }
                v
            })
            .collect()
    }

    #[test]
    fn fast_lift_equals_sec1_decompression_on_random_x() {
        let mut on_curve = 0;
        for x in values(400, 1) {
            let want = reference(&x);
            assert_eq!(lift_even(&x), want, "x = {}", hex::encode(x));
            on_curve += want.is_some() as usize;
        }
        // About half of the values are on the curve; both branches ran.
        assert!((120..280).contains(&on_curve), "{on_curve}");
    }

    #[test]
    fn values_at_and_above_p_are_rejected() {
        let p = to_be(&P);
        assert_eq!(lift_even(&p), None);
        assert_eq!(lift_even(&[0xff; 32]), None);
        let mut below = p;
        below[31] -= 1;
        assert_eq!(lift_even(&below), reference(&below));
    }

    #[test]
    fn jacobi_agrees_with_euler_criterion() {
        for v in values(200, 2) {
            let a = canonical(&from_be(&v));
            let euler = from_mont(&sqr(&pow_sqrt(&to_mont(&a))));
            let square = euler == a;
            assert_eq!(jacobi(&a, &P) == 1, square && !is_zero(&a));
        }
        assert_eq!(jacobi(&[0; 4], &P), 0);
        assert_eq!(jacobi(&[1, 0, 0, 0], &P), 1);
        // p = 3 mod 4: -1 is not a square.
        assert_eq!(jacobi(&sub(&P, &[1, 0, 0, 0]).0, &P), -1);
        // Small cases by hand: (2 | 7) = 1, (3 | 7) = -1, (5 | 9) = 1.
        assert_eq!(jacobi(&[2, 0, 0, 0], &[7, 0, 0, 0]), 1);
        assert_eq!(jacobi(&[3, 0, 0, 0], &[7, 0, 0, 0]), -1);
        assert_eq!(jacobi(&[5, 0, 0, 0], &[9, 0, 0, 0]), 1);
    }

    #[test]
    fn many_at_once_equals_one_at_a_time() {
        // Bases as `packed` builds them: 30 message bytes after a zero byte.
        let mut bases = values(77, 3);
        for b in bases.iter_mut() {
            b[0] = 0;
            b[31] = 0;
        }
        bases[5] = [0; 32];
        let one: Vec<_> = bases.iter().map(koblitz_one).collect();
        assert_eq!(koblitz_many(&bases), one);
        for (b, r) in bases.iter().zip(&one) {
            let (j, y) = r.expect("a counter is found");
            let mut x = *b;
            x[31] = j;
            assert_eq!(Some(y), reference(&x));
            for smaller in 0..j {
                x[31] = smaller;
                assert_eq!(reference(&x), None, "j = {smaller} was on the curve");
            }
        }
    }
}
