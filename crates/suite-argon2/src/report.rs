//! The suite's own tables: seed 000's Table 9 and Table 10 shapes, the
//! backends side by side with memory fill rate and lane speedup, and the
//! library-versus-CLI ratios; plus the `argon2` paper, which prints the
//! seed's published figures beside this machine's.
//!
//! Fill rate is memory x passes / time: the bytes of blocks computed per
//! second, comparable across pass counts. Lane speedup compares a point
//! with the same point at one lane on the same backend.

use crate::cases::{
    doubling, Grid, FULL_TOP_KIB, OP_HASH, OP_STARTUP, TABLE_10_CELLS, TABLE_9_CELLS,
};
use crate::engines::{CLI, LIBARGON2};
use crate::params::Variant;
use crate::seed;
use crate::Argon2Suite;
use cryptobench_core::paper_method::SeedCounts;
use cryptobench_core::{
    CaseStatus, Error, Measurement, Paper, PaperProfile, RunConfig, Suite, Table,
};

use std::collections::BTreeMap;

const TITLE: &str = "Seed 000 (M. Duka, ECC and Argon2 in PHP, doi:10.35784/iapgos.897), Tables 9 and 10: Argon2 time by threads, memory and iterations";

/// A measured point: (variant name, m KiB, t, lanes, threads).
type Point = (String, u32, u32, u32, u32);

/// Medians by backend and point, in ns.
#[derive(Debug, Default)]
pub struct Index {
    times: BTreeMap<(String, Point), f64>,
    /// The CLI's start-up cost, ns.
    pub startup_ns: Option<f64>,
}

fn num(m: &Measurement, key: &str) -> Option<u32> {
    m.param(key)?.parse().ok()
}

impl Index {
    /// Indexes the measured cases of this suite.
    pub fn new(measurements: &[Measurement]) -> Self {
        let mut idx = Index::default();
        for m in measurements {
            let (Some(stats), CaseStatus::Measured) = (&m.stats, m.status) else {
                continue;
            };
            // Language runtimes have their own overhead table; here they
            // would crowd out the libraries and be taken for one.
            if m.suite != crate::cases::SUITE || cryptobench_core::advice::is_runtime(m) {
                continue;
            }
            if m.operation == OP_STARTUP {
                idx.startup_ns = Some(stats.median);
                continue;
            }
            if m.operation != OP_HASH {
                continue;
            }
            let point = (
                m.primitive.clone(),
                num(m, "m_kib").unwrap_or(0),
                num(m, "t").unwrap_or(0),
                num(m, "p").unwrap_or(0),
                num(m, "threads").unwrap_or(0),
            );
            idx.times.insert((m.backend.clone(), point), stats.median);
        }
        idx
    }
    /// Median ns of a backend at a point (threads = lanes).
    pub fn get(&self, backend: &str, v: Variant, m_kib: u32, t: u32, p: u32) -> Option<f64> {
        self.times
            .get(&(backend.to_string(), (v.name().to_string(), m_kib, t, p, p)))
            .copied()
    }
    /// The fastest library (not the CLI) at a point: (backend, ns).
    pub fn best_library(&self, point: &Point) -> Option<(String, f64)> {
        self.times
            .iter()
            .filter(|((b, p), _)| p == point && b != CLI)
            .map(|((b, _), t)| (b.clone(), *t))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }
    fn points(&self) -> Vec<Point> {
        let mut pts: Vec<Point> = self.times.keys().map(|(_, p)| p.clone()).collect();
        pts.sort();
        pts.dedup();
        pts
    }
    fn backends(&self) -> Vec<String> {
        let mut b: Vec<String> = self.times.keys().map(|(b, _)| b.clone()).collect();
        b.sort();
        b.dedup();
        b
    }
    /// Whether anything was measured.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }
}

fn secs(ns: Option<f64>) -> String {
    ns.map_or("-".into(), |v| format!("{:.3}", v / 1e9))
}

fn mib_per_s(point: &Point, ns: f64) -> f64 {
    f64::from(point.1) / 1024.0 * f64::from(point.2) / (ns / 1e9)
}

/// Every table of the suite.
pub fn summarize(measurements: &[Measurement]) -> Vec<Table> {
    let idx = Index::new(measurements);
    if idx.is_empty() {
        return Vec::new();
    }
    let mut out = vec![backends_table(&idx)];
    out.extend(table9(&idx));
    out.extend(table10(&idx));
    out.extend(cli_ratio_table(&idx));
    out
}

