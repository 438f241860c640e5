//! `cryptobench recommend`, and the report sections that are computed here
//! because they need the registry or the store: recommendations, the seed
//! experiments a run covers, the other hosts of a fleet.

use crate::app::open_store_for_reading;
use crate::args::{Global, RecommendArgs};
use crate::registry;
use anyhow::Result;
use cryptobench_core::{units, Error, Run, RunConfig};
use cryptobench_report::html::{Extras, PaperSection};
use cryptobench_report::recommend::{self, DEFAULT_ARGON2_TARGETS_NS};
use cryptobench_store::Store;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// `cryptobench recommend [RUN] [--target LIST]`.
pub fn recommend_command(g: &Global, a: &RecommendArgs) -> Result<u8> {
    let targets = argon2_targets(a.target.as_deref())?;
    let store = open_store_for_reading(g)?;
    let mut run = store.load_run(a.run.as_deref().unwrap_or("latest"))?;
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
    if let Some(state) = run_state_warning(&run) {
        println!("{state}");
    }
    match crate::output::console_format(g)? {
        "table" => print!("{}", recommend::render_text(&run, &recs)),
        _ => println!(
            "{}",
            cryptobench_report::text::render(&recommend::recommendation_table(&run, &recs), false)
        ),
    }
    Ok(0)
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
