//! One built case, timed: calibrate, warm up, sample, summarise.
//!
//! Calibration doubles the batch (at most x10 per step) until one batch
//! lasts `min_sample`; the calibration batches double as warm-up, which then
//! continues until `Budget::warmup` has passed. Sampling takes at least
//! `Budget::samples` samples and goes on while the per-case time budget
//! lasts (capped at four times that count). An operation slower than
//! `min_sample` is sampled one call at a time, with fewer samples (never
//! fewer than `min_slow_samples`), and says so in a warning. When every
//! batch is a fresh external process (`Case::calibration_is_a_sample`), the
//! calibration batch is no warm-up and becomes the first sample.

use crate::sample::clock::{process_cpu_ns, tsc_hz, Clock};
use crate::sample::interrupt::stop_requested;
use cryptobench_core::{BatchTime, Budget, Case, CaseError, Measurement, Summary};

/// Seed of the bootstrap so the same samples always give the same CI.
pub const BOOTSTRAP_SEED: u64 = 0x00C0_FFEE;

/// Upper bound on samples, as a multiple of `Budget::samples`.
pub(crate) const MAX_SAMPLE_FACTOR: usize = 4;

/// Result of timing: per-op wall and CPU samples and the batch size.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sampled {
    /// ns per operation, one per sample.
    pub wall: Vec<f64>,
    /// CPU ns per operation, one per sample (may be empty).
    pub cpu: Vec<f64>,
    /// The process that timed each sample, for a case timed in two
    /// processes in turn (empty otherwise).
    pub process: Vec<u8>,
    /// Operations per sample.
    pub iters: u64,
    /// Warnings about the sampling itself.
    pub warnings: Vec<String>,
    /// The engine was asked to stop before enough samples were taken.
    pub interrupted: bool,
}

/// Times one batch: the case's own timing when it has one, else the clock
/// around `run_batch`. At least one operation is reported.
pub fn time_batch(
    case: &mut dyn Case,
    iters: u64,
    clock: &dyn Clock,
) -> Result<BatchTime, CaseError> {
    case.prepare_batch(iters)?;
    if let Some(t) = case.time_batch(iters) {
        let t = t?;
        return Ok(BatchTime {
            iters: t.iters.max(1),
            ..t
        });
    }
    let cpu0 = process_cpu_ns();
    let t0 = clock.now_ns();
    case.run_batch(iters)?;
    let t1 = clock.now_ns();
    let cpu = match (cpu0, process_cpu_ns()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64),
        _ => None,
    };
    Ok(BatchTime {
        iters,
        wall_ns: t1.saturating_sub(t0) as f64,
        cpu_ns: cpu,
        process: None,
    })
}

impl Sampled {
    /// Adds one timed batch as a sample of ns per operation.
    pub fn push(&mut self, t: &BatchTime) {
        let ops = t.iters.max(1) as f64;
        self.wall.push(t.wall_ns / ops);
        self.cpu.extend(t.cpu_ns.map(|c| c / ops));
        self.process.extend(t.process);
    }
}

/// Largest batch calibration tries.
const MAX_BATCH: u64 = 1 << 40;

/// The batch size a case settled on, and what calibration learned.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Calibration {
    /// Operations per sample.
    pub iters: u64,
    /// One operation lasts at least a sample (or the case fixes its own
    /// batch): few samples of one batch each.
    pub slow: bool,
    /// ns per operation of the last calibration batch.
    pub last_ns: f64,
    /// Wall time of the last calibration batch, ns.
    pub batch_ns: f64,
    /// The last calibration batch, kept as the first sample
    /// when [`Case::calibration_is_a_sample`].
    pub first: BatchTime,
    /// A stop was requested during calibration.
    pub interrupted: bool,
}

