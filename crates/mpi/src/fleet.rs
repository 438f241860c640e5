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
    let json =
        serde_json::to_vec(local).map_err(|e| Error::failed("serialising this rank's run", e))?;
    let Some(blobs) = crate::comm::gather_blobs(world, &json)? else {
        return Ok(None);
    };
    blobs
        .iter()
        .enumerate()
        .map(|(rank, b)| {
            serde_json::from_slice::<Run>(b)
                .map_err(|e| Error::failed(format!("the run sent by rank {rank}"), e))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The fleet id of `hosts` runs whose rank 0 run started as `base`
/// (e.g. `fleet-20261122-031502-4f2a-h2`).
pub fn fleet_id_for(base: &str, hosts: usize) -> String {
    format!("fleet-{base}-h{hosts}")
}

/// The id of rank `rank`'s run in a fleet whose runs started as `base`.
pub fn host_run_id(base: &str, rank: usize) -> String {
    format!("{base}-r{rank}")
}

/// The rank a fleet run id names (`...-r1` -> 1), if any.
pub fn rank_of(run_id: &str) -> Option<usize> {
    run_id.rsplit_once("-r").and_then(|(_, n)| n.parse().ok())
}

/// A fleet id shared by the runs of one fleet: rank 0's run id with a
/// `fleet-` prefix and the host count (e.g. `fleet-20261122-031502-4f2a-h2`).
pub fn fleet_id(runs: &[Run]) -> String {
    let first = runs.first().map_or("empty", |r| r.id.as_str());
    fleet_id_for(first, runs.len())
}

/// Stamps `fleet_id` on every run and makes run ids unique per host (rank
/// suffix), so the store keeps them as separate runs of one fleet.
pub fn stamp_fleet(runs: &mut [Run]) {
    let id = fleet_id(runs);
    for (rank, run) in runs.iter_mut().enumerate() {
        run.fleet = Some(id.clone());
        if !run.id.ends_with(&host_run_id("", rank)) {
            run.id = host_run_id(&run.id, rank);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleet_names_round_trip() {
        assert_eq!(
            fleet_id_for("20261122-031502-4f2a", 2),
            "fleet-20261122-031502-4f2a-h2"
        );
        let id = host_run_id("20261122-031502-4f2a", 3);
        assert_eq!(id, "20261122-031502-4f2a-r3");
        assert_eq!(rank_of(&id), Some(3));
        assert_eq!(rank_of("20261122-031502-4f2a"), None);
    }
}
