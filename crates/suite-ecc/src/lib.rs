//! The ecc suite: key generation on every named curve this OpenSSL offers,
//! plus X25519, X448, Ed25519 and Ed448, in OpenSSL, RustCrypto and
//! libsodium; ECDH, ECDSA and EdDSA on request.
//!
//! It reproduces the first half of seed 000 (Duka, "Elliptic-curve
//! cryptography (ECC) and Argon2 algorithm in PHP using OpenSSL and Sodium
//! libraries", IAPGOS 2020, doi:10.35784/iapgos.897): the time to generate
//! 100 keys per curve, the paper's "ratio", the family averages of its Fig. 1
//! and the most efficient curve per key-length band of its Table 11.
//!
//! # Why the curve list is read at run time
//! The seed measured the 72 curves PHP 7.2 listed. OpenSSL 3.0 lists 88, a
//! build without binary curves fewer; [`curves::catalogue`] asks
//! `EC_get_builtin_curves` and generates one key per curve, so a curve listed
//! but unusable is reported as "unsupported: reason" instead of crashing.
//!
//! # Correct before timed
//! Before a curve is timed, fresh keys are checked: the public point is on
//! the curve, n*Q = O, and Q = d*G recomputed through a second path
//! (RustCrypto for P-256/P-384/P-521/secp256k1, the dalek crates for the
//! 25519 curves, otherwise OpenSSL's generic `EC_POINT_mul`). Known-answer
//! key pairs (RFC 7748, RFC 8032, RFC 6979) gate every backend of the curves
//! they cover, and a deliberately corrupted key must be refused, proving the
//! check can fail. ECDH cases check that both sides agree; sign and verify
//! cases that a signature verifies and a flipped bit does not.
//!
//! # The seed's ratio is not a cost per bit of security
//! The paper divides the average time of one key generation by the key
//! length (the field size in bits) and prints it in percent: 2.85 ms / 256
//! bits = 1.11 % for prime256v1. That ratio rewards large curves twice over
//! and mixes unlike things: (1) a scalar multiplication costs roughly
//! O(bits^2) to O(bits^3), so time per bit still grows with the curve and
//! the ratio favours neither small nor large curves on principle; (2) the
//! security of a curve is about half its order size (Pollard rho needs
//! sqrt(n) steps), not its field size, so binary curves with cofactor 2 or 4
//! and Koblitz curves carry fewer security bits per key bit than the ratio
//! suggests; (3) the unit "ms per bit" is not a cost per security bit at all.
//! The suite therefore shows both the seed's ratio and the time per bit of
//! security (`time / (order bits / 2)`), and ranks winners by each.

#![deny(missing_docs)]

pub mod backend;
mod charts;
pub mod cli;
pub mod curves;
pub mod kat;
pub mod ops;
pub mod ossl;
pub mod paper;
pub mod rc;
pub mod sodium;
pub mod summary;

use crate::backend::Backend;
use crate::curves::{Curve, Family};
use crate::ops::{CurveOps, EccCase, Op};
use crate::ossl::Api;
use cryptobench_core::profile::no_view;
use cryptobench_core::{
    BackendInfo, CaseError, CaseSpec, Error, Offer, Paper, PlannedCase, RunConfig, Suite,
    SuiteProfile,
};

/// Suite name.
pub const SUITE: &str = "ecc";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "EC key generation on every named curve (seed 000), ECDH, ECDSA, EdDSA";

/// Curves whose EVP key-generation path is measured by default beside the
/// EC_KEY path (every curve with `--full` or `--api evp,ec_key`): the NIST
/// prime curves, secp256k1, a Brainpool and the largest binary curve.
pub const EVP_DEFAULT_CURVES: [&str; 6] = [
    "prime256v1",
    "secp384r1",
    "secp521r1",
    "secp256k1",
    "brainpoolP256r1",
    "sect571r1",
];

/// The default run's curves: the standard candidates at each security
/// level (NIST P-224 to P-521, secp256k1, Brainpool r1 224-512, X25519,
/// X448, Ed25519, Ed448, SM2) and two binary curves (K-283, B-571) so the
/// prime/binary contrast stays in view. The other 76 curves (the SECG and
/// X9.62 variants, the WAP/WTLS and Oakley curves, the small and binary
/// families the seed swept) are the seed's experiment: `cryptobench ecc`,
/// `paper ecc-keygen` and `run --full` time every curve.
pub const HEADLINE_CURVES: [&str; 16] = [
    "secp224r1",
    "prime256v1",
    "secp384r1",
    "secp521r1",
    "secp256k1",
    "brainpoolP224r1",
    "brainpoolP256r1",
    "brainpoolP384r1",
    "brainpoolP512r1",
    "X25519",
    "X448",
    "Ed25519",
    "Ed448",
    "SM2",
    "sect283k1",
    "sect571r1",
];

