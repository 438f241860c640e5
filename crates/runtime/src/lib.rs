//! The runtime layer: cryptography measured from inside other languages.
//!
//! Users of PHP, Python, Node.js, Go and Java want the figures their own
//! language gets, and what it costs over the C library beneath. Each such
//! language is a [`Runtime`]: an interpreter or toolchain found on the
//! machine ([`discover`]), a runner in that language carried inside the
//! binary ([`script`]), and one runner process per suite speaking the same
//! JSON-lines protocol ([`process`]): `hello`, `offers`, `prepare`, `time`,
//! `release`. The runner builds inputs, runs the checks and times a batch
//! with its own monotonic clock; calibration, statistics and storage stay
//! in Rust.
//!
//! The protocol is cell-driven ([`cell`]): `prepare` carries the native
//! cell itself (suite, primitive, operation, parameters, size) and the
//! suite's known-answer vectors ([`vectors`]); the runner maps the cell to
//! its own API or answers `unavailable: reason` / `skipped: reason`. The
//! runner-backed case ([`case`]), the choice of native cells ([`twin`])
//! and the native half of the interop checks ([`interop`], [`keys`]) are
//! shared by every runtime, so a new one is its runner, one module
//! ([`python`] is the model) and one registry line.
//!
//! A runtime's cases are twins: each stands beside a native cell with the
//! same suite, primitive, operation, parameters and size. The twin policy is
//! one function ([`twins_every_cell`]): headline cells by default, every
//! cell with `--full`, `--backend NAME` or `paper`.
//!
//! The binary knows runtimes only through this trait and its registry list;
//! a runtime's own module is the only place that names it.
#![deny(missing_docs)]

pub mod cache;
pub mod case;
pub mod cell;
pub mod discover;
pub mod go;
pub mod interop;
pub mod java;
pub mod keys;
pub mod node;
pub mod php;
pub mod process;
pub mod python;
pub mod script;
pub mod siv_interop;
pub mod twin;
pub mod vectors;

pub use cryptobench_core::advice::RUNTIME_PARAM;
use cryptobench_core::{BackendInfo, CaseSpec, PlannedCase, RunConfig};
use serde_json::Value;
use std::collections::BTreeMap;

pub use process::{Runner, RunnerCommand, RunnerError};

/// The protocol version this binary speaks; a runner's `hello` must answer
/// the same `"protocol"`.
pub const PROTOCOL_VERSION: u64 = 1;

/// A language whose cryptography the suites measure beside the native rows.
pub trait Runtime: Send + Sync {
    /// Backend name in results and on the command line (`php`).
    fn name(&self) -> &'static str;

    /// The backend as recorded with a run: its version with the libraries
    /// beneath, or why it is unavailable here.
    fn backend_info(&self) -> BackendInfo;

    /// The native cells of `suite` this runtime twins by default: the
    /// headline ones a reader compares first.
    fn headline_cells(&self, suite: &str, native: &[CaseSpec]) -> Vec<CaseSpec>;

    /// This runtime's cases beside the cells of `native` (already chosen by
    /// the twin policy) that it can reach; empty for a suite it has nothing
    /// for, or when `--backend` leaves it out.
    fn plan(&self, suite: &str, cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase>;
}

/// The twin policy: every native cell gets a twin with `--full`, when
/// `--backend` names this runtime, or when the command asks for it
/// (`forced`, as `paper` does); otherwise only the headline cells.
pub fn twins_every_cell(runtime: &str, cfg: &RunConfig, forced: bool) -> bool {
    let named = cfg
        .backends
        .as_ref()
        .is_some_and(|b| b.iter().any(|n| n == runtime));
    forced || cfg.full || named
}

/// The twins `runtime` plans beside `native` (the cells the suite will
/// measure), after the twin policy. Each carries the runtime's name as
/// its [`RUNTIME_PARAM`], so reports and advice tell runtime rows from
/// the libraries beneath without knowing any runtime.
///
/// A cell its suite planned [`CaseSpec::without_twins`] gets none: the
/// Argon2 short tune's choices answer the advice and the grid's cells
/// already carry the runtimes' twins; `--full`'s Argon2 points past the
/// shared sweep reproduce seed 000's setup, and a twin of a hash of
/// seconds would cost minutes for a ratio the sweep already gives.
pub fn plan_twins(
    runtime: &dyn Runtime,
    suite: &str,
    cfg: &RunConfig,
    native: &[CaseSpec],
    forced: bool,
) -> Vec<PlannedCase> {
    let native: Vec<CaseSpec> = native.iter().filter(|c| c.twinned).cloned().collect();
    let mut twins = if twins_every_cell(runtime.name(), cfg, forced) {
        runtime.plan(suite, cfg, &native)
    } else {
        runtime.plan(suite, cfg, &runtime.headline_cells(suite, &native))
    };
    for t in &mut twins {
        t.spec
            .params
            .insert(RUNTIME_PARAM.to_string(), runtime.name().to_string());
    }
    twins
}

/// A JSON object of a runner's answer as a map, keeping the entries `entry`
/// can read; absent or not an object: empty.
pub fn object_map<T>(
    v: Option<&Value>,
    entry: impl Fn(&Value) -> Option<T>,
) -> BTreeMap<String, T> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, e)| entry(e).map(|e| (k.clone(), e)))
                .collect()
        })
        .unwrap_or_default()
}

