//! `cryptobench ab OTHER_BINARY`: two builds measured side by side in one
//! run, case by case in the same rounds.
//!
//! Two separate runs on a shared machine differ by what the machine did
//! between them (18-39% here), which no threshold can tell from a change.
//! Here each native case selected is planned twice: once served by this
//! build and once by the other, each started as runner processes
//! (`serve-cells`, the runtime protocol) and put in one comparison group of
//! two, so the engine times them in the same rounds and their ratio is
//! paired, as a runtime's twin is with its native cell. Both sides go
//! through the same path (their own processes, the same pipe, the same
//! batch timer, paths of one length: [`SameLength`]), so an A/A pair has
//! nothing systematic between its sides.
//!
//! The ratio other / this (above 1: the other build is slower) is read on
//! its paired interval, widened by the run's between-process spread
//! ([`decide_rows`]), against `1 +- threshold`: unchanged when it lies
//! inside, slower or faster when wholly outside, else inconclusive. The run
//! is stored like any other: its measurements carry the parameter
//! `build=this` or `build=other`, and its backend list names both builds.

use crate::app::{self, run_config};
use crate::args::{AbArgs, Global};
use crate::output;
use crate::serve::SERVED_SUITES;
use anyhow::Result;
use cryptobench_core::advice::RUNTIME_PARAM;
use cryptobench_core::verdict::{per_process_ratios, time_ratio};
use cryptobench_core::{
    names, units, BackendInfo, Case, CaseSpec, CaseStatus, Measurement, PlannedCase, RunConfig,
    Setup, Table,
};
use cryptobench_engine::schedule::runner;
use cryptobench_runtime::case::{shared, RunnerCase, SharedRunner};
use cryptobench_runtime::cell::DEFAULT_TIMEOUT;
use cryptobench_runtime::{Handshake, Runner, RunnerCommand};
use cryptobench_stats::Verdict;
use serde_json::json;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The parameter telling the two builds' measurements of a case apart.
pub const BUILD_PARAM: &str = "build";
/// The suites `ab` measures when `--suite` is not given.
const DEFAULT_SUITES: [&str; 3] = ["hash", "cipher", "aead"];
/// How long a build may take to answer `hello`: a cryptobench binary
/// answers in well under a second; anything else is killed after this.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// `cryptobench ab`.
pub fn ab(g: &Global, a: &AbArgs) -> Result<u8> {
    let (threshold, gate) = crate::across::verdict_options(&a.verdict)?;
    let suites = chosen_suites(a.suite.as_deref())?;
    let sizes = match &a.size {
        Some(text) => {
            Some(units::parse_size_list(text).map_err(|e| output::usage(format!("--size: {e}")))?)
        }
        None => None,
    };
    let mut cfg = run_config(g)?;
    // A member keeps sampling while its paired ratio could still fall on
    // either side of the threshold (or of the gate's limit).
    cfg.budget.decision_edges = std::iter::once(threshold)
        .chain(gate)
        .map(|t| 1.0 + t)
        .collect();
    app::export_targets(g)?;
    app::install_interrupt_handlers();
    let aliases = SameLength::new(&current_exe()?, &checked_binary(&a.other)?)?;
    let this_cmd = command("this build", aliases.this.clone());
    let other_cmd = command("other build", aliases.other.clone());
    let (this_hello, other_hello) = std::thread::scope(|s| {
        let other = s.spawn(|| handshake(&other_cmd));
        (handshake(&this_cmd), other.join())
    });
    let this_version = this_hello.map_err(|e| {
        output::usage(format!(
            "this build could not serve its own cases ({}): {e}",
            this_cmd.program.display()
        ))
    })?;
    let other_version = other_hello
        .map_err(|_| output::usage("the handshake with the other build panicked"))?
        .map_err(|e| {
            output::usage(format!(
                "{} is not a cryptobench build that serves its cases to `ab` \
                 (`{} serve-cells` did not answer the handshake: {e}); OTHER_BINARY must be \
                 the cryptobench binary of another build (e.g. the base commit's \
                 target/release/cryptobench)",
                a.other.display(),
                a.other.display()
            ))
        })?;
    let natives = native_cells(&cfg, &suites, a.algorithm.as_deref(), sizes.as_deref())?;
    let this_runner = shared(this_cmd);
    let other_runner = shared(other_cmd);
    let mut cases = Vec::with_capacity(2 * natives.len());
    for n in &natives {
        cases.push(served(n, "this", &this_version, &this_runner, &cfg));
        cases.push(served(n, "other", &other_version, &other_runner, &cfg));
    }
    let mut backends = app::suite_backends(&crate::registry::suites());
    backends.retain(|b| natives.iter().any(|n| n.backend == b.name));
    backends.push(build_info("build:this", &this_version, None));
    backends.push(build_info("build:other", &other_version, Some(&a.other)));
    app::check_runs_dir(g)?;
    let mut recorder = app::start_recording(g, backends, None)?;
    let bar = app::progress_bar(g, cases.len());
    let options = runner::Options {
        canary: true,
        seed: cfg.seed,
    };
    let ran = runner::run_plan(&cases, &cfg.budget, options, &mut |ev| match ev {
        runner::Event::Started { case, .. } => bar.set_message(format!(
            "{} {} {} {}",
            case.spec.primitive,
            case.spec.backend,
            units::format_size(case.spec.input_bytes),
            case.spec.params.get(BUILD_PARAM).map_or("", String::as_str)
        )),
        runner::Event::Finished(m) => {
            bar.inc(1);
            recorder.add(m.clone());
        }
        runner::Event::Remeasured { replaced, by } => recorder.replace(replaced, by.clone()),
    });
    bar.finish_and_clear();
    // The servers end with their last case.
    drop((cases, this_runner, other_runner));
    let run = app::finish_recording(g, recorder, ran.stopped, true)?;
    let mut rows: Vec<Row> = natives
        .iter()
        .map(|n| Row::of(n, &run.measurements))
        .collect();
    decide_rows(&mut rows, threshold, gate);
    if !g.quiet {
        crate::formats::print_tables(g, &[table(&rows, threshold, gate, a)], "")?;
    }
    let gated = gate.map(|_| {
        rows.iter()
            .filter(|r| r.fails(a.verdict.allow_inconclusive))
            .count()
    });
    let code = match run.status {
        cryptobench_core::RunStatus::Interrupted => app::EXIT_INTERRUPTED,
        _ if gated.is_some_and(|n| n > 0) || run.has_failures() => 1,
        _ => 0,
    };
    Ok(code)
}

