//! The suite's own figures for the HTML report: seed 000's Fig. 1 (the
//! average of its ratio, ms per key / key bits x 100, per curve family) and
//! per-curve bars of the time to generate one key, one chart per key-length
//! band of the seed's Table 1, fastest first, recommended curves marked.
//!
//! Fig. 1 uses OpenSSL (what the seed measured through PHP) when OpenSSL
//! was measured, else every library; the per-curve charts show each
//! library as its own series, each at its fastest API.

use crate::curves::{self, Band, BANDS};
use crate::summary::{family_averages, keygen_rows, KeygenRow};
use cryptobench_core::model::is_peer;
use cryptobench_core::{Chart, Measurement, Series};

/// Label every non-recommended curve carries (see `Curve::labels`).
const NOT_RECOMMENDED: &str = "not for new designs";

/// Fig. 1 and the per-band curve charts, each only when it has data.
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let mut out = Vec::new();
    let openssl = cryptobench_suite_common::openssl_lib::NAME;
    let mut fig1_rows = keygen_rows(ms, |m| m.backend == openssl);
    let mut fig1_source = format!("{openssl} (the seed's library)");
    if fig1_rows.is_empty() {
        fig1_rows = keygen_rows(ms, |m| !is_peer(&m.backend));
        fig1_source = "the fastest library per curve".into();
    }
    out.extend(family_chart(&fig1_rows, &fig1_source));
    let mut backends: Vec<String> = ms
        .iter()
        .filter(|m| m.suite == crate::SUITE && m.operation == "keygen" && !is_peer(&m.backend))
        .map(|m| m.backend.clone())
        .collect();
    backends.sort();
    backends.dedup();
    let per_backend: Vec<(String, Vec<KeygenRow>)> = backends
        .into_iter()
        .map(|b| {
            let rows = keygen_rows(ms, |m| m.backend == b);
            (b, rows)
        })
        .filter(|(_, rows)| !rows.is_empty())
        .collect();
    let below = Band {
        label: "below 160",
        min_bits: 0,
        max_bits: BANDS[0].min_bits - 1,
        security: 0,
        rsa_bits: 0,
        ratio: "-",
    };
    for band in std::iter::once(&below).chain(BANDS.iter()) {
        out.extend(band_chart(band, &per_backend));
    }
    out
}

/// Seed 000 Fig. 1: one bar per family, the mean of the seed's ratio.
fn family_chart(rows: &[KeygenRow], source: &str) -> Option<Chart> {
    let averages = family_averages(rows);
    if averages.is_empty() {
        return None;
    }
    let mut chart = Chart::bars(
        "ECC key generation: average ratio per curve family (seed 000 Fig. 1)",
        "ratio % = ms per key / key bits x 100 (shorter is faster)",
    );
    chart.categories = averages
        .iter()
        .map(|(f, n, _, _)| format!("{} ({n} curve{})", f.name(), if *n == 1 { "" } else { "s" }))
        .collect();
    chart.series.push(Series {
        name: "average ratio %".into(),
        points: averages
            .iter()
            .enumerate()
            .map(|(i, (_, _, ratio, _))| (i as f64, *ratio))
            .collect(),
    });
    chart.notes.push(format!(
        "Seed 000's measure: median time to generate one key (ms) divided by the key length in bits, x 100, averaged over the family's measured curves; from {source}."
    ));
    chart.notes.push(
        "The ratio favours long keys; time per bit of security is in the family tables below."
            .into(),
    );
    Some(chart)
}

/// Whether a curve is still chosen for new designs (`Curve::recommended`),
/// from the catalogue, else from the labels the case was planned with.
fn recommended(row: &KeygenRow) -> bool {
    match curves::catalogue().iter().find(|c| c.name == row.curve) {
        Some(c) => c.recommended(),
        None => !row.labels.iter().any(|l| l == NOT_RECOMMENDED),
    }
}

fn category(row: &KeygenRow) -> String {
    match curves::nist_name(&row.curve) {
        Some(n) => format!("{} ({n}), {} bits", row.curve, row.key_bits),
        None => format!("{}, {} bits", row.curve, row.key_bits),
    }
}

