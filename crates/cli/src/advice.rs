//! `cryptobench recommend`, and the report sections that are computed here
//! because they need the registry or the store: recommendations, the seed
//! experiments a run covers, the other hosts of a fleet.

use crate::args::{Global, RecommendArgs};
use crate::registry;
use anyhow::Result;
use cryptobench_core::advice::{
    as_timed_label, calm_reference_label, calm_reference_of, calm_time_label, own_time_label,
    own_time_of, TUNED_FOR_NS, TUNE_KEPT_FROM,
};
use cryptobench_core::{units, Error, PlannedCase, Run, RunConfig, Suite};
use cryptobench_report::html::{Extras, PaperSection};
use cryptobench_report::recommend::{self, DEFAULT_ARGON2_TARGETS_NS};
use cryptobench_store::Store;
use cryptobench_suite_argon2::cases::Grid;
use cryptobench_suite_argon2::short_tune::{self, Incumbent};
use cryptobench_suite_argon2::tune;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

/// `cryptobench recommend [RUN] [--target LIST]`.
pub fn recommend_command(g: &Global, a: &RecommendArgs) -> Result<u8> {
    let targets = argon2_targets(a.target.as_deref())?;
    let mut run = crate::across::RunSource::new(g).load(a.run.as_deref().unwrap_or("latest"))?;
    if let Some(wanted) = &a.runtime {
        let runtimes = registry::runtimes();
        let names: Vec<&str> = runtimes.iter().map(|r| r.name()).collect();
        let name = cryptobench_core::names::resolve("runtime", wanted, &names)?;
        run = cryptobench_report::overhead::runtime_view(&run, name);
        if run.measurements.is_empty() {
            println!("run {} measured nothing in the {name} runtime", run.id);
            return Ok(0);
        }
    }
    let recs = recommend::recommend(&run, &targets);
    if g.quiet {
        return Ok(0);
    }
    let format = crate::output::console_format(g)?;
    if let Some(state) = run_state_warning(&run) {
        // On stderr when stdout is data, so the JSON or CSV stays parseable.
        if format == "table" {
            println!("{state}");
        } else {
            eprintln!("{state}");
        }
    }
    match format {
        "table" => print!("{}", recommend::render_text(&run, &recs, a.explain)),
        "json" => println!(
            "{}",
            serde_json::to_string_pretty(&recommendation_json(&run, &recs))?
        ),
        _ => crate::formats::print_tables(g, &[recommend::recommendation_table(&run, &recs)], "")?,
    }
    Ok(0)
}

/// The recommendations as JSON: the run, how sure it is, and the typed
/// records (docs/results-format.md, "Recommendations").
fn recommendation_json(run: &Run, recs: &[recommend::Recommendation]) -> serde_json::Value {
    let c = cryptobench_report::answer::Certainty::of(run);
    serde_json::json!({
        "run": run.id,
        "status": run.status.as_str(),
        "certainty": {
            "quick": c.quick,
            "measured_cases": c.measured,
            "precise_cases": c.precise,
            "precise_share": c.precise_share(),
            "noise_floor": c.noise_floor,
            "noisy": c.noisy(),
        },
        "recommendations": recs.iter().map(|r| &r.record).collect::<Vec<_>>(),
    })
}

