//! `cryptobench paper ecelgamal-parallel`: seed 002's speedup tables beside
//! this machine's, and its conclusions as verdicts decided on intervals.
//!
//! Seed 002 (Suwanda, Munir) measured three parallel programs on an Intel
//! i3-2370M dual core: Parallel One (2 MPI processes, Tables III-IV), Two
//! (OpenMP threads, Tables V-VIII) and Three (2 processes x N threads,
//! Tables IX-XII). Its 64-bit keys map to `toy64` here, its 256-bit keys to
//! P-256. Parallel Two runs through the engine (serial and threads
//! executors); One and Three need a second process, so they are measured
//! only when the binary is started under `mpirun` ([`MPIRUN_COMMAND`]),
//! by the `mpi` and `hybrid` executors in one benchmark with their own
//! serial baseline. Every speedup is a ratio of two measured times with its
//! 95% interval ([`speedup`]), so a claim is decided on the interval.

use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::executor::ExecutorSpec;
use crate::paper_tables::{published, tables, Program, Published};
use crate::suite::{ElgamalSuite, Grid, SEED_LENGTHS, SEED_THREADS, SUITE};
use cryptobench_core::paper::show_ratio;
use cryptobench_core::paper_method::SeedCounts;
use cryptobench_core::verdict::speedup;
use cryptobench_core::{
    CaseStatus, Error, Estimate, Measurement, Paper, PaperProfile, RunConfig, Suite, Table, Verdict,
};

use std::collections::BTreeMap;

const TITLE: &str =
    "Seed 002: Increasing Speed of Elliptic Curve ElGamal using Parallelization (Suwanda, Munir)";

/// How to start the distributed half of this paper (Parallel One and Three).
/// `--bind-to none`: with 2 ranks on 2 cores OpenMPI binds each rank to one
/// core, and the threads and hybrid executors would share it (docs/mpi.md).
pub const MPIRUN_COMMAND: &str = "mpirun --allow-run-as-root --oversubscribe --bind-to none -n 2 target/release/cryptobench paper ecelgamal-parallel";

/// A claim about how speedup varies with length needs this many lengths.
const MIN_LENGTHS: usize = 3;

/// "Length does not affect speedup", read as: across lengths the speedups
/// stay within this fraction of each other.
const LENGTH_TOLERANCE: f64 = 0.15;

/// The range of the seed's 2-thread speedups, Tables V-VIII.
const SEED_TWO_THREADS: (f64, f64) = (1.59, 2.32);

/// The message lengths this paper measures: the seed's five with `--full`,
/// three by default (the fewest a length claim needs), one with `--quick`.
pub fn lengths(cfg: &RunConfig) -> Vec<usize> {
    if cfg.quick {
        vec![1024]
    } else if cfg.full {
        SEED_LENGTHS.to_vec()
    } else {
        vec![1024, 4096, 16384]
    }
}

/// Timed rounds per cell of the distributed benchmark: the seed ran every
/// variation 10 times; the default takes 5, `--quick` 2.
pub fn distributed_rounds(cfg: &RunConfig) -> usize {
    if cfg.quick {
        2
    } else if cfg.full {
        10
    } else {
        5
    }
}

/// The paper.
pub struct EcElgamalParallel;

