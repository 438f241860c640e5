//! A case's speed should not depend on where its memory landed.
//!
//! The same native case, built several times in one process, runs at
//! different speeds: eight instances of OpenSSL's AES-256-CBC round trip at
//! 16 B, built one after another on this project's 2-core VM, were 0-10%
//! apart, and which instance was slow followed the heap's layout (with
//! address randomisation off, the same instance in every process). Between
//! two runs the heap's history differs (groups are measured in a random
//! order), so a case lands elsewhere and moves by a few percent: the
//! scattered one-core cases that two identical runs call changed or
//! inconclusive. In the same probe the first instance of each of four
//! cases moved by 2.0-3.3% across six processes, and the fastest of four
//! instances by 0.5-1.8%.
//!
//! So a case that is cheap to build, quick to call and timed in this
//! process is built [`PLACEMENTS`] times once its checks have passed; a
//! short trial times each instance in turn and the fastest is kept (and
//! checked in its turn), the others dropped. What is measured is then the
//! code where its memory does not hold it back, as the fastest rounds
//! already measure it where the machine does not.

use crate::sample::clock::Clock;
use crate::sample::sampling::time_batch;
use cryptobench_core::model::work_varies;
use cryptobench_core::{Case, CaseFactory, CaseSpec};
use cryptobench_stats::median;

/// Instances a case is built as, the first included.
pub const PLACEMENTS: usize = 6;

/// A build slower than this (a key pair generated, a runner started) is
/// not repeated, ns.
const MAX_BUILD_NS: u64 = 2_000_000;

/// A trial batch lasts at least this long, ns.
const TRIAL_BATCH_NS: u64 = 100_000;

/// An operation slower than this is not tried in several places: its
/// memory is a small part of its time, ns.
const MAX_OP_NS: u64 = 1_000_000;

/// Timed batches of each instance, after one untimed warm-up batch.
const TRIAL_ROUNDS: usize = 3;

/// Whether `case` may be built again to choose its placement: timed in
/// this process, one operation at a time on one core, not memory-bound
/// (those get fresh pages by design, [`crate::host::heap`]), doing the same
/// work in every call (ML-DSA's signing rejects at random: its instances
/// would differ by luck) and built in `build_ns`, at most
/// [`MAX_BUILD_NS`].
fn eligible(spec: &CaseSpec, case: &dyn Case, build_ns: u64) -> bool {
    !case.placement_free()
        && case.fixed_iterations().is_none()
        && spec.cores_used() == 1
        && !spec.memory_bound()
        && !work_varies(&spec.labels)
        && build_ns <= MAX_BUILD_NS
}

/// The batch that lasts [`TRIAL_BATCH_NS`] on `case`, doubling from one
/// operation; `None` when one operation takes longer than [`MAX_OP_NS`]
/// or a batch fails.
fn trial_iters(case: &mut dyn Case, clock: &dyn Clock) -> Option<u64> {
    let mut iters = 1u64;
    loop {
        let t = time_batch(case, iters, clock).ok()?;
        if iters == 1 && t.wall_ns > MAX_OP_NS as f64 {
            return None;
        }
        if t.wall_ns >= TRIAL_BATCH_NS as f64 || iters >= 1 << 30 {
            return Some(iters);
        }
        iters *= 2;
    }
}

/// The case to measure, as the trial chose it.
pub struct Placed {
    /// The instance to measure.
    pub case: Box<dyn Case>,
    /// It is another instance than the first (its checks have not run).
    pub other: bool,
    /// The median instance's trial time over the fastest's, less one,
    /// when at least three instances were tried: how far where the case
    /// lands moves it, so how far it may move between two runs.
    pub spread: Option<f64>,
}

/// The case to measure: `first`, or a faster instance of the same case
/// built by `factory` when the case is eligible ([`eligible`]). `first`
/// took `build_ns` to build. An instance whose build or batch fails is
/// dropped; the time the trial took is added to `spent_ns`.
pub fn fastest_placement(
    spec: &CaseSpec,
    factory: &CaseFactory,
    first: Box<dyn Case>,
    build_ns: u64,
    clock: &dyn Clock,
    spent_ns: &mut u64,
) -> Placed {
    if !eligible(spec, first.as_ref(), build_ns) {
        return Placed::first(first);
    }
    let started = clock.now_ns();
    let chosen = choose(factory, first, clock);
    *spent_ns += clock.now_ns().saturating_sub(started);
    chosen
}

