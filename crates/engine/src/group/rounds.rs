//! Comparison groups: the cases whose ratios a command reports, measured
//! together, round by round.
//!
//! Measured one after another, two cases see different moments of a shared
//! machine, and its drift lands in their ratio. A group instead times one
//! calibrated batch of every member per round, in a fresh random order each
//! round, so round `i` of every member comes from the same moment and each
//! ratio is a median of per-round ratios. The canary joins every round, so
//! each case also knows how fast the machine was while it ran.
//!
//! Sampling is adaptive: a member stops once the 95% interval of its median
//! (and of its paired ratio to every member still sampling) is within
//! `Budget::precision`, after at least [`MIN_ROUNDS`] rounds; or when its
//! time budget is spent, and it then says how precise it got. A member
//! whose noise keeps it from the target still samples its whole budget: an
//! earlier stop, projected from its spread after 10 rounds, saved time but
//! caught a 5% slowdown in 1 of 10 comparisons instead of 10 of 10 (the
//! `sensitivity` example). The reference
//! (the first member with a short, self-calibrated batch) keeps sampling
//! while any other member does, so every ratio to it rests on all rounds.

use crate::build::checked::{build_placed_checked, from_case_error};
use crate::group::canary::{self, Canary};
use crate::host::load;
use crate::sample::clock::Clock;
use crate::sample::interrupt::stop_requested;
use crate::sample::sampling::{
    calibrate, finish, precision_of, reported_precision, slow_warning, time_batch, Calibration,
    Sampled, MAX_SAMPLE_FACTOR,
};
use cryptobench_core::verdict::seed_of;
use cryptobench_core::{
    Budget, Case, CaseFactory, CaseSpec, Measurement, PairedRatio, EDGE_BUDGETS,
};
use cryptobench_stats::{
    bootstrap_median_ci, median, median_ci_rank, paired_ratio, relative_half_width, round_ratios,
    stretch_medians, widened, SplitMix64, DEFAULT_RESAMPLES,
};
use std::time::Duration;

/// Fewest rounds before a member may stop for being precise enough.
pub const MIN_ROUNDS: usize = 5;
/// A slow operation (one call per sample) gets [`SLOW_ROUNDS`] when they
/// fit in this many case budgets, else the [`MIN_ROUNDS`] a 95% interval
/// of its median needs (with fewer, the interval is min..max and covers
/// the median less often) when those fit; a slower one stops at
/// `Budget::min_slow_samples` and says imprecise.
pub const SLOW_ROUNDS_BUDGETS: f64 = 5.0;
/// The rounds a slow operation gets when they fit: the 95% bootstrap
/// interval of a median of five calls spans all five, so one outlying
/// call sets it; of seven, it runs from the second to the sixth. A
/// default run's 64 MiB Argon2 hashes, five calls each, scattered by a
/// MAD of 0.1-0.8% and still missed +-1% on one call 2-4% off.
pub const SLOW_ROUNDS: usize = 7;

/// Why a member stopped sampling.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    /// Its interval (and its ratio's) reached the target.
    Precise,
    /// Its time budget or its largest number of rounds was spent.
    Budget,
}

/// One case of a group.
#[derive(Clone, Copy)]
pub struct Member<'a> {
    /// What it is.
    pub spec: &'a CaseSpec,
    /// How to build it.
    pub factory: &'a CaseFactory,
}

/// What a group produced: one entry per member, in member order; `None`
/// for a member interrupted before it had anything worth keeping.
pub struct GroupResult {
    /// The members' measurements.
    pub measurements: Vec<Option<Measurement>>,
    /// A stop was requested while the group ran.
    pub interrupted: bool,
    /// Where the group's time went.
    pub spent: Spent,
}

/// Where measuring time went: a run's "seconds of measuring" is what its
/// budget governs, the rest (building keys and contexts, known-answer and
/// agreement checks, external runners' start-up) is not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spent {
    /// Building the cases and running their checks, ns.
    pub checking_ns: u64,
    /// Calibrating, warming up and sampling (the canary included), ns.
    pub measuring_ns: u64,
    /// The rounds' part of `measuring_ns`: what a longer time per case
    /// lengthens, while calibration and warm-up stay (`schedule::pace`, the layer above).
    pub sampling_ns: u64,
}

