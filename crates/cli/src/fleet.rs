//! `cryptobench run --fleet` under `mpirun`: one rank per host, every host
//! measures the same suites at the same time, and rank 0 stores each host's
//! run as its own run of one fleet, then prints them side by side.
//!
//! The ranks agree on the ids before measuring (rank 0 draws one and
//! broadcasts it; rank R's run is `ID-rR`, the fleet `fleet-ID-hH`), so
//! rank 0 commits its own measurements live as any run does, and a crash
//! of another rank loses nothing rank 0 has measured. The other ranks keep
//! no store and write no file: their runs reach rank 0 as JSON, the
//! store's own format, when every rank is done.

use crate::app::{self, RunIdentity};
use crate::args::{Global, RunArgs};
use crate::output;
use anyhow::Result;
use cryptobench_core::{Error, Run, RunConfig, Suite};
use cryptobench_mpi::World;
use cryptobench_report::{tables, text};

/// Runs `suites` on every rank and gathers the runs to rank 0.
pub fn run_fleet(
    g: &Global,
    a: &RunArgs,
    cfg: &RunConfig,
    suites: Vec<Box<dyn Suite>>,
    world: &World,
) -> Result<u8> {
    let identity = agree_on_identity(world)?;
    let local_g = if world.is_root() {
        g.clone()
    } else {
        // Only rank 0 stores, prints and exports.
        let mut quiet = g.clone();
        quiet.no_db = true;
        quiet.quiet = true;
        quiet.outputs.clear();
        quiet
    };
    let measured = app::bench_as(&local_g, cfg, suites, world.is_root(), Some(identity))
        .map_err(|e| Error::failed("measuring on this rank", format!("{e:#}")));
    let outcome = world.check(measured)?;
    // Ranks that finish early sleep here rather than spin inside the
    // gather, so they take no core from a host still measuring.
    world.idle_barrier();
    let Some(runs) = cryptobench_mpi::gather_runs(world, &outcome.run)? else {
        return Ok(0);
    };
    store_other_hosts(g, &runs)?;
    output::print_run_with(g, &outcome.run, &outcome.suites, output::Detail::Summary)?;
    if !g.quiet {
        println!("{}", text::render(&tables::fleet_table(&runs), false));
        let ids: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
        println!(
            "fleet runs: {} (compare two hosts: `cryptobench compare {} {}`)",
            ids.join(", "),
            ids[0],
            ids.get(1).copied().unwrap_or(ids[0])
        );
    }
    if !a.no_report {
        let mut extras = crate::advice::report_extras(cfg, &outcome.run, None, None);
        extras.fleet = runs.clone();
        crate::advice::write_run_report(g, &a.report, &outcome, &extras, " (rank 0's run)")?;
    }
    let failed = runs.iter().any(|r| r.has_failures());
    Ok(if outcome.exit_code() != 0 {
        outcome.exit_code()
    } else {
        u8::from(failed)
    })
}

/// Rank 0's fresh run id, known to every rank, and this rank's identity.
fn agree_on_identity(world: &World) -> Result<RunIdentity> {
    let base = cryptobench_mpi::comm::broadcast_bytes(world, app::new_run_id().into_bytes())?;
    let base = String::from_utf8(base).map_err(|e| Error::failed("the run id broadcast", e))?;
    Ok(RunIdentity {
        id: cryptobench_mpi::fleet::host_run_id(&base, world.rank()),
        fleet: Some(cryptobench_mpi::fleet::fleet_id_for(&base, world.size())),
    })
}

/// Stores every host's run but rank 0's (already stored as it ran).
fn store_other_hosts(g: &Global, runs: &[Run]) -> Result<()> {
    let Some(store) = app::open_store(g)? else {
        return Ok(());
    };
    for run in runs.iter().skip(1) {
        // `begin_run` stores the measurements the run holds with it.
        store.begin_run(run)?;
        store.finish_run(
            &run.id,
            run.status,
            run.finished_at.as_deref().unwrap_or(""),
        )?;
    }
    Ok(())
}
