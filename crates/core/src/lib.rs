//! The shared vocabulary of cryptobench.
//!
//! Everything that more than one crate must agree on lives here and nowhere
//! else: the versioned result model ([`model`]), sizes and durations as users
//! type them ([`units`]), case-insensitive names with "did you mean"
//! ([`names`]), the typed [`Error`], the plain [`Table`] suites hand to the
//! reporters, and the seams a suite plugs into ([`suite`], [`paper`]). The
//! crate has no cryptography, no clocks and no I/O beyond the bounded reads of
//! user-named files ([`input`]), so that every other crate can depend on it
//! without pulling anything in.
#![deny(missing_docs)]

pub mod advice;
pub mod chart;
pub mod disturbance;
pub mod error;
pub mod input;
pub mod model;
pub mod names;
pub mod paper;
pub mod paper_method;
pub mod profile;
pub mod recommendation;
pub mod suite;
pub mod table;
pub mod units;
pub mod verdict;

pub use chart::{Chart, ChartKind, Series};
pub use error::{CaseError, Error};
pub use model::{
    BackendInfo, CaseStatus, CheckOutcome, CheckResult, EarlierSamples, Fingerprint, MachineLoad,
    Measurement, PairedRatio, Run, RunStatus, Summary, SCHEMA,
};
pub use paper::Paper;
pub use profile::{PaperProfile, SuiteProfile};
pub use recommendation::{
    AdviceRequest, Choice, Comparison, Confidence, Metric, MetricUnit, ParamValue, RatioKind,
    Recommendation, Stance,
};
pub use suite::{
    infos, Availability, BatchTime, Budget, Case, CaseFactory, CaseSpec, Library, Offer,
    PlannedCase, RunConfig, Setup, Suite, SuiteAction, EDGE_BUDGETS,
};
pub use table::{Align, Table};
pub use verdict::{Estimate, Verdict};