impl Spent {
    /// Adds `other` to this.
    pub fn add(&mut self, other: Spent) {
        self.checking_ns += other.checking_ns;
        self.measuring_ns += other.measuring_ns;
        self.sampling_ns += other.sampling_ns;
    }
}

/// A member being sampled.
struct Live {
    index: usize,
    case: Box<dyn Case>,
    m: Measurement,
    cal: Calibration,
    sampled: Sampled,
    /// The canary's time in each round this member was sampled in.
    canary: Vec<f64>,
    /// The canary's time on this member's cores at once, in the same
    /// rounds (multi-core members only).
    parallel: Vec<f64>,
    /// The memory probe's time in the same rounds (memory-bound groups).
    memory: Vec<f64>,
    /// One operation keeps more than one core busy.
    multi_core: bool,
    /// The suite's floor of rounds ([`CaseSpec::min_rounds`]).
    min_rounds: usize,
    /// The shortest batch it was calibrated to ([`Budget::min_sample_for`]).
    min_sample: Duration,
    spent_ns: f64,
    /// The calibration batch stands for round 0 (an external process).
    preloaded: bool,
    done: bool,
    stop: Option<Stop>,
    /// The round count at which the precision test next runs.
    next_check: usize,
    /// A ratio straddled a decision edge at the last test.
    undecided: bool,
}

impl Live {
    fn rounds(&self) -> usize {
        self.sampled.wall.len()
    }
}

/// Threads for the group's multi-core canary: the most cores a member's
/// operation keeps busy, at most the machine's; 1 (none) for a group of
/// one-core cases.
fn parallel_canary_threads(members: &[Member<'_>]) -> usize {
    let cores = crate::host::affinity::cores();
    members
        .iter()
        .map(|m| m.spec.cores_used() as usize)
        .max()
        .unwrap_or(1)
        .min(cores)
}

/// A group being measured: its members built, checked and calibrated,
/// sampled one round at a time ([`GroupRun::round`]), so the runner can
/// interleave the rounds of several groups (`schedule::interleave`, the layer above).
pub struct GroupRun<'a> {
    id: String,
    members: Vec<Member<'a>>,
    budget: Budget,
    out: Vec<Option<Measurement>>,
    live: Vec<Live>,
    before: Option<load::Snapshot>,
    spent: Spent,
    reference: Option<usize>,
    parallel_threads: usize,
    /// A member is memory-bound: each round also times a memory probe.
    memory_probe: bool,
    rng: SplitMix64,
    interrupted: bool,
    round: usize,
    /// Indices of the canary batches this group's rounds timed.
    canary_batches: Vec<usize>,
}

