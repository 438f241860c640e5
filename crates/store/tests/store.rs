//! The SQLite store: round trips, id resolution, interrupted runs and the
//! files it must refuse without touching them.

use crate::common;

use common::{failed, full_run, measured, run, unavailable};
use cryptobench_core::{RunStatus, SCHEMA};
use cryptobench_store::{Store, StoreError};
use std::path::Path;

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("results.db");
    (dir, path)
}

/// A fresh store in a temporary folder, and its path.
fn open_temp() -> (tempfile::TempDir, std::path::PathBuf, Store) {
    let (dir, path) = temp_db();
    let store = Store::open(&path).unwrap();
    (dir, path, store)
}

/// An empty run `id` started at `at`, begun in `store`.
fn begin(store: &Store, id: &str, at: &str) -> cryptobench_core::Run {
    let r = run(id, at, vec![]);
    store.begin_run(&r).unwrap();
    r
}

/// Stores `run` the way the binary does: begin, one commit per measurement.
fn store_run(store: &Store, r: &cryptobench_core::Run) {
    let mut head = r.clone();
    head.measurements.clear();
    head.status = RunStatus::Running;
    head.finished_at = None;
    store.begin_run(&head).unwrap();
    for m in &r.measurements {
        store.add_measurement(&r.id, m).unwrap();
    }
    if let Some(end) = &r.finished_at {
        store.finish_run(&r.id, r.status, end).unwrap();
    }
}

#[test]
fn a_stored_run_loads_back_equal() {
    let (_dir, path, store) = open_temp();
    let mut expected = full_run();
    // Numbers that need all 17 significant digits must come back bit for bit.
    expected.measurements[0].samples_ns.push(0.1 + 0.2);
    expected.measurements[0].samples_ns.push(1.0 / 3.0 * 7919.0);
    expected.fleet = Some("fleet-7".into());
    store_run(&store, &expected);
    assert_eq!(store.load_run(&expected.id).unwrap(), expected);
    drop(store);

    // And again from a fresh connection: it was committed to the file.
    let store = Store::open(&path).unwrap();
    assert_eq!(store.load_run(&expected.id).unwrap(), expected);
    let rows = store.list_runs().unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.status, RunStatus::Failed);
    assert_eq!(row.measurements, 3);
    assert_eq!(row.failed, 1);
    assert_eq!(row.suites, vec!["hash", "aead"]);
    assert_eq!(row.command, "cryptobench run --quick");
    assert_eq!(row.fleet.as_deref(), Some("fleet-7"));
    assert_eq!(row.finished_at.as_deref(), Some("2026-11-22T03:16:40Z"));
}

#[test]
fn two_runs_of_one_second_keep_the_order_they_were_made_in() {
    // Ids end in a random suffix: within one second it must not decide
    // which run is `latest`.
    let (_dir, _path, store) = open_temp();
    let at = "2026-11-24T10:00:00Z";
    for id in ["20261124-100000-ffff", "20261124-100000-0000"] {
        begin(&store, id, at);
        store.finish_run(id, RunStatus::Complete, at).unwrap();
    }
    assert_eq!(store.resolve_id("latest").unwrap(), "20261124-100000-0000");
    assert_eq!(
        store.resolve_id("latest~1").unwrap(),
        "20261124-100000-ffff"
    );
}

