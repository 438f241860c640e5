//! Executors: who runs the parts of one encryption or decryption.
//!
//! The cipher splits a message of N points into `parts` contiguous ranges of
//! near-equal size (as seed 002 divides the message equally among threads)
//! and asks an [`Executor`] to run every part. [`Serial`] runs them in order
//! on the calling thread; [`Threads`] starts one scoped worker per part, like
//! an OpenMP parallel region (N from 1 to 1000, as the seed tested). Within a
//! part, the cipher works in chunks of [`crate::cipher::CHUNK`] points so
//! that affine conversion is batched.
//!
//! # Where `mpi` and `hybrid` plug in
//!
//! Each is one more struct implementing [`Executor`]:
//! - `Mpi { ranks }`: `workers()` is the number of ranks; `run` executes the
//!   parts assigned to this rank (part i on rank i mod ranks) and the parts'
//!   results travel to rank 0 in the ciphertext file format of
//!   [`crate::format`] (compressed points) or as plaintext bytes, which is
//!   why [`map_parts`] hands each part's result back as a value rather than
//!   writing into shared memory.
//! - `Hybrid { ranks, threads }`: `workers()` is ranks x threads; each rank
//!   runs its share of parts through an inner [`Threads`].
//!
//! Nothing else changes: the suite plans `mode=mpi|hybrid` cases through
//! [`ExecutorSpec`].

use cryptobench_core::Error;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The most workers accepted (seed 002 tested up to 1000 threads).
pub const MAX_WORKERS: usize = 1000;

/// Runs the parts of one operation.
pub trait Executor: Send + Sync {
    /// `serial`, `threads`, ...
    fn mode(&self) -> &'static str;
    /// How many parts it wants (1 for serial, N for N threads); one unless
    /// the executor says otherwise.
    fn workers(&self) -> usize {
        1
    }
    /// Calls `task(i)` exactly once for every i in 0..parts and returns when
    /// all calls have finished; `Err` only when it could not start them.
    /// Unless the executor says otherwise, on the calling thread in order.
    fn run(&self, parts: usize, task: &(dyn Fn(usize) + Sync)) -> Result<(), Error> {
        (0..parts).for_each(task);
        Ok(())
    }
}

/// Everything on the calling thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct Serial;

impl Executor for Serial {
    fn mode(&self) -> &'static str {
        "serial"
    }
}

/// N worker threads, one part each, started for the operation (scoped, so
/// they may borrow the message) and joined before it returns.
#[derive(Debug, Clone, Copy)]
pub struct Threads {
    n: usize,
}

impl Threads {
    /// A pool of `n` workers, 1 <= n <= [`MAX_WORKERS`].
    pub fn new(n: usize) -> Result<Self, Error> {
        if n == 0 || n > MAX_WORKERS {
            return Err(Error::usage(format!(
                "thread count {n} out of range: accepted 1..={MAX_WORKERS}"
            )));
        }
        Ok(Self { n })
    }
}

/// Stack of a worker: the cipher keeps its buffers on the heap.
const WORKER_STACK: usize = 256 * 1024;

impl Executor for Threads {
    fn mode(&self) -> &'static str {
        "threads"
    }
    fn workers(&self) -> usize {
        self.n
    }
    fn run(&self, parts: usize, task: &(dyn Fn(usize) + Sync)) -> Result<(), Error> {
        // n workers claim parts one at a time, so a worker slowed by
        // another process hands its remaining parts to the others instead
        // of making everyone wait at the end.
        let next = AtomicUsize::new(0);
        let work = || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= parts {
                break;
            }
            task(i);
        };
        std::thread::scope(|scope| {
            let workers = self.n.min(parts);
            let mut handles = Vec::with_capacity(workers);
            for _ in 0..workers {
                let spawned = std::thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, work);
                match spawned {
                    Ok(h) => handles.push(h),
                    // Could not start a worker: the others take its parts.
                    Err(_) => break,
                }
            }
            if handles.is_empty() {
                work();
            }
            for h in handles {
                if h.join().is_err() {
                    return Err(Error::Executor {
                        executor: "threads",
                        reason: "an elgamal worker thread panicked".into(),
                    });
                }
            }
            Ok(())
        })
    }
}

