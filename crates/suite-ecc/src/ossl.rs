//! OpenSSL on every named curve, through its two key-generation paths, and
//! on X25519/X448/Ed25519/Ed448.
//!
//! OpenSSL 3 generates an EC key either through the low-level
//! `EC_KEY_generate_key` (what PHP 7.2 used in the seed) or through the
//! provider API (`EVP_PKEY_keygen` with a group name). The provider path adds
//! parameter marshalling and, per key, a fresh `EC_KEY` bound to the group, so
//! both are measured as parameter `api` = `EC_KEY` / `EVP`, and the seed
//! tables take the faster of the two per curve. ECDH, ECDSA and EdDSA go
//! through `EVP_PKEY_derive` / `EVP_PKEY_sign` / `EVP_PKEY_verify` with one
//! context reused across operations, as `openssl speed` does.

use crate::curves::{Curve, Kind};
use crate::ops::{
    agreement_check, each_fresh_key, failed, signature_checks, CurveOps, KeyError, Op, CHECKED_KEYS,
};
use cryptobench_core::{CaseError, CheckOutcome, CheckResult};
use openssl::bn::{BigNum, BigNumContext, BigNumRef};
use openssl::derive::Deriver;
use openssl::ec::{EcGroup, EcGroupRef, EcKey, EcPoint, EcPointRef, PointConversionForm};
use openssl::error::ErrorStack;
use openssl::nid::Nid;
use openssl::pkey::{Id, PKey, Private, Public};
use openssl::pkey_ctx::PkeyCtx;
use openssl::sign::{Signer, Verifier};
use std::hint::black_box;

/// Which OpenSSL API generates Weierstrass keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `EC_KEY_generate_key` (low level, deprecated in 3.0 but present).
    EcKey,
    /// `EVP_PKEY_keygen` through the default provider.
    Evp,
}

impl Api {
    /// Value of the `api` parameter.
    pub fn name(self) -> &'static str {
        match self {
            Api::EcKey => "EC_KEY",
            Api::Evp => "EVP",
        }
    }
}

/// Verifies that (d, Q) is a valid key pair on `group`: 0 < d < n, Q on the
/// curve, n*Q = O, and Q = d*G recomputed through `EC_POINT_mul` with G
/// passed as an ordinary point (the generic ladder, not the precomputed
/// generator tables key generation uses).
pub fn check_key_pair(group: &EcGroupRef, d: &BigNumRef, q: &EcPointRef) -> Result<(), KeyError> {
    let e = |what: &str, err: ErrorStack| KeyError::Library(format!("{what}: {err}"));
    let mut ctx = BigNumContext::new().map_err(|x| e("context", x))?;
    let mut order = BigNum::new().map_err(|x| e("bignum", x))?;
    group
        .order(&mut order, &mut ctx)
        .map_err(|x| e("order", x))?;
    if d.num_bits() == 0 || d >= &*order || d.is_negative() {
        return Err(KeyError::ScalarOutOfRange);
    }
    if !q
        .is_on_curve(group, &mut ctx)
        .map_err(|x| e("on-curve", x))?
    {
        return Err(KeyError::NotOnCurve);
    }
    let mut nq = EcPoint::new(group).map_err(|x| e("point", x))?;
    nq.mul2(group, q, &order, &mut ctx)
        .map_err(|x| e("n*Q", x))?;
    if !nq.is_infinity(group) || q.is_infinity(group) {
        return Err(KeyError::WrongOrder);
    }
    let generator = group
        .generator_opt()
        .ok_or_else(|| KeyError::Library("group has no generator".into()))?
        .to_owned(group)
        .map_err(|x| e("G", x))?;
    let mut dg = EcPoint::new(group).map_err(|x| e("point", x))?;
    dg.mul2(group, &generator, d, &mut ctx)
        .map_err(|x| e("d*G", x))?;
    if !dg.eq(group, q, &mut ctx).map_err(|x| e("compare", x))? {
        return Err(KeyError::NotDTimesG);
    }
    Ok(())
}

