//! Statistics for cryptobench, kept apart from measurement and reporting.
//!
//! Everything here is a pure function over a slice of numbers (usually the
//! per-iteration times of one case, in nanoseconds): no I/O, no clocks, no
//! global state. That keeps the arithmetic testable against hand-computed
//! values and lets the store recompute any figure from the raw samples it
//! keeps.
//!
//! Resampling (the bootstrap confidence intervals) draws from a small
//! built-in PRNG, [`SplitMix64`], seeded by the caller: the same samples and
//! the same seed always give the same interval, so a report can be
//! reproduced exactly from a stored run.
//!
//! Conventions:
//! - inputs are assumed free of NaN; ordering uses `f64::total_cmp`, so a
//!   stray NaN sorts last instead of panicking;
//! - an empty slice yields NaN for location figures (median, mean,
//!   quantiles, MAD) rather than a panic;
//! - quantiles interpolate linearly between order statistics (Hyndman & Fan
//!   type 7, the default of R and numpy).
#![deny(missing_docs)]

pub mod decide;
pub mod fast_end;
pub mod paired;
pub mod welch;
pub use decide::{
    between_process_spread, detectable_change, gate, student_t_975, verdict_of, widened_interval,
    Gate,
};
pub use fast_end::{compare_fastest, fast_floor, halves_residual, shared_drift, Fastest};
pub use paired::{
    median_ci_rank, paired_ratio, quantile_ci_rank, ratio_estimate, relative_half_width,
    round_ratios, stretch_medians, widened, PairedEstimate,
};

/// Ascending copy of `xs`, ordered with `f64::total_cmp`.
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Linear interpolation `lo + frac * (hi - lo)`; shared so that every median
/// in this crate (direct or resampled) rounds the same way.
fn interpolate(lo: f64, hi: f64, frac: f64) -> f64 {
    if frac == 0.0 {
        lo
    } else {
        lo + frac * (hi - lo)
    }
}

/// Quantile `q` (0..=1, clamped) of an already ascending slice, type 7.
///
/// NaN for an empty slice or a NaN `q`. Exposed so callers that need several
/// quantiles of one sample sort it only once.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() || q.is_nan() {
        return f64::NAN;
    }
    let q = q.clamp(0.0, 1.0);
    let h = (sorted.len() - 1) as f64 * q;
    let below = h.floor() as usize;
    let above = (below + 1).min(sorted.len() - 1);
    interpolate(sorted[below], sorted[above], h - below as f64)
}

/// Quantile `q` (0..=1, clamped) of `xs`, interpolating linearly between
/// order statistics (R type 7 / numpy default). NaN for an empty slice.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    quantile_sorted(&sorted(xs), q)
}

/// Median of `xs` (type-7 quantile 0.5). NaN for an empty slice.
pub fn median(xs: &[f64]) -> f64 {
    quantile(xs, 0.5)
}

/// Index of the median element of `xs` (the lower middle one for an even
/// count), for picking the sample whose details to show. `None` when empty.
pub fn median_index(xs: &[f64]) -> Option<usize> {
    let mut idx: Vec<usize> = (0..xs.len()).collect();
    idx.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    idx.get(xs.len().checked_sub(1)? / 2).copied()
}

/// Arithmetic mean. NaN for an empty slice.
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample standard deviation (divisor n - 1); 0 when there are fewer than
/// two values, since no spread can be observed.
pub fn stddev(xs: &[f64]) -> f64 {
    variance(xs).sqrt()
}

/// Sample variance (divisor n - 1, two passes for accuracy); 0 when there
/// are fewer than two values.
pub fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let sum_sq: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    sum_sq / (xs.len() - 1) as f64
}

/// Median absolute deviation from the median, unscaled (no 1.4826 factor).
/// NaN for an empty slice.
pub fn mad(xs: &[f64]) -> f64 {
    let med = median(xs);
    let deviations: Vec<f64> = xs.iter().map(|x| (x - med).abs()).collect();
    median(&deviations)
}

