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
#![deny(missing_docs)]

pub mod db;
pub mod export;
mod json_repair;
mod liveness;

pub use db::{default_path, RunRow, Store, STORE_SCHEMA};
pub use export::{
    exporter, parse_target, write_target, CsvExporter, Exporter, JsonExporter, MarkdownExporter,
    OutputTarget, CSV_COLUMNS, FORMATS,
};
pub use liveness::this_host;

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
    /// Another process held the database longer than the busy timeout.
    #[error("database {} is locked by another process (waited 2 s); let the other cryptobench command finish, or pass --db OTHER", path.display())]
    Locked {
        /// The database file.
        path: PathBuf,
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
    /// A prefix matches more than one run.
    #[error("run id prefix '{prefix}' matches {} runs: {}; type more characters of the id", matches.len(), matches.join(", "))]
    Ambiguous {
        /// What the user typed.
        prefix: String,
        /// The run ids it matches, newest first.
        matches: Vec<String>,
    },
    /// Anything else (an SQLite error we did not expect, a broken pipe).
    #[error("{0}")]
    Other(String),
}

fn not_found_message(id: &str, known: &[String]) -> String {
    if known.is_empty() {
        return format!(
            "no run '{id}': the database holds no runs yet; `cryptobench run` makes one"
        );
    }
    let mut msg = format!("no run '{id}' in the database");
    let candidates: Vec<&str> = known.iter().map(String::as_str).collect();
    let close = cryptobench_core::names::suggest(id, &candidates);
    if !close.is_empty() {
        msg.push_str(&format!("; did you mean {}?", close.join(", ")));
    }
    msg.push_str(&format!(
        "\naccepted: a run id or a unique prefix of one, `latest`, or `latest~N` (N runs before the latest); {} run(s) stored, newest: {}; `cryptobench runs` lists them",
        known.len(),
        known[0]
    ));
    msg
}

impl From<StoreError> for cryptobench_core::Error {
    /// A run id the user mistyped is a usage error (exit 2); the rest is not.
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound { .. } | StoreError::Ambiguous { .. } => {
                cryptobench_core::Error::Usage(e.to_string())
            }
            other => cryptobench_core::Error::Other(other.to_string()),
        }
    }
}

/// Joins arguments for display, single-quoting those a shell would split.
pub(crate) fn shell_join(args: &[String]) -> String {
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
