//! The suite's own figures for the HTML report, shaped after seed 002:
//! throughput in characters per second per curve x encoding x operation
//! (one bar per executor: serial, threads, MPI ranks, hybrid), and the
//! seed's speedup tables as lines, speedup over serial against the number
//! of workers.
//!
//! Workers are threads for `threads`, ranks for `mpi`, ranks x threads for
//! `hybrid` (measurements from the mpi crate carry a `ranks` parameter).
//! The serial baseline of a speedup is the same curve, arithmetic,
//! encoding, length and operation, from the same kind of run when there is
//! one (an MPI run times its own serial cells on rank 0).

use crate::suite::SUITE;
use crate::summary::Cell;
use cryptobench_core::{CaseStatus, Chart, ChartKind, Measurement, Series};

/// The charts' own views of a cell's executor.
impl Cell {
    /// Threads, ranks, or ranks x threads: everything working at once.
    fn workers(&self) -> usize {
        let ranks = self.ranks.max(1);
        match self.mode.as_str() {
            "serial" => 1,
            "mpi" => ranks,
            "hybrid" => ranks * self.threads.max(1),
            _ => self.threads.max(1),
        }
    }
    /// Legend text of the executor.
    fn executor(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        match self.mode.as_str() {
            "serial" => "serial".into(),
            "threads" => plural(self.threads, "thread"),
            "mpi" => format!("{} (mpi)", plural(self.ranks, "rank")),
            "hybrid" => format!(
                "{} x {} (hybrid)",
                plural(self.ranks, "rank"),
                plural(self.threads, "thread")
            ),
            other => format!("{other} {}", self.threads),
        }
    }
    /// Sort key of the executor: serial, threads, mpi, hybrid, then workers.
    fn executor_order(&self) -> (usize, usize, usize) {
        let kind = ["serial", "threads", "mpi", "hybrid"]
            .iter()
            .position(|m| *m == self.mode)
            .unwrap_or(4);
        (kind, self.workers(), self.threads)
    }
}

fn cells(ms: &[Measurement]) -> Vec<Cell> {
    ms.iter()
        .filter(|m| {
            m.suite == SUITE
                && m.status == CaseStatus::Measured
                && !m.backend.starts_with("peer:")
                && m.input_bytes > 0
        })
        .filter_map(|m| {
            let s = m.stats.as_ref()?;
            let chars_per_s = s.bytes_per_s.unwrap_or_else(|| {
                if s.median > 0.0 {
                    m.input_bytes as f64 * 1e9 / s.median
                } else {
                    0.0
                }
            });
            (chars_per_s.is_finite() && chars_per_s > 0.0).then(|| Cell::of(m, chars_per_s))
        })
        .collect()
}

/// Curves in the suite's order, then any other name as found.
fn curve_order(name: &str) -> usize {
    crate::curve::Curve::NAMES
        .iter()
        .position(|n| *n == name)
        .unwrap_or(usize::MAX)
}

/// Throughput bars per message length, then speedup lines per curve and
/// operation.
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let cells = cells(ms);
    let mut out = Vec::new();
    let mut lengths: Vec<u64> = cells.iter().map(|c| c.length).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for len in lengths {
        let at: Vec<&Cell> = cells.iter().filter(|c| c.length == len).collect();
        out.extend(throughput_chart(len, &at));
    }
    out.extend(speedup_charts(&cells));
    out
}

/// Whether a curve was measured with more than one arithmetic.
fn several_ariths(cells: &[&Cell], curve: &str) -> bool {
    let mut a: Vec<&str> = cells
        .iter()
        .filter(|c| c.curve == curve)
        .map(|c| c.arith.as_str())
        .collect();
    a.sort_unstable();
    a.dedup();
    a.len() > 1
}

