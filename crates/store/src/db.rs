//! The SQLite history of runs.
//!
//! # Schema (`cryptobench-store/1`)
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)      -- ('schema', 'cryptobench-store/1')
//! runs(
//!   id TEXT PRIMARY KEY,     -- Run::id, sortable by time
//!   started_at TEXT,         -- RFC 3339 UTC
//!   finished_at TEXT NULL,   -- NULL while running or when the process died
//!   status TEXT,             -- running | complete | interrupted | failed
//!   command TEXT,            -- JSON array of the arguments as typed
//!   host TEXT,               -- Fingerprint::hostname
//!   pid INTEGER,             -- process that made the run ...
//!   pid_host TEXT,           -- ... on this host (kernel host name) ...
//!   pid_start INTEGER NULL,  -- ... started at this tick (/proc/PID/stat field 22)
//!   fleet TEXT NULL,         -- fleet id when one host of a fleet run
//!   model_schema TEXT,       -- Run::schema (`cryptobench/1`)
//!   machine_json TEXT        -- Fingerprint as JSON
//! )
//! measurements(
//!   run_id TEXT REFERENCES runs(id), seq INTEGER,  -- PRIMARY KEY (run_id, seq)
//!   suite, primitive, backend, operation TEXT, input_bytes INTEGER,
//!   status TEXT,             -- measured | failed | skipped | unavailable
//!   median_ns REAL NULL,     -- for ad-hoc SQL; the JSON is authoritative
//!   json TEXT                -- the whole Measurement as JSON
//! )
//! ```
//!
//! The `meta` row is how a file is recognised as ours: a file that is not
//! SQLite, or an SQLite file without that row, is reported as
//! [`StoreError::Corrupt`] after a read-only look and is never written to.
//! [`Store::load_run`] rebuilds a [`Run`] from `machine_json` and the
//! measurements' `json` in `seq` order, so a loaded run equals the run that
//! was stored.
//!
//! Before the first write a file must pass `PRAGMA quick_check`; commands
//! that only read use [`Store::open_read_only`], which never creates,
//! migrates or writes. A lock held by another process is waited for up to
//! 30 s, saying so on stderr after a second.
//!
//! Every measurement is its own transaction, committed with
//! `synchronous=FULL` in WAL mode: whatever the engine handed over before a
//! Ctrl-C, a crash or a power cut is on disk, and readers (`runs`, `show`)
//! never wait for a run that is writing.
//!
//! A run left `running` by a process that no longer exists (checked through
//! `/proc/PID`, with its start tick guarding against a reused pid) is
//! reported, and updated, as `interrupted` by [`Store::list_runs`] and
//! [`Store::load_run`]. Runs made on another host are left as they are:
//! their processes cannot be seen from here.

use crate::db_file::{check_integrity, inspect, open_connection, Found, READ_ONLY};
use crate::json_repair::parse_measurement;
use crate::liveness::{process_start_tick, reap_dead_runs, this_host};
use crate::StoreError;
use cryptobench_core::{Fingerprint, Measurement, Run, RunStatus};
use rusqlite::{
    params, Connection, ErrorCode, OpenFlags, OptionalExtension, Transaction, TransactionBehavior,
};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The value of `meta.schema` in every database this crate writes.
pub const STORE_SCHEMA: &str = "cryptobench-store/1";

/// How long a write waits for another process before giving up as
/// `Locked`, unless [`set_lock_wait`] said otherwise.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The wait in force, milliseconds: one per process, because SQLite's busy
/// handler is a plain function with no connection state of its own.
static LOCK_WAIT_MS: AtomicU64 = AtomicU64::new(BUSY_TIMEOUT.as_millis() as u64);

/// Sets how long a write waits for another process's lock before it gives
/// up with [`StoreError::Locked`] (default 30 s), for every store of this
/// process.
pub fn set_lock_wait(wait: Duration) {
    LOCK_WAIT_MS.store(wait.as_millis() as u64, Ordering::Relaxed);
}

/// The wait in force.
pub(crate) fn lock_wait() -> Duration {
    Duration::from_millis(LOCK_WAIT_MS.load(Ordering::Relaxed))
}