/// What every runner's `hello` answers, whatever its language.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Handshake {
    /// The protocol version the runner speaks.
    pub protocol: u64,
    /// The runtime's own version (`8.2.36`).
    pub version: String,
    /// Library name -> version (`openssl` -> `OpenSSL 3.0.22 ...`).
    pub libraries: BTreeMap<String, String>,
    /// Primitive families: `None` = available, else the reason.
    pub families: BTreeMap<String, Option<String>>,
}

impl Handshake {
    /// Parses the common part of a `hello` answer, refusing a runner that
    /// speaks another protocol version.
    pub fn parse(runtime: &str, v: &Value) -> Result<Self, RunnerError> {
        let protocol = v.get("protocol").and_then(Value::as_u64).unwrap_or(0);
        if protocol != PROTOCOL_VERSION {
            return Err(RunnerError::Protocol(format!(
                "{runtime} runner speaks protocol version {protocol}, this binary speaks {PROTOCOL_VERSION} \
                 (a runner script from another release? unset its override variable)"
            )));
        }
        let version = v
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let libraries = object_map(v.get("libraries"), |s| s.as_str().map(String::from));
        let families = object_map(v.get("families"), |f| {
            let ok = f.get("available").and_then(Value::as_bool) == Some(true);
            Some((!ok).then(|| {
                f.get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("unavailable")
                    .to_string()
            }))
        });
        Ok(Self {
            protocol,
            version,
            libraries,
            families,
        })
    }

    /// `None` when `family` is available, else why not.
    pub fn family(&self, family: &str) -> Option<String> {
        match self.families.get(family) {
            Some(why) => why.clone(),
            None => Some(format!("this runner does not report `{family}`")),
        }
    }

    /// A library's version, when the runner reported it.
    pub fn library(&self, name: &str) -> Option<&str> {
        self.libraries.get(name).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_handshake_is_versioned() {
        let hello = json!({"ok": true, "protocol": 1, "version": "8.2.0",
            "libraries": {"openssl": "OpenSSL 3.0"},
            "families": {"sodium": {"available": true},
                         "mcrypt": {"available": false, "reason": "not loaded"}}});
        let h = Handshake::parse("php", &hello).expect("hello");
        assert_eq!(h.version, "8.2.0");
        assert_eq!(h.library("openssl"), Some("OpenSSL 3.0"));
        assert_eq!(h.family("sodium"), None);
        assert_eq!(h.family("mcrypt").as_deref(), Some("not loaded"));
        assert!(h.family("aegis").is_some());
        let old = json!({"ok": true, "version": "8.2.0"});
        let why = Handshake::parse("php", &old).unwrap_err().to_string();
        assert!(
            why.contains("protocol version 0") && why.contains("speaks 1"),
            "{why}"
        );
    }

    /// Twins every cell it is given, to show which cells reach a runtime.
    struct EveryCell;

    impl Runtime for EveryCell {
        fn name(&self) -> &'static str {
            "every"
        }
        fn backend_info(&self) -> BackendInfo {
            BackendInfo {
                name: "every".into(),
                version: String::new(),
                unavailable: None,
            }
        }
        fn headline_cells(&self, _suite: &str, native: &[CaseSpec]) -> Vec<CaseSpec> {
            native.to_vec()
        }
        fn plan(&self, _suite: &str, _cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase> {
            native
                .iter()
                .map(|c| PlannedCase::skipped(c.clone(), "planned"))
                .collect()
        }
    }

    #[test]
    fn a_cell_planned_without_twins_gets_none() {
        let grid = CaseSpec::new("argon2", "Argon2id", "libargon2", "", "hash");
        let tuned = grid.clone().param("m_kib", 1).without_twins();
        let twins = plan_twins(
            &EveryCell,
            "argon2",
            &RunConfig::default(),
            &[grid, tuned],
            true,
        );
        assert_eq!(twins.len(), 1);
        assert!(!twins[0].spec.params.contains_key("m_kib"));
        assert_eq!(
            twins[0].spec.params.get(RUNTIME_PARAM).map(String::as_str),
            Some("every")
        );
    }

    #[test]
    fn the_twin_policy_widens_on_full_backend_or_request() {
        let mut cfg = RunConfig::default();
        assert!(!twins_every_cell("php", &cfg, false));
        assert!(twins_every_cell("php", &cfg, true));
        cfg.backends = Some(vec!["openssl".into()]);
        assert!(!twins_every_cell("php", &cfg, false));
        cfg.backends = Some(vec!["openssl".into(), "php".into()]);
        assert!(twins_every_cell("php", &cfg, false));
        cfg.backends = None;
        cfg.full = true;
        assert!(twins_every_cell("php", &cfg, false));
    }
}
