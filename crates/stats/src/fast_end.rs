//! The fast end of a sample of times, and two runs compared by it.
//!
//! On a shared machine noise only ever adds time: a neighbour on the host,
//! an interrupt, a page fault make a round slower, never faster. A code
//! change moves every round, the fastest included; a disturbed moment
//! moves the slow rounds and leaves the fastest where they were. So
//! whether a case changed between two runs is judged on its fastest round
//! (Chen and Revels, "Robust benchmarking in noisy environments", 2016,
//! make the case for the minimum under additive noise). Measured here on
//! pairs of identical quick runs: between runs, 43-110 of 294 native cases'
//! medians moved more than 5%, and 5-13 of their fastest rounds.
//!
//! The fastest of `n` rounds is known only as well as the rounds near it
//! agree. Its interval is the 95% percentile bootstrap interval of the
//! minimum, which has a closed form: a resample of `n` rounds has a
//! minimum of at least the `k`-th smallest round with probability
//! `((n - k + 1) / n)^n`, so the interval runs from the fastest round to
//! the `k`-th, the first `k` whose next round a resample's minimum passes
//! less than 2.5% of the time. No resampling is needed, and the same
//! rounds always give the same interval.

use crate::{median, quantile, sorted, undecided, Comparison};

/// Consecutive canary batches whose fastest is one moment's speed in
/// [`fast_floor`].
pub const FLOOR_WINDOW: usize = 10;

/// The fastest round of a sample and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fastest {
    /// The fastest round.
    pub value: f64,
    /// 95% percentile-bootstrap interval of the minimum: `(value, k-th round)`.
    pub ci95: (f64, f64),
}

impl Fastest {
    /// The fastest of `xs` with its interval; `None` for an empty sample.
    pub fn of(xs: &[f64]) -> Option<Self> {
        let v = sorted(xs);
        let n = v.len();
        if n == 0 {
            return None;
        }
        // The first rank k whose successor a resample's minimum reaches
        // (is at least) less than 2.5% of the time.
        let share = |k: usize| ((n - k) as f64 / n as f64).powi(n as i32);
        let k = (1..=n).find(|&k| share(k) < 0.025).unwrap_or(n);
        Some(Self {
            value: v[0],
            ci95: (v[0], v[k - 1]),
        })
    }

    /// How far the interval reaches above the fastest round, as a fraction
    /// of it: the smallest change this sample can resolve at its fast end.
    pub fn resolution(&self) -> f64 {
        if self.value > 0.0 {
            self.ci95.1 / self.value - 1.0
        } else {
            f64::INFINITY
        }
    }
}

/// Compares two samples of times (lower is better) by their fastest
/// rounds: `ratio = fastest(candidate) / fastest(baseline)`, its interval
/// from the two fastest rounds' intervals (the candidate's ends over the
/// baseline's opposite ends), decided against `threshold` without widening
/// ([`Comparison::decided`] with a spread of 0). An empty sample gives a
/// NaN ratio and Inconclusive.
pub fn compare_fastest(baseline: &[f64], candidate: &[f64], threshold: f64) -> Comparison {
    let (Some(b), Some(c)) = (Fastest::of(baseline), Fastest::of(candidate)) else {
        return undecided(f64::NAN, (f64::NAN, f64::NAN), true).decided(0.0, threshold);
    };
    let intervals_overlap = b.ci95.0 <= c.ci95.1 && c.ci95.0 <= b.ci95.1;
    let ci95 = (c.ci95.0 / b.ci95.1, c.ci95.1 / b.ci95.0);
    undecided(c.value / b.value, ci95, intervals_overlap).decided(0.0, threshold)
}

