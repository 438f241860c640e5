//! What `latest` means when the history holds more than full runs.
//!
//! A database collects `run`s, single-suite commands (`hash`, `aead`, ...),
//! `paper` experiments and runs imported from other machines. `latest`
//! stands for the newest `run` made on this host, because that is what
//! `recommend`, `compare latest~1 latest` and `report latest` are about; a
//! `paper aegis --quick` in between must not silently take its place.
//! `latest-paper` and `latest-any` (each with `~N`) reach the others, and
//! whenever `latest` passes over a newer run, the caller is told which run
//! was chosen and why.

use crate::db::Store;
use crate::liveness::this_host;
use crate::StoreError;
use std::path::Path;

/// What kind of command made a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `cryptobench run`.
    Run,
    /// `cryptobench paper NAME`.
    Paper,
    /// A suite command (`hash`, `elgamal`, ...) or anything else.
    Other,
}

/// The subcommands that store a run, as typed after the options.
const STORING: [&str; 8] = [
    "run", "paper", "hash", "cipher", "aead", "ecc", "argon2", "elgamal",
];

/// The kind of a run from its command line: the first word that names a
/// storing subcommand (global options and their values come before it).
pub(crate) fn kind_of(command: &[String]) -> Kind {
    match command
        .iter()
        .skip(1)
        .find(|a| STORING.contains(&a.as_str()))
        .map(String::as_str)
    {
        Some("run") => Kind::Run,
        Some("paper") => Kind::Paper,
        _ => Kind::Other,
    }
}

/// One stored run as the selection sees it.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    pub id: String,
    pub kind: Kind,
    pub host: String,
    /// Made by a cryptobench process on this host (not imported): only
    /// such runs are `latest` and preferred for a prefix, so a file from
    /// elsewhere can never stand in for one.
    pub here: bool,
    /// The command, shell-quoted, for the note.
    pub command: String,
}

/// The run a `latest...` form picks, and a note when the choice passed over
/// a newer run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Picked {
    pub id: String,
    pub note: Option<String>,
}

/// The forms of `latest`: name, then whether it is this kind.
const FORMS: [&str; 3] = ["latest", "latest-paper", "latest-any"];

/// Splits `latest-paper~2` into (`latest-paper`, Some(2)); `None` when the
/// text is no `latest` form; `Some((form, None))` when N is malformed.
pub(crate) fn latest_form(lower: &str) -> Option<(&'static str, Option<usize>)> {
    let (stem, back) = match lower.split_once('~') {
        Some((stem, back)) => (stem, Some(back)),
        None => (lower, None),
    };
    let form = *FORMS.iter().find(|f| **f == stem)?;
    match back {
        None => Some((form, Some(0))),
        Some(n) => Some((form, n.parse().ok())),
    }
}

/// Resolves a `latest` form against `rows` (newest first); `None` when the
/// history is too short for `~N`.
pub(crate) fn pick(form: &str, back: usize, rows: &[Listed]) -> Option<Picked> {
    let newest = rows.first()?;
    let pool: Vec<&Listed> = match form {
        "latest-any" => rows.iter().collect(),
        "latest-paper" => rows.iter().filter(|r| r.kind == Kind::Paper).collect(),
        _ => {
            let runs_here: Vec<&Listed> = rows
                .iter()
                .filter(|r| r.kind == Kind::Run && r.here)
                .collect();
            if runs_here.is_empty() {
                rows.iter().filter(|r| r.here).collect()
            } else {
                runs_here
            }
        }
    };
    let chosen = pool.get(back)?;
    let note = (form == "latest" && back == 0 && chosen.id != newest.id).then(|| {
        let why = if chosen.kind == Kind::Run {
            "the newest `run` made on this host"
        } else {
            "the newest run made on this host, which has no `run` stored"
        };
        format!(
            "`latest` is run {}, {why}; the newest stored run, {} (host {}, `{}`), is `latest-any`",
            chosen.id, newest.id, newest.host, newest.command
        )
    });
    Some(Picked {
        id: chosen.id.clone(),
        note,
    })
}

impl Store {
    /// Turns what the user typed into a stored run id.
    ///
    /// Accepted: an exact id, `latest` (the newest `run` made on this
    /// host), `latest-paper`, `latest-any`, each with `~N` (N runs before),
    /// or a prefix that matches exactly one id (case-insensitive).
    pub fn resolve_id(&self, id: &str) -> Result<String, StoreError> {
        Ok(self.resolve_id_noting(id)?.0)
    }