/// Scale factor of the modified Z-score (Iglewicz & Hoaglin 1993): the 0.75
/// quantile of the standard normal, which makes MAD comparable to a standard
/// deviation.
const MAD_Z_FACTOR: f64 = 0.6745;

/// Divisor used when MAD is zero: the mean absolute deviation times
/// sqrt(pi/2) = 1.253314 estimates the standard deviation of a normal sample
/// (equivalently a factor 0.7979 = sqrt(2/pi) in the numerator).
const MEAN_AD_SCALE: f64 = 1.253314;

/// Modified Z-score of every value, in input order.
///
/// `0.6745 * (x - median) / MAD` (Iglewicz & Hoaglin). Timing samples are
/// often quantised so that more than half of them are equal and MAD is 0;
/// then the mean absolute deviation is used instead,
/// `(x - median) / (1.253314 * meanAD)`. If that is 0 as well every value is
/// identical and every score is 0.
pub fn modified_z_scores(xs: &[f64]) -> Vec<f64> {
    if xs.is_empty() {
        return Vec::new();
    }
    let med = median(xs);
    let mad = mad(xs);
    if mad > 0.0 {
        return xs.iter().map(|x| MAD_Z_FACTOR * (x - med) / mad).collect();
    }
    let mean_ad = mean(&xs.iter().map(|x| (x - med).abs()).collect::<Vec<_>>());
    if mean_ad > 0.0 {
        xs.iter()
            .map(|x| (x - med) / (MEAN_AD_SCALE * mean_ad))
            .collect()
    } else {
        vec![0.0; xs.len()]
    }
}

/// Modified Z-score above which a value is reported as an outlier
/// (the threshold recommended by Iglewicz & Hoaglin).
pub const OUTLIER_Z: f64 = 3.5;

/// Indices (ascending) of the values whose modified Z-score exceeds
/// [`OUTLIER_Z`] in absolute value. Outliers are only flagged: the caller
/// keeps every sample and reports these as warnings.
pub fn outliers(xs: &[f64]) -> Vec<usize> {
    modified_z_scores(xs)
        .iter()
        .enumerate()
        .filter(|(_, z)| z.abs() > OUTLIER_Z)
        .map(|(i, _)| i)
        .collect()
}

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, well-mixed PRNG.
///
/// Not cryptographic; it only drives bootstrap resampling, where a fixed,
/// dependency-free generator makes intervals reproducible across versions.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// Generator whose whole output stream is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// Next 64 uniformly distributed bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in `0..n` without modulo bias (Lemire's
    /// multiply-and-reject). Returns 0 when `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            // Reject the few low values that would over-represent some results.
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as usize
    }
}

/// Number of bootstrap resamples used by [`summarize`] and [`compare`].
pub const DEFAULT_RESAMPLES: usize = 2000;

/// Median of `buf`, reordering it in place: linear-time selection instead of
/// a full sort, same rounding as [`median`].
fn median_in_place(buf: &mut [f64]) -> f64 {
    let n = buf.len();
    if n == 0 {
        return f64::NAN;
    }
    let upper_index = n / 2;
    let (lower_part, upper, _) = buf.select_nth_unstable_by(upper_index, f64::total_cmp);
    let upper = *upper;
    if n % 2 == 1 {
        return upper;
    }
    let lower = lower_part
        .iter()
        .copied()
        .max_by(f64::total_cmp)
        .unwrap_or(upper);
    interpolate(lower, upper, 0.5)
}

/// Medians of `resamples` bootstrap resamples of `xs` (drawn with
/// replacement, same size as `xs`), in draw order.
fn bootstrap_medians(xs: &[f64], resamples: usize, rng: &mut SplitMix64) -> Vec<f64> {
    let mut buf = vec![0.0; xs.len()];
    (0..resamples)
        .map(|_| {
            for slot in buf.iter_mut() {
                *slot = xs[rng.below(xs.len())];
            }
            median_in_place(&mut buf)
        })
        .collect()
}

