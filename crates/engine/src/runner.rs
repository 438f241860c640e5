//! Runs a list of planned cases, group by group, and reports each case as
//! it finishes.
//!
//! The runner does no I/O: the binary listens to [`Event`]s to store every
//! measurement the moment it exists and to drive the progress bar. Skipped
//! and unavailable cases become measurements too, so nothing is silently
//! dropped from a report. Cases are measured in comparison groups
//! ([`crate::group`]): the cases a suite put in one group, or else those of
//! one suite, operation, size and thread count, i.e. the backends and
//! primitives a report compares at one size.

use crate::canary::Canary;
use crate::clock::Clock;
use crate::clock::MonotonicClock;
use crate::group::{measure_group, Member, Spent};
use crate::interrupt::stop_requested;
use crate::pace::{Pace, Planned};
use crate::remeasure::{
    allowance_ns, group_canary, group_parallel_canary, second_is_faster, to_remeasure,
    widest_interval, FirstTry,
};
use cryptobench_core::{Budget, CaseSpec, CaseStatus, Measurement, PlannedCase, Setup};
use std::collections::BTreeMap;
use std::ops::Range;

/// Most members of one group: a round of a large group takes long, and
/// the interesting ratios are within a primitive or between a few.
pub const MAX_GROUP: usize = 16;
/// Bytes the members of one group may keep alive together (inputs and
/// outputs of every member at once).
const GROUP_MEMORY: u64 = 256 << 20;

/// What the runner tells its listener.
pub enum Event<'a> {
    /// Case `index` of `total` starts.
    Started {
        /// Zero-based position.
        index: usize,
        /// Number of cases.
        total: usize,
        /// The case.
        case: &'a PlannedCase,
    },
    /// A case finished (measured, failed, skipped or unavailable).
    Finished(&'a Measurement),
    /// A case measured in a disturbed moment was measured again, faster
    /// ([`crate::remeasure`]): `by` replaces `replaced`, which an earlier
    /// `Finished` reported.
    Remeasured {
        /// The first measurement.
        replaced: &'a Measurement,
        /// The one the run keeps.
        by: &'a Measurement,
    },
}

/// How the engine runs a plan.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Time the canary in every round and add its measurement at the end.
    pub canary: bool,
    /// Seed of the rounds' random order (`--seed`); `None` draws one.
    pub seed: Option<u64>,
}

/// Runs every case without a canary; returns the measurements and whether
/// a stop was requested.
pub fn run_cases(
    cases: &[PlannedCase],
    budget: &Budget,
    listener: &mut dyn FnMut(Event<'_>),
) -> (Vec<Measurement>, bool) {
    run_cases_with(cases, budget, Options::default(), listener)
}

/// The group key the engine uses when the suite named none.
pub fn default_group(spec: &CaseSpec) -> String {
    format!(
        "{}/{}/{}B/t{}",
        spec.suite, spec.operation, spec.input_bytes, spec.threads
    )
}

/// The plan cut into groups, as indices into `cases`, in the order their
/// first member was planned. Multi-thread cases and cases that will not be
/// built stay alone. A group's members are ordered by primitive (in plan
/// order) and cut into chunks of at most [`MAX_GROUP`] without splitting a
/// primitive where it fits, so a primitive's backends and peers pair up.
pub fn plan_groups(cases: &[PlannedCase]) -> Vec<(String, Vec<usize>)> {
    let mut keys: Vec<String> = Vec::new();
    let mut by_key: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        let key = match (&c.setup, c.spec.threads) {
            (Setup::Ready(_), 1) => c
                .spec
                .group
                .clone()
                .unwrap_or_else(|| default_group(&c.spec)),
            _ => format!("#{i}"),
        };
        if !by_key.contains_key(&key) {
            keys.push(key.clone());
        }
        by_key.entry(key).or_default().push(i);
    }
    let mut out = Vec::new();
    for key in keys {
        let members = by_key.remove(&key).unwrap_or_default();
        let bytes = members
            .iter()
            .map(|&i| cases[i].spec.input_bytes)
            .max()
            .unwrap_or(0);
        let limit = (GROUP_MEMORY / (3 * bytes).max(1)).clamp(1, MAX_GROUP as u64) as usize;
        // Blocks of one primitive, in plan order.
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for i in members {
            match blocks
                .iter_mut()
                .find(|b| cases[b[0]].spec.primitive == cases[i].spec.primitive)
            {
                Some(b) => b.push(i),
                None => blocks.push(vec![i]),
            }
        }
        let mut chunk: Vec<usize> = Vec::new();
        let mut n = 0;
        for block in blocks {
            if !chunk.is_empty() && chunk.len() + block.len() > limit {
                n += 1;
                out.push((format!("{key}#{n}"), std::mem::take(&mut chunk)));
            }
            for i in block {
                if chunk.len() == limit {
                    n += 1;
                    out.push((format!("{key}#{n}"), std::mem::take(&mut chunk)));
                }
                chunk.push(i);
            }
        }
        if !chunk.is_empty() {
            n += 1;
            out.push((format!("{key}#{n}"), chunk));
        }
    }
    out
}

