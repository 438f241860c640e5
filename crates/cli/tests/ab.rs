//! `ab`: two builds measured side by side in the same rounds, through the
//! hidden `serve-cells` runner mode; and what it says about an OTHER_BINARY
//! that is not a cryptobench build.

use crate::common;

use common::{bin, latest_run, temp_db, with_db, Outcome};
use std::time::{Duration, Instant};

/// A copy of the binary under test in `dir`: another build, as far as
/// `ab` can tell.
fn copied_binary(dir: &std::path::Path) -> std::path::PathBuf {
    let copy = dir.join("cryptobench-other");
    std::fs::copy(assert_cmd::cargo::cargo_bin("cryptobench"), &copy).expect("copy the binary");
    copy
}

#[test]
fn ab_against_a_copy_of_itself_pairs_one_hash_case_and_stores_the_run() {
    let (dir, db) = temp_db();
    let other = copied_binary(dir.path());
    let out = with_db(&db)
        .args(["--quick", "ab"])
        .arg(&other)
        .args([
            "--suite",
            "hash",
            "--algorithm",
            "SHA-256",
            "--size",
            "1KiB",
        ])
        .args(["--backend", "openssl", "--fail-on-regression", "50"])
        .checked_stdout();
    for part in [
        "other/this",
        "verdicts: 1 of 1 case(s) compared",
        "SHA-256",
        "gate --fail-on-regression 50.0%: pass",
    ] {
        assert!(out.contains(part), "{part:?} is not in: {out}");
    }
    // The run is stored: both builds' measurements of the case, told apart.
    let run = latest_run(&db);
    let builds: Vec<&str> = run["measurements"]
        .as_array()
        .expect("measurements")
        .iter()
        .filter_map(|m| m["params"]["build"].as_str())
        .collect();
    assert_eq!(builds.len(), 2, "{builds:?}");
    assert!(builds.contains(&"this") && builds.contains(&"other"));
    let backends = run["machine"]["backends"].to_string();
    assert!(backends.contains("build:other"), "{backends}");
    with_db(&db)
        .args(["show", "latest", "--all"])
        .prints("SHA-256");
}

#[test]
fn ab_refuses_a_missing_binary_and_a_program_that_is_not_cryptobench() {
    let (dir, db) = temp_db();
    with_db(&db)
        .args(["--quick", "ab", "/nonexistent/cryptobench"])
        .usage_error("OTHER_BINARY /nonexistent/cryptobench: no such file");
    let started = Instant::now();
    with_db(&db)
        .args(["--quick", "ab", "/bin/true", "--suite", "hash"])
        .timeout(Duration::from_secs(60))
        .usage_error("is not a cryptobench build that serves its cases");
    // A program that never answers is killed at the handshake's deadline.
    let silent = dir.path().join("silent");
    std::fs::write(&silent, "#!/bin/sh\nexec sleep 120\n").expect("write the script");
    let mut perms = std::fs::metadata(&silent).expect("metadata").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&silent, perms).expect("make it executable");
    with_db(&db)
        .args(["--quick", "ab"])
        .arg(&silent)
        .timeout(Duration::from_secs(60))
        .usage_error("did not answer `hello` within 10 s");
    assert!(started.elapsed() < Duration::from_secs(60));
    // Nothing was measured, so nothing was stored.
    assert!(!db.exists(), "{}", db.display());
}

#[test]
fn ab_and_its_runner_mode_in_help() {
    let help = bin().arg("--help").checked_stdout();
    assert!(help.contains("ab"), "{help}");
    assert!(!help.contains("serve-cells"), "{help}");
    bin()
        .args(["ab", "x", "--threads", "2"])
        .usage_error("--threads");
    bin()
        .args(["ab", "/bin/true", "--suite", "pubkey"])
        .usage_error("suite");
}
