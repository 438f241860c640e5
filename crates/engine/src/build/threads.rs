//! The multi-thread runner: N threads, each with its own instance of the
//! same case, run batches in lock-step behind a barrier. Each round's wall
//! time is the slowest thread's, so the aggregate rate is honest (no thread
//! is credited for work done while another still runs). Per-thread rates and
//! the scaling efficiency against one thread are kept in `extra`.

use crate::build::checked::{build_checked, from_case_error};
use crate::sample::clock::Clock;
use crate::sample::interrupt::stop_requested;
use crate::sample::sampling::{finish, sample, time_batch, Sampled};
use cryptobench_core::{Budget, CaseFactory, CaseSpec, Measurement};
use std::sync::{Arc, Barrier, Mutex};

/// Per thread, per round: (start ns, end ns, ops/s of that batch).
type RoundLog = Arc<Mutex<Vec<Vec<(u64, u64, f64)>>>>;

/// Measures `spec.threads` concurrent instances of a case on `clock` (the
/// same clock, shared by every thread, the single-thread path uses).
pub fn measure_threads(
    spec: &CaseSpec,
    factory: &CaseFactory,
    budget: &Budget,
    clock: &dyn Clock,
) -> Option<Measurement> {
    let n = spec.threads.max(1) as usize;
    let (mut first, mut m) = match build_checked(spec, factory) {
        Ok(x) => x,
        Err(done) => return Some(*done),
    };

    // Single-thread reference: calibrates the batch and gives the baseline
    // rate for the scaling efficiency. Its batch is the case's own shortest
    // (milliseconds for threads behind a barrier, more for work that varies
    // per call), as in a comparison group.
    let own = budget.for_case(spec);
    let single = match sample(first.as_mut(), &own, clock) {
        Ok(s) if s.interrupted => return None,
        Ok(s) => s,
        Err(e) => return Some(from_case_error(spec, e, m.checks)),
    };
    let iters = single.iters;
    let single_median = cryptobench_stats::median(&single.wall);
    let found = first.extra();

    let mut cases = vec![first];
    for _ in 1..n {
        match factory() {
            Ok(c) => cases.push(c),
            Err(e) => return Some(from_case_error(spec, e, m.checks)),
        }
    }
    let rounds = budget.samples.max(1);
    let barrier = Arc::new(Barrier::new(n));
    let results: RoundLog = Arc::new(Mutex::new(vec![Vec::new(); n]));
    let errors: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    std::thread::scope(|scope| {
        for (t, mut case) in cases.into_iter().enumerate() {
            let (barrier, results, errors) = (barrier.clone(), results.clone(), errors.clone());
            scope.spawn(move || {
                for _ in 0..rounds {
                    barrier.wait();
                    let start = clock.now_ns();
                    let r = time_batch(case.as_mut(), iters, clock);
                    let end = clock.now_ns();
                    match r {
                        Ok(b) => results
                            .lock()
                            .expect("poisoned")
                            .get_mut(t)
                            .expect("thread slot")
                            .push((start, end, b.iters as f64 / (b.wall_ns / 1e9))),
                        Err(e) => *errors.lock().expect("poisoned") = Some(e.to_string()),
                    }
                    if stop_requested() {
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = errors.lock().expect("poisoned").take() {
        return Some(from_case_error(
            spec,
            cryptobench_core::CaseError::Failed(e),
            m.checks,
        ));
    }
    let results = results.lock().expect("poisoned").clone();
    let done = results.iter().map(Vec::len).min().unwrap_or(0);
    if done < 3 {
        return None;
    }
    let mut s = Sampled {
        iters,
        interrupted: done < rounds,
        ..Sampled::default()
    };
    for r in 0..done {
        let start = results.iter().map(|v| v[r].0).min().unwrap_or(0);
        let end = results.iter().map(|v| v[r].1).max().unwrap_or(0);
        // One aggregate op = one op on every thread; per-op time is the round's
        // wall time divided by all ops done in it.
        s.wall
            .push(end.saturating_sub(start) as f64 / (iters as f64 * n as f64));
    }
    finish(&mut m, s);
    m.extra.extend(found);
    let total_ops = m.stats.as_ref().map(|x| x.ops_per_s).unwrap_or(0.0);
    let single_ops = if single_median > 0.0 {
        1e9 / single_median
    } else {
        0.0
    };
    for (t, v) in results.iter().enumerate() {
        let rates: Vec<f64> = v.iter().map(|x| x.2).collect();
        m.extra.insert(
            format!("thread{t}_ops_per_s"),
            cryptobench_stats::median(&rates),
        );
    }
    m.extra.insert("single_thread_ops_per_s".into(), single_ops);
    m.extra.insert("total_ops_per_s".into(), total_ops);
    m.extra
        .insert("per_thread_ops_per_s".into(), total_ops / n as f64);
    if single_ops > 0.0 {
        m.extra.insert(
            "scaling_efficiency".into(),
            total_ops / (n as f64 * single_ops),
        );
    }
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::clock::mock::MockClock;
    use cryptobench_core::{Case, CaseError, CaseStatus};
    use std::time::Duration;

    struct Spin(u64);
    impl Case for Spin {
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            for i in 0..iters * 200 {
                self.0 =
                    std::hint::black_box(self.0.wrapping_mul(6364136223846793005).wrapping_add(i));
            }
            Ok(())
        }
    }

    #[test]
    fn two_threads_report_total_per_thread_and_efficiency() {
        let factory: CaseFactory = Arc::new(|| Ok(Box::new(Spin(1)) as Box<dyn Case>));
        let spec = CaseSpec::new("t", "spin", "b", "1", "op").threads(2);
        let budget = Budget::quick();
        let m = measure_threads(
            &spec,
            &factory,
            &budget,
            &crate::sample::clock::MonotonicClock,
        )
        .unwrap();
        assert_eq!(m.status, CaseStatus::Measured);
        assert_eq!(m.threads, 2);
        assert!(m.samples_ns.len() >= 3);
        for key in [
            "thread0_ops_per_s",
            "thread1_ops_per_s",
            "total_ops_per_s",
            "scaling_efficiency",
        ] {
            assert!(
                m.extra.get(key).copied().unwrap_or(0.0) > 0.0,
                "{key} missing: {:?}",
                m.extra
            );
        }
        let total = m.extra["total_ops_per_s"];
        assert!((total - 2.0 * m.extra["per_thread_ops_per_s"]).abs() < 1e-6 * total);
    }

    /// Work that takes exactly 1 us of the mock clock per operation.
    struct Ticks(Arc<MockClock>);
    impl Case for Ticks {
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            for _ in 0..iters {
                self.0.advance(1_000);
            }
            Ok(())
        }
    }

    /// Cases of [`Ticks`] on `clock`.
    fn ticks_on(clock: &Arc<MockClock>) -> CaseFactory {
        let shared = clock.clone();
        Arc::new(move || Ok(Box::new(Ticks(shared.clone())) as Box<dyn Case>))
    }

    #[test]
    fn threads_are_timed_on_the_injected_clock() {
        let clock = Arc::new(MockClock::default());
        let factory = ticks_on(&clock);
        let spec = CaseSpec::new("t", "ticks", "b", "1", "op").threads(2);
        let m = measure_threads(&spec, &factory, &Budget::quick(), clock.as_ref()).unwrap();
        assert_eq!(m.status, CaseStatus::Measured);
        // Each round spans both threads' ticks: 2 x iters us for 2 x iters
        // operations, whatever the interleaving.
        for s in &m.samples_ns {
            assert_eq!(*s, 1_000.0, "{:?}", m.samples_ns);
        }
        assert_eq!(m.extra["single_thread_ops_per_s"], 1e6);
    }

    #[test]
    fn threads_batch_for_the_cases_own_shortest_sample() {
        let batch = |spec: CaseSpec| {
            let clock = Arc::new(MockClock::default());
            let m = measure_threads(
                &spec,
                &ticks_on(&clock),
                &Budget::standard(),
                clock.as_ref(),
            );
            Duration::from_micros(m.unwrap().iterations_per_sample)
        };
        let spec = CaseSpec::new("t", "ticks", "b", "1", "op").threads(2);
        // 1 us a call: the batch lasts the case's shortest sample, not the
        // run's 100 us.
        let multi_core = cryptobench_core::suite::MULTI_CORE_MIN_SAMPLE;
        assert!(batch(spec.clone()) >= multi_core);
        let varies = spec.labels(Some(cryptobench_core::model::LABEL_WORK_VARIES));
        let work_varies = cryptobench_core::suite::WORK_VARIES_MIN_SAMPLE;
        assert!(batch(varies) >= work_varies);
    }
}
