//! One case measured on its own: a comparison group of one member, or
//! the multi-thread runner for a case of several threads.

use crate::build::threads::measure_threads;
use crate::group::rounds::{measure_group, Member};
use crate::sample::clock::Clock;
use cryptobench_core::{Budget, CaseFactory, CaseSpec, Measurement};

/// Builds, checks and measures one case (a comparison group of one).
/// Returns `None` only when the engine was interrupted before the case
/// produced anything worth keeping.
pub fn measure_case(
    spec: &CaseSpec,
    factory: &CaseFactory,
    budget: &Budget,
    clock: &dyn Clock,
) -> Option<Measurement> {
    if spec.threads > 1 {
        return measure_threads(spec, factory, budget, clock);
    }
    let member = Member { spec, factory };
    let mut out = measure_group("", &[member], budget, clock, None, 0);
    out.measurements.pop().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::clock::mock::MockClock;
    use crate::sample::sampling::tests::{budget, Fake};
    use cryptobench_core::{Case, CaseError, CaseStatus};
    use std::sync::Arc;

    #[test]
    fn a_failed_check_means_the_case_is_never_timed() {
        let clock = Arc::new(MockClock::default());
        let calls: Arc<std::sync::atomic::AtomicU64> = Default::default();
        let (c2, k2) = (clock.clone(), calls.clone());
        let factory: CaseFactory = Arc::new(move || {
            Ok(Box::new(Fake {
                clock: c2.clone(),
                op_ns: 10,
                calls: k2.clone(),
                fail_check: true,
            }) as Box<dyn Case>)
        });
        let spec = CaseSpec::new("t", "X", "b", "1", "op");
        let m = measure_case(&spec, &factory, &budget(), clock.as_ref()).unwrap();
        assert_eq!(m.status, CaseStatus::Failed);
        assert!(m.reason.unwrap().starts_with("kat:"));
        assert!(m.stats.is_none());
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 0);
    }

    #[test]
    fn factory_errors_become_skipped_or_failed() {
        let clock = MockClock::default();
        let spec = CaseSpec::new("t", "X", "b", "1", "op");
        let f: CaseFactory = Arc::new(|| Err(CaseError::Skipped("needs 16 bytes".into())));
        let m = measure_case(&spec, &f, &budget(), &clock).unwrap();
        assert_eq!(
            (m.status, m.reason.as_deref()),
            (CaseStatus::Skipped, Some("needs 16 bytes"))
        );
    }
}
