use super::*;
use crate::sample::clock::mock::MockClock;
use cryptobench_core::{CaseError, CaseStatus, CheckResult};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The machine's speed as a factor on every operation's time, changed by
/// the test between batches (a drifting shared machine).
#[derive(Default)]
struct Machine {
    clock: MockClock,
    /// Slowdown in parts per thousand above 1.0, advanced per batch.
    drift_per_batch: AtomicU64,
    batches: AtomicU64,
    log: Mutex<Vec<&'static str>>,
}

impl Machine {
    fn factor(&self) -> f64 {
        let b = self.batches.load(Ordering::SeqCst) as f64;
        1.0 + b * self.drift_per_batch.load(Ordering::SeqCst) as f64 / 1000.0
    }
}

struct Fake {
    name: &'static str,
    machine: Arc<Machine>,
    op_ns: f64,
    /// Alternating extra time in parts per thousand (noise).
    jitter: u64,
    fail_check: bool,
    calls: u64,
}

impl Case for Fake {
    fn checks(&mut self) -> Vec<CheckResult> {
        vec![CheckResult::from_bool("kat", !self.fail_check, "fake")]
    }
    // Its time is a model, the same wherever it lands: the tests count its
    // batches, and a placement trial would add some.
    fn placement_free(&self) -> bool {
        true
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.calls += 1;
        let noise = if self.calls.is_multiple_of(2) {
            1.0 + self.jitter as f64 / 1000.0
        } else {
            1.0
        };
        let ns = self.op_ns * iters as f64 * self.machine.factor() * noise;
        self.machine.clock.advance(ns as u64);
        self.machine.batches.fetch_add(1, Ordering::SeqCst);
        self.machine.log.lock().unwrap().push(self.name);
        Ok(())
    }
}

fn factory(
    machine: &Arc<Machine>,
    name: &'static str,
    op_ns: f64,
    jitter: u64,
    fail_check: bool,
) -> CaseFactory {
    let machine = machine.clone();
    Arc::new(move || {
        Ok(Box::new(Fake {
            name,
            machine: machine.clone(),
            op_ns,
            jitter,
            fail_check,
            calls: 0,
        }) as Box<dyn Case>)
    })
}

fn budget() -> Budget {
    Budget {
        min_sample: Duration::from_millis(10),
        samples: 15,
        time_per_case: Duration::from_millis(300),
        warmup: Duration::from_millis(0),
        min_slow_samples: 3,
        peer_rounds: 3,
        precision: 0.01,
        measuring_limit: None,
        decision_edges: Vec::new(),
    }
}

fn spec(name: &str) -> CaseSpec {
    CaseSpec::new("t", name, "b", "1", "op")
}

/// One group of `(spec, factory)` members on the fake machine's clock,
/// with the test budget and no canary.
fn measure_on(machine: &Machine, cases: &[(&CaseSpec, &CaseFactory)], seed: u64) -> GroupResult {
    let members: Vec<Member> = cases
        .iter()
        .map(|&(spec, factory)| Member { spec, factory })
        .collect();
    measure_group("g", &members, &budget(), &machine.clock, None, seed)
}

