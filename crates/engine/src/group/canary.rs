//! The canary: a fixed reference workload timed in every round of a run.
//!
//! A run on a shared machine needs to know how fast the machine itself was
//! at each moment. The canary is a small integer-mixing loop over a 4 KiB
//! table (it stays in L1 and uses no vector unit), so its time depends on
//! nothing but the core's speed and what else runs on it. Timed once per
//! round of every comparison group, it gives (1) each case's time relative
//! to the machine's speed at that moment, (2) the machine's drift between
//! two runs, which `compare` reports apart from the cases, and (3) the
//! run's noise floor: how far the machine's fast end (its fastest batches)
//! moved between the moments cases were measured.
//!
//! One core's speed says nothing about the others: a host may lend a VM's
//! second core elsewhere for seconds while the first runs at full speed
//! (measured here: a two-thread EC-ElGamal case 1.6x slower in one of two
//! back-to-back runs, its one-thread twin in the same rounds unchanged and
//! no steal time reported). So in the rounds of a group with multi-core
//! cases the canary also runs on that many threads at once, and the span
//! from the first thread's start to the last one's end is that moment's
//! speed for multi-core work.

use crate::sample::clock::Clock;
use cryptobench_core::{Case, CaseError, CaseFactory, CaseSpec, CaseStatus, Measurement};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub use cryptobench_core::model::{
    CANARY_PAIRED_KEY as PAIRED_KEY, CANARY_PRIMITIVE as PRIMITIVE, CANARY_SUITE as SUITE,
    NOISE_FLOOR_KEY as FLOOR_KEY, PARALLEL_NOISE_FLOOR_KEY as PARALLEL_FLOOR_KEY,
};
/// Longest canary batch: long against the clock's resolution, short
/// against a case's batch. A run with shorter samples times a shorter one
/// ([`Canary::with_batch_ns`]).
pub const BATCH_NS: f64 = 500_000.0;
/// Shortest canary batch: a run with no floor on its samples (the seeds'
/// method) still times the machine over a resolvable span.
const SHORTEST_BATCH_NS: f64 = 100_000.0;

/// The canary's workload as a case: real work on the real clock (the A/A
/// test times it against itself).
struct Workload(Canary);

impl Case for Workload {
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.0.run(iters);
        Ok(())
    }
}

/// A factory of the canary's workload as a case.
pub(crate) fn workload_factory() -> CaseFactory {
    Arc::new(|| Ok(Box::new(Workload(Canary::default())) as Box<dyn Case>))
}

/// The reference workload and every time it took in this run.
#[derive(Debug, Clone)]
pub struct Canary {
    table: [u64; 512],
    /// Target time of one batch, ns.
    batch_ns: f64,
    iters: u64,
    /// ns per operation of each batch, in the order they ran.
    pub samples: Vec<f64>,
    /// The same round's batch on several threads at once (their span's
    /// ns per operation), for the rounds that timed one; one
    /// slot per entry of `samples`, so a superseded batch covers both.
    parallel: Vec<Option<f64>>,
    /// Batches timed beside measurements the run did not keep.
    superseded: BTreeSet<usize>,
}

impl Default for Canary {
    fn default() -> Self {
        let mut table = [0u64; 512];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for t in table.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *t = x;
        }
        Self {
            table,
            batch_ns: BATCH_NS,
            iters: 0,
            samples: Vec::new(),
            parallel: Vec::new(),
            superseded: BTreeSet::new(),
        }
    }
}

impl Canary {
    /// A canary whose batches last about `batch_ns`, within 100 us and
    /// [`BATCH_NS`].
    pub fn with_batch_ns(batch_ns: f64) -> Self {
        Self {
            batch_ns: batch_ns.clamp(SHORTEST_BATCH_NS, BATCH_NS),
            ..Self::default()
        }
    }

