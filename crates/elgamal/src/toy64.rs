//! Arithmetic of the 64-bit `toy64` curve, written here because no library
//! offers a 64-bit curve.
//!
//! Field elements are `u64` in Montgomery form (R = 2^64): one multiplication
//! is a 64x64->128-bit product and one reduction, a few nanoseconds, which is
//! what makes toy64 an order of magnitude faster than the 256-bit curves.
//! Points are projective (X:Y:Z) and are added with the *complete* formula of
//! Renes, Costello and Batina ("Complete addition formulas for prime order
//! elliptic curves", EUROCRYPT 2016, Algorithm 4 for a = -3, Algorithm 1
//! otherwise): one formula for every pair
//! of points, the identity and doubling included, so scalar multiplication
//! has no data-dependent branch. Table look-ups scan every entry and select
//! with masks, so secret scalars go through constant-time code. None of this
//! makes toy64 safe: the curve itself is breakable.

use crate::curve::toy64_params as tp;

/// GF(p) in Montgomery form.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    p: u64,
    /// -p^-1 mod 2^64.
    p_neg_inv: u64,
    /// R^2 mod p, to enter Montgomery form.
    r2: u64,
    /// R mod p: the Montgomery form of 1.
    one: u64,
}

/// Mask of all ones when `flag`, else zero.
#[inline(always)]
fn mask(flag: bool) -> u64 {
    0u64.wrapping_sub(flag as u64)
}

impl Field {
    /// The field of an odd prime p.
    pub const fn new(p: u64) -> Self {
        // Newton iteration doubles the correct low bits of p^-1 each round.
        let mut inv: u64 = 1;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(inv)));
            i += 1;
        }
        let r = ((1u128 << 64) % p as u128) as u64;
        let r2 = ((r as u128 * r as u128) % p as u128) as u64;
        Self {
            p,
            p_neg_inv: inv.wrapping_neg(),
            r2,
            one: r,
        }
    }
    /// The prime.
    pub fn modulus(&self) -> u64 {
        self.p
    }
    /// Montgomery product a*b/R mod p.
    #[inline(always)]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        let t = a as u128 * b as u128;
        let m = (t as u64).wrapping_mul(self.p_neg_inv);
        let (s, carry) = t.overflowing_add(m as u128 * self.p as u128);
        self.reduce_once((s >> 64) as u64, carry)
    }
    /// a + b mod p.
    #[inline(always)]
    pub fn add(&self, a: u64, b: u64) -> u64 {
        let (s, carry) = a.overflowing_add(b);
        self.reduce_once(s, carry)
    }
    /// `value + carry * 2^64` (below 2p) brought below p by one masked
    /// subtraction of p.
    #[inline(always)]
    fn reduce_once(&self, value: u64, carry: bool) -> u64 {
        let (r, borrow) = value.overflowing_sub(self.p);
        let k = mask(carry | !borrow);
        (r & k) | (value & !k)
    }
    /// a - b mod p.
    #[inline(always)]
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        let (d, borrow) = a.overflowing_sub(b);
        d.wrapping_add(self.p & mask(borrow))
    }
    /// Into Montgomery form (input must be < p).
    pub fn to_mont(&self, a: u64) -> u64 {
        self.mul(a, self.r2)
    }
    /// Out of Montgomery form.
    pub fn from_mont(&self, a: u64) -> u64 {
        self.mul(a, 1)
    }
    /// The Montgomery form of 1.
    pub fn one(&self) -> u64 {
        self.one
    }
    /// a^e (Montgomery form in and out); e is public.
    pub fn pow(&self, a: u64, mut e: u64) -> u64 {
        let (mut base, mut acc) = (a, self.one);
        while e != 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }
    /// a^-1 by Fermat (0 maps to 0).
    pub fn inv(&self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }
    /// A square root when one exists (p = 3 mod 4: a^((p+1)/4)).
    pub fn sqrt(&self, a: u64) -> Option<u64> {
        let r = self.pow(a, (self.p >> 2) + 1);
        (self.mul(r, r) == a).then_some(r)
    }
}

/// [`Toy64::products`]: x1x2, y1y2, z1z2 and the cross terms
/// x1y2 + x2y1, y1z2 + y2z1, x1z2 + x2z1.
struct Products {
    xx: u64,
    yy: u64,
    zz: u64,
    xy: u64,
    yz: u64,
    xz: u64,
}