/// The suites asked for, each one this build can serve.
fn chosen_suites(list: Option<&str>) -> Result<Vec<&'static str>> {
    match list {
        None => Ok(DEFAULT_SUITES.to_vec()),
        Some(list) => Ok(names::resolve_list("suite", list, &SERVED_SUITES)?),
    }
}

fn current_exe() -> Result<PathBuf> {
    std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot find this build's own binary to serve its cases: {e}"))
}

/// The other build's path, refused early when it cannot be a program.
fn checked_binary(path: &Path) -> Result<PathBuf> {
    let why = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no such file",
        Err(_) => "it cannot be read",
        Ok(m) if m.is_dir() => "it is a directory",
        Ok(_) => return Ok(path.to_path_buf()),
    };
    Err(output::usage(format!(
        "OTHER_BINARY {}: {why}; give the path of another cryptobench build's binary \
         (e.g. the base commit's target/release/cryptobench)",
        path.display()
    )))
}

/// The two builds under names of one length in a private directory, so
/// their runner processes start with the same layout.
///
/// A program's path is copied onto its initial stack (`argv[0]` and the
/// name it was executed by), so two builds started by paths of different
/// lengths place every stack buffer differently: an A/A `ab` of a binary
/// against its copy at `/tmp/cb-new` and `/tmp/cb-new-copy` read
/// RustCrypto's AES-256-CBC decrypt 10-18% slower on the longer path in
/// each of five runs, and 0.995-0.998 when both were started as
/// `/tmp/ab-eq/cb-a` and `/tmp/ab-eq/cb-b`.
struct SameLength {
    dir: PathBuf,
    this: PathBuf,
    other: PathBuf,
}

