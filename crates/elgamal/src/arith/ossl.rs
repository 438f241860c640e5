//! [`Arithmetic`] over OpenSSL's `EC_POINT` (P-256 runs the nistz256
//! assembly; secp256k1 the generic Montgomery code).
//!
//! Fixed-base multiplication by the public key Q uses OpenSSL's own
//! machinery: the P-256 group is duplicated, Q is made its generator and
//! `EC_GROUP_precompute_mult` builds the nistz256 table for it, so
//! `k * Q` is as fast as `k * G`. For secp256k1 OpenSSL always takes its
//! constant-time Montgomery ladder for a single secret scalar, so there the
//! table changes nothing (measured; the `rustcrypto` backend's `k256` is
//! faster on that curve).
//!
//! Koblitz encoding on P-256 does not use OpenSSL's square root: the
//! counters of a whole chunk of `packed` points are searched by
//! [`super::p256_lift`] and only the found (x, y) cross over.
//!
//! Four calls the `openssl` crate does not wrap are declared here; they are
//! exported by every libcrypto 1.1 and 3.x (deprecated in 3.0, still present).

use super::backend::{cached, ArithBackend, Backend, EngineCell, EngineTask};
use super::{lib_error, Arithmetic};
use crate::cipher::CurveEngine;
use crate::curve::Curve;
use cryptobench_core::{Availability, Error};
use foreign_types::ForeignType;
use openssl::bn::{BigNum, BigNumContext};
use openssl::ec::EcPointRef;
use openssl::ec::{EcGroup, EcPoint};
use openssl::nid::Nid;
use std::os::raw::c_int;
use std::sync::{Arc, OnceLock};

/// Why toy64 does not run here.
const NO_TOY64: &str = "openssl offers no 64-bit curve; toy64 uses the native arithmetic";

/// The registered backend: OpenSSL's `EC_POINT` on P-256 and secp256k1.
pub struct Openssl;

impl ArithBackend for Openssl {
    fn name(&self) -> &'static str {
        "openssl"
    }
    fn version(&self) -> String {
        openssl::version::version().to_string()
    }
    fn availability(&self, curve: Curve) -> Availability {
        match nid(curve) {
            Some(_) => Availability::Available,
            None => Availability::Unavailable(NO_TOY64.into()),
        }
    }
    /// On P-256 OpenSSL's nistz256 assembly is about 3x RustCrypto's `p256`
    /// for `char`.
    fn fastest_on(&self, curve: Curve) -> bool {
        curve == Curve::P256
    }
    fn prepare<T: EngineTask>(&self, curve: Curve, task: T) -> Result<T::Output, Error> {
        task.run(engine(curve)?)
    }
}

/// The OpenSSL engine of P-256 or secp256k1, built once per process.
pub fn engine(curve: Curve) -> Result<Arc<CurveEngine<OpensslArith>>, Error> {
    static P256: EngineCell<OpensslArith> = OnceLock::new();
    static K256: EngineCell<OpensslArith> = OnceLock::new();
    let cell = match curve {
        Curve::P256 => &P256,
        Curve::Secp256k1 => &K256,
        Curve::Toy64 => return Err(Error::usage(NO_TOY64)),
    };
    cached(cell, || OpensslArith::new(curve))
}

extern "C" {
    fn EC_GROUP_precompute_mult(
        group: *mut openssl_sys::EC_GROUP,
        ctx: *mut openssl_sys::BN_CTX,
    ) -> c_int;
    fn EC_POINTs_make_affine(
        group: *const openssl_sys::EC_GROUP,
        num: usize,
        points: *mut *mut openssl_sys::EC_POINT,
        ctx: *mut openssl_sys::BN_CTX,
    ) -> c_int;
    fn EC_POINT_set_Jprojective_coordinates_GFp(
        group: *const openssl_sys::EC_GROUP,
        p: *mut openssl_sys::EC_POINT,
        x: *const openssl_sys::BIGNUM,
        y: *const openssl_sys::BIGNUM,
        z: *const openssl_sys::BIGNUM,
        ctx: *mut openssl_sys::BN_CTX,
    ) -> c_int;
    fn EC_POINT_get_Jprojective_coordinates_GFp(
        group: *const openssl_sys::EC_GROUP,
        p: *const openssl_sys::EC_POINT,
        x: *mut openssl_sys::BIGNUM,
        y: *mut openssl_sys::BIGNUM,
        z: *mut openssl_sys::BIGNUM,
        ctx: *mut openssl_sys::BN_CTX,
    ) -> c_int;
}

