//! The suite's own figures for the HTML report: seed 003's two charts,
//! data rate in GB/s on a 20 MB message and operations per second on a
//! 1 KB message, one bar per algorithm x backend. The first shows bulk
//! speed, the second the fixed cost per message that dominates small
//! packets; the seed's point is that the ranking differs between them.
//!
//! When the run lacks 20 MB (a quick run), the largest measured size
//! stands in; when it lacks 1 KB, the nearest measured size does, and the
//! title says which size is shown. Peers are left out (the report compares
//! them under peer ratios).

use crate::summary::{ops, rate};
use crate::{SEED003_OPS_BYTES, SEED003_RATE_BYTES, SUITE};
use cryptobench_core::units::format_size;
use cryptobench_core::{CaseStatus, Chart, Measurement, Series};

/// The algorithm the seed compares everything with.
const REFERENCE: &str = "AES-256-GCM";

/// Operations charted, in legend order.
const OPERATIONS: [&str; 2] = ["encrypt", "decrypt"];

fn usable(m: &Measurement) -> bool {
    m.suite == SUITE
        && m.status == CaseStatus::Measured
        && m.stats.is_some()
        && !m.backend.starts_with("peer:")
        && OPERATIONS.contains(&m.operation.as_str())
}

/// Seed 003's two charts, each only when something was measured for it.
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let usable: Vec<&Measurement> = ms.iter().filter(|m| usable(m)).collect();
    let mut sizes: Vec<u64> = usable.iter().map(|m| m.input_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut out = Vec::new();
    // The largest size stands in for 20 MB.
    let rate_size = if sizes.contains(&SEED003_RATE_BYTES) {
        Some(SEED003_RATE_BYTES)
    } else {
        sizes.last().copied()
    };
    // Nearest to 1 KB on a log scale (ties: the smaller size).
    let distance = |s: u64| ((s.max(1) as f64) / SEED003_OPS_BYTES as f64).ln().abs();
    let ops_size = sizes
        .iter()
        .copied()
        .min_by(|a, b| distance(*a).total_cmp(&distance(*b)));
    for (chart, size) in [(&RATE_CHART, rate_size), (&OPS_CHART, ops_size)] {
        if let Some(size) = size {
            out.extend(chart.draw(&usable, size));
        }
    }
    out
}

/// What one of seed 003's charts shows.
struct SeedChart {
    /// The size the seed measured it at.
    seed_size: u64,
    /// The title, before "at SIZE (seed 003)".
    title: &'static str,
    y_label: &'static str,
    value: fn(&Measurement) -> Option<f64>,
    /// The first note, from the size shown.
    described: fn(&str) -> String,
    /// The note when another size stands in for the seed's.
    stand_in: &'static str,
}

const RATE_CHART: SeedChart = SeedChart {
    seed_size: SEED003_RATE_BYTES,
    title: "AEAD data rate",
    y_label: "GB/s (10^9 bytes per second; longer is faster)",
    value: |m| rate(m).map(|r| r / 1e9),
    described: |size| {
        format!("Median data rate of one message of {size}, GB/s = 10^9 bytes per second, per algorithm x backend.")
    },
    stand_in: "20 MB was not measured in this run: the largest measured size is shown.",
};

const OPS_CHART: SeedChart = SeedChart {
    seed_size: SEED003_OPS_BYTES,
    title: "AEAD operations per second",
    y_label: "operations per second (longer is faster)",
    value: ops,
    described: |size| {
        format!("Median messages per second on a {size} message, per algorithm x backend: the fixed cost per message (key and nonce setup, tag) dominates here.")
    },
    stand_in: "1 KB was not measured in this run: the nearest measured size is shown.",
};

impl SeedChart {
    fn draw(&self, usable: &[&Measurement], size: u64) -> Option<Chart> {
        let shown = format_size(size);
        let title = format!("{} at {shown} (seed 003)", self.title);
        let mut chart = bars(usable, size, title, self.y_label, self.value)?;
        chart.notes.insert(0, (self.described)(&shown));
        if size != self.seed_size {
            chart.notes.push(self.stand_in.into());
        }
        Some(chart)
    }
}