impl SameLength {
    fn new(this: &Path, other: &Path) -> Result<Self> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("cryptobench-ab-{}-{stamp:09}", std::process::id()));
        let made = || -> std::io::Result<Self> {
            std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
            let aliases = Self {
                dir: dir.clone(),
                this: dir.join("a"),
                other: dir.join("b"),
            };
            std::os::unix::fs::symlink(absolute(this)?, &aliases.this)?;
            std::os::unix::fs::symlink(absolute(other)?, &aliases.other)?;
            Ok(aliases)
        };
        made().map_err(|e| {
            let _ = std::fs::remove_dir_all(&dir);
            anyhow::anyhow!(
                "cannot name the two builds alike in {} (both must start from paths of one length): {e}",
                dir.display()
            )
        })
    }
}

impl Drop for SameLength {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn absolute(path: &Path) -> std::io::Result<PathBuf> {
    if path.is_absolute() {
        Ok(path.to_path_buf())
    } else {
        Ok(std::env::current_dir()?.join(path))
    }
}

fn command(label: &str, program: PathBuf) -> RunnerCommand {
    RunnerCommand {
        runtime: label.to_string(),
        program,
        args: vec!["serve-cells".into()],
        env: Vec::new(),
        timeout: DEFAULT_TIMEOUT,
    }
}

/// Starts a build's server and asks for its version within [`HANDSHAKE`].
fn handshake(cmd: &RunnerCommand) -> Result<String, cryptobench_runtime::RunnerError> {
    let mut runner = Runner::spawn(cmd)?;
    let hello = runner.request_within(&json!({"op": "hello"}), HANDSHAKE)?;
    Ok(Handshake::parse(&cmd.runtime, &hello)?.version)
}

fn build_info(name: &str, version: &str, path: Option<&Path>) -> BackendInfo {
    BackendInfo {
        name: name.into(),
        version: match path {
            Some(p) => format!("{version} at {}", p.display()),
            None => version.to_string(),
        },
        unavailable: None,
    }
}

/// The native cells of `suites` that `ab` can serve: ready, one thread,
/// no peer and no runtime twin, matching the filters.
fn native_cells(
    cfg: &RunConfig,
    suites: &[&str],
    algorithm: Option<&str>,
    sizes: Option<&[u64]>,
) -> Result<Vec<CaseSpec>> {
    let mut out = Vec::new();
    for s in crate::registry::suites() {
        if !suites.contains(&s.name()) {
            continue;
        }
        for p in s.plan(cfg)? {
            let spec = p.spec;
            let wanted = matches!(p.setup, Setup::Ready(_))
                && spec.threads == 1
                && !cryptobench_core::model::is_peer(&spec.backend)
                && !spec.params.contains_key(RUNTIME_PARAM)
                && algorithm.is_none_or(|t| {
                    spec.primitive
                        .to_ascii_lowercase()
                        .contains(&t.to_ascii_lowercase())
                })
                && sizes.is_none_or(|z| z.contains(&spec.input_bytes));
            if wanted {
                out.push(spec);
            }
        }
    }
    if out.is_empty() {
        return Err(output::usage(format!(
            "the options select no case in {} (check --algorithm, --size and --backend)",
            suites.join(", ")
        )));
    }
    Ok(out)
}

/// The case `native` as served by one build, in a group of two with the
/// other build's.
fn served(
    native: &CaseSpec,
    side: &str,
    version: &str,
    runner: &SharedRunner,
    cfg: &RunConfig,
) -> PlannedCase {
    let cell = json!({
        "suite": native.suite, "primitive": native.primitive, "backend": native.backend,
        "operation": native.operation, "params": native.params, "size": native.input_bytes,
        "quick": cfg.quick, "full": cfg.full, "backends": cfg.backends,
    });
    let request = json!({"cell": cell, "kats": []});
    let mut spec = native.clone();
    spec.params.insert(BUILD_PARAM.into(), side.into());
    spec.group = Some(format!(
        "ab:{}",
        native.measurement(CaseStatus::Measured, None).case_key()
    ));
    spec.cut_by_backend = false;
    if side == "other" {
        spec.backend_version = format!("{} ({version})", native.backend_version);
    }
    let fixed = (native.suite == "argon2").then_some(1);
    let cores = native.cores_used();
    let runner = runner.clone();
    PlannedCase::ready(spec, move || {
        let c = RunnerCase::prepare(&runner, request.clone(), fixed, None)?.with_cores(cores);
        Ok(Box::new(c) as Box<dyn Case>)
    })
}

/// One case's two sides, read.
struct Row {
    native: CaseSpec,
    this_ns: Option<f64>,
    other_ns: Option<f64>,
    /// other / this and its paired 95% interval.
    ratio: Option<(f64, f64, f64)>,
    /// How far the pairs of runner processes disagreed on that ratio:
    /// `ln(r0 / r1)`, when both timed enough rounds.
    process_gap: Option<f64>,
    /// The interval widened by the between-process spread.
    widened: Option<(f64, f64)>,
    verdict: Option<Verdict>,
    /// Why the two were not compared.
    missing: Option<String>,
    /// Slower past the gate's limit, or possibly so.
    regressed: bool,
    open: bool,
}

fn side<'a>(ms: &'a [Measurement], native: &CaseSpec, which: &str) -> Option<&'a Measurement> {
    let mut spec = native.clone();
    spec.params.insert(BUILD_PARAM.into(), which.into());
    let key = spec.measurement(CaseStatus::Measured, None).case_key();
    ms.iter().find(|m| !m.is_canary() && m.case_key() == key)
}

