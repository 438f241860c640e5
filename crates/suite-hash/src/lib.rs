//! The `hash` suite: SHA-256, SHA-512, SHA3-256 and BLAKE2b-512 through
//! OpenSSL and RustCrypto, 16 B to 16 KiB like `openssl speed`.
//!
//! It is the smallest suite that exercises the whole engine end to end:
//! known-answer vectors and cross-backend agreement before timing, a peer
//! (`openssl speed -evp`) in the same run, and a fidelity table that puts
//! both side by side. The timed operation is one complete digest (init,
//! update, final) of a message of the case's size; the message is filled
//! once per case, outside the timed region.
#![deny(missing_docs)]

mod algorithms;
pub mod backend;
pub mod cli;

pub use algorithms::{Algorithm, ALGORITHMS};
pub use backend::{Backend, DigestBackend, Digester};

use cryptobench_core::profile::no_view;
use cryptobench_core::{
    names, units, BackendInfo, Case, CaseError, CaseSpec, CheckResult, Error, Measurement, Offer,
    Paper, PlannedCase, RunConfig, Suite, SuiteProfile, Table,
};
use cryptobench_engine::build::peers;
use cryptobench_suite_common::openssl_lib;
use std::hint::black_box;

/// The default run's headline sizes: the smallest (per-call cost), 1 KiB
/// and the fidelity size, where throughput shows; every algorithm and
/// backend at each. The rest of `openssl speed`'s sweep is [`FULL_SIZES`].
pub const DEFAULT_SIZES: [u64; 3] = [16, 1024, FIDELITY_SIZE];
/// `--full` sizes: those of `openssl speed` (16 B .. 16 KiB).
pub const FULL_SIZES: [u64; 6] = [16, 64, 256, 1024, 8192, 16384];
/// `--quick` sizes: the smallest, a middle one and the fidelity size.
pub const QUICK_SIZES: [u64; 3] = [16, 1024, 16384];
/// The size at which fidelity against `openssl speed` is judged (issue target).
pub const FIDELITY_SIZE: u64 = 16384;
/// The algorithm compared with `openssl speed` when none is named: each
/// peer round is a one-second process, and a fidelity verdict takes five
/// rounds. `--full` and `--algorithms` compare every algorithm run.
const HEADLINE_PEER: &str = "SHA-256";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str =
    "SHA-256, SHA-512, SHA3-256, BLAKE2b-512 via OpenSSL and RustCrypto, 16 B .. 16 KiB";

/// The hash suite with its options.
#[derive(Debug, Clone, Default)]
pub struct HashSuite {
    /// Algorithms to run (canonical names); empty = all.
    pub algorithms: Vec<String>,
    /// Sizes; `None` = defaults.
    pub sizes: Option<Vec<u64>>,
    /// Leave out the `openssl speed` peer.
    pub no_peer: bool,
}

impl HashSuite {
    fn selected(&self) -> Result<Vec<&'static Algorithm>, Error> {
        let all: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
        if self.algorithms.is_empty() {
            return Ok(ALGORITHMS.iter().collect());
        }
        let mut out = Vec::new();
        for a in &self.algorithms {
            let name = names::resolve("hash algorithm", a, &all)?;
            out.push(
                ALGORITHMS
                    .iter()
                    .find(|x| x.name == name)
                    .expect("resolved name exists"),
            );
        }
        Ok(out)
    }
}

/// A prepared digest case: one message, one hasher.
struct DigestCase {
    alg: &'static Algorithm,
    backend: Backend,
    message: Vec<u8>,
    hasher: Box<dyn Digester>,
}

impl DigestCase {
    fn new(alg: &'static Algorithm, backend: Backend, size: usize) -> Result<Self, CaseError> {
        let mut message = cryptobench_core::input::zeroed(size)?;
        for (i, byte) in message.iter_mut().enumerate() {
            *byte = (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3];
        }
        let hasher = backend.build(alg)?;
        Ok(Self {
            alg,
            backend,
            message,
            hasher,
        })
    }
}

