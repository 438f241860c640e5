//! Measurement, and nothing else.
//!
//! The engine turns a [`PlannedCase`](cryptobench_core::PlannedCase) into a
//! [`Measurement`](cryptobench_core::Measurement): it builds the case, runs
//! its checks (a failure means the case is never timed), calibrates a batch
//! so one sample lasts at least `Budget::min_sample`, warms up, then samples
//! with the monotonic clock ([`clock`]). Statistics come from the pure
//! `cryptobench-stats` crate; storing and printing belong to the binary,
//! which listens to [`runner::Event`]s. Peers (`openssl speed`) are cases
//! that time themselves ([`peers`]). The multi-thread runner ([`threads`])
//! runs one case instance per thread behind a barrier.
#![deny(missing_docs)]

pub mod affinity;
pub mod canary;
pub mod clock;
pub mod fingerprint;
pub mod group;
pub mod heap;
pub mod interleave;
pub mod interrupt;
pub mod layout;
pub mod load;
pub mod measure;
pub mod noise;
pub mod pace;
pub mod peers;
pub mod placement;
pub mod remeasure;
pub mod runner;
pub mod threads;

pub use measure::measure_case;
pub use runner::{run_cases, Event};