impl Row {
    fn of(native: &CaseSpec, ms: &[Measurement]) -> Self {
        let this = side(ms, native, "this");
        let other = side(ms, native, "other");
        let mut row = Row {
            native: native.clone(),
            this_ns: this.and_then(Measurement::median_ns),
            other_ns: other.and_then(Measurement::median_ns),
            ratio: None,
            process_gap: None,
            widened: None,
            verdict: None,
            missing: None,
            regressed: false,
            open: false,
        };
        let not_measured = |m: Option<&Measurement>, who: &str| match m {
            None => Some(format!("{who}: not measured (interrupted)")),
            Some(m) if m.status != CaseStatus::Measured => Some(format!(
                "{who}: {} ({})",
                m.status.as_str(),
                m.reason.as_deref().unwrap_or("no reason given")
            )),
            Some(_) => None,
        };
        row.missing =
            not_measured(this, "this build").or_else(|| not_measured(other, "other build"));
        let (Some(this), Some(other), None) = (this, other, &row.missing) else {
            return row;
        };
        let Some(e) = time_ratio(other, this) else {
            row.missing = Some("no statistics to compare".into());
            return row;
        };
        row.ratio = Some((e.value, e.lo, e.hi));
        row.process_gap = match per_process_ratios(other, this)[..] {
            [r0, r1] => Some((r0 / r1).ln()).filter(|d| d.is_finite()),
            _ => None,
        };
        row
    }

    /// Decides this row on its interval widened by `spread`.
    fn decide(&mut self, spread: f64, threshold: f64, gate: Option<f64>) {
        let Some((value, lo, hi)) = self.ratio else {
            return;
        };
        let widened = cryptobench_stats::widened_interval(value, (lo, hi), spread);
        self.widened = Some(widened);
        self.verdict = Some(decide(widened, threshold));
        if let Some(limit) = gate {
            match cryptobench_stats::gate(widened, limit) {
                cryptobench_stats::Gate::Regressed => self.regressed = true,
                cryptobench_stats::Gate::Open => self.open = true,
                cryptobench_stats::Gate::Pass => {}
            }
        }
    }

