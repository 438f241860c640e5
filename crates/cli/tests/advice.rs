//! `recommend` and `report` on runs in every state: empty, interrupted,
//! failed, and an id that does not exist. The runs are written straight
//! into a store, so each state is exact and the test measures nothing.

use crate::common;

use common::{report_page, stdout, temp_db, with_db, Outcome};
use cryptobench_core::{
    CaseSpec, CaseStatus, CheckResult, Fingerprint, Measurement, Run, RunStatus, Summary,
};
use cryptobench_store::Store;
use std::path::Path;

fn aead(primitive: &str, status: CaseStatus, median: f64) -> Measurement {
    let mut m = CaseSpec::new("aead", primitive, "openssl", "3", "encrypt")
        .size(16_384)
        .measurement(status, None);
    if status == CaseStatus::Measured {
        m.samples_ns = vec![median; 5];
        m.checks = vec![CheckResult::pass("kat", "Wycheproof")];
        m.stats = Some(Summary {
            median,
            ci95: [median, median],
            ops_per_s: 1e9 / median,
            bytes_per_s: Some(16_384e9 / median),
            ..Default::default()
        });
    } else {
        m.checks = vec![CheckResult::fail("kat", "tag mismatch")];
        m.reason = Some("kat: tag mismatch".into());
    }
    m
}

fn store_run(db: &Path, id: &str, status: RunStatus, ms: Vec<Measurement>) {
    store_run_made_by(db, id, status, ms, &["cryptobench", "aead"]);
}

fn store_run_made_by(
    db: &Path,
    id: &str,
    status: RunStatus,
    ms: Vec<Measurement>,
    command: &[&str],
) {
    let store = Store::open(db).unwrap();
    let run = Run {
        started_at: "2026-11-22T05:00:00Z".into(),
        finished_at: Some("2026-11-22T05:01:00Z".into()),
        status,
        command: command.iter().map(|w| w.to_string()).collect(),
        machine: Fingerprint {
            hostname: "testhost".into(),
            ..Default::default()
        },
        ..Run::new(id, ms)
    };
    store.begin_run(&run).unwrap();
    store
        .finish_run(id, status, run.finished_at.as_deref().unwrap())
        .unwrap();
}

#[test]
fn recommend_and_report_handle_empty_interrupted_and_failed_runs() {
    let (dir, db) = temp_db();
    store_run(&db, "20261122-050000-0001", RunStatus::Complete, vec![]);
    store_run(
        &db,
        "20261122-050000-0002",
        RunStatus::Interrupted,
        vec![aead("AES-256-GCM", CaseStatus::Measured, 4000.0)],
    );
    store_run(
        &db,
        "20261122-050000-0003",
        RunStatus::Failed,
        vec![
            aead("AES-256-GCM", CaseStatus::Measured, 4000.0),
            aead("ChaCha20-Poly1305", CaseStatus::Failed, 1000.0),
        ],
    );
    // The failed ChaCha20-Poly1305 is faster on paper but never recommended.
    let expected: [(&str, &[&str], &[&str]); 3] = [
        ("0001", &["holds no verified measurement"], &[]),
        (
            "0002",
            &["was interrupted", "Use AES-256-GCM (openssl)"],
            &[],
        ),
        (
            "0003",
            &["has FAILED cases", "Use AES-256-GCM (openssl)"],
            &["Use ChaCha20"],
        ),
    ];
    for (serial, says, never) in expected {
        let advice = stdout(
            &db,
            &[
                "recommend",
                "--explain",
                &format!("20261122-050000-{serial}"),
            ],
        );
        assert!(says.iter().all(|s| advice.contains(s)), "{advice}");
        assert!(!never.iter().any(|s| advice.contains(s)), "{advice}");
    }
    for id in [
        "20261122-050000-0001",
        "20261122-050000-0002",
        "20261122-050000-0003",
    ] {
        let html = report_page(&db, id, dir.path());
        assert!(html.trim_end().ends_with("</html>"), "{id}");
    }
    let html = std::fs::read_to_string(dir.path().join("20261122-050000-0003.html")).unwrap();
    assert!(html.contains("id=\"recommendations\""));
}