/// Central `level` percentile interval of a bootstrap distribution.
fn percentile_interval(mut stats: Vec<f64>, level: f64) -> (f64, f64) {
    stats.sort_by(f64::total_cmp);
    let level = if level.is_nan() {
        f64::NAN
    } else {
        level.clamp(0.0, 1.0)
    };
    (
        quantile_sorted(&stats, (1.0 - level) / 2.0),
        quantile_sorted(&stats, (1.0 + level) / 2.0),
    )
}

/// Percentile-bootstrap confidence interval of the median at `level`
/// (e.g. 0.95), from `resamples` resamples (at least 1) drawn with a
/// [`SplitMix64`] seeded by `seed`.
///
/// A single value gives `(x, x)`; an empty slice `(NaN, NaN)`.
pub fn bootstrap_median_ci(xs: &[f64], level: f64, resamples: usize, seed: u64) -> (f64, f64) {
    match xs {
        [] => (f64::NAN, f64::NAN),
        [x] => (*x, *x),
        _ => {
            let mut rng = SplitMix64::new(seed);
            percentile_interval(bootstrap_medians(xs, resamples.max(1), &mut rng), level)
        }
    }
}

/// Every summary figure of one sample, as stored with a measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleStats {
    /// Number of samples.
    pub n: usize,
    /// Median.
    pub median: f64,
    /// 95% percentile-bootstrap confidence interval of the median.
    pub ci95: (f64, f64),
    /// 25th percentile (type 7).
    pub p25: f64,
    /// 75th percentile (type 7).
    pub p75: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1).
    pub stddev: f64,
    /// Unscaled median absolute deviation.
    pub mad: f64,
    /// Indices of modified-Z-score outliers (warnings only).
    pub outliers: Vec<usize>,
}

/// All summary figures of `xs`; the median's 95% CI uses
/// [`DEFAULT_RESAMPLES`] resamples seeded by `seed`.
///
/// An empty slice gives `n = 0`, NaN figures (stddev 0) and no outliers.
pub fn summarize(xs: &[f64], seed: u64) -> SampleStats {
    let ordered = sorted(xs);
    SampleStats {
        n: xs.len(),
        median: quantile_sorted(&ordered, 0.5),
        ci95: bootstrap_median_ci(xs, 0.95, DEFAULT_RESAMPLES, seed),
        p25: quantile_sorted(&ordered, 0.25),
        p75: quantile_sorted(&ordered, 0.75),
        min: ordered.first().copied().unwrap_or(f64::NAN),
        max: ordered.last().copied().unwrap_or(f64::NAN),
        mean: mean(xs),
        stddev: stddev(xs),
        mad: mad(xs),
        outliers: outliers(xs),
    }
}

/// Outcome of comparing a candidate run against a baseline (times: lower is
/// better), decided on the ratio's widened interval ([`decide`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The candidate takes less time by more than the threshold.
    Faster,
    /// The candidate takes more time by more than the threshold.
    Slower,
    /// Any change is within the threshold.
    Unchanged,
    /// Neither: this pair of runs cannot tell.
    Inconclusive,
}

impl Verdict {
    /// The word printed in tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "SLOWER",
            Verdict::Unchanged => "unchanged",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// Whether the comparison reached a decision (not inconclusive).
    pub fn decided(self) -> bool {
        self != Verdict::Inconclusive
    }
}

/// Two-run comparison of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// median(candidate) / median(baseline); above 1 means slower.
    pub ratio: f64,
    /// 95% interval of the ratio from the samples alone.
    pub ci95: (f64, f64),
    /// The verdict of `widened` against the threshold
    /// ([`Comparison::decided`]).
    pub verdict: Verdict,
    /// Whether the two medians' own 95% intervals overlap.
    pub intervals_overlap: bool,
    /// `ci95` widened by the between-run uncertainty
    /// ([`widened_interval`]); `ci95` itself for a paired comparison.
    pub widened: (f64, f64),
    /// The smallest change this comparison could have called a change
    /// past its threshold ([`detectable_change`]), a fraction.
    pub detectable: f64,
}

/// Default threshold: a change within 2% counts as no change.
pub const DEFAULT_NOISE_THRESHOLD: f64 = 0.02;

