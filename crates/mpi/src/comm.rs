//! The few collectives the benchmark needs, over bytes, each with its lone
//! (no MPI) equivalent so callers need not care whether MPI runs.
//!
//! Rank 0 is always the root. Counts travel as MPI's `int`, so one
//! collective moves at most 2 GiB - 1 bytes; more is an error, not a wrap.

use crate::world::World;
use cryptobench_core::Error;
use mpi::collective::Root;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::Communicator;
use mpi::Count;

fn count(n: usize) -> Result<Count, Error> {
    Count::try_from(n).map_err(|_| {
        Error::mpi(format!(
            "{n} bytes is more than one collective moves (2^31 - 1)"
        ))
    })
}

/// Displacements of consecutive blocks of `counts`.
fn displacements(counts: &[Count]) -> Result<Vec<Count>, Error> {
    let mut at: Count = 0;
    let mut out = Vec::with_capacity(counts.len());
    for &c in counts {
        out.push(at);
        at = at
            .checked_add(c)
            .ok_or_else(|| Error::mpi("a collective over 2 GiB"))?;
    }
    Ok(out)
}

/// Rank 0's `data` on every rank (`data` is ignored elsewhere).
pub fn broadcast_bytes(world: &World, data: Vec<u8>) -> Result<Vec<u8>, Error> {
    let Some(comm) = world.comm() else {
        return Ok(data);
    };
    let _wait = crate::watchdog::waiting("broadcast");
    let root = comm.process_at_rank(0);
    let mut len = data.len() as u64;
    root.broadcast_into(&mut len);
    let mut buf = if world.is_root() {
        data
    } else {
        vec![0u8; usize::try_from(len).map_err(|_| Error::mpi("broadcast too large"))?]
    };
    count(buf.len())?;
    root.broadcast_into(&mut buf[..]);
    Ok(buf)
}

/// Rank 0's `value` on every rank.
pub fn broadcast_u64(world: &World, value: u64) -> u64 {
    let Some(comm) = world.comm() else {
        return value;
    };
    let _wait = crate::watchdog::waiting("broadcast");
    let mut v = value;
    comm.process_at_rank(0).broadcast_into(&mut v);
    v
}

/// Scatterv: rank r receives `counts[r]` bytes of rank 0's `send` (blocks
/// in rank order). `counts` must be the same on every rank; `send` is
/// read on rank 0 only.
pub fn scatter_bytes(world: &World, send: &[u8], counts: &[usize]) -> Result<Vec<u8>, Error> {
    let Some(comm) = world.comm() else {
        return Ok(send[..counts.first().copied().unwrap_or(0).min(send.len())].to_vec());
    };
    let _wait = crate::watchdog::waiting("scatter");
    let mine = counts.get(world.rank()).copied().unwrap_or(0);
    let mut recv = vec![0u8; mine];
    let root = comm.process_at_rank(0);
    if world.is_root() {
        let c: Vec<Count> = counts.iter().map(|&n| count(n)).collect::<Result<_, _>>()?;
        let d = displacements(&c)?;
        if counts.iter().sum::<usize>() > send.len() {
            return Err(Error::mpi("scatter counts exceed the message"));
        }
        let partition = Partition::new(send, c, d);
        root.scatter_varcount_into_root(&partition, &mut recv[..]);
    } else {
        root.scatter_varcount_into(&mut recv[..]);
    }
    Ok(recv)
}

/// Gatherv: rank 0 receives every rank's `local` in rank order (`counts[r]`
/// bytes from rank r, the same `counts` on every rank); `None` elsewhere.
pub fn gather_bytes(
    world: &World,
    local: &[u8],
    counts: &[usize],
) -> Result<Option<Vec<u8>>, Error> {
    let Some(comm) = world.comm() else {
        return Ok(Some(local.to_vec()));
    };
    let _wait = crate::watchdog::waiting("gather");
    if counts.get(world.rank()).copied() != Some(local.len()) {
        return Err(Error::mpi(format!(
            "rank {} holds {} bytes to gather, but {:?} were announced",
            world.rank(),
            local.len(),
            counts.get(world.rank())
        )));
    }
    let root = comm.process_at_rank(0);
    if world.is_root() {
        let c: Vec<Count> = counts.iter().map(|&n| count(n)).collect::<Result<_, _>>()?;
        let d = displacements(&c)?;
        let mut recv = vec![0u8; counts.iter().sum()];
        {
            let mut partition = PartitionMut::new(&mut recv[..], c, d);
            root.gather_varcount_into_root(local, &mut partition);
        }
        Ok(Some(recv))
    } else {
        root.gather_varcount_into(local);
        Ok(None)
    }
}

