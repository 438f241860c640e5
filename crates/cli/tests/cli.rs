//! The real binary, driven as a user would: help, list, a quick run,
//! exports, the store, compare, and every bad-input case of the foundation.

use crate::common;

use common::{
    bin, db_with_runs, latest_run, process_with_db, quick_hash, temp_db, with_db, Outcome,
};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn stored_run_ids(db: &Path) -> Vec<String> {
    let out = with_db(db)
        .args(["--format", "table", "runs"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.len() > 15 && w.as_bytes()[0].is_ascii_digit() && w.as_bytes()[8] == b'-')
        .map(str::to_string)
        .collect()
}

#[test]
fn help_and_version() {
    bin()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("cryptobench").and(predicate::str::contains("compare")));
    bin()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn list_shows_backends_with_versions() {
    // --wide: a version cell is not wrapped mid-phrase.
    bin().args(["--wide", "list", "backends"]).prints_all(&[
        "OpenSSL 3",
        "rustcrypto",
        "peer:openssl-speed",
        cryptobench_runtime::php::NAME,
        "mpi",
    ]);
    bin().args(["list", "primitives"]).prints("SHA3-256");
}

#[test]
fn quick_hash_run_is_stored_exported_and_parses() {
    let (dir, db) = temp_db();
    let json = dir.path().join("run.json");
    let csv = dir.path().join("run.csv");
    quick_hash(&db)
        .arg("-o")
        .arg(format!("json:{}", json.display()))
        .arg("-o")
        .arg(format!("csv:{}", csv.display()))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("SHA-256").and(predicate::str::contains("status complete")),
        )
        // The precision the four cases reached, the canary not among them.
        .stderr(
            predicate::str::is_match(
                r"\nprecision: \d of 4 cases \(\d+%\) within the target \+-0\.1%; median .*\(--quick samples each case briefly: a smoke run\)\n",
            )
            .unwrap(),
        );
    let run: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(run["schema"], "cryptobench/1");
    assert_eq!(run["status"], "complete");
    let all = run["measurements"].as_array().unwrap();
    let ms: Vec<_> = all.iter().filter(|m| m["suite"] == "hash").collect();
    assert_eq!(ms.len(), 4, "SHA-256 x 2 backends x 2 sizes");
    assert_eq!(all.len(), 5, "and the canary");
    for m in ms {
        assert_eq!(m["status"], "measured");
        // At least the 5 rounds adaptive sampling needs before it may stop.
        assert!(m["samples_ns"].as_array().unwrap().len() >= 5);
        assert!(m["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["outcome"] == "pass"));
        assert!(m["stats"]["median"].as_f64().unwrap() > 0.0);
    }
    assert!(!run["machine"]["cpu_model"].as_str().unwrap().is_empty());
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 6, "header + 4 rows + the canary");
    // The stored run shows and exports the same cases.
    let ids = stored_run_ids(&db);
    assert_eq!(ids.len(), 1);
    with_db(&db).args(["show", "latest"]).prints("rustcrypto");
    let out = with_db(&db)
        .args(["--format", "json", "export", &ids[0]])
        .output()
        .unwrap();
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["id"], run["id"]);
    with_db(&db)
        .args(["--format", "md", "export", "latest"])
        .prints("| SHA-256 |");
}

#[test]
fn json_to_stdout_is_the_run() {
    // --quiet silences the console table but not an export to stdout.
    let sha512_at_16_bytes = |output: [&str; 2]| {
        bin()
            .args(["--quick", "--no-db"])
            .args(output)
            .args(["hash", "--algorithms", "sha512", "--sizes", "16"])
            .args(["--no-peer", "--quiet"])
            .checked_stdout()
    };
    let table = sha512_at_16_bytes(["--format", "json"]);
    assert!(table.is_empty(), "--quiet prints nothing");
    let export = sha512_at_16_bytes(["-o", "json:-"]);
    let run: serde_json::Value = serde_json::from_str(&export).unwrap();
    let ms = run["measurements"].as_array().unwrap();
    assert_eq!(ms.iter().filter(|m| m["suite"] == "hash").count(), 2);
}

#[test]
fn compare_two_runs_and_fail_on_regression() {
    let (_dir, db) = db_with_runs(2);
    with_db(&db)
        .args(["compare", "latest~1", "latest"])
        .prints("4 case(s) compared");
    // A regression limit no real change can exceed passes; an unknown run is exit 2.
    with_db(&db)
        .args([
            "compare",
            "latest~1",
            "latest",
            "--fail-on-regression",
            "900",
        ])
        .assert()
        .code(0);
    with_db(&db)
        .args(["compare", "nosuchrun", "latest"])
        .usage_error("nosuchrun");
}

#[test]
fn unknown_names_exit_2_with_suggestions() {
    let cases: [(&[&str], &str); 5] = [
        (&["run", "--suite", "hsah"], "did you mean hash"),
        (&["--backend", "opensll", "hash"], "did you mean openssl"),
        (&["hash", "--algorithms", "sha-265"], "did you mean SHA-256"),
        (&["list", "backend"], "did you mean backends"),
        (&["--format", "jsn", "runs"], "did you mean json"),
    ];
    for (args, says) in cases {
        bin().args(args).usage_error(says);
    }
    bin().args(["nosuchcommand"]).assert().code(2);
}