#[test]
fn recommend_and_report_reject_unknown_runs_and_bad_paths_with_exit_2() {
    let (_dir, db) = temp_db();
    store_run(
        &db,
        "20261122-050000-0004",
        RunStatus::Complete,
        vec![aead("AES-256-GCM", CaseStatus::Measured, 4000.0)],
    );
    let refused: [(&[&str], &str); 4] = [
        (&["recommend", "no-such-run"], "no-such-run"),
        (&["recommend", "--target", "soon"], "--target"),
        (&["report", "no-such-run"], "no-such-run"),
        (
            &["report", "latest", "--out", "/nonexistent-dir/r.html"],
            "/nonexistent-dir/r.html",
        ),
    ];
    for (args, says) in refused {
        with_db(&db).args(args).usage_error(says);
    }
}

/// A verified case with a +-3% interval.
fn verified(
    suite: &str,
    primitive: &str,
    backend: &str,
    op: &str,
    size: u64,
    median: f64,
    params: &[(&str, &str)],
) -> Measurement {
    let mut spec = CaseSpec::new(suite, primitive, backend, "v", op).size(size);
    for (k, v) in params {
        spec = spec.param(k, v);
    }
    let mut m = spec.measurement(CaseStatus::Measured, None);
    m.checks = vec![CheckResult::pass("kat", "")];
    m.stats = Some(Summary {
        median,
        ci95: [median * 0.97, median * 1.03],
        ops_per_s: 1e9 / median,
        bytes_per_s: (size > 0).then(|| size as f64 * 1e9 / median),
        ..Default::default()
    });
    m
}

#[test]
fn the_run_summary_and_recommend_give_the_same_advice() {
    let ms = vec![
        verified(
            "aead",
            "AES-256-GCM",
            "openssl",
            "encrypt",
            20_000_000,
            5e6,
            &[],
        ),
        verified(
            "aead",
            "AEGIS-256",
            "libaegis",
            "encrypt",
            20_000_000,
            4.9e6,
            &[],
        ),
        verified(
            "aead",
            "AES-256-GCM",
            "openssl",
            "encrypt",
            1000,
            400.0,
            &[],
        ),
        verified(
            "aead",
            "ChaCha20-Poly1305",
            "libsodium",
            "encrypt",
            1000,
            900.0,
            &[],
        ),
        verified(
            "ecc",
            "prime256v1",
            "openssl",
            "ecdh",
            0,
            49_000.0,
            &[("security_bits", "128")],
        ),
        verified(
            "ecc",
            "X25519",
            "openssl",
            "ecdh",
            0,
            50_000.0,
            &[("security_bits", "128")],
        ),
        verified(
            "argon2",
            "Argon2id",
            "libargon2",
            "hash",
            0,
            20e6,
            &[("m_kib", "16384"), ("t", "1"), ("p", "1")],
        ),
    ];
    let mut lines = cryptobench_suite_aead::summary::headline(&ms);
    lines.extend(cryptobench_suite_argon2::report::headline(&ms));
    // The run summary adds the curve advice over the whole run, after the
    // suites' own lines, with the run's moment floor as `recommend` takes it.
    let run = Run::new("r", ms.clone());
    let moment_floor = cryptobench_report::compare::moment_floor(&run);
    lines.extend(
        cryptobench_core::advice::curves(&ms, moment_floor)
            .iter()
            .map(|a| a.line()),
    );
    let targets: Vec<f64> = cryptobench_suite_argon2::report::HEADLINE_TARGETS_MS
        .iter()
        .map(|t| t * 1e6)
        .collect();
    let recs = cryptobench_report::recommend::recommend(&run, &targets);
    // Bulk, small, one curve level, three Argon2id targets.
    assert_eq!(lines.len(), 6, "{lines:#?}");
    for line in &lines {
        let (topic, text) = line.split_once(": ").unwrap();
        let rec = recs
            .iter()
            .find(|r| r.topic == topic)
            .unwrap_or_else(|| panic!("recommend has no {topic}: {recs:#?}"));
        assert!(rec.advice.starts_with(text), "{line}\n{}", rec.advice);
    }
    // The near-tie resolved by rule: AES-256-GCM over AEGIS-256,
    // Curve25519 over P-256, whichever median was lower.
    let resolved = [
        (0, "AEAD, bulk data: Use AES-256-GCM (openssl)"),
        (5, "Curve, 128-bit: Curve25519"),
    ];
    for (i, start) in resolved {
        assert!(lines[i].starts_with(start), "{}", lines[i]);
    }
}

