//! Runs the cipher suite through the engine without the binary and prints
//! one line per case, the suite's tables and the wall time.
//!
//! `cargo run --release -p cryptobench-suite-cipher --example cipher_run -- [--quick] [CIPHER-ARGS...]`
//! (the same options as `cryptobench cipher`, e.g. `--all`, `--ciphers aes-128-ctr --sizes 16,16KiB`).

use clap::Parser;
use cryptobench_core::units::{format_ns, format_size};
use cryptobench_core::{CaseStatus, RunConfig, SuiteAction};
use cryptobench_engine::schedule::runner::{run_cases, Event};
use cryptobench_suite_cipher::cli::{command, CipherArgs};
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// Smoke run.
    #[arg(long)]
    quick: bool,
    #[command(flatten)]
    cipher: CipherArgs,
}

fn main() {
    let args = Args::parse();
    let cfg = RunConfig::quick_if(args.quick);
    let t0 = Instant::now();
    let suites = match command(&args.cipher, &cfg) {
        Ok(SuiteAction::Bench(s)) => s,
        Ok(SuiteAction::Done(code)) => std::process::exit(code as i32),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    for suite in suites {
        let cases = suite.plan(&cfg).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
        eprintln!(
            "{} cases planned in {:.2} s",
            cases.len(),
            t0.elapsed().as_secs_f64()
        );
        let (ms, _) = run_cases(&cases, &cfg.budget, &mut |ev| {
            if let Event::Finished(m) = ev {
                let t = m.median_ns().map(format_ns).unwrap_or_default();
                let why = m.reason.clone().unwrap_or_default();
                println!(
                    "{:<9} {:<18} {:<11} {:<9} {:>8} {:>12} {}",
                    m.status.as_str(),
                    m.primitive,
                    m.backend,
                    m.operation,
                    format_size(m.input_bytes),
                    t,
                    why
                );
            }
        });
        for t in suite.summarize(&ms) {
            println!("\n== {}", t.title);
            for r in t.rows.iter().take(12) {
                println!("  {}", r.join(" | "));
            }
            for n in &t.notes {
                println!("  note: {n}");
            }
        }
        let failed = ms.iter().filter(|m| m.status == CaseStatus::Failed).count();
        eprintln!("{} measurements, {failed} failed", ms.len());
    }
    eprintln!("wall time {:.1} s", t0.elapsed().as_secs_f64());
}
