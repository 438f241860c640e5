//! Screens a plan's cases one after another and turns each into a stored
//! measurement.
//!
//! Each case gets its own seed (the run's seed and its position), so a
//! run with `--seed` draws the same orders again.

use crate::case::{LeakInfo, Planned};
use crate::error::LeakError;
use crate::measure::{self, Budget};
use crate::verdict::{self, Finding};
use cryptobench_core::{CaseStatus, CheckOutcome, Measurement};
use cryptobench_engine::sample::clock::Clock;

/// What the screen tells its caller while it works.
pub enum Event<'a> {
    /// A case begins.
    Started {
        /// Its position, from 0.
        index: usize,
        /// Cases in the plan.
        of: usize,
        /// The case.
        info: &'a LeakInfo,
    },
    /// Measurements done so far in the current case, and its target.
    Progress {
        /// Done.
        done: usize,
        /// Target.
        target: usize,
    },
    /// A case finished; its finding when it was measured.
    Finished {
        /// The stored measurement.
        measurement: &'a Measurement,
        /// What the screen found.
        finding: Option<&'a Finding>,
    },
}

/// Screens every case of `plan` with `budget` each; `on` hears every event.
pub fn run_plan(
    plan: Vec<Planned>,
    clock: &dyn Clock,
    budget: Budget,
    seed: u64,
    on: &mut dyn FnMut(Event<'_>),
) -> Vec<Measurement> {
    let of = plan.len();
    let mut out = Vec::with_capacity(of);
    for (index, planned) in plan.into_iter().enumerate() {
        if cryptobench_engine::sample::interrupt::stop_requested() {
            break;
        }
        on(Event::Started {
            index,
            of,
            info: &planned.info,
        });
        let case_seed = seed ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let (m, finding) = screen_one(planned, clock, budget, case_seed, on);
        on(Event::Finished {
            measurement: &m,
            finding: finding.as_ref(),
        });
        out.push(m);
    }
    out
}

/// Builds, checks and screens one case.
pub fn screen_one(
    planned: Planned,
    clock: &dyn Clock,
    budget: Budget,
    seed: u64,
    on: &mut dyn FnMut(Event<'_>),
) -> (Measurement, Option<Finding>) {
    let info = planned.info;
    let spec = verdict::base(&info);
    let build = match planned.setup {
        Ok(b) => b,
        Err(reason) => {
            return (
                spec.measurement(CaseStatus::Unavailable, Some(reason)),
                None,
            )
        }
    };
    let mut case = match build() {
        Ok(c) => c,
        Err(e) => return (from_error(&spec, e, Vec::new()), None),
    };
    let checks = case.checks();
    if let Some(bad) = checks.iter().find(|c| c.outcome == CheckOutcome::Fail) {
        let reason = format!("check {} failed: {}", bad.name, bad.detail);
        return (from_error(&spec, LeakError::Failed(reason), checks), None);
    }
    let mut progress = |done, target| on(Event::Progress { done, target });
    match measure::sample(case.as_mut(), clock, budget, seed, &mut progress) {
        Ok(sampled) => {
            let finding = verdict::judge(&sampled);
            let m = verdict::measurement(&info, &sampled, &finding, checks);
            (m, Some(finding))
        }
        Err(e) => (from_error(&spec, e, checks), None),
    }
}

fn from_error(
    spec: &cryptobench_core::CaseSpec,
    e: LeakError,
    checks: Vec<cryptobench_core::CheckResult>,
) -> Measurement {
    let status = match e {
        LeakError::Unavailable(_) => CaseStatus::Unavailable,
        LeakError::Failed(_) => CaseStatus::Failed,
    };
    let mut m = spec.measurement(status, Some(e.to_string()));
    m.checks = checks;
    m
}
