//! The MPI world as cryptobench uses it: started once, known everywhere,
//! and ended by `MPI_Abort` on any failure.
//!
//! The same binary runs under `mpirun` (each process one rank of the world)
//! or on its own. On its own it does not initialise MPI at all: singleton
//! initialisation would try to start OpenMPI's runtime daemon for nothing,
//! so a lone process is simply rank 0 of 1 and every collective is a copy.
//!
//! Why abort rather than return: a collective (scatter, gather, barrier)
//! completes only when every rank calls it. One rank that returns an error
//! and exits leaves the others blocked for ever. So every failure under
//! `mpirun` (an `Err`, a panic on any thread of any rank) prints one line
//! naming the rank and the cause on stderr, then calls `MPI_Abort`, which
//! makes `mpirun` kill every rank and exit non-zero. A rank killed by a
//! signal is `mpirun`'s own business: it notices and ends the job. A rank
//! that is stopped is the watchdog's ([`crate::watchdog`]).

use cryptobench_core::Error;
use mpi::collective::CommunicatorCollectives;
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::Threading;
use std::sync::OnceLock;
use std::time::Duration;

/// Exit status passed to `MPI_Abort` (EX_SOFTWARE of sysexits.h).
pub const ABORT_CODE: i32 = 70;

/// Environment variables that a launcher sets in every rank: OpenMPI's
/// `mpirun`, and PMI / PMIx launchers (Slurm `srun`, MPICH's `mpiexec`).
pub const LAUNCHER_VARS: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"];

/// Whether this process was started by an MPI launcher.
pub fn launched_under_mpirun() -> bool {
    LAUNCHER_VARS
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Where this process stands, fixed at [`init`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// This process's rank, 0..size.
    pub rank: usize,
    /// Processes in the world.
    pub size: usize,
    /// Whether MPI is initialised (false: alone, no MPI calls are made).
    pub active: bool,
}

static PLACE: OnceLock<Place> = OnceLock::new();

/// The world, while it lives. Dropping it finalises MPI, so keep it until
/// the end of `main` (and drop it before `std::process::exit`, which skips
/// destructors: `mpirun` reports a rank that exits without finalising as a
/// failure).
pub struct World {
    universe: Option<Universe>,
    place: Place,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("place", &self.place).finish()
    }
}

/// Starts the world: `MPI_Init_thread` with `Funneled` (worker threads
/// compute, only the main thread calls MPI) when launched under `mpirun`,
/// nothing otherwise; installs the abort-on-panic hook. Call it once, on
/// the main thread.
pub fn init() -> Result<World, Error> {
    if PLACE.get().is_some() {
        return Err(Error::mpi(
            "the world is already initialised in this process",
        ));
    }
    if !launched_under_mpirun() {
        let place = Place {
            rank: 0,
            size: 1,
            active: false,
        };
        let _ = PLACE.set(place);
        return Ok(World {
            universe: None,
            place,
        });
    }
    // Read before MPI starts, so a bad value fails every rank alike.
    let bound =
        crate::watchdog::bound_from(std::env::var(crate::watchdog::ENV_WATCHDOG).ok().as_deref())?;
    let (universe, provided) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| Error::mpi("initialised elsewhere in this process"))?;
    let comm = universe.world();
    let place = Place {
        rank: comm.rank() as usize,
        size: comm.size() as usize,
        active: true,
    };
    let _ = PLACE.set(place);
    install_abort_hook();
    crate::watchdog::start(bound, abort);
    if provided == Threading::Single {
        abort(&format!(
            "this MPI library provides thread level {provided:?}; \
             cryptobench needs at least Funneled for hybrid mode"
        ));
    }
    Ok(World {
        universe: Some(universe),
        place,
    })
}

impl World {
    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.place.rank
    }
    /// Ranks in the world.
    pub fn size(&self) -> usize {
        self.place.size
    }
    /// Rank 0: the one that reads input, prints, stores and exports.
    pub fn is_root(&self) -> bool {
        self.place.rank == 0
    }
    /// Whether MPI runs (false for a lone process).
    pub fn is_active(&self) -> bool {
        self.universe.is_some()
    }
    /// Where this process stands.
    pub fn place(&self) -> Place {
        self.place
    }
    /// The world communicator (only when active).
    pub(crate) fn comm(&self) -> Option<SimpleCommunicator> {
        self.universe.as_ref().map(Universe::world)
    }

    /// `Ok` passes through; an `Err` under `mpirun` aborts the whole job
    /// with the error on stderr (it never returns), and is returned as is
    /// when alone.
    pub fn check<T>(&self, result: Result<T, Error>) -> Result<T, Error> {
        match result {
            Err(e) if self.is_active() => abort(&e.to_string()),
            other => other,
        }
    }

    /// A barrier during which waiting ranks sleep instead of spinning, so
    /// an idle rank does not take a core from one that is being timed.
    pub fn idle_barrier(&self) {
        let Some(comm) = self.comm() else { return };
        let _wait = crate::watchdog::waiting("barrier");
        let mut request = comm.immediate_barrier();
        loop {
            match request.test() {
                Ok(_) => return,
                Err(pending) => request = pending,
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// A plain barrier (spinning; for timing starts).
    pub fn barrier(&self) {
        if let Some(comm) = self.comm() {
            let _wait = crate::watchdog::waiting("barrier");
            comm.barrier();
        }
    }
}

/// This process's place, once [`init`] has run.
pub fn place() -> Option<Place> {
    PLACE.get().copied()
}

/// Prints `cryptobench: rank R of N failed: MESSAGE; aborting the MPI job`
/// on stderr and ends every rank with `MPI_Abort`. Alone (or before
/// [`init`]) it prints `cryptobench: MESSAGE` and exits with [`ABORT_CODE`].
pub fn abort(message: &str) -> ! {
    match place() {
        Some(p) if p.active => {
            eprintln!(
                "cryptobench: rank {} of {} failed: {message}; aborting the MPI job",
                p.rank, p.size
            );
            SimpleCommunicator::world().abort(ABORT_CODE)
        }
        _ => {
            eprintln!("cryptobench: {message}");
            std::process::exit(ABORT_CODE)
        }
    }
}

/// On a panic of any thread of any rank: the usual panic message, then
/// [`abort`]. (`MPI_Abort` from a worker thread steps outside `Funneled`;
/// OpenMPI honours it, and the alternative is a job that never ends.)
fn install_abort_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown payload".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        abort(&format!("panic: {what}{at}"));
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launcher_detection_reads_the_environment() {
        // The test harness is not started by mpirun.
        if LAUNCHER_VARS.iter().all(|v| std::env::var_os(v).is_none()) {
            assert!(!launched_under_mpirun());
        }
    }
}
