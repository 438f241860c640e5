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
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::BTreeMap;
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
    // The top level is split into its fields without building a tree of
    // the measurements: each is read straight from its own text, so a
    // large file costs little more than its measurements' size.
    let raw: BTreeMap<String, &RawValue> = match serde_json::from_slice(bytes) {
        Ok(r) => r,
        Err(e) => {
            return Err(match serde_json::from_slice::<IgnoredAny>(bytes) {
                Ok(_) => not_a_run("its JSON is not an object".into()),
                Err(_) => not_a_run(format!("it is not JSON ({e})")),
            })
        }
    };
    let field = |name: &str| raw.get(name).map(|v| v.get());
    match field("schema").and_then(|v| serde_json::from_str::<String>(v).ok()).as_deref() {
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
    let measurements: Vec<&RawValue> = field("measurements")
        .and_then(|v| serde_json::from_str(v).ok())
        .ok_or_else(|| not_a_run("it has no \"measurements\" list".into()))?;
    let fields: serde_json::Map<String, Value> = raw
        .iter()
        .filter(|(k, _)| k.as_str() != "measurements")
        .map(|(k, v)| Ok((k.clone(), serde_json::from_str(v.get())?)))
        .chain([Ok(("measurements".to_string(), Value::Array(Vec::new())))])
        .collect::<Result<_, serde_json::Error>>()
        .map_err(|e| not_a_run(format!("its run record is malformed: {e}")))?;
    let mut run: Run = serde_json::from_value(Value::Object(fields))
        .map_err(|e| not_a_run(format!("its run record is malformed: {e}")))?;
    if run.id.trim().is_empty() {
        return Err(not_a_run("its run id is empty".into()));
    }
    run.measurements.reserve_exact(measurements.len());
    for (i, item) in measurements.into_iter().enumerate() {
        let m = parse_measurement(item.get())
            .map_err(|e| not_a_run(format!("measurement {i} is malformed: {e}")))?;
        run.measurements.push(m);
    }
    Ok(run)
}

/// Whether `id` has the form every run id takes, `YYYYMMDD-HHMMSS-xxxx`
/// (digits, then four lowercase hex digits): the only ids an imported run
/// may keep, so none can read as `latest`, a prefix game or a command.
pub fn well_formed_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 20
        && b[8] == b'-'
        && b[15] == b'-'
        && b[..8].iter().chain(&b[9..15]).all(u8::is_ascii_digit)
        && b[16..]
            .iter()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
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
    fn run_ids_are_well_formed_or_refused() {
        assert!(well_formed_id("20261202-135313-a6f2"));
        for bad in [
            "latest",
            "20261202-135313-A6F2",
            "20261202-135313-a6f",
            "2026120x-135313-a6f2",
            "20261202-135313-a6f2\u{1b}",
            "",
        ] {
            assert!(!well_formed_id(bad), "{bad}");
        }
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
