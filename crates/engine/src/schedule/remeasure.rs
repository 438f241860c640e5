//! Measuring again what was measured while the machine was disturbed.
//!
//! On a shared host, other tenants slow this machine down in episodes of
//! seconds to minutes. The canary, timed in every round, shows them: its
//! time rises 10-30% above the run's usual level and falls back. A case
//! measured in such an episode differs from the same case measured a
//! minute later by more than any threshold worth reporting, and by
//! different amounts for different workloads (a hash on the SHA unit
//! slows less than Keccak on the ALUs), so dividing the canary's slowdown
//! out cannot repair it. Other disturbances never reach the canary, which
//! lives in L1: a memory-hard hash whose rounds stall on page faults
//! (5 ms rounds next to 50 ms ones) leaves a median that is mostly stall.
//! What can repair both: once every group has been measured, the groups
//! whose canary ran more than [`DISTURBED`] over the run's calm level (or
//! whose memory probe ran more than [`MEMORY_DISTURBED`] over its calm
//! level: memory-bound groups whose faults cost 1.4-1.7x for a minute), or
//! one of whose members reached an interval wider than [`ERRATIC`], are
//! measured again, most disturbed first, within [`ALLOWANCE`] of the run's
//! measuring time and the budget's `measuring_limit` (`--quick` promises a
//! minute of measuring). Disturbance only ever adds time, so of a group's two
//! measurements the faster one is kept (by the median of its members'
//! time ratios, so a group's members stay from one moment and its paired
//! ratios stay paired). The run's canary then keeps only the moments of
//! the kept measurements, so its noise floor and its drift describe what
//! the run reports.

pub use cryptobench_core::disturbance::{CalmLevels, Readings, DISTURBED, MEMORY_DISTURBED};

/// The half-width of a member's 95% interval (a fraction of its median)
/// past which its group was measured while something disturbed it.
pub const ERRATIC: f64 = 0.10;

/// The interval past which a member is erratic when the run asked for
/// `precision`: [`ERRATIC`], or the precision asked for when looser (a
/// run asked for 20% stops members at intervals of up to 20% by design).
pub fn erratic_limit(precision: f64) -> f64 {
    ERRATIC.max(precision)
}

/// The share of a run's measuring time that measuring again may add.
pub const ALLOWANCE: f64 = 0.5;

/// What the first measurement of one group cost and how fast the machine
/// was meanwhile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstTry {
    /// The median of each machine reading over the group's measured
    /// members that carry it ([`group_readings`]).
    pub readings: Readings,
    /// The widest interval a member reached (half-width over median).
    pub imprecision: f64,
    /// Measuring time the group took, ns.
    pub measuring_ns: u64,
}

/// The measuring time (ns) second tries may take after a first pass of
/// `measuring_ns`: [`ALLOWANCE`] of it, and no more than what is left
/// under `limit_ns`.
pub fn allowance_ns(measuring_ns: u64, limit_ns: Option<u64>) -> f64 {
    let share = measuring_ns as f64 * ALLOWANCE;
    limit_ns.map_or(share, |limit| {
        share.min(limit.saturating_sub(measuring_ns) as f64)
    })
}

/// The groups to measure again, as indices into `groups`, most disturbed
/// first, as many as fit in `allowance_ns`, each costed at what its first
/// try took; a member whose interval is wider than `erratic` brings its
/// group back ([`erratic_limit`]).
pub fn to_remeasure(groups: &[FirstTry], allowance_ns: f64, erratic: f64) -> Vec<usize> {
    let readings: Vec<Readings> = groups.iter().map(|g| g.readings).collect();
    let calm = CalmLevels::of_readings(&readings);
    // How disturbed: the most disturbed reading or the widest interval, in
    // units of their limits.
    let mut disturbed: Vec<(usize, f64)> = groups
        .iter()
        .enumerate()
        .map(|(i, g)| (i, calm.excess(&g.readings).max(g.imprecision / erratic)))
        .filter(|(_, score)| *score > 1.0)
        .collect();
    disturbed.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut used = 0.0;
    let mut out = Vec::new();
    for (i, _) in disturbed {
        let cost = groups[i].measuring_ns as f64;
        if used + cost <= allowance_ns {
            used += cost;
            out.push(i);
        }
    }
    out
}

/// The widest interval of measured members (half-width over median).
pub fn widest_interval<'a>(ms: impl IntoIterator<Item = &'a cryptobench_core::Measurement>) -> f64 {
    ms.into_iter()
        .filter_map(|m| m.stats.as_ref()?.precision)
        .filter(|p| p.is_finite())
        .fold(0.0, f64::max)
}

/// Whether a group's second measurement is the faster: the median of its
/// members' time ratios (second over first), members measured both times.
pub fn second_is_faster(
    first: &[&cryptobench_core::Measurement],
    second: &[&cryptobench_core::Measurement],
) -> bool {
    let ratios: Vec<f64> = first
        .iter()
        .zip(second)
        .filter_map(|(a, b)| Some(b.median_ns()? / a.median_ns()?))
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    !ratios.is_empty() && cryptobench_stats::median(&ratios) < 1.0
}