impl Case for DigestCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut out = Vec::new();
        for kat in self.alg.vectors {
            let got = hex::encode(self.hasher.digest(kat.message));
            out.push(CheckResult::from_bool(
                format!("kat:{}", kat.source),
                got == kat.digest,
                if got == kat.digest {
                    format!("{} bytes", kat.message.len())
                } else {
                    format!("expected {}, got {got}", kat.digest)
                },
            ));
        }
        // Agreement with every other backend on this case's own message.
        for &other in backend::all() {
            if other.name() == self.backend.name() || other.offers(self.alg) != Offer::Runs {
                continue;
            }
            match other.build(self.alg) {
                Ok(mut h) => {
                    let (a, b) = (self.hasher.digest(&self.message), h.digest(&self.message));
                    out.push(CheckResult::from_bool(
                        format!("agree:{}", other.name()),
                        a == b,
                        if a == b {
                            format!("{} bytes, same digest", self.message.len())
                        } else {
                            format!("{} vs {}", hex::encode(a), hex::encode(b))
                        },
                    ));
                }
                Err(e) => out.push(CheckResult::skipped(
                    format!("agree:{}", other.name()),
                    e.to_string(),
                )),
            }
        }
        out
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            black_box(self.hasher.digest(black_box(&self.message)));
        }
        Ok(())
    }
}

impl Suite for HashSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new("hash", ABOUT).views(fidelity_tables, fidelity_headline, no_view)
    }

    fn backends(&self) -> Vec<BackendInfo> {
        cryptobench_core::infos(backend::all())
    }

    fn primitives(&self) -> Vec<String> {
        ALGORITHMS.iter().map(|a| a.name.to_string()).collect()
    }

    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let algorithms = self.selected()?;
        let sizes = match &self.sizes {
            Some(s) => s.clone(),
            None if cfg.quick => QUICK_SIZES.to_vec(),
            None if cfg.full => FULL_SIZES.to_vec(),
            None => DEFAULT_SIZES.to_vec(),
        };
        let mut cases = Vec::new();
        for alg in &algorithms {
            for &backend in backend::all()
                .iter()
                .filter(|b| cfg.wants_backend(b.name()) && b.offers(alg) == Offer::Runs)
            {
                let version = backend.version();
                for &size in &sizes {
                    let spec =
                        CaseSpec::new("hash", alg.name, backend.name(), version.clone(), "digest")
                            .size(size)
                            .labels(alg.labels.iter().copied())
                            .threads(cfg.threads);
                    let alg: &'static Algorithm = alg;
                    cases.push(PlannedCase::ready(spec, move || {
                        Ok(Box::new(DigestCase::new(alg, backend, size as usize)?)
                            as Box<dyn Case>)
                    }));
                }
            }
            let peer_wanted =
                !self.no_peer && cfg.wants_backend(peers::OPENSSL_SPEED) && cfg.threads == 1;
            let peer_sizes: Vec<u64> = sizes
                .iter()
                .copied()
                .filter(|&s| s == FIDELITY_SIZE)
                .collect();
            let every = cfg.full || (!cfg.quick && !self.algorithms.is_empty());
            if peer_wanted && (every || alg.name == HEADLINE_PEER) {
                for size in peer_sizes {
                    cases.push(peers::openssl_speed_evp(
                        "hash",
                        alg.name,
                        alg.openssl_evp,
                        "digest",
                        size,
                    ));
                }
            }
        }
        Ok(cases)
    }
}

fn fidelity_tables(measurements: &[Measurement]) -> Vec<Table> {
    vec![fidelity_table(measurements)]
}

/// One line per fidelity row for the run summary.
fn fidelity_headline(measurements: &[Measurement]) -> Vec<String> {
    fidelity_table(measurements)
        .rows
        .iter()
        .map(|r| {
            let verdict = if r[5].is_empty() {
                String::new()
            } else {
                format!(": {}", r[5])
            };
            format!(
                "hash fidelity {} at {}: cryptobench/openssl speed = {} ({} vs {}){verdict}",
                r[0], r[1], r[4], r[2], r[3]
            )
        })
        .collect()
}

