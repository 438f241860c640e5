//! What every test of the binary shares: the binary without colour, a
//! command against one database, the quick hash run most tests store, and
//! the two outcomes tests check most (a refusal with exit 2, a JSON answer).
// Each test file uses its own part of this module.
#![allow(dead_code)]

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Output;

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

/// A database path in a fresh temporary folder; the folder lives as long as
/// the returned guard.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("r.db");
    (dir, db)
}

/// Stores one quick hash run into `db`, quietly.
pub fn store_quick_run(db: &Path) {
    quick_hash(db).arg("--quiet").assert().success();
}

/// A temporary database already holding `runs` quick hash runs.
pub fn db_with_runs(runs: usize) -> (tempfile::TempDir, PathBuf) {
    let (dir, db) = temp_db();
    for _ in 0..runs {
        store_quick_run(&db);
    }
    (dir, db)
}

/// Asserts that the command `what` exited 0, showing its stderr if not.
pub fn assert_succeeded(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
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
        self.prints_all(&[says]);
    }
    /// Asserts success with every one of `says` on stdout.
    fn prints_all(&mut self, says: &[&str]) {
        let out = self.checked_stdout();
        for part in says {
            assert!(out.contains(part), "{part:?} is not in: {out}");
        }
    }
}

impl Outcome for Command {
    fn usage_error(&mut self, says: &str) {
        self.assert().code(2).stderr(predicate::str::contains(says));
    }

    fn checked_stdout(&mut self) -> String {
        let out = self.output().unwrap();
        let args: Vec<_> = self.get_args().collect();
        assert_succeeded(&out, &format!("{args:?}"));
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