/// How far a machine's fast end moves between moments: the 90th percentile
/// of the change between the fastest batches of consecutive windows of
/// [`FLOOR_WINDOW`] batches of one fixed workload (a fraction). 0 with
/// fewer than two windows. A disturbed window keeps a calm batch more
/// often than not, so this floor stays near the machine's own
/// repeatability where a floor of window medians follows every episode
/// (1-1.5% against 5-24% on the same runs here).
pub fn fast_floor(batches: &[f64]) -> f64 {
    let fastest: Vec<f64> = batches
        .chunks_exact(FLOOR_WINDOW)
        .map(|w| w.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let changes: Vec<f64> = fastest
        .windows(2)
        .filter(|w| w[0] > 0.0)
        .map(|w| (w[1] / w[0] - 1.0).abs())
        .collect();
    if changes.is_empty() {
        0.0
    } else {
        quantile(&changes, 0.9)
    }
}

/// Fewest rounds in each half of [`halves_residual`]: the fastest of fewer
/// is mostly luck.
pub const MIN_HALF_ROUNDS: usize = 3;

/// The drift a case shares with its group-mates, from their ratios and its
/// own (each a time ratio between two moments): the median of the mates'
/// ratios, one library that changed among three or more leaving it alone.
/// With two mates that median is their mean, and one of them 10% slower
/// would read the case as 5% faster, so the case's own ratio joins them.
/// It joins no more than that: in a median of four it read a 5% change of
/// its own as 3.2-3.7% in some trials of the `sensitivity` example.
pub fn shared_drift(own: f64, mates: &[f64]) -> Option<f64> {
    match mates {
        [] => None,
        [a, b] => Some(median(&[*a, *b, own])),
        _ => Some(median(mates)),
    }
}

/// How far a case's fastest round moved against its group-mates' between
/// the first and the second half of the rounds they shared: the case's
/// fastest of the second half over its first half's, divided by the drift
/// it shares with `mates` over the same halves ([`shared_drift`]; 1 when
/// they moved together). Round `i` of every member of a group is timed at
/// one moment, so the halves are two moments of the machine, and a case
/// that moves against the other libraries between them shows how far one
/// case moves between two runs once their drift is divided out. Only the
/// rounds every one of them has count; `None` with fewer than
/// [`MIN_HALF_ROUNDS`] per half or no mate.
pub fn halves_residual(case: &[f64], mates: &[&[f64]]) -> Option<f64> {
    let shared = mates.iter().map(|m| m.len()).fold(case.len(), usize::min);
    if mates.is_empty() || shared < 2 * MIN_HALF_ROUNDS {
        return None;
    }
    let half = shared / 2;
    let moved = |xs: &[f64]| {
        let fastest = |part: &[f64]| part.iter().copied().fold(f64::INFINITY, f64::min);
        fastest(&xs[half..shared]) / fastest(&xs[..half])
    };
    let own = moved(case);
    let theirs: Vec<f64> = mates.iter().map(|m| moved(m)).collect();
    Some(own / shared_drift(own, &theirs)?).filter(|r| r.is_finite() && *r > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;

    #[test]
    fn the_interval_of_the_fastest_follows_the_closed_form() {
        // n = 5: a resample's minimum is x(3) or more with p = (3/5)^5 =
        // 7.8%, x(4) or more with (2/5)^5 = 1.0%: the interval is x(1)..x(3).
        let f = Fastest::of(&[5.0, 3.0, 9.0, 4.0, 7.0]).unwrap();
        assert_eq!(f.value, 3.0);
        assert_eq!(f.ci95, (3.0, 5.0));
        assert!((f.resolution() - 2.0 / 3.0).abs() < 1e-12);
        // n = 20: (17/20)^20 = 3.9%, (16/20)^20 = 1.2%: x(1)..x(4).
        let xs: Vec<f64> = (1..=20).map(f64::from).rev().collect();
        assert_eq!(Fastest::of(&xs).unwrap().ci95, (1.0, 4.0));
        assert_eq!(Fastest::of(&[2.0]).unwrap().ci95, (2.0, 2.0));
        assert!(Fastest::of(&[]).is_none());
    }

    #[test]
    fn slow_rounds_added_by_a_disturbance_leave_the_verdict_alone() {
        let calm: Vec<f64> = (0..20).map(|i| 100.0 + (i % 4) as f64 * 0.2).collect();
        // Half of the candidate's rounds 30% slow: its median moved, its
        // fast end did not.
        let disturbed: Vec<f64> = calm
            .iter()
            .enumerate()
            .map(|(i, x)| if i % 2 == 0 { x * 1.3 } else { *x })
            .collect();
        let c = compare_fastest(&calm, &disturbed, 0.02);
        assert_eq!(c.verdict, Verdict::Unchanged, "{c:?}");
        // Every round 5% slower: the code.
        let slower: Vec<f64> = calm.iter().map(|x| x * 1.05).collect();
        let c = compare_fastest(&calm, &slower, 0.02);
        assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
        assert!((c.ratio - 1.05).abs() < 1e-9);
        assert!(c.ci95.0 <= 1.05 && c.ci95.1 >= 1.05);
        // Past the limit with overlapping intervals: cannot tell.
        let few = [100.0, 120.0, 140.0];
        let c = compare_fastest(&few, &[104.0, 118.0, 150.0], 0.02);
        assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
        assert!(compare_fastest(&[], &few, 0.02).ratio.is_nan());
    }

    #[test]
    fn the_fast_floor_ignores_slow_batches_a_window_also_holds_calm_ones() {
        // Every other window has half its batches 30% slow.
        let batches: Vec<f64> = (0..100)
            .map(|i| {
                if (i / FLOOR_WINDOW) % 2 == 1 && i % 2 == 0 {
                    130.0
                } else {
                    100.0 + (i % 3) as f64 * 0.1
                }
            })
            .collect();
        assert!(fast_floor(&batches) < 0.002, "{}", fast_floor(&batches));
        // A window wholly 10% slow moves it.
        let mut shifted = batches.clone();
        for x in &mut shifted[20..30] {
            *x = 110.0;
        }
        // Its two changes (+10%, -9.1%) are the top two of nine: the 90th
        // percentile lies between them.
        let floor = fast_floor(&shifted);
        assert!((0.09..=0.1).contains(&floor), "{floor}");
        assert_eq!(fast_floor(&batches[..FLOOR_WINDOW]), 0.0);
    }

    #[test]
    fn a_case_moving_with_its_mates_between_halves_has_no_residual() {
        // Every member 4% slower in the second half: the machine moved.
        let a: Vec<f64> = (0..10).map(|i| if i < 5 { 100.0 } else { 104.0 }).collect();
        let b: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
        let c: Vec<f64> = a.iter().map(|x| x * 3.0).collect();
        let r = halves_residual(&a, &[&b, &c]).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        // The case alone 6% slower in its second half.
        let moved: Vec<f64> = a
            .iter()
            .enumerate()
            .map(|(i, x)| if i < 5 { *x } else { x * 1.06 })
            .collect();
        let r = halves_residual(&moved, &[&b, &c]).unwrap();
        assert!((r - 1.06).abs() < 1e-12, "{r}");
        // Only the rounds all share count: a mate with 6 rounds splits at 3,
        // where the case has not moved yet.
        let r = halves_residual(&moved, &[&b[..6]]).unwrap();
        assert!((r - 1.0).abs() < 1e-12, "{r}");
        assert!(halves_residual(&moved, &[&b[..5]]).is_none());
        assert!(halves_residual(&moved, &[]).is_none());
    }

    #[test]
    fn a_shared_drift_is_the_mates_median_with_the_case_s_own_only_beside_two() {
        assert_eq!(shared_drift(1.05, &[]), None);
        assert_eq!(shared_drift(1.05, &[1.0]), Some(1.0));
        // One of two mates changed: the third is not read as changed.
        assert_eq!(shared_drift(1.0, &[1.10, 1.0]), Some(1.0));
        // The changed one against two that did not.
        assert_eq!(shared_drift(1.10, &[1.0, 1.0]), Some(1.0));
        // Three mates or more: theirs alone, so the case's own change
        // stays whole.
        assert_eq!(shared_drift(1.05, &[0.98, 1.01, 1.03]), Some(1.01));
        assert_eq!(shared_drift(1.04, &[1.0, 1.02, 1.03, 1.06]), Some(1.025));
    }
}
