//! The benchmark flow shared by `run`, every suite command and `paper`:
//! plan, open the store, measure with a progress bar, store each
//! measurement as it finishes, mark the run, print and export.

use crate::args::Global;
use crate::output;
use anyhow::{Context, Result};
use cryptobench_core::{
    units, Budget, CaseSpec, Error, PlannedCase, Run, RunConfig, RunStatus, Setup, Suite, SCHEMA,
};
use cryptobench_engine::host::fingerprint;
use cryptobench_engine::sample::interrupt;
use cryptobench_engine::schedule::runner;
use cryptobench_report::precision;
use cryptobench_runtime::{plan_twins, Runtime};
use cryptobench_store::output::{self as out_file, Access, OutputError, Outputs};
use cryptobench_store::{OutputTarget, RecordError, Recorder, Store, StoreError};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// Exit code when the user interrupted the run (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Exit code when the run was stopped by SIGTERM (128 + 15).
pub const EXIT_TERMINATED: u8 = 143;

/// Set by the SIGTERM handler, so the exit code can tell it from Ctrl-C.
static TERMINATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Maps an error to the exit code DESIGN.md promises: 2 for usage errors
/// (including unknown runs and unusable databases or paths), 1 otherwise.
pub fn exit_code_for(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if let Some(err) = cause.downcast_ref::<Error>() {
            return if err.is_usage() { 2 } else { 1 };
        }
        if cause.downcast_ref::<StoreError>().is_some()
            || cause.downcast_ref::<OutputError>().is_some()
            || cause.downcast_ref::<clap::Error>().is_some()
        {
            return 2;
        }
    }
    1
}

/// Turns the global flags into the configuration suites see.
pub fn run_config(g: &Global) -> Result<RunConfig> {
    let mut budget = if g.quick {
        Budget::quick()
    } else if g.full {
        Budget::full()
    } else {
        Budget::standard()
    };
    if let Some(t) = &g.time {
        budget.time_per_case =
            units::parse_duration(t).map_err(|e| Error::invalid_value("--time", e))?;
        // Asked for by name, the time per case is not paced away.
        budget.measuring_limit = None;
    }
    if let Some(t) = &g.min_sample {
        budget.min_sample =
            units::parse_duration(t).map_err(|e| Error::invalid_value("--min-sample", e))?;
    }
    if let Some(p) = &g.precision {
        budget.precision = parse_precision(p)?;
    }
    if let Some(s) = &g.samples {
        budget.samples = parse_count("--samples", s, 3, 100_000)? as usize;
        budget.min_slow_samples = budget.min_slow_samples.min(budget.samples);
    }
    if let Some(text) = &g.max_input {
        let bytes = units::parse_size_within(text, 1, MAX_INPUT_CEILING)
            .map_err(|e| Error::invalid_value("--max-input", e))?;
        cryptobench_core::input::set_max_input(bytes);
    }
    let threads = match &g.threads {
        Some(t) => parse_count("--threads", t, 1, 1024)? as u32,
        None => 1,
    };
    let backends = match &g.backend {
        Some(list) => {
            let known = known_backends();
            let refs: Vec<&str> = known.iter().map(String::as_str).collect();
            Some(
                cryptobench_core::names::resolve_list("backend", list, &refs)?
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            )
        }
        None => None,
    };
    Ok(RunConfig {
        budget,
        quick: g.quick,
        full: g.full,
        backends,
        seed: g.seed,
        verbose: g.verbose,
        threads,
        time_asked: g.time.is_some(),
    })
}

/// `--precision`: a percentage (`1`, `1%`, `0.5`) between 0.1% and 50%.
pub fn parse_precision(text: &str) -> Result<f64> {
    let v: f64 = text.trim().trim_end_matches('%').parse().map_err(|_| {
        Error::usage(format!(
            "--precision: '{text}' is not a percentage (accepted: 0.1 to 50, e.g. 1 or 0.5%)"
        ))
    })?;
    if !(0.1..=50.0).contains(&v) {
        return Err(Error::usage(format!(
            "--precision: {v} is out of range (accepted: 0.1 to 50 percent)"
        ))
        .into());
    }
    Ok(v / 100.0)
}

