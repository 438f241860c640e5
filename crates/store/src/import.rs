//! Runs measured on other machines: reading a run's JSON file and storing
//! it beside this machine's runs.
//!
//! A run file is what `export --format json` and `runs/RUN.json` write. It
//! keeps its id, its host and its fingerprint when imported, so `compare`
//! and `report` can put machines side by side. An imported run is never
//! judged by the liveness check (its process ran elsewhere), and importing
//! the same run twice changes nothing.

use crate::db::ids;
use crate::json_repair::parse_measurement;
use crate::{Store, StoreError};
use cryptobench_core::{Run, SCHEMA};
use rusqlite::{OptionalExtension, TransactionBehavior};
use serde_json::Value;
use std::path::Path;

/// What [`Store::import_run`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Imported {
    /// The run was stored.
    Stored,
    /// The same run (same id, host and start) was already stored.
    AlreadyStored,
}

/// Reads a run from the JSON `bytes` of `path` (the path only names the
/// file in errors). Anything that is not a cryptobench run is
/// [`StoreError::NotARun`].
pub fn parse_run_file(path: &Path, bytes: &[u8]) -> Result<Run, StoreError> {
    let not_a_run = |detail: String| StoreError::NotARun {
        path: path.to_path_buf(),
        detail,
    };
    let mut value: Value =
        serde_json::from_slice(bytes).map_err(|e| not_a_run(format!("it is not JSON ({e})")))?;
    let Some(object) = value.as_object_mut() else {
        return Err(not_a_run("its JSON is not an object".into()));
    };
    match object.get("schema").and_then(Value::as_str) {
        Some(SCHEMA) => {}
        Some(other) if other.starts_with("cryptobench/") => {
            return Err(not_a_run(format!(
                "it was written by another cryptobench version (schema '{other}', this build reads '{SCHEMA}')"
            )))
        }
        _ => {
            return Err(not_a_run(format!(
                "it has no \"schema\": \"{SCHEMA}\" field"
            )))
        }
    }
    // Each measurement is read on its own so a NaN written as `null` costs
    // one figure, not the whole file (as when loading from the database).
    let measurements = match object.insert("measurements".into(), Value::Array(Vec::new())) {
        Some(Value::Array(items)) => items,
        _ => return Err(not_a_run("it has no \"measurements\" list".into())),
    };
    let mut run: Run = serde_json::from_value(value)
        .map_err(|e| not_a_run(format!("its run record is malformed: {e}")))?;
    if run.id.trim().is_empty() {
        return Err(not_a_run("its run id is empty".into()));
    }
    for (i, item) in measurements.into_iter().enumerate() {
        let m = parse_measurement(&item.to_string())
            .map_err(|e| not_a_run(format!("measurement {i} is malformed: {e}")))?;
        run.measurements.push(m);
    }
    Ok(run)
}

impl Store {
    /// Stores a run made elsewhere, keeping its id, host and fingerprint.
    ///
    /// The same run stored twice is [`Imported::AlreadyStored`]; another
    /// run under an id already taken is [`StoreError::IdTaken`].
    pub fn import_run(&self, run: &Run) -> Result<Imported, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let existing: Option<(String, String)> = tx
            .query_row(
                "SELECT host, started_at FROM runs WHERE id = ?1",
                [&run.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?;
        if let Some((host, started_at)) = existing {
            if host == run.machine.hostname && started_at == run.started_at {
                return Ok(Imported::AlreadyStored);
            }
            return Err(StoreError::IdTaken {
                id: run.id.clone(),
                host,
            });
        }
        // No writer: the process that made the run is on another machine (or
        // long gone), so the liveness check leaves the run's status alone.
        self.insert_run(tx, run, &run.machine.hostname, None)?;
        Ok(Imported::Stored)
    }

    /// Every run id, newest first.
    pub fn run_ids(&self) -> Result<Vec<String>, StoreError> {
        ids(&self.conn()).map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, CaseStatus, Fingerprint};

    fn run_on(host: &str, id: &str) -> Run {
        let m = CaseSpec::new("hash", "SHA-256", "openssl", "OpenSSL 3", "digest")
            .size(64)
            .measurement(CaseStatus::Skipped, Some("test".into()));
        Run {
            started_at: "2026-01-01T00:00:00Z".into(),
            finished_at: Some("2026-01-01T00:01:00Z".into()),
            command: vec!["cryptobench".into(), "run".into()],
            machine: Fingerprint {
                hostname: host.into(),
                ..Fingerprint::default()
            },
            ..Run::new(id, vec![m])
        }
    }

    #[test]
    fn a_run_file_round_trips_and_imports_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("r.db")).unwrap();
        let run = run_on("alpha", "20260101-000000-aaaa");
        let bytes = serde_json::to_vec_pretty(&run).unwrap();
        let read = parse_run_file(Path::new("x.json"), &bytes).unwrap();
        assert_eq!(read, run);
        assert_eq!(store.import_run(&read).unwrap(), Imported::Stored);
        assert_eq!(store.import_run(&read).unwrap(), Imported::AlreadyStored);
        let loaded = store.load_run("20260101-000000-aaaa").unwrap();
        assert_eq!(loaded, run);
        assert_eq!(store.list_runs().unwrap()[0].host, "alpha");
        let clash = run_on("beta", "20260101-000000-aaaa");
        let e = store.import_run(&clash).unwrap_err();
        assert!(matches!(e, StoreError::IdTaken { .. }), "{e}");
    }

    #[test]
    fn files_that_are_not_runs_are_refused_with_the_reason() {
        let p = Path::new("f.json");
        for (bytes, why) in [
            (&b"not json"[..], "not JSON"),
            (b"[1, 2]", "not an object"),
            (b"{\"id\": \"x\"}", "no \"schema\""),
            (
                b"{\"schema\": \"cryptobench/9\"}",
                "another cryptobench version",
            ),
            (
                b"{\"schema\": \"cryptobench/1\", \"id\": \"x\"}",
                "measurements",
            ),
        ] {
            let e = parse_run_file(p, bytes).unwrap_err();
            assert!(matches!(e, StoreError::NotARun { .. }), "{e}");
            assert!(e.to_string().contains(why), "{why}: {e}");
            assert!(e.to_string().contains("f.json"), "{e}");
        }
    }
}
