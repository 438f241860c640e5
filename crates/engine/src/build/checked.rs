//! A case built and checked before it is timed: the one
//! check-before-timing step, and where the case runs fastest.
//!
//! A case whose build fails or whose checks fail becomes a finished
//! measurement with the reason, never a timed one.

use crate::build::placement::fastest_placement;
use crate::sample::clock::Clock;
use cryptobench_core::model::PLACEMENT_SPREAD_KEY;
use cryptobench_core::{
    Case, CaseError, CaseFactory, CaseSpec, CaseStatus, CheckOutcome, Measurement,
};

/// Builds a case and runs its checks: the one check-before-timing step.
/// `Err` is the finished measurement of a case that cannot be timed (it
/// could not be built, or a check failed).
pub fn build_checked(
    spec: &CaseSpec,
    factory: &CaseFactory,
) -> Result<(Box<dyn Case>, Measurement), Box<Measurement>> {
    let case = factory().map_err(|e| Box::new(from_case_error(spec, e, Vec::new())))?;
    checked(spec, case)
}

/// [`build_checked`], then the case built again where it runs fastest
/// ([`crate::placement`]), that instance checked too; the trial's time is
/// added to `trial_ns`.
pub fn build_placed_checked(
    spec: &CaseSpec,
    factory: &CaseFactory,
    clock: &dyn Clock,
    trial_ns: &mut u64,
) -> Result<(Box<dyn Case>, Measurement), Box<Measurement>> {
    let started = clock.now_ns();
    let case = factory().map_err(|e| Box::new(from_case_error(spec, e, Vec::new())))?;
    let build_ns = clock.now_ns().saturating_sub(started);
    // No instance is timed before the first has passed its checks.
    let (case, m) = checked(spec, case)?;
    let placed = fastest_placement(spec, factory, case, build_ns, clock, trial_ns);
    let (case, mut m) = match placed.other {
        false => (placed.case, m),
        true => checked(spec, placed.case)?,
    };
    if let Some(spread) = placed.spread {
        m.extra.insert(PLACEMENT_SPREAD_KEY.into(), spread);
    }
    Ok((case, m))
}

/// Runs the checks of a built case: `Err` when one failed.
fn checked(
    spec: &CaseSpec,
    mut case: Box<dyn Case>,
) -> Result<(Box<dyn Case>, Measurement), Box<Measurement>> {
    let checks = case.checks();
    let mut m = spec.measurement(CaseStatus::Measured, None);
    if let Some(bad) = checks.iter().find(|c| c.outcome == CheckOutcome::Fail) {
        m.status = CaseStatus::Failed;
        m.reason = Some(format!("{}: {}", bad.name, bad.detail));
        m.checks = checks;
        return Err(Box::new(m));
    }
    m.checks = checks;
    Ok((case, m))
}

/// A measurement for a case that could not be built or failed while timed.
pub(crate) fn from_case_error(
    spec: &CaseSpec,
    e: CaseError,
    checks: Vec<cryptobench_core::CheckResult>,
) -> Measurement {
    let (status, reason) = match e {
        CaseError::Skipped(r) => (CaseStatus::Skipped, r),
        CaseError::Unavailable(r) => (CaseStatus::Unavailable, r),
        CaseError::Failed(r) => (CaseStatus::Failed, r),
    };
    let mut m = spec.measurement(status, Some(reason));
    m.checks = checks;
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::placement::tests::{factory, spec};
    use crate::sample::clock::mock::MockClock;
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;

    #[test]
    fn the_instance_kept_is_checked_before_it_is_measured() {
        let clock = Arc::new(MockClock(AtomicU64::new(0)));
        let (f, _) = factory(&clock, &[120, 99, 130], false);
        let kept = build_placed_checked(&spec(), &f, clock.as_ref(), &mut 0);
        let failed = kept.err().expect("the faster instance failed its checks");
        assert_eq!(failed.status, cryptobench_core::CaseStatus::Failed);
    }
}
