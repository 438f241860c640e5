//! Node.js: the built-in `crypto` module (OpenSSL beneath), timed with
//! `process.hrtime.bigint()`. The runner is node/runner.js. Argon2 is
//! `crypto.argon2` from Node 24.7 on; an older Node says so.

use crate::cell::{interpreted, overhead_cell, RuntimeSpec};
use crate::discover::Program;
use crate::script::embedded;

/// Node.js as a cell-driven runtime.
pub static SPEC: RuntimeSpec = RuntimeSpec {
    name: "node",
    title: "Node.js",
    program: Program {
        runtime: "node",
        default_name: "node",
        env_override: "CRYPTOBENCH_NODE",
        install: "apt-get install nodejs",
    },
    preferred: &[],
    files: &[embedded!("node", "runner.js")],
    launch: interpreted,
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};
