//! Seed 002's Parallel One (ranks) and Parallel Three (ranks x threads) on
//! top of the elgamal crate's cipher.
//!
//! One round, as the seed runs it: rank 0 holds the message; it scatters
//! balanced shares cut on encoding units (Scatterv); every rank encrypts its
//! share with its own tables, then decrypts and decodes its own pairs and
//! asserts them equal to its share; rank 0 gathers the compressed ciphertext
//! and the plaintext (Gatherv) and checks the round trip. The ciphertext
//! stays on the rank that made it for decryption, as in the seed: moving it
//! would add a point decompression (a square root) per pair that no serial
//! run pays.
//!
//! Inside a rank, [`Mpi`] runs its share on the calling thread and
//! [`Hybrid`] on the elgamal crate's [`Threads`]; both implement the elgamal
//! [`Executor`] seam, so the cipher does not know it is distributed.
//!
//! Every rank times each phase of its own round: communication in
//! (scatter), compute (encrypt or decrypt), communication out (pack +
//! gather). Rank 0 collects the per-rank times.

use crate::comm;
use crate::world::World;
use cryptobench_core::Error;
use cryptobench_elgamal::arith::Arithmetic;
use cryptobench_elgamal::cipher::{Ciphertext, Keys};
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_elgamal::executor::{map_parts, Executor, Serial, Threads};
use cryptobench_elgamal::keys::RngSource;
use std::time::Instant;

/// Parallel One: inside a rank, the share runs on the calling thread.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mpi;

impl Executor for Mpi {
    fn mode(&self) -> &'static str {
        "mpi"
    }
}

/// Parallel Three: inside a rank, the share runs on `threads` workers.
#[derive(Debug, Clone, Copy)]
pub struct Hybrid {
    inner: Threads,
    threads: usize,
}

impl Hybrid {
    /// `threads` workers per rank (1..=1000).
    pub fn new(threads: usize) -> Result<Self, Error> {
        Ok(Self {
            inner: Threads::new(threads)?,
            threads,
        })
    }
    /// Workers per rank.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl Executor for Hybrid {
    fn mode(&self) -> &'static str {
        "hybrid"
    }
    fn workers(&self) -> usize {
        self.threads
    }
    fn run(&self, parts: usize, task: &(dyn Fn(usize) + Sync)) -> Result<(), Error> {
        self.inner.run(parts, task)
    }
}

/// Seconds one rank spent in each phase of one operation.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseTimes {
    /// Receiving its share (scatter); 0 for decryption.
    pub comm_in: f64,
    /// Encrypting or decrypting its share.
    pub compute: f64,
    /// Serialising its output for the gather (compressing the points).
    pub pack: f64,
    /// The gather (includes waiting for slower ranks).
    pub comm_out: f64,
    /// From the common start to the end of the gather.
    pub wall: f64,
}

impl PhaseTimes {
    const LEN: usize = 5;
    fn to_array(self) -> [f64; Self::LEN] {
        [
            self.comm_in,
            self.compute,
            self.pack,
            self.comm_out,
            self.wall,
        ]
    }
    fn from_slice(v: &[f64]) -> Self {
        Self {
            comm_in: v[0],
            compute: v[1],
            pack: v[2],
            comm_out: v[3],
            wall: v[4],
        }
    }
}

/// One operation summed up over ranks, the seed's way (maximum over ranks).
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseSummary {
    /// Per rank, in rank order.
    pub ranks: Vec<PhaseTimes>,
}

