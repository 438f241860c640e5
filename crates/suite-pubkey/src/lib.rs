//! The `pubkey` suite: key encapsulation, key agreement and signatures for
//! the post-quantum transition, and what a TLS 1.3 handshake costs.
//!
//! Seed 000 asked which curve to use next to RSA; the same question now is
//! which key share and which signature to deploy as TLS moves to
//! X25519MLKEM768 and ML-DSA. The suite measures every parameter set
//! ([`algorithms`]) on every library that has it ([`engines`]: one trait per
//! family, one registry list each; [`backend`]: one file per library;
//! [`hybrid`]: the TLS hybrid composed over any ML-KEM-768), after the
//! checks of [`checks`] and [`vectors`] pass. [`case`] states what each
//! timed region holds; [`handshake`] turns the cells into the cost of a
//! handshake; [`table1`] measures seed 000's NIST key-length table;
//! [`files`] and [`cli`] are the `pubkey` subcommand.
#![deny(missing_docs)]

pub mod algorithms;
pub mod backend;
pub mod case;
mod charts;
pub mod checks;
pub mod cli;
pub mod engines;
pub mod error;
pub mod files;
pub mod handshake;
pub mod hybrid;
pub mod keys;
mod peers;
pub mod summary;
pub mod table1;
pub mod vectors;

use algorithms::{Algorithm, Kind, ALGORITHMS, KEYGEN};
use case::PubkeyCase;
use checks::CheckCache;
use cryptobench_core::model::LABEL_WORK_VARIES;
use cryptobench_core::{
    BackendInfo, CaseSpec, Error, PlannedCase, RunConfig, Setup, Suite, SuiteProfile,
};
use error::PkError;
use std::sync::Arc;

/// Suite name on the command line and in results.
pub const SUITE: &str = "pubkey";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "public key: ML-KEM, X25519MLKEM768, ECDH, ML-DSA, SLH-DSA, EdDSA, ECDSA, RSA across OpenSSL, aws-lc-rs, liboqs, RustCrypto, libcrux; TLS 1.3 handshake cost";

/// The headline cells (`run --quick`): the handshake's key shares and
/// signatures, with the operations a TLS server performs.
pub const HEADLINE: &[(&str, &[&str])] = &[
    ("ML-KEM-768", &["keygen", "encaps", "decaps"]),
    ("X25519MLKEM768", &["encaps"]),
    ("X25519", &["keygen", "derive"]),
    ("ECDH-P256", &["keygen", "derive"]),
    ("ML-DSA-44", &["sign"]),
    ("ML-DSA-65", &["sign", "verify"]),
    ("Ed25519", &["sign", "verify"]),
    ("ECDSA-P256", &["sign", "verify"]),
    ("RSA-2048-PKCS1", &["sign", "verify"]),
    ("RSA-2048-PSS", &["sign"]),
    // The other curve families on their use, so the curve advice of the
    // 192- and 256-bit levels weighs agreement + sign + verify, not keygen.
    ("ECDH-P384", &["derive"]),
    ("ECDSA-P384", &["sign", "verify"]),
    ("ECDH-P521", &["derive"]),
    ("ECDSA-P521", &["sign", "verify"]),
    ("X448", &["derive"]),
    ("Ed448", &["sign", "verify"]),
];

/// Options of one benchmark (from `cryptobench pubkey` flags).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Sets to run; `None` = the default grid (the headline cells when quick).
    pub algorithms: Option<Vec<&'static Algorithm>>,
    /// Operations to keep; `None` = every operation of each set.
    pub operations: Option<Vec<&'static str>>,
    /// Leave out the `openssl speed` peers.
    pub no_peers: bool,
}

/// The pubkey suite.
#[derive(Debug, Clone, Default)]
pub struct PubkeySuite {
    /// What to run.
    pub options: Options,
}

impl PubkeySuite {
    /// A suite with these options.
    pub fn new(options: Options) -> Self {
        Self { options }
    }