/// Grows the batch until one lasts `min_sample`, then warms up.
///
/// The batch is multiplied by at most 10 per step, so it overshoots the
/// minimum by at most 10x; the calibration batches double as warm-up, which
/// continues until `Budget::warmup` has passed (not for slow cases, whose
/// every call is a sample).
///
/// A first call is cold (a runtime loads classes and interprets, pages
/// fault in): a call of up to [`COLD_RETRY_SAMPLES`] samples is timed once
/// more before it makes a case slow, and a batch that warm-up left under
/// half a sample (a JIT compiled it) is grown once more. Calibrated cold,
/// in a default run Java's ChaCha20-Poly1305 at 16 B was sampled one 4 us
/// call at a time (+-2.1% after 2,154 rounds) and its SHA-256 at 16 B in
/// 12 us batches (+-1.4% after 750).
pub fn calibrate(
    case: &mut dyn Case,
    budget: &Budget,
    clock: &dyn Clock,
) -> Result<Calibration, CaseError> {
    let min_sample = budget.min_sample.as_nanos() as f64;
    let start = clock.now_ns();
    let fixed = case.fixed_iterations();
    let mut iters = fixed.unwrap_or(1).max(1);
    let mut cal = Calibration::default();
    let mut retried_cold = false;
    let mut regrown = false;
    loop {
        loop {
            let first = time_batch(case, iters, clock)?;
            let (ops, wall) = (first.iters, first.wall_ns);
            cal.first = first;
            cal.last_ns = wall / ops as f64;
            // A self-timed case may do more operations than asked (an external
            // tool's own loop): the batch's cost is its wall time, not ops x iters.
            cal.batch_ns = wall;
            let cold = fixed.is_none()
                && !retried_cold
                && iters == 1
                && wall >= min_sample
                && wall < COLD_RETRY_SAMPLES * min_sample;
            if cold {
                retried_cold = true;
                continue;
            }
            // A batch that takes no measurable time even at MAX_BATCH (an
            // operation the compiler removed) must not grow it forever.
            if fixed.is_some() || wall >= min_sample || iters >= MAX_BATCH {
                if fixed.is_none() {
                    iters = ops;
                }
                break;
            }
            iters = grown(iters, min_sample, wall);
            if stop_requested() {
                cal.interrupted = true;
                return Ok(cal);
            }
        }
        cal.iters = iters;
        cal.slow = cal.batch_ns >= min_sample && iters == 1 || fixed.is_some();
        if cal.slow {
            return Ok(cal);
        }
        let mut last = cal.batch_ns;
        while (clock.now_ns() - start) < budget.warmup.as_nanos() as u64 {
            last = time_batch(case, iters, clock)?.wall_ns;
            if stop_requested() {
                cal.interrupted = true;
                return Ok(cal);
            }
        }
        if regrown || last >= min_sample / 2.0 || iters >= MAX_BATCH {
            return Ok(cal);
        }
        regrown = true;
        iters = grown(iters, min_sample, last);
    }
}

/// A first call shorter than this many samples is timed again before it
/// makes its case slow; a longer one costs too much to repeat (an Argon2
/// hash of a second).
pub const COLD_RETRY_SAMPLES: f64 = 10.0;

/// The next batch size to try after `iters` operations took `wall_ns`.
fn grown(iters: u64, min_sample: f64, wall_ns: f64) -> u64 {
    let factor = if wall_ns <= 0.0 {
        10.0
    } else {
        (min_sample / wall_ns * 1.2).clamp(2.0, 10.0)
    };
    (((iters as f64) * factor).ceil() as u64).min(MAX_BATCH)
}

/// The warning a slow case carries when it got fewer samples than usual.
pub(crate) fn slow_warning(cal: &Calibration, samples: usize, budget: &Budget) -> Option<String> {
    (cal.slow && samples < budget.samples).then(|| {
        format!(
            "slow operation ({} per call): {} samples of {} call(s), fewer than the usual {}",
            cryptobench_core::units::format_ns(cal.last_ns),
            samples,
            cal.iters,
            budget.samples
        )
    })
}