/// Uncompressed SEC1 encoding of d*G computed by OpenSSL, for cross-checks
/// of other backends' keys.
pub fn public_from_scalar(nid: i32, d: &[u8]) -> Result<Vec<u8>, KeyError> {
    let group = EcGroup::from_curve_name(Nid::from_raw(nid))?;
    let mut ctx = BigNumContext::new()?;
    let d = BigNum::from_slice(d)?;
    let mut q = EcPoint::new(&group)?;
    q.mul_generator2(&group, &d, &mut ctx)?;
    sec1(&group, &q)
}

/// Checks a key pair given as bytes (another backend's key) with
/// [`check_key_pair`].
pub fn check_foreign_key(nid: i32, d: &[u8], q_sec1: &[u8]) -> Result<(), KeyError> {
    let group = EcGroup::from_curve_name(Nid::from_raw(nid))?;
    let mut ctx = BigNumContext::new()?;
    let d = BigNum::from_slice(d)?;
    let q = EcPoint::from_bytes(&group, q_sec1, &mut ctx)
        .map_err(|e| KeyError::Undecodable(e.to_string()))?;
    check_key_pair(&group, &d, &q)
}

fn sec1(group: &EcGroupRef, q: &EcPointRef) -> Result<Vec<u8>, KeyError> {
    let mut ctx = BigNumContext::new()?;
    Ok(q.to_bytes(group, PointConversionForm::UNCOMPRESSED, &mut ctx)?)
}

/// Big-endian private scalar padded to the byte length of the order.
fn scalar_bytes(group: &EcGroupRef, d: &BigNumRef) -> Result<Vec<u8>, KeyError> {
    let len = group.order_bits().div_ceil(8) as i32;
    Ok(d.to_vec_padded(len)?)
}

/// OpenSSL on one short-Weierstrass curve.
pub struct OsslEc {
    curve: &'static Curve,
    group: EcGroup,
    keygen_ctx: Option<PkeyCtx<()>>,
    key: Option<PKey<Private>>,
    op_ctx: Option<PkeyCtx<Private>>,
    signature: Vec<u8>,
    out: Vec<u8>,
}

impl OsslEc {
    /// Prepares `curve` for `op` with the given key-generation API.
    pub fn new(curve: &'static Curve, api: Api, op: Op) -> Result<Self, CaseError> {
        let Kind::Weierstrass(nid) = curve.kind else {
            return Err(CaseError::Skipped(format!(
                "{} is not a Weierstrass curve",
                curve.name
            )));
        };
        let group = EcGroup::from_curve_name(Nid::from_raw(nid))
            .map_err(|e| CaseError::Skipped(format!("unsupported: {e}")))?;
        let mut me = Self {
            curve,
            group,
            keygen_ctx: None,
            key: None,
            op_ctx: None,
            signature: Vec::new(),
            out: vec![0u8; 256],
        };
        if api == Api::Evp {
            let mut ctx = PkeyCtx::new_id(Id::EC).map_err(|e| failed("EVP context", e))?;
            ctx.keygen_init().map_err(|e| failed("keygen_init", e))?;
            ctx.set_ec_paramgen_curve_nid(Nid::from_raw(nid))
                .map_err(|e| CaseError::Skipped(format!("unsupported: set group: {e}")))?;
            me.keygen_ctx = Some(ctx);
        }
        if op != Op::Keygen {
            let key = me.pkey()?;
            let mut ctx = PkeyCtx::new(&key).map_err(|e| failed("context", e))?;
            match op {
                Op::Ecdh => {
                    let other = me.pkey()?;
                    let peer = me.public_only(&other)?;
                    ctx.derive_init()
                        .map_err(|e| unsupported("key agreement", e))?;
                    ctx.derive_set_peer(&peer)
                        .map_err(|e| unsupported("key agreement", e))?;
                }
                Op::Sign | Op::Verify => {
                    // A trial signature: some listed curves (Oakley-EC2N-3/4)
                    // have no prime-order generator OpenSSL can sign with.
                    let mut signer = PkeyCtx::new(&key).map_err(|e| failed("context", e))?;
                    signer.sign_init().map_err(|e| unsupported("ECDSA", e))?;
                    signer
                        .sign_to_vec(&crate::ops::DIGEST, &mut me.signature)
                        .map_err(|e| unsupported("ECDSA", e))?;
                    if op == Op::Sign {
                        ctx.sign_init().map_err(|e| failed("sign_init", e))?;
                    } else {
                        ctx.verify_init().map_err(|e| failed("verify_init", e))?;
                    }
                }
                Op::Keygen => {}
            }
            me.key = Some(key);
            me.op_ctx = Some(ctx);
        }
        Ok(me)
    }

