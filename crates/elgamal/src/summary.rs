//! The suite's own tables: throughput in characters per second, speedup
//! against serial at the same length (shaped like seed 002's Tables V-VIII:
//! message length down, thread count across), and the targets.

use crate::arith;
use crate::curve::Curve;
use crate::suite::SUITE;
use cryptobench_core::{CaseStatus, Measurement, Table};
use std::collections::{BTreeMap, BTreeSet};

/// Backend name of the `openssl speed` peer.
const PEER: &str = "peer:openssl-speed";

/// One measured cell, identified the way the tables and the charts need it.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Curve name.
    pub curve: String,
    /// Arithmetic backend.
    pub arith: String,
    /// `char` / `packed`.
    pub encoding: String,
    /// `encrypt` / `decrypt`.
    pub op: String,
    /// Message length (characters).
    pub length: u64,
    /// Workers (1 = serial; per rank under `hybrid`).
    pub threads: usize,
    /// MPI ranks (1 unless `mpi` or `hybrid`).
    pub ranks: usize,
    /// `serial` / `threads` / `mpi` / `hybrid`.
    pub mode: String,
    /// Characters per second at the median.
    pub chars_per_s: f64,
    /// The measurement names its MPI ranks (runs of the mpi crate do).
    pub ranks_named: bool,
    /// A curve breakable by design (toy64).
    pub breakable: bool,
}

impl Cell {
    /// The cell of one elgamal measurement, at `chars_per_s`.
    pub(crate) fn of(m: &Measurement, chars_per_s: f64) -> Cell {
        let ranks: Option<usize> = m.param("ranks").and_then(|r| r.parse().ok());
        Cell {
            curve: m.primitive.clone(),
            arith: m.backend.clone(),
            encoding: m.param("encoding").unwrap_or("char").to_string(),
            op: m.operation.clone(),
            length: m.input_bytes,
            threads: m.param("threads").and_then(|t| t.parse().ok()).unwrap_or(1),
            ranks: ranks.unwrap_or(1),
            mode: m.param("mode").unwrap_or("serial").to_string(),
            chars_per_s,
            ranks_named: ranks.is_some(),
            breakable: m.param("security") == Some("breakable"),
        }
    }
    /// What was measured apart from the executor: curve, arithmetic,
    /// encoding, operation, length.
    pub(crate) fn case(&self) -> (&str, &str, &str, &str, u64) {
        (
            &self.curve,
            &self.arith,
            &self.encoding,
            &self.op,
            self.length,
        )
    }
}

/// The measured elgamal cells.
pub fn cells(ms: &[Measurement]) -> Vec<Cell> {
    ms.iter()
        .filter(|m| m.suite == SUITE && m.status == CaseStatus::Measured && m.backend != PEER)
        .filter_map(|m| {
            let median = m.median_ns()?;
            (median > 0.0 && m.input_bytes > 0)
                .then(|| Cell::of(m, m.input_bytes as f64 * 1e9 / median))
        })
        .collect()
}

/// Characters/s of the first cell matching.
pub fn find(
    cells: &[Cell],
    curve: &str,
    encoding: &str,
    op: &str,
    length: u64,
    mode: &str,
    threads: usize,
) -> Option<f64> {
    let default_arith = Curve::parse(curve)
        .map(|c| arith::default_for(c).name())
        .unwrap_or("");
    let matching: Vec<&Cell> = cells
        .iter()
        .filter(|c| {
            c.curve == curve
                && c.encoding == encoding
                && c.op == op
                && c.length == length
                && c.mode == mode
                && (mode == "serial" || c.threads == threads)
        })
        .collect();
    matching
        .iter()
        .find(|c| c.arith == default_arith)
        .or(matching.first())
        .map(|c| c.chars_per_s)
}

/// Speedup of `threads` over serial at each length, per (curve, arith,
/// encoding, op): `BTreeMap<length, BTreeMap<threads, speedup>>`.
pub type SpeedupGrid = BTreeMap<u64, BTreeMap<usize, f64>>;

