//! The benchmark entry point: serial, threads, mpi and hybrid EC-ElGamal in
//! one table, as seed 002's Tables III-XII.
//!
//! Every rank calls [`bench`] with the same options. Rank 0 reads (or
//! makes) the key and the message and broadcasts the key; every rank loads
//! it into its own engine (its own G, Q and `char` tables, built once).
//! `serial` and `threads` cells run on rank 0 alone while the other ranks
//! sleep in a barrier; `mpi` and `hybrid` cells run [`crate::dist::round`]
//! on every rank. One sample is one round; the time of a round is the
//! slowest rank's (the seed's "maximum execution time of all processes").
//!
//! Measurements follow the elgamal suite's conventions (suite `elgamal`,
//! primitive = curve, backend = arithmetic, operation `encrypt`/`decrypt`,
//! `input_bytes` = characters, params `encoding`, `mode`, `threads`) and
//! add `ranks`, with the breakdown in `extra`.

use crate::dist::{self, Fault, Hybrid, Mpi, PhaseSummary, RoundReport};
use crate::world::World;
use cryptobench_core::{names, CaseStatus, CheckResult, Error, Measurement, Table};
use cryptobench_elgamal::arith::{self, Arithmetic, Backend, EngineTask};
use cryptobench_elgamal::cipher::{CurveEngine, Keys};
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_elgamal::executor::{Executor, Serial, Threads};
use cryptobench_elgamal::format::KeyFile;
use cryptobench_elgamal::keys::RngSource;
use cryptobench_elgamal::suite::{message, SCHEME_LABEL, SUITE};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Who runs the parts of one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Rank 0, one thread.
    Serial,
    /// Rank 0, N threads.
    Threads(usize),
    /// Every rank, one thread each (Parallel One).
    Mpi,
    /// Every rank, N threads each (Parallel Three).
    Hybrid(usize),
}

impl Mode {
    /// Names accepted by `--mode`.
    pub const NAMES: [&'static str; 4] = ["serial", "threads", "mpi", "hybrid"];

    /// `serial`, `threads`, `mpi` or `hybrid`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Serial => "serial",
            Mode::Threads(_) => "threads",
            Mode::Mpi => "mpi",
            Mode::Hybrid(_) => "hybrid",
        }
    }
    /// Threads per rank.
    pub fn threads(self) -> usize {
        match self {
            Mode::Serial | Mode::Mpi => 1,
            Mode::Threads(n) | Mode::Hybrid(n) => n,
        }
    }
    /// Whether every rank takes part.
    pub fn distributed(self) -> bool {
        matches!(self, Mode::Mpi | Mode::Hybrid(_))
    }

    /// Parses `--mode serial,threads,mpi,hybrid` with `--threads 2,4`: each
    /// threaded mode once per thread count (default thread list: 2).
    pub fn parse_list(modes: &str, threads: &[usize]) -> Result<Vec<Mode>, Error> {
        let threads: Vec<usize> = if threads.is_empty() {
            vec![2]
        } else {
            threads.to_vec()
        };
        for &t in &threads {
            Threads::new(t)?;
        }
        let mut out = Vec::new();
        for name in modes.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match names::resolve("mode", name, &Self::NAMES)? {
                "serial" => out.push(Mode::Serial),
                "threads" => out.extend(threads.iter().map(|&t| Mode::Threads(t))),
                "mpi" => out.push(Mode::Mpi),
                _ => out.extend(threads.iter().map(|&t| Mode::Hybrid(t))),
            }
        }
        if out.is_empty() {
            return Err(Error::usage(format!(
                "no mode given: accepted {}",
                Self::NAMES.join(", ")
            )));
        }
        out.dedup();
        Ok(out)
    }
}