    /// Whether this case fails the gate: slower past its limit, or not
    /// shown to be within it (unless inconclusive cases are allowed).
    fn fails(&self, allow_inconclusive: bool) -> bool {
        self.regressed || (self.open && !allow_inconclusive)
    }
}

/// Decides every compared row on its paired interval widened by the
/// between-process spread this run measured
/// ([`cryptobench_stats::between_process_spread`]): the gaps between the
/// two pairs of runner processes, pooled over the run's cases, each case
/// held at least to its own. Rounds are paired, but each build's process
/// lands its code and data where it lands, a fixed offset per process
/// that no number of rounds averages away: an A/A `ab` with the paired
/// interval alone called 2 of 42 cases changed.
fn decide_rows(rows: &mut [Row], threshold: f64, gate: Option<f64>) {
    let gaps: Vec<f64> = rows.iter().filter_map(|r| r.process_gap).collect();
    for row in rows.iter_mut() {
        let spread = cryptobench_stats::between_process_spread(&gaps, row.process_gap);
        row.decide(spread, threshold, gate);
    }
}

/// The verdict of a (widened) interval of other / this: the compare rule
/// (`cryptobench_stats::verdict_of`).
pub fn decide(interval: (f64, f64), threshold: f64) -> Verdict {
    cryptobench_stats::verdict_of(interval, threshold)
}

/// Where a verdict is counted.
fn slot(v: Verdict) -> usize {
    match v {
        Verdict::Faster => 0,
        Verdict::Slower => 1,
        Verdict::Unchanged => 2,
        Verdict::Inconclusive => 3,
    }
}