/// Speedup grids of the `threads` executor keyed by (curve, arith,
/// encoding, op).
pub fn speedups(cells: &[Cell]) -> BTreeMap<(String, String, String, String), SpeedupGrid> {
    let mut out: BTreeMap<_, SpeedupGrid> = BTreeMap::new();
    for (key, grid) in speedups_of(cells, "threads") {
        let worker_grid = grid
            .into_iter()
            .map(|(len, row)| (len, row.into_iter().map(|((_, t), s)| (t, s)).collect()))
            .collect();
        out.insert(key, worker_grid);
    }
    out
}

/// Speedup over serial at each length, across (ranks, threads), per (curve,
/// arith, encoding, op), of the cells of one executor (`mode`).
type ExecutorGrid = BTreeMap<u64, BTreeMap<(usize, usize), f64>>;

fn speedups_of(
    cells: &[Cell],
    mode: &str,
) -> BTreeMap<(String, String, String, String), ExecutorGrid> {
    let mut out: BTreeMap<_, ExecutorGrid> = BTreeMap::new();
    for c in cells.iter().filter(|c| c.mode == mode) {
        let serial = cells
            .iter()
            .find(|s| s.mode == "serial" && s.case() == c.case());
        if let Some(s) = serial {
            out.entry((
                c.curve.clone(),
                c.arith.clone(),
                c.encoding.clone(),
                c.op.clone(),
            ))
            .or_default()
            .entry(c.length)
            .or_default()
            .insert((c.ranks, c.threads), c.chars_per_s / s.chars_per_s);
        }
    }
    out
}

/// Characters per second in the tool's one rate vocabulary: `71.3 k chars/s`.
fn rate(x: f64) -> String {
    cryptobench_core::units::format_per_s(x, "chars")
}

/// All tables of the suite.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let cells = cells(ms);
    if cells.is_empty() {
        return Vec::new();
    }
    let mut out = vec![throughput_table(&cells)];
    for ((curve, arith, enc, op), grid) in speedups(&cells) {
        out.push(speedup_table(
            &format!("Speedup for {op}ing with {curve} ({arith}, {enc}), threads vs serial"),
            &grid,
        ));
    }
    // Under mpirun: one table per distributed executor, titled with it and
    // counted in ranks.
    for mode in ["mpi", "hybrid"] {
        for ((curve, arith, enc, op), grid) in speedups_of(&cells, mode) {
            out.push(executor_speedup_table(
                &format!("Speedup for {op}ing with {curve} ({arith}, {enc}), {mode} vs serial"),
                &grid,
            ));
        }
    }
    if let Some(t) = targets_table(&cells, ms) {
        out.push(t);
    }
    out
}

fn throughput_table(cells: &[Cell]) -> Table {
    let mut workers: BTreeSet<usize> = BTreeSet::new();
    for c in cells.iter().filter(|c| c.mode == "threads") {
        workers.insert(c.threads);
    }
    let mut distributed: BTreeSet<(String, usize, usize)> = BTreeSet::new();
    for c in cells
        .iter()
        .filter(|c| c.mode == "mpi" || c.mode == "hybrid")
    {
        distributed.insert((c.mode.clone(), c.ranks, c.threads));
    }
    let mut headers = vec![
        "curve".to_string(),
        "arith".into(),
        "encoding".into(),
        "op".into(),
        "length".into(),
        "serial".into(),
    ];
    headers.extend(workers.iter().map(|n| format!("{n} thr")));
    headers.extend(
        distributed
            .iter()
            .map(|(mode, r, t)| executor_label(mode, *r, *t)),
    );
    let n = headers.len();
    let mut t = Table::new("EC-ElGamal throughput (characters/s)", headers)
        .right(&(4..n).collect::<Vec<_>>());
    let keys: BTreeSet<_> = cells.iter().map(Cell::case).collect();
    for key in keys {
        let (curve, arith, enc, op, len) = key;
        let rate_of = |executor: &dyn Fn(&Cell) -> bool| {
            cells
                .iter()
                .find(|c| c.case() == key && executor(c))
                .map_or("-".to_string(), |c| rate(c.chars_per_s))
        };
        let mut row = vec![
            curve.to_string(),
            arith.to_string(),
            enc.to_string(),
            op.to_string(),
            len.to_string(),
            rate_of(&|c| c.mode == "serial"),
        ];
        row.extend(
            workers
                .iter()
                .map(|&w| rate_of(&|c| c.mode == "threads" && c.threads == w)),
        );
        row.extend(distributed.iter().map(|(mode, r, th)| {
            rate_of(&|c| &c.mode == mode && c.ranks == *r && c.threads == *th)
        }));
        t.row(row);
    }
    t.note(
        "throughput = message length / median time of one whole-message operation (seed 002, IV.B)",
    );
    t
}