/// Runs every case group by group; returns the measurements (the canary's
/// last, when asked for) and whether a stop was requested.
pub fn run_cases_with(
    cases: &[PlannedCase],
    budget: &Budget,
    options: Options,
    listener: &mut dyn FnMut(Event<'_>),
) -> (Vec<Measurement>, bool) {
    let ran = run_plan(cases, budget, options, listener);
    (ran.measurements, ran.stopped)
}

/// What [`run_plan`] did.
pub struct Ran {
    /// The measurements, the canary's last when asked for.
    pub measurements: Vec<Measurement>,
    /// A stop was requested.
    pub stopped: bool,
    /// Time spent building and checking cases vs. measuring them.
    pub spent: Spent,
    /// Wall time of the whole plan, ns.
    pub wall_ns: u64,
    /// Groups measured again because the machine was disturbed, and how
    /// many of those the second measurement replaced.
    pub remeasured: (usize, usize),
    /// The smallest share of its time per case a group was given to keep
    /// the run within the budget's measuring limit (1: not paced).
    pub lowest_pace: f64,
}

/// One group as first measured: where its measurements sit in the run's
/// list, and the canary batches timed meanwhile.
struct FirstPass {
    id: String,
    members: Vec<usize>,
    at: Vec<usize>,
    batches: Range<usize>,
    first: FirstTry,
    /// The group's budget, as paced: a second try gets the same.
    budget: Budget,
}

/// [`run_cases_with`], also saying where the time went.
pub fn run_plan(
    cases: &[PlannedCase],
    budget: &Budget,
    options: Options,
    listener: &mut dyn FnMut(Event<'_>),
) -> Ran {
    let clock = MonotonicClock;
    let start = clock.now_ns();
    let mut spent = Spent::default();
    let mut canary = options.canary.then(Canary::default);
    let seed = options.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let mut out = Vec::with_capacity(cases.len() + 1);
    let mut stopped = false;
    let mut done: Vec<FirstPass> = Vec::new();
    let groups = plan_groups(cases);
    let planned: Vec<Planned> = groups
        .iter()
        .map(|(_, members)| planned(members, cases, budget))
        .collect();
    let mut pace = Pace::new(
        budget.measuring_limit,
        Planned {
            nominal_ns: planned.iter().map(|p| p.nominal_ns).sum(),
            members: planned.iter().map(|p| p.members).sum(),
        },
    );
    for ((id, members), planned) in groups.into_iter().zip(planned) {
        if stop_requested() {
            stopped = true;
            break;
        }
        for &index in &members {
            listener(Event::Started {
                index,
                total: cases.len(),
                case: &cases[index],
            });
        }
        let before = canary.as_ref().map_or(0, |c| c.samples.len());
        let scale = pace.scale();
        let paced = paced(budget, scale);
        let (measured, group_spent) =
            measure_members(&id, &members, cases, &paced, &clock, canary.as_mut(), seed);
        pace.record(planned, scale, group_spent);
        spent.add(group_spent);
        for m in measured.iter().flatten() {
            listener(Event::Finished(m));
        }
        let incomplete = measured.iter().any(Option::is_none);
        let first = FirstTry {
            canary_ns: group_canary(measured.iter().flatten()),
            parallel_canary_ns: group_parallel_canary(measured.iter().flatten()),
            imprecision: widest_interval(measured.iter().flatten()),
            measuring_ns: group_spent.measuring_ns,
        };
        let at = (out.len()..out.len() + measured.len()).collect();
        out.extend(measured.into_iter().flatten());
        if incomplete {
            stopped = true;
            break;
        }
        let batches = before..canary.as_ref().map_or(0, |c| c.samples.len());
        done.push(FirstPass {
            id,
            members,
            at,
            batches,
            first,
            budget: paced,
        });
    }
    let mut remeasured = (0, 0);
    if let (Some(c), false) = (canary.as_mut(), stopped) {
        let again = Again {
            cases,
            budget,
            clock: &clock,
            seed,
        };
        let (n, replaced, interrupted) = again.run(&done, &mut out, &mut spent, c, listener);
        remeasured = (n, replaced);
        stopped |= interrupted;
    }
    if let Some(m) = canary.as_ref().and_then(Canary::measurement) {
        listener(Event::Finished(&m));
        out.push(m);
    }
    Ran {
        measurements: out,
        stopped: stopped || stop_requested(),
        spent,
        wall_ns: clock.now_ns().saturating_sub(start),
        remeasured,
        lowest_pace: pace.lowest(),
    }
}

/// What a group would cost at the budget's whole time per case: its
/// members that will be built and measured, each for `time_per_case`.
fn planned(members: &[usize], cases: &[PlannedCase], budget: &Budget) -> Planned {
    let ready = members
        .iter()
        .filter(|&&i| matches!(cases[i].setup, Setup::Ready(_)))
        .count();
    Planned {
        nominal_ns: ready as f64 * budget.time_per_case.as_nanos() as f64,
        members: ready,
    }
}

/// `budget` with `scale` of its time per case ([`crate::pace`]).
fn paced(budget: &Budget, scale: f64) -> Budget {
    Budget {
        time_per_case: budget.time_per_case.mul_f64(scale),
        ..budget.clone()
    }
}

/// What measuring a group again needs.
struct Again<'a> {
    cases: &'a [PlannedCase],
    budget: &'a Budget,
    clock: &'a MonotonicClock,
    seed: u64,
}

impl Again<'_> {
    /// Measures the disturbed groups again ([`crate::remeasure`]) and keeps
    /// the faster measurement of each; replaced measurements move to the
    /// end of `out`, which stays in the order things were measured.
    /// Returns the groups measured again, how many were replaced, and
    /// whether a stop was requested.
    fn run(
        &self,
        done: &[FirstPass],
        out: &mut Vec<Measurement>,
        spent: &mut Spent,
        canary: &mut Canary,
        listener: &mut dyn FnMut(Event<'_>),
    ) -> (usize, usize, bool) {
        let firsts: Vec<FirstTry> = done.iter().map(|g| g.first).collect();
        let first_pass_ns = spent.measuring_ns;
        let limit = self.budget.measuring_limit.map(|d| d.as_nanos() as u64);
        let allowance = allowance_ns(first_pass_ns, limit);
        let picks = to_remeasure(&firsts, allowance);
        let (mut n, mut replaced) = (0, 0);
        let mut moved: Vec<(usize, Measurement)> = Vec::new();
        let mut interrupted = false;
        for g in picks.into_iter().map(|i| &done[i]) {
            if stop_requested() {
                interrupted = true;
                break;
            }
            // A second try may cost more than its first: the allowance
            // holds for what was really spent.
            let used = spent.measuring_ns.saturating_sub(first_pass_ns);
            if (used + g.first.measuring_ns) as f64 > allowance {
                continue;
            }
            let before = canary.samples.len();
            let (measured, s) = measure_members(
                &g.id,
                &g.members,
                self.cases,
                &g.budget,
                self.clock,
                Some(&mut *canary),
                self.seed,
            );
            spent.add(s);
            n += 1;
            let batches = before..canary.samples.len();
            let complete = measured.iter().all(Option::is_some);
            let (first_ms, second_ms): (Vec<&Measurement>, Vec<&Measurement>) =
                g.at.iter()
                    .zip(measured.iter().flatten())
                    .map(|(&pos, m)| (&out[pos], m))
                    .filter(|(a, b)| {
                        a.status == CaseStatus::Measured && b.status == CaseStatus::Measured
                    })
                    .unzip();
            if !complete || !second_is_faster(&first_ms, &second_ms) {
                canary.supersede(batches);
                interrupted |= !complete;
                continue;
            }
            canary.supersede(g.batches.clone());
            replaced += 1;
            for (m, &pos) in measured.into_iter().flatten().zip(&g.at) {
                let first = &out[pos];
                if first.status != CaseStatus::Measured || m.status != CaseStatus::Measured {
                    continue;
                }
                let mut m = m;
                if let Some(load) = m.machine_load.as_mut() {
                    load.first_canary_ns = first.machine_load.as_ref().and_then(|l| l.canary_ns);
                }
                listener(Event::Remeasured {
                    replaced: first,
                    by: &m,
                });
                moved.push((pos, m));
            }
        }
        let gone: std::collections::BTreeSet<usize> = moved.iter().map(|(p, _)| *p).collect();
        let mut kept: Vec<Measurement> = std::mem::take(out)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !gone.contains(i))
            .map(|(_, m)| m)
            .collect();
        kept.extend(moved.into_iter().map(|(_, m)| m));
        *out = kept;
        (n, replaced, interrupted)
    }
}

