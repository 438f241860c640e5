//! Clocks: the monotonic wall clock is the headline; CPU time is recorded
//! beside it for multi-threaded work but never reported as elapsed time;
//! the TSC gives cycles per byte where it is invariant.

use std::sync::OnceLock;
use std::time::Instant;

/// A source of monotonic nanoseconds; tests substitute a mock.
pub trait Clock: Send + Sync {
    /// Nanoseconds since an arbitrary origin, never decreasing.
    fn now_ns(&self) -> u64;
}

/// `std::time::Instant`, i.e. CLOCK_MONOTONIC on Linux.
#[derive(Debug, Default, Clone, Copy)]
pub struct MonotonicClock;

fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

impl Clock for MonotonicClock {
    fn now_ns(&self) -> u64 {
        origin().elapsed().as_nanos() as u64
    }
}

/// CPU time of the whole process (all threads), ns.
pub fn process_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// Reads the time-stamp counter (x86_64 only).
#[inline]
pub fn rdtsc() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc has no preconditions on x86_64.
        Some(unsafe { core::arch::x86_64::_rdtsc() })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// TSC frequency in Hz, measured once against the monotonic clock over
/// 20 ms; `None` when the TSC is not invariant (cycles would be meaningless).
pub fn tsc_hz() -> Option<f64> {
    static HZ: OnceLock<Option<f64>> = OnceLock::new();
    *HZ.get_or_init(|| {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let invariant = cpuinfo.contains("constant_tsc") && cpuinfo.contains("nonstop_tsc");
        if !invariant {
            return None;
        }
        let (t0, c0) = (Instant::now(), rdtsc()?);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let (c1, dt) = (rdtsc()?, t0.elapsed());
        let hz = (c1.wrapping_sub(c0)) as f64 / dt.as_secs_f64();
        (hz > 1e8).then_some(hz)
    })
}

#[cfg(test)]
pub(crate) mod mock {
    use super::Clock;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A clock that advances only when told (deterministic calibration tests).
    #[derive(Default)]
    pub struct MockClock(pub AtomicU64);

    impl MockClock {
        pub fn advance(&self, ns: u64) {
            self.0.fetch_add(ns, Ordering::SeqCst);
        }
    }

    impl Clock for MockClock {
        fn now_ns(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }
}
