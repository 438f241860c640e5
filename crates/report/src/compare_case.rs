//! How one case of a comparison is judged: by its fastest rounds (or its
//! median, when its work varies by design), its interval widened by its
//! floor.

use cryptobench_core::verdict::seed_of;
use cryptobench_core::Measurement;

/// The most of a case's cores [`contention_floor`] counts as shared: past
/// it the floor would be unbounded.
const MOST_SHARED: f64 = 0.9;

/// How much slower a case may have run because other processes wanted its
/// cores while it was timed: `1 / (1 - s) - 1`, where `s` is the share of
/// the case's cores that the others' CPU time (and the hypervisor's steal)
/// left it short of. On `cores` logical CPUs the others used
/// `other_cpu * cores` of them; a case keeping `k` busy had `k` free only
/// while the others used at most `cores - k`. Whatever they took beyond
/// that it shared, and a thread sharing a core got at most what was left.
/// `None` when the others left the case its cores (or no load was read).
///
/// Judging by the fastest rounds assumes some round ran alone; with the
/// cores oversubscribed for a whole case none may have: in an A/A pair of
/// quick runs taken while others used 64-83% of a 2-core machine, 22 of
/// 507 cases read 8-300% apart, none of them with its canary disturbed,
/// every one with the machine oversubscribed in one run or both.
pub fn contention_floor(m: &Measurement, cores: u32) -> Option<f64> {
    let load = m.machine_load.as_ref()?;
    let n = f64::from(cores.max(1));
    let k = f64::from(m.cores_used().clamp(1, cores.max(1)));
    let others = (load.other_cpu + load.steal).clamp(0.0, 1.0);
    let short = (k - n * (1.0 - others)).max(0.0);
    let shared = (short / k).min(MOST_SHARED);
    (shared > 0.0).then(|| 1.0 / (1.0 - shared) - 1.0)
}
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

#[cfg(test)]
mod tests {
    use super::super::tests::{canary, case_of, measured, run, series};
    use super::super::{compare_full, Verdict};
    use super::contention_floor;
    use cryptobench_core::model::MachineLoad;
    use cryptobench_core::{Measurement, Run};

    fn loaded(mut m: Measurement, other_cpu: f64) -> Measurement {
        m.machine_load = Some(MachineLoad {
            other_cpu,
            ..MachineLoad::default()
        });
        m
    }

    fn two_cores(mut r: Run) -> Run {
        r.machine.cores = 2;
        r
    }

    #[test]
    fn a_case_timed_on_an_oversubscribed_machine_is_not_called_changed() {
        // A/A on 2 cores: in the second run others used 80% of the CPU, so
        // the case shared its core throughout and its fastest round is 40%
        // slow; the canary, timed at other moments, saw nothing.
        let a = two_cores(run(
            "a",
            vec![
                loaded(measured("SHA-256", &series(100.0)), 0.3),
                canary(&series(50.0), 0.005),
            ],
        ));
        let b = two_cores(run(
            "b",
            vec![
                loaded(measured("SHA-256", &series(140.0)), 0.8),
                canary(&series(50.0), 0.005),
            ],
        ));
        let cmp = compare_full(&a, &b, 0.02);
        let case = case_of(&cmp, "SHA-256");
        assert_eq!(case.comparison.verdict, Verdict::Inconclusive, "{case:?}");
        // Others left the case 0.4 of its core: it got at most 0.4 of it.
        assert!((case.floor - 1.5).abs() < 1e-9, "{}", case.floor);
        // With its core its own in both runs the same 40% is slower.
        let b = two_cores(run(
            "b",
            vec![
                loaded(measured("SHA-256", &series(140.0)), 0.45),
                canary(&series(50.0), 0.005),
            ],
        ));
        let cmp = compare_full(&a, &b, 0.02);
        assert_eq!(case_of(&cmp, "SHA-256").comparison.verdict, Verdict::Slower);
    }

    #[test]
    fn the_contention_floor_counts_only_what_the_free_cores_could_not_hold() {
        let m = |other: f64| loaded(measured("SHA-256", &[1.0]), other);
        assert_eq!(contention_floor(&m(0.5), 2), None);
        assert_eq!(contention_floor(&measured("SHA-256", &[1.0]), 2), None);
        // 0.75 of 2 cores: 1.5 taken, the case short of 0.5 of its core.
        assert!((contention_floor(&m(0.75), 2).unwrap() - 1.0).abs() < 1e-9);
        // Never unbounded.
        assert!((contention_floor(&m(1.0), 2).unwrap() - 9.0).abs() < 1e-9);
    }
}