    fn pkey(&mut self) -> Result<PKey<Private>, CaseError> {
        match self.keygen_ctx.as_mut() {
            Some(ctx) => ctx.keygen().map_err(|e| failed("EVP_PKEY_keygen", e)),
            None => {
                let k =
                    EcKey::generate(&self.group).map_err(|e| failed("EC_KEY_generate_key", e))?;
                PKey::from_ec_key(k).map_err(|e| failed("EVP_PKEY", e))
            }
        }
    }

    fn public_only(&self, key: &PKey<Private>) -> Result<PKey<Public>, CaseError> {
        let ec = key.ec_key().map_err(|e| failed("EC key", e))?;
        let public = EcKey::from_public_key(&self.group, ec.public_key())
            .map_err(|e| failed("public key", e))?;
        PKey::from_ec_key(public).map_err(|e| failed("EVP_PKEY", e))
    }

    fn key_checks(&mut self) -> Vec<CheckResult> {
        let mut cross = None;
        let key_pairs = each_fresh_key(
            "key: on curve, n*Q = O, Q = d*G",
            format!(
                "{CHECKED_KEYS} fresh keys; d*G recomputed by EC_POINT_mul on G as a plain point"
            ),
            |i| {
                let key = self.pkey().map_err(|e| KeyError::Library(e.to_string()))?;
                let ec = key.ec_key()?;
                check_key_pair(&self.group, ec.private_key(), ec.public_key())?;
                if i == 0 {
                    cross = crate::rc::public_from_scalar(
                        &self.curve.name,
                        &scalar_bytes(&self.group, ec.private_key())?,
                    )
                    .map(|theirs| Ok::<_, KeyError>(theirs == sec1(&self.group, ec.public_key())?));
                }
                Ok::<_, KeyError>(())
            },
        );
        let passed = key_pairs.outcome == CheckOutcome::Pass;
        let mut checks = vec![key_pairs];
        if !passed {
            return checks;
        }
        match cross {
            Some(Ok(same)) => checks.push(CheckResult::from_bool(
                "cross-backend: RustCrypto derives the same public point",
                same,
                "same private scalar through the RustCrypto curve crate",
            )),
            Some(Err(e)) => checks.push(CheckResult::fail("cross-backend", e.to_string())),
            None => {}
        }
        checks.push(self.tamper_check());
        checks
    }

    /// Proves the key check can fail: Q + G with the same d must be refused.
    fn tamper_check(&mut self) -> CheckResult {
        let verdict = (|| -> Result<bool, KeyError> {
            let key = self.pkey().map_err(|e| KeyError::Library(e.to_string()))?;
            let ec = key.ec_key()?;
            let bad = corrupted_public(&self.group, ec.public_key())?;
            Ok(check_key_pair(&self.group, ec.private_key(), &bad).is_err())
        })();
        match verdict {
            Ok(refused) => CheckResult::from_bool(
                "tamper: corrupted public key refused",
                refused,
                "public point replaced by Q + G",
            ),
            Err(e) => CheckResult::fail("tamper: corrupted public key refused", e.to_string()),
        }
    }
}

