//! Cases measured inside a runtime.
//!
//! A suite's cases of one runtime share two runner processes
//! ([`SharedRunner`]): the first case built starts them, a runner that
//! died is replaced by the next case built, and the processes end when the
//! plan (and with it every factory holding the [`SharedRunner`]) is
//! dropped. A [`RunnerCase`] prepares itself in both (the runtime builds
//! keys and buffers and runs the checks), adds the native half of the
//! interop checks, and answers [`Case::time_batch`] with a runner's own
//! monotonic-clock measurement of the batch; the engine's clock never
//! times the pipe.
//!
//! Why two: a runtime case's speed depends on its process (hash seeds, what
//! the JIT compiled, where the collector left the heap). Between two quick
//! runs here runtime cases moved 3-10% each, in both directions, while the
//! native cases of their groups stayed within 1%. A case times its batches
//! in the two processes in turn and tags each sample with its process
//! ([`BatchTime::process`]), so every run measures how far a fresh
//! process alone moves its runtime's cases, and `compare` holds them to it.

use crate::interop::Interop;
use crate::process::{Runner, RunnerCommand, RunnerError};
use cryptobench_core::{BatchTime, Case, CaseError, CheckOutcome, CheckResult};
use cryptobench_engine::host::affinity;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// The runner of one suite, started on first use.
#[derive(Debug)]
pub struct RunnerSlot {
    cmd: RunnerCommand,
    runner: Option<Runner>,
    next_id: u64,
    /// Interop checks already made, by primitive and API, so each runs once.
    interop_done: BTreeMap<String, Vec<CheckResult>>,
    /// The runner process and whether its threads are on every core (a
    /// multi-core case's batch) or on the measuring core, as last set.
    placed: Option<(u32, bool)>,
}

/// One runner process, shared by the cases of a suite.
type Slot = Arc<Mutex<RunnerSlot>>;

/// The two runner processes the cases of a suite share.
#[derive(Debug, Clone)]
pub struct SharedRunner {
    slots: [Slot; 2],
}

/// Two slots that each start `cmd` when a case first needs it.
pub fn shared(cmd: RunnerCommand) -> SharedRunner {
    let slot = |cmd: RunnerCommand| {
        Arc::new(Mutex::new(RunnerSlot {
            cmd,
            runner: None,
            next_id: 1,
            interop_done: BTreeMap::new(),
            placed: None,
        }))
    };
    SharedRunner {
        slots: [slot(cmd.clone()), slot(cmd)],
    }
}

fn lock(s: &Slot) -> MutexGuard<'_, RunnerSlot> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

impl RunnerSlot {
    /// The live runner, started (or restarted after a death) on demand.
    pub fn runner(&mut self) -> Result<&mut Runner, RunnerError> {
        if self.runner.as_ref().is_none_or(Runner::is_dead) {
            self.runner = Some(Runner::spawn(&self.cmd)?);
        }
        self.runner
            .as_mut()
            .ok_or_else(|| RunnerError::Spawn(format!("{} runner vanished", self.cmd.runtime)))
    }
}

fn case_error(e: RunnerError) -> CaseError {
    CaseError::Failed(e.to_string())
}

/// Turns the runner's check objects into [`CheckResult`]s, each name
/// prefixed with the runtime's (`php kat:...`).
pub fn parse_checks(runtime: &str, v: &Value) -> Vec<CheckResult> {
    let Some(list) = v.get("checks").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .map(|c| {
            let name = c.get("name").and_then(Value::as_str).unwrap_or("?");
            let detail = c.get("detail").and_then(Value::as_str).unwrap_or("");
            let outcome = match c.get("outcome").and_then(Value::as_str) {
                Some("pass") => CheckOutcome::Pass,
                Some("skipped") => CheckOutcome::Skipped,
                _ => CheckOutcome::Fail,
            };
            CheckResult {
                name: format!("{runtime} {name}"),
                outcome,
                detail: detail.to_string(),
            }
        })
        .collect()
}

/// One case prepared in one runner process.
#[derive(Debug)]
struct Prepared {
    slot: Slot,
    id: u64,
    pid: u32,
}

