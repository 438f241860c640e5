//! Never lose a result: the database is never an output, files the user
//! did not name are never replaced, read commands never write, a damaged
//! database gets no write, SIGTERM keeps what was measured, a closed pipe
//! is not an error, and global flags a command ignores are refused.

use crate::common;

use common::{
    assert_succeeded, bin, db_with_runs, process_with_db, quick_hash, store_quick_run, temp_db,
    with_db, Outcome,
};
use predicates::prelude::*;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

#[test]
fn the_database_is_never_an_output() {
    let (dir, db) = db_with_runs(1);
    let before = std::fs::read(&db).unwrap();
    let d = db.to_str().unwrap();
    let attempts: [&[&str]; 5] = [
        &["--format", "csv", "export", "latest", "--to", d],
        &["report", "latest", "--out", d],
        &["--force", "report", "latest", "--out", d],
        &[
            "-o",
            &format!("json:{d}"),
            "--quick",
            "hash",
            "--sizes",
            "64",
        ],
        &["elgamal", "keygen", "--out", d],
    ];
    for args in attempts {
        let mut c = bin();
        if args[0] != "elgamal" {
            c.arg("--db").arg(&db);
        }
        c.current_dir(dir.path())
            .args(args)
            .usage_error("refusing to write");
        assert_eq!(std::fs::read(&db).unwrap(), before, "{args:?}");
    }
    with_db(&db).arg("runs").prints("complete");
}

#[test]
fn outputs_replace_only_their_own_files() {
    let (dir, db) = db_with_runs(1);
    let notes = dir.path().join("notes.html");
    std::fs::write(&notes, "my own page").unwrap();
    let report = |out: &Path, force: bool| {
        let mut c = bin();
        c.arg("--db").arg(&db);
        if force {
            c.arg("--force");
        }
        c.args(["report", "latest", "--out"]).arg(out).assert()
    };
    report(&notes, false)
        .code(2)
        .stderr(predicate::str::contains("--force"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my own page");
    report(&notes, true).success();
    // The page carries the generator tag, so the next report replaces it.
    let page = std::fs::read_to_string(&notes).unwrap();
    assert!(page.contains("<meta name=\"generator\" content=\"cryptobench\">"));
    report(&notes, false).success();
    for format in ["json", "csv", "md"] {
        let export = dir.path().join(format!("run.{format}"));
        for _ in 0..2 {
            with_db(&db)
                .args(["--format", format, "export", "latest", "--to"])
                .arg(&export)
                .assert()
                .success();
        }
    }
    let json = dir.path().join("run.json");
    let csv = dir.path().join("run.csv");
    with_db(&db)
        .args(["-o", &format!("json:{}", json.display())])
        .args(["-o", &format!("csv:{}", json.display())])
        .args(["--quick", "hash", "--sizes", "64", "--no-peer"])
        .usage_error("both name");
    assert!(csv.exists());
}

#[test]
fn keygen_keeps_the_secret_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.json");
    bin()
        .current_dir(dir.path())
        .args(["elgamal", "keygen", "--out", "k.json", "--public", "k.json"])
        .usage_error("--out and --public both name");
    assert!(!key.exists());
    bin()
        .current_dir(dir.path())
        .args(["elgamal", "keygen", "--out", "k.json", "--public", "p.json"])
        .assert()
        .success();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "secret key mode {mode:o}");
    }
    let secret = std::fs::read(&key).unwrap();
    bin()
        .current_dir(dir.path())
        .args(["elgamal", "keygen", "-o", "k.json"])
        .usage_error("secret key would be lost");
    assert_eq!(std::fs::read(&key).unwrap(), secret);
}

#[test]
fn read_commands_never_create_or_write_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no").join("such").join("x.db");
    with_db(&missing).arg("runs").assert().code(2).stderr(
        predicate::str::contains("no results database at")
            .and(predicate::str::contains("cryptobench run --db")),
    );
    assert!(!dir.path().join("no").exists());

    let db = dir.path().join("R.db");
    store_quick_run(&db);
    let before = std::fs::read(&db).unwrap();
    let mut perms = std::fs::metadata(&db).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms).unwrap();
    let page = dir.path().join("page.html");
    let reads: [&[&str]; 4] = [
        &["runs"],
        &["show", "latest"],
        &["--format", "json", "export", "latest"],
        &["recommend"],
    ];
    for args in reads {
        with_db(&db).args(args).assert().success();
    }
    with_db(&db)
        .args(["report", "latest", "--out"])
        .arg(&page)
        .assert()
        .success();
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