    /// (set, operations) to plan.
    fn grid(&self, cfg: &RunConfig) -> Vec<(&'static Algorithm, Vec<&'static str>)> {
        let keep = |ops: &[&'static str]| -> Vec<&'static str> {
            ops.iter()
                .copied()
                .filter(|o| {
                    self.options
                        .operations
                        .as_ref()
                        .is_none_or(|k| k.contains(o))
                })
                .collect()
        };
        let grid: Vec<(&'static Algorithm, Vec<&'static str>)> = match &self.options.algorithms {
            Some(list) => list.iter().map(|a| (*a, keep(a.operations()))).collect(),
            None if cfg.quick => HEADLINE
                .iter()
                .filter_map(|(n, ops)| Some((algorithms::by_name(n)?, keep(ops))))
                .collect(),
            // The default run: every default set, operation and backend,
            // except RSA key generation above 2048 bits: one key takes
            // seconds and its time follows the random prime search, so the
            // few calls a run can afford give no interval worth the minute
            // they cost. `--full` and `pubkey --algorithms` time it.
            None => ALGORITHMS
                .iter()
                .filter(|a| a.default || cfg.full)
                .map(|a| {
                    let mut ops = keep(a.operations());
                    if !cfg.full && a.rsa_bits().is_some_and(|b| b > 2048) {
                        ops.retain(|o| *o != KEYGEN);
                    }
                    (a, ops)
                })
                .collect(),
        };
        grid.into_iter()
            .filter(|(_, ops)| !ops.is_empty())
            .collect()
    }
}

/// The backend a `--backend` filter sees: a composite hybrid
/// (`libcrux+rustcrypto`) answers to its ML-KEM library.
pub fn wanted(cfg: &RunConfig, backend: &str) -> bool {
    cfg.wants_backend(backend)
        || backend
            .split('+')
            .next()
            .is_some_and(|b| cfg.wants_backend(b))
}

/// Every (backend, version, unavailable reason) of a set, registry order.
pub fn entries(alg: &Algorithm) -> Vec<(&'static str, String, Option<String>)> {
    let row = |b: &'static str, v: String, a: Result<(), PkError>| {
        (b, v, a.err().map(PkError::into_reason))
    };
    match alg.kind {
        Kind::Kem => engines::kems()
            .iter()
            .filter(|e| e.algorithm().name == alg.name)
            .map(|e| row(e.backend(), e.version(), e.available()))
            .collect(),
        Kind::Agreement => engines::agreements()
            .iter()
            .filter(|e| e.algorithm().name == alg.name)
            .map(|e| row(e.backend(), e.version(), e.available()))
            .collect(),
        Kind::Signature => engines::signers()
            .iter()
            .filter(|e| e.algorithm().name == alg.name)
            .map(|e| row(e.backend(), e.version(), e.available()))
            .collect(),
    }
}

/// A rough time of one operation (ns), for the ETA only.
fn expected_ns(alg: &Algorithm, op: &str) -> f64 {
    let rsa = alg.rsa_bits().map(|b| b as f64 / 2048.0);
    match (rsa, op, alg.name) {
        (Some(r), KEYGEN, _) => 1e8 * r.powi(4),
        (Some(r), "sign", _) => 1e6 * r.powi(3),
        (Some(r), _, _) => 3e4 * r.powi(2),
        (None, "sign", n) if n.ends_with("128s") => 3e8,
        (None, "sign", n) if n.ends_with("128f") => 2e7,
        (None, KEYGEN, n) if n.ends_with("128s") => 1e8,
        (None, _, n) if n.starts_with("SLH") => 1e6,
        _ => 1e5,
    }
}

/// A case to build when the engine reaches it, sharing the run's checks.
fn ready(
    spec: CaseSpec,
    alg: &'static Algorithm,
    backend: &str,
    op: &'static str,
    cache: &Arc<CheckCache>,
) -> PlannedCase {
    let cache = cache.clone();
    let backend = backend.to_string();
    PlannedCase::ready(spec, move || {
        Ok(Box::new(PubkeyCase::new(alg, &backend, op, cache.clone())?))
    })
}

/// The comparison group of `primitive`'s `op` cases: the curve families
/// of one security level share one per operation
/// ([`cryptobench_core::advice::curve_level_of`]), so the curve advice
/// weighs X25519 against ECDH-P256 on ratios of the same rounds; the
/// hybrid key share's encapsulation joins X25519's derive
/// ([`cryptobench_core::advice::KEY_SHARE_PARTNER`]), which the key-share
/// advice weighs it against; any other primitive has its own, its backends
/// and peers side by side.
pub(crate) fn group_key(primitive: &str, op: &str) -> String {
    let (primitive, op) = grouped_as(primitive, op);
    match cryptobench_core::advice::curve_level_of(primitive) {
        Some(level) => format!("{SUITE}/{level} curves/{op}"),
        None => format!("{SUITE}/{primitive}/{op}"),
    }
}

