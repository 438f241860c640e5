//! Paired ratios and the cheap interval the engine's stopping rule uses.
//!
//! When two cases are timed in the same rounds, round `i` of one and round
//! `i` of the other ran moments apart, so a drift of the machine (a noisy
//! neighbour, a frequency change) lands on both. The ratio of the two is then
//! estimated from the per-round ratios, not from two medians taken at
//! different times.

use crate::{bootstrap_median_ci, median, quantile_sorted, sorted, DEFAULT_RESAMPLES};

/// Distribution-free 95% interval of the median from order statistics
/// (normal approximation of the binomial ranks), `(lo, hi)`.
///
/// Cheap (one sort) and slightly conservative, which suits a stopping rule
/// evaluated after every round; the reported interval stays the bootstrap.
/// Fewer than 6 values give `(min, max)`; an empty slice `(NaN, NaN)`.
pub fn median_ci_rank(xs: &[f64]) -> (f64, f64) {
    quantile_ci_rank(xs, 0.5)
}

/// Distribution-free 95% interval of the `q` quantile from order
/// statistics: the ranks `n q +- 1.96 sqrt(n q (1 - q))` (normal
/// approximation of the binomial count below the quantile), `(lo, hi)`.
/// An empty slice gives `(NaN, NaN)`.
pub fn quantile_ci_rank(xs: &[f64], q: f64) -> (f64, f64) {
    quantile_ci_rank_sorted(&sorted(xs), q)
}

/// [`quantile_ci_rank`] of an already ascending slice.
fn quantile_ci_rank_sorted(v: &[f64], q: f64) -> (f64, f64) {
    let n = v.len();
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    let q = q.clamp(0.0, 1.0);
    let half = 1.96 * (n as f64 * q * (1.0 - q)).sqrt();
    let mid = n as f64 * q;
    let lo = (mid - half).floor().max(0.0) as usize;
    let hi = ((mid + half).ceil() as usize).min(n - 1);
    (v[lo.min(n - 1)], v[hi])
}

/// Half-width of the rank interval of the median relative to the median:
/// the precision `xs` has reached (0.01 = +-1%). Infinite when undefined.
pub fn relative_half_width(xs: &[f64]) -> f64 {
    let v = sorted(xs);
    let m = quantile_sorted(&v, 0.5);
    let (lo, hi) = quantile_ci_rank_sorted(&v, 0.5);
    if m.is_finite() && m > 0.0 && lo.is_finite() && hi.is_finite() {
        (hi - lo) / 2.0 / m
    } else {
        f64::INFINITY
    }
}

/// Element-wise `a[i] / b[i]` over the rounds both have (the common prefix).
pub fn round_ratios(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter()
        .zip(b)
        .filter(|(_, y)| **y > 0.0)
        .map(|(x, y)| x / y)
        .collect()
}

/// A paired ratio: median of per-round ratios with its 95% bootstrap
/// interval and the number of rounds it rests on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedEstimate {
    /// Median of `a[i] / b[i]`.
    pub ratio: f64,
    /// 95% percentile-bootstrap interval of that median.
    pub ci95: (f64, f64),
    /// Rounds used.
    pub rounds: usize,
}

/// Paired ratio of `a` over `b` (times of the same rounds, in round order).
/// `None` with fewer than 2 common rounds.
pub fn paired_ratio(a: &[f64], b: &[f64], seed: u64) -> Option<PairedEstimate> {
    let r = round_ratios(a, b);
    if r.len() < 2 {
        return None;
    }
    Some(PairedEstimate {
        ratio: median(&r),
        ci95: bootstrap_median_ci(&r, 0.95, DEFAULT_RESAMPLES, seed),
        rounds: r.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_interval_brackets_the_median_and_narrows() {
        let xs: Vec<f64> = (0..100).map(|i| 100.0 + (i % 10) as f64).collect();
        let (lo, hi) = median_ci_rank(&xs);
        let m = median(&xs);
        assert!(lo <= m && m <= hi, "{lo} {m} {hi}");
        let few = &xs[..5];
        assert_eq!(median_ci_rank(few), (100.0, 104.0), "five values: min..max");
        assert!(relative_half_width(&xs) <= relative_half_width(few));
        assert!(relative_half_width(&[]).is_infinite());
    }

    #[test]
    fn a_common_drift_cancels_in_paired_ratios() {
        // Both cases slow down together by up to 40%; b is always 2x a.
        let drift: Vec<f64> = (0..20).map(|i| 1.0 + 0.02 * i as f64).collect();
        let a: Vec<f64> = drift.iter().map(|d| 100.0 * d).collect();
        let b: Vec<f64> = drift.iter().map(|d| 200.0 * d).collect();
        let p = paired_ratio(&a, &b, 7).unwrap();
        assert!((p.ratio - 0.5).abs() < 1e-12);
        assert!((p.ci95.0 - 0.5).abs() < 1e-12 && (p.ci95.1 - 0.5).abs() < 1e-12);
        assert_eq!(p.rounds, 20);
        // Unpaired medians would carry the drift into a wide interval.
        assert!(paired_ratio(&a[..1], &b[..1], 7).is_none());
    }

    #[test]
    fn ratios_use_the_common_prefix_only() {
        assert_eq!(round_ratios(&[2.0, 4.0, 6.0], &[1.0, 2.0]), vec![2.0, 2.0]);
    }
}