/// A projective point (X:Y:Z), coordinates in Montgomery form; the identity
/// is (0:1:0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    x: u64,
    y: u64,
    z: u64,
}

impl Point {
    /// Constant-time select: `b` when `flag`, else `a`.
    #[inline(always)]
    fn select(a: &Point, b: &Point, flag: bool) -> Point {
        let k = mask(flag);
        Point {
            x: (a.x & !k) | (b.x & k),
            y: (a.y & !k) | (b.y & k),
            z: (a.z & !k) | (b.z & k),
        }
    }
    /// Whether it is the identity.
    pub fn is_identity(&self) -> bool {
        self.z == 0
    }
}

/// The curve y^2 = x^3 + a*x + b over [`Field`], with its generator.
#[derive(Debug, Clone)]
pub struct Toy64 {
    /// The field.
    pub f: Field,
    a: u64,
    b: u64,
    /// 3*b, as the complete formula wants it.
    b3: u64,
    g: Point,
    n: u64,
    /// a = -3 selects the cheaper complete formula.
    a_is_minus3: bool,
}

/// Bits per window of the scalar-multiplication tables.
const WINDOW: u32 = 4;
/// Scalars are < n < 2^64: 16 windows of 4 bits.
const WINDOWS: usize = 64 / WINDOW as usize;
const ENTRIES: usize = 1 << WINDOW;

/// Multiples j * 16^w * P for every window w and digit j: a scalar
/// multiplication by a fixed point is then 16 additions.
#[derive(Debug, Clone)]
pub struct FixedTable {
    rows: Vec<[Point; ENTRIES]>,
}

impl Default for Toy64 {
    fn default() -> Self {
        Self::new(tp::P, tp::A, tp::B, tp::GX, tp::GY, tp::N)
    }
}

impl Toy64 {
    /// A curve from plain (non-Montgomery) parameters.
    pub fn new(p: u64, a: u64, b: u64, gx: u64, gy: u64, n: u64) -> Self {
        let f = Field::new(p);
        let (am, bm) = (f.to_mont(a), f.to_mont(b));
        let b3 = f.add(f.add(bm, bm), bm);
        let g = Point {
            x: f.to_mont(gx),
            y: f.to_mont(gy),
            z: f.one(),
        };
        Self {
            f,
            a: am,
            b: bm,
            b3,
            g,
            n,
            a_is_minus3: a == p - 3,
        }
    }
    /// The group order n.
    pub fn order(&self) -> u64 {
        self.n
    }
    /// The generator.
    pub fn generator(&self) -> Point {
        self.g
    }
    /// The identity.
    pub fn identity(&self) -> Point {
        Point {
            x: 0,
            y: self.f.one(),
            z: 0,
        }
    }

    /// Complete addition: valid for all inputs, the identity and doubling
    /// included.
    #[inline]
    pub fn add(&self, p: &Point, q: &Point) -> Point {
        if self.a_is_minus3 {
            self.add_a_minus3(p, q)
        } else {
            self.add_general(p, q)
        }
    }

    /// The first steps of both RCB formulas: three products and three
    /// cross terms, each cross term by one multiplication
    /// ((x1 + y1)(x2 + y2) - x1x2 - y1y2 = x1y2 + x2y1).
    #[inline]
    fn products(&self, p: &Point, q: &Point) -> Products {
        let f = &self.f;
        let (xx, yy, zz) = (f.mul(p.x, q.x), f.mul(p.y, q.y), f.mul(p.z, q.z));
        let cross = |a1, b1, a2, b2, aa, bb| {
            let sum = f.mul(f.add(a1, b1), f.add(a2, b2));
            f.sub(sum, f.add(aa, bb))
        };
        Products {
            xx,
            yy,
            zz,
            xy: cross(p.x, p.y, q.x, q.y, xx, yy),
            yz: cross(p.y, p.z, q.y, q.z, yy, zz),
            xz: cross(p.x, p.z, q.x, q.z, xx, zz),
        }
    }