impl Paper for EcElgamalParallel {
    fn profile(&self) -> PaperProfile {
        // Seed 002, IV.C: "every solution will be run for 10 times ... Average of the 10".
        let counts = SeedCounts::one_call_per_run("10 runs per variation, mean time", 10);
        PaperProfile::new("ecelgamal-parallel", TITLE).seed_counts(counts)
    }
    fn suites(&self, cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        let mut executors = vec![ExecutorSpec::Serial];
        executors.extend(SEED_THREADS.iter().map(|&n| ExecutorSpec::Threads(n)));
        Ok(vec![Box::new(ElgamalSuite::new(Grid {
            curves: Some(vec![Curve::Toy64, Curve::P256]),
            encodings: Some(vec![Encoding::Char]),
            lengths: Some(lengths(cfg)),
            executors: Some(executors),
            ariths: None,
            peer: Some(false),
        }))])
    }
    fn render(&self, measurements: &[Measurement]) -> Vec<Table> {
        let here = measured_speedups(measurements);
        let distributed = here.iter().any(|s| s.distributed);
        let mut out = Vec::new();
        // The source note once per family: the report shows notes in view.
        for (i, p) in tables(Program::Two).enumerate() {
            out.push(side_by_side(p, &here, i == 0));
        }
        out.push(parallel_one(&here, distributed));
        for (i, p) in tables(Program::Three).enumerate() {
            out.push(side_by_side(p, &here, i == 0));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if let Some(t) = out.first_mut() {
            for n in conclusions(&here, cores) {
                t.note(n);
            }
        }
        out
    }
}

/// One speedup measured here: parallel time against serial time at the
/// same curve, operation and length, from the same benchmark.
#[derive(Debug, Clone)]
struct Speedup<'a> {
    curve: &'a str,
    op: &'a str,
    length: u64,
    program: Program,
    /// Threads (per process for Parallel Three; 1 for Parallel One).
    threads: usize,
    /// From the distributed benchmark (under mpirun), whose serial
    /// baseline ran with the other ranks idle.
    distributed: bool,
    parallel: &'a Measurement,
    est: Estimate,
    /// The multi-core canary's slowdown over the one-core canary while the
    /// parallel side ran, when its cores were shared
    /// ([`cryptobench_core::model::MachineLoad::cores_shared`]).
    shared: Option<f64>,
}

impl Speedup<'_> {
    /// A verdict on this speedup: measured with its cores shared, the
    /// speedup is low for the machine's sake, so it cannot refute a claim.
    fn judge(&self, v: Verdict) -> Verdict {
        if v == Verdict::Differs && self.shared.is_some() {
            Verdict::Inconclusive
        } else {
            v
        }
    }
}

fn program_of(m: &Measurement) -> Option<Program> {
    match m.param("mode")? {
        "threads" => Some(Program::Two),
        "mpi" => Some(Program::One),
        "hybrid" => Some(Program::Three),
        _ => None,
    }
}

fn measured_speedups(ms: &[Measurement]) -> Vec<Speedup<'_>> {
    let cells: Vec<&Measurement> = ms
        .iter()
        .filter(|m| {
            m.suite == SUITE
                && m.status == CaseStatus::Measured
                && m.param("encoding").unwrap_or("char") == "char"
                && m.median_ns().is_some()
        })
        .collect();
    let mut out = Vec::new();
    for m in &cells {
        let Some(program) = program_of(m) else {
            continue;
        };
        let distributed = m.param("ranks").is_some();
        let serial = cells.iter().find(|s| {
            s.param("mode") == Some("serial")
                && s.primitive == m.primitive
                && s.backend == m.backend
                && s.operation == m.operation
                && s.input_bytes == m.input_bytes
                && s.param("ranks").is_some() == distributed
        });
        let Some(est) = serial.and_then(|s| speedup(m, s)) else {
            continue;
        };
        out.push(Speedup {
            curve: &m.primitive,
            op: &m.operation,
            length: m.input_bytes,
            program,
            threads: m.param("threads").and_then(|t| t.parse().ok()).unwrap_or(1),
            distributed,
            parallel: m,
            est,
            shared: m.machine_load.as_ref().and_then(|l| l.cores_shared()),
        });
    }
    out
}

/// The speedup of `program` at a cell; Parallel Two prefers the engine's
/// measurement, One and Three exist only in the distributed benchmark.
fn find<'a>(
    here: &'a [Speedup<'a>],
    program: Program,
    curve: Curve,
    op: &str,
    length: u64,
    threads: usize,
) -> Option<&'a Speedup<'a>> {
    let matching: Vec<&Speedup> = here
        .iter()
        .filter(|s| {
            s.program == program
                && s.curve == curve.name()
                && s.op == op
                && s.length == length
                && (program == Program::One || s.threads == threads)
        })
        .collect();
    matching
        .iter()
        .find(|s| !s.distributed)
        .or(matching.first())
        .copied()
}

fn cell(seed: f64, here: Option<&Speedup>) -> String {
    format!(
        "{seed:.2} | {}",
        here.map_or("-".to_string(), |s| format!("{:.2}", s.est.value))
    )
}

