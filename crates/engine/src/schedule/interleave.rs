//! Several groups in flight, their rounds interleaved.
//!
//! A group measured from start to end in one stretch lives entirely inside
//! whatever the machine was doing then. On a shared host other tenants
//! slow it in episodes of a fraction of a second to minutes, and a group
//! that falls inside one has every round slowed: its medians move by the
//! episode's size, 10-50%, and differ by that much from the next run's.
//! Paired ratios survive it; comparisons between runs do not. So the
//! runner keeps up to [`IN_FLIGHT`] groups started and gives each one
//! round in turn, in a fresh random order each turn. A group's rounds are
//! then spread over a stretch several times its own length, an episode
//! touches a share of them instead of all, and the median, which a
//! minority of slow rounds barely moves, stays where the calm rounds put
//! it. This is the randomized multiple interleaved trials method that
//! Abedi and Brecht measured on cloud machines (ICPE 2017), applied at
//! the grain of a round. Rounds stay whole: one batch of every member of a
//! group, so its ratios stay paired.

use crate::group::canary::Canary;
use crate::group::rounds::{GroupRun, Member, Spent};
use crate::sample::clock::Clock;
use crate::sample::interrupt::stop_requested;
use cryptobench_core::verdict::seed_of;
use cryptobench_core::{Budget, CaseSpec, CaseStatus, Measurement, PlannedCase, Setup};
use cryptobench_stats::SplitMix64;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Groups sampled at once. Each keeps its members built (keys, buffers,
/// runners' prepared cases), so memory grows with it; the spread of a
/// group's rounds over time grows with it too.
pub const IN_FLIGHT: usize = 4;
/// Bytes the groups in flight may keep alive together (inputs and outputs
/// of every member, as `runner::plan_groups` costs them). A group larger
/// than this still runs, alone.
pub const IN_FLIGHT_MEMORY: u64 = 1 << 30;

/// A group to start.
pub struct Next {
    /// The caller's number for it, handed back in [`Finished`].
    pub tag: usize,
    /// Its name.
    pub id: String,
    /// Its members, as indices into the plan.
    pub members: Vec<usize>,
    /// Its budget, already paced.
    pub budget: Budget,
}

/// A group whose sampling ended.
pub struct Finished {
    /// The number the caller gave it.
    pub tag: usize,
    /// One entry per member, in member order; `None` for a member
    /// interrupted before it had anything worth keeping.
    pub measured: Vec<Option<Measurement>>,
    /// Where its time went.
    pub spent: Spent,
    /// The canary batches its rounds timed (indices into the canary's samples).
    pub canary_batches: Vec<usize>,
}

/// Where the groups come from and where they go.
pub trait Feed {
    /// The next group, or `None` when there is none left. Called when a
    /// place is free, so pacing can look at every group finished so far.
    fn next(&mut self) -> Option<Next>;
    /// A group finished; its measurements go out in member order.
    fn finished(&mut self, done: Finished);
}

/// A group in flight.
struct Flying<'a> {
    tag: usize,
    /// Results known without sampling (skipped, unavailable,
    /// multi-thread), by member slot.
    out: Vec<Option<Measurement>>,
    /// Member slots of the sampled members, with what they are.
    ready: Vec<(usize, &'a CaseSpec)>,
    run: Option<GroupRun<'a>>,
    spent: Spent,
    bytes: u64,
    /// The panic that ended the group, if one did.
    panicked: Option<String>,
}

impl Flying<'_> {
    fn done(&self) -> bool {
        self.panicked.is_some() || self.run.as_ref().is_none_or(GroupRun::done)
    }
}

/// Runs every group `feed` gives, up to [`IN_FLIGHT`] at once, one round
/// of each in turn. Returns whether a stop was requested.
pub fn run_interleaved(
    cases: &[PlannedCase],
    feed: &mut dyn Feed,
    clock: &dyn Clock,
    mut canary: Option<&mut Canary>,
    seed: u64,
) -> bool {
    let mut flying: Vec<Flying<'_>> = Vec::new();
    let mut waiting: Option<Next> = None;
    let mut exhausted = false;
    let mut rng = SplitMix64::new(seed ^ seed_of("interleave"));
    loop {
        while flying.len() < IN_FLIGHT && !stop_requested() {
            let Some(next) = waiting.take().or_else(|| {
                if exhausted {
                    return None;
                }
                let n = feed.next();
                exhausted = n.is_none();
                n
            }) else {
                break;
            };
            let bytes = group_bytes(cases, &next.members);
            let in_use: u64 = flying.iter().map(|f| f.bytes).sum();
            if !flying.is_empty() && in_use + bytes > IN_FLIGHT_MEMORY {
                waiting = Some(next);
                break;
            }
            let f = start(cases, next, clock, seed, bytes);
            if f.done() {
                feed.finished(land(f));
            } else {
                flying.push(f);
            }
        }
        if flying.is_empty() {
            break;
        }
        let mut order: Vec<usize> = (0..flying.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for i in order {
            let f = &mut flying[i];
            let Some(run) = f.run.as_mut() else { continue };
            let c = canary.as_deref_mut();
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| run.round(clock, c))) {
                f.panicked = Some(panic_message(p));
            }
        }
        let stop = stop_requested();
        let mut i = 0;
        while i < flying.len() {
            if stop {
                if let Some(run) = flying[i].run.as_mut() {
                    run.interrupt();
                }
            }
            if flying[i].done() {
                feed.finished(land(flying.remove(i)));
            } else {
                i += 1;
            }
        }
        if stop {
            break;
        }
    }
    stop_requested()
}

