//! Runs `cryptobench argon2` without the binary: the same arguments, the
//! engine's runner, plain-text tables. Handy while working on this suite:
//!
//! ```text
//! cargo run --release -p cryptobench-suite-argon2 --example argon2 -- --quick
//! cargo run --release -p cryptobench-suite-argon2 --example argon2 -- tune --target 500ms
//! ```

use clap::Parser;
use cryptobench_core::{units, Budget, CaseStatus, RunConfig, SuiteAction, Table};
use cryptobench_engine::schedule::runner::{run_cases, Event};
use cryptobench_suite_argon2::cli::{command, Argon2Args};

#[derive(Parser)]
struct Opts {
    /// Smoke run.
    #[arg(long)]
    quick: bool,
    /// The seed's complete grid.
    #[arg(long)]
    full: bool,
    /// Backends to run (comma-separated).
    #[arg(long)]
    backend: Option<String>,
    /// Papers: print seed 000's Tables 9 and 10 beside this run's.
    #[arg(long)]
    paper: bool,
    #[command(flatten)]
    args: Argon2Args,
}

fn print_table(t: &Table) {
    println!("\n{}", t.title);
    let mut widths: Vec<usize> = t.headers.iter().map(|h| h.len()).collect();
    for r in &t.rows {
        for (i, c) in r.iter().enumerate() {
            if i < widths.len() {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{:>w$}", c, w = widths.get(i).copied().unwrap_or(0)))
            .collect();
        println!("  {}", parts.join("  "));
    };
    line(&t.headers);
    for r in &t.rows {
        line(r);
    }
    for n in &t.notes {
        println!("  * {n}");
    }
}

fn main() {
    let opts = Opts::parse();
    let mut cfg = if opts.quick {
        RunConfig::quick()
    } else {
        RunConfig::default()
    };
    if opts.full {
        cfg.full = true;
        cfg.budget = Budget::full();
    }
    cfg.backends = opts
        .backend
        .map(|b| b.split(',').map(|s| s.trim().to_string()).collect());
    let action = match command(&opts.args, &cfg) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2)
        }
    };
    let suites = match action {
        SuiteAction::Done(code) => std::process::exit(code.into()),
        SuiteAction::Bench(s) => s,
    };
    for suite in suites {
        let planned = suite.plan(&cfg).expect("plan");
        let (ms, _) = run_cases(&planned, &cfg.budget, &mut |e| {
            if let Event::Finished(m) = e {
                let p = |k: &str| m.param(k).unwrap_or("?").to_string();
                let what = format!(
                    "{:<8} {:<16} {:<8} m={:>8} KiB t={} p={} thr={}",
                    m.primitive,
                    m.backend,
                    m.operation,
                    p("m_kib"),
                    p("t"),
                    p("p"),
                    p("threads")
                );
                match (&m.status, &m.stats) {
                    (CaseStatus::Measured, Some(s)) => println!(
                        "{what}  {:>10}  ({} samples)",
                        units::format_ns(s.median),
                        m.samples_ns.len()
                    ),
                    _ => println!(
                        "{what}  {}: {}",
                        m.status.as_str(),
                        m.reason.clone().unwrap_or_default()
                    ),
                }
            }
        });
        for t in suite.summarize(&ms) {
            print_table(&t);
        }
        if opts.paper {
            for paper in cryptobench_suite_argon2::papers() {
                for t in paper.render(&ms) {
                    print_table(&t);
                }
            }
        }
    }
}