/// One case prepared inside the runners.
#[derive(Debug)]
pub struct RunnerCase {
    /// The case in each runner process that prepared it: two, or one when
    /// the second could not.
    halves: Vec<Prepared>,
    /// The half that times the next batch.
    turn: usize,
    checks: Vec<CheckResult>,
    fixed: Option<u64>,
    /// Cores one operation keeps busy: more than one puts the runner on
    /// every core for this case's batches ([`affinity::set_process`]).
    cores: u32,
    /// Last measured ns per operation, to size the next deadline.
    last_ns_per_op: Option<f64>,
}

impl RunnerCase {
    /// Prepares a case in the shared runners: `request` is the prepare
    /// message without `op` and `id` (a `cell` with its `kats`, or a
    /// runtime's own `case` object). The first case of each `interop` key
    /// also runs the interop checks, and later cases of that key carry
    /// their results. A case this runtime cannot run comes back as
    /// [`CaseError::Unavailable`] with the runtime's reason (a function or
    /// algorithm it lacks), or [`CaseError::Skipped`] when a parameter rule
    /// of its API refuses it.
    ///
    /// The second runner prepares the case too, with the same checks; a
    /// check failing there fails the case. When the second runner cannot
    /// prepare it at all, the case is timed in the first alone.
    pub fn prepare(
        shared: &SharedRunner,
        request: Value,
        fixed: Option<u64>,
        interop: Option<(String, Arc<dyn Interop>)>,
    ) -> Result<Self, CaseError> {
        let [first_slot, second_slot] = &shared.slots;
        // Both runners prepare at once: nothing is timed while cases are
        // built, and each runner has a core of its own.
        let (first, second) = std::thread::scope(|scope| {
            let again = request.clone();
            let second = scope.spawn(move || prepare_in(second_slot, again, None));
            let first = prepare_in(first_slot, request, interop);
            (first, second.join())
        });
        let (first, mut checks) = first?;
        let mut halves = vec![first];
        if let Ok(Ok((second, again))) = second {
            halves.push(second);
            let failed_again = again
                .into_iter()
                .filter(|c| c.outcome == CheckOutcome::Fail);
            checks.extend(failed_again.map(|c| CheckResult {
                name: format!("{} (second runner)", c.name),
                ..c
            }));
        }
        Ok(Self {
            halves,
            turn: 0,
            checks,
            fixed,
            cores: 1,
            last_ns_per_op: None,
        })
    }

    /// The runner processes that prepared this case, in the order its
    /// batches take turns.
    pub fn pids(&self) -> Vec<u32> {
        self.halves.iter().map(|h| h.pid).collect()
    }

    /// The case keeps `cores` cores busy per operation (a two-lane Argon2
    /// hash): its batches run with the runner on every core, the others'
    /// on the measuring core.
    pub fn with_cores(mut self, cores: u32) -> Self {
        self.cores = cores.max(1);
        self
    }

    /// How long a batch of `iters` may take before the runner counts as hung.
    fn deadline(&self, iters: u64, base: Duration) -> Duration {
        match self.last_ns_per_op {
            // Twenty times the expected batch, never below the base deadline.
            Some(ns) => {
                Duration::from_secs_f64((ns * iters as f64 * 20.0 / 1e9).min(3600.0)).max(base)
            }
            None => base,
        }
    }
}