impl PhaseSummary {
    /// The operation's time: the slowest rank's wall time.
    pub fn wall(&self) -> f64 {
        self.ranks.iter().map(|r| r.wall).fold(0.0, f64::max)
    }
    /// The slowest rank's compute time.
    pub fn compute_max(&self) -> f64 {
        self.ranks.iter().map(|r| r.compute).fold(0.0, f64::max)
    }
    /// The fastest rank's compute time.
    pub fn compute_min(&self) -> f64 {
        self.ranks
            .iter()
            .map(|r| r.compute)
            .fold(f64::INFINITY, f64::min)
    }
    /// Load imbalance: slowest minus fastest compute.
    pub fn imbalance(&self) -> f64 {
        (self.compute_max() - self.compute_min()).max(0.0)
    }
    /// The slowest rank's packing time (point compression for the gather).
    pub fn pack_max(&self) -> f64 {
        self.ranks.iter().map(|r| r.pack).fold(0.0, f64::max)
    }
    /// Time on the critical path spent in MPI: the wall time minus the
    /// slowest rank's compute + pack (scatter, gather transfer, barriers'
    /// skew). Waiting for a slower rank is imbalance, not communication.
    pub fn communication(&self) -> f64 {
        let busy = self
            .ranks
            .iter()
            .map(|r| r.compute + r.pack)
            .fold(0.0, f64::max);
        (self.wall() - busy).max(0.0)
    }
    /// Communication as a fraction of the wall time.
    pub fn comm_fraction(&self) -> f64 {
        let w = self.wall();
        if w > 0.0 {
            self.communication() / w
        } else {
            0.0
        }
    }
}

/// What rank 0 learns from one round.
#[derive(Debug, Clone)]
pub struct RoundReport {
    /// Encryption, per rank.
    pub encrypt: PhaseSummary,
    /// Decryption, per rank.
    pub decrypt: PhaseSummary,
    /// Every compressed pair (y1 || y2), in message order.
    pub ciphertext: Vec<u8>,
    /// Pairs on each rank.
    pub pairs_per_rank: Vec<usize>,
    /// Bytes scattered to and gathered from each rank, for the scaling model.
    pub bytes_moved: usize,
}

/// A deliberate failure, for the tests that prove a failing rank ends the
/// job (`--inject` of the example).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// This rank panics after receiving its share.
    PanicOnRank(usize),
    /// This rank kills itself with SIGKILL after receiving its share.
    KillRank(usize),
    /// A worker thread of this rank's executor panics (hybrid: not the
    /// main thread, so only the panic hook can end the job).
    PanicInWorker(usize),
    /// This rank stops itself with SIGSTOP after receiving its share: alive
    /// but silent, so only the watchdog can end the job.
    StopRank(usize),
}

/// How a message of `len` bytes is cut: units per rank and bytes per rank.
#[derive(Debug, Clone, PartialEq)]
pub struct Shares {
    /// Pairs (encoding units) per rank.
    pub pairs: Vec<usize>,
    /// Plaintext bytes per rank.
    pub bytes: Vec<usize>,
    /// First plaintext byte of each rank's share.
    pub starts: Vec<usize>,
}

impl Shares {
    /// Balanced shares of `len` bytes in units of `unit` bytes over `ranks`.
    pub fn new(len: usize, unit: usize, ranks: usize) -> Self {
        let ranges = comm::balanced_units(len.div_ceil(unit.max(1)), ranks);
        let bytes = comm::byte_counts(len, unit.max(1), &ranges);
        let starts = ranges.iter().map(|r| (r.start * unit).min(len)).collect();
        Self {
            pairs: ranges.iter().map(|r| r.len()).collect(),
            bytes,
            starts,
        }
    }
}

fn fire(fault: Option<Fault>, rank: usize, exec: &dyn Executor) {
    match fault {
        Some(Fault::PanicInWorker(r)) if r == rank => {
            let _ = exec.run(1, &|_| {
                panic!("injected fault: a worker thread of rank {rank} panics")
            });
        }
        Some(Fault::PanicOnRank(r)) if r == rank => {
            panic!("injected fault: rank {rank} panics while the others wait in the gather")
        }
        Some(Fault::KillRank(r)) if r == rank => {
            let pid = std::process::id().to_string();
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid])
                .status();
            // If `kill` is missing, die anyway without unwinding.
            std::process::abort();
        }
        Some(Fault::StopRank(r)) if r == rank => {
            let pid = std::process::id().to_string();
            let stopped = std::process::Command::new("kill")
                .args(["-STOP", &pid])
                .status();
            // Without `kill`, a sleep as long as a hang does the same.
            if !stopped.is_ok_and(|s| s.success()) {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        _ => {}
    }
}

