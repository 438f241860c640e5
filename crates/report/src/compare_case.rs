//! How one case of a comparison is judged: by its fastest rounds (or its
//! median, when its work varies by design), its interval widened by its
//! floor.

use cryptobench_core::verdict::seed_of;
use cryptobench_core::Measurement;
use cryptobench_stats::{compare, compare_fastest, median, Comparison, Verdict};

/// Whether a pair of measurements of one case is judged by medians: when
/// either says its work per call varies by design (a fastest round is then
/// a lucky batch). One rule per pair, so both sides are read alike.
pub(super) fn by_median(b: &Measurement, c: &Measurement) -> bool {
    b.work_varies() || c.work_varies()
}

/// The time a case is judged by: its median when `by_median`, else its
/// fastest round; `None` without samples.
pub(super) fn judged_ns(m: &Measurement, by_median: bool) -> Option<f64> {
    if by_median {
        Some(median(&m.samples_ns)).filter(|x| x.is_finite())
    } else {
        m.fastest().map(|f| f.value)
    }
}

/// One case, judged by its fastest rounds (or medians) with the machine's
/// drift divided out of the candidate's: the ratio's interval widened by
/// `floor`, the case's between-run uncertainty, and decided against
/// `threshold` ([`Comparison::decided`]).
///
/// A change that only the drift correction makes is inconclusive: the
/// canary moved and the case did not, or the other way round, and which
/// one the machine did cannot be told from two runs.
pub(super) fn compare_case(
    b: &Measurement,
    c: &Measurement,
    floor: f64,
    drift: Option<f64>,
    threshold: f64,
) -> Comparison {
    let d = drift.unwrap_or(1.0);
    let by_median = by_median(b, c);
    let scaled: Vec<f64> = c.samples_ns.iter().map(|x| x / d).collect();
    let raw = if by_median {
        compare(&b.samples_ns, &scaled, threshold, seed_of(&c.case_key()))
    } else {
        compare_fastest(&b.samples_ns, &scaled, threshold)
    };
    let mut comparison = raw.decided(floor, threshold);
    let undrifted =
        judged_ns(c, by_median).unwrap_or(f64::NAN) / judged_ns(b, by_median).unwrap_or(f64::NAN);
    let bar = 1.0 + threshold;
    let moved_itself = match comparison.verdict {
        Verdict::Slower => undrifted > bar,
        Verdict::Faster => undrifted < 1.0 / bar,
        _ => true,
    };
    if !moved_itself && undrifted.is_finite() {
        comparison.verdict = Verdict::Inconclusive;
    }
    comparison
}