impl Placed {
    fn first(case: Box<dyn Case>) -> Self {
        Placed {
            case,
            other: false,
            spread: None,
        }
    }
}

/// The median of the instances' times over the fastest, less one; `None`
/// with fewer than three timed.
fn spread(times: &[f64]) -> Option<f64> {
    let t: Vec<f64> = times.iter().copied().filter(|x| x.is_finite()).collect();
    let fastest = t.iter().copied().reduce(f64::min)?;
    (t.len() >= 3 && fastest > 0.0).then(|| median(&t) / fastest - 1.0)
}

/// The instance to keep, by its trial times (NaN: a batch failed): the
/// fastest that never failed. The first stays unless another was faster,
/// so a case whose trial failed everywhere goes on as it was built.
fn fastest(best: &[f64]) -> usize {
    let mut pick = 0;
    for (i, &t) in best.iter().enumerate().skip(1) {
        if !t.is_nan() && (best[pick].is_nan() || t < best[pick]) {
            pick = i;
        }
    }
    pick
}

fn choose(factory: &CaseFactory, mut first: Box<dyn Case>, clock: &dyn Clock) -> Placed {
    let Some(iters) = trial_iters(first.as_mut(), clock) else {
        return Placed::first(first);
    };
    let mut instances = vec![first];
    while instances.len() < PLACEMENTS {
        // Its warm-up batch, untimed like the first instance's sizing.
        let Ok(mut case) = factory() else { break };
        if time_batch(case.as_mut(), iters, clock).is_err() {
            break;
        }
        instances.push(case);
    }
    let mut best = vec![f64::INFINITY; instances.len()];
    for _ in 0..TRIAL_ROUNDS {
        for (i, case) in instances.iter_mut().enumerate() {
            // An instance that failed once stays failed: `f64::min` would
            // take a later round's time over the NaN.
            if best[i].is_nan() {
                continue;
            }
            match time_batch(case.as_mut(), iters, clock) {
                Ok(t) => best[i] = best[i].min(t.wall_ns),
                // Never chosen: a NaN is not below anything.
                Err(_) => best[i] = f64::NAN,
            }
        }
    }
    let pick = fastest(&best);
    Placed {
        case: instances.swap_remove(pick),
        other: pick != 0,
        spread: spread(&best),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sample::clock::mock::MockClock;
    use cryptobench_core::CaseError;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    /// A case whose operation costs `ns` on the mock clock; `elsewhere`
    /// says it runs in another process.
    struct Costs {
        clock: Arc<MockClock>,
        ns: u64,
        elsewhere: bool,
        batches: u64,
    }

    /// An instance costing this fails its second batch (the first timed
    /// round of a trial) and no other.
    const FAILS_ONCE_NS: u64 = 77;

    impl Case for Costs {
        // An instance costing 99 ns fails its checks.
        fn checks(&mut self) -> Vec<cryptobench_core::CheckResult> {
            vec![cryptobench_core::CheckResult::from_bool(
                "kat",
                self.ns != 99,
                "fake",
            )]
        }
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            self.batches += 1;
            if self.ns == FAILS_ONCE_NS && self.batches == 2 {
                return Err(CaseError::Failed("a batch failed".into()));
            }
            self.clock.advance(self.ns * iters);
            Ok(())
        }
        fn placement_free(&self) -> bool {
            self.elsewhere
        }
    }

    /// A factory whose n-th instance costs `costs[n]` ns per operation
    /// (the last cost repeats), counting the instances it built.
    pub(crate) fn factory(
        clock: &Arc<MockClock>,
        costs: &[u64],
        elsewhere: bool,
    ) -> (CaseFactory, Arc<AtomicU64>) {
        let built = Arc::new(AtomicU64::new(0));
        let (clock, costs, count) = (clock.clone(), costs.to_vec(), built.clone());
        let f: CaseFactory = Arc::new(move || {
            let n = count.fetch_add(1, Ordering::SeqCst) as usize;
            let ns = costs[n.min(costs.len() - 1)];
            Ok(Box::new(Costs {
                clock: clock.clone(),
                ns,
                elsewhere,
                batches: 0,
            }) as Box<dyn Case>)
        });
        (f, built)
    }

    /// The cost per operation of the instance chosen, by timing it once.
    fn cost_of(case: &mut Box<dyn Case>, clock: &MockClock) -> u64 {
        let t0 = clock.0.load(Ordering::SeqCst);
        case.run_batch(1).unwrap();
        clock.0.load(Ordering::SeqCst) - t0
    }

    pub(crate) fn spec() -> CaseSpec {
        CaseSpec::new("demo", "work", "native", "1", "op")
    }

    #[test]
    fn the_fastest_of_the_instances_is_kept() {
        let clock = Arc::new(MockClock(AtomicU64::new(0)));
        let (f, built) = factory(&clock, &[120, 130, 100, 125], false);
        assert_eq!(PLACEMENTS, 6, "the spread below counts six instances");
        let first = f().unwrap();
        let mut spent = 0;
        let mut kept = fastest_placement(&spec(), &f, first, 1_000, clock.as_ref(), &mut spent);
        assert_eq!(built.load(Ordering::SeqCst), PLACEMENTS as u64);
        assert_eq!(cost_of(&mut kept.case, &clock), 100);
        assert!(kept.other, "another instance than the one checked");
        // Six instances: 100, 120, 125, 125, 125, 130; the median 125.
        let spread = kept.spread.expect("six instances tried");
        assert!((spread - 0.25).abs() < 1e-9, "{spread}");
        assert!(spent > 0, "the trial's time is accounted for");
    }

    #[test]
    fn an_instance_whose_batch_failed_is_never_kept() {
        let nan = f64::NAN;
        assert_eq!(fastest(&[120.0, nan, 100.0]), 2);
        assert_eq!(fastest(&[nan, 130.0, 120.0]), 2, "the first failed");
        assert_eq!(fastest(&[nan, nan, nan]), 0, "all failed: as built");
        assert_eq!(fastest(&[100.0, 100.0]), 0, "a tie keeps the first");
    }

    #[test]
    fn an_instance_that_failed_one_trial_round_is_not_kept_for_the_others() {
        let clock = Arc::new(MockClock(AtomicU64::new(0)));
        // The second instance is the fastest in the rounds it passes.
        let (f, _) = factory(&clock, &[120, FAILS_ONCE_NS, 100, 130], false);
        let first = f().unwrap();
        let mut kept = fastest_placement(&spec(), &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(cost_of(&mut kept.case, &clock), 100);
    }

    #[test]
    fn the_first_instance_stays_when_none_is_faster() {
        let clock = Arc::new(MockClock(AtomicU64::new(0)));
        let (f, _) = factory(&clock, &[100, 100, 130], false);
        let first = f().unwrap();
        let mut kept = fastest_placement(&spec(), &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(cost_of(&mut kept.case, &clock), 100);
        assert!(!kept.other);
    }

    #[test]
    fn cases_placement_free_slow_to_build_slow_to_call_or_lucky_are_built_once() {
        let clock = Arc::new(MockClock(AtomicU64::new(0)));
        // A runner process's case.
        let (f, built) = factory(&clock, &[120, 100], true);
        let first = f().unwrap();
        fastest_placement(&spec(), &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(built.load(Ordering::SeqCst), 1, "placement free");
        // A build that generated a key pair.
        let (f, built) = factory(&clock, &[120, 100], false);
        let first = f().unwrap();
        fastest_placement(&spec(), &f, first, MAX_BUILD_NS + 1, clock.as_ref(), &mut 0);
        assert_eq!(built.load(Ordering::SeqCst), 1, "slow to build");
        // An operation longer than the trial allows.
        let (f, built) = factory(&clock, &[MAX_OP_NS + 1, 100], false);
        let first = f().unwrap();
        fastest_placement(&spec(), &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(built.load(Ordering::SeqCst), 1, "slow to call");
        // A case on two cores.
        let (f, built) = factory(&clock, &[120, 100], false);
        let first = f().unwrap();
        let two = spec().param("threads", 2);
        fastest_placement(&two, &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(built.load(Ordering::SeqCst), 1, "multi-core");
        // A case whose work per call varies by design.
        let (f, built) = factory(&clock, &[120, 100], false);
        let first = f().unwrap();
        let lucky = spec().label(cryptobench_core::model::LABEL_WORK_VARIES);
        fastest_placement(&lucky, &f, first, 1_000, clock.as_ref(), &mut 0);
        assert_eq!(built.load(Ordering::SeqCst), 1, "work varies");
    }
}