    /// One operation: 64 dependent table reads and multiplies.
    fn op(&self, seed: u64) -> u64 {
        let mut h = seed;
        for _ in 0..64 {
            let i = (h >> 55) as usize & 511;
            h = (h ^ self.table[i]).wrapping_mul(0x2545_F491_4F6C_DD1D);
        }
        h
    }

    /// `iters` operations of the workload, untimed (the A/A test times them).
    pub fn run(&self, iters: u64) -> u64 {
        self.batch(iters)
    }

    fn batch(&self, iters: u64) -> u64 {
        let mut acc = 0u64;
        for i in 0..iters {
            acc ^= self.op(std::hint::black_box(i));
        }
        std::hint::black_box(acc)
    }

    /// Times one batch (calibrating on first use) and keeps the sample;
    /// returns ns per operation.
    pub fn sample(&mut self, clock: &dyn Clock) -> f64 {
        if self.iters == 0 {
            let mut n = 16u64;
            loop {
                let t0 = clock.now_ns();
                self.batch(n);
                let dt = clock.now_ns().saturating_sub(t0) as f64;
                if dt >= self.batch_ns / 4.0 || n >= 1 << 30 {
                    self.iters = ((n as f64) * self.batch_ns / dt.max(1.0)).ceil().max(1.0) as u64;
                    break;
                }
                n *= 8;
            }
        }
        let t0 = clock.now_ns();
        self.batch(self.iters);
        let per_op = clock.now_ns().saturating_sub(t0) as f64 / self.iters as f64;
        self.samples.push(per_op);
        per_op
    }

    /// Times one batch on each of `threads` threads at once, released
    /// together, and keeps the span from the first thread's start to the
    /// last one's end, in ns per operation, beside the round's
    /// [`Canary::sample`] (call that first). `None` for fewer than two
    /// threads or before any one-thread batch.
    ///
    /// The span, not each thread's own time: a batch is shorter than a
    /// scheduler's time slice, so threads that the scheduler put on one
    /// core run one after another, each at full speed. Timed one by one
    /// they looked like free cores (a two-thread EC-ElGamal case ran on
    /// one core, CPU time equal to wall time, while its canary on two
    /// threads read as fast as on one); their span is twice a batch.
    pub fn sample_parallel(&mut self, threads: usize) -> Option<f64> {
        if threads < 2 || self.iters == 0 || self.samples.is_empty() {
            return None;
        }
        let arrived = AtomicUsize::new(0);
        let this = &*self;
        let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        release_together(&arrived, threads);
                        let t0 = Instant::now();
                        this.batch(this.iters);
                        (t0, Instant::now())
                    })
                })
                .collect();
            workers.into_iter().filter_map(|w| w.join().ok()).collect()
        });
        let first = spans.iter().map(|s| s.0).min()?;
        let last = spans.iter().map(|s| s.1).max()?;
        let span_ns = last.saturating_duration_since(first).as_nanos() as f64;
        let per_op = span_ns / self.iters as f64;
        self.parallel.resize(self.samples.len(), None);
        if let Some(slot) = self.parallel.last_mut() {
            *slot = Some(per_op);
        }
        Some(per_op)
    }

    /// Leaves the batches `batches` (indices into `samples`) out of the
    /// run's canary: they were timed beside measurements the run replaced
    /// (`schedule::remeasure`, the layer above), so they describe no moment it reports.
    pub fn supersede(&mut self, batches: impl IntoIterator<Item = usize>) {
        self.superseded.extend(batches);
    }

    /// The batches of the moments the run kept, in the order they ran.
    pub fn kept(&self) -> Vec<f64> {
        self.kept_slots(&self.samples).collect()
    }

    /// The multi-core batches of the moments the run kept, in order.
    pub fn kept_parallel(&self) -> Vec<f64> {
        self.kept_slots(&self.parallel).flatten().collect()
    }

    /// The entries of a per-batch list whose batch was not superseded.
    fn kept_slots<'s, T: Copy>(&'s self, slots: &'s [T]) -> impl Iterator<Item = T> + 's {
        slots
            .iter()
            .enumerate()
            .filter(|(batch, _)| !self.superseded.contains(batch))
            .map(|(_, x)| *x)
    }

    /// The canary's measurement for the run: every kept batch as a sample
    /// and the noise floor in `extra`. `None` when it never ran.
    pub fn measurement(&self) -> Option<Measurement> {
        let samples = self.kept();
        if samples.len() < 2 {
            return None;
        }
        let spec = CaseSpec::new(
            SUITE,
            PRIMITIVE,
            "builtin",
            env!("CARGO_PKG_VERSION"),
            "mix",
        )
        .param("batch", self.iters);
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.iterations_per_sample = self.iters;
        m.stats = Some(crate::sample::sampling::summarize(&samples, 0, 1));
        m.extra.insert(FLOOR_KEY.into(), noise_floor(&samples));
        let parallel = self.kept_parallel();
        if parallel.len() >= 2 {
            m.extra
                .insert(PARALLEL_FLOOR_KEY.into(), noise_floor(&parallel));
        }
        m.samples_ns = samples;
        Some(m)
    }
}