/// What [`bench`] measures.
#[derive(Debug, Clone)]
pub struct MpiBenchOptions {
    /// Curve.
    pub curve: Curve,
    /// Arithmetic (default: the fastest for the curve).
    pub arith: Option<Backend>,
    /// `char` (seed 002) or `packed`.
    pub encoding: Encoding,
    /// Message lengths in characters (ignored with `message_file`).
    pub lengths: Vec<usize>,
    /// Modes, in table order.
    pub modes: Vec<Mode>,
    /// Timed rounds per cell.
    pub samples: usize,
    /// Untimed rounds first.
    pub warmup: usize,
    /// A key file read by rank 0 (default: a fresh key).
    pub key_file: Option<PathBuf>,
    /// A message read by rank 0 (default: the suite's text at each length).
    pub message_file: Option<PathBuf>,
    /// A deliberate failure (tests only).
    pub fault: Option<Fault>,
}

impl Default for MpiBenchOptions {
    fn default() -> Self {
        Self {
            curve: Curve::P256,
            arith: None,
            encoding: Encoding::Char,
            lengths: vec![4096],
            modes: vec![Mode::Serial, Mode::Mpi],
            samples: 5,
            warmup: 1,
            key_file: None,
            message_file: None,
            fault: None,
        }
    }
}

/// Pairs per rank whose gathered ciphertext rank 0 decrypts again.
const VERIFY_SAMPLE: usize = 64;

/// Runs the benchmark on every rank: `Some(measurements)` on rank 0,
/// `None` elsewhere. Under `mpirun` any failure on any rank aborts the
/// whole job (see [`crate::world`]); alone it is returned.
pub fn bench(world: &World, opts: &MpiBenchOptions) -> Result<Option<Vec<Measurement>>, Error> {
    let result = validate(opts).and_then(|()| dispatch(world, opts));
    world.check(result)
}

fn validate(opts: &MpiBenchOptions) -> Result<(), Error> {
    if opts.samples == 0 {
        return Err(Error::usage("samples must be at least 1"));
    }
    if opts.message_file.is_none() && opts.lengths.is_empty() {
        return Err(Error::usage("no message length given"));
    }
    if let Some(&bad) = opts.lengths.iter().find(|&&l| l == 0) {
        return Err(Error::usage(format!(
            "message length {bad}: accepted 1 or more characters"
        )));
    }
    if let Some(backend) = opts.arith {
        if let Some(reason) = arith::backend::unsupported_reason(backend, opts.curve) {
            return Err(Error::usage(reason));
        }
    }
    Ok(())
}

fn dispatch(world: &World, opts: &MpiBenchOptions) -> Result<Option<Vec<Measurement>>, Error> {
    let backend = opts.arith.unwrap_or_else(|| arith::default_for(opts.curve));
    arith::backend::run(backend, opts.curve, Bench { world, opts })
}

/// The benchmark on the engine of the chosen arithmetic.
struct Bench<'a> {
    world: &'a World,
    opts: &'a MpiBenchOptions,
}

impl EngineTask for Bench<'_> {
    type Output = Option<Vec<Measurement>>;
    fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<Self::Output, Error> {
        run(self.world, self.opts, engine)
    }
}

/// Rank 0's key, on every rank.
fn shared_keys<A: Arithmetic>(
    world: &World,
    opts: &MpiBenchOptions,
    engine: Arc<CurveEngine<A>>,
) -> Result<Keys<A>, Error> {
    let text = if world.is_root() {
        let material = match &opts.key_file {
            Some(path) => {
                let text = cryptobench_core::input::read_file_to_string("key file", path)?;
                KeyFile::parse(&text)?
            }
            None => Keys::generate(engine.clone(), RngSource::Os)?
                .material()
                .clone(),
        };
        if material.secret.is_none() {
            return Err(Error::usage(
                "the benchmark decrypts: give a secret key file (from `elgamal keygen -o`)",
            ));
        }
        KeyFile::from_material(&material).to_json().into_bytes()
    } else {
        Vec::new()
    };
    let text = crate::comm::broadcast_bytes(world, text)?;
    let text = String::from_utf8(text).map_err(|e| Error::failed("the key broadcast", e))?;
    Keys::load(engine, &KeyFile::parse(&text)?)
}

