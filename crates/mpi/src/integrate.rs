//! `cryptobench elgamal bench --mode ...,mpi,hybrid` from the elgamal
//! crate's own flags, so the binary needs no second parser.
//!
//! The elgamal grid knows `serial` and `threads` only; the `mpi` and
//! `hybrid` names are taken out here, the rest goes through
//! [`cryptobench_elgamal::cli::grid`] (curves, encodings, lengths with
//! units, arithmetic, thread counts, with its errors and suggestions), and
//! one [`MpiBenchOptions`] comes back per curve x arithmetic x encoding.

use crate::bench::{Mode, MpiBenchOptions};
use cryptobench_core::{names, Error, RunConfig};
use cryptobench_elgamal::arith;
use cryptobench_elgamal::cli::{grid, BenchArgs};
use cryptobench_elgamal::executor::ExecutorSpec;

const DISTRIBUTED: [&str; 2] = ["mpi", "hybrid"];

/// Whether `--mode` names `mpi` or `hybrid` (then [`options`] and
/// [`crate::bench`] run the benchmark instead of the elgamal suite).
pub fn wants_mpi(b: &BenchArgs) -> bool {
    b.mode.as_deref().is_some_and(|list| {
        list.split(',')
            .map(str::trim)
            .any(|m| DISTRIBUTED.contains(&names::fold(m).as_str()))
    })
}

/// The benchmarks `elgamal bench` flags describe, one per curve x
/// arithmetic x encoding. Samples: 2 with `--quick`, 15 with `--full`,
/// else 5 (each sample is a whole message on every rank).
pub fn options(b: &BenchArgs, cfg: &RunConfig) -> Result<Vec<MpiBenchOptions>, Error> {
    let requested = match b.mode.as_deref() {
        Some(list) => names::resolve_list("mode", list, &Mode::NAMES)?,
        None => vec!["serial", "mpi"],
    };
    let local: Vec<&str> = requested
        .iter()
        .copied()
        .filter(|m| !DISTRIBUTED.contains(m))
        .collect();
    let mut plain = b.clone();
    plain.mode = Some(if local.is_empty() {
        "serial".to_string()
    } else {
        local.join(",")
    });
    let g = grid(&plain, cfg)?.resolved(cfg);
    let threads: Vec<usize> = g
        .executors
        .iter()
        .flatten()
        .filter_map(|e| match e {
            ExecutorSpec::Threads(n) => Some(*n),
            ExecutorSpec::Serial => None,
        })
        .collect();
    // Hybrid takes the thread list as given: `--threads 1` means 2 ranks x
    // 1 thread (the grid turns a 1-thread `threads` mode into serial).
    let given: Option<Vec<usize>> = b.workers.as_deref().map(|list| {
        list.split(',')
            .filter_map(|t| t.trim().parse().ok())
            .filter(|&t| t >= 1)
            .collect()
    });
    let hybrid_threads = match given {
        Some(list) if !list.is_empty() => list,
        _ if threads.is_empty() => vec![(cfg.threads as usize).max(2)],
        _ => threads.clone(),
    };
    let mut modes: Vec<Mode> = Vec::new();
    for e in g.executors.iter().flatten() {
        modes.push(match e {
            ExecutorSpec::Serial => Mode::Serial,
            ExecutorSpec::Threads(n) => Mode::Threads(*n),
        });
    }
    if requested.contains(&"mpi") {
        modes.push(Mode::Mpi);
    }
    if requested.contains(&"hybrid") {
        modes.extend(hybrid_threads.iter().map(|&t| Mode::Hybrid(t)));
    }
    if !requested.contains(&"serial") && !requested.contains(&"threads") {
        // The serial baseline is kept for the speedup column.
        modes.retain(|m| m.distributed() || *m == Mode::Serial);
    }
    modes.dedup();
    let samples = if cfg.quick {
        2
    } else if cfg.full {
        15
    } else {
        5
    };
    let mut out = Vec::new();
    for &curve in g.curves.iter().flatten() {
        let ariths = match &g.ariths {
            Some(list) => list.clone(),
            None => vec![arith::default_for(curve)],
        };
        for backend in ariths
            .into_iter()
            .filter(|b| arith::backend::implements(*b, curve))
        {
            for &encoding in g.encodings.iter().flatten() {
                out.push(MpiBenchOptions {
                    curve,
                    arith: Some(backend),
                    encoding,
                    lengths: g.lengths.clone().unwrap_or_default(),
                    modes: modes.clone(),
                    samples,
                    warmup: 1,
                    ..MpiBenchOptions::default()
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_elgamal::curve::Curve;

    fn args(mode: &str) -> BenchArgs {
        BenchArgs {
            curve: Some("P-256".into()),
            lengths: Some("64KiB".into()),
            mode: Some(mode.into()),
            workers: Some("2,1000".into()),
            ..BenchArgs::default()
        }
    }

    #[test]
    fn mpi_modes_are_recognised() {
        assert!(wants_mpi(&args("serial,mpi")));
        assert!(wants_mpi(&args("Hybrid")));
        assert!(!wants_mpi(&args("serial,threads")));
        assert!(!wants_mpi(&BenchArgs::default()));
    }

    #[test]
    fn the_seed_grid_comes_through() {
        let cfg = RunConfig::default();
        let opts = options(&args("serial,threads,mpi,hybrid"), &cfg).unwrap();
        assert_eq!(opts.len(), 1);
        let o = &opts[0];
        assert_eq!(o.curve, Curve::P256);
        assert_eq!(o.lengths, vec![65536]);
        assert_eq!(
            o.modes,
            vec![
                Mode::Serial,
                Mode::Threads(2),
                Mode::Threads(1000),
                Mode::Mpi,
                Mode::Hybrid(2),
                Mode::Hybrid(1000)
            ]
        );
    }

    #[test]
    fn hybrid_with_one_thread_is_two_ranks_by_one_thread() {
        let mut a = args("serial,mpi,hybrid");
        a.workers = Some("1".into());
        let opts = options(&a, &RunConfig::default()).unwrap();
        assert_eq!(
            opts[0].modes,
            vec![Mode::Serial, Mode::Mpi, Mode::Hybrid(1)]
        );
    }

    #[test]
    fn mpi_alone_keeps_a_serial_baseline() {
        let opts = options(&args("mpi"), &RunConfig::default()).unwrap();
        assert_eq!(opts[0].modes, vec![Mode::Serial, Mode::Mpi]);
    }

    #[test]
    fn misspelt_modes_are_refused_with_a_suggestion() {
        let e = options(&args("serial,hybird"), &RunConfig::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("hybrid"), "{e}");
    }
}