/// Bytes of one memory probe: 1,024 fresh pages, enough that their faults
/// and fill outweigh the clock's resolution by far, small enough (about
/// 2 ms here) to sit in every round of a memory-bound group.
pub const MEMORY_PROBE_BYTES: usize = 4 << 20;

/// Times one memory probe: maps [`MEMORY_PROBE_BYTES`] fresh from the
/// kernel, fills them (every page faults in, then the bandwidth of one
/// pass) and unmaps them, as an Argon2 hash does with its blocks. Its own
/// mapping, so no allocator can hand back pages already faulted in.
/// Returns ns, `None` when the kernel refuses the mapping.
pub fn memory_probe_ns(clock: &dyn Clock) -> Option<f64> {
    let t0 = clock.now_ns();
    let mut pages = crate::host::heap::FreshPages::map(MEMORY_PROBE_BYTES)?;
    // SAFETY: written only within the mapping's length, which nothing else
    // holds; the mapping is unmapped when `pages` drops.
    unsafe { std::ptr::write_bytes(pages.as_mut_ptr(), 0x5a, pages.len()) };
    drop(pages);
    Some(clock.now_ns().saturating_sub(t0) as f64)
}

/// The run's noise floor: how far the machine's fast end moved between
/// the moments cases were measured ([`cryptobench_stats::fast_floor`]:
/// the 90th percentile of the change between the fastest batches of
/// consecutive windows). `compare` judges cases by their fastest rounds,
/// so this is the floor those rounds face. 0 with fewer than two windows.
pub fn noise_floor(samples: &[f64]) -> f64 {
    cryptobench_stats::fast_floor(samples)
}