/// When the run measures the argon2 suite: a short tune per advice target
/// (at most 15 s with `--quick`) whose chosen settings join the run as
/// Argon2id points marked with their target, so the `run` summary and a
/// later `recommend` (one advice function over the same stored points) can
/// name a setting within +-10% of each target instead of the grid's largest
/// point far below it. A target the tune cannot fill is said on stderr and
/// keeps the grid's advice. The settings the newest earlier run of this
/// host chose are timed first and kept while they still hold.
pub fn with_argon2_tune(
    g: &Global,
    cfg: &RunConfig,
    mut suites: Vec<Box<dyn Suite>>,
) -> Vec<Box<dyn Suite>> {
    if !suites
        .iter()
        .any(|s| s.name() == cryptobench_suite_argon2::cases::SUITE)
    {
        return suites;
    }
    let targets: Vec<Duration> = DEFAULT_ARGON2_TARGETS_NS
        .iter()
        .map(|&ns| Duration::from_nanos(ns as u64))
        .collect();
    if !g.quiet {
        eprintln!(
            "argon2: short tune for the advice targets (at most {} s)",
            short_tune::short_tune_budget(cfg.quick, cfg.full).as_secs()
        );
    }
    let incumbents = incumbents(g);
    let mut tuned = Vec::new();
    match short_tune::short_tune_here(&targets, &incumbents, cfg) {
        Err(why) => eprintln!("note: Argon2id advice without a short tune: {why}"),
        Ok(short_tune::TunedHere {
            backend,
            found,
            calm_reference,
        }) => {
            for f in found {
                say_incumbent(g, &f);
                match f.found {
                    Ok(trial) => tuned.push(TunedPoint {
                        backend,
                        trial,
                        target: f.target,
                        own: f.incumbent.filter(|_| f.kept_from.is_some()).map(|i| i.time),
                        as_timed: f.as_timed,
                        kept_from: f.kept_from,
                        calm_reference,
                    }),
                    Err(why) => eprintln!(
                        "note: Argon2id {}: the short tune found no setting ({why}); the advice uses the grid",
                        units::format_ns(f.target.as_nanos() as f64)
                    ),
                }
            }
        }
    }
    if !tuned.is_empty() {
        // One argon2 suite (one report section): the grid, then the tuned points.
        if let Some(i) = suites
            .iter()
            .position(|s| s.name() == cryptobench_suite_argon2::cases::SUITE)
        {
            let grid = suites.remove(i);
            suites.insert(i, Box::new(WithTuned { grid, tuned }));
        }
    }
    suites
}

/// Says on stderr what became of the earlier run's setting for a target.
fn say_incumbent(g: &Global, f: &short_tune::ShortTune) {
    let Some(timed) = f.incumbent.filter(|_| !g.quiet) else {
        return;
    };
    let target = units::format_ns(f.target.as_nanos() as f64);
    let setting = format!(
        "m = {} MiB, t = {}",
        timed.params.m_kib / 1024,
        timed.params.t
    );
    let share_of = |d: Duration| d.as_secs_f64() / f.target.as_secs_f64() * 100.0;
    let share = share_of(timed.time);
    match (&f.kept_from, &f.found) {
        (Some(run), Ok(named)) => eprintln!(
            "argon2: {target}: kept {setting} from run {run} ({share:.0}% of the target here, \
             {:.0}% with the earlier runs' timings, at calm speed; {:.0}% as timed here)",
            share_of(named.time),
            f.as_timed.map_or(share, share_of)
        ),
        _ => eprintln!(
            "argon2: {target}: the earlier run's {setting} took {share:.0}% of the target here \
             at calm speed, outside +-20% with the earlier runs' timings too, and as timed: \
             searched again"
        ),
    }
}

/// One setting the short tune chose, measured by the engine like any grid
/// point and marked with its target.
struct TunedPoint {
    backend: &'static str,
    trial: tune::Trial,
    target: Duration,
    /// The earlier run whose setting this is, when the tune kept it.
    kept_from: Option<String>,
    /// This run's own timing of a kept setting, before pooling.
    own: Option<Duration>,
    /// The tune's fastest time of the setting as timed, not scaled.
    as_timed: Option<Duration>,
    /// The tune's calmest reference hash, for the next run's tune.
    calm_reference: Option<Duration>,
}

/// The tuned points of the newest complete run of this host that measured
/// the argon2 suite: the incumbents of this run's short tune, each with
/// its own timings in that run's tune and in up to
/// [`short_tune::HISTORY_RUNS`] - 1 older ones'. None with `--no-db`,
/// without a database yet, or when it cannot be read.
fn incumbents(g: &Global) -> Vec<Incumbent> {
    let Some(path) = crate::app::db_path(g).filter(|p| p.exists()) else {
        return Vec::new();
    };
    let recent = Store::open_read_only(&path).and_then(|store| {
        let host = cryptobench_store::this_host();
        let rows = store.list_runs()?;
        rows.iter()
            .filter(|r| {
                r.status == cryptobench_core::RunStatus::Complete
                    && r.host == host
                    && r.fleet.is_none()
                    && r.suites
                        .iter()
                        .any(|s| s == cryptobench_suite_argon2::cases::SUITE)
            })
            .take(short_tune::HISTORY_RUNS)
            .map(|r| store.load_run(&r.id))
            .collect::<std::result::Result<Vec<Run>, _>>()
    });
    match recent {
        Ok(runs) => incumbents_of(&runs),
        Err(why) => {
            eprintln!("note: Argon2id short tune without the earlier run's settings: {why}");
            Vec::new()
        }
    }
}

