//! Paired measurement as a user meets it: the A/A test, the canary stored
//! with every run, and `compare` reporting the machine apart from the cases.

use assert_cmd::Command;
use predicates::prelude::*;

fn bin() -> Command {
    let mut c = Command::cargo_bin("cryptobench").expect("binary built");
    c.env("NO_COLOR", "1");
    c
}

#[test]
fn the_aa_test_prints_both_floors_and_rejects_a_bad_duration() {
    bin()
        .args(["noise", "--duration", "1s"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("paired (one group)")
                .and(predicate::str::contains("unpaired")),
        );
    let out = bin()
        .args(["--format", "json", "noise", "--duration", "1s"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["rounds"].as_u64().unwrap() >= 5, "{v}");
    assert!(v["paired_floor"].as_f64().is_some() && v["unpaired_floor"].as_f64().is_some());
    bin()
        .args(["noise", "--duration", "20min"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("accepted: 1s to 10min"));
    bin()
        .args(["noise", "--duration", "0s"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--duration"));
}

#[test]
fn runs_carry_groups_and_a_canary_and_compare_reports_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    for _ in 0..2 {
        bin()
            .args(["--quick", "--db"])
            .arg(&db)
            .args([
                "hash",
                "--algorithms",
                "SHA-256,SHA-512",
                "--sizes",
                "64",
                "--no-peer",
                "--backend",
                "openssl,rustcrypto",
            ])
            .assert()
            .success();
    }
    let out = bin()
        .arg("--db")
        .arg(&db)
        .args(["export", "latest", "--format", "json"])
        .output()
        .unwrap();
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).expect("run json");
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
    bin()
        .arg("--db")
        .arg(&db)
        .args(["compare", "latest~1", "latest"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("machine: the candidate's machine was")
                .and(predicate::str::contains("noise floors"))
                .and(predicate::str::contains("4 case(s) compared")),
        );
}
