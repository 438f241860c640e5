//! The history of runs (SQLite) and the exporters (JSON, CSV, Markdown).
//!
//! Two halves that meet in the [`Run`](cryptobench_core::Run) model:
//!
//! - [`Store`] keeps every run in one SQLite file (see [`db`] for the schema).
//!   A measurement is committed the moment the engine hands it over, so
//!   Ctrl-C or a crash loses nothing already measured; a run whose process
//!   died is reported as `interrupted` the next time anyone lists the runs.
//!   A file that is not ours is never written to: it is recognised before
//!   the first write and reported as [`StoreError::Corrupt`].
//! - [`Exporter`]s turn a run into bytes and do no I/O themselves;
//!   [`write_target`] is the single place that writes an export to a file or
//!   to stdout, so error handling for `-o FORMAT:PATH` lives in one spot.
//! - [`output`] is the one way any file is written: never the database,
//!   never a file cryptobench did not write unless `--force`, atomically.
#![deny(missing_docs)]

pub mod db;
mod db_file;
pub mod export;
pub mod import;
mod json_repair;
mod liveness;
pub mod output;
pub mod recorder;
mod select;

pub use db::{default_path, set_lock_wait, RunRow, Store, STORE_SCHEMA};
pub use export::{
    exporter, parse_target, write_bytes, write_target, CsvExporter, Exporter, JsonExporter,
    MarkdownExporter, OutputTarget, CSV_COLUMNS, FORMATS,
};
pub use import::{parse_run_file, Imported};
pub use liveness::this_host;
pub use output::{Access, OutputError, Outputs};
pub use recorder::{RecordError, Recorded, Recorder};

use std::path::PathBuf;

