//! `cryptobench serve-cells` (hidden): this build's native cases served
//! over the runtime protocol, so another build's `ab` can time them in the
//! same rounds as its own.
//!
//! The conversation is the one every language runner speaks (JSON lines:
//! `hello`, `prepare`, `time`, `release`; end of input ends the process).
//! `prepare` names a cell the way `ab` planned it (suite, primitive,
//! backend, operation, size, parameters, and the plan's `quick`, `full` and
//! `backends`); the suite plans it here with the same options and the case
//! is built and checked as `run` would. `time` times one batch with the
//! engine's own batch timer, so a served case is timed exactly as the
//! engine times a native one. Nothing but answers goes to stdout.

use anyhow::Result;
use cryptobench_core::{Case, CaseError, CheckOutcome, PlannedCase, RunConfig, Setup};
use cryptobench_engine::sample::clock::MonotonicClock;
use cryptobench_engine::sample::sampling;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// The suites whose cases this build serves: native suites whose cases
/// are one process's work (no peers, no runtimes, no external servers).
pub const SERVED_SUITES: [&str; 5] = ["hash", "cipher", "aead", "ecc", "argon2"];

/// This build as its `hello` names it: version, revision and, in a
/// test-only build, the slowdown it injects.
pub fn build_name() -> String {
    let mut name = format!(
        "cryptobench {} ({})",
        env!("CARGO_PKG_VERSION"),
        env!("CRYPTOBENCH_GIT_REVISION")
    );
    if let Some(what) = crate::inject::described() {
        name.push_str(&format!(" [test build: {what}]"));
    }
    name
}

/// What the plan of one suite depends on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct PlanKey {
    suite: String,
    quick: bool,
    full: bool,
    backends: Option<Vec<String>>,
}

/// The cases prepared so far and the plans they came from.
#[derive(Default)]
struct Server {
    plans: BTreeMap<PlanKey, Result<Vec<PlannedCase>, String>>,
    cases: BTreeMap<u64, Box<dyn Case>>,
}

/// Serves requests from stdin until it closes; exit code 0.
pub fn serve() -> Result<u8> {
    let mut server = Server::default();
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(req) => server.answer(&req),
            Err(e) => refused(format!("the request is not JSON ({e})")),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(0)
}

fn refused(why: impl Into<String>) -> Value {
    json!({"ok": false, "error": why.into()})
}

impl Server {
    fn answer(&mut self, req: &Value) -> Value {
        let id = req.get("id").and_then(Value::as_u64);
        match (req.get("op").and_then(Value::as_str), id) {
            (Some("hello"), _) => json!({
                "ok": true,
                "protocol": cryptobench_runtime::PROTOCOL_VERSION,
                "version": build_name(),
                "libraries": {},
                "families": {},
                "suites": SERVED_SUITES,
            }),
            (Some("prepare"), Some(id)) => self.prepare(id, req.get("cell")),
            (Some("time"), Some(id)) => {
                let iters = req.get("iters").and_then(Value::as_u64).unwrap_or(1);
                self.time(id, iters)
            }
            (Some("release"), Some(id)) => {
                self.cases.remove(&id);
                json!({"ok": true})
            }
            (Some(op), None) if op != "hello" => refused(format!("`{op}` needs an id")),
            (op, _) => refused(format!(
                "unknown request {}; accepted: hello, prepare, time, release",
                op.unwrap_or("(no op)")
            )),
        }
    }

    fn plan(&mut self, key: PlanKey) -> Result<&[PlannedCase], String> {
        let planned = self.plans.entry(key.clone()).or_insert_with(|| {
            let suite = crate::registry::suites()
                .into_iter()
                .find(|s| s.name() == key.suite && SERVED_SUITES.contains(&s.name()))
                .ok_or_else(|| format!("this build serves no suite `{}`", key.suite))?;
            let mut cfg = RunConfig::quick_if(key.quick);
            cfg.full = key.full;
            cfg.backends = key.backends.clone();
            suite.plan(&cfg).map_err(|e| e.to_string())
        });
        planned.as_deref().map_err(Clone::clone)
    }

