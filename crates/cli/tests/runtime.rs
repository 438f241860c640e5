//! The runtimes' runner scripts travel inside the binary: a copy of it in an
//! empty directory, with a fresh home and cache, still measures the rows of
//! the interpreted runtimes (each script is written to the private cache on
//! first use). Go's and Java's runners, compiled on first use, are tested
//! in crates/runtime/tests/runners.rs.

use crate::common;

use common::assert_succeeded;
use cryptobench_runtime::php::{runner::PROGRAM, NAME};
use std::process::Command;

/// The runtimes whose runner is a script run by an interpreter.
const INTERPRETED: [&str; 3] = [NAME, "python", "node"];

fn interpreter_installed() {
    if let Err(why) = PROGRAM.find() {
        panic!("this test needs {NAME}: {why} (scripts/install-deps installs it)");
    }
}

#[test]
fn a_copied_binary_runs_runtime_rows_from_its_embedded_runner() {
    interpreter_installed();
    let place = tempfile::tempdir().expect("tempdir");
    let home = tempfile::tempdir().expect("home");
    let cache = tempfile::tempdir().expect("cache");
    let exe = place.path().join("cryptobench");
    std::fs::copy(env!("CARGO_BIN_EXE_cryptobench"), &exe).expect("copy the binary");
    let out = Command::new(&exe)
        .current_dir(place.path())
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", cache.path())
        .env_remove("CRYPTOBENCH_PHP_RUNNER")
        .args(["--quick", "--no-db", "--format", "json", "aead"])
        .args(["--algorithms", "aes-256-gcm", "--sizes", "1KB"])
        .args(["--backend", &format!("openssl,{}", INTERPRETED.join(","))])
        .output()
        .expect("run the copied binary");
    assert_succeeded(&out, "cryptobench");
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json run");
    for runtime in INTERPRETED {
        let twins: Vec<&serde_json::Value> = run["measurements"]
            .as_array()
            .expect("measurements")
            .iter()
            .filter(|m| m["backend"] == runtime)
            .collect();
        assert!(!twins.is_empty(), "no {runtime} row planned: {run}");
        for m in &twins {
            assert_eq!(m["status"], "measured", "{m}");
        }
    }
    let runners = cache.path().join("cryptobench/runners");
    let script_dirs: Vec<_> = std::fs::read_dir(&runners)
        .expect("the runner cache exists")
        .collect();
    assert_eq!(
        script_dirs.len(),
        INTERPRETED.len(),
        "one script version per runtime in {runners:?}"
    );
}

/// `--backend python` alone names no native backend, yet Python's rows are
/// twins of the suite's cells: they are planned from the unfiltered plan,
/// and no native row runs.
#[test]
fn a_runtime_named_alone_twins_the_suites_cells() {
    let out = Command::new(env!("CARGO_BIN_EXE_cryptobench"))
        .args(["--quick", "--no-db", "run", "--suite", "cipher"])
        .args(["--backend", "python", "--dry-run", "--format", "json"])
        .output()
        .expect("run cryptobench");
    assert_succeeded(&out, "cryptobench");
    let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one json case per line"))
        .collect();
    assert!(rows.iter().all(|r| r["backend"] == "python"), "{rows:?}");
    let ready = rows.iter().filter(|r| r["setup"] == "ready").count();
    assert!(
        ready > 0,
        "no python cipher row is ready (install python3-cryptography; scripts/install-deps does): {rows:?}"
    );
}

/// A runner cache another user could have planted is refused, exit 2,
/// naming the entry and what is wrong; the link's target is untouched.
#[test]
fn a_symlinked_runner_cache_is_refused() {
    let home = tempfile::tempdir().expect("home");
    let cache = tempfile::tempdir().expect("cache");
    let elsewhere = tempfile::tempdir().expect("elsewhere");
    let planted = cache.path().join("cryptobench");
    std::os::unix::fs::symlink(elsewhere.path(), &planted).expect("plant the link");
    let out = Command::new(env!("CARGO_BIN_EXE_cryptobench"))
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", cache.path())
        .args(["--quick", "--no-db", "--format", "json", "aead"])
        .args(["--algorithms", "aes-256-gcm", "--sizes", "1KB"])
        .args(["--backend", "python"])
        .output()
        .expect("run cryptobench");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "refusing the runner cache: {} is a symbolic link",
            planted.display()
        )),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_dir(elsewhere.path()).expect("list").count(),
        0
    );
}
