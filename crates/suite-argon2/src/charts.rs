//! The suite's own figures for the HTML report: seed 000's Tables 9 and 10
//! drawn as lines, the time of one hash against memory with one line per
//! lane count, both axes logarithmic (memory doubles from row to row and
//! time follows it, so equal steps mean equal ratios).
//!
//! One chart per variant and pass count; when a variant was measured at
//! more than [`MAX_PASS_CHARTS`] pass counts, only the most measured one is
//! drawn (the tables under the charts have the rest). Several backends
//! share a chart, one line per backend and lane count, until that would
//! need more lines than the report has colours; then each backend gets its
//! own chart.

use crate::cases::{OP_HASH, SUITE};
use crate::engines::CLI;
use crate::params::Variant;
use cryptobench_core::{CaseStatus, Chart, Measurement, Series};

/// Most pass counts of one variant drawn as separate charts.
pub const MAX_PASS_CHARTS: usize = 3;
/// Most lines in one chart: the report's palette has ten colours.
const MAX_SERIES: usize = 10;

/// One measured hash.
#[derive(Debug, Clone, PartialEq)]
struct Point {
    variant: String,
    t: u32,
    backend: String,
    lanes: u32,
    threads: u32,
    mib: f64,
    ms: f64,
}

fn num(m: &Measurement, key: &str) -> Option<u32> {
    m.param(key)?.parse().ok()
}

fn points(ms: &[Measurement]) -> Vec<Point> {
    ms.iter()
        .filter(|m| m.suite == SUITE && m.operation == OP_HASH && m.status == CaseStatus::Measured)
        // Libraries only: runtime rows have the runtime overhead chart, and
        // here each would push the lines past the colours into one chart
        // per backend.
        .filter(|m| !cryptobench_core::advice::is_runtime(m))
        .filter_map(|m| {
            let median = m.stats.as_ref()?.median;
            let lanes = num(m, "p")?;
            let p = Point {
                variant: m.primitive.clone(),
                t: num(m, "t")?,
                backend: m.backend.clone(),
                lanes,
                threads: num(m, "threads").unwrap_or(lanes),
                mib: f64::from(num(m, "m_kib")?) / 1024.0,
                ms: median / 1e6,
            };
            (p.ms.is_finite() && p.ms > 0.0 && p.mib > 0.0).then_some(p)
        })
        .collect()
}

/// Variants in the seed's order, then any other name as found.
fn variants(pts: &[Point]) -> Vec<String> {
    let mut out: Vec<String> = Variant::ALL
        .iter()
        .map(|v| v.name().to_string())
        .filter(|v| pts.iter().any(|p| p.variant == *v))
        .collect();
    for p in pts {
        if !out.contains(&p.variant) {
            out.push(p.variant.clone());
        }
    }
    out
}

/// The pass counts charted for a variant: all when few, else the most
/// measured (the smaller on a tie).
fn pass_counts(pts: &[&Point]) -> Vec<u32> {
    let mut ts: Vec<u32> = pts.iter().map(|p| p.t).collect();
    ts.sort_unstable();
    ts.dedup();
    if ts.len() <= MAX_PASS_CHARTS {
        return ts;
    }
    let count = |t: u32| pts.iter().filter(|p| p.t == t).count();
    let best = ts
        .iter()
        .copied()
        .max_by(|a, b| count(*a).cmp(&count(*b)).then(b.cmp(a)));
    best.into_iter().collect()
}

