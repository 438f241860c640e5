//! How one case of a comparison is judged: by its fastest rounds (or its
//! median, when its work varies by design), against its limit.

use cryptobench_core::verdict::seed_of;
use cryptobench_core::Measurement;
use cryptobench_stats::{
    compare_fastest, compare_medians_past, median, median_resolution, Comparison, Verdict,
};

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

/// One case, judged by its fastest rounds with the machine's drift divided
/// out of the candidate's. Returns the comparison and the limit it was
/// judged against: `run_limit`, or the resolution of either fastest round
/// when that is larger (a case whose fastest rounds scatter by 6% cannot
/// tell a 5% change from luck).
///
/// A change that only the drift correction makes is inconclusive: the
/// canary moved and the case did not, or the other way round, and which
/// one the machine did cannot be told from two runs.
pub(super) fn compare_case(
    b: &Measurement,
    c: &Measurement,
    run_limit: f64,
    drift: Option<f64>,
) -> (Comparison, f64) {
    let d = drift.unwrap_or(1.0);
    let by_median = by_median(b, c);
    let seed = seed_of(&c.case_key());
    let resolution = |m: &Measurement| {
        if by_median {
            median_resolution(&m.samples_ns, seed)
        } else {
            m.fastest().map_or(0.0, |f| f.resolution())
        }
    };
    let limit = run_limit.max(resolution(b)).max(resolution(c));
    let scaled: Vec<f64> = c.samples_ns.iter().map(|x| x / d).collect();
    let mut comparison = if by_median {
        compare_medians_past(&b.samples_ns, &scaled, limit, seed)
    } else {
        compare_fastest(&b.samples_ns, &scaled, limit)
    };
    let undrifted =
        judged_ns(c, by_median).unwrap_or(f64::NAN) / judged_ns(b, by_median).unwrap_or(f64::NAN);
    let moved_itself = match comparison.verdict {
        Verdict::Slower => undrifted > 1.0 + limit,
        Verdict::Faster => undrifted < 1.0 - limit,
        _ => true,
    };
    if !moved_itself && undrifted.is_finite() {
        comparison.verdict = Verdict::Inconclusive;
    }
    (comparison, limit)
}
