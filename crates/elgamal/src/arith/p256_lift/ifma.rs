//! Eight P-256 square roots at once with AVX-512 IFMA (52-bit multiply-add
//! on eight 64-bit lanes).
//!
//! A field element is five 52-bit limbs, one vector per limb, one lane per
//! candidate. Multiplication is Montgomery's with R = 2^260: p = -1 mod
//! 2^52, so each reduction round's multiplier is the low limb itself. With
//! inputs below 2p the result is below 1.25p, so no conditional
//! subtraction is ever needed inside the exponentiation; values are made
//! canonical once, after it. Each lane's root is checked by squaring it back
//! in the scalar code ([`super::Candidate::even_root`]), so a lane that is
//! not a square simply moves on to its next counter.

use super::{koblitz_from, Candidate, Limbs};
use std::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_srli_epi64,
};

/// Whether this CPU runs the vector code.
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
}

const LANES: usize = 8;
const MASK52: u64 = (1 << 52) - 1;
/// p in 52-bit limbs (limb 2 is zero).
const P52: [u64; 5] = [
    0xf_ffff_ffff_ffff,
    0xfff_ffff_ffff,
    0,
    0x10_0000_0000,
    0xffff_ffff_0000,
];
/// 2^520 mod p: converts into the Montgomery domain (R = 2^260).
const R2_52: [u64; 5] = [
    0x300,
    0xf_ffff_fff0_0000,
    0xf_fffe_ffff_fffb,
    0xf_dfff_ffff_ffff,
    0x4ff_ffff,
];

/// One field element per lane, as five 52-bit limb vectors.
type V = [__m512i; 5];

/// The lanes' values as limb vectors (values below 2^256).
fn load(values: &[Limbs; LANES]) -> V {
    let mut limbs = [[0u64; LANES]; 5];
    for (lane, a) in values.iter().enumerate() {
        limbs[0][lane] = a[0] & MASK52;
        limbs[1][lane] = ((a[0] >> 52) | (a[1] << 12)) & MASK52;
        limbs[2][lane] = ((a[1] >> 40) | (a[2] << 24)) & MASK52;
        limbs[3][lane] = ((a[2] >> 28) | (a[3] << 36)) & MASK52;
        limbs[4][lane] = a[3] >> 16;
    }
    // SAFETY: [u64; 8] and __m512i have the same size, and every bit
    // pattern is a valid value of both.
    limbs.map(|l| unsafe { std::mem::transmute::<[u64; LANES], __m512i>(l) })
}

/// Back to four 64-bit limbs per lane (normalized limbs, values below 2^256).
fn store(v: &V) -> [Limbs; LANES] {
    // SAFETY: as in `load`.
    let limbs = v.map(|x| unsafe { std::mem::transmute::<__m512i, [u64; LANES]>(x) });
    std::array::from_fn(|lane| {
        let l = |i: usize| limbs[i][lane];
        [
            l(0) | (l(1) << 52),
            (l(1) >> 12) | (l(2) << 40),
            (l(2) >> 24) | (l(3) << 28),
            (l(3) >> 36) | (l(4) << 16),
        ]
    })
}

#[target_feature(enable = "avx512f")]
fn splat(limbs: &[u64; 5]) -> V {
    limbs.map(|w| _mm512_set1_epi64(w as i64))
}

/// a * b / 2^260 mod p per lane, for G independent groups of eight lanes
/// at once (interleaved, so that one group's multiply-adds run while
/// another's wait); inputs below 2p, output below 1.25p, in normalized
/// 52-bit limbs. `square` skips the mirrored products when a = b.
#[target_feature(enable = "avx512f,avx512ifma")]
fn mont_mul<const G: usize>(a: &[V; G], b: &[V; G], p: &V, square: bool) -> [V; G] {
    let zero = _mm512_setzero_si512();
    let mut t = [[zero; 10]; G];
    if square {
        for i in 0..5 {
            for j in i + 1..5 {
                for g in 0..G {
                    t[g][i + j] = _mm512_madd52lo_epu64(t[g][i + j], a[g][i], a[g][j]);
                    t[g][i + j + 1] = _mm512_madd52hi_epu64(t[g][i + j + 1], a[g][i], a[g][j]);
                }
            }
        }
        for tg in t.iter_mut() {
            for v in tg.iter_mut() {
                *v = _mm512_add_epi64(*v, *v);
            }
        }
        for i in 0..5 {
            for g in 0..G {
                t[g][2 * i] = _mm512_madd52lo_epu64(t[g][2 * i], a[g][i], a[g][i]);
                t[g][2 * i + 1] = _mm512_madd52hi_epu64(t[g][2 * i + 1], a[g][i], a[g][i]);
            }
        }
    } else {
        for i in 0..5 {
            for j in 0..5 {
                for g in 0..G {
                    t[g][i + j] = _mm512_madd52lo_epu64(t[g][i + j], a[g][i], b[g][j]);
                    t[g][i + j + 1] = _mm512_madd52hi_epu64(t[g][i + j + 1], a[g][i], b[g][j]);
                }
            }
        }
    }
    let mask = _mm512_set1_epi64(MASK52 as i64);
    for i in 0..5 {
        for tg in t.iter_mut() {
            let m = _mm512_and_si512(tg[i], mask);
            for j in 0..5 {
                if P52[j] == 0 {
                    continue;
                }
                tg[i + j] = _mm512_madd52lo_epu64(tg[i + j], m, p[j]);
                tg[i + j + 1] = _mm512_madd52hi_epu64(tg[i + j + 1], m, p[j]);
            }
            // The low 52 bits of t[i] are now zero; carry the rest up.
            tg[i + 1] = _mm512_add_epi64(tg[i + 1], _mm512_srli_epi64::<52>(tg[i]));
        }
    }
    let mut r = [[zero; 5]; G];
    for (rg, tg) in r.iter_mut().zip(&t) {
        let mut carry = zero;
        for k in 0..4 {
            let v = _mm512_add_epi64(tg[5 + k], carry);
            rg[k] = _mm512_and_si512(v, mask);
            carry = _mm512_srli_epi64::<52>(v);
        }
        rg[4] = _mm512_add_epi64(tg[9], carry);
    }
    r
}