/// The largest `--max-input`: 4 GiB, beyond any key, vector or password file.
const MAX_INPUT_CEILING: u64 = 4 << 30;

/// A whole number within bounds, or a usage error naming the flag.
pub fn parse_count(flag: &str, text: &str, min: u64, max: u64) -> Result<u64> {
    units::parse_count(text, min, max).map_err(|e| Error::invalid_value(flag, e).into())
}

/// Every backend name any suite knows, plus the peers.
pub fn known_backends() -> Vec<String> {
    let mut names: Vec<String> = vec!["peer:openssl-speed".into(), "peer:argon2-cli".into()];
    names.extend(
        crate::registry::runtimes()
            .iter()
            .map(|rt| rt.name().to_string()),
    );
    for s in crate::registry::suites() {
        for b in s.backends() {
            if !names.contains(&b.name) {
                names.push(b.name);
            }
        }
    }
    names
}

/// A sortable, unique run id: `YYYYMMDD-HHMMSS-xxxx`.
pub fn new_run_id() -> String {
    let now = chrono::Utc::now();
    let salt =
        (now.timestamp_subsec_nanos() ^ std::process::id().wrapping_mul(2_654_435_761)) & 0xffff;
    format!("{}-{salt:04x}", now.format("%Y%m%d-%H%M%S"))
}

fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The results database this command uses (`None` with `--no-db`).
pub fn db_path(g: &Global) -> Option<PathBuf> {
    (!g.no_db).then(|| g.db.clone().unwrap_or_else(cryptobench_store::default_path))
}

/// The rules every file this command writes goes through.
pub fn outputs(g: &Global) -> Outputs {
    Outputs::new(g.force, db_path(g).as_deref())
}

/// Opens the store unless `--no-db`.
pub fn open_store(g: &Global) -> Result<Option<Store>> {
    match db_path(g) {
        Some(path) => Ok(Some(Store::open(&path)?)),
        None => Ok(None),
    }
}

/// Opens the store read-only for commands that only read it: nothing is
/// created or written, and a read-only file is fine.
pub fn open_store_for_reading(g: &Global) -> Result<Store> {
    let path =
        db_path(g).ok_or_else(|| Error::usage("this command reads stored runs; drop --no-db"))?;
    Ok(Store::open_read_only(&path)?)
}

/// A usage error unless `path` may be written: the output rules allow it
/// and a file can really be created in its directory. Checked before
/// anything runs, so a typo costs no measurement time.
pub fn check_output(g: &Global, flag: &str, path: &Path) -> Result<()> {
    let named = |e: OutputError| Error::usage(format!("{flag}: {e}"));
    outputs(g).check(path, Access::Public).map_err(named)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    out_file::probe_dir(dir).map_err(named)?;
    Ok(())
}

/// Checks every `-o` target (and `extra` files the command will write)
/// before anything runs, so a typo costs nothing.
pub fn export_targets_with(g: &Global, extra: &[(&str, &Path)]) -> Result<Vec<OutputTarget>> {
    let mut out = Vec::new();
    for spec in &g.outputs {
        let t = cryptobench_store::parse_target(spec)?;
        if let Some(path) = &t.path {
            check_output(g, &format!("-o {spec}"), path)?;
        }
        out.push(t);
    }
    let named: Vec<(String, &Path)> = g
        .outputs
        .iter()
        .zip(&out)
        .filter_map(|(spec, t)| Some((format!("-o {spec}"), t.path.as_deref()?)))
        .collect();
    out_file::distinct(
        named
            .iter()
            .map(|(flag, p)| (flag.as_str(), *p))
            .chain(extra.iter().copied()),
    )?;
    Ok(out)
}

