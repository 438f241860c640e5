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

/// The median of each of [`STRETCHES`] consecutive stretches of `ratios`
/// (per-round ratios in round order); empty with fewer than
/// [`STRETCH_ROUNDS`] rounds to a stretch.
///
/// The bootstrap takes rounds as independent, but a ratio can drift while
/// a run lasts: seed 004's GCM / CCM encrypt in PHP read 1.96, 2.10, 1.97
/// and 1.84x over the four quarters of one quick run (1.96x over its 270
/// rounds, interval 1.90-2.01x), as `openssl_encrypt`'s fresh 10 MiB
/// string cost what page faults cost at the moment. An interval that also
/// holds each stretch's median says what the run saw, so a claim holds
/// only if it held throughout; without drift each stretch's median lies
/// about as far out as the bootstrap interval's ends.
pub fn stretch_medians(ratios: &[f64]) -> Vec<f64> {
    let n = ratios.len();
    if n < STRETCHES * STRETCH_ROUNDS {
        return Vec::new();
    }
    (0..STRETCHES)
        .map(|k| median(&ratios[k * n / STRETCHES..(k + 1) * n / STRETCHES]))
        .collect()
}

/// Stretches of a run whose own ratios [`stretch_medians`] gives.
pub const STRETCHES: usize = 4;
/// Fewest rounds to a stretch for [`stretch_medians`].
pub const STRETCH_ROUNDS: usize = 5;

/// `(lo, hi)` widened to hold each of `values`.
pub fn widened(interval: (f64, f64), values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    values
        .into_iter()
        .fold(interval, |(lo, hi), v| (lo.min(v), hi.max(v)))
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
    ratio_estimate(&round_ratios(a, b), seed)
}

/// [`paired_ratio`] from per-round ratios already formed
/// ([`round_ratios`]), for a caller that reads them again.
pub fn ratio_estimate(ratios: &[f64], seed: u64) -> Option<PairedEstimate> {
    if ratios.len() < 2 {
        return None;
    }
    Some(PairedEstimate {
        ratio: median(ratios),
        ci95: bootstrap_median_ci(ratios, 0.95, DEFAULT_RESAMPLES, seed),
        rounds: ratios.len(),
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
    fn stretch_medians_follow_a_ratio_that_drifts() {
        let ramp: Vec<f64> = (0..40).map(|i| 1.0 + 0.01 * i as f64).collect();
        let m = stretch_medians(&ramp);
        assert_eq!(m.len(), STRETCHES);
        assert!(
            (m[0] - 1.045).abs() < 1e-9 && (m[3] - 1.345).abs() < 1e-9,
            "{m:?}"
        );
        assert!(m.windows(2).all(|w| w[0] < w[1]), "{m:?}");
        assert!(stretch_medians(&ramp[..STRETCHES * STRETCH_ROUNDS - 1]).is_empty());
        assert_eq!(widened((1.1, 1.2), m.clone()), (m[0], m[3]));
        assert_eq!(widened((1.1, 1.2), [1.15]), (1.1, 1.2));
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