/// Gathers the same number of f64 from every rank: rank 0 gets them rank
/// after rank, others `None`.
pub fn gather_f64(world: &World, local: &[f64]) -> Option<Vec<f64>> {
    let Some(comm) = world.comm() else {
        return Some(local.to_vec());
    };
    let _wait = crate::watchdog::waiting("gather");
    let root = comm.process_at_rank(0);
    if world.is_root() {
        let mut recv = vec![0f64; local.len() * world.size()];
        root.gather_into_root(local, &mut recv[..]);
        Some(recv)
    } else {
        root.gather_into(local);
        None
    }
}

/// Gathers a byte string of any length from every rank: rank 0 gets one
/// per rank, in rank order; others `None`.
pub fn gather_blobs(world: &World, local: &[u8]) -> Result<Option<Vec<Vec<u8>>>, Error> {
    let Some(comm) = world.comm() else {
        return Ok(Some(vec![local.to_vec()]));
    };
    let _wait = crate::watchdog::waiting("gather");
    let root = comm.process_at_rank(0);
    let mine = local.len() as u64;
    let lengths: Option<Vec<usize>> = if world.is_root() {
        let mut all = vec![0u64; world.size()];
        root.gather_into_root(&mine, &mut all[..]);
        Some(all.into_iter().map(|n| n as usize).collect())
    } else {
        root.gather_into(&mine);
        None
    };
    match lengths {
        Some(lengths) => {
            let all = gather_bytes(world, local, &lengths)?.unwrap_or_default();
            let mut out = Vec::with_capacity(lengths.len());
            let mut at = 0;
            for n in lengths {
                out.push(all[at..at + n].to_vec());
                at += n;
            }
            Ok(Some(out))
        }
        None => {
            // Only this rank's own count matters off the root.
            let mut counts = vec![0usize; world.size()];
            counts[world.rank()] = local.len();
            gather_bytes(world, local, &counts)?;
            Ok(None)
        }
    }
}

/// Balanced split of `units` encoding units over `ranks`: rank r gets
/// units `r*U/R .. (r+1)*U/R` (sizes differ by at most one).
pub fn balanced_units(units: usize, ranks: usize) -> Vec<std::ops::Range<usize>> {
    let ranks = ranks.max(1);
    (0..ranks)
        .map(|r| (r * units / ranks)..((r + 1) * units / ranks))
        .collect()
}

/// Byte counts of a `len`-byte message cut on units of `unit` bytes (the
/// last unit may be short) along `ranges`.
pub fn byte_counts(len: usize, unit: usize, ranges: &[std::ops::Range<usize>]) -> Vec<usize> {
    ranges
        .iter()
        .map(|r| (r.end * unit).min(len) - (r.start * unit).min(len))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_balanced_and_cover_everything() {
        for units in [0usize, 1, 5, 1024, 65537] {
            for ranks in [1usize, 2, 3, 4, 7] {
                let r = balanced_units(units, ranks);
                assert_eq!(r.len(), ranks);
                assert_eq!(r[0].start, 0);
                assert_eq!(r[ranks - 1].end, units);
                for w in r.windows(2) {
                    assert_eq!(w[0].end, w[1].start);
                }
                let sizes: Vec<usize> = r.iter().map(|x| x.len()).collect();
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "{units} over {ranks}: {sizes:?}");
            }
        }
    }

    #[test]
    fn packed_chunks_are_cut_on_unit_boundaries() {
        // 100 bytes in 30-byte units = 4 units (last one 10 bytes), 2 ranks.
        let ranges = balanced_units(100usize.div_ceil(30), 2);
        assert_eq!(byte_counts(100, 30, &ranges), vec![60, 40]);
        // 3 ranks: 1, 1, 2 units = 30, 30, 40 bytes.
        let ranges = balanced_units(4, 3);
        assert_eq!(byte_counts(100, 30, &ranges), vec![30, 30, 40]);
        // char: one byte per unit.
        assert_eq!(byte_counts(5, 1, &balanced_units(5, 2)), vec![2, 3]);
    }

    #[test]
    fn displacements_are_prefix_sums() {
        assert_eq!(displacements(&[3, 0, 4]).unwrap(), vec![0, 3, 3]);
    }
}
