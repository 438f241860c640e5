//! A one-core case judged against the other libraries timed in its own
//! rounds.
//!
//! The canary is one workload, integer mixing in L1. A shared host slows
//! other workloads by other amounts: between back-to-back quick runs here
//! whole groups of cases moved 3-6% one way while the canary in their own
//! rounds moved 1-3% (or the other way), because a neighbour on the host
//! contends for the vector units, the caches or the memory, which the
//! canary does not use. The other members of a case's group ran the same
//! operation on the same size at the same moments, so what their ratios
//! share with the case's ([`shared_drift`]) is the machine's drift for
//! that work. On four quick runs of one hour (six pairs), dividing it out
//! left 94-96% of natively measured cases unchanged, where the canary of
//! their suites left 65-83%.
//!
//! Only members of other backends stand for the machine, and only those
//! timed in this process: a new OpenSSL moves every OpenSSL case of a
//! group, and the runtimes and peer tools have noise of their own. With a
//! single such member a change of that member shows in the case as the
//! opposite change, but only as "inconclusive": a case is changed only
//! when its own fastest rounds moved too (`compare_case`).
//!
//! Dividing the drift out leaves how far one case moves against the
//! others between two moments. A run measures that itself: round `i` of
//! every member is one moment, so the two halves of a group's rounds are
//! two moments ([`cryptobench_stats::halves_residual`]). On those runs the
//! 97th percentile of that movement within a run was 1.9-2.9%, and between
//! runs 2.3-3.8%; a one-core case is changed only past it.

use super::FLOOR_QUANTILE;
use cryptobench_core::advice::is_runtime;
use cryptobench_core::model::is_peer;
use cryptobench_core::{CaseStatus, Measurement, Run};
use cryptobench_stats::{halves_residual, quantile, shared_drift};
use std::collections::BTreeMap;

/// Fewest cases a run's moment floor is read at [`FLOOR_QUANTILE`]
/// from: a percentile of fewer is one case's luck, so below this the
/// floor is the largest movement among them, the cautious reading.
const MIN_MOMENT_CASES: usize = 10;
/// Fewest cases a run's moment floor is read from at all.
const FEWEST_MOMENT_CASES: usize = 3;

/// Whether a measurement can stand for the machine in its group: timed
/// in this process (not in a runtime's runner, not a peer tool), with
/// fastest rounds that mean something.
fn can_be_a_mate(m: &Measurement) -> bool {
    m.status == CaseStatus::Measured
        && !m.is_canary()
        && !is_peer(&m.backend)
        && !is_runtime(m)
        && !m.work_varies()
        && m.group.is_some()
}

/// Whether two one-core cases load the machine alike: both memory-bound
/// or neither (the cost of a page fault moves one kind and not the
/// other). Multi-core cases have no mates: when the host lends a second
/// core elsewhere, two libraries' two-lane hashes in one group slowed by
/// 1.0x and 1.15x, so each read the other's slowdown as its own.
fn same_kind(a: &Measurement, b: &Measurement) -> bool {
    a.cores_used() == 1 && b.cores_used() == 1 && a.memory_bound() == b.memory_bound()
}

/// Whether a case is one-core and not memory-bound, the kind whose
/// movement between moments [`moment_floor`] measures.
fn one_core_plain(m: &Measurement) -> bool {
    m.cores_used() == 1 && !m.memory_bound()
}

/// For each pair (baseline, candidate) of one case, the pairs that can
/// stand for the machine around it: other backends' cases of its kind in
/// the same group in both runs ([`can_be_a_mate`], [`same_kind`]).
pub(super) fn mates_of(pairs: &[(&Measurement, &Measurement)]) -> Vec<Vec<usize>> {
    let mut groups: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, (b, c)) in pairs.iter().enumerate() {
        if let (Some(gb), Some(gc)) = (b.group.as_deref(), c.group.as_deref()) {
            groups.entry((gb, gc)).or_default().push(i);
        }
    }
    pairs
        .iter()
        .map(|(b, c)| {
            let (Some(gb), Some(gc)) = (b.group.as_deref(), c.group.as_deref()) else {
                return Vec::new();
            };
            groups[&(gb, gc)]
                .iter()
                .copied()
                .filter(|&j| {
                    let (mb, mc) = pairs[j];
                    mc.backend != c.backend
                        && same_kind(mc, c)
                        && can_be_a_mate(mb)
                        && can_be_a_mate(mc)
                })
                .collect()
        })
        .collect()
}

/// The drift of case `i` with mates: what it shares with them
/// ([`shared_drift`]) of their ratios of fastest rounds, candidate over
/// baseline; `None` without a mate.
pub(super) fn group_drift(
    i: usize,
    mates: &[usize],
    pairs: &[(&Measurement, &Measurement)],
) -> Option<f64> {
    let ratio = |(b, c): (&Measurement, &Measurement)| {
        Some(c.fastest()?.value / b.fastest()?.value).filter(|r| r.is_finite() && *r > 0.0)
    };
    let ratios: Vec<f64> = mates.iter().filter_map(|&j| ratio(pairs[j])).collect();
    shared_drift(ratio(pairs[i])?, &ratios)
}

/// How far a run's one-core cases moved against the other libraries in
/// their groups between the two halves of their rounds: the
/// [`FLOOR_QUANTILE`] over those cases of that movement (the larger
/// ratio over the smaller, less one); the largest of them with fewer
/// than [`MIN_MOMENT_CASES`]; `None` with fewer than
/// [`FEWEST_MOMENT_CASES`].
pub fn moment_floor(run: &Run) -> Option<f64> {
    let mut groups: BTreeMap<&str, Vec<&Measurement>> = BTreeMap::new();
    for m in run
        .measurements
        .iter()
        .filter(|m| can_be_a_mate(m) && one_core_plain(m))
    {
        if let Some(g) = m.group.as_deref() {
            groups.entry(g).or_default().push(m);
        }
    }
    let moved: Vec<f64> = groups
        .values()
        .flat_map(|members| {
            members.iter().filter_map(|m| {
                let mates: Vec<&[f64]> = members
                    .iter()
                    .filter(|o| o.backend != m.backend)
                    .map(|o| o.samples_ns.as_slice())
                    .collect();
                halves_residual(&m.samples_ns, &mates)
            })
        })
        .map(|r| r.max(1.0 / r) - 1.0)
        .collect();
    match moved.len() {
        n if n >= MIN_MOMENT_CASES => Some(quantile(&moved, FLOOR_QUANTILE)),
        n if n >= FEWEST_MOMENT_CASES => moved.into_iter().reduce(f64::max),
        _ => None,
    }
}

#[cfg(test)]
#[path = "compare_group_tests.rs"]
mod tests;