fn table(rows: &[Row], threshold: f64, gate: Option<f64>, a: &AbArgs) -> Table {
    let mut t = Table::new(
        format!(
            "A/B: the other build ({}) against this one, paired in the same rounds",
            a.other.display()
        ),
        [
            "suite",
            "primitive",
            "backend",
            "operation",
            "size",
            "this",
            "other",
            "other/this",
            "95% interval",
            "widened",
            "verdict",
        ],
    )
    .right(&[4, 5, 6, 7, 8, 9]);
    let time = |ns: Option<f64>| ns.map(units::format_ns).unwrap_or_else(|| "-".into());
    let mut counts = [0usize; 4];
    for r in rows {
        let n = &r.native;
        let (ratio, interval) = match r.ratio {
            Some((v, lo, hi)) => (format!("{v:.3}"), format!("{lo:.3} .. {hi:.3}")),
            None => ("-".into(), "-".into()),
        };
        let widened = r
            .widened
            .map_or_else(|| "-".into(), |(lo, hi)| format!("{lo:.3} .. {hi:.3}"));
        let verdict = match (r.verdict, &r.missing) {
            (Some(v), _) => {
                counts[slot(v)] += 1;
                v.as_str().to_string()
            }
            (None, Some(why)) => format!("not compared: {why}"),
            (None, None) => "not compared".into(),
        };
        t.row([
            n.suite.clone(),
            n.primitive.clone(),
            n.backend.clone(),
            n.operation.clone(),
            units::format_size(n.input_bytes),
            time(r.this_ns),
            time(r.other_ns),
            ratio,
            interval,
            widened,
            verdict,
        ]);
    }
    let compared: usize = counts.iter().sum();
    t.note(format!(
        "verdicts: {compared} of {} case(s) compared: {} faster, {} slower, {} unchanged, {} inconclusive \
         (threshold {:.1}%: unchanged when the paired 95% interval of other/this, widened by how far \
         the pairs of runner processes disagreed over the run's cases, lies within it, \
         slower or faster when wholly past it)",
        rows.len(),
        counts[slot(Verdict::Faster)],
        counts[slot(Verdict::Slower)],
        counts[slot(Verdict::Unchanged)],
        counts[slot(Verdict::Inconclusive)],
        threshold * 100.0
    ));
    if let Some(limit) = gate {
        let regressed = rows.iter().filter(|r| r.regressed).count();
        let open = rows.iter().filter(|r| r.open).count();
        let fails = rows.iter().any(|r| r.fails(a.verdict.allow_inconclusive));
        t.note(format!(
            "gate --fail-on-regression {:.1}%: {}: {regressed} case(s) slower past it, {open} not shown within it{}",
            limit * 100.0,
            if fails { "FAIL (exit 1)" } else { "pass" },
            if open > 0 && a.verdict.allow_inconclusive {
                " (allowed by --allow-inconclusive)"
            } else {
                ""
            }
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paired_interval_is_decided_against_the_band() {
        assert_eq!(decide((0.995, 1.004), 0.02), Verdict::Unchanged);
        assert_eq!(decide((1.04, 1.06), 0.02), Verdict::Slower);
        assert_eq!(decide((0.90, 0.95), 0.02), Verdict::Faster);
        // A real change that might be within the threshold is not unchanged.
        assert_eq!(decide((1.01, 1.03), 0.02), Verdict::Inconclusive);
        assert_eq!(decide((f64::NAN, 1.0), 0.02), Verdict::Inconclusive);
    }

    #[test]
    fn both_builds_start_from_paths_of_one_length() {
        let dir = std::env::temp_dir().join(format!("ab-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (short, long) = (dir.join("cb"), dir.join("cb-a-much-longer-name"));
        for p in [&short, &long] {
            std::fs::write(p, b"#!/bin/sh\n").unwrap();
        }
        let aliases = SameLength::new(&short, &long).unwrap();
        let made = aliases.dir.clone();
        let len = |p: &Path| p.as_os_str().len();
        assert_eq!(len(&aliases.this), len(&aliases.other));
        assert_eq!(std::fs::read_link(&aliases.this).unwrap(), short);
        assert_eq!(std::fs::read_link(&aliases.other).unwrap(), long);
        drop(aliases);
        assert!(!made.exists(), "{} is left behind", made.display());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn row(ratio: (f64, f64, f64), process_gap: Option<f64>) -> Row {
        Row {
            native: CaseSpec::new("hash", "SHA-256", "openssl", "3", "digest"),
            this_ns: Some(1.0),
            other_ns: Some(ratio.0),
            ratio: Some(ratio),
            process_gap,
            widened: None,
            verdict: None,
            missing: None,
            regressed: false,
            open: false,
        }
    }

    #[test]
    fn an_aa_case_a_process_moved_is_not_called_changed() {
        // A/A: one case's two pairs of processes both read 3% apart (its
        // interval clear of 2%); the run's other cases moved 3-5% between
        // their pairs of processes, so a process alone moves a case so far.
        let mut rows: Vec<Row> = [0.04, -0.035, 0.045, -0.04, 0.03, -0.05, 0.038]
            .iter()
            .map(|&gap| row((1.0, 0.99, 1.01), Some(gap)))
            .collect();
        rows.push(row((1.030, 1.027, 1.033), Some(0.001)));
        // And one build slowed by 15% in the same run.
        rows.push(row((1.15, 1.145, 1.155), Some(0.002)));
        decide_rows(&mut rows, 0.02, Some(0.10));
        let aa = &rows[rows.len() - 2];
        assert_eq!(aa.verdict, Some(Verdict::Inconclusive), "{:?}", aa.widened);
        // Within the gate's 10% either way: it passes.
        assert!(!aa.regressed && !aa.open);
        let slowed = &rows[rows.len() - 1];
        assert_eq!(
            slowed.verdict,
            Some(Verdict::Slower),
            "{:?}",
            slowed.widened
        );
        assert!(slowed.regressed);
        // Processes that agree keep the paired verdicts.
        let mut calm = vec![
            row((1.030, 1.027, 1.033), Some(0.0)),
            row((1.0, 0.995, 1.005), Some(0.001)),
        ];
        decide_rows(&mut calm, 0.02, None);
        assert_eq!(calm[0].verdict, Some(Verdict::Slower));
        assert_eq!(calm[1].verdict, Some(Verdict::Unchanged));
    }
}
