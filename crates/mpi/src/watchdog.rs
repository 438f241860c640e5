//! The watchdog: a job whose rank stopped answering ends instead of hanging.
//!
//! A collective completes only when every rank calls it, and `mpirun`
//! notices a rank that dies but not one that is stopped (SIGSTOP, a frozen
//! host, a swap storm): the others wait in the collective for ever. So each
//! rank marks the time it enters a collective, and a thread checks the mark;
//! a rank that has waited longer than the bound calls [`crate::abort`],
//! naming itself, the collective and the bound, and `mpirun` ends the job.
//!
//! Only time spent waiting in a collective counts, never computing: a slow
//! cell on one rank makes the others wait for it, so the bound must exceed
//! the longest cell (default [`DEFAULT_BOUND`], `CRYPTOBENCH_MPI_WATCHDOG`
//! seconds to change it).

use cryptobench_core::Error;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Environment variable with the bound, in whole seconds.
pub const ENV_WATCHDOG: &str = "CRYPTOBENCH_MPI_WATCHDOG";
/// How long a rank may wait in one collective by default.
pub const DEFAULT_BOUND: Duration = Duration::from_secs(300);
/// The largest bound accepted, seconds (one day).
pub const MAX_BOUND_SECS: u64 = 86_400;

/// The bound `value` of [`ENV_WATCHDOG`] asks for ([`DEFAULT_BOUND`] when
/// unset or empty).
pub fn bound_from(value: Option<&str>) -> Result<Duration, Error> {
    let Some(text) = value.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_BOUND);
    };
    match text.parse::<u64>() {
        Ok(secs) if (1..=MAX_BOUND_SECS).contains(&secs) => Ok(Duration::from_secs(secs)),
        _ => Err(Error::usage(format!(
            "{ENV_WATCHDOG}={text:.40}: expected whole seconds from 1 to {MAX_BOUND_SECS} \
             (the longest a rank may wait in one collective; default {})",
            DEFAULT_BOUND.as_secs()
        ))),
    }
}

#[derive(Debug, Clone, Copy)]
struct Waiting {
    what: &'static str,
    since: Instant,
}

/// The wait mark of one rank and its bound.
#[derive(Debug)]
pub struct Watchdog {
    bound: Duration,
    waiting: Mutex<Option<Waiting>>,
}

impl Watchdog {
    /// A watchdog with `bound`.
    pub fn new(bound: Duration) -> Self {
        Self {
            bound,
            waiting: Mutex::new(None),
        }
    }

    fn mark(&self) -> std::sync::MutexGuard<'_, Option<Waiting>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The rank entered collective `what` at `now`.
    pub fn enter(&self, what: &'static str, now: Instant) {
        *self.mark() = Some(Waiting { what, since: now });
    }

    /// The rank left the collective.
    pub fn leave(&self) {
        *self.mark() = None;
    }

    /// Why the job must end at `now`, if this rank has waited in one
    /// collective longer than the bound.
    pub fn overdue(&self, now: Instant) -> Option<String> {
        let w = (*self.mark())?;
        let waited = now.checked_duration_since(w.since)?;
        (waited > self.bound).then(|| {
            format!(
                "waited {:.0} s in `{}` for the other ranks, more than the watchdog's bound of {} s \
                 ({ENV_WATCHDOG}); a rank has stopped answering",
                waited.as_secs_f64(),
                w.what,
                self.bound.as_secs()
            )
        })
    }

    /// How often the checking thread looks: a tenth of the bound, within
    /// 100 ms and 1 s, so the job ends at most a second late.
    pub fn poll_interval(&self) -> Duration {
        (self.bound / 10).clamp(Duration::from_millis(100), Duration::from_secs(1))
    }
}

static WATCHDOG: OnceLock<Arc<Watchdog>> = OnceLock::new();

/// Starts this rank's watchdog thread (once; later calls do nothing). It
/// calls `on_overdue` with the reason when the rank waits too long.
pub fn start(bound: Duration, on_overdue: fn(&str) -> !) {
    let dog = Arc::new(Watchdog::new(bound));
    if WATCHDOG.set(Arc::clone(&dog)).is_err() {
        return;
    }
    std::thread::spawn(move || loop {
        std::thread::sleep(dog.poll_interval());
        if let Some(why) = dog.overdue(Instant::now()) {
            on_overdue(&why);
        }
    });
}

/// Marks a wait in collective `what` until the guard is dropped; nothing
/// when no watchdog runs (a lone process).
#[must_use = "the wait ends when the guard is dropped"]
pub fn waiting(what: &'static str) -> WaitGuard {
    let dog = WATCHDOG.get().cloned();
    if let Some(d) = &dog {
        d.enter(what, Instant::now());
    }
    WaitGuard(dog)
}

/// Ends a wait mark on drop.
#[derive(Debug)]
pub struct WaitGuard(Option<Arc<Watchdog>>);

impl Drop for WaitGuard {
    fn drop(&mut self) {
        if let Some(d) = &self.0 {
            d.leave();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_longer_than_the_bound_is_overdue_and_names_the_bound() {
        let dog = Watchdog::new(Duration::from_secs(60));
        let t0 = Instant::now();
        assert_eq!(
            dog.overdue(t0 + Duration::from_secs(3600)),
            None,
            "not waiting"
        );
        dog.enter("gather", t0);
        assert_eq!(dog.overdue(t0 + Duration::from_secs(60)), None);
        let why = dog
            .overdue(t0 + Duration::from_secs(61))
            .expect("61 s > 60 s");
        assert!(why.contains("`gather`") && why.contains("60 s"), "{why}");
        assert!(why.contains(ENV_WATCHDOG), "{why}");
        dog.leave();
        assert_eq!(dog.overdue(t0 + Duration::from_secs(600)), None);
    }

    #[test]
    fn each_collective_starts_a_fresh_wait() {
        let dog = Watchdog::new(Duration::from_secs(10));
        let t0 = Instant::now();
        dog.enter("barrier", t0);
        dog.leave();
        // Computing between collectives never counts.
        dog.enter("scatter", t0 + Duration::from_secs(100));
        assert_eq!(dog.overdue(t0 + Duration::from_secs(105)), None);
        assert!(dog.overdue(t0 + Duration::from_secs(111)).is_some());
    }

    #[test]
    fn the_bound_comes_from_the_environment_value() {
        assert_eq!(bound_from(None).unwrap(), DEFAULT_BOUND);
        assert_eq!(bound_from(Some(" ")).unwrap(), DEFAULT_BOUND);
        assert_eq!(bound_from(Some("45")).unwrap(), Duration::from_secs(45));
        for bad in ["0", "-3", "1.5", "ten", "86401"] {
            let why = bound_from(Some(bad)).unwrap_err().to_string();
            assert!(
                why.contains("expected whole seconds from 1 to 86400"),
                "{why}"
            );
        }
    }

    #[test]
    fn the_poll_interval_keeps_the_job_ending_within_a_second_late() {
        assert_eq!(
            Watchdog::new(Duration::from_secs(300)).poll_interval(),
            Duration::from_secs(1)
        );
        assert_eq!(
            Watchdog::new(Duration::from_secs(2)).poll_interval(),
            Duration::from_millis(200)
        );
    }
}