#[test]
fn ids_resolve_by_prefix_latest_and_latest_n() {
    let (_dir, _path, store) = open_temp();
    for (id, at) in [
        ("20261120-101010-aaaa", "2026-11-20T10:10:10Z"),
        ("20261122-090000-bbbb", "2026-11-22T09:00:00Z"),
        ("20261121-120000-cccc", "2026-11-21T12:00:00Z"),
    ] {
        begin(&store, id, at);
        store.finish_run(id, RunStatus::Complete, at).unwrap();
    }
    let ids: Vec<String> = store
        .list_runs()
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(
        ids,
        [
            "20261122-090000-bbbb",
            "20261121-120000-cccc",
            "20261120-101010-aaaa"
        ]
    );
    for (typed, id) in [
        ("latest", "20261122-090000-bbbb"),
        ("LATEST~1", "20261121-120000-cccc"),
        ("latest~2", "20261120-101010-aaaa"),
        ("20261120", "20261120-101010-aaaa"),
        ("20261121-120000-cccc", "20261121-120000-cccc"),
    ] {
        assert_eq!(store.resolve_id(typed).unwrap(), id, "{typed}");
    }
    assert_eq!(
        store.load_run("latest~1").unwrap().id,
        "20261121-120000-cccc"
    );

    match store.resolve_id("202611") {
        Err(StoreError::Ambiguous { prefix, matches }) => {
            assert_eq!(prefix, "202611");
            assert_eq!(matches.len(), 3);
        }
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    let e = store.resolve_id("2026112").unwrap_err();
    assert!(matches!(e, StoreError::Ambiguous { .. }), "{e}");
    assert!(e.to_string().contains("type more characters"), "{e}");

    for missing in ["latest~3", "latest~x", ""] {
        assert!(
            matches!(store.resolve_id(missing), Err(StoreError::NotFound { .. })),
            "{missing}"
        );
    }
}

#[test]
fn an_unknown_id_suggests_the_closest() {
    let (_dir, _path, store) = open_temp();
    let e = store.load_run("latest").unwrap_err();
    assert!(e.to_string().contains("holds no runs yet"), "{e}");

    begin(&store, "20261122-031502-4f2a", "2026-11-22T03:15:02Z");
    let e = store.load_run("20261122-031502-4f2b").unwrap_err();
    match &e {
        StoreError::NotFound { id, known } => {
            assert_eq!(id, "20261122-031502-4f2b");
            assert_eq!(known, &["20261122-031502-4f2a"]);
        }
        other => panic!("expected NotFound, got {other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.contains("did you mean 20261122-031502-4f2a?"), "{msg}");
    assert!(msg.contains("latest~N"), "{msg}");
    // The binary turns it into a usage error (exit 2).
    assert!(matches!(
        cryptobench_core::Error::from(e),
        cryptobench_core::Error::Usage(_)
    ));
    assert!(matches!(
        store.add_measurement("nope", &measured()),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.finish_run("nope", RunStatus::Complete, "x"),
        Err(StoreError::NotFound { .. })
    ));
}

#[test]
fn a_run_whose_process_died_is_interrupted_and_keeps_its_measurements() {
    let (_dir, path, store) = open_temp();
    let dead = begin(&store, "20261122-010101-dead", "2026-11-22T01:01:01Z");
    store.add_measurement(&dead.id, &measured()).unwrap();
    store.add_measurement(&dead.id, &failed()).unwrap();
    let alive = begin(&store, "20261122-020202-live", "2026-11-22T02:02:02Z");
    let elsewhere = begin(&store, "20261122-030303-away", "2026-11-22T03:03:03Z");

    // The process is gone (no such pid); the other run "ran" on another host.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("UPDATE runs SET pid = 999999999 WHERE id = ?1", [&dead.id])
        .unwrap();
    raw.execute(
        "UPDATE runs SET pid = 999999999, pid_host = 'elsewhere.invalid' WHERE id = ?1",
        [&elsewhere.id],
    )
    .unwrap();

    let rows = store.list_runs().unwrap();
    let status = |id: &str| rows.iter().find(|r| r.id == id).unwrap().status;
    assert_eq!(status(&dead.id), RunStatus::Interrupted);
    assert_eq!(
        status(&alive.id),
        RunStatus::Running,
        "this process is alive"
    );
    assert_eq!(
        status(&elsewhere.id),
        RunStatus::Running,
        "cannot see other hosts"
    );

    // Updated in the file too, not only reported.
    let stored: String = raw
        .query_row("SELECT status FROM runs WHERE id = ?1", [&dead.id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored, "interrupted");

    let loaded = store.load_run(&dead.id).unwrap();
    assert_eq!(loaded.status, RunStatus::Interrupted);
    assert_eq!(loaded.measurements, vec![measured(), failed()]);
}

#[test]
fn a_reused_pid_does_not_keep_a_run_alive() {
    let (_dir, path, store) = open_temp();
    let r = begin(&store, "20261122-040404-pidr", "2026-11-22T04:04:04Z");
    // Our own pid, but a start tick that is not ours: another process.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE runs SET pid_start = pid_start + 12345 WHERE id = ?1",
        [&r.id],
    )
    .unwrap();
    assert_eq!(
        store.load_run(&r.id).unwrap().status,
        RunStatus::Interrupted
    );
}

#[test]
fn measurements_are_committed_one_by_one() {
    let (_dir, path, store) = open_temp();
    let r = begin(&store, "20261122-050505-each", "2026-11-22T05:05:05Z");
    store.add_measurement(&r.id, &measured()).unwrap();
    // Another connection (another process) sees it before the run ends.
    let reader = Store::open(&path).unwrap();
    assert_eq!(
        reader.load_run(&r.id).unwrap().measurements,
        vec![measured()]
    );
    store.add_measurement(&r.id, &unavailable()).unwrap();
    assert_eq!(reader.load_run(&r.id).unwrap().measurements.len(), 2);
    // Duplicate ids are refused rather than merged.
    assert!(store.begin_run(&r).is_err());
}

#[test]
fn a_replaced_measurement_moves_to_the_end_in_one_step() {
    let (_dir, _path, store) = open_temp();
    let r = begin(&store, "20261124-050505-again", "2026-11-24T05:05:05Z");
    let first = store.add_measurement(&r.id, &measured()).unwrap();
    let other = store.add_measurement(&r.id, &unavailable()).unwrap();
    assert_eq!((first, other), (0, 1));
    let mut calmer = measured();
    calmer.samples_ns = vec![1.0, 2.0, 3.0];
    assert_eq!(store.replace_measurement(&r.id, first, &calmer).unwrap(), 2);
    let ms = store.load_run(&r.id).unwrap().measurements;
    assert_eq!(ms, vec![unavailable(), calmer.clone()]);
    // A position the run does not hold is an error, and changes nothing.
    let err = store.replace_measurement(&r.id, first, &measured());
    assert!(
        matches!(err, Err(StoreError::NoMeasurement { seq: 0, .. })),
        "{err:?}"
    );
    assert_eq!(store.load_run(&r.id).unwrap().measurements.len(), 2);
}

fn assert_refused_untouched(path: &Path, expect: &str) {
    let before = std::fs::read(path).unwrap();
    let e = match Store::open(path) {
        Err(e) => e,
        Ok(_) => panic!("{} was accepted", path.display()),
    };
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(
        msg.contains("left untouched") && msg.contains("--db"),
        "{msg}"
    );
    assert!(msg.contains(expect), "{msg}");
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "the file was modified"
    );
    let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "no journal or WAL files left: {names:?}");
}

#[test]
fn a_garbage_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.db");
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&path, &garbage).unwrap();
    assert_refused_untouched(&path, "SQLite file header");

    std::fs::write(&path, b"SQLite").unwrap();
    assert_refused_untouched(&path, "too short");
}

