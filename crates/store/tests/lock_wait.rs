//! The lock wait, in a test binary of its own: the wait is one setting per
//! process, so shortening it here leaves the store tests that wait out a
//! lock for seconds untouched.

mod common;

use common::run;
use cryptobench_store::{set_lock_wait, Store, StoreError};
use std::time::Duration;

#[test]
fn a_locked_database_is_reported_after_the_lock_wait() {
    set_lock_wait(Duration::from_secs(1));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.db");
    let store = Store::open(&path).unwrap();
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let e = store
        .begin_run(&run("r-locked", "2026-11-22T00:00:00Z", vec![]))
        .unwrap_err();
    assert!(matches!(e, StoreError::Locked { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("locked by another process (waited 1 s)"),
        "{e}"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    store
        .begin_run(&run("r-locked", "2026-11-22T00:00:00Z", vec![]))
        .unwrap();
    // Reading is never blocked by a writer (WAL).
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    assert_eq!(store.list_runs().unwrap().len(), 1);
    holder.execute_batch("ROLLBACK").unwrap();
}