/// The ecc suite, configured by `cryptobench ecc` options.
#[derive(Debug, Clone, Default)]
pub struct EccSuite {
    /// Curve names (canonical OpenSSL names); `None` = every curve, or
    /// [`HEADLINE_CURVES`] in a default run (see `every_curve`).
    pub curves: Option<Vec<String>>,
    /// Families to keep; `None` = all.
    pub families: Option<Vec<Family>>,
    /// Operations; empty = key generation only (the seed's experiment).
    pub operations: Vec<Op>,
    /// Keys per timed sample (`--keys`); `None`: calibrated like any batch
    /// (a fixed batch is timed as a slow operation, a few samples of one
    /// batch each, which left 100-key batches of 0.75 ms keys at 5 samples
    /// and +-10-40% intervals; `paper ecc-keygen --method seed` keeps the
    /// seed's 100).
    pub keys: Option<u64>,
    /// OpenSSL key-generation APIs; `None` = EC_KEY everywhere, EVP on
    /// [`EVP_DEFAULT_CURVES`] (every curve with `--full`).
    pub apis: Option<Vec<Api>>,
    /// Without `curves` or `families`: every curve (the seed's experiment)
    /// rather than [`HEADLINE_CURVES`]. `--full` always takes every curve.
    pub every_curve: bool,
}

impl EccSuite {
    /// The seed's experiment: key generation on every curve.
    pub fn seed() -> Self {
        Self {
            every_curve: true,
            ..Self::default()
        }
    }

    fn selected(&self, cfg: &RunConfig) -> Vec<&'static Curve> {
        let headline =
            self.curves.is_none() && self.families.is_none() && !self.every_curve && !cfg.full;
        curves::catalogue()
            .iter()
            .filter(|c| self.curves.as_ref().is_none_or(|l| l.contains(&c.name)))
            .filter(|c| self.families.as_ref().is_none_or(|f| f.contains(&c.family)))
            .filter(|c| !headline || HEADLINE_CURVES.contains(&c.name.as_str()))
            .collect()
    }

    fn operations(&self) -> Vec<Op> {
        if self.operations.is_empty() {
            vec![Op::Keygen]
        } else {
            self.operations.clone()
        }
    }

    fn keygen_apis(&self, curve: &Curve, cfg: &RunConfig) -> Vec<Api> {
        match &self.apis {
            Some(list) => list.clone(),
            None if cfg.full || EVP_DEFAULT_CURVES.contains(&curve.name.as_str()) => {
                vec![Api::EcKey, Api::Evp]
            }
            None => vec![Api::EcKey],
        }
    }

    /// `openssl speed` in the same run: ecdsap256 signatures for the
    /// fidelity ratio of P-256 key generation, and the peers of the
    /// operations requested.
    fn peers(&self, cfg: &RunConfig) -> Vec<PlannedCase> {
        use cryptobench_engine::build::peers::{openssl_speed_alg, SpeedLine, OPENSSL_SPEED};
        // Each `openssl speed` sample is a 2 s process (sign and verify)
        // and a fidelity verdict takes five: only `--full` or a
        // `--backend` naming the peer gets it (the public-key suite's
        // default run compares ECDSA P-256 signing with it).
        let named = cfg
            .backends
            .as_ref()
            .is_some_and(|_| cfg.wants_backend(OPENSSL_SPEED));
        if !cfg.full && !named {
            return Vec::new();
        }
        if !(cfg.wants_backend(OPENSSL_SPEED) || cfg.wants_backend("openssl")) {
            return Vec::new();
        }
        let chosen: Vec<&str> = self.selected(cfg).iter().map(|c| c.name.as_str()).collect();
        let ops = self.operations();
        let wants = |op: Op| ops.contains(&op);
        let mut out = Vec::new();
        let mut peer = |curve: &str, alg: &str, op: Op, line: SpeedLine| {
            if chosen.contains(&curve) {
                out.push(openssl_speed_alg(SUITE, curve, alg, op.name(), line));
            }
        };
        if wants(Op::Keygen) || wants(Op::Sign) {
            peer("prime256v1", "ecdsap256", Op::Sign, SpeedLine::EcdsaSign);
        }
        if wants(Op::Verify) {
            peer(
                "prime256v1",
                "ecdsap256",
                Op::Verify,
                SpeedLine::EcdsaVerify,
            );
        }
        if wants(Op::Ecdh) {
            peer("prime256v1", "ecdhp256", Op::Ecdh, SpeedLine::Ecdh);
            peer("X25519", "ecdhx25519", Op::Ecdh, SpeedLine::Ecdh);
        }
        if wants(Op::Sign) {
            peer("Ed25519", "ed25519", Op::Sign, SpeedLine::EddsaSign);
        }
        if wants(Op::Verify) {
            peer("Ed25519", "ed25519", Op::Verify, SpeedLine::EddsaVerify);
        }
        out
    }

    fn spec(&self, curve: &Curve, backend: &str, version: &str, op: Op) -> CaseSpec {
        CaseSpec::new(SUITE, curve.name.clone(), backend, version, op.name())
            .param("family", curve.family.name())
            .param("key_bits", curve.key_bits)
            .param("security_bits", curve.security_bits())
            .labels(curve.labels())
            .size(if op == Op::Ecdh || op == Op::Keygen {
                0
            } else {
                32
            })
    }
}

