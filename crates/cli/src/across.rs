//! Runs from anywhere: stored ones by id or `latest`, JSON files written on
//! other machines, `import` to keep them, and `compare` of two runs of one
//! machine or of several machines side by side.

use crate::app::{db_path, open_store_for_reading};
use crate::args::{CaseFilter, CompareArgs, Global, ImportArgs};
use crate::output::usage;
use anyhow::Result;
use cryptobench_core::{names, Error, Run};
use cryptobench_report::{machines, tables};
use cryptobench_stats::{gate, Comparison, Gate, Verdict};
use cryptobench_store::{Imported, Store};
use std::path::Path;

/// Loads runs named on the command line, opening the database only when a
/// name is not a file.
pub struct RunSource<'g> {
    g: &'g Global,
    store: Option<Store>,
}

impl<'g> RunSource<'g> {
    /// A source reading the database of `g` when it first needs to.
    pub fn new(g: &'g Global) -> Self {
        Self { g, store: None }
    }

    /// A run: a JSON file when `name` is one (or ends in `.json`), else a
    /// stored run; says on stderr which run `latest` chose when it passed
    /// over a newer one.
    pub fn load(&mut self, name: &str) -> Result<Run> {
        let path = Path::new(name);
        // Anything but a directory that exists is read as a file, so a FIFO
        // or a device is refused as one rather than looked up as a run id.
        let exists = std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir());
        if exists || name.ends_with(".json") {
            return read_run_file(path);
        }
        if self.store.is_none() {
            self.store = Some(open_store_for_reading(self.g)?);
        }
        let store = self.store.as_ref().expect("opened above");
        let (id, note) = store.resolve_id_noting(name)?;
        if let (Some(note), false) = (note, self.g.quiet) {
            eprintln!("note: {}", names::printable(&note));
        }
        Ok(store.load_run(&id)?)
    }

    /// The database, when a stored run was loaded.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }
}

/// Reads a run's JSON file, bounded by `--max-input`.
fn read_run_file(path: &Path) -> Result<Run> {
    let bytes = cryptobench_core::input::read_file("run file", path)?;
    Ok(cryptobench_store::parse_run_file(path, &bytes)?)
}

/// The names of the comma-separated `list` among `known` (see
/// [`names::resolve_list`]), owned.
fn resolve_owned(what: &str, list: &str, known: &[String]) -> Result<Vec<String>> {
    let refs: Vec<&str> = known.iter().map(String::as_str).collect();
    Ok(names::resolve_list(what, list, &refs)?
        .into_iter()
        .map(str::to_string)
        .collect())
}

/// Keeps only the cases `filter` and `--backend` select; `keep_canary`
/// keeps the canary too (comparisons divide its drift out).
pub fn filter_run(g: &Global, run: &mut Run, filter: &CaseFilter, keep_canary: bool) -> Result<()> {
    if filter.suite.is_none() && filter.algorithm.is_none() && g.backend.is_none() {
        return Ok(());
    }
    let suites = match &filter.suite {
        None => None,
        Some(list) => {
            let all: Vec<String> = crate::registry::suites()
                .iter()
                .map(|s| s.name().to_string())
                .collect();
            Some(resolve_owned("suite", list, &all)?)
        }
    };
    let backends = match &g.backend {
        None => None,
        Some(list) => Some(resolve_owned(
            "backend",
            list,
            &crate::app::known_backends(),
        )?),
    };
    let needle = filter.algorithm.as_deref().map(str::to_ascii_lowercase);
    let before: Vec<String> = run
        .measurements
        .iter()
        .filter(|m| !m.is_canary())
        .map(|m| m.primitive.clone())
        .collect();
    run.measurements.retain(|m| {
        (keep_canary && m.is_canary())
            || (suites.as_ref().is_none_or(|s| s.contains(&m.suite))
                && backends.as_ref().is_none_or(|b| b.contains(&m.backend))
                && needle
                    .as_ref()
                    .is_none_or(|n| m.primitive.to_ascii_lowercase().contains(n)))
    });
    // A filter that matches nothing is a typo far more often than a
    // question: say so instead of printing an empty run.
    if !before.is_empty() && run.measurements.iter().all(|m| m.is_canary()) {
        let mut names: Vec<&str> = before.iter().map(String::as_str).collect();
        names.sort_unstable();
        names.dedup();
        let hint = filter
            .algorithm
            .as_deref()
            .map(|a| cryptobench_core::names::suggest(a, &names))
            .filter(|s| !s.is_empty())
            .map(|s| format!("; did you mean {}?", s.join(", ")))
            .unwrap_or_default();
        return Err(crate::output::usage(format!(
            "no case of run {} matches the filter (--suite, --algorithm, --backend){hint}; \
             its primitives: {}",
            run.id,
            names.join(", ")
        )));
    }
    Ok(())
}

