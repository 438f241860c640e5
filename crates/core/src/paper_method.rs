//! `paper --method seed`: the seeds' own counts and statistic beside ours.
//!
//! Our method samples each case until its median's 95% interval is within
//! `--precision` and pairs the cases a ratio compares. The seeds counted
//! instead: 100 keys per curve, 10 iterations, 50 runs of 1000 or 5000
//! loops, 100 x 20 MB, 10^6 x 1 KB, and reported arithmetic means. With
//! `--method seed` every case of the paper is timed as exactly that many
//! samples of that many operations (no calibration, no early stop, no
//! warm-up beyond the engine's one untimed batch), and each figure is the
//! mean per operation, with a normal-approximation 95% interval so verdicts
//! stay decided on intervals. A loop of 10^6 calls is taken as 100 samples
//! of 10^4: the mean of all calls is the same.

use crate::model::{BackendInfo, CheckResult, Measurement};
use crate::names;
use crate::profile::SuiteProfile;
use crate::suite::{
    BatchTime, Budget, Case, CaseFactory, CaseSpec, PlannedCase, RunConfig, Setup, Suite,
};
use crate::{CaseError, Error};
use std::sync::Arc;
use std::time::Duration;

/// How `paper` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Adaptive precision, paired groups, medians (the default).
    #[default]
    Ours,
    /// The seed's own counts and arithmetic means.
    Seed,
}

impl Method {
    /// Names accepted by `--method`.
    pub const NAMES: [&'static str; 2] = ["ours", "seed"];

    /// Parses `--method` (case-insensitive, with "did you mean").
    pub fn parse(text: &str) -> Result<Self, Error> {
        match names::resolve("method", text, &Self::NAMES)? {
            "seed" => Ok(Method::Seed),
            _ => Ok(Method::Ours),
        }
    }
}

/// What a seed counted, for `--method seed`.
#[derive(Clone, Copy)]
pub struct SeedCounts {
    /// The seed's words ("50 runs x 1000 and 5000 loops, means").
    pub stated: &'static str,
    /// Samples per case (the seed's runs, iterations or keys).
    pub runs: usize,
    /// Operations per sample of a case; several values plan the case once
    /// per value (seed 001 published 1000- and 5000-loop columns).
    pub loops: fn(&CaseSpec) -> Vec<u64>,
}

impl SeedCounts {
    /// `runs` samples of one operation each (the seeds that timed single
    /// calls: keys, iterations, runs).
    pub fn one_call_per_run(stated: &'static str, runs: usize) -> Self {
        Self {
            stated,
            runs,
            loops: |_| vec![1],
        }
    }
}

/// `--quick` divides the seed's runs and loops by this.
pub const QUICK_DIVISOR: u64 = 10;

/// Fewest samples kept under `--quick`, so an interval exists.
const QUICK_MIN_RUNS: usize = 3;

impl SeedCounts {
    /// Runs for this configuration (scaled down under `--quick`).
    pub fn runs_for(&self, cfg: &RunConfig) -> usize {
        if cfg.quick {
            (self.runs / QUICK_DIVISOR as usize).max(QUICK_MIN_RUNS)
        } else {
            self.runs
        }
    }

    /// Loops of a case for this configuration.
    pub fn loops_for(&self, spec: &CaseSpec, cfg: &RunConfig) -> Vec<u64> {
        let mut out: Vec<u64> = (self.loops)(spec)
            .into_iter()
            .map(|l| {
                if cfg.quick {
                    (l / QUICK_DIVISOR).max(1)
                } else {
                    l.max(1)
                }
            })
            .collect();
        out.dedup();
        out
    }