/// Calibrates and samples one prepared, checked case on its own (the
/// multi-thread runner's single-thread reference).
pub fn sample(
    case: &mut dyn Case,
    budget: &Budget,
    clock: &dyn Clock,
) -> Result<Sampled, CaseError> {
    let mut out = Sampled::default();
    let cal = calibrate(case, budget, clock)?;
    if cal.interrupted {
        out.interrupted = true;
        return Ok(out);
    }
    let per_case = budget.time_per_case.as_nanos() as f64;
    let wanted = if cal.slow {
        let fit = (per_case / cal.batch_ns.max(1.0)).floor() as usize;
        fit.clamp(budget.min_slow_samples.max(1), budget.samples.max(1))
    } else {
        budget.samples.max(1)
    };
    let cap = wanted * MAX_SAMPLE_FACTOR;
    let sampling_start = clock.now_ns();
    if cal.slow && case.calibration_is_a_sample() {
        out.push(&cal.first);
    }
    while out.wall.len() < cap {
        if stop_requested() {
            out.interrupted = true;
            break;
        }
        out.push(&time_batch(case, cal.iters, clock)?);
        let spent = (clock.now_ns() - sampling_start) as f64;
        if out.wall.len() >= wanted && (cal.slow || spent >= per_case) {
            break;
        }
    }
    out.iters = cal.iters;
    out.warnings
        .extend(slow_warning(&cal, out.wall.len(), budget));
    Ok(out)
}

/// The relative half-width of the 95% interval [`summarize`] reports for
/// `samples`' median: the precision a measurement states.
pub fn reported_precision(samples: &[f64]) -> f64 {
    let (lo, hi) = cryptobench_stats::bootstrap_median_ci(
        samples,
        0.95,
        cryptobench_stats::DEFAULT_RESAMPLES,
        BOOTSTRAP_SEED,
    );
    precision_of(lo, hi, cryptobench_stats::median(samples)).unwrap_or(f64::INFINITY)
}

/// The precision an interval `lo..hi` gives a median `mid`: its half-width
/// over the median. `None` when either end is not finite or the median is
/// not positive. The one definition the stopping rule and the recorded
/// `stats.precision` share, so a member stopped as precise records it.
pub fn precision_of(lo: f64, hi: f64, mid: f64) -> Option<f64> {
    (mid > 0.0 && lo.is_finite() && hi.is_finite()).then(|| (hi - lo) / 2.0 / mid)
}

/// Statistics for per-op samples of a case that processes `bytes` per op
/// with `threads` threads at once (samples are already per aggregate op).
pub fn summarize(samples: &[f64], bytes: u64, threads: u32) -> Summary {
    let s = cryptobench_stats::summarize(samples, BOOTSTRAP_SEED);
    let ops = if s.median > 0.0 { 1e9 / s.median } else { 0.0 };
    let cycles_per_byte = match (tsc_hz(), bytes, threads) {
        (Some(hz), b, 1) if b > 0 => Some(s.median * hz / 1e9 / b as f64),
        _ => None,
    };
    Summary {
        median: s.median,
        ci95: [s.ci95.0, s.ci95.1],
        p25: s.p25,
        p75: s.p75,
        min: s.min,
        max: s.max,
        mean: s.mean,
        stddev: s.stddev,
        mad: s.mad,
        ops_per_s: ops,
        bytes_per_s: (bytes > 0).then_some(ops * bytes as f64),
        cycles_per_byte,
        outliers: s.outliers,
        precision: None,
    }
}

