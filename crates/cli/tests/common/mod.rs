//! What every test of the binary shares: the binary without colour, a
//! command against one database, the quick hash run most tests store, and
//! the two outcomes tests check most (a refusal with exit 2, a JSON answer).
// Each test file uses its own part of this module.
#![allow(dead_code)]

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

/// The binary, with colour off so messages compare as plain text.
pub fn bin() -> Command {
    let mut c = Command::cargo_bin("cryptobench").expect("binary built");
    c.env("NO_COLOR", "1");
    c
}

/// The binary reading and writing the database `db`.
pub fn with_db(db: &Path) -> Command {
    let mut c = bin();
    c.arg("--db").arg(db);
    c
}

/// A fast hash run into `db`: SHA-256 at two sizes on the two libraries
/// (the language runtimes' twins are tested in crates/runtime), no peer.
pub fn quick_hash(db: &Path) -> Command {
    let mut c = with_db(db);
    c.args(["--quick", "--precision", "0.1", "hash"])
        .args([
            "--algorithms",
            "SHA-256",
            "--sizes",
            "64,1KiB",
            "--no-peers",
        ])
        .args(["--backend", "openssl,rustcrypto"]);
    c
}

/// Runs `args` against `db` and returns stdout, asserting success.
pub fn stdout(db: &Path, args: &[&str]) -> String {
    with_db(db).args(args).checked_stdout()
}

/// The latest run of `db`, as `export --format json` writes it.
pub fn latest_run(db: &Path) -> serde_json::Value {
    serde_json::from_str(&stdout(db, &["--format", "json", "export", "latest"]))
        .expect("the export is JSON")
}

/// The outcomes the tests check on a command.
pub trait Outcome {
    /// Asserts exit code 2 (bad input) with `says` on stderr.
    fn usage_error(&mut self, says: &str);
    /// Asserts success and returns stdout.
    fn checked_stdout(&mut self) -> String;
    /// Asserts success with `says` on stdout.
    fn prints(&mut self, says: &str) {
        let out = self.checked_stdout();
        assert!(out.contains(says), "{says:?} is not in: {out}");
    }
}

impl Outcome for Command {
    fn usage_error(&mut self, says: &str) {
        self.assert().code(2).stderr(predicate::str::contains(says));
    }

    fn checked_stdout(&mut self) -> String {
        let out = self.output().unwrap();
        assert!(
            out.status.success(),
            "{:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("stdout is UTF-8")
    }
}

/// The binary on `db` as a plain process, for tests that signal it or
/// close its pipes.
pub fn process_with_db(db: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("cryptobench"));
    c.env("NO_COLOR", "1").arg("--db").arg(db);
    c
}

/// Writes the HTML report of run `id` of `db` into `dir` and returns it.
pub fn report_page(db: &Path, id: &str, dir: &Path) -> String {
    let page = dir.join(format!("{id}.html"));
    with_db(db)
        .args(["report", id, "--out"])
        .arg(&page)
        .assert()
        .success();
    std::fs::read_to_string(&page).expect("the report was written")
}