/// One wait step of the busy handler; after [`BUSY_NOTICE_AFTER`] steps it
/// says once on stderr what it is waiting for.
const BUSY_STEP: Duration = Duration::from_millis(20);
const BUSY_NOTICE_AFTER: u32 = 50;

/// Waits for another process's lock in small steps, telling the user once
/// when the wait passes a second, and gives up after [`lock_wait`].
pub(crate) fn wait_for_lock(attempt: i32) -> bool {
    let attempt = u32::try_from(attempt).unwrap_or(0);
    let limit = lock_wait();
    if attempt == BUSY_NOTICE_AFTER {
        eprintln!(
            "waiting for another cryptobench process to release the results database (up to {} s)",
            limit.as_secs()
        );
    }
    if BUSY_STEP * attempt >= limit {
        return false;
    }
    std::thread::sleep(BUSY_STEP);
    true
}

pub(crate) const CREATE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL,
  command TEXT NOT NULL,
  host TEXT NOT NULL,
  pid INTEGER,
  pid_host TEXT,
  pid_start INTEGER,
  fleet TEXT,
  model_schema TEXT NOT NULL,
  machine_json TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs(started_at);
CREATE TABLE IF NOT EXISTS measurements (
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  suite TEXT NOT NULL,
  primitive TEXT NOT NULL,
  backend TEXT NOT NULL,
  operation TEXT NOT NULL,
  input_bytes INTEGER NOT NULL,
  status TEXT NOT NULL,
  median_ns REAL,
  json TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
";

/// `$XDG_DATA_HOME/cryptobench/results.db`, else
/// `$HOME/.local/share/cryptobench/results.db` (the XDG default).
pub fn default_path() -> PathBuf {
    let xdg = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        // The XDG spec says relative values are invalid and must be ignored.
        .filter(|p| p.is_absolute());
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".local").join("share"));
    match xdg.or(home) {
        Some(base) => base.join("cryptobench").join("results.db"),
        None => PathBuf::from("cryptobench-results.db"),
    }
}

/// One line of `cryptobench runs`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    /// Run id.
    pub id: String,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC, when it finished.
    pub finished_at: Option<String>,
    /// Status, with dead `running` runs already turned `interrupted`.
    pub status: RunStatus,
    /// The command line, shell-quoted where needed.
    pub command: String,
    /// Host name from the fingerprint.
    pub host: String,
    /// Measurements stored (every status).
    pub measurements: usize,
    /// Measurements whose checks failed.
    pub failed: usize,
    /// Suites in the order they first appear.
    pub suites: Vec<String>,
    /// Fleet id, when one host of a fleet run.
    pub fleet: Option<String>,
}

/// An open results database. Safe to share between threads.
pub struct Store {
    path: PathBuf,
    conn: Mutex<Connection>,
}

/// The process writing a run: how a later reader tells a run still being
/// written from one whose process died.
pub(crate) struct Writer {
    pid: i64,
    host: String,
    start: Option<i64>,
}