/// `cryptobench import FILE...`: every file is read and checked before
/// any is stored, so a wrong file imports nothing.
pub fn import(g: &Global, a: &ImportArgs) -> Result<u8> {
    let runs: Vec<Run> = a
        .files
        .iter()
        .map(|f| read_run_file(f))
        .collect::<Result<_>>()?;
    for (run, file) in runs.iter().zip(&a.files) {
        if !cryptobench_store::import::well_formed_id(&run.id) {
            return Err(usage(format!(
                "{}: its run id '{}' is not of the form YYYYMMDD-HHMMSS-xxxx (date, time, four lowercase hex digits) that every run id takes; nothing was imported",
                file.display(),
                names::printable(&run.id)
            )));
        }
    }
    let path = db_path(g).ok_or_else(|| usage("import stores runs; drop --no-db"))?;
    let store = Store::open(&path)?;
    for (run, file) in runs.iter().zip(&a.files) {
        let host = names::printable(&run.machine.hostname);
        match store.import_run(run)? {
            Imported::Stored => outln!(
                "imported run {} (host {host}, {} case(s)) from {} into {}",
                names::printable(&run.id),
                run.measurements.len(),
                file.display(),
                store.path().display()
            )?,
            Imported::AlreadyStored => outln!(
                "run {} (host {host}) from {} is already stored in {}; nothing changed",
                names::printable(&run.id),
                file.display(),
                store.path().display()
            )?,
        }
    }
    Ok(0)
}

/// Parses a percentage (`2`, `2%`, `0.5`) into a fraction.
pub fn percent(flag: &str, text: &str) -> Result<f64> {
    let v: f64 = text.trim().trim_end_matches('%').parse().map_err(|_| {
        Error::usage(format!(
            "{flag}: '{text}' is not a percentage (e.g. 2 or 2%)"
        ))
    })?;
    if !(0.0..=1000.0).contains(&v) {
        return Err(usage(format!(
            "{flag}: {v} is out of range (0 to 1000 percent)"
        )));
    }
    Ok(v / 100.0)
}

/// The threshold and the gate's limit (fractions) of `compare` or `ab`.
pub fn verdict_options(v: &crate::args::VerdictArgs) -> Result<(f64, Option<f64>)> {
    let threshold = percent("--threshold", &v.threshold)?;
    let gate = v
        .fail_on_regression
        .as_deref()
        .map(|p| percent("--fail-on-regression", p))
        .transpose()?;
    Ok((threshold, gate))
}