    /// RCB 2016, Algorithm 4 (a = -3): 12 multiplications + 2 by b.
    fn add_a_minus3(&self, p: &Point, q: &Point) -> Point {
        let f = &self.f;
        let Products {
            xx: mut t0,
            yy: mut t1,
            zz: mut t2,
            xy: t3,
            yz: t4,
            xz,
        } = self.products(p, q);
        let mut y3 = xz;
        let mut z3 = f.mul(self.b, t2);
        let mut x3 = f.sub(y3, z3);
        z3 = f.add(x3, x3);
        x3 = f.add(x3, z3);
        z3 = f.sub(t1, x3);
        x3 = f.add(t1, x3);
        y3 = f.mul(self.b, y3);
        t1 = f.add(t2, t2);
        t2 = f.add(t1, t2);
        y3 = f.sub(y3, t2);
        y3 = f.sub(y3, t0);
        t1 = f.add(y3, y3);
        y3 = f.add(t1, y3);
        t1 = f.add(t0, t0);
        t0 = f.add(t1, t0);
        t0 = f.sub(t0, t2);
        self.finish(t3, t4, x3, z3, t0, y3)
    }

    /// RCB 2016, Algorithm 1 (any a).
    fn add_general(&self, p: &Point, q: &Point) -> Point {
        let f = &self.f;
        let Products {
            xx: t0,
            yy: mut t1,
            zz: mut t2,
            xy: t3,
            xz: mut t4,
            yz: t5,
        } = self.products(p, q);
        let mut z3 = f.mul(self.a, t4);
        let mut x3 = f.mul(self.b3, t2);
        z3 = f.add(x3, z3);
        x3 = f.sub(t1, z3);
        z3 = f.add(t1, z3);
        t1 = f.add(t0, t0);
        t1 = f.add(t1, t0);
        t2 = f.mul(self.a, t2);
        t4 = f.mul(self.b3, t4);
        t1 = f.add(t1, t2);
        t2 = f.sub(t0, t2);
        t2 = f.mul(self.a, t2);
        t4 = f.add(t4, t2);
        self.finish(t3, t5, x3, z3, t1, t4)
    }

    /// The last six multiplications, the same in both RCB formulas once
    /// their intermediates are named alike: X3 = xy*X - yz*V,
    /// Y3 = X*Z + U*V, Z3 = yz*Z + xy*U.
    #[inline(always)]
    fn finish(&self, xy: u64, yz: u64, x: u64, z: u64, u: u64, v: u64) -> Point {
        let f = &self.f;
        Point {
            x: f.sub(f.mul(xy, x), f.mul(yz, v)),
            y: f.add(f.mul(x, z), f.mul(u, v)),
            z: f.add(f.mul(yz, z), f.mul(xy, u)),
        }
    }
    /// -P.
    pub fn neg(&self, p: &Point) -> Point {
        Point {
            x: p.x,
            y: self.f.sub(0, p.y),
            z: p.z,
        }
    }
    /// P - Q.
    pub fn sub(&self, p: &Point, q: &Point) -> Point {
        self.add(p, &self.neg(q))
    }

    /// Constant-time look-up of `row[index]`: every entry is read.
    #[inline(always)]
    fn lookup(row: &[Point; ENTRIES], index: u64) -> Point {
        let mut out = row[0];
        for (j, entry) in row.iter().enumerate().skip(1) {
            out = Point::select(&out, entry, j as u64 == index);
        }
        out
    }

    /// The fixed-base table of `base`.
    pub fn table(&self, base: &Point) -> FixedTable {
        let mut rows = Vec::with_capacity(WINDOWS);
        let mut step = *base; // 16^w * base
        for _ in 0..WINDOWS {
            let mut row = [self.identity(); ENTRIES];
            for j in 1..ENTRIES {
                row[j] = self.add(&row[j - 1], &step);
            }
            let mut all = row.to_vec();
            self.normalize(&mut all);
            row.copy_from_slice(&all);
            step = self.add(&row[ENTRIES - 1], &step);
            rows.push(row);
        }
        FixedTable { rows }
    }

    /// k * P for the point of `table`, constant time in k.
    pub fn mul_fixed(&self, table: &FixedTable, k: u64) -> Point {
        let mut acc = self.identity();
        for (w, row) in table.rows.iter().enumerate() {
            let digit = (k >> (w as u32 * WINDOW)) & (ENTRIES as u64 - 1);
            acc = self.add(&acc, &Self::lookup(row, digit));
        }
        acc
    }

    /// k * P for any P, constant time in k (fixed 4-bit windows).
    pub fn mul(&self, p: &Point, k: u64) -> Point {
        let mut row = [self.identity(); ENTRIES];
        for j in 1..ENTRIES {
            row[j] = self.add(&row[j - 1], p);
        }
        let mut acc = self.identity();
        for w in (0..WINDOWS).rev() {
            for _ in 0..WINDOW {
                acc = self.add(&acc, &acc);
            }
            let digit = (k >> (w as u32 * WINDOW)) & (ENTRIES as u64 - 1);
            acc = self.add(&acc, &Self::lookup(&row, digit));
        }
        acc
    }

