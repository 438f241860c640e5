//! The suite's own tables: the seed's per-family Tables 3-8, its family
//! averages (Fig. 1), its per-band winners (Table 11) and the NIST table
//! (Table 1), plus what the seed did not have: time per bit of security,
//! other backends, ECDH/ECDSA/EdDSA, and the `openssl speed` fidelity ratio.
//!
//! Everything is computed from finished measurements and their parameters
//! (family, key bits, security bits), so a stored run renders the same way
//! as a fresh one.

use crate::curves::{Band, Family, BANDS};
use cryptobench_core::{CaseStatus, Measurement, Table};
use std::collections::BTreeMap;

/// One curve's key generation as the seed tables show it.
#[derive(Debug, Clone, PartialEq)]
pub struct KeygenRow {
    /// Curve (OpenSSL name).
    pub curve: String,
    /// Seed family.
    pub family: Family,
    /// Key length in bits (field degree).
    pub key_bits: u32,
    /// Security level in bits.
    pub security_bits: u32,
    /// Time per key, ns: the median of samples that each average N keys
    /// (the seed averaged one batch of 100; the median resists load spikes).
    pub time_ns: f64,
    /// Mean over the samples, ns.
    pub mean_ns: f64,
    /// 95% CI of the median, ns.
    pub ci95: [f64; 2],
    /// Backend and API that produced the row.
    pub path: String,
    /// Labels of the case.
    pub labels: Vec<String>,
}

impl KeygenRow {
    /// The seed's ratio in percent: ms per key / key bits x 100.
    pub fn seed_ratio_pct(&self) -> f64 {
        self.time_ns / 1e6 / f64::from(self.key_bits.max(1)) * 100.0
    }
    /// Microseconds per bit of security (the cost the seed's ratio is not).
    pub fn us_per_security_bit(&self) -> f64 {
        self.time_ns / 1e3 / f64::from(self.security_bits.max(1))
    }
    /// Keys per second at the median.
    pub fn keys_per_s(&self) -> f64 {
        if self.time_ns > 0.0 {
            1e9 / self.time_ns
        } else {
            0.0
        }
    }
}