/// Waits until all `threads` have arrived: spinning, so that threads on
/// free cores leave within a few hundred ns of one another (a sleeping
/// barrier wakes its waiters tens of us apart, a tenth of a batch), and
/// yielding after a while, so that threads sharing one core let the
/// others arrive.
fn release_together(arrived: &AtomicUsize, threads: usize) {
    arrived.fetch_add(1, Ordering::AcqRel);
    let mut spins = 0u32;
    while arrived.load(Ordering::Acquire) < threads {
        if spins < 20_000 {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::clock::MonotonicClock;

    #[test]
    fn a_steady_machine_has_a_low_floor_and_a_drifting_one_a_high_floor() {
        use cryptobench_stats::fast_end::FLOOR_WINDOW;
        let steady: Vec<f64> = (0..80).map(|i| 100.0 + (i % 3) as f64 * 0.1).collect();
        assert!(noise_floor(&steady) < 0.002);
        // Every other window 10% slower, all of its batches.
        let jumpy: Vec<f64> = (0..80)
            .map(|i| {
                if (i / FLOOR_WINDOW).is_multiple_of(2) {
                    100.0
                } else {
                    110.0
                }
            })
            .collect();
        let floor = noise_floor(&jumpy);
        assert!((0.09..0.101).contains(&floor), "{floor}");
        assert_eq!(noise_floor(&steady[..FLOOR_WINDOW]), 0.0);
    }

    #[test]
    fn the_memory_probe_pays_for_fresh_pages_every_time() {
        let clock = crate::sample::clock::MonotonicClock;
        let faults = || {
            let mut u: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: getrusage writes only into the struct given.
            unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) };
            u.ru_minflt
        };
        for _ in 0..3 {
            let before = faults();
            let ns = memory_probe_ns(&clock).expect("the kernel maps 4 MiB");
            assert!(ns > 0.0);
            // Huge pages, where the kernel gives them, fault in 2 MiB at once.
            assert!(faults() > before, "every probe faults its pages in afresh");
        }
    }

    #[test]
    fn a_run_with_short_samples_times_a_short_canary_within_bounds() {
        assert_eq!(Canary::with_batch_ns(1.0).batch_ns, SHORTEST_BATCH_NS);
        assert_eq!(Canary::with_batch_ns(1e9).batch_ns, BATCH_NS);
        assert_eq!(Canary::with_batch_ns(200_000.0).batch_ns, 200_000.0);
        assert_eq!(Canary::default().batch_ns, BATCH_NS);
    }

    #[test]
    fn batches_are_calibrated_and_recorded() {
        let mut c = Canary::default();
        let clock = MonotonicClock;
        for _ in 0..3 {
            assert!(c.sample(&clock) > 0.0);
        }
        assert!(c.iters > 0);
        let m = c.measurement().unwrap();
        assert_eq!(m.samples_ns.len(), 3);
        assert!(m.extra.get(FLOOR_KEY).is_some_and(|f| *f >= 0.0));
        assert!(
            !m.extra.contains_key(PARALLEL_FLOOR_KEY),
            "no multi-core round, no multi-core floor"
        );
    }

    #[test]
    fn threads_that_share_one_core_read_as_one_core_shared() {
        // Confined to one core, the two threads run one after the other:
        // timed one by one, each read as fast as the one-thread batch.
        let ratio = std::thread::spawn(|| {
            assert!(crate::host::affinity::confine_to_first_core());
            let mut c = Canary::default();
            let clock = MonotonicClock;
            let ratios: Vec<f64> = (0..7)
                .map(|_| {
                    let one = c.sample(&clock);
                    c.sample_parallel(2).unwrap() / one
                })
                .collect();
            cryptobench_stats::median(&ratios)
        })
        .join()
        .unwrap();
        assert!(
            ratio > cryptobench_core::model::SHARED_CORES,
            "two threads on one core took {ratio:.2}x one thread's batch"
        );
    }

    #[test]
    fn multi_core_batches_sit_beside_their_round_and_leave_with_it() {
        let mut c = Canary::default();
        let clock = MonotonicClock;
        assert_eq!(c.sample_parallel(2), None, "needs a calibrated round");
        c.sample(&clock);
        assert_eq!(c.sample_parallel(1), None, "one thread is the canary");
        for _ in 0..3 {
            c.sample(&clock);
            let p = c.sample_parallel(2).unwrap();
            assert!(p > 0.0);
        }
        c.sample(&clock);
        assert_eq!(
            c.parallel.len(),
            4,
            "one slot per round up to the last timed"
        );
        assert_eq!(c.kept_parallel().len(), 3);
        // The rounds of a replaced measurement go, both batches of each.
        c.supersede(1..3);
        assert_eq!(c.kept().len(), 3);
        assert_eq!(c.kept_parallel().len(), 1);
        c.supersede(0..5);
        assert!(c.kept_parallel().is_empty());
        let mut d = Canary::default();
        d.sample(&clock);
        for _ in 0..2 {
            d.sample(&clock);
            d.sample_parallel(2);
        }
        let m = d.measurement().unwrap();
        assert!(m.extra.get(PARALLEL_FLOOR_KEY).is_some_and(|f| *f >= 0.0));
    }
}
