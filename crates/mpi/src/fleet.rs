//! Fleet runs: one `mpirun` over H hosts (one rank per host) runs the same
//! suites everywhere at once and rank 0 stores every host's run.
//!
//! Each rank measures on its own and ends with a [`Run`]; [`gather_runs`]
//! serialises it as JSON (the store's own format, so nothing is lost) and
//! gathers the texts to rank 0, which gets them in rank order. The binary
//! then stamps one fleet id on them and stores each as its own run.

use crate::world::World;
use cryptobench_core::{Error, Run};

/// Every rank's run on rank 0 (rank order; `Some`), `None` on the others.
/// Under `mpirun` a failure aborts the job (see [`crate::world`]).
pub fn gather_runs(world: &World, local: &Run) -> Result<Option<Vec<Run>>, Error> {
    let result = gather(world, local);
    world.check(result)
}

fn gather(world: &World, local: &Run) -> Result<Option<Vec<Run>>, Error> {
    let json = serde_json::to_vec(local)
        .map_err(|e| Error::other(format!("cannot serialise this rank's run: {e}")))?;
    let Some(blobs) = crate::comm::gather_blobs(world, &json)? else {
        return Ok(None);
    };
    blobs
        .iter()
        .enumerate()
        .map(|(rank, b)| {
            serde_json::from_slice::<Run>(b)
                .map_err(|e| Error::other(format!("run sent by rank {rank} does not parse: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// A fleet id shared by the runs of one fleet: rank 0's run id with a
/// `fleet-` prefix and the host count (e.g. `fleet-20261122-031502-4f2a-h2`).
pub fn fleet_id(runs: &[Run]) -> String {
    let first = runs.first().map_or("empty", |r| r.id.as_str());
    format!("fleet-{first}-h{}", runs.len())
}

/// Stamps `fleet_id` on every run and makes run ids unique per host (rank
/// suffix), so the store keeps them as separate runs of one fleet.
pub fn stamp_fleet(runs: &mut [Run]) {
    let id = fleet_id(runs);
    for (rank, run) in runs.iter_mut().enumerate() {
        run.fleet = Some(id.clone());
        let suffix = format!("-r{rank}");
        if !run.id.ends_with(&suffix) {
            run.id.push_str(&suffix);
        }
    }
}