/// The median of each machine reading over measured members that carry
/// it: the canary over all, the canary on several cores over the
/// multi-core members, the memory probe over the memory-bound ones.
pub fn group_readings<'a>(
    ms: impl IntoIterator<Item = &'a cryptobench_core::Measurement> + Clone,
) -> Readings {
    Readings {
        canary: median_load(ms.clone(), |l| l.canary_ns),
        parallel: median_load(ms.clone(), |l| l.parallel_canary_ns),
        memory: median_load(ms, |l| l.memory_probe_ns),
    }
}

fn median_load<'a>(
    ms: impl IntoIterator<Item = &'a cryptobench_core::Measurement>,
    field: impl Fn(&cryptobench_core::model::MachineLoad) -> Option<f64>,
) -> Option<f64> {
    let times: Vec<f64> = ms
        .into_iter()
        .filter(|m| m.status == cryptobench_core::CaseStatus::Measured)
        .filter_map(|m| field(m.machine_load.as_ref()?))
        .filter(|t| t.is_finite() && *t > 0.0)
        .collect();
    (!times.is_empty()).then(|| cryptobench_stats::median(&times))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(canary: Option<f64>, ms: u64) -> FirstTry {
        FirstTry {
            readings: Readings {
                canary,
                ..Readings::default()
            },
            imprecision: 0.01,
            measuring_ns: ms,
        }
    }

    #[test]
    fn a_calm_run_measures_nothing_again() {
        let groups: Vec<FirstTry> = [104.0, 106.0, 105.0, 109.0, 103.0, 107.0]
            .iter()
            .map(|&c| g(Some(c), 10))
            .collect();
        assert!(to_remeasure(&groups, allowance_ns(60, None), ERRATIC).is_empty());
    }

    #[test]
    fn disturbed_groups_come_most_disturbed_first_within_the_allowance() {
        let groups = vec![
            g(Some(104.0), 10),
            g(Some(128.0), 10),
            g(Some(105.0), 10),
            g(Some(135.0), 10),
            g(None, 10),
            g(Some(103.0), 10),
            g(Some(120.0), 40),
        ];
        // 100 ns of measuring: 50 may be spent again.
        let again =
            |measuring, limit| to_remeasure(&groups, allowance_ns(measuring, limit), ERRATIC);
        assert_eq!(again(100, None), vec![3, 1]);
        assert_eq!(again(200, None), vec![3, 1, 6]);
        assert_eq!(again(10, None), Vec::<usize>::new());
        // A limit of 125 ns leaves 25 of those 50, then 10 of 100.
        assert_eq!(again(100, Some(125)), vec![3, 1]);
        assert_eq!(again(200, Some(210)), vec![3]);
        assert_eq!(again(200, Some(150)), Vec::<usize>::new());
    }

    #[test]
    fn a_slow_memory_probe_brings_its_group_back_even_with_a_calm_canary() {
        let probed = |probe_ms: f64| {
            let mut g = g(Some(100.0), 10);
            g.readings.memory = Some(probe_ms * 1e6);
            g
        };
        let groups = vec![
            probed(2.0),
            probed(2.1),
            probed(2.24),
            probed(3.06),
            g(Some(101.0), 10),
        ];
        assert_eq!(
            to_remeasure(&groups, allowance_ns(100, None), ERRATIC),
            vec![3]
        );
    }

    #[test]
    fn an_erratic_member_brings_its_group_back_even_with_a_calm_canary() {
        let mut groups = vec![g(Some(104.0), 10), g(Some(105.0), 10), g(None, 10)];
        groups[1].imprecision = 0.4;
        groups[2].imprecision = 0.2;
        assert_eq!(
            to_remeasure(&groups, allowance_ns(100, None), ERRATIC),
            vec![1, 2]
        );
        // A run that asked for 25% stops members that wide by design.
        let loose = erratic_limit(0.25);
        assert_eq!(
            to_remeasure(&groups, allowance_ns(100, None), loose),
            vec![1]
        );
        assert_eq!(erratic_limit(0.01), ERRATIC);
    }

    #[test]
    fn a_group_whose_second_core_was_away_comes_back_though_one_core_was_calm() {
        let mut groups: Vec<FirstTry> = [104.0, 105.0, 106.0, 104.0]
            .iter()
            .map(|&c| g(Some(c), 10))
            .collect();
        for (i, p) in [(1, 110.0), (2, 111.0), (3, 180.0)] {
            groups[i].readings.parallel = Some(p);
        }
        assert_eq!(
            to_remeasure(&groups, allowance_ns(100, None), ERRATIC),
            vec![3]
        );
    }

    #[test]
    fn the_faster_try_is_kept_by_the_median_member() {
        use cryptobench_core::{CaseSpec, CaseStatus, Summary};
        let m = |ns: f64| {
            let mut m =
                CaseSpec::new("s", "p", "b", "1", "op").measurement(CaseStatus::Measured, None);
            m.stats = Some(Summary {
                median: ns,
                ..Summary::default()
            });
            m
        };
        let first = [m(10.0), m(20.0), m(30.0)];
        let second = [m(9.0), m(50.0), m(27.0)];
        let (a, b): (Vec<_>, Vec<_>) = (first.iter().collect(), second.iter().collect());
        assert!(second_is_faster(&a, &b));
        assert!(!second_is_faster(&b, &a));
        assert!(!second_is_faster(&[], &[]));
    }
}