/// Memory a group keeps alive: three buffers of its largest input per
/// member, as `runner::plan_groups` costs them.
fn group_bytes(cases: &[PlannedCase], members: &[usize]) -> u64 {
    let largest = members
        .iter()
        .map(|&i| cases[i].spec.input_bytes)
        .max()
        .unwrap_or(0);
    3 * largest * members.len() as u64
}

/// Starts a group: the results known at once, the multi-thread cases
/// measured alone, the rest built, checked and calibrated for rounds.
fn start<'a>(
    cases: &'a [PlannedCase],
    next: Next,
    clock: &dyn Clock,
    seed: u64,
    bytes: u64,
) -> Flying<'a> {
    let mut f = Flying {
        tag: next.tag,
        out: Vec::with_capacity(next.members.len()),
        ready: Vec::new(),
        run: None,
        spent: Spent::default(),
        bytes,
        panicked: None,
    };
    let mut ready: Vec<Member<'a>> = Vec::new();
    for (slot, &i) in next.members.iter().enumerate() {
        let case = &cases[i];
        f.out.push(match &case.setup {
            Setup::Skipped(r) => Some(case.spec.measurement(CaseStatus::Skipped, Some(r.clone()))),
            Setup::Unavailable(r) => Some(
                case.spec
                    .measurement(CaseStatus::Unavailable, Some(r.clone())),
            ),
            Setup::Ready(factory) if case.spec.threads > 1 => {
                // Building and checking are not told apart here: all measuring.
                let started = clock.now_ns();
                let m = catch_unwind(AssertUnwindSafe(|| {
                    crate::host::affinity::widened(|| {
                        crate::build::threads::measure_threads(
                            &case.spec,
                            factory,
                            &next.budget,
                            clock,
                        )
                    })
                }))
                .unwrap_or_else(|p| {
                    Some(case.spec.measurement(
                        CaseStatus::Failed,
                        Some(format!("the case panicked: {}", panic_message(p))),
                    ))
                });
                // All of it grows with the time per case, as sampling does.
                let ns = clock.now_ns().saturating_sub(started);
                f.spent.measuring_ns += ns;
                f.spent.sampling_ns += ns;
                m
            }
            Setup::Ready(factory) => {
                f.ready.push((slot, &case.spec));
                ready.push(Member {
                    spec: &case.spec,
                    factory,
                });
                None
            }
        });
    }
    if ready.is_empty() {
        return f;
    }
    match catch_unwind(AssertUnwindSafe(|| {
        GroupRun::start(&next.id, ready, &next.budget, clock, seed)
    })) {
        Ok(run) => f.run = Some(run),
        Err(p) => f.panicked = Some(panic_message(p)),
    }
    f
}

/// A group's measurements, in member order.
fn land(f: Flying<'_>) -> Finished {
    let Flying {
        tag,
        mut out,
        ready,
        run,
        mut spent,
        panicked,
        ..
    } = f;
    let mut canary_batches = Vec::new();
    let ended = match (panicked, run) {
        (None, Some(run)) => {
            canary_batches = run.canary_batches().to_vec();
            catch_unwind(AssertUnwindSafe(|| run.finish())).map_err(panic_message)
        }
        (Some(why), _) => Err(why),
        (None, None) => {
            return Finished {
                tag,
                measured: out,
                spent,
                canary_batches,
            }
        }
    };
    match ended {
        Ok(r) => {
            spent.add(r.spent);
            for (&(slot, _), m) in ready.iter().zip(r.measurements) {
                out[slot] = m;
            }
        }
        // A panicking backend must not take the run (and what it measured) down.
        Err(msg) => {
            for &(slot, spec) in &ready {
                out[slot] = Some(spec.measurement(
                    CaseStatus::Failed,
                    Some(format!("the case (or one of its group) panicked: {msg}")),
                ));
            }
        }
    }
    Finished {
        tag,
        measured: out,
        spent,
        canary_batches,
    }
}

