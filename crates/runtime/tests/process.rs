//! The runner's process handling, with fake runners written in sh: answers
//! are parsed, refusals and protocol errors are told apart, a hung runner
//! is killed at its deadline, a crashed one is reported with its exit status
//! and stderr, and dropping a runner leaves no process behind. No runtime's
//! interpreter is needed.

use crate::common;

use common::alive;
use cryptobench_runtime::{Handshake, Runner, RunnerCommand, RunnerError};
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

fn fake(dir: &Path, body: &str) -> RunnerCommand {
    common::fake_runner(dir, body, Duration::from_secs(1))
}

#[test]
fn answers_are_parsed_and_errors_told_apart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cmd = fake(
        dir.path(),
        r#"
while read line; do
  case "$line" in
    *hello*) echo '{"ok":true,"protocol":1,"version":"8.2.0","families":{"sodium":{"available":true}}}' ;;
    *bad*) echo '{"ok":false,"error":"unknown op \"bad\""}' ;;
    *) echo 'this is not json' ;;
  esac
done
"#,
    );
    let mut r = Runner::spawn(&cmd).expect("spawn");
    let v = r.request(&json!({"op": "hello"})).expect("hello");
    let hello = Handshake::parse("sh", &v).expect("handshake");
    assert_eq!(hello.version, "8.2.0");
    assert_eq!(hello.family("sodium"), None);
    assert!(hello.family("mcrypt").is_some());
    let msg = common::refusal(r.request(&json!({"op": "bad"})));
    assert!(msg.starts_with("sh: unknown op"), "{msg}");
    match r.request(&json!({"op": "other"})) {
        Err(RunnerError::Protocol(msg)) => assert!(msg.contains("not JSON"), "{msg}"),
        other => panic!("expected a protocol error, got {other:?}"),
    }
}

#[test]
fn a_hung_runner_is_killed_at_its_deadline() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Reads the request and never answers (exec: no child left behind).
    let cmd = fake(dir.path(), "read line\nexec sleep 300\n");
    let mut r = Runner::spawn(&cmd).expect("spawn");
    let pid = r.pid();
    let start = Instant::now();
    let err = r
        .request_within(
            &json!({"op": "time", "id": 1, "iters": 5}),
            Duration::from_millis(500),
        )
        .expect_err("a hung runner must not answer");
    assert!(start.elapsed() < Duration::from_secs(5));
    let text = err.to_string();
    assert!(
        text.contains("did not answer `time`") && text.contains("killed"),
        "{text}"
    );
    assert!(!alive(pid), "the hung runner (pid {pid}) is still running");
    // Once dead it stays dead, with the same clear error.
    assert_eq!(r.request(&json!({"op": "hello"})), Err(err));
}

#[test]
fn a_crashed_runner_is_reported_with_status_and_stderr() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cmd = fake(
        dir.path(),
        "read line\necho 'PHP Fatal error: out of memory' >&2\nexit 3\n",
    );
    let mut r = Runner::spawn(&cmd).expect("spawn");
    match r.request(&json!({"op": "prepare", "id": 1, "case": {}})) {
        Err(RunnerError::Crashed {
            op, status, stderr, ..
        }) => {
            assert_eq!(op, "prepare");
            assert!(status.contains('3'), "{status}");
            assert!(stderr.contains("out of memory"), "{stderr}");
        }
        other => panic!("expected a crash, got {other:?}"),
    }
    assert!(r.is_dead());
}

#[test]
fn dropping_a_runner_leaves_no_process() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Ignores end of input: only the kill on drop can end it.
    let cmd = fake(dir.path(), "trap '' HUP\nexec sleep 300\n");
    let r = Runner::spawn(&cmd).expect("spawn");
    let pid = r.pid();
    assert!(alive(pid));
    drop(r);
    assert!(!alive(pid), "pid {pid} outlived its Runner");
}