fn side_by_side(p: &Published, here: &[Speedup], with_source: bool) -> Table {
    // Headers as short as Tables V-VIII's so the report's cards hold them.
    let across = match p.program {
        Program::Three => "2 x {n} (seed | here)",
        _ => "{n} threads (seed | here)",
    };
    let mut headers = vec!["Message length".to_string()];
    headers.extend(
        SEED_THREADS
            .iter()
            .map(|n| across.replace("{n}", &n.to_string())),
    );
    let name = match p.program {
        Program::One => "Parallel One",
        Program::Two => "Parallel Two",
        Program::Three => "Parallel Three",
    };
    let mut t = Table::new(
        format!(
            "Seed 002 {}: speedup for {} {name}, beside {} here (char encoding)",
            p.table, p.what, p.curve
        ),
        headers,
    )
    .right(&[1, 2, 3, 4, 5]);
    for (i, len) in SEED_LENGTHS.iter().enumerate() {
        let mut row = vec![len.to_string()];
        for (j, &n) in SEED_THREADS.iter().enumerate() {
            row.push(cell(
                p.rows[i][j],
                find(here, p.program, p.curve, p.op, *len as u64, n),
            ));
        }
        t.row(row);
    }
    let measured_by = match p.program {
        Program::Two => "OpenMP threads; here the threads executor",
        _ => "OpenMPI + OpenMP, columns 2 processes x N threads each; here the hybrid executor under mpirun",
    };
    if with_source {
        t.note(format!(
            "published: seed 002, Intel i3-2370M (2 cores), {measured_by}; '-' = not measured in this run"
        ));
    }
    t
}

fn parallel_one(here: &[Speedup], distributed: bool) -> Table {
    let mut headers = vec!["Message length".to_string()];
    headers.extend(tables(Program::One).map(|p| {
        let bits = if p.curve == Curve::Toy64 { 64 } else { 256 };
        format!("{bits}-bit {} (seed | here)", &p.op[..3])
    }));
    let mut t = Table::new(
        "Seed 002 Tables III-IV: speedup of Parallel One (2 MPI processes), beside the mpi executor here",
        headers,
    )
    .right(&[1, 2, 3, 4]);
    for (i, len) in SEED_LENGTHS.iter().enumerate() {
        let mut row = vec![len.to_string()];
        for p in tables(Program::One) {
            row.push(cell(
                p.rows[i][0],
                find(here, Program::One, p.curve, p.op, *len as u64, 1),
            ));
        }
        t.row(row);
    }
    if distributed {
        t.note("here: the mpi executor, one thread per rank; time of a round = the slowest rank's (the seed's maximum over processes)");
    } else {
        t.note(format!(
            "not measured: Parallel One and Three (Tables III-IV, IX-XII) need a second process; start the binary under mpirun: `{MPIRUN_COMMAND}`"
        ));
    }
    t.note("seed erratum: its Table XII is titled 'encrypting' but, by its position and values, reports decryption");
    t
}

/// Spread of speedups across lengths: holds when even the interval ends
/// stay within [`LENGTH_TOLERANCE`], differs when even the inner ends
/// leave it.
fn spread(ests: &[Estimate]) -> (Verdict, f64) {
    let fold = |f: fn(&Estimate) -> f64, max: bool| {
        ests.iter().map(f).fold(
            if max { f64::MIN } else { f64::MAX },
            if max { f64::max } else { f64::min },
        )
    };
    let point = fold(|e| e.value, true) / fold(|e| e.value, false);
    let widest = fold(|e| e.hi, true) / fold(|e| e.lo, false);
    let narrowest = fold(|e| e.lo, true) / fold(|e| e.hi, false);
    let edge = 1.0 + LENGTH_TOLERANCE;
    let v = if widest <= edge {
        Verdict::Holds
    } else if narrowest > edge {
        Verdict::Differs
    } else {
        Verdict::Inconclusive
    };
    (v, point)
}