impl<'a> GroupRun<'a> {
    /// Builds, checks and calibrates every member of the group `id`. A stop
    /// requested meanwhile leaves the group interrupted, with what it has.
    /// `seed` drives the order of each round.
    pub fn start(
        id: &str,
        members: Vec<Member<'a>>,
        budget: &Budget,
        clock: &dyn Clock,
        seed: u64,
    ) -> Self {
        let parallel_threads = parallel_canary_threads(&members);
        let memory_probe = members.iter().any(|m| m.spec.memory_bound());
        let mut g = GroupRun {
            id: id.to_string(),
            out: vec![None; members.len()],
            members,
            budget: budget.clone(),
            live: Vec::new(),
            before: load::snapshot(),
            spent: Spent::default(),
            reference: None,
            parallel_threads,
            memory_probe,
            rng: SplitMix64::new(seed ^ seed_of(id)),
            interrupted: false,
            round: 0,
            canary_batches: Vec::new(),
        };
        for index in 0..g.members.len() {
            if stop_requested() {
                g.interrupted = true;
                return g;
            }
            let member = g.members[index];
            // A multi-core case builds its threads (a rayon pool) on every
            // core it will use, and calibrates there.
            let wide = member.spec.cores_used() > 1;
            let building = clock.now_ns();
            let mut trial_ns = 0;
            let built = on_cores(wide, || {
                build_placed_checked(member.spec, member.factory, clock, &mut trial_ns)
            });
            let calibrating = clock.now_ns();
            // The placement trial times batches: measuring, not checking.
            let build_ns = calibrating.saturating_sub(building);
            g.spent.checking_ns += build_ns.saturating_sub(trial_ns);
            g.spent.measuring_ns += trial_ns.min(build_ns);
            let (mut case, m) = match built {
                Ok(x) => x,
                // A stop kills external runners mid-request: interrupted, not failed.
                Err(_) if stop_requested() => {
                    g.interrupted = true;
                    return g;
                }
                Err(done) => {
                    g.out[index] = Some(*done);
                    continue;
                }
            };
            let own = g.budget.for_case(member.spec);
            let calibrated = on_cores(wide, || calibrate(case.as_mut(), &own, clock));
            g.spent.measuring_ns += clock.now_ns().saturating_sub(calibrating);
            match calibrated {
                Ok(cal) if cal.interrupted => {
                    g.interrupted = true;
                    return g;
                }
                Ok(cal) => {
                    let mut sampled = Sampled {
                        iters: cal.iters,
                        ..Sampled::default()
                    };
                    let preloaded = cal.slow && case.calibration_is_a_sample();
                    if preloaded {
                        sampled.push(&cal.first);
                    }
                    g.live.push(Live {
                        index,
                        case,
                        m,
                        spent_ns: if preloaded { cal.batch_ns } else { 0.0 },
                        cal,
                        sampled,
                        canary: Vec::new(),
                        parallel: Vec::new(),
                        memory: Vec::new(),
                        multi_core: member.spec.cores_used() > 1,
                        min_rounds: g.budget.fewest_rounds(member.spec),
                        min_sample: own.min_sample,
                        preloaded,
                        done: false,
                        stop: None,
                        next_check: 0,
                        undecided: false,
                    });
                }
                Err(_) if stop_requested() => {
                    g.interrupted = true;
                    return g;
                }
                Err(e) => g.out[index] = Some(from_case_error(member.spec, e, m.checks)),
            }
        }
        g.reference = g.live.iter().position(|l| !l.cal.slow);
        g
    }

    /// Whether sampling is over: every member stopped, or a stop was requested.
    pub fn done(&self) -> bool {
        self.interrupted || self.live.iter().all(|l| l.done)
    }

    /// The canary batches this group's rounds timed, as indices into the
    /// canary's samples.
    pub fn canary_batches(&self) -> &[usize] {
        &self.canary_batches
    }

