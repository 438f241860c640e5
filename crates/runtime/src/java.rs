//! Java: the JCA (the JDK's own providers) and Bouncy Castle, timed with
//! `System.nanoTime`. The runner is java/Runner.java, run as a single
//! source file (Java 11+), with Debian's bcprov.jar on the class path when
//! installed.
//!
//! JIT warm-up is part of calibration: each `prepare` runs the case until,
//! past 50,000 calls or 0.2 s, three 5 ms batches agree within 3% per call
//! while HotSpot finishes no compilation and its other threads (compilers,
//! GC) use under a tenth of a core (at most 2 s; node/runner.js does the
//! same for V8 without the compiler signals, 0.3 s), and the engine's own
//! warm-up and calibration batches follow. The CPU signal matters on 2
//! cores: a C2 compilation still running ends no compilation, and with
//! the compile counter alone half the processes measured AES at 16 B at
//! 170-760 ns per call, still warming, against 85-95 ns settled. The answer's `warmup` says how
//! many calls it took and whether the time settled.

use crate::cell::{overhead_cell, RuntimeSpec};
use crate::discover::Program;
use crate::script::embedded;
use std::ffi::OsString;
use std::path::Path;

/// Where Debian's libbcprov-java puts Bouncy Castle.
pub const BCPROV: &str = "/usr/share/java/bcprov.jar";

/// Java as a cell-driven runtime.
pub static SPEC: RuntimeSpec = RuntimeSpec {
    name: "java",
    title: "Java",
    program: Program {
        runtime: "java",
        default_name: "java",
        env_override: "CRYPTOBENCH_JAVA",
        install: "apt-get install default-jdk-headless libbcprov-java",
    },
    preferred: &[],
    files: &[embedded!("java", "Runner.java")],
    launch: |program, dir, entry| {
        let mut args: Vec<OsString> = Vec::new();
        if Path::new(BCPROV).is_file() {
            args.extend(["-cp".into(), BCPROV.into()]);
        }
        args.push(dir.join(entry).into_os_string());
        Ok((program.to_path_buf(), args))
    },
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};