/// The incumbents `runs` (newest first) give: the newest's tuned points,
/// each with the own timings of every run in `runs` that tuned the same
/// setting for the same target on the same backend, newest first. A
/// timing taken while the machine was busy is not one of them: with one
/// core kept busy by another process a two-lane hash ran at about half
/// speed, its reference hash too, so two such runs' settings (256 MiB and
/// 5 passes for 1 s, timed at 931 ms) outvoted the next calm run's own
/// timing of 600 ms and were kept, then dropped one run later.
fn incumbents_of(runs: &[Run]) -> Vec<Incumbent> {
    use cryptobench_core::advice::verified;
    use cryptobench_core::Measurement;
    use cryptobench_suite_argon2::params::{Params, Variant};
    let num = |m: &Measurement, k: &str| m.param(k)?.parse::<u32>().ok();
    let tuned = |run: &Run| -> Vec<(Incumbent, Option<Duration>)> {
        run.measurements
            .iter()
            .filter(|m| {
                m.suite == cryptobench_suite_argon2::cases::SUITE && m.primitive == "Argon2id"
            })
            .filter(|m| m.operation == "hash" && verified(m))
            .filter_map(|m| {
                let target_ns = m.param(TUNED_FOR_NS)?.parse::<u64>().ok()?;
                let incumbent = Incumbent {
                    target: Duration::from_nanos(target_ns),
                    params: Params::new(Variant::Id, num(m, "m_kib")?, num(m, "t")?, num(m, "p")?),
                    backend: m.backend.clone(),
                    run_id: run.id.clone(),
                    calm_reference: calm_reference_of(m),
                    history: Vec::new(),
                };
                let calm = m.machine_load.as_ref().is_none_or(|l| !l.busy());
                Some((incumbent, own_time_of(m).filter(|_| calm)))
            })
            .collect()
    };
    let earlier: Vec<Vec<(Incumbent, Option<Duration>)>> = runs.iter().map(tuned).collect();
    let same = |a: &Incumbent, b: &Incumbent| {
        a.target == b.target && a.params == b.params && a.backend == b.backend
    };
    let Some(newest) = earlier.first() else {
        return Vec::new();
    };
    newest
        .iter()
        .map(|(i, _)| {
            let mut i = i.clone();
            i.history = earlier
                .iter()
                .filter_map(|points| points.iter().find(|(p, _)| same(p, &i))?.1)
                .collect();
            i
        })
        .collect()
}

/// The argon2 suite with the tuned points planned after its grid; tables,
/// headline and charts are the suite's own.
struct WithTuned {
    grid: Box<dyn Suite>,
    tuned: Vec<TunedPoint>,
}

impl Suite for WithTuned {
    fn profile(&self) -> cryptobench_core::SuiteProfile {
        self.grid.profile()
    }
    fn backends(&self) -> Vec<cryptobench_core::BackendInfo> {
        self.grid.backends()
    }
    fn primitives(&self) -> Vec<String> {
        self.grid.primitives()
    }
    fn plan(&self, cfg: &RunConfig) -> std::result::Result<Vec<PlannedCase>, Error> {
        let mut planned = self.grid.plan(cfg)?;
        for t in &self.tuned {
            planned.extend(t.plan(cfg)?);
        }
        Ok(planned)
    }
}

impl TunedPoint {
    fn plan(&self, cfg: &RunConfig) -> std::result::Result<Vec<PlannedCase>, Error> {
        let p = self.trial.params;
        // The point answers the advice; the grid's cells carry the twins.
        let grid = Grid::of(vec![(p.variant, p.t)], vec![p.m_kib], vec![p.lanes])
            .on(self.backend)
            .without_twins();
        let mut planned = cryptobench_suite_argon2::Argon2Suite { grid: Some(grid) }.plan(cfg)?;
        for c in &mut planned {
            c.spec
                .params
                .insert(TUNED_FOR_NS.to_string(), self.target.as_nanos().to_string());
            if let Some(run) = &self.kept_from {
                c.spec.labels.push(format!("{TUNE_KEPT_FROM}{run}"));
            }
            if let Some(calm) = self.calm_reference {
                c.spec.labels.push(calm_reference_label(calm));
            }
            c.spec.labels.push(calm_time_label(self.trial.time));
            if let Some(own) = self.own {
                c.spec.labels.push(own_time_label(own));
            }
            if let Some(took) = self.as_timed {
                c.spec.labels.push(as_timed_label(took));
            }
        }
        Ok(planned)
    }
}