/// Time per key of every curve of one band: fastest first, a series per
/// library, recommended curves marked.
fn band_chart(band: &Band, per_backend: &[(String, Vec<KeygenRow>)]) -> Option<Chart> {
    let inside = |r: &&KeygenRow| (band.min_bits..=band.max_bits).contains(&r.key_bits);
    // (category, fastest us, recommended) per curve.
    let mut cats: Vec<(String, f64, bool)> = Vec::new();
    for (_, rows) in per_backend {
        for r in rows.iter().filter(inside) {
            let us = r.time_ns / 1e3;
            if !(us.is_finite() && us > 0.0) {
                continue;
            }
            let c = category(r);
            match cats.iter_mut().find(|x| x.0 == c) {
                Some(x) => x.1 = x.1.min(us),
                None => cats.push((c, us, recommended(r))),
            }
        }
    }
    if cats.is_empty() {
        return None;
    }
    cats.sort_by(|a, b| a.1.total_cmp(&b.1));
    let title = if band.security > 0 {
        format!(
            "ECC key generation per curve: key length {} bits (~{}-bit security, seed Table 1)",
            band.label, band.security
        )
    } else {
        format!(
            "ECC key generation per curve: key length {} bits",
            band.label
        )
    };
    let mut chart = Chart::bars(title, "microseconds per key (shorter is faster)");
    chart.categories = cats.iter().map(|c| c.0.clone()).collect();
    chart.marked = (0..cats.len()).filter(|&i| cats[i].2).collect();
    for (backend, rows) in per_backend {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(inside)
            .filter_map(|r| {
                let c = category(r);
                let i = chart.categories.iter().position(|x| *x == c)?;
                Some((i as f64, r.time_ns / 1e3))
            })
            .filter(|(_, v)| v.is_finite() && *v > 0.0)
            .collect();
        if !points.is_empty() {
            chart.series.push(Series {
                name: backend.clone(),
                points,
            });
        }
    }
    chart.log_y_when_wide(cats.iter().map(|c| c.1));
    chart.notes.push(
        "Median time to generate one key pair, microseconds, each library at its fastest API; sorted by the fastest library."
            .into(),
    );
    chart.notes.push(
        "Shaded (bold): curves recommended for new designs (NIST SP 800-186 prime and Edwards/Montgomery curves, Brainpool r1 of 256 bits and more, secp256k1); the others are for interoperability only."
            .into(),
    );
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, CaseStatus, Summary};

    fn keygen(curve: &str, backend: &str, key_bits: u32, us: f64) -> Measurement {
        let family = curves::Family::of(curve).name();
        let mut m = CaseSpec::new(crate::SUITE, curve, backend, "v", "keygen")
            .param("family", family)
            .param("key_bits", key_bits)
            .param("security_bits", key_bits / 2)
            .measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: us * 1e3,
            mean: us * 1e3,
            ops_per_s: 1e6 / us,
            ..Summary::default()
        });
        m
    }

    #[test]
    fn family_averages_and_band_charts_mark_recommended_curves() {
        let mut failed = keygen("secp384r1", "openssl", 384, 1.0);
        failed.status = CaseStatus::Failed;
        let ms = vec![
            keygen("prime256v1", "openssl", 256, 20.0),
            keygen("prime256v1", "rustcrypto", 256, 40.0),
            keygen("brainpoolP256t1", "openssl", 256, 300.0),
            keygen("brainpoolP256r1", "openssl", 256, 280.0),
            keygen("sect163k1", "openssl", 163, 100.0),
            keygen("secp112r1", "openssl", 112, 10.0),
            failed,
        ];
        let charts = charts(&ms);
        let titles: Vec<&str> = charts.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(charts.len(), 4, "{titles:?}");
        let fig1 = &charts[0];
        assert!(fig1.title.contains("Fig. 1"));
        assert_eq!(fig1.categories[0], "Brainpool (2 curves)");
        assert_eq!(fig1.series.len(), 1);
        // Brainpool: (0.3 ms / 256 + 0.28 ms / 256) * 100 / 2.
        let want = (0.3 / 256.0 + 0.28 / 256.0) * 100.0 / 2.0;
        assert!((fig1.series[0].points[0].1 - want).abs() < 1e-12);
        assert!(charts[1].title.contains("below 160"));
        assert!(charts[2].title.contains("160-223"));
        let b256 = &charts[3];
        assert!(b256.title.contains("256-383"));
        assert_eq!(
            b256.categories,
            [
                "prime256v1 (P-256), 256 bits",
                "brainpoolP256r1, 256 bits",
                "brainpoolP256t1, 256 bits"
            ]
        );
        assert_eq!(b256.marked, vec![0, 1]);
        let names: Vec<&str> = b256.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["openssl", "rustcrypto"]);
        assert_eq!(b256.series[1].points, vec![(0.0, 40.0)]);
        assert!(!b256.log_y);
        assert!(!charts.iter().any(|c| c.title.contains("384-511")));
    }

    #[test]
    fn without_openssl_fig1_uses_the_other_libraries() {
        let ms = vec![keygen("prime256v1", "rustcrypto", 256, 40.0)];
        let charts = charts(&ms);
        assert_eq!(charts.len(), 2);
        assert!(charts[0].notes[0].contains("fastest library"));
    }

    #[test]
    fn empty_or_failed_input_gives_no_chart() {
        assert!(charts(&[]).is_empty());
        let mut m = keygen("prime256v1", "openssl", 256, 20.0);
        m.status = CaseStatus::Failed;
        let mut n = keygen("secp384r1", "openssl", 384, 20.0);
        n.stats = None;
        n.status = CaseStatus::Skipped;
        assert!(charts(&[m, n]).is_empty());
    }
}