/// Runs one distributed round on every rank. `msg` is read on rank 0 only
/// (other ranks pass an empty slice); `len` must be the same everywhere.
/// Rank 0 gets `Some(report)` after checking the gathered plaintext equals
/// `msg`; other ranks get `None`.
pub fn round<A: Arithmetic>(
    world: &World,
    keys: &Keys<A>,
    msg: &[u8],
    len: usize,
    encoding: Encoding,
    exec: &dyn Executor,
    fault: Option<Fault>,
) -> Result<Option<RoundReport>, Error> {
    let curve = keys.curve();
    let unit = encoding.chunk_bytes(curve);
    let point_bytes = 2 * curve.compressed_len();
    let shares = Shares::new(len, unit, world.size());
    let ct_counts: Vec<usize> = shares.pairs.iter().map(|p| p * point_bytes).collect();

    // Encryption: scatter, encrypt, pack + gather.
    world.barrier();
    let t0 = Instant::now();
    let share = comm::scatter_bytes(world, msg, &shares.bytes)?;
    let t1 = Instant::now();
    fire(fault, world.rank(), exec);
    let ct = keys.encrypt(&share, encoding, exec, RngSource::Os)?;
    let t2 = Instant::now();
    let packed = pack_pairs(keys, &ct, exec)?;
    let t2p = Instant::now();
    let gathered_ct = comm::gather_bytes(world, &packed, &ct_counts)?;
    let t3 = Instant::now();
    let enc = PhaseTimes {
        comm_in: (t1 - t0).as_secs_f64(),
        compute: (t2 - t1).as_secs_f64(),
        pack: (t2p - t2).as_secs_f64(),
        comm_out: (t3 - t2p).as_secs_f64(),
        wall: (t3 - t0).as_secs_f64(),
    };

    // Decryption of this rank's own pairs, asserted, then gather.
    world.barrier();
    let t4 = Instant::now();
    let plain = keys.decrypt(&ct, exec)?;
    let t5 = Instant::now();
    if plain != share {
        return Err(Error::check_failed(
            "round trip",
            format!(
                "rank {}: its {} decrypted bytes differ from its share",
                world.rank(),
                share.len()
            ),
        ));
    }
    let gathered_pt = comm::gather_bytes(world, &plain, &shares.bytes)?;
    let t6 = Instant::now();
    let dec = PhaseTimes {
        comm_in: 0.0,
        compute: (t5 - t4).as_secs_f64(),
        pack: 0.0,
        comm_out: (t6 - t5).as_secs_f64(),
        wall: (t6 - t4).as_secs_f64(),
    };

    let mut local = enc.to_array().to_vec();
    local.extend(dec.to_array());
    let times = comm::gather_f64(world, &local);
    let (Some(times), Some(ciphertext), Some(plaintext)) = (times, gathered_ct, gathered_pt) else {
        return Ok(None);
    };
    if plaintext != msg {
        return Err(Error::check_failed(
            "round trip",
            format!(
                "the {} bytes gathered on rank 0 differ from the message",
                plaintext.len()
            ),
        ));
    }
    let per = 2 * PhaseTimes::LEN;
    let (mut encrypt, mut decrypt) = (Vec::new(), Vec::new());
    for chunk in times.chunks(per) {
        encrypt.push(PhaseTimes::from_slice(&chunk[..PhaseTimes::LEN]));
        decrypt.push(PhaseTimes::from_slice(&chunk[PhaseTimes::LEN..]));
    }
    Ok(Some(RoundReport {
        encrypt: PhaseSummary { ranks: encrypt },
        decrypt: PhaseSummary { ranks: decrypt },
        bytes_moved: len + ciphertext.len() + len,
        ciphertext,
        pairs_per_rank: shares.pairs,
    }))
}