#[test]
fn another_programs_sqlite_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch("CREATE TABLE foo (x INTEGER); INSERT INTO foo VALUES (42);")
            .unwrap();
    }
    assert_refused_untouched(&path, "the table 'foo'");

    // A `meta` table that is not ours is foreign too.
    let path2 = dir.path().join("meta.db");
    {
        let c = rusqlite::Connection::open(&path2).unwrap();
        c.execute_batch("CREATE TABLE meta (key TEXT, value TEXT);")
            .unwrap();
    }
    let before = std::fs::read(&path2).unwrap();
    assert!(matches!(
        Store::open(&path2),
        Err(StoreError::Corrupt { .. })
    ));
    assert_eq!(std::fs::read(&path2).unwrap(), before);
}

#[test]
fn a_newer_store_schema_is_refused() {
    let (_dir, path) = temp_db();
    drop(Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute(
        "UPDATE meta SET value = 'cryptobench-store/9' WHERE key = 'schema'",
        [],
    )
    .unwrap();
    drop(c);
    let e = Store::open(&path).err().expect("refused");
    assert!(matches!(e, StoreError::NewerSchema { .. }), "{e:?}");
    assert!(e.to_string().contains("newer cryptobench"), "{e}");
}

#[test]
fn an_empty_file_becomes_a_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.db");
    std::fs::write(&path, b"").unwrap();
    let store = Store::open(&path).unwrap();
    begin(&store, "r1", "2026-11-22T00:00:00Z");
    assert_eq!(store.list_runs().unwrap()[0].id, "r1");
}

