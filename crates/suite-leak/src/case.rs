//! What a screened case is: two input classes of one operation.
//!
//! A case holds a pool of prepared inputs per class and performs the
//! operation on one of them when the loop asks; it never times itself.
//! Inputs are prepared before the loop, so both classes run the same
//! code up to the call and differ only in the data handed to it.
//!
//! A case whose operation runs in another process (a runtime's runner)
//! answers [`LeakCase::time_externally`] instead: the loop hands it the
//! block's random order and takes back one time per entry, measured by
//! the runner on its own clock. Nothing else of the screen changes.

use crate::error::LeakError;
use cryptobench_core::{CaseSpec, CheckResult};

/// The two classes: index 0 and 1 in every array below.
pub const CLASSES: usize = 2;

/// What a case is and what its classes probe.
#[derive(Debug, Clone, PartialEq)]
pub struct LeakInfo {
    /// Suite, primitive, backend, version, operation and input size, as
    /// every stored measurement has them.
    pub spec: CaseSpec,
    /// The two classes' names (`tag wrong at byte 0`, `random scalar`).
    pub classes: [String; CLASSES],
    /// What a difference between the classes would reveal.
    pub probes: String,
    /// Control, A/A or a library's operation.
    pub role: Role,
}

/// Why a case is in the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A known answer: this case must be flagged (`true`) or cleared.
    Control {
        /// Whether the screen must find a leak.
        leaks: bool,
    },
    /// Both classes draw from one distribution: any flag is a false alarm.
    SameClasses,
    /// A library's operation.
    Library,
}

impl Role {
    /// Name in results (`control`, `A/A`, `library`).
    pub fn name(self) -> &'static str {
        match self {
            Role::Control { .. } => "control",
            Role::SameClasses => "A/A",
            Role::Library => "library",
        }
    }
}

/// One operation with two classes of inputs.
pub trait LeakCase: Send {
    /// Inputs prepared per class; the loop draws one at random for each
    /// measurement.
    fn inputs(&self) -> usize;
    /// Checks that the classes are what their names say (a valid tag
    /// opens, a wrong one is rejected), before anything is timed.
    fn checks(&mut self) -> Vec<CheckResult> {
        Vec::new()
    }
    /// Untimed, right before each measurement: puts input `input` of
    /// `class` where [`LeakCase::run`] reads it, so both classes' data sit
    /// at one address, freshly written (a class kept in its own buffer
    /// could differ from the other by where it lies, not what it holds).
    fn prepare(&mut self, _class: usize, _input: usize) {}
    /// Performs the operation `calls` times on input `input` of `class`;
    /// the loop times this call.
    fn run(&mut self, class: usize, input: usize, calls: u32) -> Result<(), LeakError>;
    /// For a case timed in another process: one time per entry of
    /// `order` (class, input), ns per call, each of `calls` calls.
    fn time_externally(
        &mut self,
        _order: &[(usize, usize)],
        _calls: u32,
    ) -> Option<Result<Vec<f64>, LeakError>> {
        None
    }
}

/// Builds a case when its turn comes (keys, pools of inputs).
pub type Build = Box<dyn FnOnce() -> Result<Box<dyn LeakCase>, LeakError> + Send>;

/// A case as the plan holds it.
pub struct Planned {
    /// What it is.
    pub info: LeakInfo,
    /// How to build it, or why it cannot run here.
    pub setup: Result<Build, String>,
}

impl Planned {
    /// A case that runs.
    pub fn ready(info: LeakInfo, build: Build) -> Self {
        Self {
            info,
            setup: Ok(build),
        }
    }
    /// A case whose backend lacks it here.
    pub fn unavailable(info: LeakInfo, reason: impl Into<String>) -> Self {
        Self {
            info,
            setup: Err(reason.into()),
        }
    }
}

/// A check from a boolean with its detail.
pub fn check(name: &str, ok: bool, detail: impl Into<String>) -> CheckResult {
    CheckResult::from_bool(name, ok, detail)
}