/// Why a run's advice may be partial, if it is.
fn run_state_warning(run: &Run) -> Option<String> {
    use cryptobench_core::RunStatus::*;
    match run.status {
        Interrupted => Some(format!(
            "note: run {} was interrupted; advice covers only what it measured",
            run.id
        )),
        Failed => Some(format!(
            "note: run {} has FAILED cases; they are named below and never recommended",
            run.id
        )),
        Running => Some(format!("note: run {} is still running", run.id)),
        Complete => None,
    }
}

/// `--target 250ms,1s` as nanoseconds (default 250 ms, 500 ms, 1 s).
fn argon2_targets(list: Option<&str>) -> Result<Vec<f64>> {
    let Some(list) = list else {
        return Ok(DEFAULT_ARGON2_TARGETS_NS.to_vec());
    };
    list.split(',')
        .map(|t| {
            let d = units::parse_duration(t).map_err(|e| {
                Error::usage(format!(
                    "--target: {e} (accepted: durations such as 250ms, 0.5s, 1s, comma-separated)"
                ))
            })?;
            if d.is_zero() {
                return Err(Error::usage("--target: a target must be longer than zero").into());
            }
            Ok(d.as_nanos() as f64)
        })
        .collect()
}

/// The outside sections of a run's report: recommendations, the seed
/// experiments whose suites all ran, and the fleet's other hosts.
pub fn report_extras<'a>(
    cfg: &RunConfig,
    run: &Run,
    store: Option<&Store>,
    baseline: Option<&'a Run>,
) -> Extras<'a> {
    Extras {
        baseline,
        recommendations: recommend::recommend(run, &DEFAULT_ARGON2_TARGETS_NS),
        papers: papers_covered(cfg, run),
        fleet: store.map(|s| fleet_of(s, run)).unwrap_or_default(),
        ..Extras::default()
    }
}

/// Papers whose every suite has measurements in `run`, rendered from them.
/// A paper whose drawing code panics on partial data is left out.
fn papers_covered(cfg: &RunConfig, run: &Run) -> Vec<PaperSection> {
    let ran = |suite: &str| run.measurements.iter().any(|m| m.suite == suite);
    registry::papers()
        .into_iter()
        .filter_map(|p| {
            let suites = p.suites(cfg).ok()?;
            if suites.is_empty() || !suites.iter().all(|s| ran(s.name())) {
                return None;
            }
            let tables = catch_unwind(AssertUnwindSafe(|| p.render(&run.measurements))).ok()?;
            Some(PaperSection {
                name: p.name().to_string(),
                title: p.title().to_string(),
                tables,
            })
        })
        .collect()
}

/// Every stored run of `run`'s fleet, in rank order (`-r0`, `-r1`, ...).
fn fleet_of(store: &Store, run: &Run) -> Vec<Run> {
    let Some(fleet) = &run.fleet else {
        return Vec::new();
    };
    let Ok(rows) = store.list_runs() else {
        return Vec::new();
    };
    let mut runs: Vec<Run> = rows
        .iter()
        .filter(|r| r.fleet.as_deref() == Some(fleet))
        .filter_map(|r| store.load_run(&r.id).ok())
        .collect();
    runs.sort_by_key(|r| cryptobench_mpi::fleet::rank_of(&r.id).unwrap_or(usize::MAX));
    runs
}