    /// [`Store::resolve_id`], with a note when `latest` passed over a newer
    /// run (a `paper`, a suite command, an imported run) to say which run
    /// was chosen and why.
    pub fn resolve_id_noting(&self, id: &str) -> Result<(String, Option<String>), StoreError> {
        let listed = self.listed().map_err(|e| self.err(e))?;
        let known: Vec<String> = listed.iter().map(|r| r.id.clone()).collect();
        let wanted = id.trim();
        let not_found = || StoreError::NotFound {
            id: id.to_string(),
            known: known.clone(),
        };
        if wanted.is_empty() {
            return Err(not_found());
        }
        if known.iter().any(|k| k == wanted) {
            return Ok((wanted.to_string(), None));
        }
        let lower = wanted.to_ascii_lowercase();
        if let Some((form, back)) = latest_form(&lower) {
            let back = back.ok_or_else(not_found)?;
            let picked = pick(form, back, &listed).ok_or_else(not_found)?;
            return Ok((picked.id, picked.note));
        }
        // Runs made here first: an imported id can neither shadow nor make
        // ambiguous a prefix of one of them.
        let prefixed = |here_only: bool| -> Vec<String> {
            listed
                .iter()
                .filter(|r| !here_only || r.here)
                .filter(|r| r.id.to_ascii_lowercase().starts_with(&lower))
                .map(|r| r.id.clone())
                .collect()
        };
        let mut matches = prefixed(true);
        if matches.is_empty() {
            matches = prefixed(false);
        }
        match matches.len() {
            0 => Err(not_found()),
            1 => Ok((matches[0].clone(), None)),
            _ => Err(StoreError::Ambiguous {
                prefix: id.to_string(),
                matches,
            }),
        }
    }

    /// Every run's id, kind and host, newest first.
    fn listed(&self) -> rusqlite::Result<Vec<Listed>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, command, host, pid_host FROM runs ORDER BY started_at DESC, rowid DESC",
        )?;
        let here = this_host();
        let rows = stmt.query_map([], |r| {
            let command: String = r.get(1)?;
            let mut words: Vec<String> = serde_json::from_str(&command).unwrap_or_default();
            // The program as a name, not the path it was started from.
            if let Some(program) = words.first_mut() {
                if let Some(name) = Path::new(program.as_str()).file_name() {
                    *program = name.to_string_lossy().into_owned();
                }
            }
            Ok(Listed {
                id: r.get(0)?,
                kind: kind_of(&words),
                host: r.get(2)?,
                here: r.get::<_, Option<String>>(3)?.as_deref() == Some(here.as_str()),
                command: crate::shell_join(&words),
            })
        })?;
        rows.collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, kind: Kind, host: &str) -> Listed {
        Listed {
            id: id.into(),
            kind,
            host: host.into(),
            here: host == "here",
            command: format!("cryptobench {kind:?}"),
        }
    }

    #[test]
    fn kinds_come_from_the_subcommand_after_the_options() {
        let k = |words: &[&str]| kind_of(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>());
        assert_eq!(
            k(&["cryptobench", "--db", "x.db", "--quick", "run"]),
            Kind::Run
        );
        assert_eq!(k(&["cryptobench", "paper", "aegis"]), Kind::Paper);
        assert_eq!(k(&["cryptobench", "hash", "--no-peers"]), Kind::Other);
        assert_eq!(k(&[]), Kind::Other);
    }

    #[test]
    fn latest_is_the_newest_run_here_and_says_what_it_passed_over() {
        let rows = vec![
            row("p", Kind::Paper, "here"),
            row("imported", Kind::Run, "there"),
            row("r2", Kind::Run, "here"),
            row("h", Kind::Other, "here"),
            row("r1", Kind::Run, "here"),
        ];
        let got = pick("latest", 0, &rows).unwrap();
        assert_eq!(got.id, "r2");
        let note = got.note.unwrap();
        assert!(note.contains("r2") && note.contains("latest-any"), "{note}");
        assert_eq!(pick("latest", 1, &rows).unwrap().id, "r1");
        assert!(pick("latest", 2, &rows).is_none());
        assert_eq!(pick("latest-paper", 0, &rows).unwrap().id, "p");
        assert_eq!(pick("latest-any", 1, &rows).unwrap().id, "imported");
        // No `run` at all: the newest run made here; never one from elsewhere.
        let suites_only = vec![
            row("h2", Kind::Other, "here"),
            row("h1", Kind::Other, "here"),
        ];
        let got = pick("latest", 1, &suites_only).unwrap();
        assert_eq!((got.id.as_str(), got.note), ("h1", None));
        let elsewhere = vec![row("x", Kind::Run, "there")];
        assert!(pick("latest", 0, &elsewhere).is_none());
    }

    #[test]
    fn latest_forms_parse() {
        assert_eq!(latest_form("latest"), Some(("latest", Some(0))));
        assert_eq!(
            latest_form("latest-paper~2"),
            Some(("latest-paper", Some(2)))
        );
        assert_eq!(latest_form("latest-any~x"), Some(("latest-any", None)));
        assert_eq!(latest_form("latestx"), None);
        assert_eq!(latest_form("2026"), None);
    }
}
