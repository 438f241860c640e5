//! Verdicts as decisions: a ratio's interval, widened by what two runs say
//! about their own repeatability, read against an equivalence band.
//!
//! A ratio of two runs' times carries two kinds of uncertainty. The
//! interval the samples give says how well each run knew its own case; the
//! runs' noise floors say how far the machine moves between two moments,
//! which no number of rounds within one run can shrink. Both are taken as
//! 95% half-widths on the log scale and combined in quadrature, each side
//! of the ratio apart:
//!
//! `lo' = ratio * exp(-sqrt(ln(ratio / lo)^2 + ln(1 + spread)^2))`,
//! `hi' = ratio * exp(+sqrt(ln(hi / ratio)^2 + ln(1 + spread)^2))`.
//!
//! With `t` the threshold and the band `[1 / (1 + t), 1 + t]`:
//! - *unchanged* when the widened interval lies inside the band: an
//!   equivalence decision (two one-sided tests at 2.5% each), so a change
//!   past the threshold is called unchanged at most 2.5% of the time;
//! - *slower* when it lies wholly above `1 + t`, *faster* wholly below
//!   `1 / (1 + t)`: a decision that the change passes the threshold, so a
//!   change within the threshold is called changed at most 2.5% of the
//!   time;
//! - *inconclusive* otherwise, including a change known to be real whose
//!   size cannot be told from the threshold.
//!
//! There is no dead zone: a ratio past the threshold is never unchanged,
//! however large the floors. Within one run, where two cases were timed in
//! the same rounds, the paired interval is read with a spread of 0.

use crate::{Comparison, Verdict};

/// `(lo, hi)` widened by `spread` (a fraction, e.g. a noise floor of 0.05)
/// around `ratio`, each side's log half-width combined in quadrature with
/// `ln(1 + spread)`. NaN bounds stay NaN; a negative spread counts as 0.
pub fn widened_interval(ratio: f64, ci95: (f64, f64), spread: f64) -> (f64, f64) {
    let w = (1.0 + spread.max(0.0)).ln();
    let side = |bound: f64| {
        let h = (bound / ratio).ln().abs();
        h.hypot(w)
    };
    (ratio * (-side(ci95.0)).exp(), ratio * side(ci95.1).exp())
}

/// The verdict of a widened interval against `1 +- threshold` (the band
/// `[1 / (1 + t), 1 + t]`); Inconclusive when either bound is not finite.
pub fn verdict_of(widened: (f64, f64), threshold: f64) -> Verdict {
    let (lo, hi) = widened;
    if !(lo.is_finite() && hi.is_finite()) || lo <= 0.0 {
        return Verdict::Inconclusive;
    }
    let upper = 1.0 + threshold.max(0.0);
    let lower = 1.0 / upper;
    if lo > upper {
        Verdict::Slower
    } else if hi < lower {
        Verdict::Faster
    } else if lo >= lower && hi <= upper {
        Verdict::Unchanged
    } else {
        Verdict::Inconclusive
    }
}

/// The smallest change these runs could have called a change past
/// `threshold`: a ratio of `1 + d` with the widened interval's log
/// half-widths would only just clear the band, `(1 + t) exp(w) - 1` with
/// `w` the wider side. Infinite when the interval is not finite.
pub fn detectable_change(ratio: f64, widened: (f64, f64), threshold: f64) -> f64 {
    let w = (ratio / widened.0).ln().max((widened.1 / ratio).ln());
    if !w.is_finite() || !ratio.is_finite() {
        return f64::INFINITY;
    }
    (1.0 + threshold.max(0.0)) * w.max(0.0).exp() - 1.0
}

/// The 97.5th percentile of Student's t with `df` degrees of freedom
/// (1.96 past 30): the two-sided 95% factor for a spread estimated from
/// `df` squared gaps. Infinite for no degree of freedom.
pub fn student_t_975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        _ => 1.96,
    }
}

