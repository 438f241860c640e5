//! A slowdown injected into one backend's served cases, for measuring how
//! often `ab` finds a known change (scripts/bench-ab). Only a build with
//! the `inject-slowdown` feature has it; in every other build [`wrap`]
//! returns the case untouched and [`described`] is `None`.
//!
//! `CRYPTOBENCH_INJECT_SLOWDOWN_PCT=5` makes every batch of the cases of
//! `CRYPTOBENCH_INJECT_SLOWDOWN_BACKEND` (default `openssl`) last 5% longer:
//! after the batch, the thread spins for 5% of the time the batch took,
//! inside the timed interval, so the change scales with the work as a
//! slower implementation's would.

use cryptobench_core::{Case, CaseSpec};

#[cfg(feature = "inject-slowdown")]
mod enabled {
    use cryptobench_core::{BatchTime, Case, CaseError, CheckResult};
    use std::time::{Duration, Instant};

    /// The backend and the fraction its batches are slowed by, when set.
    pub fn setting() -> Option<(String, f64)> {
        let pct: f64 = std::env::var("CRYPTOBENCH_INJECT_SLOWDOWN_PCT")
            .ok()?
            .trim()
            .parse()
            .ok()?;
        let backend = std::env::var("CRYPTOBENCH_INJECT_SLOWDOWN_BACKEND")
            .ok()
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "openssl".into());
        (pct > 0.0 && pct <= 1000.0).then_some((backend, pct / 100.0))
    }

    /// A case whose batches spin `extra` of their own time longer.
    pub struct Slowed {
        pub inner: Box<dyn Case>,
        pub extra: f64,
    }

    impl Case for Slowed {
        fn checks(&mut self) -> Vec<CheckResult> {
            self.inner.checks()
        }
        fn prepare_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            self.inner.prepare_batch(iters)
        }
        fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
            let start = Instant::now();
            self.inner.run_batch(iters)?;
            let until = start + start.elapsed().mul_f64(1.0 + self.extra);
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            Ok(())
        }
        fn time_batch(&mut self, iters: u64) -> Option<Result<BatchTime, CaseError>> {
            let t = self.inner.time_batch(iters)?;
            Some(t.map(|mut t| {
                // A case that times itself: the spin follows its batch.
                let spin = Duration::from_secs_f64(t.wall_ns * self.extra / 1e9);
                let until = Instant::now() + spin;
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                t.wall_ns *= 1.0 + self.extra;
                t
            }))
        }
        fn fixed_iterations(&self) -> Option<u64> {
            self.inner.fixed_iterations()
        }
        fn calibration_is_a_sample(&self) -> bool {
            self.inner.calibration_is_a_sample()
        }
        fn placement_free(&self) -> bool {
            self.inner.placement_free()
        }
        fn extra(&self) -> Vec<(String, f64)> {
            self.inner.extra()
        }
    }
}

/// `case`, slowed when this is a test build told to slow `spec`'s backend.
pub fn wrap(case: Box<dyn Case>, spec: &CaseSpec) -> Box<dyn Case> {
    #[cfg(feature = "inject-slowdown")]
    if let Some((backend, extra)) = enabled::setting() {
        if backend.eq_ignore_ascii_case(&spec.backend) {
            return Box::new(enabled::Slowed { inner: case, extra });
        }
    }
    let _ = spec;
    case
}

/// What a test build injects (`openssl +5%`), `None` in a product build or
/// when nothing is set.
pub fn described() -> Option<String> {
    #[cfg(feature = "inject-slowdown")]
    if let Some((backend, extra)) = enabled::setting() {
        return Some(format!("{backend} +{:.1}%", extra * 100.0));
    }
    None
}
