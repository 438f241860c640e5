//! Python 3: `cryptography` (OpenSSL beneath), PyNaCl (libsodium),
//! argon2-cffi (libargon2) and `hashlib`, timed with
//! `time.perf_counter_ns`. The runner is python/runner.py.
//!
//! Debian installs the libraries for the system interpreter, so
//! `/usr/bin/python3` is preferred to the first `python3` on `PATH` (a
//! pyenv or virtualenv one may lack them); `CRYPTOBENCH_PYTHON` overrides.

use crate::cell::{interpreted, overhead_cell, RuntimeSpec};
use crate::discover::Program;
use crate::script::embedded;

/// Python as a cell-driven runtime.
pub static SPEC: RuntimeSpec = RuntimeSpec {
    name: "python",
    title: "Python",
    program: Program {
        runtime: "python",
        default_name: "python3",
        env_override: "CRYPTOBENCH_PYTHON",
        install: "apt-get install python3 python3-cryptography python3-nacl python3-argon2",
    },
    preferred: &["/usr/bin/python3"],
    files: &[embedded!("python", "runner.py")],
    launch: interpreted,
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};