/// The between-process spread of a ratio measured in two pairs of runner
/// processes, as a fraction to widen its interval by ([`widened_interval`]).
///
/// Each process of a build lands its code and data somewhere of its own,
/// which moves a case by a fixed amount for that process's life; rounds
/// within it cannot see that offset. A ratio timed in two pairs of
/// processes is the middle of the two pairs' ratios, so its offset has the
/// standard deviation `sigma / 2`, where `sigma` is that of the gap `d`
/// between the pairs' log ratios. `gaps` are those gaps (`ln(r0 / r1)`)
/// over the cases of one run, pooled: `sigma^2 = mean(d^2)`, at least
/// `own^2` (this case's own gap). The 95% half-width is `t * sigma / 2`
/// with `t` Student's for as many degrees of freedom as gaps. 0 without
/// gaps and without an own gap.
pub fn between_process_spread(gaps: &[f64], own: Option<f64>) -> f64 {
    let finite: Vec<f64> = gaps.iter().copied().filter(|d| d.is_finite()).collect();
    let own = own.filter(|d| d.is_finite()).map(f64::abs);
    if finite.is_empty() && own.is_none() {
        return 0.0;
    }
    let pooled = finite.iter().map(|d| d * d).sum::<f64>() / finite.len().max(1) as f64;
    let sigma = pooled.max(own.unwrap_or(0.0).powi(2)).sqrt();
    let t = student_t_975(finite.len().max(1));
    (t * sigma / 2.0).exp() - 1.0
}

impl Comparison {
    /// This comparison decided against `threshold` with its interval
    /// widened by `spread` (the between-run uncertainty; 0 for cases
    /// paired within one run): sets `widened`, `verdict` and `detectable`.
    pub fn decided(mut self, spread: f64, threshold: f64) -> Self {
        self.widened = widened_interval(self.ratio, self.ci95, spread);
        self.verdict = verdict_of(self.widened, threshold);
        self.detectable = detectable_change(self.ratio, self.widened, threshold);
        self
    }
}

/// How a regression gate reads one case: `Pass` when the widened interval
/// rules out a slowdown past `limit`, `Regressed` when it lies wholly past
/// it, `Open` when it leaves one possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Decided not to regress by more than the limit.
    Pass,
    /// Decided slower by more than the limit.
    Regressed,
    /// A slowdown past the limit is neither ruled out nor shown.
    Open,
}

