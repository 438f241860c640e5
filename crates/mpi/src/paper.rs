//! `cryptobench paper ecelgamal-parallel` under `mpirun`: the distributed
//! half of seed 002 (Parallel One and Three) as benchmark options.
//!
//! All three programs run in one benchmark with one serial baseline, so the
//! seed's ranking "shared memory > distributed > hybrid" compares speedups
//! measured under the same conditions: serial and 2 threads on rank 0 (the
//! other ranks idle), `mpi` on every rank, `hybrid` on every rank at the
//! seed's thread counts.

use crate::bench::{Mode, MpiBenchOptions};
use cryptobench_core::RunConfig;
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_elgamal::paper::{distributed_rounds, lengths};
use cryptobench_elgamal::suite::SEED_THREADS;

/// The paper that has a distributed half.
pub const PAPER: &str = "ecelgamal-parallel";

/// One benchmark per curve (64-bit keys: toy64, 256-bit keys: P-256).
pub fn options(cfg: &RunConfig) -> Vec<MpiBenchOptions> {
    let mut modes = vec![Mode::Serial, Mode::Threads(2), Mode::Mpi];
    modes.extend(SEED_THREADS.iter().map(|&n| Mode::Hybrid(n)));
    [Curve::Toy64, Curve::P256]
        .into_iter()
        .map(|curve| MpiBenchOptions {
            curve,
            arith: None,
            encoding: Encoding::Char,
            lengths: lengths(cfg),
            modes: modes.clone(),
            samples: distributed_rounds(cfg),
            warmup: 1,
            ..MpiBenchOptions::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_grid_runs_all_three_programs() {
        let opts = options(&RunConfig::quick());
        assert_eq!(opts.len(), 2);
        let o = &opts[0];
        assert_eq!(o.lengths, vec![1024]);
        assert_eq!(o.samples, 2);
        assert!(o.modes.contains(&Mode::Mpi));
        assert!(o.modes.contains(&Mode::Threads(2)));
        assert_eq!(o.modes.last(), Some(&Mode::Hybrid(1000)));
        assert_eq!(options(&RunConfig::default())[1].lengths.len(), 3);
    }
}