/// Rank 0's messages: one per length, or the file.
fn messages(world: &World, opts: &MpiBenchOptions) -> Result<Vec<Vec<u8>>, Error> {
    if !world.is_root() {
        return Ok(Vec::new());
    }
    match &opts.message_file {
        Some(path) => {
            // Bounded like every file a user names (--max-input).
            let data = cryptobench_core::input::read_file("message file", path)?;
            if data.is_empty() {
                return Err(Error::usage(format!(
                    "message file {} is empty: accepted 1 or more bytes",
                    path.display()
                )));
            }
            Ok(vec![data])
        }
        None => Ok(opts.lengths.iter().map(|&l| message(l)).collect()),
    }
}

fn run<A: Arithmetic>(
    world: &World,
    opts: &MpiBenchOptions,
    engine: Arc<CurveEngine<A>>,
) -> Result<Option<Vec<Measurement>>, Error> {
    let keys = shared_keys(world, opts, engine)?;
    let msgs = messages(world, opts)?;
    let count = crate::comm::broadcast_u64(world, msgs.len() as u64) as usize;
    let mut out = Vec::new();
    for i in 0..count {
        let msg: &[u8] = msgs.get(i).map_or(&[], Vec::as_slice);
        let len = crate::comm::broadcast_u64(world, msg.len() as u64) as usize;
        let mut serial_s: BTreeMap<&'static str, f64> = BTreeMap::new();
        for &mode in &opts.modes {
            let cell = if mode.distributed() {
                distributed_cell(world, opts, &keys, msg, len, mode)?
            } else {
                let cell = if world.is_root() {
                    Some(local_cell(opts, &keys, msg, mode)?)
                } else {
                    None
                };
                world.idle_barrier();
                cell
            };
            let Some(cell) = cell else { continue };
            for mut m in cell {
                if mode == Mode::Serial {
                    if let Some(t) = m.median_ns() {
                        serial_s.insert(op_name(&m), t);
                    }
                } else if let (Some(base), Some(t)) = (serial_s.get(op_name(&m)), m.median_ns()) {
                    m.extra.insert("speedup_vs_serial".into(), base / t);
                }
                out.push(m);
            }
        }
    }
    Ok(world.is_root().then_some(out))
}

fn op_name(m: &Measurement) -> &'static str {
    if m.operation == "encrypt" {
        "encrypt"
    } else {
        "decrypt"
    }
}

/// Serial or threads on rank 0: the same cipher calls, no communication.
fn local_cell<A: Arithmetic>(
    opts: &MpiBenchOptions,
    keys: &Keys<A>,
    msg: &[u8],
    mode: Mode,
) -> Result<Vec<Measurement>, Error> {
    let exec: Box<dyn Executor> = match mode {
        Mode::Threads(n) => Box::new(Threads::new(n)?),
        _ => Box::new(Serial),
    };
    let (mut enc, mut dec) = (Vec::new(), Vec::new());
    for i in 0..opts.warmup + opts.samples {
        let t0 = Instant::now();
        let ct = keys.encrypt(msg, opts.encoding, exec.as_ref(), RngSource::Os)?;
        let t1 = Instant::now();
        let pt = keys.decrypt(&ct, exec.as_ref())?;
        let t2 = Instant::now();
        if pt != msg {
            return Err(Error::check_failed(
                "round trip",
                format!("{} decryption differs from the message", mode.name()),
            ));
        }
        if i >= opts.warmup {
            enc.push((t1 - t0).as_secs_f64());
            dec.push((t2 - t1).as_secs_f64());
        }
    }
    let check = CheckResult::pass(
        "roundtrip",
        format!("{} characters decrypted equal on every sample", msg.len()),
    );
    Ok(vec![
        measurement(
            keys,
            opts,
            mode,
            1,
            "encrypt",
            msg.len(),
            &enc,
            check.clone(),
        ),
        measurement(keys, opts, mode, 1, "decrypt", msg.len(), &dec, check),
    ])
}

