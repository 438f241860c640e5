//! EC-ElGamal distributed over MPI (seed 002's Parallel One and Parallel
//! Three) and fleet runs, on OpenMPI through rsmpi.
//!
//! The same binary runs under `mpirun` (one process per rank) or alone (one
//! rank, no MPI calls). Layers: [`world`] (initialisation with `Funneled`
//! threading, rank and size, abort on any failure so no job hangs),
//! [`comm`] (the byte collectives), [`dist`] (the `mpi` and `hybrid`
//! executors and one distributed round), [`bench`] (the benchmark entry
//! point, measurements in the elgamal suite's conventions), [`fleet`]
//! (every rank's run gathered to rank 0), [`paper`] (seed 002's
//! distributed half for `paper ecelgamal-parallel`), [`integrate`] (the elgamal
//! command's flags to benchmark options) and [`model`] (predicted speedup on
//! 2..64 hosts); [`watchdog`] ends a job whose rank stopped answering.
//! docs/mpi.md tells how to launch it.
#![deny(missing_docs)]

pub mod bench;
pub mod comm;
pub mod dist;
pub mod fleet;
pub mod integrate;
pub mod model;
pub mod paper;
pub mod watchdog;
pub mod world;

pub use bench::{bench, Mode, MpiBenchOptions};
pub use dist::{Fault, Hybrid, Mpi};
pub use fleet::gather_runs;
pub use world::{abort, init, launched_under_mpirun, World};