/// One bar per algorithm x backend at `size` (fastest encryption first),
/// one series per operation measured.
fn bars(
    usable: &[&Measurement],
    size: u64,
    title: String,
    y_label: &str,
    value: impl Fn(&Measurement) -> Option<f64>,
) -> Option<Chart> {
    let at: Vec<(&Measurement, f64)> = usable
        .iter()
        .filter(|m| m.input_bytes == size)
        .filter_map(|m| {
            value(m)
                .filter(|v| v.is_finite() && *v > 0.0)
                .map(|v| (*m, v))
        })
        .collect();
    if at.is_empty() {
        return None;
    }
    let key = |m: &Measurement| format!("{} ({})", m.primitive, m.backend);
    // Rank by encryption where measured, else by the best operation.
    let mut cats: Vec<(String, f64, f64, bool)> = Vec::new();
    for (m, v) in &at {
        let enc = if m.operation == "encrypt" { *v } else { 0.0 };
        match cats.iter_mut().find(|c| c.0 == key(m)) {
            Some(c) => {
                c.1 = c.1.max(enc);
                c.2 = c.2.max(*v);
            }
            None => cats.push((key(m), enc, *v, m.primitive == REFERENCE)),
        }
    }
    cats.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
    let mut chart = Chart::bars(title, y_label);
    chart.categories = cats.iter().map(|c| c.0.clone()).collect();
    chart.marked = cats
        .iter()
        .enumerate()
        .filter(|(_, c)| c.3)
        .map(|(i, _)| i)
        .collect();
    for op in OPERATIONS {
        let mut points: Vec<(f64, f64)> = at
            .iter()
            .filter(|(m, _)| m.operation == op)
            .filter_map(|(m, v)| {
                let k = key(m);
                chart
                    .categories
                    .iter()
                    .position(|c| *c == k)
                    .map(|i| (i as f64, *v))
            })
            .collect();
        if points.is_empty() {
            continue;
        }
        // One bar per category: its best case, the value the ranking used.
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        points.dedup_by(|a, b| a.0 == b.0);
        chart.series.push(Series {
            name: op.to_string(),
            points,
        });
    }
    chart.log_y_when_wide(at.iter().map(|(_, v)| *v));
    if !chart.marked.is_empty() {
        chart.notes.push(format!(
            "Shaded (bold): {REFERENCE}, the seed's reference; bars are sorted by encryption speed."
        ));
    }
    if chart.log_y {
        chart
            .notes
            .push("Logarithmic axis: the values span more than 200x.".into());
    }
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::fake;

    #[test]
    fn seed003_charts_rank_algorithm_backend_pairs() {
        let mut failed = fake("ChaCha20-Poly1305", "openssl", "encrypt", 20_000_000, 9e9);
        failed.status = CaseStatus::Failed;
        let ms = vec![
            fake("AES-256-GCM", "openssl", "encrypt", 20_000_000, 5e9),
            fake("AES-256-GCM", "openssl", "decrypt", 20_000_000, 6e9),
            fake("AEGIS-128L", "libaegis", "encrypt", 20_000_000, 15e9),
            fake(
                "AES-256-GCM",
                cryptobench_core::model::OPENSSL_SPEED,
                "encrypt",
                20_000_000,
                5e9,
            ),
            fake("AES-256-GCM", "openssl", "encrypt", 1_000, 1e9),
            fake("AEGIS-128L", "libaegis", "encrypt", 1_000, 2e9),
            fake("AEGIS-128L", "libaegis", "encrypt", 16_384, 2e9),
            failed,
        ];
        let charts = charts(&ms);
        assert_eq!(charts.len(), 2);
        let rate = &charts[0];
        assert!(rate.title.contains("data rate"), "{}", rate.title);
        assert_eq!(
            rate.categories,
            ["AEGIS-128L (libaegis)", "AES-256-GCM (openssl)"]
        );
        assert_eq!(rate.marked, vec![1]);
        assert_eq!(rate.series.len(), 2);
        assert_eq!(rate.series[0].name, "encrypt");
        assert_eq!(rate.series[0].points, vec![(0.0, 15.0), (1.0, 5.0)]);
        assert_eq!(rate.series[1].points, vec![(1.0, 6.0)]);
        assert!(!rate.log_y);
        let per_op = &charts[1];
        assert!(
            per_op.title.contains("1 KB") || per_op.title.contains("1000"),
            "{}",
            per_op.title
        );
        assert_eq!(per_op.series.len(), 1);
        assert_eq!(per_op.series[0].points, vec![(0.0, 2e6), (1.0, 1e6)]);
        assert!(per_op.notes.iter().any(|n| n.contains("per second")));
    }

    #[test]
    fn stand_in_sizes_when_the_seed_sizes_are_missing() {
        let ms = vec![
            fake("AES-128-GCM", "openssl", "encrypt", 16_384, 4e9),
            fake("AES-128-GCM", "openssl", "encrypt", 64, 4e8),
        ];
        let charts = charts(&ms);
        assert_eq!(charts.len(), 2);
        assert!(charts[0].title.contains(&format_size(16_384)));
        assert!(charts[0].notes.iter().any(|n| n.contains("largest")));
        assert!(
            charts[1].title.contains(&format_size(64)),
            "{}",
            charts[1].title
        );
        assert!(charts[1].notes.iter().any(|n| n.contains("nearest")));
        assert!(charts[0].marked.is_empty());
    }

    #[test]
    fn empty_or_failed_input_gives_no_chart() {
        assert!(charts(&[]).is_empty());
        let mut m = fake("AES-128-GCM", "openssl", "encrypt", 1_000, 4e9);
        m.status = CaseStatus::Failed;
        let mut n = fake("AES-128-GCM", "openssl", "decrypt", 1_000, 4e9);
        n.stats = None;
        assert!(charts(&[m, n]).is_empty());
    }
}
