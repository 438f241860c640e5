//! Runs a list of planned cases, group by group, and reports each case as
//! it finishes.
//!
//! The runner does no I/O: the binary listens to [`Event`]s to store every
//! measurement the moment it exists and to drive the progress bar. Skipped
//! and unavailable cases become measurements too, so nothing is silently
//! dropped from a report. Cases are measured in comparison groups
//! ([`crate::group::rounds`]): the cases a suite put in one group, or else those of
//! one suite, operation, size and thread count, i.e. the backends and
//! primitives a report compares at one size.

use crate::group::canary::Canary;
use crate::group::rounds::Spent;
use crate::sample::clock::Clock;
use crate::sample::clock::MonotonicClock;
use crate::sample::interrupt::stop_requested;
use crate::schedule::interleave::{run_interleaved, Feed, Finished, Next};
use crate::schedule::pace::{MemberCost, Pace, Planned};
use crate::schedule::remeasure::{
    allowance_ns, erratic_limit, group_readings, second_is_faster, to_remeasure, widest_interval,
    FirstTry,
};
use cryptobench_core::{Budget, CaseSpec, CaseStatus, Measurement, PlannedCase, Setup};
use std::collections::BTreeMap;

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
    /// ([`crate::schedule::remeasure`]): `by` replaces `replaced`, which an earlier
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
/// primitive where it fits, so a primitive's backends and peers pair up;
/// members marked [`CaseSpec::cut_by_backend`] are kept together by backend
/// (and API) instead. Cut by primitive, seed 004's 10 MiB group of GCM and
/// CCM with their runtime twins (fourteen members, eight fit) put every GCM
/// in one group and every CCM in another, so its GCM / CCM ratios were
/// quotients of medians from different rounds.
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
        // Blocks of one primitive (or backend), in plan order.
        let block_of = |i: usize| {
            let s = &cases[i].spec;
            if s.cut_by_backend {
                (
                    s.backend.as_str(),
                    s.params.get("api").map_or("", |a| a.as_str()),
                )
            } else {
                (s.primitive.as_str(), "")
            }
        };
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for i in members {
            match blocks.iter_mut().find(|b| block_of(b[0]) == block_of(i)) {
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
    batches: Vec<usize>,
    first: FirstTry,
    /// The group's budget, as paced: a second try gets the same.
    budget: Budget,
}

/// A group handed to the interleaver and not yet finished.
struct Given {
    id: String,
    members: Vec<usize>,
    /// Its number in the plan, as the pace knows it.
    index: usize,
    scale: f64,
    budget: Budget,
}

/// The first pass: every group of the plan, paced, reported as it ends.
struct FirstFeed<'a, 'l> {
    cases: &'a [PlannedCase],
    groups: std::iter::Enumerate<std::vec::IntoIter<(String, Vec<usize>)>>,
    budget: &'a Budget,
    pace: Pace,
    given: Vec<Option<Given>>,
    out: Vec<Measurement>,
    done: Vec<FirstPass>,
    stopped: bool,
    spent: Spent,
    listener: &'l mut dyn FnMut(Event<'_>),
}

impl Feed for FirstFeed<'_, '_> {
    fn next(&mut self) -> Option<Next> {
        if self.stopped || stop_requested() {
            return None;
        }
        let (index, (id, members)) = self.groups.next()?;
        for &index in &members {
            (self.listener)(Event::Started {
                index,
                total: self.cases.len(),
                case: &self.cases[index],
            });
        }
        let scale = self.pace.scale();
        let budget = paced(self.budget, scale);
        let tag = self.given.len();
        self.given.push(Some(Given {
            id: id.clone(),
            members: members.clone(),
            index,
            scale,
            budget: budget.clone(),
        }));
        Some(Next {
            tag,
            id,
            members,
            budget,
        })
    }

