//! Runs the ecc suite through the engine (checks, calibration, sampling)
//! and prints the suite's tables or the `paper ecc-keygen` tables, with the
//! wall time of the whole run: the seed's experiment (every curve x 100
//! keys) timed from this crate alone.
//!
//! `cargo run --release -p cryptobench-suite-ecc --example ecc_run -- --quick`

use clap::Parser;
use cryptobench_core::{CaseStatus, RunConfig, Suite, SuiteAction};
use cryptobench_suite_ecc::{cli::EccArgs, summary};
use std::time::Instant;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    ecc: EccArgs,
    /// Smoke run: the quick grid and budget.
    #[arg(long)]
    quick: bool,
    /// Every curve through EVP as well.
    #[arg(long)]
    full: bool,
    /// Render `paper ecc-keygen` instead of the suite tables.
    #[arg(long)]
    paper: bool,
    /// Backends to keep (comma-separated).
    #[arg(long)]
    backend: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let mut cfg = if args.quick {
        RunConfig::quick()
    } else {
        RunConfig::default()
    };
    cfg.full = args.full;
    cfg.backends = args
        .backend
        .map(|b| b.split(',').map(str::to_string).collect());
    if let SuiteAction::Done(code) = cryptobench_suite_ecc::cli::command(&args.ecc, &cfg)? {
        std::process::exit(i32::from(code));
    }
    let suite = args.ecc.suite()?;
    let started = Instant::now();
    let plan = suite.plan(&cfg)?;
    // ECC_TRACE=1 prints each case's wall time (where a run's time goes).
    let trace = std::env::var_os("ECC_TRACE").is_some();
    let mut case_start = Instant::now();
    let (results, _interrupted) =
        cryptobench_engine::run_cases(&plan, &cfg.budget, &mut |e| match e {
            cryptobench_engine::Event::Started { .. } => case_start = Instant::now(),
            cryptobench_engine::Event::Finished(m) if trace => eprintln!(
                "{:>8.1} ms  {} {} {} {:?} x{}",
                case_start.elapsed().as_secs_f64() * 1e3,
                m.primitive,
                m.backend,
                m.operation,
                m.param("api"),
                m.samples_ns.len()
            ),
            _ => {}
        });
    let elapsed = started.elapsed();
    let tables = if args.paper {
        cryptobench_suite_ecc::papers().remove(0).render(&results)
    } else {
        suite.summarize(&results)
    };
    for t in tables {
        print!("{}", summary::render_text(&t));
    }
    let measured = results
        .iter()
        .filter(|m| m.status == CaseStatus::Measured)
        .count();
    let failed = results
        .iter()
        .filter(|m| m.status == CaseStatus::Failed)
        .count();
    println!(
        "{} cases ({measured} measured, {failed} failed) in {:.2} s (plan, checks and sampling)",
        results.len(),
        elapsed.as_secs_f64()
    );
    Ok(())
}
