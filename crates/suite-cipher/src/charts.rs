//! The suite's own figures for the HTML report: seed 001's ranking (TEST 7,
//! fastest first) drawn as bars, one chart per message size, with the
//! recommended ciphers marked so the eye finds the fastest safe choice
//! rather than the fastest broken one.
//!
//! Encryption is charted (the seed ranks encryption); decryption and round
//! trips are in the report's generic rankings under these charts. Peers
//! (`openssl speed`) are left out here: they are compared in the report's
//! peer-ratio section.

use crate::catalog;
use cryptobench_core::model::is_peer;
use cryptobench_core::units::format_size;
use cryptobench_core::{CaseStatus, Chart, Measurement, Series};

/// MB/s (10^6 bytes per second) of a measured case with statistics.
fn mb_per_s(m: &Measurement) -> Option<f64> {
    if m.status != CaseStatus::Measured || m.input_bytes == 0 {
        return None;
    }
    let s = m.stats.as_ref()?;
    let bytes_per_s = s.bytes_per_s.unwrap_or(s.ops_per_s * m.input_bytes as f64);
    let v = bytes_per_s / 1e6;
    (v.is_finite() && v > 0.0).then_some(v)
}

/// The operation the seed ranks, else the first one measured.
fn charted_operation(ms: &[&Measurement]) -> Option<String> {
    ["encrypt", "decrypt", "roundtrip"]
        .iter()
        .find(|op| ms.iter().any(|m| m.operation == **op))
        .map(|op| op.to_string())
        .or_else(|| ms.first().map(|m| m.operation.clone()))
}

/// Labels that keep a cipher from being recommended (context labels such
/// as the key size or the missing authentication every cipher here shares
/// tell nothing apart).
fn cautions(labels: &[String]) -> Vec<&str> {
    labels
        .iter()
        .filter(|l| !catalog::recommended(std::slice::from_ref(*l)))
        .map(String::as_str)
        .collect()
}

/// Category text: the cipher, with its warnings in brackets.
fn category(m: &Measurement) -> String {
    let c = cautions(&m.labels);
    if c.is_empty() {
        m.primitive.clone()
    } else {
        format!("{} [{}]", m.primitive, c.join("; "))
    }
}

/// Series text: the backend, with the setup when it is not the default.
fn series_name(m: &Measurement) -> String {
    match m.param("setup") {
        Some(setup) if setup != crate::plan::SETUP_KEY_ONCE => {
            format!("{}, {setup}", m.backend)
        }
        _ => m.backend.clone(),
    }
}

/// One ranking chart per message size of the charted operation.
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let measured: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == "cipher" && !is_peer(&m.backend) && mb_per_s(m).is_some())
        .collect();
    let Some(op) = charted_operation(&measured) else {
        return Vec::new();
    };
    let mut sizes: Vec<u64> = measured
        .iter()
        .filter(|m| m.operation == op)
        .map(|m| m.input_bytes)
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .filter_map(|size| {
            let group: Vec<&Measurement> = measured
                .iter()
                .copied()
                .filter(|m| m.operation == op && m.input_bytes == size)
                .collect();
            ranking(&op, size, &group)
        })
        .collect()
}