/// Everything that can go wrong with the store or an export.
///
/// Each message names the file, says what happened and what to do next,
/// because it is printed to the user as is.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file exists but is not a cryptobench database; it was not touched.
    #[error("{} is not a cryptobench database (or is corrupt): {detail}; it was left untouched; pass --db OTHER or move it away", path.display())]
    Corrupt {
        /// The database file.
        path: PathBuf,
        /// What was found instead.
        detail: String,
    },
    /// The database was written by a newer cryptobench with another schema.
    #[error("{} was written by a newer cryptobench (store schema '{found}', this build reads '{}'); it was left untouched; upgrade cryptobench or pass --db OTHER", path.display(), db::STORE_SCHEMA)]
    NewerSchema {
        /// The database file.
        path: PathBuf,
        /// The schema string found in the file.
        found: String,
    },
    /// A command that only reads was pointed at a database that does not exist.
    #[error("no results database at {}: check --db, or create one with `cryptobench run --db {}` (any measuring command creates it)", path.display(), path.display())]
    Missing {
        /// The path given.
        path: PathBuf,
    },
    /// Another process held the database longer than the busy timeout.
    #[error("database {} is locked by another process (waited {waited_s} s); let the other cryptobench command finish, or pass --db OTHER", path.display())]
    Locked {
        /// The database file.
        path: PathBuf,
        /// How long the write waited, seconds.
        waited_s: u64,
    },
    /// A file or directory could not be created or written.
    #[error("cannot write {}: {detail}; choose a writable path (for the database: --db PATH or --no-db)", path.display())]
    Unwritable {
        /// The path that could not be written.
        path: PathBuf,
        /// The operating system's or SQLite's reason.
        detail: String,
    },
    /// No run matches the id the user typed.
    #[error("{}", not_found_message(id, known))]
    NotFound {
        /// What the user typed.
        id: String,
        /// Every run id in the store, newest first.
        known: Vec<String>,
    },
    /// A measurement to replace is not in the run (an internal error).
    #[error("run {run} has no measurement at position {seq} to replace")]
    NoMeasurement {
        /// The run id.
        run: String,
        /// The position asked for.
        seq: i64,
    },
    /// A prefix matches more than one run.
    #[error("run id prefix '{prefix}' matches {} runs: {}; type more characters of the id", matches.len(), matches.join(", "))]
    Ambiguous {
        /// What the user typed.
        prefix: String,
        /// The run ids it matches, newest first.
        matches: Vec<String>,
    },
    /// A file given as a run is not a cryptobench run.
    #[error("{} is not a cryptobench run: {detail}; accepted: the JSON that `cryptobench export RUN --format json` or `runs/RUN.json` beside the database holds", path.display())]
    NotARun {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// An imported run's id is already taken by another run.
    #[error("a different run with id '{id}' (host {host}) is already stored; this file holds another run under the same id and was not imported")]
    IdTaken {
        /// The run id.
        id: String,
        /// The host of the run already stored.
        host: String,
    },
    /// An output file was refused or could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A new run's id is already stored (run ids are made unique, so this
    /// means two processes chose the same id).
    #[error("a run with id '{id}' is already stored in {}; ids must be unique", path.display())]
    RunExists {
        /// The run id.
        id: String,
        /// The database file.
        path: PathBuf,
    },
    /// An export format the store does not write.
    #[error("no export format '{format}'; accepted: {}", FORMATS.join(", "))]
    UnknownFormat {
        /// The format asked for.
        format: String,
    },
    /// A value could not be encoded as JSON for the database or an export.
    #[error("cannot encode {what} as JSON: {source}")]
    Encode {
        /// What was being encoded, e.g. `run 20240101-abcd`.
        what: String,
        /// The encoder's reason.
        source: serde_json::Error,
    },
    /// An export could not be written to stdout (a closed pipe is not an error).
    #[error("cannot write the {format} export to stdout: {source}")]
    Stdout {
        /// The export format.
        format: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// An SQLite error that none of the variants above explains.
    #[error("database {}: {source}", path.display())]
    Database {
        /// The database file.
        path: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
}

fn not_found_message(id: &str, known: &[String]) -> String {
    let latest = latest_hint(id);
    if known.is_empty() {
        let mut msg = format!("no run '{id}': the database holds no runs yet");
        if let Some(hint) = &latest {
            msg.push_str(&format!(" ({hint})"));
        }
        msg.push_str("; `cryptobench run` makes one");
        return msg;
    }
    let mut msg = format!("no run '{id}' in the database");
    let candidates: Vec<&str> = known.iter().map(String::as_str).collect();
    let close = cryptobench_core::names::suggest(id, &candidates);
    match (&latest, close.is_empty()) {
        (Some(hint), _) => msg.push_str(&format!("; {hint}")),
        (None, false) => msg.push_str(&format!("; did you mean {}?", close.join(", "))),
        (None, true) => {}
    }
    msg.push_str(&format!(
        "\naccepted: a run id or a unique prefix of one, `latest` (the newest `run` on this host) or `latest~N` (N runs before it), `latest-paper` and `latest-any` (the newest of any kind, `~N` too), or a run's JSON file; {} run(s) stored, newest: {}; `cryptobench runs` lists them",
        known.len(),
        known[0]
    ));
    msg
}

/// What to say when `id` looks like a misspelt `latest` or `latest~N`:
/// `latst` -> did you mean 'latest', `lates~2` -> 'latest~2',
/// `latest~x` -> N must be a whole number.
fn latest_hint(id: &str) -> Option<String> {
    let (stem, back) = match id.trim().split_once('~') {
        Some((stem, back)) => (stem, Some(back)),
        None => (id.trim(), None),
    };
    const FORMS: [&str; 3] = ["latest", "latest-paper", "latest-any"];
    let is_latest = FORMS.iter().any(|f| stem.eq_ignore_ascii_case(f));
    let close = cryptobench_core::names::suggest(stem, &FORMS);
    if !is_latest && close.is_empty() {
        return None;
    }
    match back {
        Some(n) if n.parse::<usize>().is_err() => Some(format!(
            "`latest~N` takes a whole number N of runs before the latest, e.g. 'latest~1'; '{n}' is not one"
        )),
        _ if is_latest => None,
        Some(n) => Some(format!("did you mean '{}~{n}'?", close[0])),
        None => Some(format!("did you mean '{}'?", close[0])),
    }
}

impl From<StoreError> for cryptobench_core::Error {
    /// A run id the user mistyped is a usage error (exit 2); the rest is not.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound { .. }
            | StoreError::Ambiguous { .. }
            | StoreError::UnknownFormat { .. } => cryptobench_core::Error::Usage(e.to_string()),
            other => cryptobench_core::Error::Store(Box::new(other)),
        }
    }
}

/// Joins arguments for display, single-quoting those a shell would split.
pub fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%~".contains(c));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_latest_is_named() {
        let known = vec!["20260101-000000-abcd".to_string()];
        for (typed, expect) in [
            ("latst", "did you mean 'latest'?"),
            ("lates~2", "did you mean 'latest~2'?"),
            ("latest~x", "whole number"),
            ("ltest~", "whole number"),
        ] {
            let msg = not_found_message(typed, &known);
            assert!(msg.contains(expect), "{typed}: {msg}");
            assert!(not_found_message(typed, &[]).contains(expect), "{typed}");
        }
        assert!(latest_hint("20260101").is_none());
        assert!(latest_hint("latest~9").is_none());
    }
}