/// [`export_targets_with`] without other files.
pub fn export_targets(g: &Global) -> Result<Vec<OutputTarget>> {
    export_targets_with(g, &[])
}

/// Where the run's JSON goes beside the database: `DIR/runs/`.
fn runs_dir(db: &Path) -> PathBuf {
    db.parent().unwrap_or(Path::new(".")).join("runs")
}

/// Creates the `runs/` directory beside the database and proves files can
/// be written there, before anything is measured.
pub fn check_runs_dir(g: &Global) -> Result<()> {
    let Some(db) = db_path(g) else {
        return Ok(());
    };
    let dir = runs_dir(&db);
    std::fs::create_dir_all(&dir).map_err(|e| {
        Error::usage(format!(
            "cannot create {} for the run's JSON: {e}; choose another --db, or --no-db",
            dir.display()
        ))
    })?;
    out_file::probe_dir(&dir)
        .map_err(|e| Error::usage(format!("{e}; choose another --db, or --no-db")))?;
    Ok(())
}

/// Writes the HTML report through the output rules.
pub fn write_report(g: &Global, path: &Path, html: &str) -> Result<()> {
    outputs(g)
        .write(path, html.as_bytes(), Access::Public)
        .map_err(|e| Error::usage(format!("cannot write the report: {e}")))?;
    Ok(())
}

/// What a benchmark produced.
pub struct Outcome {
    /// The finished run.
    pub run: Run,
    /// The suites that ran (for their summary tables).
    pub suites: Vec<Box<dyn Suite>>,
}

impl Outcome {
    /// Exit code: 143 stopped by SIGTERM, 130 interrupted, 1 when any
    /// check failed, else 0.
    pub fn exit_code(&self) -> u8 {
        match self.run.status {
            RunStatus::Interrupted if TERMINATED.load(Ordering::SeqCst) => EXIT_TERMINATED,
            RunStatus::Interrupted => EXIT_INTERRUPTED,
            RunStatus::Failed => 1,
            _ => 0,
        }
    }
}

/// A run id (and fleet) chosen by the caller instead of a fresh one: the
/// hosts of a fleet agree on theirs before measuring.
#[derive(Debug, Clone)]
pub struct RunIdentity {
    /// The run id.
    pub id: String,
    /// The fleet the run belongs to.
    pub fleet: Option<String>,
}

/// The runtimes that planned at least one twin.
pub type PlannedRuntimes = Vec<Box<dyn Runtime>>;

