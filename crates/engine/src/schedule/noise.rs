//! The A/A test: this machine's noise floor, measured.
//!
//! Two instances of one fixed workload are timed as a comparison group for
//! a few seconds. Their per-round ratio should be exactly 1. The farther
//! end of the interval of the median of all rounds' ratios is the floor of
//! a paired comparison of as many rounds: the largest difference between
//! identical work the test cannot rule out. A floor read from short windows
//! of rounds instead (the 95th percentile of how far their medians stray)
//! measured 4-19% on this VM while the whole test's ratio was 1.000 with an
//! interval of +-0.5%: that is the random error of five rounds, which a
//! comparison's own interval already carries, so it stays only as the
//! floor of a group with the fewest rounds. How far the
//! workload's fastest rounds move between consecutive windows is the floor
//! of an unpaired comparison: two runs measured at different moments,
//! which `compare` judges by their fastest rounds.

use crate::group::canary::noise_floor;
use crate::group::rounds::{measure_group, Member, MIN_ROUNDS};
use crate::host::load;
use crate::sample::clock::{Clock, MonotonicClock};
use cryptobench_core::{Budget, CaseSpec, MachineLoad};
use cryptobench_stats::{median, paired_ratio, quantile, round_ratios};
use std::time::Duration;

/// The bootstrap's seed, fixed so the same rounds give the same floor.
const AA_SEED: u64 = 0xAA;

/// What the A/A test found.
#[derive(Debug, Clone, PartialEq)]
pub struct AaReport {
    /// Rounds taken.
    pub rounds: usize,
    /// The farther end from 1 of the 95% interval of the median of all
    /// rounds' A / A' ratios (a fraction): what a paired comparison of
    /// about [`AaReport::rounds`] rounds cannot tell from noise.
    pub paired_floor: f64,
    /// 95th percentile of |median of a window of [`MIN_ROUNDS`] ratios - 1|
    /// (a fraction): the same for a group stopped at its fewest rounds.
    pub paired_floor_fewest_rounds: f64,
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
    let _pinned = crate::host::affinity::pin();
    let factory = crate::group::canary::workload_factory();
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
        peer_rounds: 3,
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
    let (paired_floor, paired_floor_fewest_rounds) = paired_floors(&sa, &sb);
    AaReport {
        rounds: sa.len().min(sb.len()),
        paired_floor,
        paired_floor_fewest_rounds,
        unpaired_floor: noise_floor(&sa),
        ratio: median(&round_ratios(&sa, &sb)),
        load: match (before, after) {
            (Some(x), Some(y)) => Some(load::between(&x, &y, load::load1())),
            _ => None,
        },
        elapsed: Duration::from_nanos(clock.now_ns().saturating_sub(started)),
    }
}

/// The two paired floors of an A/A test's rounds: (all rounds, windows
/// of the fewest rounds); NaN where there are too few rounds.
fn paired_floors(a: &[f64], b: &[f64]) -> (f64, f64) {
    let all = paired_ratio(a, b, AA_SEED).map_or(f64::NAN, |e| {
        (e.ci95.0 - 1.0).abs().max((e.ci95.1 - 1.0).abs())
    });
    let window_devs: Vec<f64> = round_ratios(a, b)
        .chunks_exact(MIN_ROUNDS)
        .map(|w| (median(w) - 1.0).abs())
        .collect();
    let fewest = if window_devs.is_empty() {
        f64::NAN
    } else {
        quantile(&window_devs, 0.95)
    };
    (all, fewest)
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
        assert!(r.paired_floor_fewest_rounds.is_finite());
        assert!(r.elapsed < Duration::from_secs(5));
    }

    /// Times around 1000 ns with a deterministic +-5% jitter per round.
    fn jittered(n: usize, seed: u64, scale: f64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let u = (x >> 11) as f64 / (1u64 << 53) as f64;
                scale * 1000.0 * (0.95 + 0.1 * u)
            })
            .collect()
    }

    #[test]
    fn the_floor_of_many_rounds_is_far_below_that_of_five() {
        let (a, b) = (jittered(600, 1, 1.0), jittered(600, 2, 1.0));
        let (all, fewest) = paired_floors(&a, &b);
        assert!(all < 0.01, "{all}");
        assert!(fewest > 2.0 * all, "{all} {fewest}");
    }

    #[test]
    fn a_bias_between_the_twins_shows_in_the_floor() {
        let (a, b) = (jittered(600, 1, 1.03), jittered(600, 2, 1.0));
        let (all, _) = paired_floors(&a, &b);
        assert!(all > 0.025 && all < 0.04, "{all}");
    }

    #[test]
    fn too_few_rounds_give_no_floor() {
        let (all, fewest) = paired_floors(&[1.0], &[1.0]);
        assert!(all.is_nan() && fewest.is_nan());
    }
}