#[test]
fn a_damaged_database_gets_no_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("mid.db");
    store_quick_run(&db);
    // Garble the cells of the last page (an index of the measurements).
    let mut bytes = std::fs::read(&db).unwrap();
    let last = bytes.len() - 4096;
    for b in &mut bytes[last + 8..] {
        *b = 0xee;
    }
    std::fs::write(&db, &bytes).unwrap();
    quick_hash(&db).usage_error("integrity check failed");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "nothing was written");
}

#[test]
fn misspelt_latest_gets_a_suggestion() {
    let (_dir, db) = db_with_runs(1);
    for (typed, expect) in [
        ("latst", "did you mean 'latest'?"),
        ("lates~1", "did you mean 'latest~1'?"),
        ("latest~x", "whole number"),
    ] {
        with_db(&db).args(["show", typed]).usage_error(expect);
    }
}

#[test]
fn global_flags_a_command_ignores_are_refused() {
    let (dir, db) = db_with_runs(1);
    let cases: [(&[&str], &str); 6] = [
        (
            &["runs", "--samples", "1"],
            "--samples is a measurement option; `runs` does not measure",
        ),
        (
            &["recommend", "latest", "--backend", "openssl"],
            "`recommend` does not measure",
        ),
        (&["list", "--threads", "0"], "`list` does not measure"),
        (
            &["show", "latest", "-o", "json:F"],
            "`show` writes no export",
        ),
        (
            &["argon2", "verify", "--quick", "x"],
            "`argon2 verify` does not measure",
        ),
        (
            &["compare", "latest", "latest", "--force"],
            "`compare` writes no file",
        ),
    ];
    for (args, expect) in cases {
        bin()
            .current_dir(dir.path())
            .arg("--db")
            .arg(&db)
            .args(args)
            .usage_error(expect);
    }
    assert!(!dir.path().join("F").exists());
    bin().arg("--help").prints("Measurement options");
}

#[test]
fn a_run_that_cannot_write_its_report_measures_nothing() {
    let (_dir, db) = temp_db();
    // /proc takes no new files, not even from root.
    bin()
        .current_dir("/proc")
        .arg("--db")
        .arg(&db)
        .args(["--quick", "run", "--suite", "hash"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("--report").and(predicate::str::contains(
                "cannot create files in this directory",
            )),
        );
    assert!(!db.exists(), "no run was started");
    bin()
        .args(["--db", "/proc/cryptobench-test.db", "--quick", "run"])
        .args(["--suite", "hash", "--no-report"])
        .usage_error("/proc/runs");
}

#[test]
fn sigterm_keeps_the_run_and_exits_143() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("T.db");
    let mut child = process_with_db(&db)
        // A precision no case reaches keeps every case for its whole 2 s.
        .args(["--time", "2s", "--precision", "0.1", "hash"])
        .args([
            "--algorithms",
            "SHA-256,SHA-512",
            "--sizes",
            "64,1KiB",
            "--no-peer",
            // Libraries only: starting the language runtimes takes seconds.
            "--backend",
            "openssl,rustcrypto",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Signal once the run is recorded as running (its handlers are in place
    // by then), not after a fixed sleep that a loaded machine outlasts.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        let runs = with_db(&db)
            .args(["--format", "json", "runs"])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&runs.stdout).contains("\"running\"") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(500));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill(1) is part of procps: apt-get install procps");
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{status:?}");
    with_db(&db).arg("runs").prints("interrupted");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let (_dir, db) = db_with_runs(2);
    let commands: [&[&str]; 4] = [
        &["runs"],
        &["show", "latest"],
        &["compare", "latest~1", "latest"],
        &["paper"],
    ];
    for args in commands {
        let mut child = process_with_db(&db)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command prints anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_succeeded(&out, &format!("{args:?}"));
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