/// What the command line and the suite name: a mode and its worker count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExecutorSpec {
    /// [`Serial`].
    Serial,
    /// [`Threads`] with this many workers.
    Threads(usize),
}

impl ExecutorSpec {
    /// Mode names accepted by `--mode`.
    pub const MODES: [&'static str; 2] = ["serial", "threads"];

    /// Builds the executor.
    pub fn build(self) -> Result<Box<dyn Executor>, Error> {
        Ok(match self {
            ExecutorSpec::Serial => Box::new(Serial),
            ExecutorSpec::Threads(n) => Box::new(Threads::new(n)?),
        })
    }
    /// `serial` or `threads`.
    pub fn mode(self) -> &'static str {
        match self {
            ExecutorSpec::Serial => "serial",
            ExecutorSpec::Threads(_) => "threads",
        }
    }
    /// Worker count (1 for serial).
    pub fn workers(self) -> usize {
        match self {
            ExecutorSpec::Serial => 1,
            ExecutorSpec::Threads(n) => n,
        }
    }
}

impl std::fmt::Display for ExecutorSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExecutorSpec::Serial => f.write_str("serial"),
            ExecutorSpec::Threads(n) => write!(f, "threads({n})"),
        }
    }
}

/// Splits `0..items` into at most `workers` near-equal contiguous ranges
/// (never an empty one, except a single empty range for an empty message).
pub fn split(items: usize, workers: usize) -> Vec<Range<usize>> {
    let parts = workers.clamp(1, items.max(1));
    (0..parts)
        .map(|i| (i * items / parts)..((i + 1) * items / parts))
        .collect()
}

/// Parts per worker in [`map_parts`]: enough to even out a slowed worker,
/// few enough that per-part setup stays negligible.
pub const PARTS_PER_WORKER: usize = 8;

/// Applies `f` to consecutive ranges covering `0..items` (the ranges of
/// [`split`]), in parallel on `exec`'s workers; the results come back in
/// range order and the first error of any part wins.
pub fn map_parts<T: Send>(
    exec: &dyn Executor,
    items: usize,
    f: impl Fn(Range<usize>) -> Result<T, Error> + Sync,
) -> Result<Vec<T>, Error> {
    // Several parts per worker, claimed as workers become free (see
    // `Threads::run`); one part when there is one worker.
    let workers = exec.workers();
    let parts = if workers > 1 {
        workers * PARTS_PER_WORKER
    } else {
        1
    };
    let ranges = split(items, parts);
    let slots: Vec<Mutex<Option<Result<T, Error>>>> =
        ranges.iter().map(|_| Mutex::new(None)).collect();
    exec.run(ranges.len(), &|i| {
        let out = f(ranges[i].clone());
        if let Ok(mut slot) = slots[i].lock() {
            *slot = Some(out);
        }
    })?;
    slots
        .into_iter()
        .map(|m| {
            m.into_inner().ok().flatten().unwrap_or_else(|| {
                Err(Error::Executor {
                    executor: "threads",
                    reason: "a part did not run".into(),
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_parts_covers_every_item_once_in_order_on_any_executor() {
        for exec in [
            Box::new(Serial) as Box<dyn Executor>,
            Box::new(Threads::new(3).unwrap()),
        ] {
            let parts = map_parts(exec.as_ref(), 1000, |r| Ok(r.collect::<Vec<_>>())).unwrap();
            let expected = if exec.workers() > 1 {
                3 * PARTS_PER_WORKER
            } else {
                1
            };
            assert_eq!(parts.len(), expected);
            let all: Vec<usize> = parts.into_iter().flatten().collect();
            assert_eq!(all, (0..1000).collect::<Vec<_>>());
        }
        // Fewer items than parts: no empty part, nothing lost.
        let parts = map_parts(&Threads::new(4).unwrap(), 5, |r| Ok(r.len())).unwrap();
        assert_eq!(parts, vec![1; 5]);
    }

    #[test]
    fn a_failing_part_fails_the_whole_map() {
        let r = map_parts(&Threads::new(2).unwrap(), 100, |r| {
            if r.contains(&50) {
                Err(Error::check_failed("test", "part with 50"))
            } else {
                Ok(())
            }
        });
        assert!(r.unwrap_err().to_string().contains("part with 50"));
    }
}
