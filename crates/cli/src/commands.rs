//! One function per command; each returns the exit code.

use crate::app::{self, bench_and_print, open_store_for_reading, run_config};
use crate::args::{Cli, Command, ExportArgs, Global, PaperArgs, ReportArgs, RunArgs, ShowArgs};
use crate::{output, registry};
use anyhow::Result;
use cryptobench_core::paper_method::{
    seed_budget, seed_suites, to_seed_statistic, Method, SeedCounts, OURS_DESCRIBED,
};
use cryptobench_core::{names, Error, Suite, SuiteAction, Table};
use cryptobench_report::{tables, text};

/// `pubkey keygen -o json:k.json` would write a key file named
/// `json:k.json`: the commands that take `-o` as their own file refuse an
/// export spelling instead of guessing.
fn refuse_export_targets_for_key_files(g: &Global, command: &Command) -> Result<()> {
    use cryptobench_elgamal::cli::ElgamalCommand;
    use cryptobench_suite_pubkey::cli::PubkeyCommand;
    let name = match command {
        Command::Pubkey(a) => match &a.command {
            Some(PubkeyCommand::Keygen(_) | PubkeyCommand::Encaps(_) | PubkeyCommand::Sign(_)) => {
                a.name()
            }
            _ => return Ok(()),
        },
        Command::Elgamal(a) => match &a.command {
            Some(ElgamalCommand::Keygen(k)) => {
                if let (Some(out), Some(path)) = (&k.out, &k.path) {
                    return Err(output::usage(format!(
                        "elgamal keygen: the key file is named twice, {} and --out {}; give one of them",
                        path.display(),
                        out.display()
                    )));
                }
                "elgamal keygen"
            }
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    for spec in &g.outputs {
        if let Some((format, _)) = spec.split_once(':') {
            if cryptobench_store::FORMATS.contains(&format.to_ascii_lowercase().as_str()) {
                return Err(output::usage(format!(
                    "-o {spec}: `{name}` writes its own file format, not an export; give a plain path (-o FILE)"
                )));
            }
        }
    }
    Ok(())
}

/// Runs the parsed command line.
pub fn dispatch(cli: Cli, world: &cryptobench_mpi::World) -> Result<u8> {
    let mut g = cli.global;
    let mut command = cli.command;
    refuse_export_targets_for_key_files(&g, &command)?;
    if let Command::Elgamal(a) = &mut command {
        // `elgamal keygen -o key.json` and `elgamal bench --threads 2,4,10`
        // (the spellings of the issue) take over the global flags.
        a.adopt_globals(&mut g.outputs, &mut g.threads);
        if let Some(cryptobench_elgamal::cli::ElgamalCommand::Keygen(k)) = &mut a.command {
            k.force = g.force;
        }
    }
    if let Command::Pubkey(a) = &mut command {
        // `pubkey keygen --alg ML-KEM-768 -o key.json`: -o names the key file.
        a.adopt_globals(&mut g.outputs, g.force);
    }
    output::console_format(&g)?;
    command.reject_unused(&g).map_err(output::usage)?;
    match command {
        Command::Run(a) => run(&g, &a, world),
        Command::List(a) => crate::listing::list(&g, &a),
        Command::Hash(a) => {
            suite_action(&g, |cfg| Ok(cryptobench_suite_hash::cli::command(&a, cfg)?))
        }
        Command::Cipher(a) => suite_action(&g, |cfg| {
            Ok(cryptobench_suite_cipher::cli::command(&a, cfg)?)
        }),
        Command::Aead(a) => {
            suite_action(&g, |cfg| Ok(cryptobench_suite_aead::cli::command(&a, cfg)?))
        }
        Command::Ecc(a) => {
            suite_action(&g, |cfg| Ok(cryptobench_suite_ecc::cli::command(&a, cfg)?))
        }
        Command::Argon2(a) => suite_action(&g, |cfg| {
            Ok(cryptobench_suite_argon2::cli::command(&a, cfg)?)
        }),
        Command::Elgamal(a) => {
            if let Some(b) = distributed_bench(&a) {
                return elgamal_mpi(&g, b, world);
            }
            suite_action(&g, |cfg| Ok(cryptobench_elgamal::cli::command(&a, cfg)?))
        }
        Command::Pubkey(a) => suite_action(&g, |cfg| {
            Ok(cryptobench_suite_pubkey::cli::command(&a, cfg)?)
        }),
        Command::Tls(a) => {
            suite_action(&g, |cfg| Ok(cryptobench_suite_tls::cli::command(&a, cfg)?))
        }
        Command::Leak(a) => crate::leak::leak(&g, &a),
        Command::Runs => runs(&g),
        Command::Show(a) => show(&g, &a),
        Command::Export(a) => export(&g, &a),
        Command::Compare(a) => crate::across::compare(&g, &a),
        Command::Import(a) => crate::across::import(&g, &a),
        Command::Paper(a) => paper(&g, &a, world),
        Command::Report(a) => report(&g, &a),
        Command::Recommend(a) => crate::advice::recommend_command(&g, &a),
        Command::Noise(a) => noise(&g, &a),
        Command::Ab(a) => crate::ab::ab(&g, &a),
        Command::ServeCells => crate::serve::serve(),
    }
}

fn suite_action(
    g: &Global,
    f: impl FnOnce(&cryptobench_core::RunConfig) -> Result<SuiteAction>,
) -> Result<u8> {
    let cfg = run_config(g)?;
    match f(&cfg)? {
        SuiteAction::Bench(suites) => bench_and_print(g, &cfg, suites, false),
        SuiteAction::Done(code) => Ok(code),
    }
}

fn run(g: &Global, a: &RunArgs, world: &cryptobench_mpi::World) -> Result<u8> {
    let cfg = run_config(g)?;
    if world.is_root() {
        let report: &[(&str, &std::path::Path)] = if a.no_report {
            &[]
        } else {
            app::check_output(g, "--report", &a.report)?;
            &[("--report", a.report.as_path())]
        };
        app::export_targets_with(g, report)?;
    }
    if world.size() > 1 && !a.fleet {
        return Err(Error::usage(format!(
            "`run` was started as one of {} MPI ranks: add --fleet to run on every host at once \
             (one rank per host), or start it without mpirun",
            world.size()
        ))
        .into());
    }
    let all = registry::suites();
    let suites: Vec<Box<dyn Suite>> = match &a.suite {
        None => all,
        Some(list) => {
            let names_all: Vec<&str> = all.iter().map(|s| s.name()).collect();
            let wanted: Vec<String> = names::resolve_list("suite", list, &names_all)?
                .into_iter()
                .map(str::to_string)
                .collect();
            all.into_iter()
                .filter(|s| wanted.iter().any(|w| w == s.name()))
                .collect()
        }
    };
    if a.dry_run {
        return crate::dryrun::print_plan(g, &cfg, &suites);
    }
    if a.fleet {
        return crate::fleet::run_fleet(g, a, &cfg, suites, world);
    }
    let suites = crate::advice::with_argon2_tune(g, &cfg, suites);
    let outcome = app::bench_as(g, &cfg, suites, true, None)?;
    output::print_run_with(g, &outcome.run, &outcome.suites, output::Detail::Summary)?;
    if !g.quiet {
        // The hint must reach the same database the run used.
        let db =
            g.db.as_ref()
                .map(|p| {
                    format!(
                        "--db {} ",
                        cryptobench_store::shell_join(&[p.display().to_string()])
                    )
                })
                .unwrap_or_default();
        outln!("every case: `cryptobench {db}show {}`", outcome.run.id)?;
    }
    if !a.no_report {
        let store = app::open_store(g)?;
        let extras = crate::advice::report_extras(&cfg, &outcome.run, store.as_ref(), None);
        crate::advice::write_run_report(g, &a.report, &outcome, &extras, "")?;
    }
    Ok(outcome.exit_code())
}

fn runs(g: &Global) -> Result<u8> {
    let store = open_store_for_reading(g)?;
    let rows = store.list_runs()?;
    // The fleet column only when some run belongs to one.
    let fleets = rows.iter().any(|r| r.fleet.is_some());
    let mut headers = vec![
        "id", "started", "status", "cases", "failed", "suites", "host", "command",
    ];
    if fleets {
        headers.insert(7, "fleet");
    }
    let mut t = Table::new(format!("Runs in {}", store.path().display()), headers).right(&[3, 4]);
    for r in &rows {
        let mut cells = vec![
            r.id.clone(),
            r.started_at.clone(),
            r.status.as_str().to_string(),
            r.measurements.to_string(),
            r.failed.to_string(),
            r.suites.join(","),
            r.host.clone(),
            r.command.clone(),
        ];
        if fleets {
            cells.insert(7, r.fleet.clone().unwrap_or_default());
        }
        t.row(cells);
    }
    if rows.is_empty() {
        t.note("no runs yet: try `cryptobench run --quick`");
    }
    crate::formats::print_tables(g, &[t], "")?;
    Ok(0)
}

fn show(g: &Global, a: &ShowArgs) -> Result<u8> {
    let mut run = crate::across::RunSource::new(g).load(&a.run)?;
    crate::across::filter_run(g, &mut run, &a.filter, false)?;
    let filtered = a.filter.suite.is_some() || a.filter.algorithm.is_some() || g.backend.is_some();
    let detail = if a.all || filtered {
        output::Detail::Full
    } else {
        output::Detail::Digest
    };
    output::print_run_with(g, &run, &registry::suites(), detail)?;
    Ok(0)
}

fn export(g: &Global, a: &ExportArgs) -> Result<u8> {
    let format = output::console_format(g)?;
    if format == "table" {
        return Err(output::usage("export needs --format json, csv or md"));
    }
    let target = cryptobench_store::OutputTarget {
        format: format.to_string(),
        path: a.to.clone(),
    };
    if let Some(to) = &a.to {
        app::check_output(g, "--to", to)?;
    }
    let run = crate::across::RunSource::new(g).load(&a.run)?;
    app::write_export(&target, &run, &registry::suites(), &app::outputs(g))?;
    Ok(0)
}

fn paper(g: &Global, a: &PaperArgs, world: &cryptobench_mpi::World) -> Result<u8> {
    let papers = registry::papers();
    let Some(name) = &a.name else {
        let mut t = Table::new(
            "Seed experiments (`cryptobench paper NAME`)",
            ["name", "experiment"],
        );
        for p in &papers {
            t.row([p.name(), p.title()]);
        }
        if papers.is_empty() {
            t.note("no experiment is available in this build");
        }
        outln!("{}", text::render(&t, false))?;
        return Ok(0);
    };
    let names_all: Vec<&str> = papers.iter().map(|p| p.name()).collect();
    let chosen = names::resolve("paper", name, &names_all)?;
    let paper = papers
        .iter()
        .find(|p| p.name() == chosen)
        .expect("resolved");
    let method = match &a.method {
        Some(text) => Method::parse(text)?,
        None => Method::default(),
    };
    let mut cfg = run_config(g)?;
    let (suites, described) = match method {
        Method::Ours => {
            cfg.budget = paper.budget(&cfg);
            (paper.suites(&cfg)?, OURS_DESCRIBED.to_string())
        }
        Method::Seed => {
            let counts = seed_counts_for(paper.as_ref(), &papers)?;
            if let Some(flag) = g
                .given()
                .into_iter()
                .find(|f| ["--time", "--samples", "--precision", "--min-sample"].contains(f))
            {
                return Err(output::usage(format!(
                    "{flag} sets our sampling; --method seed uses the seed's own counts ({}): drop {flag} or use --method ours",
                    counts.stated
                )));
            }
            let described = counts.describe(&cfg);
            cfg.budget = seed_budget(counts.runs_for(&cfg));
            (seed_suites(paper.suites(&cfg)?, counts, &cfg), described)
        }
    };
    // The seed's own run count applies to the distributed half too.
    let seed_runs = match method {
        Method::Seed => paper.seed_counts().map(|c| c.runs_for(&cfg)),
        Method::Ours => None,
    };
    let distributed = paper_distributed_half(chosen, &cfg, seed_runs, world)?;
    if !world.is_root() {
        return Ok(0);
    }
    let mut g = g.clone();
    g.twin_every_cell = true;
    let g = &g;
    let outcome = app::bench_as(g, &cfg, suites, false, None)?;
    let mut measured = outcome.run.measurements.clone();
    measured.extend(distributed);
    // The seed's method judges as the seed did: on its own run.
    let earlier_note = match (method, app::db_path(g)) {
        (Method::Ours, Some(path)) => {
            let store = cryptobench_store::Store::open_read_only(&path)?;
            let runs = crate::history::attach_earlier(&store, &outcome.run, &mut measured)?;
            Some(crate::history::earlier_note(&runs))
        }
        (Method::Ours, None) => Some(crate::history::NOT_READ_NOTE.to_string()),
        (Method::Seed, _) => None,
    };
    if method == Method::Seed {
        to_seed_statistic(&mut measured);
    }
    if !g.quiet {
        outln!(
            "{}\n{}\n{described}",
            paper.title(),
            tables::run_header(&outcome.run)
        )?;
        if let Some(note) = &earlier_note {
            outln!("{note}")?;
        }
        outln!()?;
        for t in paper.render(&measured) {
            outln!("{}", text::render(&t, false))?;
        }
    }
    Ok(outcome.exit_code())
}

/// The seed's counts of `paper`, or a usage error naming the papers whose
/// seeds state theirs.
fn seed_counts_for(
    paper: &dyn cryptobench_core::Paper,
    papers: &[Box<dyn cryptobench_core::Paper>],
) -> Result<SeedCounts> {
    paper.seed_counts().ok_or_else(|| {
        let with: Vec<&str> = papers
            .iter()
            .filter(|p| p.seed_counts().is_some())
            .map(|p| p.name())
            .collect();
        output::usage(format!(
            "--method seed: the seed of `paper {}` states no counts to repeat; --method seed works for {}",
            paper.name(),
            with.join(", ")
        ))
    })
}

/// Under `mpirun`, every rank measures seed 002's distributed programs
/// first (rank 0 gets the measurements); alone there is nothing to do.
fn paper_distributed_half(
    chosen: &str,
    cfg: &cryptobench_core::RunConfig,
    seed_runs: Option<usize>,
    world: &cryptobench_mpi::World,
) -> Result<Vec<cryptobench_core::Measurement>> {
    if world.size() < 2 {
        return Ok(Vec::new());
    }
    if chosen != cryptobench_mpi::paper::PAPER {
        return Err(Error::usage(format!(
            "`paper {chosen}` was started as one of {} MPI ranks; only `paper {}` has a distributed half: start the others without mpirun",
            world.size(),
            cryptobench_mpi::paper::PAPER
        ))
        .into());
    }
    let mut out = Vec::new();
    for mut opts in cryptobench_mpi::paper::options(cfg) {
        if let Some(runs) = seed_runs {
            opts.samples = runs;
        }
        if let Some(ms) = cryptobench_mpi::bench(world, &opts)? {
            out.extend(ms);
        }
    }
    Ok(out)
}

/// Where `report` writes: `--out`, else a single `-o FILE` (the global
/// export flag; `html:FILE` is accepted too), else the default name.
fn report_path(g: &Global, a: &ReportArgs) -> Result<std::path::PathBuf> {
    if let Some(p) = &a.out {
        if !g.outputs.is_empty() {
            return Err(output::usage(
                "report: give the page's path once (--out or -o)",
            ));
        }
        return Ok(p.clone());
    }
    match g.outputs.as_slice() {
        [] => Ok("cryptobench-report.html".into()),
        [one] => {
            let path = one.strip_prefix("html:").unwrap_or(one);
            if ["json:", "csv:", "md:"].iter().any(|f| path.starts_with(f)) {
                return Err(output::usage(format!(
                    "report writes HTML; -o {one} asks for another format (use `export`), \
                     or give -o FILE.html"
                )));
            }
            if path.is_empty() || path == "-" {
                return Err(output::usage(
                    "report: -o needs a file name, e.g. -o report.html",
                ));
            }
            Ok(path.into())
        }
        _ => Err(output::usage("report: give one output file (-o FILE)")),
    }
}

fn report(g: &Global, a: &ReportArgs) -> Result<u8> {
    let path = report_path(g, a)?;
    app::check_output(g, "report", &path)?;
    let mut source = crate::across::RunSource::new(g);
    let mut runs = Vec::new();
    for name in &a.runs {
        runs.push(source.load(name)?);
    }
    let baseline = a.baseline.as_deref().map(|b| source.load(b)).transpose()?;
    let run = runs[0].clone();
    // One machine: the paired comparison with the drift removed. Several:
    // the machines side by side, ratios to the baseline (else this run).
    let mut machines = runs.clone();
    let mut machines_baseline = 0;
    if let Some(b) = &baseline {
        match machines.iter().position(|r| r.id == b.id) {
            Some(i) => machines_baseline = i,
            None => {
                machines.push(b.clone());
                machines_baseline = machines.len() - 1;
            }
        }
    }
    let one_host = machines
        .iter()
        .all(|r| r.machine.hostname == run.machine.hostname);
    let paired = baseline
        .as_ref()
        .filter(|_| one_host && machines.len() == 2);
    if paired.is_some() || machines.len() < 2 {
        machines.clear();
    }
    let mut extras = crate::advice::report_extras(&run_config(g)?, &run, source.store(), paired);
    extras.machines = machines;
    extras.machines_baseline = machines_baseline;
    let html = cryptobench_report::html::render_html_with(&run, &registry::suites(), &extras);
    app::write_report(g, &path, &html)?;
    if !g.quiet {
        outln!("report for run {} written to {}", run.id, path.display())?;
    }
    Ok(0)
}

/// `noise`: the A/A test, printed (or as JSON).
fn noise(g: &Global, a: &crate::args::NoiseArgs) -> Result<u8> {
    const DEFAULT: std::time::Duration = std::time::Duration::from_secs(15);
    let duration = match &a.duration {
        None => DEFAULT,
        Some(text) => {
            use std::time::Duration;
            cryptobench_core::units::parse_duration_within(
                text,
                Duration::from_secs(1),
                Duration::from_secs(600),
            )
            .map_err(|e| Error::invalid_value("--duration", e))?
        }
    };
    let r = cryptobench_engine::schedule::noise::aa_test(
        duration,
        std::time::Duration::from_millis(10),
    );
    let load = r.load.clone().unwrap_or_default();
    if output::console_format(g)? == "json" {
        let v = serde_json::json!({
            "rounds": r.rounds,
            "seconds": r.elapsed.as_secs_f64(),
            "aa_ratio": r.ratio,
            "paired_floor": r.paired_floor,
            "paired_floor_fewest_rounds": r.paired_floor_fewest_rounds,
            "fewest_rounds": cryptobench_engine::group::rounds::MIN_ROUNDS,
            "unpaired_floor": r.unpaired_floor,
            "other_cpu": load.other_cpu,
            "steal": load.steal,
            "load1": load.load1,
        });
        println!("{v:#}");
        return Ok(0);
    }
    let mut t = Table::new(
        format!(
            "Noise floor of this machine: one workload timed twice as a paired group ({} rounds in {:.1} s)",
            r.rounds,
            r.elapsed.as_secs_f64()
        ),
        ["comparison", "floor", "meaning"],
    );
    t.row([
        format!("paired, {} rounds", r.rounds),
        format!("{:.2}%", r.paired_floor * 100.0),
        "two cases timed side by side for as many rounds: a difference below this is noise".into(),
    ]);
    t.row([
        format!(
            "paired, {} rounds",
            cryptobench_engine::group::rounds::MIN_ROUNDS
        ),
        format!("{:.2}%", r.paired_floor_fewest_rounds * 100.0),
        "the same for a group stopped at its fewest rounds (slow cases); its ratio's interval shows it".into(),
    ]);
    t.row([
        "unpaired (two moments)".to_string(),
        format!("{:.2}%", r.unpaired_floor * 100.0),
        "how far the fastest rounds move between moments: a change between two runs below this is noise".into(),
    ]);
    t.note(format!(
        "A/A ratio {:.4}; other processes used {:.0}% of the CPU time, steal {:.0}%, load {:.2}",
        r.ratio,
        load.other_cpu * 100.0,
        load.steal * 100.0,
        load.load1
    ));
    t.note(
        "`cryptobench compare` judges each case by its fastest rounds, past the larger of --threshold, the floors its two runs measured the same way and the case's own resolution",
    );
    if !g.quiet {
        println!("{}", text::render(&t, false));
    }
    Ok(0)
}

/// The elgamal bench options when `--mode` names `mpi` or `hybrid`.
fn distributed_bench(
    a: &cryptobench_elgamal::cli::ElgamalArgs,
) -> Option<&cryptobench_elgamal::cli::BenchArgs> {
    use cryptobench_elgamal::cli::ElgamalCommand;
    let b = match &a.command {
        None => &a.bench,
        Some(ElgamalCommand::Bench(b)) => b,
        Some(_) => return None,
    };
    cryptobench_mpi::integrate::wants_mpi(b).then_some(b)
}

/// `elgamal bench --mode ...,mpi,hybrid` (normally under mpirun): every rank
/// measures its share; only rank 0 stores, prints and exports.
fn elgamal_mpi(
    g: &Global,
    b: &cryptobench_elgamal::cli::BenchArgs,
    world: &cryptobench_mpi::World,
) -> Result<u8> {
    let cfg = run_config(g)?;
    let mut all = Vec::new();
    for opts in cryptobench_mpi::integrate::options(b, &cfg)? {
        if let Some(ms) = cryptobench_mpi::bench(world, &opts)? {
            all.extend(ms);
        }
    }
    if !world.is_root() {
        return Ok(0);
    }
    let suites: Vec<Box<dyn Suite>> = vec![Box::new(cryptobench_elgamal::ElgamalSuite::default())];
    let mut recorder = app::start_recording(g, app::suite_backends(&suites), None)?;
    for m in all {
        recorder.add(m);
    }
    let run = app::finish_recording(
        g,
        recorder,
        cryptobench_engine::sample::interrupt::stop_requested(),
        false,
    )?;
    output::print_run(g, &run, &suites)?;
    if !g.quiet && console_is_table(g) {
        outln!(
            "{}",
            text::render(&cryptobench_mpi::bench::table(&run.measurements), false)
        )?;
    }
    Ok(if run.has_failures() { 1 } else { 0 })
}

fn console_is_table(g: &Global) -> bool {
    output::console_format(g)
        .map(|f| f == "table")
        .unwrap_or(true)
}