/// mpi or hybrid: every rank runs rounds; rank 0 builds the measurements.
fn distributed_cell<A: Arithmetic>(
    world: &World,
    opts: &MpiBenchOptions,
    keys: &Keys<A>,
    msg: &[u8],
    len: usize,
    mode: Mode,
) -> Result<Option<Vec<Measurement>>, Error> {
    let exec: Box<dyn Executor> = match mode {
        Mode::Hybrid(n) => Box::new(Hybrid::new(n)?),
        _ => Box::new(Mpi),
    };
    let mut reports: Vec<RoundReport> = Vec::new();
    let mut checked = None;
    for i in 0..opts.warmup + opts.samples {
        let fault = if i == 0 { opts.fault } else { None };
        let report = dist::round(world, keys, msg, len, opts.encoding, exec.as_ref(), fault)?;
        if let Some(r) = report {
            if checked.is_none() {
                checked = Some(dist::verify_gathered(
                    keys,
                    &r,
                    msg,
                    opts.encoding,
                    VERIFY_SAMPLE,
                )?);
            }
            if i >= opts.warmup {
                reports.push(r);
            }
        }
    }
    if !world.is_root() {
        return Ok(None);
    }
    let ranks = world.size();
    let checks = [
        CheckResult::pass(
            "roundtrip",
            format!(
                "every rank asserted its share; {len} characters gathered on rank 0 equal the message"
            ),
        ),
        CheckResult::pass(
            "gathered-ciphertext",
            format!(
                "{} gathered pairs decrypted again on rank 0",
                checked.unwrap_or(0)
            ),
        ),
    ];
    let mut out = Vec::new();
    for op in ["encrypt", "decrypt"] {
        let phases: Vec<&PhaseSummary> = reports
            .iter()
            .map(|r| {
                if op == "encrypt" {
                    &r.encrypt
                } else {
                    &r.decrypt
                }
            })
            .collect();
        let walls: Vec<f64> = phases.iter().map(|p| p.wall()).collect();
        let mut m = measurement(keys, opts, mode, ranks, op, len, &walls, checks[0].clone());
        m.checks.push(checks[1].clone());
        let median = cryptobench_stats::median_index(&walls).unwrap_or(0);
        breakdown(&mut m, phases[median]);
        let moved = reports[median].bytes_moved;
        let op_bytes = if op == "encrypt" { moved - len } else { len };
        m.extra
            .insert("bytes_moved_per_char".into(), op_bytes as f64 / len as f64);
        out.push(m);
    }
    Ok(Some(out))
}

/// The seed's breakdown of one round into `extra`.
fn breakdown(m: &mut Measurement, p: &PhaseSummary) {
    let e = &mut m.extra;
    e.insert("compute_s".into(), p.compute_max());
    e.insert("communication_s".into(), p.communication());
    e.insert("pack_s".into(), p.pack_max());
    e.insert("pack_fraction".into(), p.pack_max() / p.wall().max(1e-12));
    e.insert("imbalance_s".into(), p.imbalance());
    e.insert("comm_fraction".into(), p.comm_fraction());
    e.insert("wall_s".into(), p.wall());
    for (r, t) in p.ranks.iter().enumerate() {
        e.insert(format!("rank{r}_compute_s"), t.compute);
        e.insert(format!("rank{r}_pack_s"), t.pack);
        e.insert(format!("rank{r}_comm_s"), t.comm_in + t.comm_out);
        e.insert(format!("rank{r}_wall_s"), t.wall);
    }
}

#[allow(clippy::too_many_arguments)]
fn measurement<A: Arithmetic>(
    keys: &Keys<A>,
    opts: &MpiBenchOptions,
    mode: Mode,
    ranks: usize,
    op: &str,
    len: usize,
    samples_s: &[f64],
    check: CheckResult,
) -> Measurement {
    let curve = keys.curve();
    let kind = keys.arith().backend();
    let samples_ns: Vec<f64> = samples_s.iter().map(|s| s * 1e9).collect();
    // The engine's statistics (its bootstrap seed, its cycles per byte):
    // the figures compare with every other suite's.
    let workers = (mode.threads() * ranks) as u32;
    let stats = cryptobench_engine::sample::sampling::summarize(&samples_ns, len as u64, workers);
    let mut params = BTreeMap::new();
    params.insert("encoding".into(), opts.encoding.name().to_string());
    params.insert("mode".into(), mode.name().to_string());
    params.insert("threads".into(), mode.threads().to_string());
    params.insert("ranks".into(), ranks.to_string());
    if curve.is_toy() {
        params.insert("security".into(), "breakable".into());
    }
    let mut labels = curve.labels();
    labels.push(SCHEME_LABEL.to_string());
    let mut warnings = Vec::new();
    if samples_ns.len() < 15 {
        warnings.push(format!(
            "{} samples (rounds of the whole message); fewer than the engine's 15",
            samples_ns.len()
        ));
    }
    Measurement {
        suite: SUITE.into(),
        primitive: curve.name().into(),
        backend: kind.name().into(),
        backend_version: kind.version(),
        operation: op.into(),
        params,
        input_bytes: len as u64,
        threads: 1,
        iterations_per_sample: 1,
        samples_ns,
        cpu_samples_ns: Vec::new(),
        samples_process: Vec::new(),
        stats: Some(stats),
        status: CaseStatus::Measured,
        reason: None,
        checks: vec![check],
        labels,
        warnings,
        extra: BTreeMap::new(),
        group: None,
        paired: Vec::new(),
        machine_load: None,
        earlier: Vec::new(),
    }
}

