//! Helpers the runner tests share (runners, php, process, interrupt):
//! fake sh runners, process liveness, and a check's outcome by name.
// Each test binary uses only some of these.
#![allow(dead_code)]

use cryptobench_core::{CheckOutcome, CheckResult};
use cryptobench_runtime::{RunnerCommand, RunnerError};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A runner that is the sh script `body`, written into `dir`, answering
/// within `timeout`.
pub fn fake_runner(dir: &Path, body: &str, timeout: Duration) -> RunnerCommand {
    let script = dir.join("runner.sh");
    std::fs::write(&script, body).expect("write fake runner");
    RunnerCommand {
        runtime: "sh".into(),
        program: PathBuf::from("/bin/sh"),
        args: vec![script.into_os_string()],
        env: Vec::new(),
        timeout,
    }
}

/// Whether process `pid` still runs: a reaped process has no /proc entry; a
/// zombie shows state Z.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

/// The text of a runner's refusal (`{"ok":false,"error":...}`); any other
/// answer fails the test.
pub fn refusal(answer: Result<Value, RunnerError>) -> String {
    match answer {
        Err(RunnerError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The outcome of the check called `name`; a missing check fails the test.
pub fn outcome(checks: &[CheckResult], name: &str) -> CheckOutcome {
    checks
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check {name} in {checks:#?}"))
        .outcome
}