/// A run that answers the AEAD questions, stored as `--quick` made it.
fn answering_run(db: &Path, id: &str) {
    let mut ms = vec![
        verified(
            "aead",
            "AEGIS-256",
            "libsodium",
            "encrypt",
            1 << 20,
            1e5,
            &[],
        ),
        verified(
            "aead",
            "AES-256-GCM",
            "openssl",
            "encrypt",
            1 << 20,
            3e5,
            &[],
        ),
        verified(
            "aead",
            "AES-256-GCM",
            "openssl",
            "encrypt",
            1024,
            400.0,
            &[],
        ),
        verified(
            "aead",
            "ChaCha20-Poly1305",
            "libsodium",
            "encrypt",
            1024,
            900.0,
            &[],
        ),
    ];
    for m in &mut ms {
        if let Some(s) = m.stats.as_mut() {
            s.precision = Some(0.03);
        }
    }
    store_run_made_by(
        db,
        id,
        RunStatus::Complete,
        ms,
        &["cryptobench", "run", "--quick"],
    );
}

#[test]
fn recommend_states_its_certainty_first_and_fits_100_columns() {
    let (_dir, db) = temp_db();
    answering_run(&db, "20261122-050000-0005");
    let out = with_db(&db)
        .env("COLUMNS", "100")
        .arg("recommend")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("Certainty: quick run"), "{text}");
    assert!(
        text.lines().take(3).any(|l| l.contains("within +-1%")),
        "{text}"
    );
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "over 100 columns: {line}");
    }
    // One line per topic, one ratio with its interval.
    assert!(
        text.contains("AEAD, bulk data: AEGIS-256 (libsodium) 10.5 GB/s, 3.00x the speed of"),
        "{text}"
    );
    // The reasoning and the evidence wait for --explain.
    assert!(!text.contains("rests on"), "{text}");
    let explained = stdout(&db, &["recommend", "--explain"]);
    assert!(
        explained.contains("rests on: aead AEGIS-256 libsodium"),
        "{explained}"
    );
}

#[test]
fn recommend_json_is_typed_records() {
    let (_dir, db) = temp_db();
    answering_run(&db, "20261122-050000-0006");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&db, &["--format", "json", "recommend"])).unwrap();
    assert_eq!(json["certainty"]["quick"], true);
    assert_eq!(json["certainty"]["measured_cases"], 4);
    let bulk = json["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["topic"] == "aead.bulk_data")
        .expect("a bulk data record");
    assert_eq!(bulk["choice"]["primitive"], "AEGIS-256");
    assert_eq!(bulk["choice"]["params"]["input_bytes"], 1 << 20);
    assert_eq!(bulk["metric"]["unit"], "bytes_per_s");
    assert!(bulk["metric"]["value"].is_f64());
    assert_eq!(bulk["comparison"]["against"]["primitive"], "AES-256-GCM");
    assert!((bulk["comparison"]["ratio"].as_f64().unwrap() - 3.0).abs() < 1e-9);
    assert_eq!(bulk["confidence"]["state"], "decided");
}

#[test]
fn show_leads_with_the_answer_and_refuses_a_filter_that_matches_nothing() {
    let (_dir, db) = temp_db();
    answering_run(&db, "20261122-050000-0007");
    let text = stdout(&db, &["show", "latest"]);
    let at = |s: &str| {
        text.find(s)
            .unwrap_or_else(|| panic!("no '{s}' in:\n{text}"))
    };
    assert_eq!(at("Certainty:"), 0, "{text}");
    assert!(at("Answer") < at("Suites"), "{text}");
    assert!(text.contains("aead: 4 measured, 0 failed"), "{text}");
    assert!(
        !text.contains("Suite aead"),
        "the tables wait for --all:\n{text}"
    );
    assert!(stdout(&db, &["show", "latest", "--all"]).contains("Suite aead"));
    with_db(&db)
        .args(["show", "latest", "--algorithm", "GCMX"])
        .usage_error("matches the filter");
}
