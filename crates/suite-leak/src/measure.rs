//! The measurement loop: the two classes interleaved in a fresh random
//! order, each measurement one call (or a short batch of calls of one
//! class when a call is too short for the clock), timed on the engine's
//! clock.
//!
//! Random interleaving puts any drift of the machine (frequency, a
//! neighbour's load) on both classes alike, so it cannot pass for a
//! difference between them; a fixed order (all of A, then all of B)
//! would turn drift into a "leak".

use crate::case::{LeakCase, CLASSES};
use crate::error::LeakError;
use cryptobench_engine::sample::clock::Clock;
use cryptobench_stats::SplitMix64;
use std::time::{Duration, Instant};

/// Measurements drawn in one random order before the next order is drawn.
pub const BLOCK: usize = 1000;
/// Measurements thrown away first (caches, branch predictors, frequency).
pub const WARMUP: usize = 500;
/// A measurement lasts at least this long: a shorter call is batched so
/// the clock's own cost and granularity (tens of ns) stay small beside it.
pub const MIN_MEASUREMENT_NS: f64 = 1_000.0;
/// Most calls in one measurement.
pub const MAX_CALLS: u32 = 64;

/// How long and how much one case is screened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Stop at this many measurements (both classes together).
    pub measurements: usize,
    /// Or when this much time has passed, whichever comes first.
    pub time: Duration,
}

/// What the loop measured: ns per call, per class, in measurement order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sampled {
    /// Class 0's and class 1's measurements.
    pub classes: [Vec<f64>; CLASSES],
    /// Calls per measurement.
    pub calls: u32,
    /// Wall time the loop took.
    pub elapsed: Duration,
}

impl Sampled {
    /// Measurements of both classes.
    pub fn total(&self) -> usize {
        self.classes.iter().map(Vec::len).sum()
    }
}

/// Progress reports: measurements done and the target.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize);

/// Screens `case` within `budget`, drawing orders from `seed`, calling
/// `progress` after every block.
pub fn sample(
    case: &mut dyn LeakCase,
    clock: &dyn Clock,
    budget: Budget,
    seed: u64,
    progress: Progress<'_>,
) -> Result<Sampled, LeakError> {
    let started = Instant::now();
    let mut rng = SplitMix64::new(seed);
    let inputs = case.inputs().max(1);
    let calls = calibrate(case, clock)?;
    let mut out = Sampled {
        calls,
        ..Sampled::default()
    };
    let mut order = Vec::with_capacity(BLOCK);
    let mut warm = WARMUP;
    while out.total() < budget.measurements && started.elapsed() < budget.time {
        order.clear();
        for _ in 0..BLOCK {
            order.push((rng.below(CLASSES), rng.below(inputs)));
        }
        let times = time_block(case, clock, &order, calls)?;
        for (&(class, _), t) in order.iter().zip(times) {
            if warm > 0 {
                warm -= 1;
                continue;
            }
            if out.total() == budget.measurements {
                break;
            }
            out.classes[class].push(t);
        }
        progress(out.total(), budget.measurements);
        if cryptobench_engine::sample::interrupt::stop_requested() {
            break;
        }
    }
    out.elapsed = started.elapsed();
    Ok(out)
}

/// One block's times, ns per call, in `order`.
fn time_block(
    case: &mut dyn LeakCase,
    clock: &dyn Clock,
    order: &[(usize, usize)],
    calls: u32,
) -> Result<Vec<f64>, LeakError> {
    if let Some(external) = case.time_externally(order, calls) {
        return external;
    }
    let mut times = Vec::with_capacity(order.len());
    for &(class, input) in order {
        case.prepare(class, input);
        // The copy's stores and loads are finished before the clock is
        // read: where the class's input came from cannot slow the timed
        // call through memory traffic still in flight.
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
        let t0 = clock.now_ns();
        case.run(class, input, calls)?;
        let t1 = clock.now_ns();
        times.push(t1.saturating_sub(t0) as f64 / calls as f64);
    }
    Ok(times)
}

/// Calls per measurement: enough that one lasts [`MIN_MEASUREMENT_NS`],
/// judged from the faster class (both are measured with the same count).
fn calibrate(case: &mut dyn LeakCase, clock: &dyn Clock) -> Result<u32, LeakError> {
    let mut fastest = f64::INFINITY;
    for class in 0..CLASSES {
        for _ in 0..20 {
            case.prepare(class, 0);
            let t0 = clock.now_ns();
            case.run(class, 0, 1)?;
            let t = clock.now_ns().saturating_sub(t0) as f64;
            fastest = fastest.min(t);
        }
    }
    if fastest <= 0.0 {
        return Ok(MAX_CALLS);
    }
    Ok(((MIN_MEASUREMENT_NS / fastest).ceil() as u32).clamp(1, MAX_CALLS))
}