impl Store {
    /// Opens (creating when absent) the database at `path`.
    ///
    /// An existing file is inspected read-only first; a file that is not
    /// SQLite, or an SQLite file of another program, is reported as
    /// [`StoreError::Corrupt`] and left byte for byte as it was.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let found = inspect(path)?;
        if let Found::Ours = found {
            check_integrity(path)?;
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| StoreError::Unwritable {
                path: path.to_path_buf(),
                detail: format!("cannot create the directory {}: {e}", parent.display()),
            })?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = open_connection(path, flags)?;
        // WAL lets `runs` read while a run writes; a file system without
        // shared memory refuses it, and the default journal still works.
        if let Err(e) = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            if let err @ StoreError::Locked { .. } = sql_err(path, e) {
                return Err(err);
            }
        }
        conn.execute_batch("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            .map_err(|e| sql_err(path, e))?;
        if matches!(found, Found::Fresh) {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(|e| sql_err(path, e))?;
            tx.execute_batch(CREATE_SCHEMA)
                .map_err(|e| sql_err(path, e))?;
            tx.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?1)",
                [STORE_SCHEMA],
            )
            .map_err(|e| sql_err(path, e))?;
            tx.commit().map_err(|e| sql_err(path, e))?;
        }
        Ok(Store {
            path: path.to_path_buf(),
            conn: Mutex::new(conn),
        })
    }

    /// Opens an existing database for commands that only read it.
    ///
    /// Nothing is created, migrated or written (a `running` run whose
    /// process died is still reported as `interrupted`), so a read-only
    /// file or directory is fine. A missing file is [`StoreError::Missing`].
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing {
                path: path.to_path_buf(),
            });
        }
        if let Found::Fresh = inspect(path)? {
            return Err(StoreError::Corrupt {
                path: path.to_path_buf(),
                detail: "it is empty: no cryptobench run was ever stored in it".into(),
            });
        }
        let conn = open_connection(path, READ_ONLY)?;
        Ok(Store {
            path: path.to_path_buf(),
            conn: Mutex::new(conn),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (its own
        // transactions roll back), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn err(&self, e: rusqlite::Error) -> StoreError {
        sql_err(&self.path, e)
    }

    /// Inserts the run row (and any measurements the run already holds).
    pub fn begin_run(&self, run: &Run) -> Result<(), StoreError> {
        let host = if run.machine.hostname.is_empty() {
            this_host()
        } else {
            run.machine.hostname.clone()
        };
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let exists: bool = tx
            .query_row("SELECT 1 FROM runs WHERE id = ?1", [&run.id], |_| Ok(()))
            .optional()
            .map_err(|e| self.err(e))?
            .is_some();
        if exists {
            return Err(StoreError::RunExists {
                id: run.id.clone(),
                path: self.path.clone(),
            });
        }
        let writer = Writer {
            pid: i64::from(std::process::id()),
            host: this_host(),
            start: process_start_tick(std::process::id()),
        };
        self.insert_run(tx, run, &host, Some(writer))
    }

    /// Inserts the run row and its measurements, then commits. `writer` is
    /// the live process that will add to the run; `None` for a run made
    /// elsewhere, which the liveness check then leaves alone.
    pub(crate) fn insert_run(
        &self,
        tx: Transaction<'_>,
        run: &Run,
        host: &str,
        writer: Option<Writer>,
    ) -> Result<(), StoreError> {
        let command = to_json("the run's command", &run.command)?;
        let machine = to_json("the run's machine", &run.machine)?;
        let (pid, pid_host, pid_start) = match writer {
            Some(w) => (Some(w.pid), Some(w.host), w.start),
            None => (None, None, None),
        };
        tx.execute(
            "INSERT INTO runs (id, started_at, finished_at, status, command, host, pid, pid_host, \
             pid_start, fleet, model_schema, machine_json) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                run.id,
                run.started_at,
                run.finished_at,
                run.status.as_str(),
                command,
                host,
                pid,
                pid_host,
                pid_start,
                run.fleet,
                run.schema,
                machine,
            ],
        )
        .map_err(|e| self.err(e))?;
        for (seq, m) in run.measurements.iter().enumerate() {
            insert_measurement(&tx, &run.id, seq as i64, m).map_err(|e| self.err(e))?;
        }
        tx.commit().map_err(|e| self.err(e))
    }

    /// Appends one measurement to a run, committed before this returns;
    /// returns its position in the run.
    pub fn add_measurement(&self, run_id: &str, m: &Measurement) -> Result<i64, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let exists = tx
            .query_row("SELECT 1 FROM runs WHERE id = ?1", [run_id], |_| Ok(()))
            .optional()
            .map_err(|e| self.err(e))?
            .is_some();
        if !exists {
            drop(tx);
            return Err(StoreError::NotFound {
                id: run_id.to_string(),
                known: ids(&conn).map_err(|e| self.err(e))?,
            });
        }
        self.append(tx, run_id, m)
    }

    /// Inserts `m` after the run's last measurement and commits `tx`;
    /// returns its position.
    fn append(
        &self,
        tx: rusqlite::Transaction<'_>,
        run_id: &str,
        m: &Measurement,
    ) -> Result<i64, StoreError> {
        let seq = next_seq(&tx, run_id).map_err(|e| self.err(e))?;
        insert_measurement(&tx, run_id, seq, m).map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(seq)
    }

    /// Replaces the measurement at position `seq` of a run by `m`, which
    /// moves to the end of the run (the run lists what it measured in the
    /// order it measured it). One transaction: the run holds one of the two
    /// at every moment. Returns the new position.
    pub fn replace_measurement(
        &self,
        run_id: &str,
        seq: i64,
        m: &Measurement,
    ) -> Result<i64, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let removed = tx
            .execute(
                "DELETE FROM measurements WHERE run_id = ?1 AND seq = ?2",
                rusqlite::params![run_id, seq],
            )
            .map_err(|e| self.err(e))?;
        if removed != 1 {
            drop(tx);
            return Err(StoreError::NoMeasurement {
                run: run_id.to_string(),
                seq,
            });
        }
        self.append(tx, run_id, m)
    }

    /// Records how and when a run ended.
    pub fn finish_run(
        &self,
        run_id: &str,
        status: RunStatus,
        finished_at: &str,
    ) -> Result<(), StoreError> {
        let conn = self.conn();
        let changed = conn
            .execute(
                "UPDATE runs SET status = ?1, finished_at = ?2 WHERE id = ?3",
                params![status.as_str(), finished_at, run_id],
            )
            .map_err(|e| self.err(e))?;
        if changed == 0 {
            return Err(StoreError::NotFound {
                id: run_id.to_string(),
                known: ids(&conn).map_err(|e| self.err(e))?,
            });
        }
        Ok(())
    }

    /// Every run, newest first; dead `running` runs become `interrupted`.
    pub fn list_runs(&self) -> Result<Vec<RunRow>, StoreError> {
        let conn = self.conn();
        let stale = reap_dead_runs(&conn).map_err(|e| self.err(e))?;
        let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
        let mut suites: HashMap<String, Vec<String>> = HashMap::new();
        {
            let mut stmt = conn
                .prepare(
                    "SELECT run_id, suite, COUNT(*), SUM(status = 'failed'), MIN(seq) AS first \
                     FROM measurements GROUP BY run_id, suite ORDER BY run_id, first",
                )
                .map_err(|e| self.err(e))?;
            let rows = stmt
                .query_map([], |r| <(String, String, i64, i64)>::try_from(r))
                .map_err(|e| self.err(e))?;
            for row in rows {
                let (run, suite, n, failed) = row.map_err(|e| self.err(e))?;
                let c = counts.entry(run.clone()).or_default();
                c.0 += n as usize;
                c.1 += failed as usize;
                suites.entry(run).or_default().push(suite);
            }
        }
        let mut stmt = conn
            .prepare(
                "SELECT id, started_at, finished_at, status, command, host, fleet \
                 FROM runs ORDER BY started_at DESC, rowid DESC",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                <(
                    String,
                    String,
                    Option<String>,
                    String,
                    String,
                    String,
                    Option<String>,
                )>::try_from(r)
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, started_at, finished_at, status, command, host, fleet) =
                row.map_err(|e| self.err(e))?;
            let (status, command) = self.parse_head(&id, &stale, &status, &command)?;
            let (measurements, failed) = counts.get(&id).copied().unwrap_or_default();
            out.push(RunRow {
                suites: suites.remove(&id).unwrap_or_default(),
                id,
                started_at,
                finished_at,
                status,
                command: crate::shell_join(&command),
                host,
                measurements,
                failed,
                fleet,
            });
        }
        Ok(out)
    }

    /// Loads a whole run by exact id, unique prefix, `latest` or `latest~N`.
    pub fn load_run(&self, id: &str) -> Result<Run, StoreError> {
        let id = self.resolve_id(id)?;
        let conn = self.conn();
        let stale = reap_dead_runs(&conn).map_err(|e| self.err(e))?;
        let (started_at, finished_at, status, command, fleet, schema, machine) = conn
            .query_row(
                "SELECT started_at, finished_at, status, command, fleet, model_schema, \
                 machine_json FROM runs WHERE id = ?1",
                [&id],
                |r| {
                    <(
                        String,
                        Option<String>,
                        String,
                        String,
                        Option<String>,
                        String,
                        String,
                    )>::try_from(r)
                },
            )
            .map_err(|e| self.err(e))?;
        let (status, command) = self.parse_head(&id, &stale, &status, &command)?;
        let machine: Fingerprint = serde_json::from_str(&machine)
            .map_err(|e| self.corrupt(format!("run {id} has a malformed machine record: {e}")))?;
        let mut stmt = conn
            .prepare("SELECT seq, json FROM measurements WHERE run_id = ?1 ORDER BY seq")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([&id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| self.err(e))?;
        let mut measurements = Vec::new();
        for row in rows {
            let (seq, json) = row.map_err(|e| self.err(e))?;
            measurements.push(parse_measurement(&json).map_err(|e| {
                self.corrupt(format!("measurement {seq} of run {id} is malformed: {e}"))
            })?);
        }
        Ok(Run {
            schema,
            id,
            started_at,
            finished_at,
            status,
            command,
            machine,
            fleet,
            measurements,
        })
    }

    /// Run `id`'s stored status and command line, parsed; a run whose
    /// process died (`stale`) is interrupted whatever its row says.
    fn parse_head(
        &self,
        id: &str,
        stale: &HashSet<String>,
        status: &str,
        command: &str,
    ) -> Result<(RunStatus, Vec<String>), StoreError> {
        let status = if stale.contains(id) {
            RunStatus::Interrupted
        } else {
            RunStatus::parse(status)
                .ok_or_else(|| self.corrupt(format!("run {id} has an unknown status '{status}'")))?
        };
        let command: Vec<String> = serde_json::from_str(command)
            .map_err(|e| self.corrupt(format!("run {id} has a malformed command: {e}")))?;
        Ok((status, command))
    }

    fn corrupt(&self, detail: String) -> StoreError {
        StoreError::Corrupt {
            path: self.path.clone(),
            detail,
        }
    }
}