/// Writes the HTML report of a finished `run` and says where (`what`
/// names the run in the message).
pub fn write_run_report(
    g: &Global,
    path: &std::path::Path,
    outcome: &crate::app::Outcome,
    extras: &Extras,
    what: &str,
) -> Result<()> {
    let html = cryptobench_report::html::render_html_with(&outcome.run, &outcome.suites, extras);
    crate::app::write_report(g, path, &html)?;
    if !g.quiet {
        eprintln!("HTML report{what}: {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::Measurement;

    /// A verified libargon2 point tuned for `target_ms` in some run, with
    /// its own timing at calm speed and, when kept, the pooled one.
    fn tuned(
        target_ms: u64,
        m_mib: u32,
        t: u32,
        own_ms: u64,
        pooled_ms: Option<u64>,
    ) -> Measurement {
        let ms = |v: u64| Duration::from_millis(v);
        let spec = cryptobench_core::CaseSpec::new("argon2", "Argon2id", "libargon2", "", "hash")
            .param("m_kib", m_mib * 1024)
            .param("t", t)
            .param("p", 2)
            .param(TUNED_FOR_NS, ms(target_ms).as_nanos());
        let spec = match pooled_ms {
            Some(p) => spec
                .label(calm_time_label(ms(p)))
                .label(own_time_label(ms(own_ms))),
            None => spec.label(calm_time_label(ms(own_ms))),
        };
        let mut m = spec.measurement(cryptobench_core::CaseStatus::Measured, None);
        m.stats = Some(cryptobench_core::Summary {
            median: 4.0e8,
            ..Default::default()
        });
        m
    }

    #[test]
    fn an_incumbent_carries_the_own_timings_of_the_runs_that_tuned_the_same_setting() {
        let runs = [
            // Newest: kept 256 MiB, t = 4 for 500 ms, its own timing 78%.
            Run::new("r3", vec![tuned(500, 256, 4, 390, Some(450))]),
            // Kept it too: own 90%, pooled 90.5%.
            Run::new("r2", vec![tuned(500, 256, 4, 450, Some(452))]),
            // A different setting for the same target: not its history.
            Run::new("r1b", vec![tuned(500, 256, 5, 560, None)]),
            // Searched for it: its calm time is its own.
            Run::new("r1", vec![tuned(500, 256, 4, 455, None)]),
        ];
        let found = incumbents_of(&runs);
        assert_eq!(found.len(), 1);
        let i = &found[0];
        assert_eq!(i.run_id, "r3");
        assert_eq!((i.params.m_kib, i.params.t), (256 * 1024, 4));
        let ms = |v: u64| Duration::from_millis(v);
        // Own timings, never the pooled ones: pooling those again would
        // count a run's timing twice.
        assert_eq!(i.history, vec![ms(390), ms(450), ms(455)]);
        assert!(incumbents_of(&[]).is_empty());
    }

    #[test]
    fn a_timing_taken_while_the_machine_was_busy_is_not_an_incumbent_s_history() {
        let busy = |mut m: Measurement| {
            m.machine_load = Some(cryptobench_core::MachineLoad {
                other_cpu: 0.5,
                ..Default::default()
            });
            m
        };
        let runs = [
            // A calm run kept the busy runs' setting, timing it at 60%.
            Run::new("calm", vec![tuned(1000, 256, 5, 600, Some(931))]),
            Run::new("busy2", vec![busy(tuned(1000, 256, 5, 931, Some(931)))]),
            Run::new("busy1", vec![busy(tuned(1000, 256, 5, 931, None))]),
        ];
        let found = incumbents_of(&runs);
        assert_eq!(found[0].history, vec![Duration::from_millis(600)]);
        // The busy run's own setting is still the incumbent when newest; only
        // its timing is left out.
        let found = incumbents_of(&runs[1..]);
        assert_eq!((found[0].params.m_kib, found[0].params.t), (256 * 1024, 5));
        assert!(found[0].history.is_empty());
    }

    #[test]
    fn targets_parse_and_bad_ones_are_usage_errors() {
        assert_eq!(argon2_targets(None).unwrap(), DEFAULT_ARGON2_TARGETS_NS);
        assert_eq!(argon2_targets(Some("250ms,1s")).unwrap(), vec![250e6, 1e9]);
        for bad in ["fast", "0ms", "250ms,,1s"] {
            let e = argon2_targets(Some(bad)).unwrap_err();
            assert_eq!(crate::app::exit_code_for(&e), 2, "{bad}");
            assert!(e.to_string().contains("--target"), "{e}");
        }
    }
}
