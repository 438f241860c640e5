//! Limits on Argon2 parameters that come from outside: flags and, above
//! all, PHC strings, which `verify` must treat as untrusted input.
//!
//! RFC 9106 allows up to 2^24 - 1 lanes, 2^32 - 1 passes and 4 TiB; one
//! such string would keep a server busy for days or spawn a thread per lane.
//! So every hash this tool computes from a user's parameters is checked
//! first against a memory cap and a time cap, the time estimated from a
//! stated conservative model ([`estimated_time`]) before anything runs.

use crate::params::Params;
use cryptobench_core::{units, Error};
use std::time::Duration;

/// The most lanes any flag or PHC string may ask for: 255. Each lane may get
/// its own thread; published profiles use at most 8.
pub const MAX_LANES: u32 = 255;
/// The most passes a benchmark grid or `hash -t` may ask for. Published
/// profiles use at most 10; a larger t only scales the time linearly.
pub const MAX_PASSES: u32 = 1000;
/// Default `--max-memory` of `hash` / `verify`: 1 GiB, a server's default.
pub const DEFAULT_MAX_MEMORY: &str = "1GiB";
/// Default `--max-time` of `hash` / `verify`: 10 s.
pub const DEFAULT_MAX_TIME: &str = "10s";
/// The cost model: bytes of memory filled per second by one thread. Real
/// implementations fill 1 to 3 GB/s per core; 500 MB/s over-estimates the
/// time so that a string under the cap finishes well within it.
pub const MODEL_BYTES_PER_SECOND: f64 = 500e6;

/// The caps one `hash` / `verify` call obeys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// The most memory one hash may use, in bytes.
    pub max_memory: u64,
    /// The longest one hash may take, by [`estimated_time`].
    pub max_time: Duration,
}

impl Caps {
    /// Parses `--max-memory` and `--max-time`.
    pub fn parse(max_memory: &str, max_time: &str) -> Result<Caps, Error> {
        let max_memory = units::parse_size_within(max_memory, 8 << 10, 4 << 40)
            .map_err(|e| Error::usage(format!("--max-memory: {e}")))?;
        let max_time =
            units::parse_duration_within(max_time, Duration::from_millis(1), units::MAX_DURATION)
                .map_err(|e| Error::usage(format!("--max-time: {e}")))?;
        Ok(Caps {
            max_memory,
            max_time,
        })
    }

    /// A usage error naming the parameter over its cap and how to raise it.
    pub fn check(&self, params: &Params, cores: u32) -> Result<(), Error> {
        if params.lanes > MAX_LANES {
            return Err(Error::usage(format!(
                "p={} lanes is over the limit of {MAX_LANES} (each lane may get a thread); \
                 this tool does not compute such hashes",
                params.lanes
            )));
        }
        if params.memory_bytes() > self.max_memory {
            return Err(Error::usage(format!(
                "m={} KiB ({}) is over --max-memory {}; raise it with --max-memory {} if the hash is trusted",
                params.m_kib,
                units::format_size(params.memory_bytes()),
                units::format_size(self.max_memory),
                units::format_size(params.memory_bytes())
            )));
        }
        let estimate = estimated_time(params, cores);
        if estimate > self.max_time.as_secs_f64() {
            return Err(Error::usage(format!(
                "t={} passes over {} in p={} lanes take about {} here (model: {} MB/s per thread on {} thread(s), \
                 lanes beyond the cores in sequence, {} us to start each lane's thread), \
                 over --max-time {}; raise it with --max-time {}s if the hash is trusted",
                params.t,
                units::format_size(params.memory_bytes()),
                params.lanes,
                describe_seconds(estimate),
                MODEL_BYTES_PER_SECOND / 1e6,
                params.threads.min(cores).max(1),
                MODEL_THREAD_START_SECONDS * 1e6,
                units::describe_duration(self.max_time),
                estimate.ceil().min(3600.0)
            )));
        }
        Ok(())
    }
}