/// Maps an SQLite error to what the user should be told.
pub(crate) fn sql_err(path: &Path, e: rusqlite::Error) -> StoreError {
    let code = e.sqlite_error_code();
    match code {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Locked {
            path: path.to_path_buf(),
            waited_s: lock_wait().as_secs(),
        },
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        Some(
            ErrorCode::CannotOpen
            | ErrorCode::ReadOnly
            | ErrorCode::PermissionDenied
            | ErrorCode::DiskFull
            | ErrorCode::SystemIoFailure,
        ) => StoreError::Unwritable {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
        _ => StoreError::Database {
            path: path.to_path_buf(),
            source: e,
        },
    }
}

/// `value` as compact JSON for a database column; `what` names it in the error.
fn to_json<T: serde::Serialize>(what: &str, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::Encode {
        what: what.to_string(),
        source,
    })
}

/// The position the next measurement of a run takes.
fn next_seq(conn: &Connection, run_id: &str) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM measurements WHERE run_id = ?1",
        [run_id],
        |r| r.get(0),
    )
}

pub(crate) fn insert_measurement(
    conn: &Connection,
    run_id: &str,
    seq: i64,
    m: &Measurement,
) -> rusqlite::Result<()> {
    let json = serde_json::to_string(m)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    let status = serde_json::to_value(m.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    conn.execute(
        "INSERT INTO measurements (run_id, seq, suite, primitive, backend, operation, \
         input_bytes, status, median_ns, json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            run_id,
            seq,
            m.suite,
            m.primitive,
            m.backend,
            m.operation,
            i64::try_from(m.input_bytes).unwrap_or(i64::MAX),
            status,
            m.median_ns().filter(|v| v.is_finite()),
            json,
        ],
    )?;
    Ok(())
}

/// Every run id, newest first.
pub(crate) fn ids(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    conn.prepare("SELECT id FROM runs ORDER BY started_at DESC, rowid DESC")?
        .query_map([], |r| r.get(0))?
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn shell_quoting() {
        let args = ["cryptobench", "run", "-o", "md:my file.md", "it's"].map(String::from);
        assert_eq!(
            crate::shell_join(&args),
            "cryptobench run -o 'md:my file.md' 'it'\\''s'"
        );
    }
}