/// One table of every cell, like seed 002's Tables III-XII with the
/// breakdown the seed did not have.
pub fn table(ms: &[Measurement]) -> Table {
    let mut t = Table::new(
        "EC-ElGamal: serial, threads, mpi (ranks) and hybrid (ranks x threads)",
        [
            "curve",
            "op",
            "chars",
            "mode",
            "ranks",
            "threads",
            "time",
            "chars/s",
            "speedup",
            "compute",
            "pack",
            "comm",
            "comm %",
            "imbalance",
        ],
    )
    .right(&[2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    for m in ms {
        let Some(median) = m.median_ns() else {
            continue;
        };
        let get = |k: &str| m.extra.get(k).copied();
        let secs = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{:.4} s", s));
        t.row([
            m.primitive.clone(),
            m.operation.clone(),
            m.input_bytes.to_string(),
            m.param("mode").unwrap_or("?").to_string(),
            m.param("ranks").unwrap_or("1").to_string(),
            m.param("threads").unwrap_or("1").to_string(),
            format!("{:.4} s", median / 1e9),
            format!("{:.0}", m.input_bytes as f64 * 1e9 / median),
            get("speedup_vs_serial").map_or("-".into(), |s| format!("{s:.2}x")),
            secs(get("compute_s")),
            secs(get("pack_s")),
            secs(get("communication_s")),
            get("comm_fraction").map_or("-".into(), |f| format!("{:.2}%", f * 100.0)),
            secs(get("imbalance_s")),
        ]);
    }
    t.note(
        "time: median over rounds of the slowest rank's time (seed 002: maximum over processes)",
    );
    t.note("compute, pack (compressing points for the gather): the slowest rank's");
    t.note("comm = wall minus the slowest rank's compute + pack: MPI transfer and skew on the critical path");
    t.note("imbalance = slowest minus fastest rank's compute");
    t
}

/// Plain-text rendering of a [`Table`] (the binary has its own reporters).
pub fn render(t: &Table) -> String {
    let cols = t.headers.len();
    let mut width = vec![0usize; cols];
    for row in std::iter::once(&t.headers).chain(&t.rows) {
        for (i, c) in row.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |row: &Vec<String>| {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .take(cols)
            .map(|(i, c)| {
                if matches!(t.align.get(i), Some(cryptobench_core::table::Align::Right)) {
                    format!("{c:>w$}", w = width[i])
                } else {
                    format!("{c:<w$}", w = width[i])
                }
            })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    let mut out = format!("{}\n{}\n", t.title, line(&t.headers));
    out.push_str(&format!(
        "{}\n",
        "-".repeat(width.iter().sum::<usize>() + 2 * cols.saturating_sub(1))
    ));
    for r in &t.rows {
        out.push_str(&line(r));
        out.push('\n');
    }
    for n in &t.notes {
        out.push_str(&format!("  {n}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_mode_names_suggest() {
        let e = Mode::parse_list("hybird", &[]).unwrap_err().to_string();
        assert!(e.contains("hybrid"), "{e}");
        assert!(Mode::parse_list("mpi", &[0]).is_err());
        assert!(Mode::parse_list("mpi", &[1001]).is_err());
    }
}