/// Prepares a case in one runner process: the case there and its checks
/// ([`RunnerCase::prepare`]).
fn prepare_in(
    shared: &Slot,
    mut request: Value,
    interop: Option<(String, Arc<dyn Interop>)>,
) -> Result<(Prepared, Vec<CheckResult>), CaseError> {
    let mut slot = lock(shared);
    let id = slot.next_id;
    slot.next_id += 1;
    let pending = match &interop {
        Some((key, _)) if slot.interop_done.contains_key(key) => None,
        Some((key, i)) => match i.native_artifacts() {
            Ok(native) => {
                let slot_of = if request.get("case").is_some() {
                    &mut request["case"]
                } else {
                    &mut request
                };
                slot_of["interop"] = native;
                Some((key.clone(), Arc::clone(i)))
            }
            Err(why) => {
                slot.interop_done.insert(
                    key.clone(),
                    vec![CheckResult::fail("interop:native side", why.to_string())],
                );
                None
            }
        },
        None => None,
    };
    let runtime = slot.cmd.runtime.clone();
    let runner = slot.runner().map_err(case_error)?;
    let pid = runner.pid();
    request["op"] = json!("prepare");
    request["id"] = json!(id);
    let answer = runner.request(&request).map_err(case_error)?;
    if let Some(why) = answer.get("unavailable").and_then(Value::as_str) {
        return Err(CaseError::Unavailable(why.to_string()));
    }
    if let Some(why) = answer.get("skipped").and_then(Value::as_str) {
        return Err(CaseError::Skipped(why.to_string()));
    }
    let mut checks = parse_checks(&runtime, &answer);
    if let Some((key, i)) = pending {
        let ours = format!("{runtime} interop:");
        let mut made: Vec<CheckResult> = checks
            .iter()
            .filter(|c| c.name.starts_with(&ours))
            .cloned()
            .collect();
        checks.retain(|c| !c.name.starts_with(&ours));
        match answer.get("artifacts") {
            Some(a) if !a.is_null() => {
                made.push(i.check_runtime_artifacts(&runtime, a));
                made.extend(i.more_runtime_checks(&runtime, a));
            }
            _ => made.push(CheckResult::fail(
                crate::interop::back_check(&runtime),
                "the runner returned no artifacts",
            )),
        }
        slot.interop_done.insert(key, made);
    }
    if let Some((key, _)) = &interop {
        if let Some(done) = slot.interop_done.get(key) {
            checks.extend(done.iter().cloned());
        }
    }
    Ok((
        Prepared {
            slot: Arc::clone(shared),
            id,
            pid,
        },
        checks,
    ))
}

impl Case for RunnerCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.clone()
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        // Only reached by a caller that ignores `time_batch`.
        self.time_batch(iters)
            .map(|r| r.map(|_| ()))
            .unwrap_or(Ok(()))
    }

    fn placement_free(&self) -> bool {
        true
    }

    fn time_batch(&mut self, iters: u64) -> Option<Result<BatchTime, CaseError>> {
        let process = self.turn;
        self.turn = (self.turn + 1) % self.halves.len();
        let half = &self.halves[process];
        let mut slot = lock(&half.slot);
        let RunnerSlot {
            cmd,
            runner,
            placed,
            ..
        } = &mut *slot;
        let runner = match runner.as_mut() {
            Some(r) if !r.is_dead() && r.pid() == half.pid => r,
            _ => {
                return Some(Err(CaseError::Failed(format!(
                    "the {} runner that prepared this case is gone",
                    cmd.runtime
                ))))
            }
        };
        // Where the runner's threads may run, set only when it changes.
        let place = (half.pid, self.cores > 1);
        if *placed != Some(place) && affinity::set_process(place.0, place.1) {
            *placed = Some(place);
        }
        let deadline = self.deadline(iters, runner.timeout());
        let answer = runner.request_within(
            &json!({"op": "time", "id": half.id, "iters": iters}),
            deadline,
        );
        drop(slot);
        let two = self.halves.len() == 2;
        Some(answer.map_err(case_error).and_then(|v| {
            let ns = v
                .get("ns")
                .and_then(Value::as_f64)
                .ok_or_else(|| CaseError::Failed("time answer without ns".into()))?;
            let done = v.get("iters").and_then(Value::as_u64).unwrap_or(iters);
            self.last_ns_per_op = Some(ns / done.max(1) as f64);
            Ok(BatchTime {
                iters: done,
                wall_ns: ns,
                cpu_ns: None,
                process: two.then_some(process as u8),
            })
        }))
    }

    fn fixed_iterations(&self) -> Option<u64> {
        self.fixed
    }
}

impl Drop for RunnerCase {
    fn drop(&mut self) {
        for half in &self.halves {
            let mut slot = lock(&half.slot);
            if let Some(r) = slot.runner.as_mut() {
                if !r.is_dead() && r.pid() == half.pid {
                    let _ = r.request_within(
                        &json!({"op": "release", "id": half.id}),
                        Duration::from_secs(10),
                    );
                }
            }
        }
    }
}