/// Per-thread scratch: a `BN_CTX`, three reusable numbers and the point
/// k * Q of an encryption, so that no temporary point is allocated.
pub struct Scratch {
    ctx: BigNumContext,
    x: BigNum,
    y: BigNum,
    z: BigNum,
    kq: EcPoint,
}

/// A secret scalar (k or d), set constant-time and wiped when dropped:
/// `BN_free` alone returns its words to the allocator as they are.
pub struct Secret(BigNum);

impl Drop for Secret {
    fn drop(&mut self) {
        self.0.clear();
    }
}

/// OpenSSL arithmetic for one curve.
pub struct OpensslArith {
    curve: Curve,
    group: EcGroup,
    order: BigNum,
}

// SAFETY-free note: EcGroup and BigNum are Send + Sync in the openssl crate;
// OpenSSL documents EC_GROUP as safe to share read-only between threads once
// built, which is how this type uses it.

fn nid(curve: Curve) -> Option<Nid> {
    match curve {
        Curve::P256 => Some(Nid::X9_62_PRIME256V1),
        Curve::Secp256k1 => Some(Nid::SECP256K1),
        Curve::Toy64 => None,
    }
}

impl OpensslArith {
    /// The arithmetic of `curve` (P-256 or secp256k1).
    pub fn new(curve: Curve) -> Result<Self, Error> {
        let nid = nid(curve).ok_or_else(|| Error::usage(NO_TOY64))?;
        let group = EcGroup::from_curve_name(nid).map_err(|e| lib_error("EC group", e))?;
        let mut ctx = BigNumContext::new().map_err(|e| lib_error("BN_CTX", e))?;
        let mut order = BigNum::new().map_err(|e| lib_error("BIGNUM", e))?;
        group
            .order(&mut order, &mut ctx)
            .map_err(|e| lib_error("group order", e))?;
        Ok(Self {
            curve,
            group,
            order,
        })
    }
    /// The group (tests compare its parameters with [`Curve::params`]).
    pub fn group(&self) -> &EcGroup {
        &self.group
    }

    /// Affine coordinates of a finite point into `s.x`, `s.y`. After
    /// `normalize` Z is 1 and the projective coordinates are the affine
    /// ones; reading them avoids nistz256's get_affine, which inverts Z
    /// unconditionally.
    fn load_affine(&self, p: &EcPoint, s: &mut Scratch) -> Result<(), Error> {
        // SAFETY: all pointers are valid for the call.
        let ok = unsafe {
            EC_POINT_get_Jprojective_coordinates_GFp(
                self.group.as_ptr(),
                p.as_ptr(),
                s.x.as_ptr(),
                s.y.as_ptr(),
                s.z.as_ptr(),
                s.ctx.as_ptr(),
            )
        };
        if ok != 1 {
            return Err(lib_error(
                "EC_POINT_get_Jprojective_coordinates_GFp",
                openssl::error::ErrorStack::get(),
            ));
        }
        if !s.z.is_one_value() {
            p.affine_coordinates(&self.group, &mut s.x, &mut s.y, &mut s.ctx)
                .map_err(|e| lib_error("EC_POINT_get_affine_coordinates", e))?;
        }
        Ok(())
    }

    /// a + b in a new point.
    fn sum(&self, a: &EcPoint, b: &EcPoint, ctx: &mut BigNumContext) -> Result<EcPoint, Error> {
        let mut r = EcPoint::new(&self.group).map_err(|e| lib_error("EC_POINT_new", e))?;
        r.add(&self.group, a, b, ctx)
            .map_err(|e| lib_error("EC_POINT_add", e))?;
        Ok(r)
    }