/// A seed-shaped speedup table: lengths down, thread counts across.
pub fn speedup_table(title: &str, grid: &SpeedupGrid) -> Table {
    let mut t = grid_table(title, grid, |n| format!("{n} threads"));
    t.note(format!(
        "speedup = threads throughput / serial throughput at the same length; this machine has {} logical CPUs",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    ));
    if let Some(load) = load_average() {
        t.note(format!(
            "1-minute load average when summarised: {load:.2} (other processes sharing the cores lower every speedup)"
        ));
    }
    t
}

/// Lengths down, one column per key that any length has, speedups in cells.
fn grid_table<K: Ord + Copy>(
    title: &str,
    grid: &BTreeMap<u64, BTreeMap<K, f64>>,
    label: impl Fn(K) -> String,
) -> Table {
    let columns: BTreeSet<K> = grid.values().flat_map(|r| r.keys().copied()).collect();
    let mut headers = vec!["Message length".to_string()];
    headers.extend(columns.iter().map(|&k| label(k)));
    let n = headers.len();
    let mut t = Table::new(title, headers).right(&(1..n).collect::<Vec<_>>());
    for (len, row) in grid {
        let mut cells = vec![len.to_string()];
        cells.extend(
            columns
                .iter()
                .map(|k| row.get(k).map_or("-".into(), |s| format!("{s:.4}"))),
        );
        t.row(cells);
    }
    t
}

/// A distributed executor's column: `4 ranks`, `2 ranks x 2 thr`.
fn executor_label(mode: &str, ranks: usize, threads: usize) -> String {
    if mode == "hybrid" {
        format!("{ranks} ranks x {threads} thr")
    } else {
        format!("{ranks} ranks")
    }
}

/// A speedup table of a distributed executor: lengths down, ranks across.
fn executor_speedup_table(title: &str, grid: &ExecutorGrid) -> Table {
    let mode = if title.ends_with("hybrid vs serial") {
        "hybrid"
    } else {
        "mpi"
    };
    let mut t = grid_table(title, grid, |(r, th)| executor_label(mode, r, th));
    t.note(format!(
        "speedup = {mode} throughput / serial throughput at the same length; ranks are MPI processes (one per host or per core, as mpirun placed them)"
    ));
    t
}

/// The 1-minute load average (Linux), to judge whether cores were free.
fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn peer_ops(ms: &[Measurement]) -> Option<f64> {
    ms.iter()
        .find(|m| m.backend == PEER && m.primitive == "P-256" && m.status == CaseStatus::Measured)
        .and_then(|m| m.stats.as_ref().map(|s| s.ops_per_s))
}

fn verdict(ok: bool) -> String {
    if ok { "met" } else { "MISSED" }.to_string()
}