/// `cryptobench compare RUN... [--baseline RUN]`.
pub fn compare(g: &Global, a: &CompareArgs) -> Result<u8> {
    let (threshold, fail_pct) = verdict_options(&a.verdict)?;
    let mut source = RunSource::new(g);
    let mut runs: Vec<Run> = Vec::new();
    for name in &a.runs {
        let mut run = source.load(name)?;
        filter_run(g, &mut run, &a.filter, true)?;
        runs.push(run);
    }
    let baseline = match &a.baseline {
        None => 0,
        Some(name) => {
            let mut b = source.load(name)?;
            filter_run(g, &mut b, &a.filter, true)?;
            match runs.iter().position(|r| r.id == b.id) {
                Some(i) => i,
                None => {
                    runs.insert(0, b);
                    0
                }
            }
        }
    };
    if runs.len() < 2 {
        return Err(usage(
            "compare needs two runs or more: `compare A B`, or `compare B --baseline A`",
        ));
    }
    let same_host = runs
        .iter()
        .all(|r| r.machine.hostname == runs[0].machine.hostname);
    let (table, compared) = if runs.len() == 2 && same_host {
        let (b, c) = (&runs[baseline], &runs[1 - baseline]);
        let cmp = tables::compare_full(b, c, threshold);
        if cmp.cases.is_empty() {
            eprintln!("note: the two runs have no measured case in common");
        }
        let compared: Vec<(String, Comparison)> = cmp
            .cases
            .iter()
            .map(|k| (k.key.clone(), k.comparison.clone()))
            .collect();
        (tables::comparison_table(&cmp, b, c), compared)
    } else {
        let m = machines::compare_machines(&runs, baseline, threshold);
        let compared = m
            .cases
            .iter()
            .flat_map(|k| k.rows.iter().map(move |r| (k, r)))
            .filter_map(|(k, r)| Some((k.key.clone(), r.ratio.clone()?)))
            .collect();
        (machines::machines_table(&m), compared)
    };
    if !g.quiet {
        crate::formats::print_tables(g, &[table], "")?;
    }
    match fail_pct {
        Some(limit) => Ok(regression_gate(
            &compared,
            limit,
            a.verdict.allow_inconclusive,
        )),
        None => Ok(0),
    }
}

/// The exit code of `--fail-on-regression`: 1 when a case is shown slower
/// past `limit` or, unless `allow_inconclusive`, leaves such a slowdown
/// open, or when no case was compared; 0 when every case is shown not to
/// regress past it. Says on stderr which cases failed it.
fn regression_gate(cases: &[(String, Comparison)], limit: f64, allow_inconclusive: bool) -> u8 {
    if cases.is_empty() {
        eprintln!("gate failed: no case was compared, so none is shown not to regress");
        return 1;
    }
    // A slowdown the verdict leaves inconclusive (one only the machine's
    // drift correction makes) is open, not shown.
    let read: Vec<(&str, Gate)> = cases
        .iter()
        .map(|(key, c)| match gate(c.widened, limit) {
            Gate::Regressed if c.verdict == Verdict::Inconclusive => (key.as_str(), Gate::Open),
            g => (key.as_str(), g),
        })
        .collect();
    let of = |g: Gate| read.iter().filter(|(_, r)| *r == g).count();
    let (regressed, open) = (of(Gate::Regressed), of(Gate::Open));
    let pct = limit * 100.0;
    for (key, r) in &read {
        match r {
            Gate::Regressed => eprintln!("regressed: {key} is slower by more than {pct:.1}%"),
            Gate::Open if !allow_inconclusive => {
                eprintln!("undecided: {key} may be slower by more than {pct:.1}%")
            }
            _ => {}
        }
    }
    let failed = regressed > 0 || (open > 0 && !allow_inconclusive);
    if failed {
        eprintln!(
            "gate failed: {regressed} case(s) slower by more than {pct:.1}%, {open} case(s) these runs cannot tell{}",
            if allow_inconclusive { " (allowed)" } else { " (--allow-inconclusive lets them pass)" }
        );
        1
    } else {
        eprintln!(
            "gate passed: {} case(s) shown not to regress by more than {pct:.1}%{}",
            of(Gate::Pass),
            if open > 0 {
                format!(", {open} undecided (allowed)")
            } else {
                String::new()
            }
        );
        0
    }
}