/// Every suite's cases, each followed by the twins every registered runtime
/// plans beside them; also the runtimes that planned any. No case is built
/// here.
pub fn plan_all(
    g: &Global,
    cfg: &RunConfig,
    suites: &[Box<dyn Suite>],
) -> Result<(Vec<PlannedCase>, PlannedRuntimes)> {
    let mut cases: Vec<PlannedCase> = Vec::new();
    // Every suite plans its own cells first: when none is ready there is
    // nothing for a twin to stand beside, and the runtimes' handshakes (a
    // JVM start, a first Go build) are not worth waiting for.
    let mut natives = Vec::with_capacity(suites.len());
    for s in suites {
        let native = s
            .plan(cfg)
            .with_context(|| format!("planning suite {}", s.name()))?;
        let mut specs = ready_specs(&native);
        // `--backend python` leaves every native cell out, yet the twins
        // are the suite's cells: plan them without the filter.
        if specs.is_empty() && cfg.backends.is_some() {
            let unfiltered = RunConfig {
                backends: None,
                ..cfg.clone()
            };
            specs = ready_specs(&s.plan(&unfiltered).unwrap_or_default());
        }
        natives.push((native, specs));
    }
    let runtimes = if natives.iter().any(|(_, specs)| !specs.is_empty()) {
        crate::registry::runtimes()
    } else {
        Vec::new()
    };
    // Each runtime's interpreter answers its handshake once: all at once,
    // so planning waits for the slowest, not the sum.
    std::thread::scope(|s| {
        for rt in runtimes.iter().filter(|rt| cfg.wants_backend(rt.name())) {
            s.spawn(|| rt.backend_info());
        }
    });
    let mut planned = vec![false; runtimes.len()];
    for (s, (native, specs)) in suites.iter().zip(natives) {
        cases.extend(native);
        for (rt, any) in runtimes.iter().zip(planned.iter_mut()) {
            let twins = plan_twins(rt.as_ref(), s.name(), cfg, &specs, g.twin_every_cell);
            *any |= !twins.is_empty();
            cases.extend(twins);
        }
    }
    if cases.is_empty() {
        return Err(Error::usage(
            "nothing to run: the options select no case (check --backend and the suite's filters)",
        )
        .into());
    }
    // A peer (`openssl speed`, the argon2 CLI) only stands beside the
    // tool's own cases; alone it is nothing to run unless asked for by name.
    let runnable = |c: &PlannedCase| {
        matches!(c.setup, Setup::Ready(_))
            && (!c.spec.backend.starts_with("peer:") || cfg.backends.is_some())
    };
    if !cases.iter().any(runnable) {
        return Err(Error::usage(nothing_runnable(&cases)).into());
    }
    let used = runtimes
        .into_iter()
        .zip(planned)
        .filter_map(|(rt, any)| any.then_some(rt))
        .collect();
    Ok((cases, used))
}

/// The specs of the cells a suite will measure: twins sit beside these,
/// not beside cells it skips (e.g. as too slow).
fn ready_specs(cases: &[PlannedCase]) -> Vec<CaseSpec> {
    cases
        .iter()
        .filter(|c| matches!(c.setup, Setup::Ready(_)))
        .map(|c| c.spec.clone())
        .collect()
}

/// The message when every planned case is skipped or unavailable: the
/// distinct reasons, at most a handful, so the user sees what to change.
fn nothing_runnable(cases: &[PlannedCase]) -> String {
    const SHOWN: usize = 6;
    let mut reasons: Vec<&str> = Vec::new();
    for c in cases {
        if let Setup::Skipped(why) | Setup::Unavailable(why) = &c.setup {
            if !reasons.contains(&why.as_str()) {
                reasons.push(why);
            }
        }
    }
    let mut msg = format!(
        "nothing to run: all {} planned cases are skipped or unavailable:",
        cases.len()
    );
    for why in reasons.iter().take(SHOWN) {
        msg.push_str(&format!("\n  - {why}"));
    }
    if reasons.len() > SHOWN {
        msg.push_str(&format!(
            "\n  ... and {} more reasons",
            reasons.len() - SHOWN
        ));
    }
    msg
}