/// OpenSSL refused an operation on a curve it lists: reported as
/// unsupported with its own words, not as a failed check.
fn unsupported(what: &str, e: ErrorStack) -> CaseError {
    let first = e
        .errors()
        .first()
        .and_then(|x| x.reason().map(str::to_string))
        .unwrap_or_else(|| e.to_string());
    CaseError::Skipped(format!(
        "unsupported: OpenSSL refuses {what} on this curve ({first})"
    ))
}

/// Q + G: a valid curve point that no longer matches d.
pub fn corrupted_public(group: &EcGroupRef, q: &EcPointRef) -> Result<EcPoint, KeyError> {
    let mut ctx = BigNumContext::new()?;
    let mut bad = EcPoint::new(group)?;
    let g = group
        .generator_opt()
        .ok_or_else(|| KeyError::Library("group has no generator".into()))?;
    bad.add(group, q, g, &mut ctx)?;
    Ok(bad)
}

impl CurveOps for OsslEc {
    fn keygen(&mut self) -> Result<(), CaseError> {
        match self.keygen_ctx.as_mut() {
            Some(ctx) => {
                black_box(ctx.keygen().map_err(|e| failed("EVP_PKEY_keygen", e))?);
            }
            None => {
                black_box(
                    EcKey::generate(&self.group).map_err(|e| failed("EC_KEY_generate_key", e))?,
                );
            }
        }
        Ok(())
    }
    fn ecdh(&mut self) -> Result<(), CaseError> {
        self.write_out("derive", |ctx, out| ctx.derive(Some(out)))
    }
    fn sign(&mut self) -> Result<(), CaseError> {
        self.write_out("sign", |ctx, out| {
            ctx.sign(black_box(&crate::ops::DIGEST), Some(out))
        })
    }
    fn verify(&mut self) -> Result<(), CaseError> {
        let ctx = prepared(&mut self.op_ctx)?;
        let ok = ctx
            .verify(black_box(&crate::ops::DIGEST), &self.signature)
            .map_err(|e| failed("verify", e))?;
        if !black_box(ok) {
            return Err(CaseError::Failed("valid signature rejected".into()));
        }
        Ok(())
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        match op {
            Op::Keygen => self.key_checks(),
            Op::Ecdh => self.ecdh_checks(),
            Op::Sign | Op::Verify => {
                let Some(key) = self.key.clone() else {
                    return vec![CheckResult::fail("prepare", "no key")];
                };
                let mut sign = |m: &[u8]| -> Result<Vec<u8>, KeyError> {
                    let mut ctx = PkeyCtx::new(&key)?;
                    ctx.sign_init()?;
                    let mut sig = Vec::new();
                    ctx.sign_to_vec(m, &mut sig)?;
                    Ok(sig)
                };
                let mut verify = |m: &[u8], s: &[u8]| -> bool {
                    PkeyCtx::new(&key)
                        .and_then(|mut c| c.verify_init().map(|_| c))
                        .and_then(|mut c| c.verify(m, s))
                        .unwrap_or(false)
                };
                signature_checks(&mut sign, &mut verify)
            }
        }
    }
}

impl OsslEc {
    fn ecdh_checks(&mut self) -> Vec<CheckResult> {
        let verdict = (|| {
            let a = self.pkey()?;
            let b = self.pkey()?;
            let a_pub = self.public_only(&a)?;
            let b_pub = self.public_only(&b)?;
            both_sides_agree((&a, &a_pub), (&b, &b_pub))
        })();
        vec![agreement_check(verdict)]
    }
}