/// Ours (OpenSSL backend) against `openssl speed` at the same size.
pub fn fidelity_table(measurements: &[Measurement]) -> Table {
    let mut t = Table::new(
        "Fidelity: cryptobench's OpenSSL backend vs `openssl speed -evp` (same run, wall clock)",
        [
            "algorithm",
            "size",
            "cryptobench",
            "openssl speed",
            "ratio",
            "target",
        ],
    )
    .right(&[1, 2, 3, 4]);
    for peer in measurements
        .iter()
        .filter(|m| m.suite == "hash" && m.backend == peers::OPENSSL_SPEED)
    {
        let ours = measurements.iter().find(|m| {
            m.suite == "hash"
                && m.backend == openssl_lib::NAME
                && m.primitive == peer.primitive
                && m.input_bytes == peer.input_bytes
                && m.threads == 1
        });
        let Some(ours) = ours else {
            continue;
        };
        let (Some(a), Some(p)) = (ours.stats.as_ref(), peer.stats.as_ref()) else {
            continue;
        };
        let (Some(a), Some(b)) = (a.bytes_per_s, p.bytes_per_s) else {
            continue;
        };
        let ratio = a / b;
        // Two-sided, on the interval: faster than the peer's identical
        // calls is as wrong as slower.
        let target = if ALGORITHMS
            .iter()
            .any(|x| x.name == peer.primitive && x.fidelity_target)
        {
            cryptobench_core::paper::fidelity(cryptobench_core::verdict::speedup(ours, peer)).1
        } else {
            String::new()
        };
        t.row([
            peer.primitive.clone(),
            units::format_size(peer.input_bytes),
            units::format_rate(a),
            units::format_rate(b),
            format!("{ratio:.3}"),
            target,
        ]);
    }
    if t.rows.is_empty() {
        t.note("no openssl speed peer in this run (it runs at 16 KiB; see --sizes, --backend)");
    }
    t
}

/// The hash suite reproduces no seed experiment.
pub fn papers() -> Vec<Box<dyn Paper>> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::CheckOutcome;

    fn peers_planned(cfg: &RunConfig) -> Vec<String> {
        let cases = HashSuite::default().plan(cfg).unwrap();
        cases
            .iter()
            .filter(|c| c.spec.backend == peers::OPENSSL_SPEED)
            .map(|c| c.spec.primitive.clone())
            .collect()
    }

    /// A digest that hashes something else: what a broken backend looks like.
    struct Misdigests(Box<dyn Digester>);

    impl Digester for Misdigests {
        fn digest(&mut self, data: &[u8]) -> Vec<u8> {
            let mut altered = data.to_vec();
            altered.push(0);
            self.0.digest(&altered)
        }
    }

    fn case(alg: &'static Algorithm, backend: Backend, hasher: Box<dyn Digester>) -> DigestCase {
        DigestCase {
            alg,
            backend,
            message: vec![7; 100],
            hasher,
        }
    }

    #[test]
    fn a_wrong_digest_fails_the_known_answers_and_the_agreement() {
        for alg in &ALGORITHMS {
            for &b in backend::all() {
                let broken = Box::new(Misdigests(b.build(alg).unwrap()));
                let checks = case(alg, b, broken).checks();
                assert!(!checks.is_empty());
                for c in &checks {
                    assert_eq!(
                        c.outcome,
                        CheckOutcome::Fail,
                        "{} {}: {c:?}",
                        alg.name,
                        b.name()
                    );
                }
                let kat = &checks[0];
                assert!(
                    kat.detail
                        .starts_with(&format!("expected {}, got ", alg.vectors[0].digest)),
                    "{}",
                    kat.detail
                );
            }
        }
    }

    #[test]
    fn only_named_algorithms_or_full_add_peers_beside_sha256() {
        assert_eq!(peers_planned(&RunConfig::quick()), [HEADLINE_PEER]);
        assert_eq!(peers_planned(&RunConfig::default()), [HEADLINE_PEER]);
        let full = RunConfig {
            full: true,
            ..RunConfig::default()
        };
        assert_eq!(peers_planned(&full).len(), ALGORITHMS.len());
        let named = HashSuite {
            algorithms: vec!["SHA-256".into(), "SHA-512".into()],
            ..HashSuite::default()
        };
        let peers: Vec<String> = named
            .plan(&RunConfig::default())
            .unwrap()
            .iter()
            .filter(|c| c.spec.backend == peers::OPENSSL_SPEED)
            .map(|c| c.spec.primitive.clone())
            .collect();
        assert_eq!(peers, ["SHA-256", "SHA-512"]);
    }

    #[test]
    fn the_default_run_has_the_headline_sizes_and_full_openssl_speeds_sweep() {
        let sizes = |cfg: &RunConfig| -> std::collections::BTreeSet<u64> {
            HashSuite::default()
                .plan(cfg)
                .unwrap()
                .iter()
                .map(|c| c.spec.input_bytes)
                .collect()
        };
        assert_eq!(
            sizes(&RunConfig::default()),
            DEFAULT_SIZES.into_iter().collect()
        );
        let full = RunConfig {
            full: true,
            ..RunConfig::default()
        };
        assert_eq!(sizes(&full), FULL_SIZES.into_iter().collect());
    }
}