/// Time-versus-memory charts (seed Tables 9/10 as lines).
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let pts = points(ms);
    let mut out = Vec::new();
    for variant in variants(&pts) {
        let of: Vec<&Point> = pts.iter().filter(|p| p.variant == variant).collect();
        let ts = pass_counts(&of);
        let dropped = {
            let mut all: Vec<u32> = of.iter().map(|p| p.t).collect();
            all.sort_unstable();
            all.dedup();
            all.len() - ts.len()
        };
        for t in ts {
            let cell: Vec<&Point> = of.iter().copied().filter(|p| p.t == t).collect();
            let mut backends: Vec<String> = cell.iter().map(|p| p.backend.clone()).collect();
            backends.sort();
            backends.dedup();
            let mut lanes: Vec<(u32, u32)> = cell.iter().map(|p| (p.lanes, p.threads)).collect();
            lanes.sort_unstable();
            lanes.dedup();
            let groups: Vec<Vec<String>> = if backends.len() * lanes.len() <= MAX_SERIES {
                vec![backends.clone()]
            } else {
                backends.iter().map(|b| vec![b.clone()]).collect()
            };
            for group in groups {
                let members: Vec<&Point> = cell
                    .iter()
                    .copied()
                    .filter(|p| group.contains(&p.backend))
                    .collect();
                let mut chart =
                    line_chart(&variant, t, &group, &members, group.len() < backends.len());
                if dropped > 0 {
                    chart.notes.push(format!(
                        "{variant} was measured at {dropped} more pass count{}; they are in the tables below.",
                        if dropped == 1 { "" } else { "s" }
                    ));
                }
                out.push(chart);
            }
        }
    }
    out
}

fn lane_text(lanes: u32, threads: u32) -> String {
    if threads == lanes {
        format!("p = {lanes}")
    } else {
        format!(
            "p = {lanes}, {threads} thread{}",
            if threads == 1 { "" } else { "s" }
        )
    }
}