fn backends_table(idx: &Index) -> Table {
    let backends = idx.backends();
    let mut headers: Vec<String> = ["variant", "memory", "t", "lanes", "threads"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    headers.extend(backends.iter().map(|b| format!("{b} ms")));
    headers.extend(["fastest library", "MiB/s", "vs 1 lane"].map(String::from));
    let n = headers.len();
    let mut t = Table::new("Argon2: time of one hash by backend (median)", headers)
        .right(&(1..n).collect::<Vec<_>>());
    for point in idx.points() {
        let mut row = vec![
            point.0.clone(),
            format!("{} MiB", point.1 / 1024),
            point.2.to_string(),
            point.3.to_string(),
            point.4.to_string(),
        ];
        for b in &backends {
            row.push(
                idx.times
                    .get(&(b.clone(), point.clone()))
                    .map_or("-".into(), |ns| format!("{:.1}", ns / 1e6)),
            );
        }
        match idx.best_library(&point) {
            Some((name, ns)) => {
                row.push(name.clone());
                row.push(format!("{:.0}", mib_per_s(&point, ns)));
                let one = (point.0.clone(), point.1, point.2, 1, 1);
                let base = idx.times.get(&(name, one)).copied();
                row.push(base.map_or("-".into(), |b| format!("{:.2}x", b / ns)));
            }
            None => row.extend(["-", "-", "-"].map(String::from)),
        }
        t.rows.push(row);
    }
    t.note("MiB/s = memory x passes / time (blocks computed per second); vs 1 lane = the same backend at p = 1 over this point");
    t.note("one operation = one complete hash, memory allocation included; the CLI figure is a whole process");
    t
}

/// Rows (lanes x memory) of cells (variant, t); `None` when nothing of it was measured.
fn seed_shaped(
    idx: &Index,
    title: &str,
    cells: &[(Variant, u32, &str)],
    with_rate: Option<(Variant, u32)>,
) -> Option<Table> {
    let mut lanes: Vec<u32> = idx.points().iter().map(|p| p.3).collect();
    let mut mems: Vec<u32> = idx.points().iter().map(|p| p.1).collect();
    lanes.sort();
    lanes.dedup();
    mems.sort();
    mems.dedup();
    let mut headers = vec!["threads".to_string(), "memory MiB".to_string()];
    headers.extend(cells.iter().map(|(v, t, b)| {
        let who = if *b == CLI { "CLI" } else { b };
        format!("{} {t} it. {who} s", v.name())
    }));
    if with_rate.is_some() {
        headers.extend(["MiB/s".to_string(), "vs 1 lane".to_string()]);
    }
    let n = headers.len();
    let mut table = Table::new(title, headers).right(&(0..n).collect::<Vec<_>>());
    for &p in &lanes {
        for &m in &mems {
            let values: Vec<Option<f64>> = cells
                .iter()
                .map(|(v, t, b)| {
                    if *b == "library" {
                        idx.best_library(&(v.name().to_string(), m, *t, p, p))
                            .map(|x| x.1)
                    } else {
                        idx.get(b, *v, m, *t, p)
                    }
                })
                .collect();
            if values.iter().all(Option::is_none) {
                continue;
            }
            let mut row = vec![p.to_string(), (m / 1024).to_string()];
            row.extend(values.iter().map(|v| secs(*v)));
            if let Some((v, t)) = with_rate {
                let point = (v.name().to_string(), m, t, p, p);
                match idx.best_library(&point) {
                    Some((name, ns)) => {
                        row.push(format!("{:.0}", mib_per_s(&point, ns)));
                        let one = idx.times.get(&(name, (v.name().to_string(), m, t, 1, 1)));
                        row.push(one.map_or("-".into(), |b| format!("{:.2}x", b / ns)));
                    }
                    None => row.extend(["-".to_string(), "-".to_string()]),
                }
            }
            table.rows.push(row);
        }
    }
    (!table.rows.is_empty()).then_some(table)
}

fn table9(idx: &Index) -> Option<Table> {
    let mut t = seed_shaped(
        idx,
        "Seed Table 9 shape: Argon2d (1 iteration) and Argon2i (3 iterations), console (argon2 CLI) and library",
        &[
            (Variant::D, 1, CLI),
            (Variant::D, 1, "library"),
            (Variant::I, 3, CLI),
            (Variant::I, 3, "library"),
        ],
        Some((Variant::I, 3)),
    )?;
    t.note("library = the fastest library backend at that point; MiB/s and vs 1 lane are for Argon2i, 3 iterations, that backend");
    Some(t)
}

fn table10(idx: &Index) -> Option<Table> {
    let mut t = seed_shaped(
        idx,
        "Seed Table 10 shape: Argon2i with 1, 3 and 6 iterations (libargon2, the library PHP links)",
        &[
            (Variant::I, 1, LIBARGON2),
            (Variant::I, 3, LIBARGON2),
            (Variant::I, 6, LIBARGON2),
        ],
        Some((Variant::I, 3)),
    )?;
    t.note("MiB/s and vs 1 lane: Argon2i, 3 iterations, fastest library backend");
    Some(t)
}

fn cli_ratio_table(idx: &Index) -> Option<Table> {
    let mut t = Table::new(
        "Library vs the argon2 CLI (same parameters, same run)",
        [
            "variant",
            "memory",
            "t",
            "lanes",
            "CLI ms",
            "CLI - start-up ms",
            "fastest library",
            "library ms",
            "CLI / library",
            "(start-up subtracted)",
        ],
    )
    .right(&[1, 2, 3, 4, 5, 7, 8, 9]);
    for point in idx.points() {
        let Some(cli) = idx.times.get(&(CLI.to_string(), point.clone())).copied() else {
            continue;
        };
        let Some((name, lib)) = idx.best_library(&point) else {
            continue;
        };
        let net = idx.startup_ns.map(|s| cli - s);
        t.row([
            point.0.clone(),
            format!("{} MiB", point.1 / 1024),
            point.2.to_string(),
            point.3.to_string(),
            format!("{:.1}", cli / 1e6),
            net.map_or("-".into(), |n| format!("{:.1}", n / 1e6)),
            name,
            format!("{:.1}", lib / 1e6),
            format!("{:.2}", cli / lib),
            net.map_or("-".into(), |n| format!("{:.2}", n / lib)),
        ]);
    }
    if let Some(s) = idx.startup_ns {
        t.note(format!(
            "CLI start-up = one argon2 process at m = 8 KiB, t = 1, p = 1: {:.2} ms (measured in the same run)",
            s / 1e6
        ));
    }
    t.note("a ratio above 1 means the library is faster than the CLI");
    (!t.rows.is_empty()).then_some(t)
}

/// Seed 000, Tables 9 and 10, as `cryptobench paper argon2`.
#[derive(Debug, Clone, Copy)]
pub struct SeedPaper;

impl SeedPaper {
    /// The grids that reproduce the seed: the CLI for Table 9 (Argon2d 1
    /// pass, Argon2i 3 passes), libargon2 for Table 10 (Argon2i 1, 3, 6).
    pub fn grids(cfg: &RunConfig) -> Vec<Grid> {
        let memory: Vec<u32> = if cfg.quick {
            vec![16 << 10, 32 << 10]
        } else if cfg.full {
            doubling(16 << 10, FULL_TOP_KIB)
        } else {
            doubling(16 << 10, 256 << 10)
        };
        let lanes = if cfg.quick {
            vec![1, 2]
        } else {
            vec![1, 2, 4, 8]
        };
        vec![
            Grid::of(TABLE_9_CELLS.to_vec(), memory.clone(), lanes.clone()).on(CLI),
            Grid::of(TABLE_10_CELLS.to_vec(), memory, lanes).on(LIBARGON2),
        ]
    }
}

impl Paper for SeedPaper {
    fn profile(&self) -> PaperProfile {
        // Seed 000: "The number of iterations for each type of measurement was 10".
        let counts = SeedCounts::one_call_per_run("10 calls per setting, mean time", 10);
        PaperProfile::new("argon2", TITLE).seed_counts(counts)
    }
    fn suites(&self, cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        Ok(Self::grids(cfg)
            .into_iter()
            .map(|g| Box::new(Argon2Suite { grid: Some(g) }) as Box<dyn Suite>)
            .collect())
    }
    fn render(&self, measurements: &[Measurement]) -> Vec<Table> {
        seed::render(
            &Index::new(measurements),
            &seed::PhpFigures::new(measurements),
        )
    }
}

/// Targets of the one-screen summary (seed 000's question: which
/// parameters fit a login budget here).
pub const HEADLINE_TARGETS_MS: [f64; 3] = [250.0, 500.0, 1000.0];

/// For each target time, the Argon2id advice `recommend` gives for the
/// same run (one function for both, `cryptobench_core::advice::argon2`).
pub fn headline(measurements: &[Measurement]) -> Vec<String> {
    let targets: Vec<f64> = HEADLINE_TARGETS_MS.iter().map(|ms| ms * 1e6).collect();
    let advice = cryptobench_core::advice::argon2(measurements, &targets);
    if advice.is_empty() {
        return vec!["Argon2id: no point measured in this run (run `cryptobench argon2 tune --target 500ms`)".into()];
    }
    advice.iter().map(|a| a.line()).collect()
}
