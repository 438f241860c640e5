//! EC-ElGamal over MPI from the command line, for trying the modes and for
//! the tests that launch it under `mpirun`.
//!
//! ```text
//! mpirun --allow-run-as-root --oversubscribe -n 2 target/release/examples/mpi_elgamal \
//!     --lengths 65536 --mode serial,mpi,hybrid --threads 1
//! ```
//!
//! Flags: `--curve`, `--arith`, `--encoding`, `--lengths`, `--mode`,
//! `--threads`, `--samples`, `--warmup`, `--key FILE`, `--message FILE`
//! (read by rank 0), `--json FILE` (rank 0 writes the measurements),
//! `--model` (print the scaling model from this run), `--fleet-demo`
//! (gather one small run per rank), `--inject panic:R|kill:R|worker-panic:R|stop:R` (a failing
//! rank, for the tests).

use cryptobench_core::{Error, Fingerprint, Run, RunStatus, SCHEMA};
use cryptobench_elgamal::arith;
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_mpi::bench::{render, table};
use cryptobench_mpi::model::{self, Network, Workload};
use cryptobench_mpi::{Fault, Mode, MpiBenchOptions, World};
use std::path::PathBuf;

struct Args {
    opts: MpiBenchOptions,
    json: Option<PathBuf>,
    model: bool,
    fleet_demo: bool,
}

fn list(v: &str) -> Result<Vec<usize>, Error> {
    v.split(',')
        .map(|s| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| Error::usage(format!("'{s}' is not a whole number")))
        })
        .collect()
}

fn parse(argv: &[String]) -> Result<Args, Error> {
    let mut opts = MpiBenchOptions::default();
    let (mut modes, mut threads) = ("serial,mpi".to_string(), Vec::new());
    let (mut json, mut model, mut fleet_demo) = (None, false, false);
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| Error::usage(format!("{flag} needs a value")))
        };
        match flag.as_str() {
            "--curve" => opts.curve = Curve::parse(&value()?)?,
            "--arith" => opts.arith = Some(arith::parse(&value()?)?),
            "--encoding" => opts.encoding = Encoding::parse(&value()?)?,
            "--lengths" => opts.lengths = list(&value()?)?,
            "--mode" => modes = value()?,
            "--threads" => threads = list(&value()?)?,
            "--samples" => opts.samples = list(&value()?)?.first().copied().unwrap_or(0),
            "--warmup" => opts.warmup = list(&value()?)?.first().copied().unwrap_or(0),
            "--key" => opts.key_file = Some(PathBuf::from(value()?)),
            "--message" => opts.message_file = Some(PathBuf::from(value()?)),
            "--json" => json = Some(PathBuf::from(value()?)),
            "--model" => model = true,
            "--fleet-demo" => fleet_demo = true,
            "--inject" => {
                let v = value()?;
                let (kind, rank) = v.split_once(':').unwrap_or((v.as_str(), "1"));
                let rank = list(rank)?.first().copied().unwrap_or(1);
                opts.fault = Some(match kind {
                    "panic" => Fault::PanicOnRank(rank),
                    "kill" => Fault::KillRank(rank),
                    "worker-panic" => Fault::PanicInWorker(rank),
                    "stop" => Fault::StopRank(rank),
                    other => {
                        return Err(cryptobench_core::names::unknown(
                            "fault",
                            other,
                            &["panic", "kill", "worker-panic", "stop"],
                        ))
                    }
                });
            }
            other => {
                return Err(Error::usage(format!(
                    "unknown flag {other}; see the top of examples/mpi_elgamal.rs"
                )))
            }
        }
    }
    opts.modes = Mode::parse_list(&modes, &threads)?;
    Ok(Args {
        opts,
        json,
        model,
        fleet_demo,
    })
}

fn fleet_demo(world: &World) -> Result<(), Error> {
    let run = Run {
        schema: SCHEMA.into(),
        id: format!("demo-rank{}", world.rank()),
        started_at: "2026-01-01T00:00:00Z".into(),
        finished_at: None,
        status: RunStatus::Complete,
        command: vec!["mpi_elgamal".into(), "--fleet-demo".into()],
        machine: Fingerprint {
            hostname: format!("host-of-rank-{}", world.rank()),
            ..Fingerprint::default()
        },
        fleet: None,
        measurements: Vec::new(),
    };
    if let Some(mut runs) = cryptobench_mpi::gather_runs(world, &run)? {
        cryptobench_mpi::fleet::stamp_fleet(&mut runs);
        for r in &runs {
            println!(
                "fleet run {} from {} in {}",
                r.id,
                r.machine.hostname,
                r.fleet.as_deref().unwrap_or("-")
            );
        }
    }
    Ok(())
}

/// The model from a run's own figures: T1 is the work of every rank added
/// up (compute + pack) plus the communication, the serial fraction is the
/// communication's share of that. A 1-rank run gives T1 directly.
fn model_table(ms: &[cryptobench_core::Measurement]) {
    for m in ms.iter().filter(|m| m.param("mode") == Some("mpi")) {
        let ranks: usize = m.param("ranks").and_then(|r| r.parse().ok()).unwrap_or(1);
        let get = |k: &str| m.extra.get(k).copied().unwrap_or(0.0);
        let busy: f64 = (0..ranks)
            .map(|r| get(&format!("rank{r}_compute_s")) + get(&format!("rank{r}_pack_s")))
            .sum();
        let t1 = busy + get("communication_s");
        if t1 <= 0.0 {
            continue;
        }
        let w = Workload {
            t1_s: t1,
            serial_fraction: get("communication_s") / t1,
            chars: m.input_bytes as usize,
            units: m.input_bytes as usize,
            bytes_per_char: m.extra.get("bytes_moved_per_char").copied().unwrap_or(1.0),
            collectives: if m.operation == "encrypt" { 2 } else { 1 },
            efficiency: 1.0,
        };
        println!("{} (from {ranks} rank(s), T1 = {t1:.3} s):", m.operation);
        print!(
            "{}",
            render(&model::table(
                &w,
                &[
                    Network::SHARED_MEMORY,
                    Network::TEN_GIGABIT,
                    Network::GIGABIT
                ]
            ))
        );
    }
}

fn main() {
    let world = match cryptobench_mpi::init() {
        Ok(w) => w,
        Err(e) => cryptobench_mpi::abort(&e.to_string()),
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let code = match world.check(parse(&argv)).and_then(|args| {
        if args.fleet_demo {
            return fleet_demo(&world);
        }
        let measured = cryptobench_mpi::bench(&world, &args.opts)?;
        if let Some(ms) = measured {
            println!(
                "{} rank(s); this machine has {} logical CPUs",
                world.size(),
                std::thread::available_parallelism().map_or(0, |n| n.get())
            );
            print!("{}", render(&table(&ms)));
            if args.model {
                model_table(&ms);
            }
            if let Some(path) = &args.json {
                let text = serde_json::to_string_pretty(&ms)
                    .map_err(|e| Error::failed("the measurements' JSON", e))?;
                std::fs::write(path, text)
                    .map_err(|e| Error::usage(format!("cannot write {}: {e}", path.display())))?;
            }
        }
        Ok(())
    }) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("mpi_elgamal: {e}");
            if matches!(e, Error::Usage(_)) {
                2
            } else {
                1
            }
        }
    };
    drop(world);
    std::process::exit(code);
}
