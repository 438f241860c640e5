//! A hostile local user: outputs that are devices, FIFOs, symlinks, hard
//! links, key files or another database's side files; databases carrying
//! foreign triggers; inputs that would block; run files with forged ids
//! and terminal escapes. Every one is refused with exit 2 and the files
//! involved are left as they were.

use crate::common;

use common::{bin, db_with_runs, stdout, with_db, Outcome};
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::time::Duration;

/// No refusal here may wait on anything: a blocked open is a failure.
const PATIENCE: Duration = Duration::from_secs(60);

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo {}", path.display());
}

fn elgamal_key(dir: &Path, name: &str) -> Vec<u8> {
    let key = dir.join(name);
    bin()
        .current_dir(dir)
        .args(["elgamal", "keygen", "--out", name])
        .assert()
        .success();
    std::fs::read(&key).unwrap()
}

#[test]
fn a_secret_key_is_replaced_by_keygen_force_alone() {
    let (dir, db) = db_with_runs(1);
    let secret = elgamal_key(dir.path(), "sk.json");
    let sk = dir.path().join("sk.json");
    let s = sk.to_str().unwrap();
    let attempts: [&[&str]; 4] = [
        &["--format", "json", "export", "latest", "--to", s],
        &["--force", "--format", "json", "export", "latest", "--to", s],
        &["report", "latest", "-o", s],
        &["--force", "report", "latest", "-o", s],
    ];
    for args in attempts {
        with_db(&db)
            .current_dir(dir.path())
            .args(args)
            .usage_error("secret key");
        assert_eq!(std::fs::read(&sk).unwrap(), secret, "{args:?}");
    }
    bin()
        .current_dir(dir.path())
        .args([
            "--force",
            "elgamal",
            "keygen",
            "--out",
            "other.json",
            "--public",
            s,
        ])
        .usage_error("secret key");
    assert_eq!(std::fs::read(&sk).unwrap(), secret);
    bin()
        .current_dir(dir.path())
        .args(["--force", "elgamal", "keygen", "--out", "sk.json"])
        .assert()
        .success();
    assert_ne!(std::fs::read(&sk).unwrap(), secret);
}

#[test]
fn outputs_that_are_no_regular_file_are_refused_at_once() {
    let (dir, db) = db_with_runs(1);
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let to_null = dir.path().join("null-link");
    std::os::unix::fs::symlink("/dev/null", &to_null).unwrap();
    let a_dir = dir.path().join("a-dir");
    std::fs::create_dir(&a_dir).unwrap();
    for (target, says) in [
        (&fifo, "FIFO"),
        (&to_null, "symbolic link to a character device"),
        (&a_dir, "directory"),
    ] {
        for force in [false, true] {
            let mut c = with_db(&db);
            if force {
                c.arg("--force");
            }
            c.args(["--format", "json", "export", "latest", "--to"])
                .arg(target)
                .timeout(PATIENCE)
                .usage_error(says);
        }
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&to_null)
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn no_sqlite_side_file_is_written_even_empty_or_forced() {
    let (dir, db) = db_with_runs(1);
    let other = dir.path().join("other.db");
    let mut header = b"SQLite format 3\0".to_vec();
    header.resize(4096, 0);
    std::fs::write(&other, &header).unwrap();
    for side in ["other.db-wal", "other.db-shm", "other.db-journal"] {
        let path = dir.path().join(side);
        std::fs::write(&path, b"").unwrap();
        with_db(&db)
            .args(["--force", "--format", "json", "export", "latest", "--to"])
            .arg(&path)
            .usage_error("SQLite");
        assert_eq!(std::fs::read(&path).unwrap(), b"", "{side}");
    }
}

#[test]
fn two_outputs_that_are_hard_links_to_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("k.json");
    std::fs::write(&a, b"").unwrap();
    std::fs::hard_link(&a, dir.path().join("k.pub.json")).unwrap();
    bin()
        .current_dir(dir.path())
        .args([
            "elgamal",
            "keygen",
            "--out",
            "k.json",
            "--public",
            "k.pub.json",
        ])
        .usage_error("hard links");
    assert_eq!(std::fs::read(&a).unwrap(), b"");
}