/// The targets over whatever this run measured.
fn targets_table(cells: &[Cell], ms: &[Measurement]) -> Option<Table> {
    let mut t = Table::new(
        "EC-ElGamal targets",
        ["target", "measured", "goal", "verdict"],
    )
    .right(&[1, 2]);
    let lengths = |curve: &str, enc: &str| -> Vec<u64> {
        let mut v: Vec<u64> = cells
            .iter()
            .filter(|c| c.curve == curve && c.encoding == enc && c.mode == "serial")
            .map(|c| c.length)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let p256_len = lengths("P-256", "char").last().copied();
    if let (Some(peer), Some(len)) = (peer_ops(ms), p256_len) {
        for (op, goal) in [("decrypt", 0.9), ("encrypt", 1.0)] {
            if let Some(r) = find(cells, "P-256", "char", op, len, "serial", 1) {
                let ratio = r / peer;
                t.row([
                    format!(
                        "P-256 char {op} chars/s vs openssl speed ecdhp256 ({} ops/s), {len} chars",
                        rate(peer)
                    ),
                    format!("{ratio:.2}x"),
                    format!(">= {goal:.1}x"),
                    verdict(ratio >= goal),
                ]);
            }
        }
    }
    for curve in ["P-256", "secp256k1", "toy64"] {
        let char_l = lengths(curve, "char");
        // Bytes per point bound the ratio: 30 on the 256-bit curves, 6 on toy64.
        let c = Curve::parse(curve)
            .map(|c| crate::encoding::Encoding::Packed.chunk_bytes(c))
            .unwrap_or(1);
        for len in lengths(curve, "packed")
            .into_iter()
            .filter(|l| char_l.contains(l))
            .take(1)
        {
            for op in ["encrypt", "decrypt"] {
                if let (Some(p), Some(ch)) = (
                    find(cells, curve, "packed", op, len, "serial", 1),
                    find(cells, curve, "char", op, len, "serial", 1),
                ) {
                    let (goal, verdict_text) = if c >= 20 {
                        (">= 20x".to_string(), verdict(p / ch >= 20.0))
                    } else {
                        (format!("<= {c}x (c = {c})"), "n/a".to_string())
                    };
                    t.row([
                        format!("{curve} packed/char bytes/s, {op}, {len} bytes"),
                        format!("{:.1}x", p / ch),
                        goal,
                        verdict_text,
                    ]);
                }
            }
        }
    }
    if let Some(len) = p256_len {
        let two_threads = Side("P-256", "threads", 2);
        ratio_targets(
            &mut t,
            cells,
            len,
            two_threads,
            Side("P-256", "serial", 1),
            |op, r| {
                (
                    format!("P-256 char {op} speedup, 2 threads, {len} chars"),
                    format!("{r:.2}"),
                    ">= 1.85 (at 65536)",
                    r >= 1.85,
                )
            },
        );
    }
    let toy = lengths("toy64", "char");
    if let Some(len) = lengths("P-256", "char")
        .into_iter()
        .rev()
        .find(|l| toy.contains(l))
    {
        let (toy, p256) = (Side("toy64", "serial", 1), Side("P-256", "serial", 1));
        ratio_targets(&mut t, cells, len, toy, p256, |op, r| {
            (
                format!("toy64 / P-256 char {op} throughput, {len} chars"),
                format!("{r:.1}x"),
                ">= 10x",
                r >= 10.0,
            )
        });
    }
    (!t.rows.is_empty()).then_some(t)
}

/// One cell of a `char` ratio target: curve, mode, workers.
#[derive(Clone, Copy)]
struct Side(&'static str, &'static str, usize);

/// A target row per operation on the ratio of two `char` cells at `len`:
/// `row(op, ratio)` gives what, the ratio shown, the goal and whether met.
fn ratio_targets(
    t: &mut Table,
    cells: &[Cell],
    len: u64,
    num: Side,
    den: Side,
    row: impl Fn(&str, f64) -> (String, String, &'static str, bool),
) {
    for op in ["encrypt", "decrypt"] {
        let at = |s: Side| find(cells, s.0, "char", op, len, s.1, s.2);
        if let (Some(a), Some(b)) = (at(num), at(den)) {
            let (what, shown, goal, met) = row(op, a / b);
            t.row([what, shown, goal.to_string(), verdict(met)]);
        }
    }
}

/// One line per curve: the best serial and parallel throughput at the
/// longest message measured, encrypt and decrypt (seed 002's metric).
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    let cells = cells(ms);
    let mut curves: Vec<&str> = cells.iter().map(|c| c.curve.as_str()).collect();
    curves.dedup();
    curves.sort_unstable();
    curves.dedup();
    curves
        .into_iter()
        .map(|curve| {
            let mine: Vec<&Cell> = cells
                .iter()
                .filter(|c| c.curve == curve && c.encoding == "char")
                .collect();
            let longest = mine.iter().map(|c| c.length).max().unwrap_or(0);
            let best = |op: &str| {
                mine.iter()
                    .filter(|c| c.op == op && c.length == longest)
                    .max_by(|a, b| a.chars_per_s.total_cmp(&b.chars_per_s))
                    .map(|c| {
                        format!(
                            "{} {} ({}, {} worker(s))",
                            op,
                            rate(c.chars_per_s),
                            c.mode,
                            c.threads
                        )
                    })
                    .unwrap_or_else(|| format!("{op} not measured"))
            };
            format!(
                "EC-ElGamal {curve} char, {longest} characters: {}; {}",
                best("encrypt"),
                best("decrypt")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(mode: &str, ranks: usize, threads: usize, chars_per_s: f64) -> Cell {
        Cell {
            curve: "P-256".into(),
            arith: "openssl".into(),
            encoding: "char".into(),
            op: "encrypt".into(),
            length: 1024,
            threads,
            ranks,
            mode: mode.into(),
            chars_per_s,
            ranks_named: matches!(mode, "mpi" | "hybrid"),
            breakable: false,
        }
    }

    #[test]
    fn distributed_executors_get_their_own_tables_counted_in_ranks() {
        let cells = vec![
            cell("serial", 1, 1, 1000.0),
            cell("mpi", 4, 1, 3000.0),
            cell("hybrid", 2, 2, 3500.0),
        ];
        assert!(
            speedups(&cells).is_empty(),
            "no threads cell, no threads table"
        );
        let mpi = &speedups_of(&cells, "mpi")[&(
            "P-256".into(),
            "openssl".into(),
            "char".into(),
            "encrypt".into(),
        )];
        let t = executor_speedup_table("Speedup ..., mpi vs serial", mpi);
        assert_eq!(t.headers, ["Message length", "4 ranks"]);
        assert_eq!(t.rows[0][1], "3.0000");
        let through = throughput_table(&cells);
        assert!(through.headers.contains(&"4 ranks".to_string()));
        assert!(through.headers.contains(&"2 ranks x 2 thr".to_string()));
        assert!(!through.headers.iter().any(|h| h == "1 thr"));
        let column = |h: &str| through.headers.iter().position(|x| x == h).unwrap();
        let row = &through.rows[0];
        assert_eq!(row[..5], ["P-256", "openssl", "char", "encrypt", "1024"]);
        assert_eq!(row[column("serial")], rate(1000.0));
        assert_eq!(row[column("4 ranks")], rate(3000.0));
        assert_eq!(row[column("2 ranks x 2 thr")], rate(3500.0));
    }

    #[test]
    fn ratio_targets_compare_threads_with_serial_and_toy64_with_p256() {
        let toy = |chars_per_s| Cell {
            curve: "toy64".into(),
            arith: "native".into(),
            ..cell("serial", 1, 1, chars_per_s)
        };
        let cells = vec![
            cell("serial", 1, 1, 1000.0),
            cell("threads", 1, 2, 1900.0),
            toy(9000.0),
        ];
        let t = targets_table(&cells, &[]).expect("targets");
        let row = |what: &str| {
            t.rows
                .iter()
                .find(|r| r[0].starts_with(what))
                .unwrap_or_else(|| panic!("no {what} row in {:?}", t.rows))
                .clone()
        };
        let speedup = row("P-256 char encrypt speedup, 2 threads, 1024 chars");
        assert_eq!(speedup[1..], ["1.90", ">= 1.85 (at 65536)", "met"]);
        let toy_row = row("toy64 / P-256 char encrypt throughput, 1024 chars");
        assert_eq!(toy_row[1..], ["9.0x", ">= 10x", "MISSED"]);
        assert!(
            !t.rows.iter().any(|r| r[0].contains("decrypt")),
            "no decrypt cells"
        );
    }
}