fn param_u32(m: &Measurement, name: &str) -> u32 {
    m.param(name).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// The fastest correct OpenSSL key-generation path per curve (the seed
/// measured OpenSSL through PHP), in catalogue order of key length.
pub fn openssl_keygen_rows(measurements: &[Measurement]) -> Vec<KeygenRow> {
    keygen_rows(measurements, |m| {
        m.backend == cryptobench_suite_common::openssl_lib::NAME
    })
}

/// Fastest key generation per curve among measurements `keep` admits.
pub fn keygen_rows(
    measurements: &[Measurement],
    keep: impl Fn(&Measurement) -> bool,
) -> Vec<KeygenRow> {
    let mut best: BTreeMap<String, KeygenRow> = BTreeMap::new();
    for m in measurements {
        if m.suite != crate::SUITE
            || m.operation != "keygen"
            || m.status != CaseStatus::Measured
            || !keep(m)
        {
            continue;
        }
        let Some(stats) = &m.stats else { continue };
        let family = m
            .param("family")
            .map(family_of_display)
            .unwrap_or_else(|| Family::of(&m.primitive));
        let row = KeygenRow {
            curve: m.primitive.clone(),
            family,
            key_bits: param_u32(m, "key_bits"),
            security_bits: param_u32(m, "security_bits"),
            time_ns: stats.median,
            mean_ns: stats.mean,
            ci95: stats.ci95,
            path: match m.param("api") {
                Some(api) => format!("{} {api}", m.backend),
                None => m.backend.clone(),
            },
            labels: m.labels.clone(),
        };
        let better = best
            .get(&m.primitive)
            .is_none_or(|old| row.time_ns < old.time_ns);
        if better {
            best.insert(m.primitive.clone(), row);
        }
    }
    let mut rows: Vec<KeygenRow> = best.into_values().collect();
    rows.sort_by(|a, b| (a.family, a.key_bits, &a.curve).cmp(&(b.family, b.key_bits, &b.curve)));
    rows
}

fn family_of_display(name: &str) -> Family {
    Family::ALL
        .into_iter()
        .find(|f| f.name() == name)
        .unwrap_or(Family::Other)
}

/// Average of the seed's ratio over a family's curves (the seed's Fig. 1).
pub fn family_averages(rows: &[KeygenRow]) -> Vec<(Family, usize, f64, f64)> {
    Family::ALL
        .into_iter()
        .filter_map(|f| {
            let of: Vec<&KeygenRow> = rows.iter().filter(|r| r.family == f).collect();
            if of.is_empty() {
                return None;
            }
            let n = of.len() as f64;
            let ratio = of.iter().map(|r| r.seed_ratio_pct()).sum::<f64>() / n;
            let per_sec = of.iter().map(|r| r.us_per_security_bit()).sum::<f64>() / n;
            Some((f, of.len(), ratio, per_sec))
        })
        .collect()
}

/// Per band of Table 11: the curve with the lowest seed ratio and the one
/// with the lowest time per security bit.
pub fn band_winners(
    rows: &[KeygenRow],
) -> Vec<(&'static Band, Option<KeygenRow>, Option<KeygenRow>)> {
    BANDS
        .iter()
        .map(|band| {
            let inside: Vec<&KeygenRow> = rows
                .iter()
                .filter(|r| (band.min_bits..=band.max_bits).contains(&r.key_bits))
                .collect();
            let by = |f: fn(&KeygenRow) -> f64| {
                inside
                    .iter()
                    .min_by(|a, b| f(a).total_cmp(&f(b)))
                    .map(|r| (*r).clone())
            };
            (
                band,
                by(KeygenRow::seed_ratio_pct),
                by(KeygenRow::us_per_security_bit),
            )
        })
        .collect()
}

fn ms(ns: f64) -> String {
    format!("{:.4}", ns / 1e6)
}

fn us(ns: f64) -> String {
    format!("{:.2}", ns / 1e3)
}

/// Formats the seed ratio with enough digits for microsecond-scale times.
pub fn pct(v: f64) -> String {
    if v >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

/// One seed-shaped table (Tables 3-8) per family.
pub fn family_tables(rows: &[KeygenRow]) -> Vec<Table> {
    let mut out = Vec::new();
    for (family, count, avg, avg_sec) in family_averages(rows) {
        let mut t = Table::new(
            format!(
                "ecc keygen: {} curves (seed Tables 3-8 shape)",
                family.name()
            ),
            [
                "Curve",
                "Key length, bits (A)",
                "Security bits",
                "Time per key, ms (B)",
                "Ratio % (B/A)",
                "us per security bit",
                "Keys/s",
                "Mean, ms",
                "CI95 of median, ms",
                "Path",
                "Labels",
            ],
        )
        .right(&[1, 2, 3, 4, 5, 6, 7, 8]);
        for r in rows.iter().filter(|r| r.family == family) {
            t.row([
                r.curve.clone(),
                r.key_bits.to_string(),
                r.security_bits.to_string(),
                ms(r.time_ns),
                pct(r.seed_ratio_pct()),
                format!("{:.3}", r.us_per_security_bit()),
                format!("{:.0}", r.keys_per_s()),
                ms(r.mean_ns),
                format!("{}-{}", ms(r.ci95[0]), ms(r.ci95[1])),
                r.path.clone(),
                r.labels.join("; "),
            ]);
        }
        t.note("Time per key: median of samples that each time N keys (the seed timed one batch of 100).");
        t.note(format!(
            "Average ratio in % over {count} curves: {} (us per security bit: {avg_sec:.3})",
            pct(avg)
        ));
        out.push(t);
    }
    out
}

/// Family averages ranked, as the seed's Fig. 1.
pub fn family_average_table(rows: &[KeygenRow]) -> Table {
    let mut avgs = family_averages(rows);
    avgs.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut t = Table::new(
        "ecc keygen: average ratio per family (seed Fig. 1), best first",
        [
            "Rank",
            "Family",
            "Curves",
            "Average ratio %",
            "Average us per security bit",
        ],
    )
    .right(&[0, 2, 3, 4]);
    for (i, (f, n, ratio, sec)) in avgs.iter().enumerate() {
        t.row([
            (i + 1).to_string(),
            f.name().to_string(),
            n.to_string(),
            pct(*ratio),
            format!("{sec:.3}"),
        ]);
    }
    t.note("Ratio = average ms per key / key length in bits x 100 (the seed's definition).");
    t
}

/// Winners per key-length band (seed Table 11) with the NIST levels of
/// seed Table 1.
pub fn band_table(rows: &[KeygenRow]) -> Table {
    let mut t = Table::new(
        "ecc keygen: most efficient curve per key-length band (seed Tables 1 and 11)",
        [
            "Key length, bits",
            "Security (NIST)",
            "RSA/DSA equivalent",
            "Winner by seed ratio",
            "Ratio %",
            "Winner by us per security bit",
            "us / sec. bit",
        ],
    )
    .right(&[1, 2, 4, 6]);
    for (band, by_ratio, by_sec) in band_winners(rows) {
        t.row([
            band.label.to_string(),
            band.security.to_string(),
            band.rsa_bits.to_string(),
            by_ratio.as_ref().map_or("-".into(), |r| r.curve.clone()),
            by_ratio
                .as_ref()
                .map_or("-".into(), |r| pct(r.seed_ratio_pct())),
            by_sec.as_ref().map_or("-".into(), |r| r.curve.clone()),
            by_sec
                .as_ref()
                .map_or("-".into(), |r| format!("{:.3}", r.us_per_security_bit())),
        ]);
    }
    t.note("Bands and security levels: seed Table 1 (NIST SP 800-57 Part 1); the seed writes \"bytes\" for what are bits.");
    t
}

/// The NIST key-length table of the seed (Table 1).
pub fn nist_table() -> Table {
    let mut t = Table::new(
        "NIST recommendations for public-key length (seed Table 1, in bits)",
        ["Security level", "DSA", "RSA", "ECC", "ECC to RSA/DSA"],
    )
    .right(&[0, 1, 2]);
    for b in &BANDS {
        t.row([
            b.security.to_string(),
            b.rsa_bits.to_string(),
            b.rsa_bits.to_string(),
            b.label.to_string(),
            b.ratio.to_string(),
        ]);
    }
    t
}

/// Every backend and API per curve and operation, with the ratio to
/// OpenSSL's fastest path for that curve and operation.
pub fn backend_table(measurements: &[Measurement]) -> Table {
    let mut t = Table::new(
        "ecc: backends and operations (ops/s at the median)",
        [
            "Curve",
            "Operation",
            "Backend",
            "API",
            "Ops/s",
            "Median, us",
            "vs fastest OpenSSL",
        ],
    )
    .right(&[4, 5, 6]);
    let mut fastest: BTreeMap<(String, String), f64> = BTreeMap::new();
    for m in measured(measurements).filter(|m| m.backend == "openssl") {
        let e = fastest
            .entry((m.primitive.clone(), m.operation.clone()))
            .or_insert(0.0);
        *e = e.max(ops(m));
    }
    let multi: Vec<&Measurement> = measured(measurements)
        .filter(|m| {
            m.operation != "keygen"
                || measured(measurements)
                    .filter(|o| o.primitive == m.primitive && o.operation == "keygen")
                    .count()
                    > 1
        })
        .collect();
    for m in multi {
        let base = fastest.get(&(m.primitive.clone(), m.operation.clone()));
        t.row([
            m.primitive.clone(),
            m.operation.clone(),
            m.backend.clone(),
            m.param("api").unwrap_or("-").to_string(),
            format!("{:.0}", ops(m)),
            us(m.median_ns().unwrap_or(0.0)),
            base.map_or("-".into(), |b| format!("{:.2}x", ops(m) / b)),
        ]);
    }
    t.note("Only curves with more than one key-generation path, and every ECDH/sign/verify case.");
    t
}

fn measured(ms: &[Measurement]) -> impl Iterator<Item = &Measurement> {
    ms.iter().filter(|m| {
        m.suite == crate::SUITE && m.status == CaseStatus::Measured && m.stats.is_some()
    })
}

fn ops(m: &Measurement) -> f64 {
    m.stats.as_ref().map_or(0.0, |s| s.ops_per_s)
}

/// P-256 key generation against `openssl speed ecdsap256` signatures/s
/// (the fidelity target: a key generation does less work than a
/// signature, so the ratio should be at least 1).
pub fn fidelity(measurements: &[Measurement]) -> Option<(f64, f64, String)> {
    let peer = measurements.iter().find(|m| {
        m.backend.starts_with("peer:") && m.primitive == "prime256v1" && m.operation == "sign"
    })?;
    let ours = measured(measurements)
        .filter(|m| {
            m.backend == "openssl" && m.primitive == "prime256v1" && m.operation == "keygen"
        })
        .max_by(|a, b| ops(a).total_cmp(&ops(b)))?;
    Some((
        ops(ours),
        ops(peer),
        ours.param("api").unwrap_or("-").to_string(),
    ))
}

/// Curves OpenSSL lists that could not be measured, with the reason.
pub fn unsupported_table(measurements: &[Measurement]) -> Option<Table> {
    let mut t = Table::new(
        "ecc: curves not measured",
        ["Curve", "Backend", "Operation", "Status", "Reason"],
    );
    for m in measurements.iter().filter(|m| {
        m.suite == crate::SUITE
            && m.status != CaseStatus::Measured
            && !m.backend.starts_with("peer:")
    }) {
        t.row([
            m.primitive.clone(),
            m.backend.clone(),
            m.operation.clone(),
            m.status.as_str().to_string(),
            m.reason.clone().unwrap_or_default(),
        ]);
    }
    (!t.rows.is_empty()).then_some(t)
}

/// All suite tables.
pub fn tables(measurements: &[Measurement]) -> Vec<Table> {
    let rows = openssl_keygen_rows(measurements);
    let mut out = Vec::new();
    if !rows.is_empty() {
        out.extend(family_tables(&rows));
        out.push(family_average_table(&rows));
        out.push(band_table(&rows));
        out.push(nist_table());
    }
    let backends = backend_table(measurements);
    if !backends.rows.is_empty() {
        out.push(backends);
    }
    if let Some((ours, peer, api)) = fidelity(measurements) {
        let mut t = Table::new(
            "ecc fidelity: P-256 key generation vs openssl speed ecdsap256",
            ["Measure", "Ops/s"],
        )
        .right(&[1]);
        t.row([
            format!("prime256v1 keygen, openssl {api}"),
            format!("{ours:.0}"),
        ]);
        t.row([
            "openssl speed ecdsap256 sign".to_string(),
            format!("{peer:.0}"),
        ]);
        // Decided on the interval: a noisy moment is "inconclusive", not
        // a miss.
        let peer_case = measurements.iter().find(|m| {
            m.backend.starts_with("peer:") && m.primitive == "prime256v1" && m.operation == "sign"
        });
        let ours_case = measured(measurements)
            .filter(|m| {
                m.backend == "openssl" && m.primitive == "prime256v1" && m.operation == "keygen"
            })
            .max_by(|a, b| ops(a).total_cmp(&ops(b)));
        let est = match (ours_case, peer_case) {
            (Some(o), Some(p)) => cryptobench_core::verdict::speedup(o, p),
            _ => None,
        };
        let verdict = est.map_or(cryptobench_core::Verdict::NotMeasured, |e| {
            e.at_least(1.0, 0.0)
        });
        t.note(format!(
            "keygen / sign = {}: {verdict} (target >= 1.0: a key generation is one fixed-base multiplication, a signature that plus an inversion)",
            est.map_or_else(
                || format!("{:.2}x", ours / peer.max(1e-9)),
                |e| cryptobench_core::paper::show_ratio(&e)
            )
        ));
        out.push(t);
    }
    if let Some(t) = unsupported_table(measurements) {
        out.push(t);
    }
    out
}

/// Plain-text rendering (used by `--list` and the example before the
/// report crate draws tables).
pub fn render_text(t: &Table) -> String {
    let cols = t.headers.len();
    let mut width: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
    for r in &t.rows {
        for (i, c) in r.iter().enumerate().take(cols) {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| -> String {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .take(cols)
            .map(|(i, c)| {
                let pad = width[i].saturating_sub(c.chars().count());
                if t.align.get(i) == Some(&cryptobench_core::Align::Right) {
                    format!("{}{c}", " ".repeat(pad))
                } else {
                    format!("{c}{}", " ".repeat(pad))
                }
            })
            .collect();
        parts.join("  ").trim_end().to_string()
    };
    let mut s = format!("{}\n{}\n", t.title, line(&t.headers));
    for r in &t.rows {
        s.push_str(&line(r));
        s.push('\n');
    }
    for n in &t.notes {
        s.push_str(&format!("  {n}\n"));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod fidelity_tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn case(backend: &str, op: &str, us: f64, spread: f64) -> Measurement {
        let mut m = CaseSpec::new(crate::SUITE, "prime256v1", backend, "v", op)
            .measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: us * 1e3,
            ci95: [us * 1e3 * (1.0 - spread), us * 1e3 * (1.0 + spread)],
            ops_per_s: 1e6 / us,
            ..Summary::default()
        });
        m
    }

    fn note(keygen_us: f64, spread: f64) -> String {
        let ms = vec![
            case(cryptobench_core::model::OPENSSL_SPEED, "sign", 20.0, 0.02),
            case("openssl", "keygen", keygen_us, spread),
        ];
        let t = tables(&ms)
            .into_iter()
            .find(|t| t.title.starts_with("ecc fidelity"))
            .expect("a fidelity table");
        t.notes.join("\n")
    }

    #[test]
    fn keygen_over_sign_is_decided_on_the_interval() {
        assert!(
            note(10.0, 0.02).contains("2.00x (95% "),
            "{}",
            note(10.0, 0.02)
        );
        assert!(note(10.0, 0.02).contains(": holds here"));
        assert!(note(40.0, 0.02).contains(": differs here"));
        assert!(note(20.0, 0.1).contains(": inconclusive"));
    }
}