    /// One round: a batch of every member still sampling, in a fresh random
    /// order, and one canary batch at a random place among them. A
    /// multi-core member's batch, and the canary on several cores, run on
    /// every core; the rest on the measuring core ([`crate::host::affinity`]).
    pub fn round(&mut self, clock: &dyn Clock, mut canary: Option<&mut Canary>) {
        if self.done() {
            return;
        }
        let started = clock.now_ns();
        let threads = self.parallel_threads;
        let probe = self.memory_probe;
        let time_canary = |canary: Option<&mut Canary>, batches: &mut Vec<usize>| {
            canary.map(|c| {
                let one = c.sample(clock);
                batches.push(c.samples.len() - 1);
                let many = on_cores(threads > 1, || c.sample_parallel(threads));
                let memory = probe.then(|| canary::memory_probe_ns(clock)).flatten();
                (one, many, memory)
            })
        };
        let live = &mut self.live;
        let mut order: Vec<usize> = (0..live.len()).filter(|&i| !live[i].done).collect();
        shuffle(&mut order, &mut self.rng);
        let canary_at = self.rng.below(order.len() + 1);
        let mut canary_ns = None;
        for (pos, &i) in order.iter().enumerate() {
            if pos == canary_at {
                canary_ns = time_canary(canary.as_deref_mut(), &mut self.canary_batches);
            }
            if stop_requested() {
                self.interrupted = true;
                break;
            }
            let l = &mut live[i];
            if self.round == 0 && l.preloaded {
                continue;
            }
            match on_cores(l.multi_core, || {
                time_batch(l.case.as_mut(), l.cal.iters, clock)
            }) {
                Ok(t) => {
                    l.sampled.push(&t);
                    l.spent_ns += t.wall_ns;
                }
                Err(_) if stop_requested() => {
                    self.interrupted = true;
                    break;
                }
                Err(e) => {
                    let checks = std::mem::take(&mut l.m.checks);
                    self.out[l.index] =
                        Some(from_case_error(self.members[l.index].spec, e, checks));
                    l.done = true;
                    l.sampled.wall.clear();
                }
            }
        }
        if canary_ns.is_none() && !self.interrupted {
            canary_ns = time_canary(canary, &mut self.canary_batches);
        }
        for &i in &order {
            if let (Some((one, many, memory)), false) = (canary_ns, live[i].sampled.wall.is_empty())
            {
                let l = &mut live[i];
                if l.canary.len() < l.rounds() {
                    l.canary.push(one);
                    if let Some(many) = many.filter(|_| l.multi_core) {
                        l.parallel.push(many);
                    }
                    l.memory.extend(memory);
                }
            }
        }
        let rounds_ns = clock.now_ns().saturating_sub(started);
        self.spent.measuring_ns += rounds_ns;
        self.spent.sampling_ns += rounds_ns;
        if self.interrupted {
            return;
        }
        self.round += 1;
        let others_active = |live: &[Live], me: usize| {
            live.iter()
                .enumerate()
                .any(|(j, l)| j != me && !l.done && !l.sampled.wall.is_empty())
        };
        for i in order {
            if live[i].done || live[i].sampled.wall.is_empty() {
                continue;
            }
            // Sorting every sample after every round costs more than a
            // short batch once rounds run to thousands, so the precision
            // test runs at checkpoints about 3% of the rounds apart.
            let n = live[i].rounds();
            let due = n >= live[i].next_check;
            let ratio_width = due.then(|| {
                let (width, undecided) = paired_ratios(live, i, &self.budget.decision_edges);
                live[i].undecided = undecided;
                live[i].next_check = n + (n / CHECK_SPACING).max(1);
                width
            });
            let keep_for_others = Some(i) == self.reference && others_active(live, i);
            live[i].stop = member_stop(&live[i], &self.budget, ratio_width, keep_for_others);
            live[i].done = live[i].stop.is_some();
        }
    }

    /// Marks the group interrupted: [`Self::finish`] then keeps only
    /// members with enough rounds to say something.
    pub fn interrupt(&mut self) {
        self.interrupted = true;
    }

    /// The members' measurements, in member order.
    pub fn finish(self) -> GroupResult {
        let GroupRun {
            id,
            budget,
            mut out,
            live,
            before,
            spent,
            interrupted,
            ..
        } = self;
        let after = load::snapshot();
        let mut machine = match (before, after) {
            (Some(a), Some(b)) => Some(load::between(&a, &b, load::load1())),
            _ => None,
        };
        let grouped = live.iter().filter(|l| !l.sampled.wall.is_empty()).count() > 1;
        for mut l in live {
            if l.sampled.wall.is_empty() || out[l.index].is_some() {
                continue;
            }
            let enough = l.rounds() >= 3 || !interrupted;
            if !enough {
                continue;
            }
            l.sampled.interrupted = interrupted;
            let warning = slow_warning(&l.cal, l.rounds(), &budget);
            l.sampled.warnings.extend(warning);
            let mut m = l.m;
            if grouped {
                m.group = Some(id.clone());
            }
            finish(&mut m, l.sampled);
            m.extra.extend(l.case.extra());
            if let Some(machine) = machine.as_mut() {
                let mut here = machine.clone();
                here.canary_ns = (!l.canary.is_empty()).then(|| median(&l.canary));
                here.parallel_canary_ns = (!l.parallel.is_empty()).then(|| median(&l.parallel));
                // The fastest probe, as cases are compared by their fastest rounds.
                here.memory_probe_ns = (m.memory_bound())
                    .then(|| l.memory.iter().copied().reduce(f64::min))
                    .flatten();
                m.warnings.extend(load::busy_warning(&here));
                m.machine_load = Some(here);
            }
            let seed = seed_of(&m.case_key());
            if let Some(p) = paired_ratio(&m.samples_ns, &l.canary, seed) {
                m.paired.push(PairedRatio {
                    other: canary::PAIRED_KEY.into(),
                    ratio: p.ratio,
                    ci95: [p.ci95.0, p.ci95.1],
                    rounds: p.rounds,
                });
            }
            precision_note(&mut m, &budget, l.stop);
            out[l.index] = Some(m);
        }
        GroupResult {
            measurements: out,
            interrupted,
            spent,
        }
    }
}

