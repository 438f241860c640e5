//! The A/A test: this machine's noise floor, measured.
//!
//! Two instances of one fixed workload are timed as a comparison group for
//! a few seconds. Their per-round ratio should be exactly 1; how far the
//! ratio of a short window of rounds strays is the floor below which a
//! paired comparison cannot tell two cases apart here. How far the
//! workload's fastest rounds move between consecutive windows is the floor
//! of an unpaired comparison: two runs measured at different moments,
//! which `compare` judges by their fastest rounds.

use crate::canary::noise_floor;
use crate::clock::{Clock, MonotonicClock};
use crate::group::{measure_group, Member, MIN_ROUNDS};
use crate::load;
use cryptobench_core::{Budget, CaseSpec, MachineLoad};
use cryptobench_stats::{median, quantile, round_ratios};
use std::time::Duration;

/// What the A/A test found.
#[derive(Debug, Clone, PartialEq)]
pub struct AaReport {
    /// Rounds taken.
    pub rounds: usize,
    /// 95th percentile of |window ratio - 1|, paired (a fraction).
    pub paired_floor: f64,
    /// 90th percentile of the change between the fastest rounds of
    /// consecutive windows of one instance (a fraction): what an unpaired
    /// comparison of fastest rounds faces.
    pub unpaired_floor: f64,
    /// Median A / A' ratio over all rounds.
    pub ratio: f64,
    /// The machine's load over the test.
    pub load: Option<MachineLoad>,
    /// Wall time the test took.
    pub elapsed: Duration,
}

/// Runs the A/A test for about `duration` with samples of `min_sample`.
pub fn aa_test(duration: Duration, min_sample: Duration) -> AaReport {
    let clock = MonotonicClock;
    let started = clock.now_ns();
    // On the core a run's one-core cases use.
    let _pinned = crate::affinity::pin();
    let factory = crate::canary::workload_factory();
    let (a, b) = (
        CaseSpec::new("noise", "A", "builtin", "", "mix"),
        CaseSpec::new("noise", "A'", "builtin", "", "mix"),
    );
    let budget = Budget {
        min_sample,
        samples: usize::MAX / 8,
        time_per_case: duration / 2,
        warmup: Duration::from_millis(20),
        min_slow_samples: MIN_ROUNDS,
        precision: 0.0,
        measuring_limit: None,
        decision_edges: Vec::new(),
    };
    let members = [
        Member {
            spec: &a,
            factory: &factory,
        },
        Member {
            spec: &b,
            factory: &factory,
        },
    ];
    let before = load::snapshot();
    let result = measure_group("aa", &members, &budget, &clock, None, 1);
    let after = load::snapshot();
    let samples = |i: usize| {
        result.measurements[i]
            .as_ref()
            .map(|m| m.samples_ns.clone())
            .unwrap_or_default()
    };
    let (sa, sb) = (samples(0), samples(1));
    let ratios = round_ratios(&sa, &sb);
    let window_devs: Vec<f64> = ratios
        .chunks_exact(MIN_ROUNDS)
        .map(|w| (median(w) - 1.0).abs())
        .collect();
    AaReport {
        rounds: ratios.len(),
        paired_floor: if window_devs.is_empty() {
            f64::NAN
        } else {
            quantile(&window_devs, 0.95)
        },
        unpaired_floor: noise_floor(&sa),
        ratio: median(&ratios),
        load: match (before, after) {
            (Some(x), Some(y)) => Some(load::between(&x, &y, load::load1())),
            _ => None,
        },
        elapsed: Duration::from_nanos(clock.now_ns().saturating_sub(started)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_aa_test_of_identical_work_gives_a_ratio_near_one() {
        let r = aa_test(Duration::from_millis(300), Duration::from_millis(2));
        assert!(r.rounds >= MIN_ROUNDS, "{r:?}");
        assert!((r.ratio - 1.0).abs() < 0.2, "{r:?}");
        assert!(r.paired_floor.is_finite() && r.unpaired_floor.is_finite());
        assert!(r.elapsed < Duration::from_secs(5));
    }
}