    /// The point (x, y) from big-endian affine coordinates (`field_bytes`
    /// long) already known to be on the curve: the callers have squared y
    /// back to x^3 + a*x + b, so OpenSSL's own on-curve check (which
    /// `EC_POINT_oct2point` runs) is skipped; Z = 1 as for any affine point.
    fn affine_point(&self, x: &[u8], y: &[u8], s: &mut Scratch) -> Option<EcPoint> {
        let point = EcPoint::new(&self.group).ok()?;
        let len = c_int::try_from(x.len()).ok()?;
        // SAFETY: the byte slices are valid for `len` bytes, the BIGNUMs and
        // the point are live and owned here, the group is this curve's.
        let ok = unsafe {
            !openssl_sys::BN_bin2bn(x.as_ptr(), len, s.x.as_ptr()).is_null()
                && !openssl_sys::BN_bin2bn(y.as_ptr(), len, s.y.as_ptr()).is_null()
                && openssl_sys::BN_set_word(s.z.as_ptr(), 1) == 1
                && EC_POINT_set_Jprojective_coordinates_GFp(
                    self.group.as_ptr(),
                    point.as_ptr(),
                    s.x.as_ptr(),
                    s.y.as_ptr(),
                    s.z.as_ptr(),
                    s.ctx.as_ptr(),
                ) == 1
        };
        ok.then_some(point)
    }
}

impl Arithmetic for OpensslArith {
    type Point = EcPoint;
    type Scalar = Secret;
    type Table = EcGroup;
    type Scratch = Scratch;