/// The gate's reading of a widened interval against a slowdown of `limit`
/// (a fraction): one-sided, so any speed-up passes.
pub fn gate(widened: (f64, f64), limit: f64) -> Gate {
    let bar = 1.0 + limit.max(0.0);
    if !(widened.0.is_finite() && widened.1.is_finite()) {
        Gate::Open
    } else if widened.0 > bar {
        Gate::Regressed
    } else if widened.1 <= bar {
        Gate::Pass
    } else {
        Gate::Open
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(ratio: f64, ci95: (f64, f64)) -> Comparison {
        Comparison {
            ratio,
            ci95,
            verdict: Verdict::Inconclusive,
            intervals_overlap: false,
            widened: ci95,
            detectable: f64::INFINITY,
        }
    }

    #[test]
    fn a_thirty_percent_slowdown_under_wide_floors_is_never_unchanged() {
        let c = exact(1.30, (1.284, 1.316)).decided(0.38, 0.02);
        assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
        // ln 1.38 = 0.322 dominates: 1.30 / 1.38 .. 1.30 * 1.38, about.
        assert!(c.widened.0 < 0.95 && c.widened.1 > 1.79, "{c:?}");
        // 1.02 * exp(sqrt(0.0124^2 + 0.322^2)) - 1 = 40.8%.
        assert!((c.detectable - 0.408).abs() < 0.002, "{c:?}");
        // However wide the threshold, past it it is not unchanged.
        let c = exact(1.30, (1.284, 1.316)).decided(0.38, 0.25);
        assert_ne!(c.verdict, Verdict::Unchanged, "{c:?}");
    }

    #[test]
    fn a_thirty_percent_slowdown_under_small_floors_is_slower() {
        let c = exact(1.30, (1.284, 1.316)).decided(0.01, 0.02);
        assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
        assert!(c.widened.0 > 1.27 && c.widened.1 < 1.33, "{c:?}");
        assert_eq!(
            exact(1.0 / 1.30, (1.0 / 1.316, 1.0 / 1.284))
                .decided(0.01, 0.02)
                .verdict,
            Verdict::Faster
        );
    }

    #[test]
    fn an_aa_pair_with_small_floors_is_unchanged() {
        let c = exact(1.00, (0.99, 1.01)).decided(0.005, 0.02);
        assert_eq!(c.verdict, Verdict::Unchanged, "{c:?}");
        // sqrt(0.01^2 + 0.005^2) = 0.0112: 1.02 * e^0.0112 - 1 = 3.1%.
        assert!((c.detectable - 0.0315).abs() < 0.001, "{c:?}");
        // The same pair under a 3% floor cannot be told from a 2% change.
        let c = exact(1.00, (0.99, 1.01)).decided(0.03, 0.02);
        assert_eq!(c.verdict, Verdict::Inconclusive, "{c:?}");
    }

    #[test]
    fn a_real_change_within_the_threshold_is_unchanged_and_one_at_it_inconclusive() {
        // 5% slower for sure, against a 10% threshold: within it.
        let c = exact(1.05, (1.04, 1.06)).decided(0.0, 0.10);
        assert_eq!(c.verdict, Verdict::Unchanged);
        // 10% slower for sure: on the edge, not decided either way.
        let c = exact(1.10, (1.09, 1.11)).decided(0.0, 0.10);
        assert_eq!(c.verdict, Verdict::Inconclusive);
    }

    #[test]
    fn nothing_to_compare_is_inconclusive_never_unchanged() {
        let c = exact(f64::NAN, (f64::NAN, f64::NAN)).decided(0.0, 0.02);
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(c.detectable.is_infinite());
        assert_eq!(gate(c.widened, 0.10), Gate::Open);
    }

    #[test]
    fn widening_is_in_quadrature_on_each_side() {
        // No spread: the interval itself.
        let (lo, hi) = widened_interval(1.1, (1.0, 1.3), 0.0);
        assert!((lo - 1.0).abs() < 1e-12 && (hi - 1.3).abs() < 1e-12);
        // An exact ratio: the spread alone, symmetric in log space.
        let (lo, hi) = widened_interval(1.0, (1.0, 1.0), 0.1);
        assert!((lo - 1.0 / 1.1).abs() < 1e-12 && (hi - 1.1).abs() < 1e-12);
    }

    #[test]
    fn a_process_offset_the_rounds_cannot_see_widens_the_ratio() {
        // A/A: both pairs of processes put one case 3% apart, the same way;
        // the paired interval alone calls it slower than a 2% threshold.
        let aa = (1.030, (1.027, 1.033));
        assert_eq!(verdict_of(aa.1, 0.02), Verdict::Slower);
        // The run's other cases moved 4% between their pairs of processes:
        // a process alone can move a case that far, so 3% is not a change.
        let gaps = [0.04, -0.035, 0.045, -0.04, 0.03, -0.05, 0.04, 0.038];
        let spread = between_process_spread(&gaps, Some(0.001));
        let widened = widened_interval(aa.0, aa.1, spread);
        assert_eq!(
            verdict_of(widened, 0.02),
            Verdict::Inconclusive,
            "{widened:?}"
        );
        // A real 15% slowdown in the same run is still found.
        let slowed = widened_interval(1.15, (1.145, 1.155), spread);
        assert_eq!(verdict_of(slowed, 0.02), Verdict::Slower, "{slowed:?}");
        // Processes that agree leave the interval as it was.
        assert_eq!(between_process_spread(&[], None), 0.0);
        let calm = between_process_spread(&[0.0; 12], Some(0.0));
        assert_eq!(calm, 0.0);
    }

    #[test]
    fn a_case_whose_own_processes_disagree_is_held_to_its_own_gap() {
        let pooled = between_process_spread(&[0.002; 20], Some(0.002));
        let own = between_process_spread(&[0.002; 20], Some(0.06));
        // t(20) * 0.06 / 2 = 6.3%.
        assert!(
            (own - ((2.086f64 * 0.03).exp() - 1.0)).abs() < 1e-9,
            "{own}"
        );
        assert!(pooled < 0.003 && own > 0.06, "{pooled} {own}");
        assert!(student_t_975(0).is_infinite() && student_t_975(100) == 1.96);
    }

    #[test]
    fn the_gate_passes_only_what_it_rules_out() {
        assert_eq!(gate((0.97, 1.04), 0.10), Gate::Pass);
        assert_eq!(gate((0.50, 0.90), 0.10), Gate::Pass);
        assert_eq!(gate((1.12, 1.18), 0.10), Gate::Regressed);
        assert_eq!(gate((1.02, 1.18), 0.10), Gate::Open);
        assert_eq!(gate((0.80, 1.40), 0.10), Gate::Open);
    }
}
