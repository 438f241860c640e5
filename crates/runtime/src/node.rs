//! Node.js: the built-in `crypto` module (OpenSSL beneath), timed with
//! `process.hrtime.bigint()`. The runner is node/runner.js. Argon2 is
//! `crypto.argon2` from Node 24.7 on; an older Node says so.

use crate::cell::{interpreted, overhead_cell, CellRuntime, RuntimeSpec};
use crate::discover::Program;
use crate::script::EmbeddedScript;
use crate::Runtime;

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
    files: &[EmbeddedScript {
        file_name: "runner.js",
        content: include_str!("../../../node/runner.js"),
    }],
    launch: |program, dir| Ok(interpreted("runner.js", program, dir)),
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};

/// The registry's handle on Node.js.
pub fn runtime() -> Box<dyn Runtime> {
    Box::new(CellRuntime::new(&SPEC))
}