/// One line per conclusion of the paper.
fn conclusions(here: &[Speedup], cores: usize) -> Vec<String> {
    if here.is_empty() {
        return vec!["no parallel measurements in this run: conclusions not checked".into()];
    }
    let mut out = Vec::new();
    let where_ = |s: &Speedup| {
        format!(
            "{} {} {} chars, {}",
            s.curve,
            s.op,
            s.length,
            match s.program {
                Program::One => "mpi".to_string(),
                Program::Two => format!("{} threads", s.threads),
                Program::Three => format!("hybrid 2 x {}", s.threads),
            }
        )
    };
    let smallest = here
        .iter()
        .min_by(|a, b| a.est.value.total_cmp(&b.est.value))
        .expect("not empty");
    out.push(format!(
        "\"all speedups are greater than 1\": {} (smallest {} at {}; {} speedups)",
        Verdict::all(here.iter().map(|s| s.judge(s.est.at_least(1.0, 0.0)))),
        show_ratio(&smallest.est),
        where_(smallest),
        here.len()
    ));
    out.push(length_claim(here));
    let two: Vec<&Speedup> = here
        .iter()
        .filter(|s| s.program == Program::Two && s.threads == 2)
        .collect();
    if !two.is_empty() {
        let (lo, hi) = SEED_TWO_THREADS;
        let (min, max) = two.iter().fold((f64::MAX, f64::MIN), |(l, h), s| {
            (l.min(s.est.value), h.max(s.est.value))
        });
        out.push(format!(
            "seed: 2 threads give {lo}-{hi} on its dual core (Tables V-VIII): {} (here {min:.2}-{max:.2} on {cores} logical CPUs, {} cells)",
            Verdict::all(two.iter().map(|s| s.judge(s.est.within(lo, hi, 0.0)))),
            two.len()
        ));
    }
    out.push(ranking(here));
    let largest = here
        .iter()
        .max_by(|a, b| a.est.value.total_cmp(&b.est.value))
        .expect("not empty");
    let v = largest.est.at_least(cores as f64, 0.0);
    out.push(format!(
        "seed: decryption speedups up to 14.74 (Table VII) and 18.25 (Table XI) with 1000 threads on 2 cores, above its core count: {v} (here at most {} at {} on {cores} logical CPUs{})",
        show_ratio(&largest.est),
        where_(largest),
        if v != Verdict::Differs {
            ""
        } else {
            "; CPU-bound work cannot beat the core count, so the seed's superlinear figures are not reproduced"
        }
    ));
    out.push(more_threads_claim(here));
    out.extend(shared_cores(here));
    out
}

/// Says which speedups were measured while the machine's cores were not
/// all ours, when any were.
fn shared_cores(here: &[Speedup]) -> Option<String> {
    let shared: Vec<f64> = here.iter().filter_map(|s| s.shared).collect();
    let worst = shared.iter().copied().fold(f64::NAN, f64::max);
    (!shared.is_empty()).then(|| {
        format!(
            "cores shared while {} of {} parallel cells ran (the canary on their cores took up to {worst:.2}x its time on one core: the host lent a core elsewhere): their speedups are low, and a claim only they refute is inconclusive; run again when two processes get twice one process's work done",
            shared.len(),
            here.len()
        )
    })
}

fn length_claim(here: &[Speedup]) -> String {
    let claim = "\"message length does not affect speedup\"";
    // Series at two workers: 2 threads, 2 processes, 2 processes x 2 threads.
    let mut series: BTreeMap<(&str, &str, bool, u8), Vec<Estimate>> = BTreeMap::new();
    for s in here.iter().filter(|s| s.threads <= 2) {
        let program = match s.program {
            Program::One => 1,
            Program::Two => 2,
            Program::Three => 3,
        };
        series
            .entry((s.curve, s.op, s.distributed, program))
            .or_default()
            .push(s.est);
    }
    let most = series.values().map(Vec::len).max().unwrap_or(0);
    let judged: Vec<(Verdict, f64)> = series
        .values()
        .filter(|v| v.len() >= MIN_LENGTHS)
        .map(|v| spread(v))
        .collect();
    if judged.is_empty() {
        return format!(
            "{claim}: not measured (needs at least {MIN_LENGTHS} message lengths; this run has {most}): run without --quick"
        );
    }
    let worst = judged.iter().map(|j| j.1).fold(1.0, f64::max);
    format!(
        "{claim}: {} (2-worker speedups vary by up to {:.0}% across lengths; tolerance {:.0}%, decided on the intervals; {} series)",
        Verdict::all(judged.iter().map(|j| j.0)),
        (worst - 1.0) * 100.0,
        LENGTH_TOLERANCE * 100.0,
        judged.len()
    )
}