/// The cost model: seconds to start and join the thread of one lane's
/// segment. libargon2 starts one thread per lane for each of the four
/// slices of every pass, one after another: p=255, t=100 on 2 KiB lanes
/// took 10.2 s here (100 us a segment) where filling the memory takes 0.2 s.
pub const MODEL_THREAD_START_SECONDS: f64 = 100e-6;

/// Seconds one hash takes by the model. Each pass fills the memory in four
/// slices; in a slice the lanes' segments run at most `cores` at a time, so
/// lanes beyond the cores are sequential work, each segment at
/// [`MODEL_BYTES_PER_SECOND`]; with more than one thread every segment
/// also pays [`MODEL_THREAD_START_SECONDS`], in sequence.
pub fn estimated_time(params: &Params, cores: u32) -> f64 {
    let lanes = params.lanes.max(1);
    let parallel = params.threads.min(cores).clamp(1, lanes);
    let rounds = f64::from(lanes.div_ceil(parallel));
    let segment_bytes = params.memory_bytes() as f64 / (4.0 * f64::from(lanes));
    let fill = rounds * segment_bytes / MODEL_BYTES_PER_SECOND;
    let starts = if params.threads > 1 {
        f64::from(lanes) * MODEL_THREAD_START_SECONDS
    } else {
        0.0
    };
    f64::from(params.t) * 4.0 * (fill + starts)
}

fn describe_seconds(s: f64) -> String {
    if s >= 86_400.0 {
        format!("{:.0} days", s / 86_400.0)
    } else if s >= 3600.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{s:.1} s")
    }
}

/// The cores this process may use (at least 1).
pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Variant;

    fn caps() -> Caps {
        Caps::parse(DEFAULT_MAX_MEMORY, DEFAULT_MAX_TIME).unwrap()
    }

    #[test]
    fn a_common_hash_passes() {
        caps()
            .check(&Params::new(Variant::Id, 65536, 3, 4), 2)
            .unwrap();
    }

    #[test]
    fn each_cap_names_its_parameter_and_flag() {
        let huge_t = Params::new(Variant::Id, 64, u32::MAX, 1);
        let e = caps().check(&huge_t, 2).unwrap_err().to_string();
        assert!(
            e.contains("t=4294967295") && e.contains("--max-time"),
            "{e}"
        );
        let huge_m = Params::new(Variant::Id, 16 << 20, 1, 1);
        let e = caps().check(&huge_m, 2).unwrap_err().to_string();
        assert!(
            e.contains("m=16777216") && e.contains("--max-memory 16 GiB"),
            "{e}"
        );
        let many_lanes = Params::new(Variant::Id, 1 << 20, 1, 100_000);
        let e = caps().check(&many_lanes, 2).unwrap_err().to_string();
        assert!(e.contains("p=100000"), "{e}");
    }

    #[test]
    fn lanes_beyond_the_cores_count_as_sequential_work() {
        // 10.2 s measured with libargon2 on 2 cores; memory alone says 0.2 s.
        let many = Params::new(Variant::Id, 2040, 100, 255);
        let est = estimated_time(&many, 2);
        assert!((8.0..13.0).contains(&est), "{est}");
        let e = Caps::parse(DEFAULT_MAX_MEMORY, "1s")
            .unwrap()
            .check(&many, 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("p=255 lanes") && e.contains("--max-time"), "{e}");
    }

    #[test]
    fn raising_the_caps_admits_the_hash() {
        let p = Params::new(Variant::Id, 2 << 20, 3, 4);
        assert!(caps().check(&p, 2).is_err());
        Caps::parse("4GiB", "60s").unwrap().check(&p, 2).unwrap();
    }

    #[test]
    fn bad_caps_are_usage_errors() {
        assert!(Caps::parse("-1", "10s").is_err());
        assert!(Caps::parse("1GiB", "99999999999999999999s").is_err());
        assert!(Caps::parse("1GiB", "0s").is_err());
    }
}