/// Fills the numbers of a measurement from its samples.
pub(crate) fn finish(m: &mut Measurement, s: Sampled) {
    let summary = summarize(&s.wall, m.input_bytes, m.threads);
    if !summary.outliers.is_empty() {
        m.warnings.push(format!(
            "{} of {} samples are outliers (modified Z > 3.5); kept in the raw samples",
            summary.outliers.len(),
            s.wall.len()
        ));
    }
    if s.interrupted {
        m.warnings
            .push(format!("interrupted after {} samples", s.wall.len()));
    }
    m.warnings.extend(s.warnings);
    m.iterations_per_sample = s.iters;
    // Tags that do not cover every sample would pair samples wrongly.
    if s.process.len() == s.wall.len() {
        m.samples_process = s.process;
    }
    m.samples_ns = s.wall;
    m.cpu_samples_ns = s.cpu;
    m.stats = Some(summary);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sample::clock::mock::MockClock;
    use cryptobench_core::CheckResult;
    use std::sync::Arc;
    use std::time::Duration;

    /// A case whose operation "takes" `op_ns` on the mock clock.
    pub(crate) struct Fake {
        pub(crate) clock: Arc<MockClock>,
        pub(crate) op_ns: u64,
        pub(crate) calls: Arc<std::sync::atomic::AtomicU64>,
        pub(crate) fail_check: bool,
    }

    impl Case for Fake {
        fn checks(&mut self) -> Vec<CheckResult> {
            vec![CheckResult::from_bool(
                "kat",
                !self.fail_check,
                "fake vector",
            )]
        }
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            self.calls
                .fetch_add(iters, std::sync::atomic::Ordering::SeqCst);
            self.clock.advance(self.op_ns * iters);
            Ok(())
        }
    }

    pub(crate) fn budget() -> Budget {
        Budget {
            min_sample: Duration::from_millis(10),
            samples: 15,
            time_per_case: Duration::from_millis(300),
            warmup: Duration::from_millis(30),
            min_slow_samples: 3,
            peer_rounds: 3,
            precision: 0.01,
            measuring_limit: None,
            decision_edges: Vec::new(),
        }
    }

    /// The samples of a passing [`Fake`] taking `op_ns` per operation.
    fn sample_fake(op_ns: u64) -> Sampled {
        let clock = Arc::new(MockClock::default());
        let mut case = Fake {
            clock: clock.clone(),
            op_ns,
            calls: Default::default(),
            fail_check: false,
        };
        sample(&mut case, &budget(), clock.as_ref()).unwrap()
    }

    #[test]
    fn calibration_reaches_the_minimum_sample_time() {
        let s = sample_fake(1_000);
        // 1 us per op: a 10 ms sample needs >= 10_000 ops, and the x10 cap
        // means calibration overshoots by at most 10x.
        assert!(s.iters >= 10_000 && s.iters <= 100_000, "iters {}", s.iters);
        assert!(s.wall.len() >= 15, "{} samples", s.wall.len());
        assert!(s.wall.iter().all(|&w| (w - 1_000.0).abs() < 1e-6));
        // The budget of 300 ms bounds sampling (plus one sample of slack).
        let per_sample_ms = s.iters as f64 * 1e-3;
        assert!(
            s.wall.len() as f64 * per_sample_ms <= 300.0 + per_sample_ms * 2.0
                || s.wall.len() == 15
        );
    }

    #[test]
    fn a_batch_that_takes_no_time_does_not_grow_forever() {
        struct Nothing;
        impl Case for Nothing {
            fn run_batch(&mut self, _: u64) -> Result<(), CaseError> {
                Ok(())
            }
        }
        let clock = MockClock::default();
        let mut b = budget();
        b.warmup = Duration::ZERO;
        let cal = calibrate(&mut Nothing, &b, &clock).unwrap();
        assert_eq!(cal.iters, MAX_BATCH);
    }

    /// A case whose operations are slow until `fast_after` of them have
    /// run (a runtime's interpreter before its JIT, a cold first call).
    struct Warming {
        clock: Arc<MockClock>,
        calls: u64,
        fast_after: u64,
        cold_ns: u64,
    }

    impl Case for Warming {
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            for _ in 0..iters {
                let ns = if self.calls < self.fast_after {
                    self.cold_ns
                } else {
                    1_000
                };
                self.clock.advance(ns);
                self.calls += 1;
            }
            Ok(())
        }
    }

    fn calibrate_warming(fast_after: u64, cold_ns: u64) -> Calibration {
        let clock = Arc::new(MockClock::default());
        let mut case = Warming {
            clock: clock.clone(),
            calls: 0,
            fast_after,
            cold_ns,
        };
        calibrate(&mut case, &budget(), clock.as_ref()).unwrap()
    }

    #[test]
    fn a_cold_first_call_does_not_make_a_fast_case_slow() {
        // The first call takes two samples (20 ms), the rest 1 us each.
        let cal = calibrate_warming(1, 20_000_000);
        assert!(!cal.slow, "{cal:?}");
        assert!(cal.iters >= 10_000, "iters {}", cal.iters);
        // A call of more than COLD_RETRY_SAMPLES samples is not repeated.
        let clock = Arc::new(MockClock::default());
        let mut slow = Warming {
            clock: clock.clone(),
            calls: 0,
            fast_after: 1,
            cold_ns: 200_000_000,
        };
        let cal = calibrate(&mut slow, &budget(), clock.as_ref()).unwrap();
        assert!(cal.slow);
        assert_eq!(slow.calls, 1);
    }

    #[test]
    fn a_batch_warm_up_made_short_is_grown_again() {
        // 10 us per call for the first 2,000 calls (calibration settles on
        // about 1,000 a batch), then 1 us: warm-up leaves a 1 ms batch
        // of a 10 ms sample, which is grown back to a full sample.
        let cal = calibrate_warming(2_000, 10_000);
        assert!(!cal.slow);
        assert!(cal.iters >= 10_000, "iters {}", cal.iters);
        // A case whose speed does not change keeps its batch.
        let steady = calibrate_warming(0, 0);
        assert!(
            steady.iters >= 10_000 && steady.iters <= 100_000,
            "{steady:?}"
        );
    }

    #[test]
    fn slow_operations_take_fewer_samples_and_say_so() {
        let s = sample_fake(200_000_000);
        assert_eq!(s.iters, 1);
        assert_eq!(s.wall.len(), 3, "300 ms budget / 200 ms op -> clamp to 3");
        assert!(s.warnings[0].contains("slow operation"), "{:?}", s.warnings);
    }

    /// A self-timed case that reports many operations per 1 s batch.
    struct External {
        clock: Arc<MockClock>,
        batches: u64,
        independent: bool,
    }

    impl Case for External {
        fn run_batch(&mut self, _: u64) -> Result<(), CaseError> {
            unreachable!("self-timed")
        }
        fn time_batch(&mut self, _: u64) -> Option<Result<cryptobench_core::BatchTime, CaseError>> {
            self.clock.advance(1_000_000_000);
            self.batches += 1;
            Some(Ok(cryptobench_core::BatchTime {
                iters: 500_000,
                wall_ns: 1e9,
                cpu_ns: None,
                process: None,
            }))
        }
        fn fixed_iterations(&self) -> Option<u64> {
            Some(1)
        }
        fn calibration_is_a_sample(&self) -> bool {
            self.independent
        }
    }

    /// The samples of an [`External`] case and how many batches it ran.
    fn sample_external(independent: bool) -> (Sampled, u64) {
        let clock = Arc::new(MockClock::default());
        let mut case = External {
            clock: clock.clone(),
            batches: 0,
            independent,
        };
        let s = sample(&mut case, &budget(), clock.as_ref()).unwrap();
        (s, case.batches)
    }

    #[test]
    fn an_independent_calibration_batch_is_kept_as_a_sample() {
        for (independent, runs) in [(false, 4), (true, 3)] {
            let (s, batches) = sample_external(independent);
            assert_eq!(s.wall.len(), 3, "independent {independent}");
            assert_eq!(batches, runs, "independent {independent}");
        }
    }

    #[test]
    fn self_timed_batches_count_their_wall_time_against_the_budget() {
        let (s, _) = sample_external(false);
        assert_eq!(
            s.wall.len(),
            3,
            "1 s batches against a 300 ms budget -> the slow minimum"
        );
        assert!(
            (s.wall[0] - 2_000.0).abs() < 1e-9,
            "1 s / 500000 ops = 2 us per op"
        );
    }

    #[test]
    fn summary_rates_follow_the_median() {
        let s = summarize(&[100.0, 100.0, 100.0, 200.0], 1000, 2);
        assert_eq!(s.median, 100.0);
        assert_eq!(s.ops_per_s, 1e7);
        assert_eq!(s.bytes_per_s, Some(1e10));
        assert_eq!(
            s.cycles_per_byte, None,
            "no cycles/byte for multi-thread cases"
        );
    }
}