/// The operation context `new` prepared (a separate borrow from the
/// output buffer it writes into).
impl OsslEc {
    /// One operation of the prepared context that writes into `out` (a
    /// shared secret, a signature), the bytes written kept alive.
    fn write_out(
        &mut self,
        what: &str,
        op: impl FnOnce(&mut PkeyCtx<Private>, &mut [u8]) -> Result<usize, ErrorStack>,
    ) -> Result<(), CaseError> {
        let ctx = prepared(&mut self.op_ctx)?;
        let n = op(ctx, &mut self.out).map_err(|e| failed(what, e))?;
        black_box(&self.out[..n]);
        Ok(())
    }
}

fn prepared(op_ctx: &mut Option<PkeyCtx<Private>>) -> Result<&mut PkeyCtx<Private>, CaseError> {
    op_ctx
        .as_mut()
        .ok_or_else(|| CaseError::Failed("not prepared".into()))
}

/// Whether two key pairs derive the same, non-empty secret from each
/// other's public half.
fn both_sides_agree<T: openssl::pkey::HasPublic>(
    (a, a_pub): (&PKey<Private>, &PKey<T>),
    (b, b_pub): (&PKey<Private>, &PKey<T>),
) -> Result<bool, CaseError> {
    let ab = derive(a, b_pub)?;
    let ba = derive(b, a_pub)?;
    Ok(!ab.is_empty() && ab == ba)
}

fn derive<T: openssl::pkey::HasPublic>(
    ours: &PKey<Private>,
    theirs: &PKey<T>,
) -> Result<Vec<u8>, CaseError> {
    let mut d = Deriver::new(ours).map_err(|e| failed("EVP_PKEY_derive_init", e))?;
    d.set_peer(theirs)
        .map_err(|e| failed("EVP_PKEY_derive_set_peer", e))?;
    d.derive_to_vec().map_err(|e| failed("EVP_PKEY_derive", e))
}

/// OpenSSL on X25519, X448, Ed25519 or Ed448 (EVP only: these curves have no
/// `EC_KEY` form).
pub struct OsslEdx {
    kind: Kind,
    keygen_ctx: PkeyCtx<()>,
    key: PKey<Private>,
    peer: Option<PKey<Public>>,
    signature: Vec<u8>,
    out: Vec<u8>,
}

impl OsslEdx {
    /// Prepares one of the four curves for `op`.
    pub fn new(kind: Kind, op: Op) -> Result<Self, CaseError> {
        let key = generate(kind)?;
        // One context reused for every key, as for the EC curves' EVP path.
        let mut keygen_ctx = PkeyCtx::new_id(id_of(kind)).map_err(|e| failed("EVP context", e))?;
        keygen_ctx
            .keygen_init()
            .map_err(|e| failed("keygen_init", e))?;
        let mut me = Self {
            kind,
            keygen_ctx,
            key,
            peer: None,
            signature: Vec::new(),
            out: vec![0u8; 128],
        };
        if op == Op::Ecdh {
            let other = generate(kind)?;
            let raw = other
                .raw_public_key()
                .map_err(|e| failed("raw public", e))?;
            me.peer = Some(
                PKey::public_key_from_raw_bytes(&raw, id_of(kind))
                    .map_err(|e| failed("peer key", e))?,
            );
        }
        if op == Op::Verify {
            me.signature = sign_raw(&me.key, &crate::ops::DIGEST).map_err(|e| failed("sign", e))?;
        }
        Ok(me)
    }

    fn key_checks(&mut self) -> Vec<CheckResult> {
        let recomputed = each_fresh_key(
            "key: public = d*G (second path)",
            format!(
                "{CHECKED_KEYS} fresh keys recomputed by {}",
                crate::rc::edx_second_path(self.kind)
            ),
            |_| {
                let k = self.keygen_ctx.keygen()?;
                let d = k.raw_private_key()?;
                let q = k.raw_public_key()?;
                crate::rc::check_edx_key(self.kind, &d, &q)
            },
        );
        vec![crate::kat::openssl_known_answer(self.kind), recomputed]
    }
}