/// Plans, measures, stores and returns the run (printing is the caller's),
/// under `identity` when given, else a fresh run id.
pub fn bench_as(
    g: &Global,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    also_json_next_to_db: bool,
    identity: Option<RunIdentity>,
) -> Result<Outcome> {
    let planning = std::time::Instant::now();
    // Before planning, which can take seconds: a SIGTERM then still ends
    // the run recorded as interrupted, whatever the parent left installed.
    install_interrupt_handlers();
    let (cases, runtimes) = plan_all(g, cfg, &suites)?;
    if also_json_next_to_db {
        check_runs_dir(g)?;
    }
    let mut backends = suite_backends(&suites);
    backends.extend(runtimes.iter().map(|rt| rt.backend_info()));
    let mut recorder = start_recording(g, backends, identity)?;

    let bar = progress_bar(g, cases.len());
    let options = runner::Options {
        canary: true,
        seed: cfg.seed,
    };
    let ran = runner::run_plan(&cases, &cfg.budget, options, &mut |ev| match ev {
        runner::Event::Started { case, .. } => {
            let s = &case.spec;
            bar.set_message(format!(
                "{} {} {} {} {}",
                s.suite,
                s.primitive,
                s.backend,
                s.operation,
                units::format_size(s.input_bytes)
            ));
        }
        runner::Event::Finished(m) => {
            bar.inc(1);
            if m.status == cryptobench_core::CaseStatus::Failed {
                bar.println(format!(
                    "FAILED {} {} {}: {}",
                    m.suite,
                    m.primitive,
                    m.backend,
                    m.reason.as_deref().unwrap_or("")
                ));
            }
            recorder.add(m.clone());
        }
        runner::Event::Remeasured { replaced, by } => recorder.replace(replaced, by.clone()),
    });
    bar.finish_and_clear();
    let run = finish_recording(g, recorder, ran.stopped, also_json_next_to_db)?;
    if !g.quiet {
        let limit = cfg.budget.measuring_limit;
        eprintln!("{}", time_line(&ran, planning.elapsed(), limit));
        let reached = precision::precision_reached(&run.measurements, cfg.budget.precision);
        if let Some(line) = reached.line() {
            let smoke = if cfg.quick {
                " (--quick samples each case briefly: a smoke run)"
            } else {
                ""
            };
            eprintln!("{line}{smoke}");
        }
    }
    Ok(Outcome { run, suites })
}

/// Where the run's time went, in one line: the budget governs the seconds
/// of measuring; building and checking cases and planning (runtimes'
/// handshakes, probes) come on top.
fn time_line(
    ran: &runner::Ran,
    since_planning: std::time::Duration,
    limit: Option<std::time::Duration>,
) -> String {
    let secs = |ns: u64| ns as f64 / 1e9;
    let total = since_planning.as_secs_f64();
    let measuring = secs(ran.spent.measuring_ns);
    let sampling = secs(ran.spent.sampling_ns);
    let setup = (measuring - sampling).max(0.0);
    let checking = secs(ran.spent.checking_ns);
    let other = (total - measuring - checking).max(0.0);
    let paced = match limit {
        Some(limit) if ran.lowest_pace < 1.0 => format!(
            "; paced to the {:.0} s measuring limit: cases got down to {:.0}% of their time per case (--time sets it and lifts the limit)",
            limit.as_secs_f64(),
            ran.lowest_pace * 100.0
        ),
        _ => String::new(),
    };
    let again = match ran.remeasured {
        (0, _) => String::new(),
        (n, kept) => format!(
            "; {n} group(s) measured in a disturbed moment were measured again, the faster try kept ({kept} replaced)"
        ),
    };
    format!(
        "time: {measuring:.1} s measuring ({sampling:.1} s sampling rounds with the canary, {setup:.1} s calibration and warm-up), {checking:.1} s building and checking cases, {other:.1} s planning, statistics and storing; {total:.1} s in all{paced}{again}"
    )
}

/// Every backend the suites use, each once.
pub fn suite_backends(suites: &[Box<dyn Suite>]) -> Vec<cryptobench_core::BackendInfo> {
    let mut backends: Vec<cryptobench_core::BackendInfo> = Vec::new();
    for s in suites {
        for b in s.backends() {
            if !backends.iter().any(|x| x.name == b.name) {
                backends.push(b);
            }
        }
    }
    backends
}

/// Begins recording a run (the lifecycle is the store's [`Recorder`]):
/// checks the export targets, opens the store, takes the fingerprint.
pub fn start_recording(
    g: &Global,
    backends: Vec<cryptobench_core::BackendInfo>,
    identity: Option<RunIdentity>,
) -> Result<Recorder> {
    let targets = export_targets(g)?;
    let store = open_store(g)?;
    let machine = fingerprint::collect(
        backends,
        env!("CARGO_PKG_VERSION"),
        env!("CRYPTOBENCH_GIT_REVISION"),
    );
    let (id, fleet) = match identity {
        Some(i) => (i.id, i.fleet),
        None => (new_run_id(), None),
    };
    let run = Run {
        schema: SCHEMA.into(),
        id,
        started_at: now_rfc3339(),
        finished_at: None,
        status: RunStatus::Running,
        command: std::env::args().collect(),
        machine,
        fleet,
        measurements: Vec::new(),
    };
    Ok(Recorder::begin(
        store,
        run,
        targets,
        interrupt::request_stop,
    )?)
}