/// A [`Fake`] member of a group: its name (in the machine's log and as the
/// spec's primitive), time per operation, jitter and whether its check fails.
type FakeMember = (&'static str, f64, u64, bool);

/// Measures one group of [`Fake`] members on `machine`'s clock and returns
/// every member's measurement, in order.
fn measure_fakes<const N: usize>(
    machine: &Arc<Machine>,
    fakes: [FakeMember; N],
    seed: u64,
) -> [Measurement; N] {
    let built: Vec<(CaseSpec, CaseFactory)> = fakes
        .iter()
        .map(|&(name, op_ns, jitter, fail_check)| {
            (
                spec(name),
                factory(machine, name, op_ns, jitter, fail_check),
            )
        })
        .collect();
    let cases: Vec<(&CaseSpec, &CaseFactory)> = built.iter().map(|(s, f)| (s, f)).collect();
    let measured: Vec<Measurement> = measure_on(machine, &cases, seed)
        .measurements
        .into_iter()
        .map(|m| m.expect("every member is measured"))
        .collect();
    measured.try_into().expect("one measurement per member")
}

#[test]
fn a_drift_of_the_machine_cancels_in_the_paired_ratio() {
    let machine = Arc::new(Machine::default());
    machine.drift_per_batch.store(20, Ordering::SeqCst); // 2% slower per batch
    let [a, b] = measure_fakes(
        &machine,
        [("a", 1_000.0, 0, false), ("b", 3_000.0, 0, false)],
        1,
    );
    assert_eq!(a.group.as_deref(), Some("g"));
    let ratio = cryptobench_core::verdict::time_ratio(&b, &a).unwrap();
    assert!(ratio.paired);
    // Each round's two batches run one after the other, so B/A is 3 times
    // the drift of one batch (2%), not the drift of the whole run.
    assert!(
        (ratio.value / 3.0 - 1.0).abs() < 0.03,
        "paired ratio {} (medians {} / {})",
        ratio.value,
        b.stats.as_ref().unwrap().median,
        a.stats.as_ref().unwrap().median
    );
}

#[test]
fn a_steady_case_stops_at_the_minimum_and_a_noisy_one_says_it_is_imprecise() {
    let machine = Arc::new(Machine::default());
    let [m] = measure_fakes(&machine, [("steady", 1_000.0, 0, false)], 1);
    assert_eq!(m.samples_ns.len(), MIN_ROUNDS);
    assert!(m.stats.unwrap().precision.unwrap() < 1e-9);
    assert!(m.warnings.iter().all(|w| !w.contains("imprecise")));

    let [n] = measure_fakes(&machine, [("noisy", 1_000.0, 100, false)], 1);
    assert!(n.samples_ns.len() > MIN_ROUNDS, "{}", n.samples_ns.len());
    assert!(
        n.warnings.iter().any(|w| w.starts_with("imprecise: +-")),
        "{:?}",
        n.warnings
    );
}

#[test]
fn a_case_the_advice_decides_on_samples_its_floor_of_rounds_though_precise() {
    // Both steady: precise after the minimum. The case with a floor of
    // twenty rounds (an advice's input) samples twenty; its group-mate
    // without one stops at the minimum.
    let machine = Arc::new(Machine::default());
    let (fa, fb) = (
        factory(&machine, "advised", 1_000.0, 0, false),
        factory(&machine, "plain", 1_000.0, 0, false),
    );
    let (sa, sb) = (spec("advised").min_rounds(20), spec("plain"));
    let r = measure_on(&machine, &[(&sa, &fa), (&sb, &fb)], 1);
    let rounds: Vec<usize> = r
        .measurements
        .iter()
        .map(|m| m.as_ref().expect("measured").samples_ns.len())
        .collect();
    assert_eq!(rounds, vec![20, MIN_ROUNDS]);
}

#[test]
fn a_failed_check_is_never_timed_and_the_rest_of_the_group_is() {
    let machine = Arc::new(Machine::default());
    let [bad, good] = measure_fakes(
        &machine,
        [("bad", 1_000.0, 0, true), ("good", 1_000.0, 0, false)],
        1,
    );
    assert_eq!(bad.status, CaseStatus::Failed);
    assert!(bad.samples_ns.is_empty());
    assert!(!machine.log.lock().unwrap().contains(&"bad"));
    assert_eq!(good.status, CaseStatus::Measured);
    assert_eq!(
        good.group, None,
        "a group of one measured member pairs nothing"
    );
}

#[test]
fn every_round_is_in_a_fresh_random_order() {
    let machine = Arc::new(Machine::default());
    measure_fakes(
        &machine,
        [("a", 1_000.0, 50, false), ("b", 1_000.0, 50, false)],
        42,
    );
    let log = machine.log.lock().unwrap().clone();
    // Skip calibration (the first batches of each); look at round openings.
    let pairs: Vec<(&str, &str)> = log.windows(2).map(|w| (w[0], w[1])).collect();
    assert!(pairs.contains(&("a", "b")) && pairs.contains(&("b", "a")));
}

#[test]
fn the_canary_is_timed_every_round_and_paired_with_each_case() {
    let f = canary::workload_factory();
    let sa = spec("A");
    let mut canary = Canary::default();
    let quick = Budget::quick();
    let r = measure_group(
        "g",
        &[Member {
            spec: &sa,
            factory: &f,
        }],
        &quick,
        &crate::sample::clock::MonotonicClock,
        Some(&mut canary),
        1,
    );
    let m = r.measurements[0].clone().unwrap();
    assert_eq!(
        canary.samples.len(),
        m.samples_ns.len(),
        "one canary batch per round"
    );
    let p = m
        .paired
        .iter()
        .find(|p| p.other == canary::PAIRED_KEY)
        .unwrap();
    assert_eq!(p.rounds, m.samples_ns.len());
    let load = m.machine_load.unwrap();
    assert!(load.canary_ns.unwrap() > 0.0);
}

#[test]
fn a_memory_bound_case_carries_the_fastest_memory_probe_of_its_rounds() {
    let f = canary::workload_factory();
    let hash = spec("hash").param("m_kib", 16384);
    let small = spec("small").param("m_kib", 64);
    let quick = Budget::quick();
    let mut canary = Canary::default();
    let r = measure_group(
        "g",
        &[
            Member {
                spec: &hash,
                factory: &f,
            },
            Member {
                spec: &small,
                factory: &f,
            },
        ],
        &quick,
        &crate::sample::clock::MonotonicClock,
        Some(&mut canary),
        1,
    );
    let load = |i: usize| r.measurements[i].clone().unwrap().machine_load.unwrap();
    let probe = load(0).memory_probe_ns.expect("a 16 MiB case is probed");
    // 4 MiB of fresh pages: past 100 us anywhere, under a second here.
    assert!(probe > 1e5 && probe < 1e9, "{probe} ns");
    assert_eq!(load(1).memory_probe_ns, None, "64 KiB is not memory-bound");
}

/// A case whose batches take `op_ns` per call plus a seeded, uniformly
/// drawn extra of up to `spread` parts per thousand: an interval that
/// narrows as the rounds grow, unlike [`Fake`]'s alternating jitter.
struct Spread {
    machine: Arc<Machine>,
    op_ns: f64,
    spread: u64,
    rng: cryptobench_stats::SplitMix64,
}

impl Case for Spread {
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        let extra = self.rng.below(self.spread as usize + 1) as f64 / 1000.0;
        let ns = self.op_ns * iters as f64 * (1.0 + extra);
        self.machine.clock.advance(ns as u64);
        self.machine.batches.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
    // A model, as [`Fake`] is: a trial would draw from its seeded spread.
    fn placement_free(&self) -> bool {
        true
    }
}

fn spread_factory(machine: &Arc<Machine>, op_ns: f64, spread: u64, seed: u64) -> CaseFactory {
    let machine = machine.clone();
    Arc::new(move || {
        Ok(Box::new(Spread {
            machine: machine.clone(),
            op_ns,
            spread,
            rng: cryptobench_stats::SplitMix64::new(seed),
        }) as Box<dyn Case>)
    })
}

#[test]
fn a_member_that_cannot_reach_the_precision_spends_its_budget_and_says_so() {
    // Alternating +-10% never narrows to 1%: the member samples its whole
    // budget (a shorter stop cost the sensitivity example 9 of its 10
    // catches of a 5% slowdown) and says why it is imprecise.
    let machine = Arc::new(Machine::default());
    let start = machine.clock.now_ns();
    let [m] = measure_fakes(&machine, [("hopeless", 1_000.0, 100, false)], 1);
    let spent_ms = (machine.clock.now_ns() - start) as f64 / 1e6;
    assert!(m.samples_ns.len() > 10, "{} rounds", m.samples_ns.len());
    assert!(spent_ms >= 300.0, "spent {spent_ms} ms of a 300 ms budget");
    let note = m.warnings.iter().find(|w| w.starts_with("imprecise: +-"));
    assert!(
        note.is_some_and(|w| w.contains("budget ended first")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn a_member_whose_interval_narrows_in_time_keeps_sampling_to_the_target() {
    // Up to 6% of uniform noise: wider than 1% after 10 rounds, within it
    // some rounds later (this seed: 19); the projection must not stop it.
    let machine = Arc::new(Machine::default());
    let f = spread_factory(&machine, 1_000.0, 60, 2);
    let s = spec("narrowing");
    let r = measure_on(&machine, &[(&s, &f)], 1);
    let m = r.measurements[0].clone().unwrap();
    let rounds = m.samples_ns.len();
    assert!(rounds > 10, "{rounds} rounds");
    assert!(
        m.warnings.iter().all(|w| !w.starts_with("imprecise")),
        "{:?} after {rounds} rounds",
        m.warnings
    );
    assert!(m.stats.unwrap().precision.unwrap() <= 0.01);
}

#[test]
fn a_precise_member_samples_on_while_its_ratio_to_a_sampling_one_is_wide() {
    // Both steady members are within 1% after five rounds, but the ratio
    // of the steady one to the noisy one (6% of noise, within 1% only some
    // rounds later) is not: it keeps sampling in the noisy one's rounds,
    // so the ratio a command reports rests on all of them.
    let machine = Arc::new(Machine::default());
    let reference = factory(&machine, "reference", 1_000.0, 0, false);
    let steady = factory(&machine, "steady", 2_000.0, 0, false);
    let noisy = spread_factory(&machine, 1_000.0, 60, 2);
    let (a, b, c) = (spec("reference"), spec("steady"), spec("noisy"));
    let r = measure_on(
        &machine,
        &[(&a, &reference), (&b, &steady), (&c, &noisy)],
        1,
    );
    let rounds = |i: usize| r.measurements[i].as_ref().unwrap().samples_ns.len();
    assert!(rounds(2) > 10, "the noisy member took {} rounds", rounds(2));
    assert!(
        rounds(1) >= rounds(2),
        "steady {} vs noisy {}",
        rounds(1),
        rounds(2)
    );
}

/// Two [`Spread`] members a and b (`op_ns` each, `spread` parts per
/// thousand of noise) measured in one group with `edges` as the decision
/// edges.
fn pair_with_edges(op_ns: [f64; 2], spread: u64, edges: Vec<f64>) -> [Measurement; 2] {
    let machine = Arc::new(Machine::default());
    let fa = spread_factory(&machine, op_ns[0], spread, 2);
    let fb = spread_factory(&machine, op_ns[1], spread, 3);
    let (sa, sb) = (spec("a"), spec("b"));
    let members = [
        Member {
            spec: &sa,
            factory: &fa,
        },
        Member {
            spec: &sb,
            factory: &fb,
        },
    ];
    let budget = Budget {
        decision_edges: edges,
        ..budget()
    };
    let r = measure_group("g", &members, &budget, &machine.clock, None, 1);
    r.measurements
        .into_iter()
        .map(|m| m.expect("measured"))
        .collect::<Vec<_>>()
        .try_into()
        .expect("two members")
}

/// The paired ratio b / a of two members (6% of noise each, b 4.46 times
/// as slow) measured with `edges` as the decision edges, and the rounds b
/// took.
fn ratio_near_an_edge(edges: Vec<f64>) -> (cryptobench_core::verdict::Estimate, usize) {
    let [a, b] = pair_with_edges([1_000.0, 4_460.0], 60, edges);
    (
        cryptobench_core::verdict::time_ratio(&b, &a).unwrap(),
        b.samples_ns.len(),
    )
}

#[test]
fn a_ratio_whose_interval_holds_a_decision_edge_samples_until_it_clears_it() {
    // Precise to 1%, the ratio's interval still holds 4.5: a claim "at
    // most 4.5x" would be inconclusive, in one run and not the next.
    let (plain, plain_rounds) = ratio_near_an_edge(Vec::new());
    assert!(
        plain.lo <= 4.5 && 4.5 <= plain.hi,
        "the premise: {plain:?} after {plain_rounds} rounds"
    );
    // With 4.5 as an edge (2.0, far off, changes nothing), sampling goes
    // on until the interval clears it, within four times the budget.
    let (decided, rounds) = ratio_near_an_edge(vec![2.0, 4.5]);
    assert!(decided.hi < 4.5, "{decided:?} after {rounds} rounds");
    assert!(
        rounds > plain_rounds,
        "{rounds} rounds, {plain_rounds} without the edge"
    );
    let most = (most_rounds(&budget(), budget().min_sample) as f64 * EDGE_BUDGETS) as usize;
    assert!(rounds <= most, "{rounds} rounds, at most {most}");
    // An edge far from the ratio costs no round.
    let (_, far_rounds) = ratio_near_an_edge(vec![2.0, 6.0]);
    assert_eq!(far_rounds, plain_rounds);
}

/// Rounds of a (two 9 ms calls a round) and b (one 40 ms call a round),
/// 60% noise each, measured with `edges`, and b / a.
fn fast_and_slow(edges: Vec<f64>) -> (usize, usize, cryptobench_core::verdict::Estimate) {
    let [a, b] = pair_with_edges([9e6, 40e6], 600, edges);
    let ratio = cryptobench_core::verdict::time_ratio(&b, &a).unwrap();
    (a.samples_ns.len(), b.samples_ns.len(), ratio)
}

#[test]
fn a_member_samples_no_longer_for_a_ratio_to_one_that_stopped() {
    // b spends four budgets on its ratio to a holding 4.5, and stops with
    // it still undecided. a's rounds after that never enter the ratio: a
    // keeps to its own budget instead of sampling on to four (103 rounds
    // for the 26 it takes without the edge).
    let (a_plain, b_plain, _) = fast_and_slow(Vec::new());
    let (a, b, ratio) = fast_and_slow(vec![4.5]);
    assert!(
        b > b_plain && ratio.lo <= 4.5 && 4.5 <= ratio.hi,
        "the premise: b sampled {b} rounds ({b_plain} without the edge), undecided at {ratio:?}"
    );
    assert_eq!(a, a_plain, "a's rounds with the edge and without");
}

#[test]
fn the_reference_samples_as_long_as_the_other_member() {
    let machine = Arc::new(Machine::default());
    let [steady, hopeless] = measure_fakes(
        &machine,
        [
            ("steady", 1_000.0, 0, false),
            ("hopeless", 2_000.0, 100, false),
        ],
        3,
    );
    // Every ratio to the reference rests on all of the other's rounds
    // (the round the other stopped in may end with the reference).
    let (n_other, n_reference) = (hopeless.samples_ns.len(), steady.samples_ns.len());
    assert!(
        (n_other..=n_other + 1).contains(&n_reference),
        "{n_reference} reference rounds for {n_other}"
    );
    assert!(steady.warnings.iter().all(|w| !w.starts_with("imprecise")));
}

/// A steady case whose checks take 50 ms on the mock clock.
struct SlowChecks(Arc<Machine>);

impl Case for SlowChecks {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.0.clock.advance(50_000_000);
        vec![CheckResult::from_bool("kat", true, "fake")]
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.0.clock.advance(1_000 * iters);
        Ok(())
    }
}

#[test]
fn the_group_tells_checking_time_from_measuring_time() {
    let machine = Arc::new(Machine::default());
    let m2 = machine.clone();
    let f: CaseFactory = Arc::new(move || Ok(Box::new(SlowChecks(m2.clone())) as Box<dyn Case>));
    let (sa, sb) = (spec("A"), spec("B"));
    let start = machine.clock.now_ns();
    let r = measure_on(&machine, &[(&sa, &f), (&sb, &f)], 1);
    let total = machine.clock.now_ns() - start;
    assert_eq!(r.spent.checking_ns, 100_000_000, "two members' checks");
    assert_eq!(r.spent.checking_ns + r.spent.measuring_ns, total);
    // Five rounds of two 10 ms samples, after calibration.
    assert!(r.spent.measuring_ns >= 100_000_000, "{:?}", r.spent);
}

/// One call per sample on the mock clock (an Argon2 hash).
struct SlowOp {
    machine: Arc<Machine>,
    op_ns: u64,
}

impl Case for SlowOp {
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        // A little spread so the interval never closes on its own.
        let n = self.machine.batches.fetch_add(1, Ordering::SeqCst);
        let extra = if n.is_multiple_of(2) {
            self.op_ns / 20
        } else {
            0
        };
        self.machine.clock.advance((self.op_ns + extra) * iters);
        Ok(())
    }
    fn fixed_iterations(&self) -> Option<u64> {
        Some(1)
    }
}

#[test]
fn a_slow_operation_gets_seven_or_five_rounds_when_they_fit_and_the_minimum_otherwise() {
    for (op_ms, rounds) in [(200, SLOW_ROUNDS), (250, MIN_ROUNDS), (400, 3)] {
        let machine = Arc::new(Machine::default());
        let m2 = machine.clone();
        let f: CaseFactory = Arc::new(move || {
            Ok(Box::new(SlowOp {
                machine: m2.clone(),
                op_ns: op_ms * 1_000_000,
            }) as Box<dyn Case>)
        });
        let s = spec("slow");
        let r = measure_on(&machine, &[(&s, &f)], 1);
        let m = r.measurements[0].clone().unwrap();
        // 7 x 200 ms fit in five 300 ms budgets, 5 x 250 ms do, 5 x 400 ms
        // do not.
        assert_eq!(m.samples_ns.len(), rounds, "{op_ms} ms per call");
    }
}

#[test]
fn short_samples_may_take_as_many_rounds_as_the_time_per_case_holds() {
    // The default: 300 ms of 100 us batches is 3,000 rounds, more than 4 x 15.
    let own = |b: &Budget| most_rounds(b, b.min_sample);
    assert_eq!(own(&Budget::standard()), 3000);
    // Quick and full: their time holds fewer rounds than 4 x --samples.
    assert_eq!(own(&Budget::quick()), 60);
    assert_eq!(own(&Budget::full()), 120);
    let asked = Budget {
        time_per_case: Duration::from_secs(2),
        ..Budget::standard()
    };
    assert_eq!(own(&asked), 20_000);
    // A multi-core case's 2 ms batches: 150 of them fit in 300 ms.
    let standard = Budget::standard();
    assert_eq!(
        most_rounds(&standard, cryptobench_core::suite::MULTI_CORE_MIN_SAMPLE),
        150
    );
}

#[test]
fn a_member_stops_as_precise_only_when_the_interval_it_reports_is() {
    // 7% of uniform noise, this seed: after 26 rounds the rank interval
    // was within +-1% while the bootstrap interval the measurement reports
    // said +-1.01%; the member samples on until the reported one is too.
    let machine = Arc::new(Machine::default());
    let f = spread_factory(&machine, 1_000.0, 70, 1);
    let s = spec("confirmed");
    let m = measure_on(&machine, &[(&s, &f)], 1).measurements[0]
        .clone()
        .unwrap();
    let precision = m.stats.unwrap().precision.unwrap();
    assert!(
        precision <= 0.01,
        "+-{:.2}%: {:?}",
        precision * 100.0,
        m.warnings
    );
    assert!(
        m.warnings.iter().all(|w| !w.starts_with("imprecise")),
        "{:?}",
        m.warnings
    );
}