    fn curve(&self) -> Curve {
        self.curve
    }
    fn backend(&self) -> Backend {
        &Openssl
    }
    fn scratch(&self) -> Result<Scratch, Error> {
        let bn = || BigNum::new().map_err(|e| lib_error("BIGNUM", e));
        Ok(Scratch {
            ctx: BigNumContext::new().map_err(|e| lib_error("BN_CTX", e))?,
            x: bn()?,
            y: bn()?,
            z: bn()?,
            kq: EcPoint::new(&self.group).map_err(|e| lib_error("EC_POINT_new", e))?,
        })
    }
    fn scalar(&self, be: &[u8]) -> Result<Secret, Error> {
        let mut k = BigNum::from_slice(be).map_err(|e| lib_error("scalar", e))?;
        k.set_const_time();
        Ok(Secret(k))
    }
    fn set_scalar(&self, Secret(k): &mut Secret, be: &[u8]) -> Result<(), Error> {
        let len = c_int::try_from(be.len()).map_err(|e| lib_error("scalar", e))?;
        // SAFETY: `be` is valid for `len` bytes and `k` is a live BIGNUM
        // owned by the caller; BN_bin2bn reuses its storage.
        let ok = unsafe { !openssl_sys::BN_bin2bn(be.as_ptr(), len, k.as_ptr()).is_null() };
        if !ok {
            return Err(lib_error("BN_bin2bn", openssl::error::ErrorStack::get()));
        }
        k.set_const_time();
        Ok(())
    }
    fn generator_table(&self) -> &EcGroup {
        // P-256: OpenSSL's built-in nistz256 table of G; secp256k1: the ladder.
        &self.group
    }
    fn table(&self, base: &EcPoint, s: &mut Scratch) -> Result<EcGroup, Error> {
        // SAFETY: EC_GROUP_dup returns a new group we own (or NULL, checked).
        let dup = unsafe { openssl_sys::EC_GROUP_dup(self.group.as_ptr()) };
        if dup.is_null() {
            return Err(lib_error("EC_GROUP_dup", "out of memory"));
        }
        // SAFETY: `dup` is a valid, owned EC_GROUP.
        let mut group = unsafe { EcGroup::from_ptr(dup) };
        let generator =
            EcPointRef::to_owned(base, &self.group).map_err(|e| lib_error("point copy", e))?;
        let order = self.order.to_owned().map_err(|e| lib_error("BIGNUM", e))?;
        let one = BigNum::from_u32(1).map_err(|e| lib_error("BIGNUM", e))?;
        group
            .set_generator(generator, order, one)
            .map_err(|e| lib_error("EC_GROUP_set_generator", e))?;
        // SAFETY: both pointers are valid for the call.
        let ok = unsafe { EC_GROUP_precompute_mult(group.as_ptr(), s.ctx.as_ptr()) };
        if ok != 1 {
            return Err(lib_error(
                "EC_GROUP_precompute_mult",
                openssl::error::ErrorStack::get(),
            ));
        }
        Ok(group)
    }
    fn mul_fixed(&self, table: &EcGroup, k: &Secret, s: &mut Scratch) -> Result<EcPoint, Error> {
        let mut r = EcPoint::new(table).map_err(|e| lib_error("EC_POINT_new", e))?;
        r.mul_generator2(table, &k.0, &mut s.ctx)
            .map_err(|e| lib_error("EC_POINT_mul", e))?;
        Ok(r)
    }
    fn mul_fixed_add(
        &self,
        table: &EcGroup,
        k: &Secret,
        m: &EcPoint,
        s: &mut Scratch,
    ) -> Result<EcPoint, Error> {
        s.kq.mul_generator2(table, &k.0, &mut s.ctx)
            .map_err(|e| lib_error("EC_POINT_mul", e))?;
        self.sum(&s.kq, m, &mut s.ctx)
    }
    fn mul_ct(&self, p: &EcPoint, k: &Secret, s: &mut Scratch) -> Result<EcPoint, Error> {
        let mut r = EcPoint::new(&self.group).map_err(|e| lib_error("EC_POINT_new", e))?;
        r.mul2(&self.group, p, &k.0, &mut s.ctx)
            .map_err(|e| lib_error("EC_POINT_mul", e))?;
        Ok(r)
    }
    fn add(&self, a: &EcPoint, b: &EcPoint, s: &mut Scratch) -> Result<EcPoint, Error> {
        self.sum(a, b, &mut s.ctx)
    }
    fn sub(&self, a: &EcPoint, b: &EcPoint, s: &mut Scratch) -> Result<EcPoint, Error> {
        let mut neg =
            EcPointRef::to_owned(b, &self.group).map_err(|e| lib_error("point copy", e))?;
        neg.invert2(&self.group, &mut s.ctx)
            .map_err(|e| lib_error("EC_POINT_invert", e))?;
        self.add(a, &neg, s)
    }
    fn normalize(&self, points: &mut [EcPoint], s: &mut Scratch) -> Result<(), Error> {
        if points.is_empty() {
            return Ok(());
        }
        // The point at infinity has no affine form; it is left as it is.
        let group = &self.group;
        let mut raw: Vec<*mut openssl_sys::EC_POINT> = points
            .iter_mut()
            .filter(|p| !p.is_infinity(group))
            .map(|p| p.as_ptr())
            .collect();
        if raw.is_empty() {
            return Ok(());
        }
        // SAFETY: every pointer is a live EC_POINT of this group, borrowed
        // mutably for the duration of the call.
        let ok = unsafe {
            EC_POINTs_make_affine(
                self.group.as_ptr(),
                raw.len(),
                raw.as_mut_ptr(),
                s.ctx.as_ptr(),
            )
        };
        if ok != 1 {
            return Err(lib_error(
                "EC_POINTs_make_affine",
                openssl::error::ErrorStack::get(),
            ));
        }
        Ok(())
    }
    fn decompress(&self, sec1: &[u8], s: &mut Scratch) -> Option<EcPoint> {
        if sec1.len() != self.curve.compressed_len() || !matches!(sec1[0], 0x02 | 0x03) {
            return None;
        }
        let p = EcPoint::from_bytes(&self.group, sec1, &mut s.ctx).ok()?;
        (!p.is_infinity(&self.group)).then_some(p)
    }
    fn lift_even(&self, x: &[u8], s: &mut Scratch) -> Option<EcPoint> {
        // OpenSSL's square root (BN_mod_sqrt) costs about three times
        // RustCrypto's field code; the candidate search, which fails about
        // half the time, runs outside and only the found point crosses over.
        // P-256 has this crate's own field code (Jacobi test, then one
        // exponentiation: `p256_lift`); secp256k1 uses `k256`.
        let uncompressed = match self.curve {
            Curve::P256 => {
                let x: &[u8; 32] = x.try_into().ok()?;
                let y = super::p256_lift::lift_even(x)?;
                return self.affine_point(x, &y, s);
            }
            Curve::Secp256k1 => lift_rustcrypto::k256(x)?,
            Curve::Toy64 => return None,
        };
        EcPoint::from_bytes(&self.group, &uncompressed, &mut s.ctx).ok()
    }
    fn encode_many(
        &self,
        bases: &[u8],
        out: &mut Vec<EcPoint>,
        s: &mut Scratch,
    ) -> Result<(), Error> {
        if self.curve != Curve::P256 {
            return crate::encoding::encode_each(self, bases, out, s);
        }
        let xs: Vec<[u8; 32]> = bases
            .chunks_exact(32)
            .map(|b| b.try_into().unwrap_or([0xff; 32]))
            .collect();
        if xs.len() * 32 != bases.len() {
            return Err(Error::Encoding(
                "Koblitz bases are not whole field elements",
            ));
        }
        let found_all = super::p256_lift::koblitz_many(&xs);
        for (mut x, found) in xs.into_iter().zip(found_all) {
            let (j, y) = found.ok_or_else(|| {
                Error::Encoding("no counter j in 0..=255 puts this chunk on the curve")
            })?;
            x[31] = j;
            let point = self
                .affine_point(&x, &y, s)
                .ok_or_else(|| Error::Encoding("a Koblitz point was rejected by OpenSSL"))?;
            out.push(point);
        }
        Ok(())
    }
    fn compress(&self, p: &EcPoint, s: &mut Scratch) -> Result<Vec<u8>, Error> {
        if p.is_infinity(&self.group) {
            return Err(Error::Encoding("cannot encode the point at infinity"));
        }
        // SEC1 compressed form written here from the affine coordinates:
        // EC_POINT_point2oct on nistz256 inverts Z again for points that
        // `normalize` already made affine, a third of the encryption time.
        self.load_affine(p, s)?;
        let field_bytes = self.group.degree().div_ceil(8) as i32;
        let mut out = Vec::with_capacity(field_bytes as usize + 1);
        out.push(if s.y.is_bit_set(0) { 0x03 } else { 0x02 });
        out.extend(
            s.x.to_vec_padded(field_bytes)
                .map_err(|e| lib_error("BN_bn2binpad", e))?,
        );
        Ok(out)
    }
    fn affine_x(&self, p: &EcPoint, out: &mut [u8], s: &mut Scratch) -> Result<bool, Error> {
        if p.is_infinity(&self.group) {
            return Ok(false);
        }
        self.load_affine(p, s)?;
        let bytes =
            s.x.to_vec_padded(out.len() as i32)
                .map_err(|e| lib_error("BN_bn2binpad", e))?;
        out.copy_from_slice(&bytes);
        Ok(true)
    }
}

trait IsOne {
    fn is_one_value(&self) -> bool;
}

impl IsOne for BigNum {
    fn is_one_value(&self) -> bool {
        self.num_bits() == 1
    }
}

/// Koblitz candidates through RustCrypto's field arithmetic: the SEC1
/// uncompressed encoding of (x, even y), when x is on the curve.
mod lift_rustcrypto {
    macro_rules! lift {
        ($fn_name:ident, $krate:ident) => {
            pub fn $fn_name(x: &[u8]) -> Option<Vec<u8>> {
                use ::$krate::elliptic_curve::point::DecompressPoint as _;
                use ::$krate::elliptic_curve::sec1::ToEncodedPoint as _;
                use ::$krate::elliptic_curve::subtle::Choice;
                if x.len() != 32 {
                    return None;
                }
                let bytes = ::$krate::FieldBytes::clone_from_slice(x);
                let p: ::$krate::AffinePoint =
                    Option::from(::$krate::AffinePoint::decompress(&bytes, Choice::from(0)))?;
                Some(p.to_encoded_point(false).as_bytes().to_vec())
            }
        };
    }
    lift!(k256, k256);
}