#[test]
fn a_database_with_a_foreign_trigger_is_refused_untouched() {
    let (dir, db) = db_with_runs(1);
    let run = stdout(&db, &["--format", "json", "export", "latest"]);
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TRIGGER wipe AFTER INSERT ON measurements BEGIN DELETE FROM runs; END;",
        )
        .unwrap();
    }
    let mut value: serde_json::Value = serde_json::from_str(&run).unwrap();
    value["id"] = "20200101-000000-abcd".into();
    let file = dir.path().join("other.json");
    std::fs::write(&file, value.to_string()).unwrap();
    with_db(&db)
        .arg("import")
        .arg(&file)
        .usage_error("trigger 'wipe'");
    common::quick_hash(&db).usage_error("trigger 'wipe'");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let runs: i64 = conn
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(runs, 1, "the stored run is intact");
}

#[test]
fn inputs_that_would_block_are_refused_at_once() {
    let (dir, db) = db_with_runs(1);
    let fifo = dir.path().join("fifo.json");
    mkfifo(&fifo);
    let f = fifo.to_str().unwrap();
    let attempts: [&[&str]; 3] = [&["show", f], &["import", f], &["compare", f, f]];
    for args in attempts {
        with_db(&db)
            .args(args)
            .timeout(PATIENCE)
            .usage_error("FIFO");
    }
    bin()
        .args(["elgamal", "encrypt", "--key", f])
        .write_stdin("hello")
        .timeout(PATIENCE)
        .usage_error("FIFO");
    with_db(&db)
        .args(["show", dir.path().to_str().unwrap()])
        .timeout(PATIENCE)
        .assert()
        .failure();
}

#[test]
fn an_unreadable_input_says_why_once() {
    let (_dir, db) = db_with_runs(1);
    let out = with_db(&db)
        .args(["show", "/proc/self/mem"])
        .timeout(PATIENCE)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("os error").count(), 1, "{err}");
}

/// The latest run of `db` as a file with `edit` applied.
fn run_file(db: &Path, dir: &Path, name: &str, edit: impl Fn(&mut serde_json::Value)) -> String {
    let run = stdout(db, &["--format", "json", "export", "latest"]);
    let mut value: serde_json::Value = serde_json::from_str(&run).unwrap();
    edit(&mut value);
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn imported_runs_keep_only_well_formed_ids_and_never_become_latest() {
    let (dir, db) = db_with_runs(1);
    let local = stdout(&db, &["--format", "json", "export", "latest"]);
    let local: serde_json::Value = serde_json::from_str(&local).unwrap();
    let forged = run_file(&db, dir.path(), "forged.json", |v| {
        v["id"] = "latest".into();
    });
    with_db(&db)
        .args(["import", &forged])
        .usage_error("YYYYMMDD-HHMMSS-xxxx");
    // A newer run claiming this very host is still not `latest`.
    let newer = run_file(&db, dir.path(), "newer.json", |v| {
        v["id"] = "29991231-235959-beef".into();
        v["started_at"] = "2999-12-31T23:59:59Z".into();
    });
    with_db(&db).args(["import", &newer]).assert().success();
    let latest = stdout(&db, &["--format", "json", "export", "latest"]);
    let latest: serde_json::Value = serde_json::from_str(&latest).unwrap();
    assert_eq!(latest["id"], local["id"]);
}

#[test]
fn strings_from_a_run_file_are_printed_with_control_characters_escaped() {
    let (dir, db) = db_with_runs(1);
    let hostile = run_file(&db, dir.path(), "escape.json", |v| {
        v["id"] = "20200101-000000-0bad".into();
        v["machine"]["hostname"] = "evil\u{1b}[2J\u{1b}]0;title\u{7}\nfake line".into();
        v["machine"]["cpu_model"] = "cpu\u{1b}[31m".into();
    });
    let outputs = [
        with_db(&db).args(["import", &hostile]).checked_stdout(),
        with_db(&db).arg("runs").checked_stdout(),
        with_db(&db).args(["show", &hostile]).checked_stdout(),
        with_db(&db)
            .args(["show", "20200101-000000-0bad"])
            .checked_stdout(),
    ];
    for out in outputs {
        assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out}");
        assert!(!out.contains("\nfake line"), "{out}");
    }
}

#[test]
fn key_commands_refuse_what_they_would_misread() {
    let dir = tempfile::tempdir().unwrap();
    bin()
        .current_dir(dir.path())
        .args(["pubkey", "keygen", "--alg", "X25519", "-o", "json:k.json"])
        .usage_error("plain path");
    bin()
        .current_dir(dir.path())
        .args(["elgamal", "keygen", "a.json", "--out", "b.json"])
        .usage_error("named twice");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