#[target_feature(enable = "avx512f,avx512ifma")]
fn sqn<const G: usize>(a: &[V; G], n: usize, p: &V) -> [V; G] {
    let mut x = *a;
    for _ in 0..n {
        x = mont_mul(&x, &x, p, true);
    }
    x
}

/// Groups of eight lanes exponentiated together (measured: two groups
/// interleaved run no faster per lane than one, and leave longer tails).
const GROUPS: usize = 1;
/// Candidates per vector exponentiation.
const LANES_ALL: usize = LANES * GROUPS;

/// Per lane, alpha^((p+1)/4) for canonical alpha: the square root when
/// alpha is a square. Same addition chain as the scalar code.
#[target_feature(enable = "avx512f,avx512ifma")]
fn pow_sqrt_lanes(alpha: &[Limbs; LANES_ALL]) -> [Limbs; LANES_ALL] {
    let p = splat(&P52);
    let r2 = splat(&R2_52);
    let a: [V; GROUPS] = std::array::from_fn(|g| {
        let group: &[Limbs; LANES] = alpha[g * LANES..(g + 1) * LANES]
            .try_into()
            .unwrap_or(&[[0; 4]; LANES]);
        load(group)
    });
    let a = mont_mul(&a, &[r2; GROUPS], &p, false);
    let t11 = mont_mul(&a, &sqn(&a, 1, &p), &p, false);
    let t1111 = mont_mul(&t11, &sqn(&t11, 2, &p), &p, false);
    let t8 = mont_mul(&t1111, &sqn(&t1111, 4, &p), &p, false);
    let x16 = mont_mul(&sqn(&t8, 8, &p), &t8, &p, false);
    let r = mont_mul(&sqn(&x16, 16, &p), &x16, &p, false);
    let r = mont_mul(&sqn(&r, 32, &p), &a, &p, false);
    let r = mont_mul(&sqn(&r, 96, &p), &a, &p, false);
    let r = sqn(&r, 94, &p);
    let one = splat(&[1, 0, 0, 0, 0]);
    let r = mont_mul(&r, &[one; GROUPS], &p, false);
    let mut out = [[0u64; 4]; LANES_ALL];
    for (g, v) in r.iter().enumerate() {
        for (k, limbs) in store(v).iter().enumerate() {
            out[g * LANES + k] = super::canonical(limbs);
        }
    }
    out
}

/// Below this many lanes in use, once no chunk is left to start, the rest
/// finish one candidate at a time (a nearly empty vector costs as much as a
/// full one).
const SCALAR_TAIL: usize = 2;

/// [`super::koblitz_many`] on eight lanes: each lane works on one chunk
/// until its counter is found, then takes the next chunk.
pub fn koblitz_many(bases: &[[u8; 32]]) -> Vec<Option<(u8, [u8; 32])>> {
    if !available() {
        return bases.iter().map(|b| koblitz_from(b, 0)).collect();
    }
    let mut out = vec![None; bases.len()];
    // (chunk index, counter j) per lane.
    let mut lanes: [Option<(usize, u8)>; LANES_ALL] = [None; LANES_ALL];
    let mut next = 0;
    loop {
        for lane in lanes.iter_mut().filter(|l| l.is_none()) {
            if next < bases.len() {
                *lane = Some((next, 0));
                next += 1;
            }
        }
        let active = lanes.iter().flatten().count();
        if active == 0 {
            break;
        }
        if next == bases.len() && active <= SCALAR_TAIL {
            for (i, j) in lanes.iter_mut().filter_map(Option::take) {
                out[i] = koblitz_from(&bases[i], j);
            }
            break;
        }
        let candidates: [Option<Candidate>; LANES_ALL] = std::array::from_fn(|k| {
            let (i, j) = lanes[k]?;
            let mut x = bases[i];
            x[31] = j;
            Candidate::new(&x)
        });
        let alphas: [Limbs; LANES_ALL] =
            std::array::from_fn(|k| candidates[k].as_ref().map_or([1, 0, 0, 0], |c| c.alpha));
        // SAFETY: `available()` was checked above.
        let roots = unsafe { pow_sqrt_lanes(&alphas) };
        for k in 0..LANES_ALL {
            let Some((i, j)) = lanes[k] else { continue };
            match candidates[k].as_ref().and_then(|c| c.even_root(&roots[k])) {
                Some(y) => {
                    out[i] = Some((j, y));
                    lanes[k] = None;
                }
                None if j == 255 => lanes[k] = None,
                None => lanes[k] = Some((i, j + 1)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_roots_equal_scalar_roots() {
        if !available() {
            return;
        }
        let alphas: [Limbs; LANES_ALL] = std::array::from_fn(|k| {
            let w = (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            super::super::canonical(&[w, !w, w.rotate_left(17), w ^ 0x5555])
        });
        // SAFETY: the CPU was checked above.
        let vector = unsafe { pow_sqrt_lanes(&alphas) };
        for (a, r) in alphas.iter().zip(vector) {
            let scalar =
                super::super::from_mont(&super::super::pow_sqrt(&super::super::to_mont(a)));
            assert_eq!(r, scalar);
        }
    }
}