#[test]
fn an_unwritable_path_is_a_clear_error() {
    let path = Path::new("/proc/nope/results.db");
    let e = Store::open(path).err().expect("cannot open");
    assert!(matches!(e, StoreError::Unwritable { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("/proc/nope/results.db"), "{msg}");
    assert!(
        msg.contains("cannot create the directory /proc/nope"),
        "{msg}"
    );

    let dir = tempfile::tempdir().unwrap();
    let e = Store::open(dir.path()).err().expect("a directory");
    assert!(e.to_string().contains("is a directory"), "{e}");
}

#[test]
fn the_default_path_follows_xdg() {
    // The only test that reads these variables.
    std::env::set_var("XDG_DATA_HOME", "/data/xdg");
    assert_eq!(
        cryptobench_store::default_path(),
        Path::new("/data/xdg/cryptobench/results.db")
    );
    std::env::set_var("XDG_DATA_HOME", "relative/ignored");
    std::env::set_var("HOME", "/home/someone");
    assert_eq!(
        cryptobench_store::default_path(),
        Path::new("/home/someone/.local/share/cryptobench/results.db")
    );
    assert_eq!(SCHEMA, "cryptobench/1");
}

/// Set in the child process of the test below: the database it writes to.
const CHILD_DB: &str = "CRYPTOBENCH_STORE_TEST_CHILD_DB";

#[test]
fn a_killed_writer_leaves_an_interrupted_run_with_its_measurements() {
    if let Some(path) = std::env::var_os(CHILD_DB) {
        // Child: start a run, store two measurements, then hang until killed.
        let store = Store::open(Path::new(&path)).unwrap();
        let r = begin(&store, "20261122-060606-kill", "2026-11-22T06:06:06Z");
        store.add_measurement(&r.id, &measured()).unwrap();
        store.add_measurement(&r.id, &failed()).unwrap();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    let (_dir, path) = temp_db();
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &own_test_name(), "--nocapture"])
        .env(CHILD_DB, &path)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let ready = || {
        Store::open(&path)
            .and_then(|s| s.load_run("latest"))
            .is_ok_and(|r| r.measurements.len() == 2)
    };
    let mut waited = 0;
    while !ready() {
        assert!(waited < 600, "the child never stored its measurements");
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.list_runs().unwrap()[0].status, RunStatus::Running);
    child.0.kill().unwrap(); // SIGKILL: no chance to mark itself
    child.0.wait().unwrap();
    let rows = store.list_runs().unwrap();
    assert_eq!(rows[0].status, RunStatus::Interrupted);
    assert_eq!(rows[0].measurements, 2);
    let loaded = store.load_run("latest").unwrap();
    assert_eq!(loaded.status, RunStatus::Interrupted);
    assert_eq!(loaded.measurements, vec![measured(), failed()]);
}

/// Never leaves the child running when an assertion fails first.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_store_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Store>();
    shareable::<StoreError>();
    let (_dir, path) = temp_db();
    let store = std::sync::Arc::new(Store::open(&path).unwrap());
    begin(&store, "r-threads", "2026-11-22T00:00:00Z");
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let store = store.clone();
            std::thread::spawn(move || store.add_measurement("r-threads", &measured()).unwrap())
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(store.load_run("r-threads").unwrap().measurements.len(), 4);
}

#[test]
fn a_lock_held_for_a_few_seconds_is_waited_out() {
    let (_dir, path, store) = open_temp();
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(2500));
        holder.execute_batch("COMMIT").unwrap();
    });
    begin(&store, "r-waited", "2026-11-22T00:00:00Z");
    release.join().unwrap();
    assert_eq!(store.list_runs().unwrap().len(), 1);
}

#[test]
fn read_only_opening_writes_nothing() {
    let (_dir, path) = temp_db();
    let e = Store::open_read_only(&path).err().expect("missing");
    assert!(matches!(e, StoreError::Missing { .. }), "{e:?}");
    assert!(!path.parent().unwrap().exists(), "nothing was created");

    let store = Store::open(&path).unwrap();
    let dead = begin(&store, "20261122-050505-dead", "2026-11-22T05:05:05Z");
    drop(store);
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("UPDATE runs SET pid = 999999999 WHERE id = ?1", [&dead.id])
        .unwrap();
    drop(raw);
    let before = std::fs::read(&path).unwrap();
    let store = Store::open_read_only(&path).unwrap();
    // Reported as interrupted, but the file is not updated.
    assert_eq!(store.list_runs().unwrap()[0].status, RunStatus::Interrupted);
    assert_eq!(
        store.load_run("latest").unwrap().status,
        RunStatus::Interrupted
    );
    let e = store.begin_run(&run("r-new", "2026-11-22T06:00:00Z", vec![]));
    assert!(e.is_err(), "a read-only store refuses writes");
    drop(store);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_damaged_database_is_refused_before_any_write() {
    let (_dir, path, store) = open_temp();
    store_run(&store, &full_run());
    drop(store);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 4096;
    for b in &mut bytes[last + 8..] {
        *b = 0xee;
    }
    std::fs::write(&path, &bytes).unwrap();
    let e = Store::open(&path).err().expect("damaged");
    assert!(matches!(e, StoreError::Corrupt { .. }), "{e:?}");
    assert!(e.to_string().contains("integrity check failed"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

/// This test's name as libtest knows it: its module path in the test
/// binary, without the binary's own crate name.
fn own_test_name() -> String {
    let module = module_path!().split_once("::").map_or("", |(_, rest)| rest);
    let name = "a_killed_writer_leaves_an_interrupted_run_with_its_measurements";
    if module.is_empty() {
        name.to_string()
    } else {
        format!("{module}::{name}")
    }
}