fn id_of(kind: Kind) -> Id {
    match kind {
        Kind::X25519 => Id::X25519,
        Kind::X448 => Id::X448,
        Kind::Ed25519 => Id::ED25519,
        _ => Id::ED448,
    }
}

fn generate(kind: Kind) -> Result<PKey<Private>, CaseError> {
    let key = match kind {
        Kind::X25519 => PKey::generate_x25519(),
        Kind::X448 => PKey::generate_x448(),
        Kind::Ed25519 => PKey::generate_ed25519(),
        Kind::Ed448 => PKey::generate_ed448(),
        Kind::Weierstrass(_) => {
            return Err(CaseError::Skipped("not an Edwards/Montgomery curve".into()))
        }
    };
    key.map_err(|e| failed("keygen", e))
}

/// Public key of a raw private key, through OpenSSL (used by the checks).
pub fn edx_public_from_private(kind: Kind, d: &[u8]) -> Result<Vec<u8>, KeyError> {
    Ok(PKey::private_key_from_raw_bytes(d, id_of(kind)).and_then(|k| k.raw_public_key())?)
}

/// EdDSA signature through OpenSSL (pure Ed25519/Ed448, no pre-hash).
pub fn sign_raw(key: &PKey<Private>, msg: &[u8]) -> Result<Vec<u8>, ErrorStack> {
    Signer::new_without_digest(key)?.sign_oneshot_to_vec(msg)
}

fn verify_raw<T: openssl::pkey::HasPublic>(key: &PKey<T>, msg: &[u8], sig: &[u8]) -> bool {
    Verifier::new_without_digest(key)
        .and_then(|mut v| v.verify_oneshot(sig, msg))
        .unwrap_or(false)
}

impl CurveOps for OsslEdx {
    fn keygen(&mut self) -> Result<(), CaseError> {
        black_box(
            self.keygen_ctx
                .keygen()
                .map_err(|e| failed("EVP_PKEY_keygen", e))?,
        );
        Ok(())
    }
    fn ecdh(&mut self) -> Result<(), CaseError> {
        let peer = self
            .peer
            .as_ref()
            .ok_or_else(|| CaseError::Failed("no peer".into()))?;
        let mut d = Deriver::new(&self.key).map_err(|e| failed("derive", e))?;
        d.set_peer(peer).map_err(|e| failed("set peer", e))?;
        let n = d.derive(&mut self.out).map_err(|e| failed("derive", e))?;
        black_box(&self.out[..n]);
        Ok(())
    }
    fn sign(&mut self) -> Result<(), CaseError> {
        let mut s = Signer::new_without_digest(&self.key).map_err(|e| failed("signer", e))?;
        let n = s
            .sign_oneshot(&mut self.out, black_box(&crate::ops::DIGEST))
            .map_err(|e| failed("sign", e))?;
        black_box(&self.out[..n]);
        Ok(())
    }
    fn verify(&mut self) -> Result<(), CaseError> {
        if !black_box(verify_raw(
            &self.key,
            black_box(&crate::ops::DIGEST),
            &self.signature,
        )) {
            return Err(CaseError::Failed("valid signature rejected".into()));
        }
        Ok(())
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        match op {
            Op::Keygen => self.key_checks(),
            Op::Ecdh => {
                let verdict = generate(self.kind)
                    .and_then(|a| Ok((a, generate(self.kind)?)))
                    .and_then(|(a, b)| both_sides_agree((&a, &a), (&b, &b)));
                vec![agreement_check(verdict)]
            }
            Op::Sign | Op::Verify => {
                let key = self.key.clone();
                let mut sign = |m: &[u8]| Ok(sign_raw(&key, m)?);
                let mut verify = |m: &[u8], s: &[u8]| verify_raw(&key, m, s);
                signature_checks(&mut sign, &mut verify)
            }
        }
    }
}