/// Measures one group; a member that panics fails alone, as FAILED.
fn measure_members(
    id: &str,
    members: &[usize],
    cases: &[PlannedCase],
    budget: &Budget,
    clock: &MonotonicClock,
    canary: Option<&mut Canary>,
    seed: u64,
) -> (Vec<Option<Measurement>>, Spent) {
    let mut spent = Spent::default();
    let mut out: Vec<Option<Measurement>> = Vec::with_capacity(members.len());
    let mut ready: Vec<(usize, Member<'_>)> = Vec::new();
    for (slot, &i) in members.iter().enumerate() {
        let case = &cases[i];
        out.push(match &case.setup {
            Setup::Skipped(r) => Some(case.spec.measurement(CaseStatus::Skipped, Some(r.clone()))),
            Setup::Unavailable(r) => Some(
                case.spec
                    .measurement(CaseStatus::Unavailable, Some(r.clone())),
            ),
            Setup::Ready(f) if case.spec.threads > 1 => {
                // Building and checking are not told apart here: all measuring.
                let start = clock.now_ns();
                let m = guarded(&case.spec, || {
                    crate::threads::measure_threads(&case.spec, f, budget, clock)
                });
                // All of it grows with the time per case, as sampling does.
                let ns = clock.now_ns().saturating_sub(start);
                spent.measuring_ns += ns;
                spent.sampling_ns += ns;
                m
            }
            Setup::Ready(f) => {
                ready.push((
                    slot,
                    Member {
                        spec: &case.spec,
                        factory: f,
                    },
                ));
                None
            }
        });
    }
    if ready.is_empty() {
        return (out, spent);
    }
    let group: Vec<Member<'_>> = ready.iter().map(|(_, m)| *m).collect();
    // A panicking backend must not take the run (and what it measured) down.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        measure_group(id, &group, budget, clock, canary, seed)
    }));
    match result {
        Ok(r) => {
            spent.add(r.spent);
            for ((slot, _), m) in ready.iter().zip(r.measurements) {
                out[*slot] = m;
            }
        }
        Err(p) => {
            let msg = panic_message(p);
            for (slot, m) in &ready {
                out[*slot] = Some(m.spec.measurement(
                    CaseStatus::Failed,
                    Some(format!("the case (or one of its group) panicked: {msg}")),
                ));
            }
        }
    }
    (out, spent)
}