fn throughput_chart(len: u64, at: &[&Cell]) -> Option<Chart> {
    if at.is_empty() {
        return None;
    }
    let category = |c: &Cell| {
        if several_ariths(at, &c.curve) {
            format!("{} ({}), {}, {}", c.curve, c.arith, c.encoding, c.op)
        } else {
            format!("{}, {}, {}", c.curve, c.encoding, c.op)
        }
    };
    let mut sorted: Vec<&Cell> = at.to_vec();
    sorted.sort_by(|a, b| {
        (
            curve_order(&a.curve),
            &a.curve,
            &a.arith,
            &a.encoding,
            &a.op,
        )
            .cmp(&(
                curve_order(&b.curve),
                &b.curve,
                &b.arith,
                &b.encoding,
                &b.op,
            ))
    });
    let mut cats: Vec<(String, bool)> = Vec::new();
    for c in &sorted {
        let k = category(c);
        if !cats.iter().any(|x| x.0 == k) {
            cats.push((k, !c.breakable));
        }
    }
    let mut execs: Vec<&Cell> = sorted.clone();
    execs.sort_by_key(|c| c.executor_order());
    let mut names: Vec<String> = Vec::new();
    for c in execs {
        let n = c.executor();
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let mut chart = Chart::bars(
        format!(
            "EC-ElGamal throughput, {} characters per message (seed 002)",
            len
        ),
        "characters per second (longer is faster)",
    );
    chart.categories = cats.iter().map(|c| c.0.clone()).collect();
    chart.marked = (0..cats.len()).filter(|&i| cats[i].1).collect();
    for name in names {
        let mut points: Vec<(f64, f64)> = sorted
            .iter()
            .filter(|c| c.executor() == name)
            .filter_map(|c| {
                let k = category(c);
                let i = chart.categories.iter().position(|x| *x == k)?;
                Some((i as f64, c.chars_per_s))
            })
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points.dedup_by(|a, b| a.0 == b.0);
        chart.series.push(Series { name, points });
    }
    chart.log_y_when_wide(at.iter().map(|c| c.chars_per_s));
    chart.notes.push(format!(
        "Median characters per second over a whole {len}-character message: encrypt = encode and encrypt every chunk, decrypt = decrypt and decode every pair; one bar per executor (threads, MPI ranks, ranks x threads)."
    ));
    chart.notes.push(
        "Shaded (bold): curves of real size; toy64 is breakable by design. The per-character scheme itself is insecure (malleable, leaks length) on every curve: it reproduces the seed, it is not advice."
            .into(),
    );
    Some(chart)
}

/// The serial cell a parallel cell is compared with.
fn serial_of<'a>(cells: &'a [Cell], c: &Cell) -> Option<&'a Cell> {
    let same = |s: &&Cell| s.mode == "serial" && s.case() == c.case();
    cells
        .iter()
        .filter(same)
        .find(|s| s.ranks_named == c.ranks_named)
        .or_else(|| cells.iter().find(same))
}

/// A chart's (curve, operation).
type CurveOp = (String, String);
/// A line's name and its (workers, speedup) points.
type NamedPoints = (String, Vec<(f64, f64)>);