/// Why an operation does not exist on a curve, if it does not.
fn op_unsupported(curve: &Curve, op: Op) -> Option<String> {
    match (curve.kind, op) {
        (k, Op::Sign | Op::Verify) if k.is_montgomery() => Some(format!(
            "{} is a key-agreement curve: no signatures",
            curve.name
        )),
        // OpenSSL's own description of Oakley-EC2N-3/4 says so.
        (_, Op::Sign | Op::Verify) if curve.comment.contains("Not suitable for ECDSA") => {
            Some(format!(
                "unsupported: OpenSSL lists {} as \"Not suitable for ECDSA\"",
                curve.name
            ))
        }
        (k, Op::Ecdh) if k.is_edwards() => Some(format!(
            "{} is a signature curve: no key agreement",
            curve.name
        )),
        _ => None,
    }
}

fn planned(
    spec: CaseSpec,
    op: Op,
    per_sample: Option<u64>,
    build: impl Fn() -> Result<Box<dyn CurveOps>, CaseError> + Send + Sync + 'static,
) -> PlannedCase {
    PlannedCase::ready(spec, move || {
        Ok(Box::new(EccCase::new(build()?, op, per_sample)) as Box<dyn cryptobench_core::Case>)
    })
}

impl Suite for EccSuite {
    // No headline of its own: the curve advice weighs the pubkey suite's
    // cases too, so the run summary makes it once over the whole run.
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(summary::tables, no_view, charts::charts)
    }
    fn backends(&self) -> Vec<BackendInfo> {
        cryptobench_core::infos(backend::all())
    }
    fn primitives(&self) -> Vec<String> {
        curves::catalogue().iter().map(|c| c.name.clone()).collect()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        if self.keys == Some(0) {
            return Err(Error::usage(
                "--keys must be at least 1 (the seed used 100)",
            ));
        }
        let backends: Vec<(Backend, String)> = backend::all()
            .iter()
            .filter(|b| cfg.wants_backend(b.name()))
            .map(|&b| (b, b.version()))
            .collect();
        let first = backend::all()[0];
        let first_version = first.version();
        let mut plan = Vec::new();
        for curve in self.selected(cfg) {
            for op in self.operations() {
                let per_sample = self.keys.filter(|_| op == Op::Keygen);
                if let Some(why) = op_unsupported(curve, op) {
                    let spec = self.spec(curve, first.name(), &first_version, op);
                    plan.push(PlannedCase::unavailable(spec, why));
                    continue;
                }
                let keygen_apis = self.keygen_apis(curve, cfg);
                for &(backend, ref version) in &backends {
                    let offer = backend.offers(curve, op);
                    if offer == Offer::NotOffered {
                        continue;
                    }
                    for api in backend.apis(curve, op, &keygen_apis) {
                        let mut spec = self.spec(curve, backend.name(), version, op);
                        if let Some(api) = api {
                            spec = spec.param("api", api.name());
                        }
                        match &offer {
                            Offer::Unavailable(why) => {
                                plan.push(PlannedCase::unavailable(spec, why.clone()))
                            }
                            _ => plan.push(planned(spec, op, per_sample, move || {
                                backend.build(curve, op, api)
                            })),
                        }
                    }
                }
            }
        }
        plan.extend(self.peers(cfg));
        Ok(plan)
    }
}

/// Seed experiments this suite reproduces: `ecc-keygen` (seed 000, Tables
/// 3-8 and 11, Fig. 1).
pub fn papers() -> Vec<Box<dyn Paper>> {
    vec![Box::new(paper::EccKeygenPaper)]
}