#[test]
fn malformed_sizes_and_durations_name_the_flag() {
    for (args, flag) in [
        (vec!["hash", "--sizes", "12QB"], "--sizes"),
        (vec!["hash", "--sizes", "-1"], "--sizes"),
        (vec!["hash", "--sizes", "0"], "--sizes"),
        (vec!["--time", "0", "hash"], "--time"),
        (vec!["--time", "-1", "hash"], "--time"),
        (vec!["--time", "12QB", "hash"], "--time"),
        (vec!["--samples", "0", "hash"], "--samples"),
        (vec!["--threads", "0", "hash"], "--threads"),
    ] {
        bin().args(&args).arg("--no-db").usage_error(flag);
    }
}

#[test]
fn unwritable_export_and_database_are_clear_errors() {
    bin()
        .args([
            "--no-db",
            "-o",
            "json:/nonexistent-dir/x.json",
            "hash",
            "--sizes",
            "16",
        ])
        .usage_error("/nonexistent-dir/x.json");
    bin()
        .args(["--no-db", "-o", "jsn:x.json", "hash"])
        .usage_error("did you mean json");
    bin()
        .args(["--no-db", "-o", "x.json", "hash"])
        .usage_error("FORMAT:PATH");
    bin()
        .args(["--db", "/proc/nope/results.db", "hash", "--sizes", "16"])
        .usage_error("/proc/nope/results.db");
}

#[test]
fn corrupt_database_is_reported_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bad.db");
    let garbage = b"this is not an sqlite database, it is a text file\n".repeat(100);
    std::fs::write(&db, &garbage).unwrap();
    with_db(&db)
        .arg("runs")
        .usage_error("not a cryptobench database");
    quick_hash(&db).assert().code(2);
    assert_eq!(std::fs::read(&db).unwrap(), garbage);
}

fn wait_for_measurements(db: &Path, at_least: usize, timeout: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if let Ok(out) = with_db(db)
            .args(["--format", "json", "export", "latest"])
            .output()
        {
            if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                if v["measurements"].as_array().map(|a| a.len()).unwrap_or(0) >= at_least {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Sizes of the long hash run: twelve groups, of which four are sampled
/// at once, so the first are stored a third of the way through (about
/// 3 s of 10 s here) and a stop lands while most are still to come.
/// With the default five sizes every group finished in the run's last
/// second.
const LONG_RUN_SIZES: &str = "16,32,64,128,256,512,1KiB,2KiB,4KiB,8KiB,16KiB,32KiB";

/// Measurements of the long hash run when it completes: 12 sizes x 8
/// primitive-backend pairs, and the canary.
const LONG_RUN_MEASUREMENTS: usize = 97;

/// A long hash run into a fresh database, returned once it has stored
/// `at_least` measurements.
fn long_run_with(at_least: usize) -> (tempfile::TempDir, PathBuf, std::process::Child) {
    let (dir, db) = temp_db();
    let child = process_with_db(&db)
        .args(["--time", "50ms", "--precision", "0.1", "hash", "--no-peers"])
        .args(["--sizes", LONG_RUN_SIZES])
        // The libraries only: a runtime's runners would take most of the
        // wait before the first measurement.
        .args(["--backend", "openssl,rustcrypto"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_for_measurements(&db, at_least, Duration::from_secs(60)),
        "no measurement stored in time"
    );
    (dir, db, child)
}

#[test]
fn ctrl_c_marks_the_run_interrupted_and_keeps_what_was_measured() {
    let (_dir, db, mut child) = long_run_with(2);
    // SAFETY: sending a signal to our own child process.
    unsafe { libc_kill(child.id() as i32, 2) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let run = latest_run(&db);
    assert_eq!(run["status"], "interrupted");
    let n = run["measurements"].as_array().unwrap().len();
    assert!(
        (2..LONG_RUN_MEASUREMENTS).contains(&n),
        "{n} measurements kept"
    );
}

#[test]
fn a_killed_run_is_listed_as_interrupted_with_its_measurements() {
    let (_dir, db, mut child) = long_run_with(1);
    child.kill().unwrap();
    child.wait().unwrap();
    with_db(&db).arg("runs").prints("interrupted");
    let run = latest_run(&db);
    assert!(!run["measurements"].as_array().unwrap().is_empty());
}

extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

#[test]
fn run_writes_the_html_report_and_rejects_an_unwritable_one() {
    let (dir, db) = temp_db();
    let report = dir.path().join("report.html");
    bin()
        .args(["run", "--suite", "hash", "--report"])
        .arg("/nonexistent-dir/r.html")
        .usage_error("--report");
    bin()
        .args(["--quick", "--backend", "openssl", "--db"])
        .arg(&db)
        .args(["run", "--suite", "hash", "--report"])
        .arg(&report)
        .assert()
        .success()
        .stderr(predicate::str::contains("HTML report"));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("<svg") && html.contains("SHA-256"));
    assert!(
        dir.path().join("runs").read_dir().unwrap().count() == 1,
        "the run's JSON is written next to the database"
    );
}

#[test]
fn tls_quick_measures_a_small_subset_and_refuses_bad_names() {
    let out = bin()
        .args(["--no-db", "--quick", "--precision", "10", "tls"])
        .args([
            "--groups",
            "x25519mlkem768",
            "--certs",
            "ed25519",
            "--no-peers",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for wanted in [
        "TLS 1.3 handshakes",
        "X25519MLKEM768",
        "server/model",
        "tails of single calls",
        "Ed25519",
    ] {
        assert!(text.contains(wanted), "no '{wanted}' in:\n{text}");
    }
    bin()
        .args(["--no-db", "tls", "--groups", "x25591"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean X25519"));
    bin()
        .args(["--no-db", "tls", "--certs", "rsa-4096"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("RSA-2048"));
}