/// Marks the run, writes the JSON next to the database when asked, and
/// the `-o` exports.
pub fn finish_recording(
    g: &Global,
    recorder: Recorder,
    stopped: bool,
    json_next_to_db: bool,
) -> Result<Run> {
    let recorded = recorder
        .finish(stopped, now_rfc3339())
        .map_err(|e| match e {
            RecordError::Measurement(e) => {
                anyhow::Error::new(e).context("storing a measurement failed; the run stopped")
            }
            RecordError::Finish(e) => anyhow::Error::new(e),
        })?;
    let run = &recorded.run;
    let outputs = outputs(g);
    if let Some(st) = &recorded.store {
        if json_next_to_db {
            let dir = runs_dir(st.path());
            let path = dir.join(format!("{}.json", run.id));
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            write_export(
                &OutputTarget {
                    format: "json".into(),
                    path: Some(path.clone()),
                },
                run,
                &crate::registry::suites(),
                &outputs,
            )?;
            if !g.quiet {
                eprintln!(
                    "run {} stored in {}; JSON export: {}",
                    run.id,
                    st.path().display(),
                    path.display()
                );
            }
        } else if !g.quiet {
            eprintln!("run {} stored in {}", run.id, st.path().display());
        }
    }
    for t in &recorded.exports {
        write_export(t, run, &crate::registry::suites(), &outputs)?;
    }
    Ok(recorded.run)
}

/// Writes a run's export (Markdown with its summary and recommendations)
/// to the target's file or stdout.
pub fn write_export(
    target: &OutputTarget,
    run: &Run,
    suites: &[Box<dyn Suite>],
    outputs: &Outputs,
) -> Result<()> {
    let bytes = crate::formats::export_bytes(&target.format, run, suites)?;
    cryptobench_store::write_bytes(target, &bytes, outputs)?;
    Ok(())
}

/// Runs suites and prints: the common path of `run` and the suite commands.
pub fn bench_and_print(
    g: &Global,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    json_next_to_db: bool,
) -> Result<u8> {
    let outcome = bench_as(g, cfg, suites, json_next_to_db, None)?;
    output::print_run(g, &outcome.run, &outcome.suites)?;
    Ok(outcome.exit_code())
}

/// SIGTERM (what `kill`, systemd and batch schedulers send) stops a run
/// like Ctrl-C does: the current sample ends, the run is marked
/// interrupted, the exit code is 143. A second signal leaves at once.
extern "C" fn on_sigterm(_: libc::c_int) {
    // Only atomics and _exit here: both are async-signal-safe.
    if interrupt::stop_requested() {
        // SAFETY: _exit is async-signal-safe and ends the process at once.
        unsafe { libc::_exit(i32::from(EXIT_TERMINATED)) };
    }
    TERMINATED.store(true, Ordering::SeqCst);
    interrupt::request_stop();
}

pub(crate) fn install_interrupt_handlers() {
    // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value;
    // the handler only touches atomics and calls _exit.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigterm as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
    // First Ctrl-C: finish the current sample, store, mark interrupted.
    // Second: leave at once (everything measured is already committed).
    let _ = ctrlc::set_handler(|| {
        if interrupt::stop_requested() {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
        eprintln!("\ninterrupted: finishing the current sample; measured cases are kept (Ctrl-C again to quit now)");
        interrupt::request_stop();
    });
}

pub(crate) fn progress_bar(g: &Global, total: usize) -> ProgressBar {
    if g.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} ETA {eta} {wide_msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}