/// "Shared memory > distributed > hybrid": at two workers, threads beat
/// processes and processes beat processes x threads, in every cell of the
/// distributed benchmark (where all three share one serial baseline).
fn ranking(here: &[Speedup]) -> String {
    let claim =
        "seed: \"shared memory > distributed > hybrid\" (Parallel Two > One > Three, 2 workers)";
    let seed = seed_ranking_agrees();
    let in_bench = |p: Program, s: &Speedup| s.distributed && s.program == p;
    let mut parts = Vec::new();
    let mut shown = Vec::new();
    for one in here.iter().filter(|s| in_bench(Program::One, s)) {
        let same = |p: Program, s: &&Speedup| {
            in_bench(p, s)
                && s.threads == 2
                && s.curve == one.curve
                && s.op == one.op
                && s.length == one.length
        };
        let (Some(two), Some(three)) = (
            here.iter().find(|s| same(Program::Two, s)),
            here.iter().find(|s| same(Program::Three, s)),
        ) else {
            continue;
        };
        let (Some(a), Some(b)) = (
            speedup(two.parallel, one.parallel),
            speedup(one.parallel, three.parallel),
        ) else {
            continue;
        };
        parts.push(a.at_least(1.0, 0.0));
        parts.push(b.at_least(1.0, 0.0));
        if shown.len() < 2 {
            shown.push(format!(
                "{} {} {}: threads/mpi {}, mpi/hybrid {}",
                one.curve,
                one.op,
                one.length,
                show_ratio(&a),
                show_ratio(&b)
            ));
        }
    }
    if parts.is_empty() {
        return format!(
            "{claim}: not measured (the mpi and hybrid executors run only under mpirun: `{MPIRUN_COMMAND}`); {seed}"
        );
    }
    format!(
        "{claim}: {} ({} cells; {}); {seed}",
        Verdict::all(parts.iter().copied()),
        parts.len() / 2,
        shown.join("; ")
    )
}

/// How often the seed's own tables order the three programs that way at
/// two workers (Table V-VIII column 1 > Table III-IV > Table IX-XII column 1).
fn seed_ranking_agrees() -> String {
    let mut agree = 0;
    let mut cells = 0;
    for p in tables(Program::Two) {
        for row in 0..SEED_LENGTHS.len() {
            let get = |prog| published(prog, p.curve, p.op, row, 0);
            if let (Some(two), Some(one), Some(three)) =
                (get(Program::Two), get(Program::One), get(Program::Three))
            {
                cells += 1;
                if two > one && one > three {
                    agree += 1;
                }
            }
        }
    }
    format!("the seed's own tables order them so in {agree} of {cells} cells")
}

/// "More threads can increase or decrease speed": some cell where 1000
/// threads are slower than the best thread count there, on the intervals.
fn more_threads_claim(here: &[Speedup]) -> String {
    let claim = "seed: \"more threads can increase or decrease speed\" (1000 threads slow the smallest messages)";
    let mut parts = Vec::new();
    let mut example = None;
    for t in here.iter().filter(|s| s.threads == 1000) {
        let best = here
            .iter()
            .filter(|s| {
                s.threads != 1000
                    && s.program == t.program
                    && s.distributed == t.distributed
                    && s.curve == t.curve
                    && s.op == t.op
                    && s.length == t.length
            })
            .max_by(|a, b| a.est.value.total_cmp(&b.est.value));
        let Some(best) = best else { continue };
        let Some(r) = speedup(best.parallel, t.parallel) else {
            continue;
        };
        let v = r.at_least(1.0, 0.0);
        if v == Verdict::Holds && example.is_none() {
            example = Some(format!(
                "{} {} {} chars: {} threads are {} faster than 1000",
                t.curve,
                t.op,
                t.length,
                best.threads,
                show_ratio(&r)
            ));
        }
        parts.push(v);
    }
    if parts.is_empty() {
        return format!("{claim}: not measured (no 1000-thread cell)");
    }
    let v = if parts.contains(&Verdict::Holds) {
        Verdict::Holds
    } else if parts.iter().all(|v| *v == Verdict::Differs) {
        Verdict::Differs
    } else {
        Verdict::Inconclusive
    };
    format!(
        "{claim}: {v} ({})",
        example.unwrap_or_else(|| format!(
            "no cell where 1000 threads are clearly slower, of {}",
            parts.len()
        ))
    )
}

#[cfg(test)]
#[path = "paper_tests.rs"]
mod tests;
