//! The benchmark flow shared by `run`, every suite command and `paper`:
//! plan, open the store, measure with a progress bar, store each
//! measurement as it finishes, mark the run, print and export.

use crate::args::Global;
use crate::output;
use anyhow::{anyhow, Context, Result};
use cryptobench_core::{
    units, Budget, Error, Measurement, PlannedCase, Run, RunConfig, RunStatus, Setup, Suite, SCHEMA,
};
use cryptobench_engine::{fingerprint, interrupt, runner};
use cryptobench_store::{OutputTarget, Store, StoreError};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Exit code when the user interrupted the run (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Maps an error to the exit code DESIGN.md promises: 2 for usage errors
/// (including unknown runs and unusable databases or paths), 1 otherwise.
pub fn exit_code_for(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if let Some(err) = cause.downcast_ref::<Error>() {
            return match err {
                Error::Usage(_) => 2,
                Error::CheckFailed(_) => 1,
                Error::Other(_) => 1,
            };
        }
        if cause.downcast_ref::<StoreError>().is_some()
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
            units::parse_duration(t).map_err(|e| Error::usage(format!("--time: {e}")))?;
    }
    if let Some(t) = &g.min_sample {
        budget.min_sample =
            units::parse_duration(t).map_err(|e| Error::usage(format!("--min-sample: {e}")))?;
    }
    if let Some(s) = &g.samples {
        budget.samples = parse_count("--samples", s, 3, 100_000)? as usize;
        budget.min_slow_samples = budget.min_slow_samples.min(budget.samples);
    }
    if let Some(text) = &g.max_input {
        let bytes = units::parse_size_within(text, 1, MAX_INPUT_CEILING)
            .map_err(|e| Error::usage(format!("--max-input: {e}")))?;
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
    })
}

/// The largest `--max-input`: 4 GiB, beyond any key, vector or password file.
const MAX_INPUT_CEILING: u64 = 4 << 30;

/// A whole number within bounds, or a usage error naming the flag.
pub fn parse_count(flag: &str, text: &str, min: u64, max: u64) -> Result<u64> {
    units::parse_count(text, min, max).map_err(|e| Error::usage(format!("{flag}: {e}")).into())
}

/// Every backend name any suite knows, plus the peers.
pub fn known_backends() -> Vec<String> {
    let mut names: Vec<String> = vec![
        "peer:openssl-speed".into(),
        "peer:argon2-cli".into(),
        "php".into(),
    ];
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

/// Opens the store unless `--no-db`.
pub fn open_store(g: &Global) -> Result<Option<Store>> {
    if g.no_db {
        return Ok(None);
    }
    let path = g.db.clone().unwrap_or_else(cryptobench_store::default_path);
    Ok(Some(Store::open(&path)?))
}

/// Opens the store for commands that read it (`--no-db` makes no sense there).
pub fn open_store_for_reading(g: &Global) -> Result<Store> {
    if g.no_db {
        return Err(Error::usage("this command reads stored runs; drop --no-db").into());
    }
    open_store(g)?.ok_or_else(|| anyhow!("no database"))
}

/// A usage error unless `path` can be created: its directory exists and is
/// writable and it is not a directory itself. Checked before anything runs,
/// so a typo costs no measurement time.
pub fn check_writable(flag: &str, path: &std::path::Path) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let writable = std::fs::metadata(dir)
        .map(|m| m.is_dir() && !m.permissions().readonly())
        .unwrap_or(false);
    if !writable || path.is_dir() {
        return Err(Error::usage(format!(
            "{flag}: cannot write {} (its directory does not exist or is not writable)",
            path.display()
        ))
        .into());
    }
    Ok(())
}

/// Checks every `-o` target before anything runs, so a typo costs nothing.
pub fn export_targets(g: &Global) -> Result<Vec<OutputTarget>> {
    let mut out = Vec::new();
    for spec in &g.outputs {
        let t = cryptobench_store::parse_target(spec)?;
        if let Some(path) = &t.path {
            check_writable(&format!("-o {spec}"), path)?;
        }
        out.push(t);
    }
    Ok(out)
}

/// What a benchmark produced.
pub struct Outcome {
    /// The finished run.
    pub run: Run,
    /// The suites that ran (for their summary tables).
    pub suites: Vec<Box<dyn Suite>>,
}

impl Outcome {
    /// Exit code: 130 interrupted, 1 when any check failed, else 0.
    pub fn exit_code(&self) -> u8 {
        match self.run.status {
            RunStatus::Interrupted => EXIT_INTERRUPTED,
            RunStatus::Failed => 1,
            _ => 0,
        }
    }
}