/// Compressed y1 || y2 of every pair, back to back, packed in parallel on
/// `exec` (hybrid ranks compress on all their threads).
fn pack_pairs<A: Arithmetic>(
    keys: &Keys<A>,
    ct: &Ciphertext<A>,
    exec: &dyn Executor,
) -> Result<Vec<u8>, Error> {
    let arith = keys.arith();
    let pair_bytes = 2 * keys.curve().compressed_len();
    let parts = map_parts(exec, ct.pairs.len(), |range| {
        let mut s = arith.scratch()?;
        let mut out = Vec::with_capacity(range.len() * pair_bytes);
        for (y1, y2) in &ct.pairs[range] {
            out.extend_from_slice(&arith.compress(y1, &mut s)?);
            out.extend_from_slice(&arith.compress(y2, &mut s)?);
        }
        Ok(out)
    })?;
    Ok(parts.concat())
}

/// Rank 0's check of the gathered ciphertext (untimed): the first `sample`
/// pairs of every rank's share are parsed and decrypted serially and must
/// give back that part of the message. Returns how many pairs it checked.
pub fn verify_gathered<A: Arithmetic>(
    keys: &Keys<A>,
    report: &RoundReport,
    msg: &[u8],
    encoding: Encoding,
    sample: usize,
) -> Result<usize, Error> {
    let curve = keys.curve();
    let clen = curve.compressed_len();
    let unit = encoding.chunk_bytes(curve);
    let shares = Shares::new(msg.len(), unit, report.pairs_per_rank.len());
    let mut first_pair = 0;
    let mut checked = 0;
    for (rank, &pairs) in report.pairs_per_rank.iter().enumerate() {
        let take = pairs.min(sample);
        let start_byte = shares.starts[rank];
        let end_byte = ((first_pair + take) * unit).min(msg.len());
        let raw: Vec<[Vec<u8>; 2]> = (first_pair..first_pair + take)
            .map(|i| {
                let at = i * 2 * clen;
                [
                    report.ciphertext[at..at + clen].to_vec(),
                    report.ciphertext[at + clen..at + 2 * clen].to_vec(),
                ]
            })
            .collect();
        let ct = keys.parse_pairs(encoding, end_byte - start_byte, &raw)?;
        let plain = keys.decrypt(&ct, &Serial)?;
        if plain != msg[start_byte..end_byte] {
            return Err(Error::check_failed(
                "round trip",
                format!("gathered ciphertext of rank {rank} does not decrypt to its share"),
            ));
        }
        checked += take;
        first_pair += pairs;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_summary_takes_the_slowest_rank() {
        let s = PhaseSummary {
            ranks: vec![
                PhaseTimes {
                    comm_in: 0.01,
                    compute: 1.0,
                    pack: 0.05,
                    comm_out: 0.25,
                    wall: 1.31,
                },
                PhaseTimes {
                    comm_in: 0.01,
                    compute: 1.2,
                    pack: 0.06,
                    comm_out: 0.02,
                    wall: 1.29,
                },
            ],
        };
        assert!((s.wall() - 1.31).abs() < 1e-12);
        assert!((s.compute_max() - 1.2).abs() < 1e-12);
        assert!((s.pack_max() - 0.06).abs() < 1e-12);
        assert!((s.imbalance() - 0.2).abs() < 1e-12);
        // Rank 0 waited 0.2 s in the gather for rank 1: not communication.
        assert!((s.communication() - 0.05).abs() < 1e-12);
        assert!((s.comm_fraction() - 0.05 / 1.31).abs() < 1e-12);
    }

    #[test]
    fn shares_start_on_unit_boundaries() {
        let s = Shares::new(100, 30, 3);
        assert_eq!(s.pairs, vec![1, 1, 2]);
        assert_eq!(s.bytes, vec![30, 30, 40]);
        assert_eq!(s.starts, vec![0, 30, 60]);
    }
}
