//! Measurement, and nothing else.
//!
//! The engine turns a [`PlannedCase`](cryptobench_core::PlannedCase) into a
//! [`Measurement`](cryptobench_core::Measurement): it builds the case, runs
//! its checks (a failure means the case is never timed), calibrates a batch
//! so one sample lasts at least `Budget::min_sample`, warms up, then samples
//! with the monotonic clock. Statistics come from the pure
//! `cryptobench-stats` crate; storing and printing belong to the callers,
//! which listen to [`Event`]s.
//!
//! # Layers
//!
//! The modules sit in layers; a module imports only from its own layer or
//! the layers below it, and no two modules import each other (the test
//! `layers` at the end of this file reads the sources and keeps it so):
//!
//! ```text
//!   schedule   runner, interleave, pace, remeasure, measure (one case), noise (A/A test)
//!      |
//!   group      rounds (a comparison group and its stop rules), canary
//!      |
//!   build      checked (build + checks), placement, threads, peers
//!      |
//!   host       layout, heap, affinity, load, CPU features, fingerprint
//!      |
//!   sample     clock, interrupt, sampling (time a batch, calibrate, summarise)
//! ```
//!
//! Host facts sit beside the measuring layers: they read the machine and
//! use only the clock, so every measuring layer may ask them. The A/A test
//! ([`schedule::noise`]) is the exception that proves the rule: it measures
//! the machine through a comparison group, so it sits on top with the
//! other schedules of groups.
#![deny(missing_docs)]

pub mod build;
pub mod group;
pub mod host;
pub mod sample;
pub mod schedule;

pub use schedule::measure::measure_case;
pub use schedule::runner::{run_cases, Event};

#[cfg(test)]
mod layers;
