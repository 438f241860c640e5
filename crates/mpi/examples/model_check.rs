//! The scaling model against live runs: reads the measurements of a 1-rank
//! and a 2-rank `mpi`-mode run of the same message (`mpi_elgamal --json`)
//! and prints, per operation, the model's 2-rank time beside the measured
//! one. `scripts/mpi-model-check` makes the two runs.
//!
//! `cargo run -p cryptobench-mpi --example model_check -- ONE.json TWO.json CHARS`

use cryptobench_core::Measurement;
use cryptobench_mpi::model::{predict_time, Network, RankRun, Workload};
use std::process::ExitCode;

/// What stops the comparison.
#[derive(Debug, thiserror::Error)]
enum CheckError {
    #[error("CHARS {0}: accepted a whole number of characters")]
    Chars(String),
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a list of measurements: {source}")]
    Parse {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: no {operation} measurement")]
    NoOperation { path: String, operation: String },
    #[error("the {operation} measurement has no {field} (not from `mpi_elgamal --json`?)")]
    NoField { operation: String, field: String },
}

fn read(path: &str) -> Result<Vec<Measurement>, CheckError> {
    let text = std::fs::read_to_string(path).map_err(|source| CheckError::Read {
        path: path.into(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| CheckError::Parse {
        path: path.into(),
        source,
    })
}

fn run_of(m: &Measurement) -> Result<RankRun, CheckError> {
    let get = |k: &str| {
        m.extra.get(k).copied().ok_or_else(|| CheckError::NoField {
            operation: m.operation.clone(),
            field: k.into(),
        })
    };
    Ok(RankRun {
        wall_s: get("wall_s")?,
        compute_s: get("compute_s")?,
        pack_s: get("pack_s")?,
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [one, two, chars] = args.as_slice() else {
        eprintln!("usage: model_check ONE_RANK.json TWO_RANK.json CHARS");
        return ExitCode::from(2);
    };
    let report = || -> Result<(), CheckError> {
        let chars: usize = chars
            .parse()
            .map_err(|_| CheckError::Chars(chars.clone()))?;
        let (ones, twos) = (read(one)?, read(two)?);
        for op in ["encrypt", "decrypt"] {
            let find = |ms: &[Measurement], path: &str| {
                ms.iter()
                    .find(|m| m.operation == op)
                    .cloned()
                    .ok_or_else(|| CheckError::NoOperation {
                        path: path.into(),
                        operation: op.into(),
                    })
            };
            let (m1, m2) = (find(&ones, one)?, find(&twos, two)?);
            let bytes_per_char = m2.extra.get("bytes_moved_per_char").copied().unwrap_or(0.0);
            let collectives = if op == "encrypt" { 2 } else { 1 };
            let w = Workload::from_runs(
                run_of(&m1)?,
                run_of(&m2)?,
                2,
                chars,
                chars,
                bytes_per_char,
                collectives,
            );
            let predicted = predict_time(&w, &Network::SHARED_MEMORY, 2);
            let measured = run_of(&m2)?.wall_s;
            println!(
                "{op}: 1 rank {:.4} s, serial fraction {:.4}, E {:.2}, 2 ranks predicted \
                 {predicted:.4} s, measured {measured:.4} s ({:.1}% off)",
                w.t1_s,
                w.serial_fraction,
                w.efficiency,
                (predicted - measured).abs() / measured * 100.0
            );
        }
        Ok(())
    };
    match report() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("model_check: {e}");
            ExitCode::FAILURE
        }
    }
}