/// Bars of MB/s: one category per cipher (fastest first), one series per
/// backend (and setup), recommended ciphers marked.
fn ranking(op: &str, size: u64, group: &[&Measurement]) -> Option<Chart> {
    // Categories in order of their best value.
    let mut best: Vec<(String, f64, bool)> = Vec::new();
    for m in group {
        let (Some(v), c) = (mb_per_s(m), category(m)) else {
            continue;
        };
        let recommended = catalog::recommended(&m.labels);
        match best.iter_mut().find(|(name, _, _)| *name == c) {
            Some(entry) => entry.1 = entry.1.max(v),
            None => best.push((c, v, recommended)),
        }
    }
    if best.is_empty() {
        return None;
    }
    best.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut chart = Chart::bars(
        format!(
            "Cipher ranking: {op}, {} per message (fastest first)",
            format_size(size)
        ),
        "MB/s (10^6 bytes per second; longer is faster)",
    );
    chart.categories = best.iter().map(|(c, _, _)| c.clone()).collect();
    chart.marked = best
        .iter()
        .enumerate()
        .filter(|(_, (_, _, rec))| *rec)
        .map(|(i, _)| i)
        .collect();
    let mut names: Vec<String> = Vec::new();
    for m in group {
        let n = series_name(m);
        if !names.contains(&n) {
            names.push(n);
        }
    }
    for name in names {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for m in group.iter().filter(|m| series_name(m) == name) {
            let (Some(v), Some(i)) = (
                mb_per_s(m),
                chart.categories.iter().position(|c| *c == category(m)),
            ) else {
                continue;
            };
            match points.iter_mut().find(|p| p.0 == i as f64) {
                Some(p) => p.1 = p.1.max(v),
                None => points.push((i as f64, v)),
            }
        }
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.series.push(Series { name, points });
    }
    chart.log_y_when_wide(best.iter().map(|(_, v, _)| *v));
    chart.notes.push(format!(
        "Median throughput of one {op} of a {} message, MB/s = 10^6 bytes per second; key schedule once per case unless the series says otherwise.",
        format_size(size),
    ));
    chart.notes.push(
        "Shaded (bold) rows are recommended: none of ECB, 64-bit block (Sweet32), broken, legacy provider; [bracketed] labels say why a cipher is not. No cipher here authenticates: use an AEAD (see the aead suite).".into(),
    );
    if op == "encrypt" {
        chart.notes.push(
            "Decryption and round trips are ranked in the throughput charts further down; openssl speed is compared under peer ratios.".into(),
        );
    }
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, ChartKind, Summary};

    fn measured(name: &str, backend: &str, op: &str, size: u64, mbps: f64) -> Measurement {
        let desc_labels: Vec<String> = match name {
            "DES-EDE3-CBC" => vec![catalog::LABEL_SWEET32.into(), catalog::LABEL_NO_AUTH.into()],
            "AES-128-ECB" => vec![catalog::LABEL_ECB.into(), catalog::LABEL_NO_AUTH.into()],
            _ => vec![catalog::LABEL_NO_AUTH.into()],
        };
        let desc_labels = [desc_labels, vec!["key 128-bit".into()]].concat();
        let mut m = CaseSpec::new("cipher", name, backend, "v", op)
            .size(size)
            .param("setup", crate::plan::SETUP_KEY_ONCE)
            .labels(desc_labels)
            .measurement(CaseStatus::Measured, None);
        let bytes_per_s = mbps * 1e6;
        m.stats = Some(Summary {
            median: size as f64 * 1e9 / bytes_per_s,
            ops_per_s: bytes_per_s / size as f64,
            bytes_per_s: Some(bytes_per_s),
            ..Summary::default()
        });
        m
    }

    #[test]
    fn one_ranking_per_size_fastest_first_with_recommended_marked() {
        let mut failed = measured("ChaCha20", "openssl", "encrypt", 1024, 9000.0);
        failed.status = CaseStatus::Failed;
        let ms = vec![
            measured("AES-128-ECB", "openssl", "encrypt", 1024, 3000.0),
            measured("AES-128-CTR", "openssl", "encrypt", 1024, 2000.0),
            measured("AES-128-CTR", "rustcrypto", "encrypt", 1024, 2500.0),
            measured("DES-EDE3-CBC", "openssl", "encrypt", 1024, 10.0),
            measured("AES-128-CTR", "openssl", "encrypt", 16, 100.0),
            measured(
                "AES-128-CTR",
                cryptobench_core::model::OPENSSL_SPEED,
                "encrypt",
                16,
                120.0,
            ),
            measured("AES-128-CTR", "openssl", "roundtrip", 1024, 900.0),
            failed,
        ];
        let charts = charts(&ms);
        assert_eq!(charts.len(), 2, "sizes 16 B and 1 KiB of encrypt");
        assert!(charts[0].title.contains("16 B"), "{}", charts[0].title);
        assert_eq!(charts[0].series.len(), 1, "peer left out");
        let c = &charts[1];
        assert_eq!(c.kind, ChartKind::Bar);
        assert_eq!(
            c.categories,
            [
                "AES-128-ECB [ECB]",
                "AES-128-CTR",
                "DES-EDE3-CBC [64-bit block (Sweet32)]"
            ]
        );
        assert_eq!(c.marked, vec![1]);
        let names: Vec<&str> = c.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["openssl", "rustcrypto"]);
        assert_eq!(c.series[1].points, vec![(1.0, 2500.0)]);
        assert!(!c.categories.iter().any(|x| x.contains("ChaCha20")));
        assert!(c.log_y, "3000 / 10 spans more than 200x");
        assert!(c.notes.iter().any(|n| n.contains("MB/s")));
    }

    #[test]
    fn per_message_setup_is_its_own_series_and_linear_when_close() {
        let mut per = measured("AES-128-CTR", "openssl", "encrypt", 16, 50.0);
        per.params
            .insert("setup".into(), crate::plan::SETUP_PER_MESSAGE.into());
        let ms = vec![
            measured("AES-128-CTR", "openssl", "encrypt", 16, 100.0),
            per,
        ];
        let c = &charts(&ms)[0];
        assert_eq!(c.categories, ["AES-128-CTR"]);
        assert_eq!(c.series.len(), 2);
        assert_eq!(c.series[1].name, "openssl, per-message");
        assert!(!c.log_y);
    }

    #[test]
    fn empty_or_failed_input_gives_no_chart() {
        assert!(charts(&[]).is_empty());
        let mut m = measured("AES-128-CTR", "openssl", "encrypt", 16, 100.0);
        m.status = CaseStatus::Failed;
        let mut n = measured("AES-256-CBC", "openssl", "encrypt", 16, 100.0);
        n.stats = None;
        assert!(charts(&[m, n]).is_empty());
    }
}