/// The case whose comparison group `primitive`'s `op` joins: X25519's
/// derive for the hybrid key share's encapsulation, itself otherwise.
fn grouped_as<'a>(primitive: &'a str, op: &'a str) -> (&'a str, &'a str) {
    if (primitive, op) == (hybrid::NAME, algorithms::ENCAPS) {
        cryptobench_core::advice::KEY_SHARE_PARTNER
    } else {
        (primitive, op)
    }
}

/// The rounds a case samples at least ([`CaseSpec::min_rounds`]): the
/// advice's for the cases the curve and key-share advice decide on (every
/// case of a curve level's groups), the engine's own for the rest.
fn advice_rounds(primitive: &str, op: &str) -> usize {
    let (primitive, _) = grouped_as(primitive, op);
    if cryptobench_core::advice::curve_level_of(primitive).is_some() {
        cryptobench_core::advice::ADVICE_ROUNDS
    } else {
        0
    }
}

impl Suite for PubkeySuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(summary::tables, summary::headline, charts::charts)
    }

    fn backends(&self) -> Vec<BackendInfo> {
        let mut out: Vec<BackendInfo> = Vec::new();
        for alg in ALGORITHMS {
            for (name, version, _) in entries(alg) {
                if !out.iter().any(|b| b.name == name) {
                    out.push(BackendInfo {
                        name: name.into(),
                        version,
                        unavailable: None,
                    });
                }
            }
        }
        out.push(BackendInfo {
            name: cryptobench_engine::build::peers::OPENSSL_SPEED.into(),
            version: cryptobench_engine::build::peers::openssl_cli_version().unwrap_or_default(),
            unavailable: cryptobench_engine::build::peers::openssl_cli_version()
                .err()
                .map(|e| e.to_string()),
        });
        out
    }

    fn primitives(&self) -> Vec<String> {
        ALGORITHMS.iter().map(|a| a.name.to_string()).collect()
    }

    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let cache = Arc::new(CheckCache::new());
        let mut plan = Vec::new();
        for (alg, ops) in self.grid(cfg) {
            for (backend, version, unavailable) in entries(alg) {
                if !wanted(cfg, backend) {
                    continue;
                }
                let spec = |op: &str| {
                    CaseSpec::new(SUITE, alg.name, backend, version.clone(), op)
                        .param("security", format!("{} bits", alg.security_bits))
                        .expect_ns(expected_ns(alg, op))
                        .group(group_key(alg.name, op))
                        .min_rounds(advice_rounds(alg.name, op))
                        .labels(alg.post_quantum.then_some("post-quantum"))
                        .labels(alg.work_varies(op).then_some(LABEL_WORK_VARIES))
                };
                if let Some(why) = unavailable {
                    plan.push(PlannedCase::unavailable(spec(ops[0]), why));
                    continue;
                }
                for &op in &ops {
                    if op == KEYGEN {
                        if let Some(why) = table1::rsa_keygen_over_budget(alg, backend, cfg) {
                            plan.push(PlannedCase::skipped(spec(op), why));
                            continue;
                        }
                    }
                    plan.push(ready(spec(op), alg, backend, op, &cache));
                }
            }
        }
        let any_native = plan.iter().any(|c| matches!(c.setup, Setup::Ready(_)));
        if !self.options.no_peers && any_native {
            let measured: Vec<(String, String)> = plan
                .iter()
                .filter(|c| c.spec.backend == backend::openssl::NAME)
                .map(|c| (c.spec.primitive.clone(), c.spec.operation.clone()))
                .collect();
            let named = self.options.algorithms.is_some();
            let peer_cases = peers::plan(cfg, named, &measured);
            for peer in &peer_cases {
                if let Some(like) = peers::like_for_like(&plan, peer) {
                    let alg = algorithms::by_name(&peer.spec.primitive).expect("a planned set");
                    let op = algorithms::SIGN_DIGEST;
                    plan.push(ready(like, alg, backend::openssl::NAME, op, &cache));
                }
            }
            plan.extend(peer_cases);
        }
        Ok(plan)
    }
}

#[cfg(test)]
mod tests;