/// Measures `members` as one comparison group named `id`, round after
/// round until every member stopped. With a canary, it is timed once per
/// round. `seed` drives the order of each round.
pub fn measure_group(
    id: &str,
    members: &[Member<'_>],
    budget: &Budget,
    clock: &dyn Clock,
    mut canary: Option<&mut Canary>,
    seed: u64,
) -> GroupResult {
    let mut g = GroupRun::start(id, members.to_vec(), budget, clock, seed);
    while !g.done() {
        g.round(clock, canary.as_deref_mut());
    }
    g.finish()
}

/// Runs `f` on every core when `wide` (a multi-core case), else where the
/// thread is (the measuring core, [`crate::host::affinity`]).
fn on_cores<T>(wide: bool, f: impl FnOnce() -> T) -> T {
    if wide {
        crate::host::affinity::widened(f)
    } else {
        f()
    }
}

/// Member `i`'s paired ratios at a precision test, in one pass over the
/// other sampled members: the relative half-width of its widest ratio to
/// a member still sampling (0 when none is), and whether a ratio's
/// interval holds one of `edges` (or its inverse), so that a claim
/// decided on it would be inconclusive if sampling stopped now.
///
/// A member that stopped is left out of both: its ratio to `i` rests on
/// its own rounds and no longer narrows, and it was precise against `i`
/// when it stopped, or its budget ended with the ratio undecided. For the
/// edges, the cheap rank interval decides while it holds one; once it
/// clears them, the interval a verdict reports (the bootstrap's, widened
/// to each stretch's median, `verdict::time_ratio`) must clear them too.
fn paired_ratios(live: &[Live], i: usize, edges: &[f64]) -> (f64, bool) {
    let holds_an_edge = |(lo, hi): (f64, f64)| {
        edges
            .iter()
            .flat_map(|&e| [e, 1.0 / e])
            .any(|e| lo <= e && e <= hi)
    };
    let mine = &live[i].sampled.wall;
    let mut widest: f64 = 0.0;
    let mut undecided = false;
    for (j, other) in live.iter().enumerate() {
        if j == i || other.sampled.wall.is_empty() {
            continue;
        }
        let ratios = round_ratios(mine, &other.sampled.wall);
        if !other.done {
            widest = widest.max(relative_half_width(&ratios));
        }
        // Undecided only against a member still sampling: i's further
        // rounds never enter a ratio to one that stopped, and a GCM whose
        // ratio to a stopped CCM held 4.5 sampled 1,300 rounds more for it.
        if !edges.is_empty() && !undecided && !other.done {
            undecided = holds_an_edge(median_ci_rank(&ratios))
                || holds_an_edge(widened(
                    bootstrap_median_ci(&ratios, 0.95, DEFAULT_RESAMPLES, EDGE_SEED),
                    stretch_medians(&ratios),
                ));
        }
    }
    (widest, undecided)
}

/// The bootstrap seed of the stopping rule's edge test.
const EDGE_SEED: u64 = 0x5eed_ed6e;

/// Rounds between two precision tests, as a fraction of the rounds so far
/// (1/32: a member precise enough samples at most 3% more rounds).
const CHECK_SPACING: usize = 32;

/// Whether a member has sampled enough, and why. `ratio_width` is
/// the widest from [`paired_ratios`] in a round that tests precision, `None` in the
/// rounds between. An undecided member (a ratio straddling a decision
/// edge) is never precise enough and samples up to [`EDGE_BUDGETS`]
/// times its budget.
fn member_stop(
    l: &Live,
    budget: &Budget,
    ratio_width: Option<f64>,
    keep_for_others: bool,
) -> Option<Stop> {
    let n = l.rounds();
    let undecided = l.undecided;
    let extension = if undecided { EDGE_BUDGETS } else { 1.0 };
    let cap = ((most_rounds(budget, l.min_sample) as f64 * extension) as usize).max(l.min_rounds);
    if n >= cap {
        return Some(Stop::Budget);
    }
    if keep_for_others || n < l.min_rounds {
        return None;
    }
    if let Some(ratio_width) = ratio_width {
        let width = relative_half_width(&l.sampled.wall).max(ratio_width);
        // The rank interval is cheap enough for every test; the bootstrap
        // interval the measurement reports confirms it (the rank interval
        // met +-1% where the reported one said +-1.01% in 3 of a default
        // run's 110 imprecise cases).
        if n >= MIN_ROUNDS
            && width <= budget.precision
            && !undecided
            && reported_precision(&l.sampled.wall) <= budget.precision
        {
            return Some(Stop::Precise);
        }
    }
    let per_case = budget.time_per_case.as_nanos() as f64 * extension;
    let floor = if l.cal.slow {
        slow_rounds_floor(l.spent_ns / n.max(1) as f64, budget)
    } else {
        MIN_ROUNDS
    };
    if l.spent_ns >= per_case && n >= floor {
        return Some(Stop::Budget);
    }
    None
}

/// The most rounds a member samples: four times `Budget::samples`, or as
/// many `min_sample` batches (its own, [`Budget::min_sample_for`]) as its
/// time per case holds, whichever is more, so that short samples do not
/// end a case before its time does.
fn most_rounds(budget: &Budget, min_sample: Duration) -> usize {
    let in_time = budget.time_per_case.as_nanos() / min_sample.as_nanos().max(1);
    (budget.samples.max(1) * MAX_SAMPLE_FACTOR).max(usize::try_from(in_time).unwrap_or(usize::MAX))
}

/// The fewest rounds a slow operation (one call per round, `per_round_ns`
/// each) samples before its time budget may stop it: [`SLOW_ROUNDS`], or
/// else [`MIN_ROUNDS`], when they fit in [`SLOW_ROUNDS_BUDGETS`] case
/// budgets, else the budget's `min_slow_samples`. `run --dry-run` costs
/// slow cases by the same rule.
pub fn slow_rounds_floor(per_round_ns: f64, budget: &Budget) -> usize {
    fewest_slow_rounds(
        per_round_ns,
        budget.time_per_case.as_nanos() as f64,
        budget.min_slow_samples,
    )
}

/// [`slow_rounds_floor`] for a time per case of `per_case_ns`, as the
/// pacer costs a share of it.
pub fn fewest_slow_rounds(per_round_ns: f64, per_case_ns: f64, min_slow_samples: usize) -> usize {
    let fit = |rounds: usize| rounds as f64 * per_round_ns <= SLOW_ROUNDS_BUDGETS * per_case_ns;
    if fit(SLOW_ROUNDS) {
        SLOW_ROUNDS
    } else if fit(MIN_ROUNDS) {
        MIN_ROUNDS
    } else {
        min_slow_samples.max(1)
    }
}

/// Records the precision reached and warns when it misses the target.
fn precision_note(m: &mut Measurement, budget: &Budget, stop: Option<Stop>) {
    let Some(s) = m.stats.as_mut() else { return };
    let Some(reached) = precision_of(s.ci95[0], s.ci95[1], s.median) else {
        return;
    };
    s.precision = Some(reached);
    if reached <= budget.precision {
        return;
    }
    // A member stops as precise only once this interval is (`member_stop`).
    let why = match stop {
        None => "sampling was interrupted",
        Some(_) => "the case's time budget ended first",
    };
    m.warnings.push(format!(
        "imprecise: +-{:.1}% (target +-{:.1}%): {why}",
        reached * 100.0,
        budget.precision * 100.0
    ));
}

/// Fisher-Yates with the seeded generator.
fn shuffle(v: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
}

#[cfg(test)]
#[path = "rounds_tests.rs"]
mod tests;