    fn finished(&mut self, done: Finished) {
        let Some(g) = self.given.get_mut(done.tag).and_then(Option::take) else {
            return;
        };
        self.pace.record(g.index, g.scale, done.spent);
        self.spent.add(done.spent);
        for m in done.measured.iter().flatten() {
            (self.listener)(Event::Finished(m));
        }
        let incomplete = done.measured.iter().any(Option::is_none);
        let first = FirstTry {
            readings: group_readings(done.measured.iter().flatten()),
            imprecision: widest_interval(done.measured.iter().flatten()),
            measuring_ns: done.spent.measuring_ns,
        };
        let at =
            (self.out.len()..self.out.len() + done.measured.iter().flatten().count()).collect();
        self.out.extend(done.measured.into_iter().flatten());
        if incomplete {
            self.stopped = true;
            return;
        }
        self.done.push(FirstPass {
            id: g.id,
            members: g.members,
            at,
            batches: done.canary_batches,
            first,
            budget: g.budget,
        });
    }
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
    // One-core measurements on one core; multi-core cases widen.
    let _pinned = crate::host::affinity::pin();
    // The canary's batch no longer than a case's, so short samples do
    // not spend most of each round on it.
    let canary_batch_ns = budget.min_sample.as_nanos() as f64;
    let mut canary = options
        .canary
        .then(|| Canary::with_batch_ns(canary_batch_ns));
    let seed = options.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let groups = plan_groups(cases);
    let planned = groups
        .iter()
        .map(|(_, members)| planned(members, cases, budget))
        .collect();
    let pace = Pace::new(budget.measuring_limit, budget.warmup, planned);
    let mut first = FirstFeed {
        cases,
        groups: groups.into_iter().enumerate(),
        budget,
        pace,
        given: Vec::new(),
        out: Vec::with_capacity(cases.len() + 1),
        done: Vec::new(),
        stopped: false,
        spent: Spent::default(),
        listener,
    };
    let interrupted = run_interleaved(cases, &mut first, &clock, canary.as_mut(), seed);
    let FirstFeed {
        pace,
        mut out,
        done,
        mut stopped,
        mut spent,
        listener,
        ..
    } = first;
    stopped |= interrupted;
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

/// What a group would cost as pacing models it: its members that will be
/// built and measured, each with its time per case, its suite's guess of
/// one call and its floor of rounds.
fn planned(members: &[usize], cases: &[PlannedCase], budget: &Budget) -> Planned {
    Planned {
        suite: members
            .first()
            .map(|&i| cases[i].spec.suite.clone())
            .unwrap_or_default(),
        members: members
            .iter()
            .map(|&i| &cases[i])
            .filter(|c| matches!(c.setup, Setup::Ready(_)))
            .map(|c| member_cost(&c.spec, budget))
            .collect(),
    }
}

/// What one case costs as pacing models it, at its full time per case:
/// `run --dry-run` costs cases by the same model.
pub fn member_cost(spec: &CaseSpec, budget: &Budget) -> MemberCost {
    let sample_ns = budget.min_sample_for(spec).as_nanos() as f64;
    MemberCost {
        time_ns: budget.time_per_case.as_nanos() as f64,
        batch_ns: spec.expected_ns.max(sample_ns),
        slow: spec.expected_ns > sample_ns,
        min_rounds: budget.fewest_rounds(spec),
        min_slow_rounds: budget.min_slow_samples,
    }
}

/// `budget` with `scale` of its time per case ([`crate::schedule::pace`]).
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

/// The second tries, interleaved like the first pass, each judged against
/// its first when it ends.
struct AgainFeed<'a, 'l> {
    done: &'a [FirstPass],
    picks: std::vec::IntoIter<usize>,
    allowance: f64,
    /// Measuring time the second tries have taken so far, ns.
    used_ns: u64,
    /// What the second tries in flight cost on their first try, ns.
    flying_ns: u64,
    out: &'a [Measurement],
    moved: Vec<(usize, Measurement)>,
    spent: Spent,
    n: usize,
    replaced: usize,
    interrupted: bool,
    superseded: Vec<usize>,
    listener: &'l mut dyn FnMut(Event<'_>),
}

impl Feed for AgainFeed<'_, '_> {
    fn next(&mut self) -> Option<Next> {
        if stop_requested() {
            return None;
        }
        // A second try may cost more than its first: the allowance holds
        // for what was really spent, and for what is in flight.
        for pick in self.picks.by_ref() {
            let g = &self.done[pick];
            let committed = self.used_ns + self.flying_ns + g.first.measuring_ns;
            if committed as f64 > self.allowance {
                continue;
            }
            self.flying_ns += g.first.measuring_ns;
            return Some(Next {
                tag: pick,
                id: g.id.clone(),
                members: g.members.clone(),
                budget: g.budget.clone(),
            });
        }
        None
    }

