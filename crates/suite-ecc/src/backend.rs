//! The ECC libraries: one [`EccBackend`] per library (key generation, key
//! agreement and signatures on its curves), listed once in [`all`]. The
//! planner asks each what it offers per curve and operation and builds the
//! prepared [`CurveOps`] through it, so a new library is one module plus
//! one line in [`all`].

use crate::curves::{Curve, Kind};
use crate::ops::{CurveOps, Op};
use crate::ossl::Api;
use crate::{ossl, rc, sodium};
use cryptobench_core::{Availability, CaseError, Library, Offer};
use cryptobench_suite_common::rustcrypto::RustCrypto;

/// One ECC library.
pub trait EccBackend: Library {
    /// What it does with `op` on `curve`.
    fn offers(&self, curve: &Curve, op: Op) -> Offer;
    /// The API variants one cell is measured under (OpenSSL's two ways of
    /// generating Weierstrass keys); `keygen_apis` is what the run asks for.
    /// `None`: the library has one way, and the case carries no `api`.
    fn apis(&self, _curve: &Curve, _op: Op, _keygen_apis: &[Api]) -> Vec<Option<Api>> {
        vec![None]
    }
    /// `op` on `curve`, prepared (keys, peer key, signature).
    fn build(
        &self,
        curve: &'static Curve,
        op: Op,
        api: Option<Api>,
    ) -> Result<Box<dyn CurveOps>, CaseError>;
}

/// A registered backend.
pub type Backend = &'static dyn EccBackend;

/// Every backend, in table order (the first one files the rows of an
/// operation a curve does not have at all).
pub fn all() -> &'static [Backend] {
    &[&OpenSsl, &RUST_CRYPTO, &Sodium]
}

/// OpenSSL: every named curve it lists, EC_KEY and EVP.
use cryptobench_suite_common::openssl_lib::OpenSsl;

impl EccBackend for OpenSsl {
    fn offers(&self, curve: &Curve, _op: Op) -> Offer {
        match &curve.unsupported {
            Some(why) => Offer::Unavailable(why.clone()),
            None => Offer::Runs,
        }
    }

    fn apis(&self, curve: &Curve, op: Op, keygen_apis: &[Api]) -> Vec<Option<Api>> {
        match curve.kind {
            Kind::Weierstrass(_) if op == Op::Keygen => {
                keygen_apis.iter().copied().map(Some).collect()
            }
            _ => vec![Some(Api::Evp)],
        }
    }

    fn build(
        &self,
        curve: &'static Curve,
        op: Op,
        api: Option<Api>,
    ) -> Result<Box<dyn CurveOps>, CaseError> {
        Ok(match curve.kind {
            Kind::Weierstrass(_) => {
                Box::new(ossl::OsslEc::new(curve, api.unwrap_or(Api::Evp), op)?)
            }
            kind => Box::new(ossl::OsslEdx::new(kind, op)?),
        })
    }
}

/// RustCrypto's curve crates and the dalek crates.
const RUST_CRYPTO: RustCrypto = RustCrypto::new(&rc::CRATES);

impl EccBackend for RustCrypto {
    fn offers(&self, curve: &Curve, op: Op) -> Offer {
        if !rc::CURVES.contains(&curve.name.as_str()) {
            return Offer::NotOffered;
        }
        match rc::unsupported(&curve.name, op) {
            Some(why) => Offer::Unavailable(why),
            None => Offer::Runs,
        }
    }

    fn build(
        &self,
        curve: &'static Curve,
        op: Op,
        _api: Option<Api>,
    ) -> Result<Box<dyn CurveOps>, CaseError> {
        rc::ops_for(curve, op)
    }
}

/// libsodium: Ed25519 and X25519.
use cryptobench_suite_common::sodium::Sodium;

impl EccBackend for Sodium {
    fn offers(&self, curve: &Curve, _op: Op) -> Offer {
        if !matches!(curve.kind, Kind::Ed25519 | Kind::X25519) {
            return Offer::NotOffered;
        }
        match self.availability() {
            Availability::Available => Offer::Runs,
            Availability::Unavailable(why) => Offer::Unavailable(why),
        }
    }

    fn build(
        &self,
        curve: &'static Curve,
        _op: Op,
        _api: Option<Api>,
    ) -> Result<Box<dyn CurveOps>, CaseError> {
        Ok(match curve.kind {
            Kind::Ed25519 => Box::new(sodium::SodiumEd25519::new()?),
            _ => Box::new(sodium::SodiumX25519::new()?),
        })
    }
}