/// The text of a panic's payload.
pub(crate) fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::clock::MonotonicClock;
    use cryptobench_core::{Case, CaseError};
    use std::sync::{Arc, Mutex};

    /// Writes its name to a shared log at every batch.
    struct Logged {
        name: String,
        log: Arc<Mutex<Vec<String>>>,
        panics: bool,
        batches: u32,
    }

    impl Case for Logged {
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            self.batches += 1;
            // Past calibration, in the rounds.
            if self.panics && self.batches > 12 {
                panic!("{} broke", self.name);
            }
            self.log.lock().unwrap().push(self.name.clone());
            std::hint::black_box((0..iters * 50).sum::<u64>());
            Ok(())
        }
    }

    fn plan(
        groups: &[(&str, u64)],
        log: &Arc<Mutex<Vec<String>>>,
        panics: &str,
    ) -> Vec<PlannedCase> {
        groups
            .iter()
            .map(|&(name, bytes)| {
                let log = Arc::clone(log);
                let panics = name == panics;
                let name = name.to_string();
                let mut spec = CaseSpec::new("t", &name, "b", "1", "op").size(bytes);
                if panics {
                    // Past its 12th batch for sure: a precise case may stop
                    // after 5 rounds, and under load its calibration takes
                    // fewer batches, so it could end before it panics.
                    spec = spec.min_rounds(20);
                }
                spec.group = Some(name.clone());
                PlannedCase::ready(spec, move || {
                    Ok(Box::new(Logged {
                        name: name.clone(),
                        log: Arc::clone(&log),
                        panics,
                        batches: 0,
                    }) as Box<dyn Case>)
                })
            })
            .collect()
    }

    /// Hands out every case as a group of its own and keeps what ends.
    struct EachAlone {
        next: usize,
        total: usize,
        ended: Vec<(usize, Vec<Option<Measurement>>)>,
    }

    impl Feed for EachAlone {
        fn next(&mut self) -> Option<Next> {
            (self.next < self.total).then(|| {
                self.next += 1;
                Next {
                    tag: self.next - 1,
                    id: format!("g{}", self.next - 1),
                    members: vec![self.next - 1],
                    budget: Budget::quick(),
                }
            })
        }
        fn finished(&mut self, done: Finished) {
            self.ended.push((done.tag, done.measured));
        }
    }

    fn run(groups: &[(&str, u64)], panics: &str) -> (Vec<String>, EachAlone) {
        let log = Arc::new(Mutex::new(Vec::new()));
        let cases = plan(groups, &log, panics);
        let mut feed = EachAlone {
            next: 0,
            total: cases.len(),
            ended: Vec::new(),
        };
        let stopped = run_interleaved(&cases, &mut feed, &MonotonicClock, None, 7);
        assert!(!stopped);
        let log = log.lock().unwrap().clone();
        (log, feed)
    }

    /// Index of the first and last batch of `name` in the log.
    fn span(log: &[String], name: &str) -> (usize, usize) {
        let first = log.iter().position(|n| n == name).unwrap();
        let last = log.iter().rposition(|n| n == name).unwrap();
        (first, last)
    }

    #[test]
    fn the_rounds_of_groups_in_flight_take_turns() {
        let (log, feed) = run(&[("A", 16), ("B", 16), ("C", 16)], "");
        let (a, b) = (span(&log, "A"), span(&log, "B"));
        // B samples while A is still sampling: their rounds alternate.
        assert!(b.0 < a.1, "{log:?}");
        assert_eq!(feed.ended.len(), 3);
        assert!(feed.ended.iter().all(|(_, m)| m[0]
            .as_ref()
            .is_some_and(|m| m.status == CaseStatus::Measured)));
    }

    #[test]
    fn groups_too_large_to_keep_together_run_one_after_another() {
        // Three buffers of 200 MiB per member: two such groups pass 1 GiB.
        let big = 200 << 20;
        let (log, feed) = run(&[("A", big), ("B", big)], "");
        let (a, b) = (span(&log, "A"), span(&log, "B"));
        assert!(a.1 < b.0, "B starts once A ended");
        assert_eq!(feed.ended.len(), 2);
    }

    #[test]
    fn a_group_that_panics_fails_alone() {
        let (_, feed) = run(&[("A", 16), ("P", 16), ("C", 16)], "P");
        let status = |tag: usize| {
            let (_, m) = feed.ended.iter().find(|(t, _)| *t == tag).unwrap();
            m[0].as_ref().unwrap().status
        };
        assert_eq!(status(1), CaseStatus::Failed);
        assert_eq!(status(0), CaseStatus::Measured);
        assert_eq!(status(2), CaseStatus::Measured);
    }
}
