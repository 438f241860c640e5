//! Ctrl-C reaches a stopped runner: with the runner frozen by SIGSTOP, a
//! request that waits on it ends within two seconds of the engine's stop
//! flag, as "interrupted", and the runner is gone. Its own test binary,
//! because the stop flag is process-wide and cannot be cleared.

mod common;

use common::alive;
use cryptobench_runtime::{Runner, RunnerError};
use serde_json::json;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_stop_request_kills_a_stopped_runner_within_two_seconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Would answer `time` only after five minutes, the default deadline.
    let cmd = common::fake_runner(
        dir.path(),
        "read line\nexec sleep 300\n",
        Duration::from_secs(300),
    );
    let mut runner = Runner::spawn(&cmd).expect("spawn");
    let pid = runner.pid();
    let stopped = Command::new("kill")
        .args(["-STOP", &pid.to_string()])
        .status()
        .expect("run kill -STOP");
    assert!(stopped.success(), "kill -STOP {pid} failed");

    let stop_at = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        cryptobench_engine::sample::interrupt::request_stop();
        Instant::now()
    });
    let err = runner
        .request(&json!({"op": "time", "id": 1, "iters": 1000}))
        .expect_err("a stopped runner cannot answer");
    let returned = Instant::now();
    let stop_at = stop_at.join().expect("stopper thread");
    assert!(
        returned.duration_since(stop_at) < Duration::from_secs(2),
        "the request ended {:?} after the stop request",
        returned.duration_since(stop_at)
    );
    assert!(
        matches!(err, RunnerError::Interrupted { .. }),
        "expected an interruption, got {err:?}"
    );
    assert!(err.is_interrupted());
    assert!(!alive(pid), "the stopped runner (pid {pid}) is still there");
    // Later requests do not start anything new.
    assert_eq!(runner.request(&json!({"op": "hello"})), Err(err));
}