    fn finished(&mut self, done: Finished) {
        let g = &self.done[done.tag];
        self.flying_ns = self.flying_ns.saturating_sub(g.first.measuring_ns);
        self.used_ns += done.spent.measuring_ns;
        self.spent.add(done.spent);
        self.n += 1;
        let complete = done.measured.iter().all(Option::is_some);
        let (first_ms, second_ms): (Vec<&Measurement>, Vec<&Measurement>) = g
            .at
            .iter()
            .zip(done.measured.iter().flatten())
            .map(|(&pos, m)| (&self.out[pos], m))
            .filter(|(a, b)| a.status == CaseStatus::Measured && b.status == CaseStatus::Measured)
            .unzip();
        if !complete || !second_is_faster(&first_ms, &second_ms) {
            self.superseded.extend(done.canary_batches);
            self.interrupted |= !complete;
            return;
        }
        self.superseded.extend(g.batches.iter().copied());
        self.replaced += 1;
        for (m, &pos) in done.measured.into_iter().flatten().zip(&g.at) {
            let first = &self.out[pos];
            if first.status != CaseStatus::Measured || m.status != CaseStatus::Measured {
                continue;
            }
            let mut m = m;
            if let Some(load) = m.machine_load.as_mut() {
                load.first_canary_ns = first.machine_load.as_ref().and_then(|l| l.canary_ns);
            }
            (self.listener)(Event::Remeasured {
                replaced: first,
                by: &m,
            });
            self.moved.push((pos, m));
        }
    }
}

impl Again<'_> {
    /// Measures the disturbed groups again ([`crate::schedule::remeasure`]) and keeps
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
        let limit = self.budget.measuring_limit.map(|d| d.as_nanos() as u64);
        let allowance = allowance_ns(spent.measuring_ns, limit);
        let picks = to_remeasure(&firsts, allowance, erratic_limit(self.budget.precision));
        let mut feed = AgainFeed {
            done,
            picks: picks.into_iter(),
            allowance,
            used_ns: 0,
            flying_ns: 0,
            out,
            moved: Vec::new(),
            spent: Spent::default(),
            n: 0,
            replaced: 0,
            interrupted: false,
            superseded: Vec::new(),
            listener,
        };
        let stopped = run_interleaved(self.cases, &mut feed, self.clock, Some(canary), self.seed);
        let AgainFeed {
            moved,
            spent: again_spent,
            n,
            replaced,
            interrupted,
            superseded,
            ..
        } = feed;
        spent.add(again_spent);
        canary.supersede(superseded);
        let gone: std::collections::BTreeSet<usize> = moved.iter().map(|(p, _)| *p).collect();
        let mut kept: Vec<Measurement> = std::mem::take(out)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !gone.contains(i))
            .map(|(_, m)| m)
            .collect();
        kept.extend(moved.into_iter().map(|(_, m)| m));
        *out = kept;
        (n, replaced, interrupted || stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready(suite: &str, primitive: &str, op: &str, bytes: u64) -> PlannedCase {
        let workload = crate::group::canary::workload_factory();
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

    #[test]
    fn a_group_cut_by_backend_keeps_each_backends_primitives_together() {
        // Seed 004's shape: GCM and CCM of seven backends at 10 MiB, where
        // a group holds eight members.
        let mut plan = Vec::new();
        for p in ["GCM", "CCM"] {
            for b in 0..7 {
                let mut c = ready("aead", p, "encrypt", 10 << 20);
                c.spec.backend = format!("b{b}");
                c.spec.group = Some("paper".into());
                c.spec.cut_by_backend = true;
                plan.push(c);
            }
        }
        let groups = plan_groups(&plan);
        assert!(groups.len() >= 2, "{groups:?}");
        for b in 0..7 {
            let backend = format!("b{b}");
            let holding: Vec<usize> = groups
                .iter()
                .enumerate()
                .filter(|(_, (_, m))| m.iter().any(|&i| plan[i].spec.backend == backend))
                .map(|(g, _)| g)
                .collect();
            assert_eq!(holding.len(), 1, "{backend} in groups {holding:?}");
        }
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
        assert_eq!(order[9], crate::group::canary::PRIMITIVE);
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
        assert_eq!(ms[2].suite, crate::group::canary::SUITE);
        assert_eq!(ms[0].group, ms[1].group);
        assert!(ms[0].group.is_some());
    }
}