/// Lines of speedup over serial against workers, one chart per curve x
/// operation, one line per length x encoding x executor kind.
fn speedup_charts(cells: &[Cell]) -> Vec<Chart> {
    let mut groups: Vec<(CurveOp, Vec<NamedPoints>)> = Vec::new();
    let mut parallel: Vec<&Cell> = cells.iter().filter(|c| c.mode != "serial").collect();
    parallel.sort_by(|a, b| {
        (
            curve_order(&a.curve),
            &a.curve,
            &a.op,
            a.length,
            &a.encoding,
            &a.arith,
        )
            .cmp(&(
                curve_order(&b.curve),
                &b.curve,
                &b.op,
                b.length,
                &b.encoding,
                &b.arith,
            ))
            .then(a.executor_order().cmp(&b.executor_order()))
    });
    let borrowed: Vec<&Cell> = cells.iter().collect();
    for c in parallel {
        let Some(serial) = serial_of(cells, c) else {
            continue;
        };
        let speedup = c.chars_per_s / serial.chars_per_s;
        if !speedup.is_finite() {
            continue;
        }
        let family = match c.mode.as_str() {
            "mpi" => "mpi ranks".to_string(),
            "hybrid" => format!("hybrid, {} threads per rank", c.threads),
            other => other.to_string(),
        };
        let mut name = format!("{} chars, {}, {family}", c.length, c.encoding);
        if several_ariths(&borrowed, &c.curve) {
            name = format!("{name}, {}", c.arith);
        }
        let gkey = (c.curve.clone(), c.op.clone());
        let gi = match groups.iter().position(|g| g.0 == gkey) {
            Some(i) => i,
            None => {
                groups.push((gkey, Vec::new()));
                groups.len() - 1
            }
        };
        let series = &mut groups[gi].1;
        let si = match series.iter().position(|s| s.0 == name) {
            Some(i) => i,
            None => {
                series.push((name, vec![(1.0, 1.0)]));
                series.len() - 1
            }
        };
        let x = c.workers() as f64;
        let pts = &mut series[si].1;
        if !pts.iter().any(|p| p.0 == x) {
            pts.push((x, speedup));
        }
    }
    groups
        .into_iter()
        .map(|((curve, op), series)| {
            let mut chart = Chart::new(
                ChartKind::Line,
                format!("EC-ElGamal speedup over serial: {curve}, {op} (seed 002)"),
                "workers (threads, ranks, or ranks x threads)",
                "speedup over serial (x)",
            );
            let max_workers = series
                .iter()
                .flat_map(|s| s.1.iter().map(|p| p.0))
                .fold(1.0f64, f64::max);
            chart.log_x = max_workers > 16.0;
            for (name, mut points) in series {
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart.series.push(Series { name, points });
            }
            // A lone line gets no legend: say what it is.
            if let [only] = chart.series.as_slice() {
                chart.notes.push(format!("The line: {}.", only.name));
            }
            chart.notes.push(
                "Speedup = characters per second with N workers / characters per second serial, same curve, arithmetic, encoding, length and operation; every line starts at 1 worker = 1x."
                    .into(),
            );
            chart.notes.push(
                "Workers: threads for the thread pool, ranks for mpi (seed's Parallel One), ranks x threads for hybrid (Parallel Three); seed 002 Tables III-XII report 1.6x-2.3x for 2 to 1000 workers on encryption."
                    .into(),
            );
            chart
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn cell(curve: &str, op: &str, len: u64, mode: &str, threads: usize, cps: f64) -> Measurement {
        let mut spec = CaseSpec::new(SUITE, curve, "native", "v", op)
            .size(len)
            .param("encoding", "char")
            .param("mode", mode)
            .param("threads", threads);
        if curve == "toy64" {
            spec = spec.param("security", "breakable");
        }
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: len as f64 * 1e9 / cps,
            ops_per_s: cps / len as f64,
            bytes_per_s: Some(cps),
            ..Summary::default()
        });
        m
    }

    fn ranked(mode: &str, ranks: usize, threads: usize, cps: f64) -> Measurement {
        let mut m = cell("P-256", "encrypt", 1024, mode, threads, cps);
        m.params.insert("ranks".into(), ranks.to_string());
        m
    }

    #[test]
    fn throughput_bars_and_thread_speedup_lines() {
        let mut failed = cell("P-256", "decrypt", 1024, "threads", 2, 1.0);
        failed.status = CaseStatus::Failed;
        let ms = vec![
            cell("P-256", "encrypt", 1024, "serial", 1, 1000.0),
            cell("P-256", "encrypt", 1024, "threads", 2, 1800.0),
            cell("P-256", "encrypt", 1024, "threads", 4, 3000.0),
            cell("toy64", "encrypt", 1024, "serial", 1, 20000.0),
            cell("P-256", "decrypt", 1024, "serial", 1, 800.0),
            failed,
        ];
        let charts = charts(&ms);
        assert_eq!(
            charts.len(),
            2,
            "one length, one (curve, op) with a speedup"
        );
        let bars = &charts[0];
        assert_eq!(bars.kind, ChartKind::Bar);
        assert_eq!(
            bars.categories,
            [
                "toy64, char, encrypt",
                "P-256, char, decrypt",
                "P-256, char, encrypt"
            ]
        );
        assert_eq!(bars.marked, vec![1, 2]);
        let names: Vec<&str> = bars.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["serial", "2 threads", "4 threads"]);
        assert_eq!(bars.series[1].points, vec![(2.0, 1800.0)]);
        let lines = &charts[1];
        assert_eq!(lines.kind, ChartKind::Line);
        assert!(lines.title.contains("P-256, encrypt"));
        assert_eq!(lines.series.len(), 1);
        assert_eq!(
            lines.series[0].points,
            vec![(1.0, 1.0), (2.0, 1.8), (4.0, 3.0)]
        );
        assert!(!lines.log_x);
    }

    #[test]
    fn mpi_and_hybrid_cells_count_ranks_as_workers() {
        let ms = vec![
            ranked("serial", 2, 1, 1000.0),
            ranked("mpi", 2, 1, 1700.0),
            ranked("hybrid", 2, 10, 5000.0),
            // A serial cell of another run must not be the baseline.
            cell("P-256", "encrypt", 1024, "serial", 1, 500.0),
        ];
        let charts = charts(&ms);
        let bars = &charts[0];
        let names: Vec<&str> = bars.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["serial", "2 ranks (mpi)", "2 ranks x 10 threads (hybrid)"]
        );
        let lines = &charts[1];
        let named: Vec<(&str, &Vec<(f64, f64)>)> = lines
            .series
            .iter()
            .map(|s| (s.name.as_str(), &s.points))
            .collect();
        assert_eq!(named.len(), 2);
        assert!(named[0].0.contains("mpi ranks"));
        assert_eq!(named[0].1, &vec![(1.0, 1.0), (2.0, 1.7)]);
        assert!(named[1].0.contains("hybrid"));
        assert_eq!(named[1].1, &vec![(1.0, 1.0), (20.0, 5.0)]);
        assert!(lines.log_x, "20 workers");
    }

    #[test]
    fn empty_or_failed_input_gives_no_chart() {
        assert!(charts(&[]).is_empty());
        let mut m = cell("P-256", "encrypt", 1024, "serial", 1, 1000.0);
        m.status = CaseStatus::Failed;
        let mut n = cell("P-256", "encrypt", 1024, "threads", 2, 1000.0);
        n.stats = None;
        assert!(charts(&[m, n]).is_empty());
    }
}