    /// Brings points to Z = 1 with one inversion (Montgomery's trick); the
    /// identity is left as it is.
    pub fn normalize(&self, points: &mut [Point]) {
        let f = &self.f;
        let mut prefix = Vec::with_capacity(points.len());
        let mut acc = f.one();
        for p in points.iter() {
            prefix.push(acc);
            if p.z != 0 {
                acc = f.mul(acc, p.z);
            }
        }
        let mut inv = f.inv(acc);
        for (p, before) in points.iter_mut().zip(prefix).rev() {
            if p.z == 0 {
                *p = self.identity();
                continue;
            }
            let zinv = f.mul(inv, before);
            inv = f.mul(inv, p.z);
            p.x = f.mul(p.x, zinv);
            p.y = f.mul(p.y, zinv);
            p.z = f.one();
        }
    }

    /// Affine (x, y) as plain integers; `None` for the identity.
    pub fn affine(&self, p: &Point) -> Option<(u64, u64)> {
        if p.z == 0 {
            return None;
        }
        let f = &self.f;
        let zinv = if p.z == f.one() { f.one() } else { f.inv(p.z) };
        Some((f.from_mont(f.mul(p.x, zinv)), f.from_mont(f.mul(p.y, zinv))))
    }

    /// The point with affine x and the requested parity of y, if x is on the curve.
    pub fn lift_x(&self, x: u64, odd: bool) -> Option<Point> {
        let f = &self.f;
        if x >= f.modulus() {
            return None;
        }
        let xm = f.to_mont(x);
        let rhs = f.add(f.mul(f.add(f.mul(xm, xm), self.a), xm), self.b);
        let y = f.sqrt(rhs)?;
        let y_plain = f.from_mont(y);
        let y = if (y_plain & 1 == 1) == odd {
            y
        } else {
            f.sub(0, y)
        };
        Some(Point {
            x: xm,
            y,
            z: f.one(),
        })
    }

    /// Whether affine (x, y) satisfies the curve equation.
    pub fn on_curve(&self, x: u64, y: u64) -> bool {
        let f = &self.f;
        if x >= f.modulus() || y >= f.modulus() {
            return false;
        }
        let (xm, ym) = (f.to_mont(x), f.to_mont(y));
        let rhs = f.add(f.mul(f.add(f.mul(xm, xm), self.a), xm), self.b);
        f.mul(ym, ym) == rhs
    }

    /// The point with these affine coordinates (unchecked: see [`Toy64::on_curve`]).
    pub fn from_affine(&self, x: u64, y: u64) -> Point {
        Point {
            x: self.f.to_mont(x),
            y: self.f.to_mont(y),
            z: self.f.one(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_complete_formulas_agree_including_doubling_and_identity() {
        let c = Toy64::default();
        let g = c.generator();
        let mut pts = vec![c.identity(), g];
        for i in 0..20 {
            let next = c.add_general(&pts[pts.len() - 1], &pts[i % pts.len()]);
            pts.push(next);
        }
        // y^2 = x^3 + ax + b in plain u128 arithmetic, apart from the field code.
        let on_curve = |(x, y): (u64, u64)| {
            let p = tp::P as u128;
            let (x, y) = (x as u128, y as u128);
            let rhs = ((x * x % p * x % p) + tp::A as u128 * x % p + tp::B as u128) % p;
            y * y % p == rhs
        };
        for p in &pts {
            for q in &pts {
                let a = c.affine(&c.add_a_minus3(p, q));
                let b = c.affine(&c.add_general(p, q));
                assert_eq!(a, b);
                assert!(a.is_none_or(on_curve), "{a:?} is off the curve");
            }
        }
        assert_eq!(c.affine(&c.add(&g, &c.neg(&g))), None);
        assert_eq!(c.affine(&c.add(&c.identity(), &g)), c.affine(&g));
    }

    #[test]
    fn field_inverse_and_square_root() {
        let f = Field::new(tp::P);
        for v in [1u64, 2, 3, 0xdead_beef, tp::P - 1] {
            let m = f.to_mont(v);
            assert_eq!(f.from_mont(f.mul(m, f.inv(m))), 1);
            let sq = f.mul(m, m);
            let r = f.sqrt(sq).unwrap();
            assert_eq!(f.mul(r, r), sq);
        }
    }
}
