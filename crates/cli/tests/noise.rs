//! Paired measurement as a user meets it: the A/A test, the canary stored
//! with every run, and `compare` reporting the machine apart from the cases.

use crate::common;

use common::{bin, latest_run, store_quick_run, temp_db, with_db, Outcome};
use predicates::prelude::*;
#[test]
fn the_aa_test_prints_both_floors_and_rejects_a_bad_duration() {
    bin().args(["noise", "--duration", "1s"]).prints_all(&[
        "paired, ",
        "paired, 5 rounds",
        "unpaired",
    ]);
    let out = bin()
        .args(["--format", "json", "noise", "--duration", "1s"])
        .checked_stdout();
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["rounds"].as_u64().unwrap() >= 5, "{v}");
    for floor in [
        "paired_floor",
        "paired_floor_fewest_rounds",
        "unpaired_floor",
    ] {
        assert!(v[floor].as_f64().is_some(), "{floor}: {v}");
    }
    // The limit named is the command's own, 10 min, and said once.
    for (text, says) in [
        (
            "61m",
            "--duration: 61m is above the longest accepted, 10 min",
        ),
        (
            "0.5s",
            "--duration: 0.5s is below the shortest accepted, 1 s",
        ),
        ("2h", "--duration: '2h' has an unknown unit 'h'"),
    ] {
        let out = bin().args(["noise", "--duration", text]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.matches(says).count(), 1, "{stderr}");
        assert_eq!(stderr.matches(text).count(), 1, "said twice: {stderr}");
    }
    bin()
        .args(["noise", "--duration", "0s"])
        .usage_error("--duration");
    let out = bin().args(["--time", "2h", "hash"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.matches("unknown unit").count(),
        1,
        "said twice: {stderr}"
    );
}

#[test]
fn runs_carry_groups_and_a_canary_and_compare_reports_the_machine() {
    let (_dir, db) = temp_db();
    for _ in 0..2 {
        with_db(&db)
            .args(["--quick", "--precision", "0.1", "hash"])
            .args(["--algorithms", "SHA-256,SHA-512", "--sizes", "64"])
            .args(["--no-peers", "--backend", "openssl,rustcrypto"])
            .assert()
            .success();
    }
    let run = latest_run(&db);
    let ms = run["measurements"].as_array().unwrap();
    let canary = ms
        .iter()
        .find(|m| m["suite"] == "noise" && m["primitive"] == "canary")
        .expect("the canary's measurement is stored with the run");
    assert!(canary["extra"]["noise_floor"].as_f64().is_some());
    let cases: Vec<_> = ms.iter().filter(|m| m["suite"] == "hash").collect();
    assert_eq!(cases.len(), 4, "two algorithms x two backends");
    let group = cases[0]["group"].as_str().expect("grouped");
    assert!(
        cases.iter().all(|m| m["group"].as_str() == Some(group)),
        "one size: one group"
    );
    assert!(cases.iter().all(|m| m["paired"][0]["other"] == "canary"));
    assert!(cases
        .iter()
        .all(|m| m["stats"]["precision"].as_f64().is_some()));
    with_db(&db)
        .args(["compare", "latest~1", "latest"])
        .assert()
        .success()
        .stdout(
            // The drift is divided out when the cases moved with the canary,
            // and said not to be when the canary moved alone.
            predicate::str::contains("machine: the candidate's machine was")
                .or(predicate::str::contains("the canary moved without them"))
                .and(predicate::str::contains("noise floors"))
                // Two backends of each algorithm in one group: each case
                // is judged against the other library in its rounds.
                .and(predicate::str::contains(
                    "group: 4 case(s) judged against the other libraries",
                ))
                .and(predicate::str::contains("4 case(s) compared")),
        );
}

/// Whether the machine has address randomisation off for every process.
fn randomization_off_everywhere() -> bool {
    std::fs::read_to_string("/proc/sys/kernel/randomize_va_space").is_ok_and(|s| s.trim() == "0")
}

/// Whether this kernel lets a process turn address randomisation off:
/// `setarch -R` makes the same call the binary makes.
fn layout_can_be_fixed() -> bool {
    let setarch = std::process::Command::new("setarch")
        .args(["-R", "true"])
        .status()
        .unwrap_or_else(|e| panic!("setarch (apt-get install util-linux): {e}"));
    randomization_off_everywhere() || setarch.success()
}

#[test]
fn a_run_records_a_fixed_address_layout_unless_asked_to_keep_it_random() {
    let layout_of_latest =
        |db: &std::path::Path| latest_run(db)["machine"]["address_layout"].clone();
    let (_dir, db) = temp_db();
    store_quick_run(&db);
    assert_eq!(
        layout_of_latest(&db),
        if layout_can_be_fixed() {
            "fixed"
        } else {
            "randomized"
        },
        "the binary re-executes itself with one layout"
    );
    common::quick_hash(&db)
        .arg("--quiet")
        .env("CRYPTOBENCH_ASLR", "keep")
        .assert()
        .success();
    assert_eq!(
        layout_of_latest(&db),
        if randomization_off_everywhere() {
            "fixed"
        } else {
            "randomized"
        },
        "CRYPTOBENCH_ASLR=keep leaves the layout random"
    );
}

#[test]
fn one_core_cases_run_on_one_core_and_a_bad_cpu_is_a_usage_error() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cpu_of_latest = |db: &std::path::Path| latest_run(db)["machine"]["measuring_cpu"].clone();
    let (_dir, db) = temp_db();
    store_quick_run(&db);
    assert_eq!(
        cpu_of_latest(&db),
        if cores >= 2 { "cpu 0" } else { "all cpus" },
        "the first core this process may use"
    );
    common::quick_hash(&db)
        .arg("--quiet")
        .env("CRYPTOBENCH_CPU", "all")
        .assert()
        .success();
    assert_eq!(cpu_of_latest(&db), "all cpus");
    bin()
        .arg("runs")
        .env("CRYPTOBENCH_CPU", "4096")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("CRYPTOBENCH_CPU").and(predicate::str::contains("`all`")));
}
