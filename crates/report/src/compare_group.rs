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

/// Whether a case is one-core and not memory-bound, the kind whose
/// movement between moments [`moment_floor`] measures.
fn one_core_plain(m: &Measurement) -> bool {
    m.cores_used() == 1 && !m.memory_bound()
}

/// Most mates a case is judged against. A run's group holds one case per
/// library of one operation and size, a few dozen at most; a file whose
/// groups hold thousands is read through the first of them, so it costs
/// time linear in its size.
pub(super) const MAX_MATES: usize = 64;

/// The members of `items` (index, backend) of other backends than `own`,
/// at most [`MAX_MATES`], in index order: found through the members by
/// backend, so a group of one backend costs no scan of it per case.
fn other_backends(by_backend: &BTreeMap<&str, Vec<usize>>, own: &str) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for (_, idx) in by_backend.iter().filter(|(b, _)| **b != own) {
        out.extend(idx.iter().take(MAX_MATES));
        if out.len() >= MAX_MATES * 2 {
            break;
        }
    }
    out.sort_unstable();
    out.truncate(MAX_MATES);
    out
}

/// For each pair (baseline, candidate) of one case, the pairs that can
/// stand for the machine around it: other backends' cases of its kind in
/// the same group in both runs ([`can_be_a_mate`]), and of its kind: one-core,
/// memory-bound or not alike (the cost of a page fault moves one kind and
/// not the other). Multi-core cases have no mates: when the host lends a
/// second core elsewhere, two libraries' two-lane hashes in one group
/// slowed by 1.0x and 1.15x, so each read the other's slowdown as its own.
pub(super) fn mates_of(pairs: &[(&Measurement, &Measurement)]) -> Vec<Vec<usize>> {
    // Group of both runs, then memory-bound or not, then backend.
    type Buckets<'a> = BTreeMap<(&'a str, &'a str, bool), BTreeMap<&'a str, Vec<usize>>>;
    let mut buckets: Buckets<'_> = BTreeMap::new();
    for (j, (mb, mc)) in pairs.iter().enumerate() {
        if let (Some(gb), Some(gc)) = (mb.group.as_deref(), mc.group.as_deref()) {
            if can_be_a_mate(mb) && can_be_a_mate(mc) && mc.cores_used() == 1 {
                buckets
                    .entry((gb, gc, mc.memory_bound()))
                    .or_default()
                    .entry(mc.backend.as_str())
                    .or_default()
                    .push(j);
            }
        }
    }
    pairs
        .iter()
        .map(|(b, c)| {
            let (Some(gb), Some(gc)) = (b.group.as_deref(), c.group.as_deref()) else {
                return Vec::new();
            };
            if c.cores_used() != 1 {
                return Vec::new();
            }
            buckets
                .get(&(gb, gc, c.memory_bound()))
                .map(|by_backend| other_backends(by_backend, &c.backend))
                .unwrap_or_default()
        })
        .collect()
}

/// Each pair's ratio of fastest rounds, candidate over baseline: computed
/// once, read by every case the pair is a mate of.
pub(super) fn fastest_ratios(pairs: &[(&Measurement, &Measurement)]) -> Vec<Option<f64>> {
    pairs
        .iter()
        .map(|(b, c)| {
            Some(c.fastest()?.value / b.fastest()?.value).filter(|r| r.is_finite() && *r > 0.0)
        })
        .collect()
}

/// The drift of case `i` with mates: what it shares with them
/// ([`shared_drift`]) of their ratios of fastest rounds ([`fastest_ratios`]);
/// `None` without a mate.
pub(super) fn group_drift(i: usize, mates: &[usize], ratios: &[Option<f64>]) -> Option<f64> {
    let mates: Vec<f64> = mates.iter().filter_map(|&j| ratios[j]).collect();
    shared_drift(ratios[i]?, &mates)
}

/// How far a run's one-core cases moved against the other libraries in
/// their groups between the two halves of their rounds: the
/// [`FLOOR_QUANTILE`] over those cases of that movement (the larger
/// ratio over the smaller, less one); the largest of them with fewer
/// than [`MIN_MOMENT_CASES`]; `None` with fewer than
/// [`FEWEST_MOMENT_CASES`].
pub fn moment_floor(run: &Run) -> Option<f64> {
    // Group, then backend: each member's mates are up to [`MAX_MATES`]
    // members of other backends.
    type Members<'a> = (Vec<&'a Measurement>, BTreeMap<&'a str, Vec<usize>>);
    let mut groups: BTreeMap<&str, Members<'_>> = BTreeMap::new();
    for m in run
        .measurements
        .iter()
        .filter(|m| can_be_a_mate(m) && one_core_plain(m))
    {
        if let Some(g) = m.group.as_deref() {
            let (members, by_backend) = groups.entry(g).or_default();
            by_backend
                .entry(m.backend.as_str())
                .or_default()
                .push(members.len());
            members.push(m);
        }
    }
    let moved: Vec<f64> = groups
        .values()
        .flat_map(|(members, by_backend)| {
            members.iter().filter_map(|m| {
                let mates: Vec<&[f64]> = other_backends(by_backend, &m.backend)
                    .into_iter()
                    .map(|j| members[j].samples_ns.as_slice())
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