    fn prepare(&mut self, id: u64, cell: Option<&Value>) -> Value {
        let Some(cell) = cell else {
            return refused("prepare without a cell");
        };
        let text = |k: &str| cell.get(k).and_then(Value::as_str).unwrap_or_default();
        let key = PlanKey {
            suite: text("suite").to_string(),
            quick: cell.get("quick").and_then(Value::as_bool).unwrap_or(false),
            full: cell.get("full").and_then(Value::as_bool).unwrap_or(false),
            backends: cell.get("backends").and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(|b| b.as_str().map(String::from))
                    .collect()
            }),
        };
        let params: BTreeMap<String, String> = cell
            .get("params")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        let size = cell.get("size").and_then(Value::as_u64).unwrap_or(0);
        let (primitive, backend, operation) =
            (text("primitive"), text("backend"), text("operation"));
        let planned = match self.plan(key) {
            Ok(p) => p,
            Err(why) => return json!({"ok": true, "unavailable": why}),
        };
        let found = planned.iter().find(|p| {
            let s = &p.spec;
            s.primitive == primitive
                && s.backend == backend
                && s.operation == operation
                && s.input_bytes == size
                && s.threads == 1
                && s.params == params
        });
        let Some(found) = found else {
            return json!({"ok": true, "unavailable": format!(
                "{} plans no {primitive} {operation} ({backend}, {size} bytes) with these parameters",
                build_name()
            )});
        };
        let factory = match &found.setup {
            Setup::Ready(f) => f.clone(),
            Setup::Skipped(why) => return json!({"ok": true, "skipped": why}),
            Setup::Unavailable(why) => return json!({"ok": true, "unavailable": why}),
        };
        let spec = found.spec.clone();
        let mut case = match factory() {
            Ok(c) => c,
            Err(CaseError::Skipped(why)) => return json!({"ok": true, "skipped": why}),
            Err(CaseError::Unavailable(why)) => return json!({"ok": true, "unavailable": why}),
            Err(CaseError::Failed(why)) => return refused(why),
        };
        let checks: Vec<Value> = case
            .checks()
            .into_iter()
            .map(|c| {
                let outcome = match c.outcome {
                    CheckOutcome::Pass => "pass",
                    CheckOutcome::Skipped => "skipped",
                    CheckOutcome::Fail => "fail",
                };
                json!({"name": c.name, "outcome": outcome, "detail": c.detail})
            })
            .collect();
        self.cases.insert(id, crate::inject::wrap(case, &spec));
        json!({"ok": true, "checks": checks})
    }

    fn time(&mut self, id: u64, iters: u64) -> Value {
        let Some(case) = self.cases.get_mut(&id) else {
            return refused(format!("no prepared case {id}"));
        };
        match sampling::time_batch(case.as_mut(), iters.max(1), &MonotonicClock) {
            Ok(t) => json!({"ok": true, "ns": t.wall_ns, "iters": t.iters}),
            Err(e) => refused(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_hash_case_is_prepared_timed_and_released() {
        let mut s = Server::default();
        let hello = s.answer(&json!({"op": "hello"}));
        assert_eq!(
            hello["protocol"],
            json!(cryptobench_runtime::PROTOCOL_VERSION)
        );
        let planned = s
            .plan(PlanKey {
                suite: "hash".into(),
                quick: true,
                full: false,
                backends: None,
            })
            .expect("hash plans");
        let spec = planned
            .iter()
            .find(|p| matches!(p.setup, Setup::Ready(_)) && p.spec.threads == 1)
            .expect("a ready hash case")
            .spec
            .clone();
        let cell = json!({"suite": "hash", "primitive": spec.primitive, "backend": spec.backend,
            "operation": spec.operation, "size": spec.input_bytes, "params": spec.params,
            "quick": true});
        let prepared = s.answer(&json!({"op": "prepare", "id": 1, "cell": cell}));
        assert_eq!(prepared["ok"], json!(true), "{prepared}");
        assert!(prepared.get("unavailable").is_none(), "{prepared}");
        let timed = s.answer(&json!({"op": "time", "id": 1, "iters": 3}));
        assert!(timed["ns"].as_f64().is_some_and(|ns| ns > 0.0), "{timed}");
        assert_eq!(timed["iters"], json!(3));
        assert_eq!(
            s.answer(&json!({"op": "release", "id": 1}))["ok"],
            json!(true)
        );
        assert_eq!(
            s.answer(&json!({"op": "time", "id": 1, "iters": 3}))["ok"],
            json!(false)
        );
        let mut other = cell.clone();
        other["primitive"] = json!("NO-SUCH-HASH");
        let missing = s.answer(&json!({"op": "prepare", "id": 2, "cell": other}));
        assert!(missing["unavailable"].as_str().is_some(), "{missing}");
    }
}
