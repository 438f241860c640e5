//! `cryptobench leak` as a user meets it: a real screen on this machine
//! flags the early-exit comparison and clears the constant-time one, the
//! run is stored and exported like any other, and bad input is refused
//! with what is accepted.

use crate::common;

use common::{latest_run, stdout, temp_db, with_db, Outcome};

fn verdict_of(run: &serde_json::Value, primitive: &str, backend: &str) -> String {
    let ms = run["measurements"].as_array().expect("measurements");
    let m = ms
        .iter()
        .find(|m| m["primitive"] == primitive && m["backend"] == backend)
        .unwrap_or_else(|| panic!("no {primitive} {backend} in {run}"));
    m["params"]["verdict"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_real_screen_flags_the_early_exit_control_and_clears_the_constant_time_one() {
    let (_dir, db) = temp_db();
    // --backend names a control only: the library cases are left out,
    // the controls and the A/A case run always.
    let out = with_db(&db)
        .args([
            "--quick",
            "--seed",
            "7",
            "--backend",
            "control-early-exit",
            "leak",
            "--algorithms",
            "X25519",
            "--measurements",
            "100000",
        ])
        .checked_stdout();
    assert!(out.contains("leak when max |t| > 10"), "{out}");
    let run = latest_run(&db);
    assert_eq!(run["measurements"].as_array().unwrap().len(), 3, "{run}");
    assert_eq!(
        verdict_of(&run, "byte comparison", "control-early-exit"),
        "leak"
    );
    assert_eq!(
        verdict_of(&run, "byte comparison", "control-constant-time"),
        "no leak found"
    );
    assert_eq!(
        verdict_of(&run, "A/A", "control-early-exit"),
        "no leak found"
    );
    // Every test's t on a case whose classes overlap; where they separate
    // completely (the early-exit control) a crop can leave one class empty.
    let m = run["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["backend"] == "control-constant-time" && m["primitive"] == "byte comparison")
        .expect("the constant-time control");
    for key in [
        "max |t|",
        "t raw",
        "t cropped p50",
        "t second order",
        "detectable ns",
    ] {
        assert!(m["extra"][key].as_f64().is_some(), "{key} missing: {m}");
    }
    // The stored run reads back in every export format and in `show`.
    let csv = stdout(&db, &["export", "latest", "--format", "csv"]);
    assert!(csv.contains("control-constant-time"), "{csv}");
    let md = stdout(&db, &["export", "latest", "--format", "md"]);
    assert!(md.contains("control-early-exit"), "{md}");
    let shown = stdout(&db, &["show", "latest", "--all"]);
    assert!(shown.contains("timing-leak screen"), "{shown}");
}

#[test]
fn bad_input_is_refused_with_what_is_accepted() {
    let (_dir, db) = temp_db();
    with_db(&db)
        .args(["leak", "--algorithms", "x2551"])
        .usage_error("did you mean X25519");
    with_db(&db)
        .args(["leak", "--algorithms", "x2551"])
        .usage_error("accepted leak algorithm names");
    with_db(&db)
        .args(["leak", "--measurements", "5"])
        .usage_error("--measurements");
    with_db(&db)
        .args(["--precision", "1", "leak"])
        .usage_error("--precision");
    with_db(&db)
        .args(["--backend", "opensssl", "leak"])
        .usage_error("did you mean openssl");
}
