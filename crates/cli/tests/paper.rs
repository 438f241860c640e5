//! `paper` from the command line: `--method` refused before anything is
//! measured when it cannot apply (exit 2 with what is accepted), and which
//! earlier runs a paired verdict holds (those of the same experiment on
//! this machine in the database; none with `--no-db`), each saying so.

use crate::common;

use common::{bin, temp_db, with_db, Outcome};
use predicates::prelude::*;
use std::path::Path;

#[test]
fn a_misspelt_method_gets_a_suggestion() {
    bin()
        .args(["paper", "aegis", "--method", "sed", "--no-db"])
        .usage_error("did you mean seed");
}

#[test]
fn a_seed_without_stated_counts_is_refused() {
    bin()
        .args(["paper", "gcm-vs-ccm", "--method", "seed", "--no-db"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("states no counts")
                .and(predicate::str::contains("openssl-vs-mcrypt")),
        );
}

#[test]
fn our_sampling_flags_do_not_mix_with_the_seed_method() {
    bin()
        .args([
            "paper", "aegis", "--method", "seed", "--time", "1s", "--no-db",
        ])
        .usage_error("drop --time");
}

#[test]
fn method_is_a_paper_flag_only() {
    bin()
        .args(["run", "--method", "seed", "--no-db"])
        .usage_error("--method");
}

/// Seed 004's experiment on OpenSSL alone, short and loose (0.2-0.5 s
/// here): what is tested is which runs a verdict holds, not its figure.
const GCM_VS_CCM: [&str; 10] = [
    "--quick",
    "--precision",
    "20",
    "--time",
    "20ms",
    "--wide",
    "paper",
    "gcm-vs-ccm",
    "--backend",
    "openssl",
];

fn paper_into(db: &Path) -> String {
    with_db(db).args(GCM_VS_CCM).checked_stdout()
}

/// The id of the run a paper's output heads ("run <id>  status ...").
fn run_id(out: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix("run ")?.split_whitespace().next())
        .unwrap_or_else(|| panic!("no run header in:\n{out}"))
        .to_string()
}

/// The verdict lines on OpenSSL's two operations.
fn openssl_verdicts(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("(OpenSSL, encrypt)") || l.contains("(OpenSSL, decrypt)"))
        .collect();
    assert_eq!(lines.len(), 2, "two verdicts in:\n{out}");
    lines
}

#[test]
fn each_run_of_a_paper_holds_the_ones_before_it() {
    let (_dir, db) = temp_db();
    let first = paper_into(&db);
    assert!(
        first.contains("earlier runs: none of this experiment on this machine"),
        "{first}"
    );
    for v in openssl_verdicts(&first) {
        assert!(!v.contains("earlier run"), "{v}");
    }

    let second = paper_into(&db);
    let first_id = run_id(&first);
    assert_ne!(run_id(&second), first_id);
    assert!(
        second.contains(&format!("also holds the ratios of run {first_id} ")),
        "{second}"
    );
    // Each interval says how the earlier run's ratio sits against it.
    for v in openssl_verdicts(&second) {
        assert!(v.contains("the earlier run here"), "{v}");
    }

    let third = paper_into(&db);
    assert!(
        third.contains(&format!(
            "also holds the ratios of 2 runs, {first_id} to {}",
            run_id(&second)
        )),
        "{third}"
    );
}

#[test]
fn a_paper_without_a_database_says_it_judges_one_run() {
    let out = bin().arg("--no-db").args(GCM_VS_CCM).checked_stdout();
    assert!(out.contains("earlier runs: not read (--no-db)"), "{out}");
    for v in openssl_verdicts(&out) {
        assert!(!v.contains("earlier run"), "{v}");
    }
}
