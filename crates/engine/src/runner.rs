//! Runs a list of planned cases in order and reports each as it finishes.
//!
//! The runner does no I/O: the binary listens to [`Event`]s to store every
//! measurement the moment it exists and to drive the progress bar. Skipped
//! and unavailable cases become measurements too, so nothing is silently
//! dropped from a report.

use crate::clock::MonotonicClock;
use crate::interrupt::stop_requested;
use crate::measure::measure_case;
use cryptobench_core::{Budget, CaseStatus, Measurement, PlannedCase, Setup};

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
}

/// Runs every case; returns the measurements and whether a stop was requested.
pub fn run_cases(
    cases: &[PlannedCase],
    budget: &Budget,
    listener: &mut dyn FnMut(Event<'_>),
) -> (Vec<Measurement>, bool) {
    let clock = MonotonicClock;
    let mut out = Vec::with_capacity(cases.len());
    for (index, case) in cases.iter().enumerate() {
        if stop_requested() {
            return (out, true);
        }
        listener(Event::Started {
            index,
            total: cases.len(),
            case,
        });
        let m = match &case.setup {
            Setup::Skipped(r) => Some(case.spec.measurement(CaseStatus::Skipped, Some(r.clone()))),
            Setup::Unavailable(r) => Some(
                case.spec
                    .measurement(CaseStatus::Unavailable, Some(r.clone())),
            ),
            Setup::Ready(f) => {
                // A panicking backend must not take the run (and what it measured) down.
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    measure_case(&case.spec, f, budget, &clock)
                }));
                r.unwrap_or_else(|p| {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown panic".into());
                    Some(case.spec.measurement(
                        CaseStatus::Failed,
                        Some(format!("the case panicked: {msg}")),
                    ))
                })
            }
        };
        match m {
            Some(m) => {
                listener(Event::Finished(&m));
                out.push(m);
            }
            None => return (out, true),
        }
    }
    let stopped = stop_requested();
    (out, stopped)
}

/// A rough duration estimate of a case in seconds, for the ETA.
pub fn estimate_secs(case: &PlannedCase, budget: &Budget) -> f64 {
    match case.setup {
        Setup::Ready(_) => {
            let per_case = budget.time_per_case.as_secs_f64() + budget.warmup.as_secs_f64() + 0.02;
            let op = case.spec.expected_ns / 1e9;
            if op * budget.samples as f64 > per_case {
                op * (budget.min_slow_samples + 1) as f64
            } else {
                per_case
            }
        }
        _ => 0.0,
    }
}