/// Plans, measures, stores and returns the run (printing is the caller's).
pub fn bench(
    g: &Global,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    also_json_next_to_db: bool,
) -> Result<Outcome> {
    bench_as(g, cfg, suites, also_json_next_to_db, None)
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

/// Every suite's cases, each followed by the PHP cells beside it; `true`
/// when any PHP cell was planned. No case is built here.
pub fn plan_all(
    g: &Global,
    cfg: &RunConfig,
    suites: &[Box<dyn Suite>],
) -> Result<(Vec<PlannedCase>, bool)> {
    let mut cases: Vec<PlannedCase> = Vec::new();
    let mut php_planned = false;
    // A default run gives PHP only the headline cells; --full, an explicit
    // `--backend php` and `paper` give it every cell.
    let php_asked = cfg
        .backends
        .as_ref()
        .is_some_and(|b| b.iter().any(|n| n == cryptobench_php::NAME));
    let php_every_cell = cfg.full || php_asked || g.php_every_cell;
    for s in suites {
        let native = s
            .plan(cfg)
            .with_context(|| format!("planning suite {}", s.name()))?;
        // The PHP runtime's rows sit beside the native cells the suite will
        // measure (not beside those it skips, e.g. as too slow).
        let specs: Vec<_> = native
            .iter()
            .filter(|c| matches!(c.setup, Setup::Ready(_)))
            .map(|c| c.spec.clone())
            .collect();
        let specs = if php_every_cell {
            specs
        } else {
            cryptobench_php::twin::headline_cells(s.name(), &specs)
        };
        cases.extend(native);
        let php = cryptobench_php::plan(s.name(), cfg, &specs);
        php_planned |= !php.is_empty();
        cases.extend(php);
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
    Ok((cases, php_planned))
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

/// [`bench`] under a given identity.
pub fn bench_as(
    g: &Global,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    also_json_next_to_db: bool,
    identity: Option<RunIdentity>,
) -> Result<Outcome> {
    let (cases, php_planned) = plan_all(g, cfg, &suites)?;
    let mut backends = suite_backends(&suites);
    if php_planned {
        backends.push(cryptobench_php::backend_info());
    }
    let mut recorder = Recorder::open(g, backends, identity)?;
    install_ctrl_c();

    let bar = progress_bar(g, cases.len());
    let (_, stopped) = runner::run_cases(&cases, &cfg.budget, &mut |ev| match ev {
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
    });
    bar.finish_and_clear();
    let run = recorder.finish(g, stopped, also_json_next_to_db)?;
    Ok(Outcome { run, suites })
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

/// A run being recorded: every measurement is committed to the store the
/// moment it is added, so an interruption loses nothing already measured.
pub struct Recorder {
    run: Run,
    store: Option<Store>,
    targets: Vec<OutputTarget>,
    store_error: Option<StoreError>,
}

impl Recorder {
    /// Checks the export targets, opens the store and begins the run.
    pub fn open(
        g: &Global,
        backends: Vec<cryptobench_core::BackendInfo>,
        identity: Option<RunIdentity>,
    ) -> Result<Self> {
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
        if let Some(st) = &store {
            st.begin_run(&run)?;
        }
        Ok(Self {
            run,
            store,
            targets,
            store_error: None,
        })
    }

    /// Stores and keeps one measurement; a storage failure stops the engine.
    pub fn add(&mut self, m: Measurement) {
        if let (Some(st), None) = (&self.store, &self.store_error) {
            if let Err(e) = st.add_measurement(&self.run.id, &m) {
                self.store_error = Some(e);
                interrupt::request_stop();
            }
        }
        self.run.measurements.push(m);
    }

    /// Marks the run, writes the JSON next to the database when asked, and
    /// the `-o` exports.
    pub fn finish(mut self, g: &Global, stopped: bool, json_next_to_db: bool) -> Result<Run> {
        let run = &mut self.run;
        run.finished_at = Some(now_rfc3339());
        run.status = if stopped {
            RunStatus::Interrupted
        } else if run.has_failures() {
            RunStatus::Failed
        } else {
            RunStatus::Complete
        };
        if let Some(st) = &self.store {
            if let Some(e) = self.store_error {
                return Err(
                    anyhow::Error::new(e).context("storing a measurement failed; the run stopped")
                );
            }
            st.finish_run(
                &run.id,
                run.status,
                run.finished_at.as_deref().unwrap_or(""),
            )?;
            if json_next_to_db {
                let dir = st
                    .path()
                    .parent()
                    .unwrap_or(std::path::Path::new("."))
                    .join("runs");
                let path = dir.join(format!("{}.json", run.id));
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
                cryptobench_store::write_target(
                    &OutputTarget {
                        format: "json".into(),
                        path: Some(path.clone()),
                    },
                    run,
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
        for t in &self.targets {
            cryptobench_store::write_target(t, run)?;
        }
        Ok(self.run)
    }
}

/// Runs suites and prints: the common path of `run` and the suite commands.
pub fn bench_and_print(
    g: &Global,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    json_next_to_db: bool,
) -> Result<u8> {
    let outcome = bench(g, cfg, suites, json_next_to_db)?;
    output::print_run(g, &outcome.run, &outcome.suites)?;
    Ok(outcome.exit_code())
}

fn install_ctrl_c() {
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

fn progress_bar(g: &Global, total: usize) -> ProgressBar {
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
