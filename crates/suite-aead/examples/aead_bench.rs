//! Runs the aead suite through the engine without the full binary and
//! prints each case, the suite's tables and the two papers' tables.
//!
//! `cargo run --release -p cryptobench-suite-aead --example aead_bench -- --quick`
//! accepts the `cryptobench aead` flags (`--algorithms`, `--sizes`, ...).

use clap::Parser;
use cryptobench_core::{units, CaseStatus, RunConfig, Suite, SuiteAction, Table};
use cryptobench_suite_aead::cli::{command, AeadArgs};

#[derive(Parser)]
struct Args {
    /// Smoke run.
    #[arg(long)]
    quick: bool,
    /// Run a paper's experiment instead (aegis, gcm-vs-ccm).
    #[arg(long)]
    paper: Option<String>,
    #[command(flatten)]
    aead: AeadArgs,
}

fn print(t: &Table) {
    println!("\n== {}", t.title);
    println!("{}", t.headers.join(" | "));
    for r in &t.rows {
        println!("{}", r.join(" | "));
    }
    for n in &t.notes {
        println!("  {n}");
    }
}

fn main() {
    let args = Args::parse();
    let cfg = RunConfig::quick_if(args.quick);
    let (suites, paper): (Vec<Box<dyn Suite>>, _) = match &args.paper {
        Some(name) => {
            let p = cryptobench_suite_aead::papers()
                .into_iter()
                .find(|p| p.name() == name)
                .expect("paper name");
            (p.suites(&cfg).expect("suites"), Some(p))
        }
        None => match command(&args.aead, &cfg) {
            Ok(SuiteAction::Bench(s)) => (s, None),
            Ok(SuiteAction::Done(code)) => std::process::exit(code.into()),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
    };
    let started = std::time::Instant::now();
    let mut all = Vec::new();
    for suite in &suites {
        let plan = match suite.plan(&cfg) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        };
        let (ms, _) = cryptobench_engine::run_cases(&plan, &cfg.budget, &mut |_| {});
        for m in &ms {
            let figure = match (&m.stats, m.status) {
                (Some(s), CaseStatus::Measured) => format!(
                    "{:>12} {:>14}",
                    s.bytes_per_s.map(units::format_rate).unwrap_or_default(),
                    units::format_ops(s.ops_per_s)
                ),
                _ => format!(
                    "{} {}",
                    m.status.as_str(),
                    m.reason.clone().unwrap_or_default()
                ),
            };
            println!(
                "{:<20} {:<19} {:<9} {:>8}  {}",
                m.primitive,
                m.backend,
                m.operation,
                units::format_size(m.input_bytes),
                figure
            );
        }
        for t in suite.summarize(&ms) {
            print(&t);
        }
        all.extend(ms);
    }
    if let Some(p) = paper {
        for t in p.render(&all) {
            print(&t);
        }
    }
    println!(
        "\n{} cases in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
}