/// Seed of the candidate's resampling stream, derived from the caller's
/// seed so the two samples are resampled independently. (Seeds `s` and
/// `s + γ` would give SplitMix64 streams shifted by one draw, hence the
/// hashing.)
fn candidate_seed(seed: u64) -> u64 {
    SplitMix64::new(seed ^ 0xC0FF_EE00_D15E_A5E5).next_u64()
}

/// A comparison of `ratio` with interval `ci95`, not yet decided.
pub(crate) fn undecided(ratio: f64, ci95: (f64, f64), intervals_overlap: bool) -> Comparison {
    Comparison {
        ratio,
        ci95,
        verdict: Verdict::Inconclusive,
        intervals_overlap,
        widened: ci95,
        detectable: f64::INFINITY,
    }
}

/// Compare two samples of times with [`DEFAULT_RESAMPLES`] resamples; see
/// [`compare_with_resamples`].
pub fn compare(baseline: &[f64], candidate: &[f64], threshold: f64, seed: u64) -> Comparison {
    compare_with_resamples(baseline, candidate, threshold, DEFAULT_RESAMPLES, seed)
}

/// Compare two samples of times (lower is better).
///
/// `ratio = median(candidate) / median(baseline)`. Both samples are
/// bootstrapped independently (`resamples` each, at least 1); the ratio's 95%
/// interval is the percentile interval of the ratios of paired resampled
/// medians, and each median's own 95% interval comes from the same draws.
/// The baseline is resampled with `seed` itself, so its interval equals
/// `bootstrap_median_ci(baseline, 0.95, resamples, seed)`.
///
/// The verdict is decided on the ratio's interval against `threshold`
/// without widening ([`Comparison::decided`] with a spread of 0; a caller
/// that knows the runs' floors decides again). An empty sample gives a NaN
/// ratio and Inconclusive.
pub fn compare_with_resamples(
    baseline: &[f64],
    candidate: &[f64],
    threshold: f64,
    resamples: usize,
    seed: u64,
) -> Comparison {
    let ratio = median(candidate) / median(baseline);
    if baseline.is_empty() || candidate.is_empty() {
        return undecided(ratio, (f64::NAN, f64::NAN), false).decided(0.0, threshold);
    }
    let resamples = resamples.max(1);
    let base_medians = bootstrap_medians(baseline, resamples, &mut SplitMix64::new(seed));
    let cand_medians = bootstrap_medians(
        candidate,
        resamples,
        &mut SplitMix64::new(candidate_seed(seed)),
    );
    let ratios: Vec<f64> = base_medians
        .iter()
        .zip(&cand_medians)
        .map(|(b, c)| c / b)
        .collect();
    let base_ci = percentile_interval(base_medians, 0.95);
    let cand_ci = percentile_interval(cand_medians, 0.95);
    let intervals_overlap = base_ci.0 <= cand_ci.1 && cand_ci.0 <= base_ci.1;
    undecided(ratio, percentile_interval(ratios, 0.95), intervals_overlap).decided(0.0, threshold)
}

/// Compare stored medians when raw samples are not available: no interval
/// can be computed, so `ci95 = (ratio, ratio)` and `intervals_overlap =
/// true`; the verdict comes from the ratio alone until a caller widens it.
pub fn compare_medians_only(
    baseline_median: f64,
    candidate_median: f64,
    threshold: f64,
) -> Comparison {
    let ratio = candidate_median / baseline_median;
    undecided(ratio, (ratio, ratio), true).decided(0.0, threshold)
}

/// How far the 95% interval of the median reaches above it, as a fraction
/// of it: the smallest change a comparison of medians can resolve.
/// Infinite for an empty sample.
pub fn median_resolution(xs: &[f64], seed: u64) -> f64 {
    let m = median(xs);
    if m.is_nan() || m <= 0.0 {
        return f64::INFINITY;
    }
    let (_, hi) = bootstrap_median_ci(xs, 0.95, DEFAULT_RESAMPLES, seed);
    hi / m - 1.0
}

#[cfg(test)]
mod tests;