fn guarded(spec: &CaseSpec, f: impl FnOnce() -> Option<Measurement>) -> Option<Measurement> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|p| {
        Some(spec.measurement(
            CaseStatus::Failed,
            Some(format!("the case panicked: {}", panic_message(p))),
        ))
    })
}

fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready(suite: &str, primitive: &str, op: &str, bytes: u64) -> PlannedCase {
        let workload = crate::canary::workload_factory();
        PlannedCase::ready(
            CaseSpec::new(suite, primitive, "b", "1", op).size(bytes),
            move || workload(),
        )
    }

    #[test]
    fn cases_of_one_size_and_operation_form_a_group() {
        let plan = vec![
            ready("aead", "AES-256-GCM", "encrypt", 1024),
            ready("aead", "AES-256-GCM", "encrypt", 16384),
            ready("aead", "AEGIS-128L", "encrypt", 1024),
            PlannedCase::skipped(
                CaseSpec::new("aead", "X", "b", "1", "encrypt").size(1024),
                "no",
            ),
        ];
        let groups = plan_groups(&plan);
        let members: Vec<Vec<usize>> = groups.iter().map(|g| g.1.clone()).collect();
        assert_eq!(members, vec![vec![0, 2], vec![1], vec![3]]);
    }

    #[test]
    fn large_groups_are_cut_without_splitting_a_primitive() {
        let mut plan = Vec::new();
        for p in 0..6 {
            for b in 0..3 {
                let mut c = ready("cipher", &format!("P{p}"), "encrypt", 16);
                c.spec.backend = format!("b{b}");
                plan.push(c);
            }
        }
        let groups = plan_groups(&plan);
        assert!(groups.iter().all(|(_, m)| m.len() <= MAX_GROUP));
        for (_, m) in &groups {
            let prims: std::collections::BTreeSet<_> =
                m.iter().map(|&i| plan[i].spec.primitive.clone()).collect();
            assert_eq!(prims.len() * 3, m.len(), "whole primitives per chunk");
        }
        // Large messages: fewer members share memory at once.
        let big: Vec<PlannedCase> = (0..8)
            .map(|p| ready("cipher", &format!("P{p}"), "encrypt", 20_000_000))
            .collect();
        assert!(plan_groups(&big).iter().all(|(_, m)| m.len() <= 4));
    }

    /// Erratic (1 or 4 ms a batch) until the listener saw its first
    /// measurement, then quick and steady.
    struct FirstErratic(u64);
    static SEEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    impl cryptobench_core::Case for FirstErratic {
        fn run_batch(&mut self, iters: u64) -> Result<(), cryptobench_core::CaseError> {
            self.0 += 1;
            if !SEEN.load(std::sync::atomic::Ordering::SeqCst) {
                let ms = if self.0.is_multiple_of(2) { 1 } else { 4 };
                std::thread::sleep(std::time::Duration::from_millis(ms));
            }
            std::hint::black_box((0..iters).sum::<u64>());
            Ok(())
        }
    }

    #[test]
    fn an_erratic_group_is_measured_again_and_the_faster_try_kept() {
        let erratic = PlannedCase::ready(CaseSpec::new("t", "E", "b", "1", "op"), || {
            Ok(Box::new(FirstErratic(0)) as Box<dyn cryptobench_core::Case>)
        });
        // Steady groups beside it, so its second try fits the allowance
        // however long its first took on a loaded machine.
        let mut plan = vec![erratic];
        for i in 0..8 {
            let mut steady = ready("t", "S", "other", 0);
            steady.spec.group = Some(format!("alone{i}"));
            steady.spec.backend = format!("b{i}");
            plan.push(steady);
        }
        let options = Options {
            canary: true,
            seed: Some(3),
        };
        let mut replaced = Vec::new();
        let ran = run_plan(&plan, &Budget::quick(), options, &mut |ev| match ev {
            Event::Finished(m) if m.primitive == "E" => {
                SEEN.store(true, std::sync::atomic::Ordering::SeqCst)
            }
            Event::Remeasured {
                replaced: first,
                by,
            } => replaced.push((first.median_ns(), by.median_ns())),
            _ => {}
        });
        assert!(!ran.stopped);
        // A loaded machine may disturb a steady group too; the erratic
        // group, the most disturbed, comes back first and is replaced.
        let (again, kept) = ran.remeasured;
        assert!(again >= 1 && kept >= 1, "{replaced:?} {:?}", ran.spent);
        let (first, second) = replaced[0];
        assert!(second < first, "{first:?} -> {second:?}");
        // Measured order: the groups kept from the first pass, the second
        // tries kept (the erratic one's among them), then the canary.
        let order: Vec<&str> = ran
            .measurements
            .iter()
            .map(|m| m.primitive.as_str())
            .collect();
        assert_eq!(order.len(), 10);
        assert_eq!(order[9], crate::canary::PRIMITIVE);
        let moved = &ran.measurements[9 - kept..9];
        let e = moved.iter().find(|m| m.primitive == "E").expect("E moved");
        assert!(e
            .machine_load
            .as_ref()
            .is_some_and(|l| l.first_canary_ns.is_some()));
        assert_eq!(order.iter().filter(|p| **p == "S").count(), 8);
    }

    #[test]
    fn the_canary_measurement_comes_last() {
        let plan = vec![ready("t", "A", "op", 0), ready("t", "B", "op", 0)];
        let options = Options {
            canary: true,
            seed: Some(1),
        };
        let (ms, stopped) = run_cases_with(&plan, &Budget::quick(), options, &mut |_| {});
        assert!(!stopped);
        assert_eq!(ms.len(), 3);
        assert_eq!(ms[2].suite, crate::canary::SUITE);
        assert_eq!(ms[0].group, ms[1].group);
        assert!(ms[0].group.is_some());
    }
}