/// Lines of milliseconds over MiB for one variant and pass count.
fn line_chart(
    variant: &str,
    t: u32,
    backends: &[String],
    members: &[&Point],
    split: bool,
) -> Chart {
    let passes = format!("{t} pass{}", if t == 1 { "" } else { "es" });
    let title = if split || backends.len() == 1 {
        format!(
            "Argon2: {variant}, {passes}, time vs memory per lane count ({})",
            backends.join(", ")
        )
    } else {
        format!("Argon2: {variant}, {passes}, time vs memory per lane count")
    };
    let mut chart = Chart::log_lines(title, "memory (MiB)", "milliseconds per hash");
    let mut keys: Vec<(String, u32, u32)> = members
        .iter()
        .map(|p| (p.backend.clone(), p.lanes, p.threads))
        .collect();
    keys.sort();
    keys.dedup();
    // Lane count first, so a backend's lines sit together in the legend order
    // of the seed's tables (threads down the rows).
    keys.sort_by_key(|k| (k.1, k.2, k.0.clone()));
    for (backend, lanes, threads) in keys {
        let mut pts: Vec<(f64, f64)> = members
            .iter()
            .filter(|p| p.backend == backend && p.lanes == lanes && p.threads == threads)
            .map(|p| (p.mib, p.ms))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        pts.dedup_by(|a, b| a.0 == b.0);
        let name = if backends.len() == 1 {
            lane_text(lanes, threads)
        } else {
            format!("{}, {backend}", lane_text(lanes, threads))
        };
        chart.series.push(Series { name, points: pts });
    }
    // A lone line gets no legend: say what it is.
    if let [only] = chart.series.as_slice() {
        chart.notes.push(format!("The line: {}.", only.name));
    }
    chart.notes.push(format!(
        "Median time of one complete {variant} hash ({passes}, memory allocation included) in milliseconds against memory in MiB; one line per lane count p (threads = p unless the line says otherwise); both axes logarithmic."
    ));
    if backends.iter().any(|b| b == CLI) {
        chart.notes.push(
            "The argon2 CLI's time is a whole process, start-up included, as the seed's console measurements (Table 9)."
                .into(),
        );
    }
    chart.notes.push(
        "Seed 000: Table 9 is Argon2d at 1 pass and Argon2i at 3 passes (console); Table 10 is Argon2i at 1, 3 and 6 passes (PHP); both at 1, 2, 4, 8 threads and 16 MiB to 1 GiB."
            .into(),
    );
    chart
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, ChartKind, Summary};

    fn hash(variant: &str, backend: &str, m_mib: u32, t: u32, p: u32, ms: f64) -> Measurement {
        let mut m = CaseSpec::new(SUITE, variant, backend, "v", OP_HASH)
            .param("m_kib", m_mib * 1024)
            .param("t", t)
            .param("p", p)
            .param("threads", p)
            .param("version", "0x13")
            .size(u64::from(m_mib) << 20)
            .measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: ms * 1e6,
            ops_per_s: 1e3 / ms,
            ..Summary::default()
        });
        m
    }

    #[test]
    fn one_line_per_lane_count_with_log_axes() {
        let mut failed = hash("Argon2d", "libargon2", 32, 1, 4, 1.0);
        failed.status = CaseStatus::Failed;
        let ms = vec![
            hash("Argon2d", "libargon2", 16, 1, 1, 30.0),
            hash("Argon2d", "libargon2", 8, 1, 1, 15.0),
            hash("Argon2d", "libargon2", 16, 1, 2, 20.0),
            hash("Argon2i", "libargon2", 16, 3, 1, 90.0),
            failed,
        ];
        let charts = charts(&ms);
        assert_eq!(charts.len(), 2);
        let d = &charts[0];
        assert_eq!(d.kind, ChartKind::Line);
        assert!(d.log_x && d.log_y);
        assert!(
            d.title.contains("Argon2d") && d.title.contains("1 pass,"),
            "{}",
            d.title
        );
        let names: Vec<&str> = d.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["p = 1", "p = 2"],
            "the failed p = 4 point is left out"
        );
        assert_eq!(d.series[0].points, vec![(8.0, 15.0), (16.0, 30.0)]);
        assert!(charts[1].title.contains("Argon2i, 3 passes"));
        assert!(d.notes.iter().any(|n| n.contains("milliseconds")));
    }

    #[test]
    fn backends_share_a_chart_until_colours_run_out() {
        let mut ms = vec![
            hash("Argon2id", "libargon2", 16, 1, 1, 30.0),
            hash("Argon2id", CLI, 16, 1, 1, 32.0),
        ];
        let shared = charts(&ms);
        assert_eq!(shared.len(), 1);
        let names: Vec<&str> = shared[0].series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["p = 1, libargon2", format!("p = 1, {CLI}").as_str()]
        );
        assert!(shared[0].notes.iter().any(|n| n.contains("CLI")));
        // 2 backends x 8 lane counts > 10 lines: one chart per backend.
        for p in 2..=8 {
            ms.push(hash("Argon2id", "libargon2", 16, 1, p, 30.0));
            ms.push(hash("Argon2id", CLI, 16, 1, p, 32.0));
        }
        let split = charts(&ms);
        assert_eq!(split.len(), 2);
        assert!(split[0].title.contains("(libargon2)") || split[0].title.contains(CLI));
        assert_eq!(split[0].series.len(), 8);
        assert_eq!(split[0].series[0].name, "p = 1");
    }

    #[test]
    fn many_pass_counts_keep_the_most_measured() {
        let mut ms = Vec::new();
        for t in [1, 2, 3, 6] {
            ms.push(hash("Argon2i", "libargon2", 16, t, 1, 10.0 * f64::from(t)));
        }
        ms.push(hash("Argon2i", "libargon2", 32, 3, 1, 60.0));
        let charts = charts(&ms);
        assert_eq!(charts.len(), 1);
        assert!(charts[0].title.contains("3 passes"), "{}", charts[0].title);
        assert!(charts[0]
            .notes
            .iter()
            .any(|n| n.contains("3 more pass counts")));
    }

    #[test]
    fn empty_or_failed_input_gives_no_chart() {
        assert!(charts(&[]).is_empty());
        let mut m = hash("Argon2id", "libargon2", 16, 1, 1, 30.0);
        m.status = CaseStatus::Failed;
        let mut n = hash("Argon2id", "libargon2", 32, 1, 1, 30.0);
        n.stats = None;
        assert!(charts(&[m, n]).is_empty());
    }
}