    /// The line printed above the paper's tables.
    pub fn describe(&self, cfg: &RunConfig) -> String {
        let scaled = if cfg.quick {
            format!(
                "; --quick: runs and loops divided by {QUICK_DIVISOR} ({} runs per case), so these are not the seed's full counts",
                self.runs_for(cfg)
            )
        } else {
            String::new()
        };
        format!(
            "method: seed (the seed's counts: {}; every 'here' figure is an arithmetic mean per operation, interval mean +- 1.96 sd/sqrt(runs){scaled})",
            self.stated
        )
    }
}

/// The line printed above the paper's tables for our method.
pub const OURS_DESCRIBED: &str = "method: ours (adaptive precision, paired comparison groups, medians with bootstrap 95% intervals; `--method seed` for the seed's own counts and means)";

/// The engine budget for exactly `runs` samples per case: nothing stops a
/// case early (precision 0), and the time budget is spent at once, so every
/// case stops at its floor of `runs` fixed-loop samples.
pub fn seed_budget(runs: usize) -> Budget {
    Budget {
        min_sample: Duration::ZERO,
        samples: runs,
        time_per_case: Duration::ZERO,
        warmup: Duration::ZERO,
        min_slow_samples: runs,
        peer_rounds: runs,
        precision: 0.0,
        measuring_limit: None,
        decision_edges: Vec::new(),
    }
}

/// The paper's suites with every runnable case planned once per seed loop
/// count (param `loops`, plus `method=seed`), each sample exactly that many
/// operations.
pub fn seed_suites(
    suites: Vec<Box<dyn Suite>>,
    counts: SeedCounts,
    cfg: &RunConfig,
) -> Vec<Box<dyn Suite>> {
    suites
        .into_iter()
        .map(|inner| {
            Box::new(SeedMethodSuite {
                inner,
                counts,
                cfg: cfg.clone(),
            }) as Box<dyn Suite>
        })
        .collect()
}

/// The seeds' statistic on finished measurements: the mean per operation
/// becomes the figure the paper reads, with its normal-approximation
/// interval. Measurements without samples are left as they are.
pub fn to_seed_statistic(ms: &mut [Measurement]) {
    for m in ms {
        let n = m.samples_ns.len();
        let Some(s) = m.stats.as_mut() else { continue };
        if n == 0 || !s.mean.is_finite() || s.mean <= 0.0 {
            continue;
        }
        let half = 1.96 * s.stddev / (n as f64).sqrt();
        s.median = s.mean;
        s.ci95 = [(s.mean - half).max(0.0), s.mean + half];
        s.ops_per_s = 1e9 / s.mean;
        if let Some(b) = s.bytes_per_s.as_mut() {
            *b = m.input_bytes as f64 * 1e9 / s.mean;
        }
        // Paired medians of per-round ratios belong to our method.
        m.group = None;
        m.paired.clear();
    }
}

struct SeedMethodSuite {
    inner: Box<dyn Suite>,
    counts: SeedCounts,
    cfg: RunConfig,
}

impl Suite for SeedMethodSuite {
    /// The inner suite's name, with no views: the paper renders the figures.
    fn profile(&self) -> SuiteProfile {
        let inner = self.inner.profile();
        SuiteProfile::new(inner.name, inner.about)
    }
    fn backends(&self) -> Vec<BackendInfo> {
        self.inner.backends()
    }
    fn primitives(&self) -> Vec<String> {
        self.inner.primitives()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let mut out = Vec::new();
        for case in self.inner.plan(cfg)? {
            let Setup::Ready(factory) = &case.setup else {
                out.push(case);
                continue;
            };
            for loops in self.counts.loops_for(&case.spec, &self.cfg) {
                let spec = case
                    .spec
                    .clone()
                    .param("method", "seed")
                    .param("loops", loops);
                out.push(PlannedCase {
                    spec,
                    setup: Setup::Ready(fixed_loops(factory.clone(), loops)),
                });
            }
        }
        Ok(out)
    }
}

fn fixed_loops(inner: CaseFactory, loops: u64) -> CaseFactory {
    Arc::new(move || {
        let case = inner()?;
        Ok(Box::new(FixedLoops { inner: case, loops }) as Box<dyn Case>)
    })
}

/// A case whose every sample is exactly `loops` operations.
struct FixedLoops {
    inner: Box<dyn Case>,
    loops: u64,
}

impl Case for FixedLoops {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.inner.checks()
    }
    fn prepare_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.inner.prepare_batch(iters)
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.inner.run_batch(iters)
    }
    fn time_batch(&mut self, iters: u64) -> Option<Result<BatchTime, CaseError>> {
        self.inner.time_batch(iters)
    }
    fn fixed_iterations(&self) -> Option<u64> {
        Some(self.loops)
    }
    fn calibration_is_a_sample(&self) -> bool {
        self.inner.calibration_is_a_sample()
    }
    fn placement_free(&self) -> bool {
        self.inner.placement_free()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaseStatus, Summary};

    fn counts() -> SeedCounts {
        SeedCounts {
            stated: "50 runs x 1000 and 5000 loops",
            runs: 50,
            loops: |spec| {
                if spec.input_bytes <= 4096 {
                    vec![1000, 5000]
                } else {
                    vec![1]
                }
            },
        }
    }

    #[test]
    fn quick_scales_the_counts_and_says_so() {
        let c = counts();
        let spec = CaseSpec::new("s", "p", "b", "", "op").size(4);
        assert_eq!(c.runs_for(&RunConfig::default()), 50);
        assert_eq!(c.loops_for(&spec, &RunConfig::default()), vec![1000, 5000]);
        assert_eq!(c.runs_for(&RunConfig::quick()), 5);
        assert_eq!(c.loops_for(&spec, &RunConfig::quick()), vec![100, 500]);
        let big = CaseSpec::new("s", "p", "b", "", "op").size(20_000_000);
        assert_eq!(c.loops_for(&big, &RunConfig::quick()), vec![1]);
        assert!(c.describe(&RunConfig::quick()).contains("divided by 10"));
        assert!(!c.describe(&RunConfig::default()).contains("divided"));
        assert!(Method::parse("SEED").unwrap() == Method::Seed);
        let e = Method::parse("sed").unwrap_err().to_string();
        assert!(e.contains("seed"), "{e}");
    }

    struct Counting(u64);
    impl Case for Counting {
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            self.0 += iters;
            Ok(())
        }
    }

    struct OneSuite;
    impl Suite for OneSuite {
        fn profile(&self) -> SuiteProfile {
            SuiteProfile::new("s", "")
        }
        fn backends(&self) -> Vec<BackendInfo> {
            Vec::new()
        }
        fn primitives(&self) -> Vec<String> {
            Vec::new()
        }
        fn plan(&self, _: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
            let spec = CaseSpec::new("s", "p", "b", "", "op").size(4);
            Ok(vec![
                PlannedCase::ready(spec.clone(), || Ok(Box::new(Counting(0)) as Box<dyn Case>)),
                PlannedCase::skipped(spec.size(9), "too slow"),
            ])
        }
    }

    #[test]
    fn every_case_is_planned_once_per_loop_count_with_a_fixed_batch() {
        let cfg = RunConfig::default();
        let suites = seed_suites(vec![Box::new(OneSuite)], counts(), &cfg);
        let plan = suites[0].plan(&cfg).unwrap();
        assert_eq!(plan.len(), 3, "two loop counts + the skipped case");
        assert_eq!(plan[0].spec.params["loops"], "1000");
        assert_eq!(plan[1].spec.params["loops"], "5000");
        assert_eq!(plan[1].spec.params["method"], "seed");
        let Setup::Ready(f) = &plan[1].setup else {
            panic!("ready")
        };
        assert_eq!(f().unwrap().fixed_iterations(), Some(5000));
        assert!(matches!(plan[2].setup, Setup::Skipped(_)));
        let b = seed_budget(50);
        assert_eq!((b.samples, b.min_slow_samples, b.precision), (50, 50, 0.0));
    }

    #[test]
    fn the_seed_statistic_is_the_mean_with_its_interval() {
        let mut m = CaseSpec::new("s", "p", "b", "", "op")
            .size(1000)
            .measurement(CaseStatus::Measured, None);
        m.samples_ns = vec![90.0, 100.0, 110.0, 300.0];
        m.stats = Some(Summary {
            median: 105.0,
            mean: 150.0,
            stddev: 100.0,
            bytes_per_s: Some(1.0),
            ..Summary::default()
        });
        m.group = Some("g".into());
        let mut ms = vec![m];
        to_seed_statistic(&mut ms);
        let s = ms[0].stats.as_ref().unwrap();
        assert_eq!(s.median, 150.0);
        assert!((s.ci95[0] - 52.0).abs() < 1e-9 && (s.ci95[1] - 248.0).abs() < 1e-9);
        assert!((s.bytes_per_s.unwrap() - 1000.0 * 1e9 / 150.0).abs() < 1e-6);
        assert!(ms[0].group.is_none());
    }
}
