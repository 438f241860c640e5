//! How one case of a comparison is judged: by its fastest rounds, or by
//! its time relative to the canary in its own rounds, against its limit.

use cryptobench_core::verdict::seed_of;
use cryptobench_core::{Measurement, PairedRatio};
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

/// Both runs' time of a one-core library case relative to the canary in
/// its own rounds ([`Measurement::canary_ratio`]), when both have one
/// from at least [`MIN_OWN_ROUNDS`] rounds. Not for a case timed in two
/// runner processes (its runtime's restart gap is the floor there) or one
/// judged by its median.
pub(super) fn canary_in_own_rounds<'m>(
    b: &'m Measurement,
    c: &'m Measurement,
) -> Option<(&'m PairedRatio, &'m PairedRatio)> {
    if by_median(b, c) || !b.samples_process.is_empty() || !c.samples_process.is_empty() {
        return None;
    }
    let usable = |p: &&PairedRatio| {
        p.rounds >= MIN_OWN_ROUNDS
            && p.ratio.is_finite()
            && p.ratio > 0.0
            && p.ci95[0] > 0.0
            && p.ci95[1] >= p.ci95[0]
    };
    Some((
        b.canary_ratio().filter(usable)?,
        c.canary_ratio().filter(usable)?,
    ))
}

/// Fewest rounds a case's ratio to the canary must rest on to judge it.
pub(super) const MIN_OWN_ROUNDS: usize = 5;

/// One case judged by its time relative to the canary in its own rounds:
/// the candidate's median per-round ratio over the baseline's, with the
/// interval from both ratios' intervals, against `run_limit` or the
/// half-width of either interval when larger. A round's machine speed
/// lands on the case and the canary alike, so this ratio carries no
/// drift of the machine between moments, which the fastest rounds and a
/// suite's drift leave in: on the pairs of quick runs here, 90-95% of the
/// one-core library cases stayed within 2% by this ratio, against 41-68%
/// by raw fastest rounds and 70-89% with each suite's drift divided out.
/// As in [`compare_case`], a change the case's own fastest rounds do not
/// show past the limit in the same direction is inconclusive.
pub(super) fn compare_in_own_rounds(
    b: &Measurement,
    c: &Measurement,
    pb: &PairedRatio,
    pc: &PairedRatio,
    run_limit: f64,
) -> (Comparison, f64) {
    let half_width = |p: &PairedRatio| (p.ci95[1] - p.ci95[0]) / 2.0 / p.ratio;
    let limit = run_limit.max(half_width(pb)).max(half_width(pc));
    let ratio = pc.ratio / pb.ratio;
    let intervals_overlap = pb.ci95[0] <= pc.ci95[1] && pc.ci95[0] <= pb.ci95[1];
    let verdict = if (ratio - 1.0).abs() <= limit {
        Verdict::Unchanged
    } else if intervals_overlap {
        Verdict::Inconclusive
    } else if ratio > 1.0 {
        Verdict::Slower
    } else {
        Verdict::Faster
    };
    let raw = judged_ns(c, false).unwrap_or(f64::NAN) / judged_ns(b, false).unwrap_or(f64::NAN);
    let moved_itself = match verdict {
        Verdict::Slower => raw > 1.0 + limit,
        Verdict::Faster => raw < 1.0 - limit,
        _ => true,
    };
    let comparison = Comparison {
        ratio,
        ci95: (pc.ci95[0] / pb.ci95[1], pc.ci95[1] / pb.ci95[0]),
        verdict: if moved_itself || !raw.is_finite() {
            verdict
        } else {
            Verdict::Inconclusive
        },
        intervals_overlap,
    };
    (comparison, limit)
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
