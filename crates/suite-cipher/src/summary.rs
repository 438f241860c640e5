//! The suite's own tables: seed 001's TEST 7 ranking (fastest first) per
//! operation and size, marking the fastest cipher without a security
//! warning (none is recommended: none authenticates), and the
//! fidelity ratios against `openssl speed`.

use crate::catalog;
use cryptobench_core::model::OPENSSL_SPEED as PEER;
use cryptobench_core::units::{format_rate, format_size, TimeUnit};
use cryptobench_core::{CaseStatus, Measurement, Table};
use std::collections::BTreeMap;

/// Ranking tables plus the peer ratio table when peers ran.
pub fn ranking(ms: &[Measurement]) -> Vec<Table> {
    let mut groups: BTreeMap<(String, u64), Vec<&Measurement>> = BTreeMap::new();
    for m in ms
        .iter()
        .filter(|m| m.suite == "cipher" && m.status == CaseStatus::Measured && m.backend != PEER)
    {
        groups
            .entry((m.operation.clone(), m.input_bytes))
            .or_default()
            .push(m);
    }
    let mut tables = Vec::new();
    for ((op, size), mut rows) in groups {
        rows.sort_by(|a, b| a.cmp_median(b));
        // One unit for the whole column, so times compare at a glance.
        let unit = TimeUnit::for_column(rows.iter().filter_map(|m| m.median_ns()));
        let time = format!("time ({})", unit.symbol());
        let mut t = Table::new(
            format!(
                "cipher ranking: {op}, {} (fastest first)",
                format_size(size)
            ),
            [
                "#",
                "cipher",
                "backend",
                time.as_str(),
                "throughput",
                "labels",
            ],
        )
        .right(&[0, 3, 4]);
        let mut marked = false;
        for (i, m) in rows.iter().enumerate() {
            let mut labels = m.labels.join(", ");
            if !marked && catalog::recommended(&m.labels) {
                marked = true;
                labels = format!("FASTEST WITHOUT WARNING; {labels}");
            }
            let stats = m.stats.as_ref();
            t.row([
                (i + 1).to_string(),
                m.primitive.clone(),
                m.backend.clone(),
                stats
                    .map(|s| unit.format_bare(s.median))
                    .unwrap_or_default(),
                stats
                    .and_then(|s| s.bytes_per_s)
                    .map(format_rate)
                    .unwrap_or_default(),
                labels,
            ]);
        }
        t.note("without warning = none of: ECB, 64-bit block (Sweet32), broken, legacy provider; no cipher here authenticates, so none is recommended for encryption: use an AEAD (the aead suite)");
        tables.push(t);
    }
    if let Some(t) = peer_ratios(ms) {
        tables.push(t);
    }
    tables
}

/// The run summary's cipher lines: at the largest size measured, the
/// fastest verified cipher and the fastest without a security label
/// (libraries only: no peer, no PHP), pointing to an AEAD for encryption,
/// and every cipher that FAILED a check.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    let mine = || ms.iter().filter(|m| m.suite == "cipher");
    let mut out = Vec::new();
    let timed: Vec<&Measurement> = mine()
        .filter(|m| {
            m.status == CaseStatus::Measured
                && m.backend != PEER
                && m.backend != "php"
                && m.stats.as_ref().and_then(|s| s.bytes_per_s).is_some()
        })
        .collect();
    let op = if timed.iter().any(|m| m.operation == "encrypt") {
        "encrypt"
    } else {
        "roundtrip"
    };
    let at_op: Vec<&Measurement> = timed.into_iter().filter(|m| m.operation == op).collect();
    let rate = |m: &Measurement| m.stats.as_ref().and_then(|s| s.bytes_per_s).unwrap_or(0.0);
    if let Some(size) = at_op.iter().map(|m| m.input_bytes).max() {
        let best = |only_recommended: bool| {
            at_op
                .iter()
                .filter(|m| m.input_bytes == size)
                .filter(|m| !only_recommended || catalog::recommended(&m.labels))
                .max_by(|a, b| rate(a).total_cmp(&rate(b)))
        };
        if let Some(f) = best(false) {
            let mut line = format!(
                "Cipher: fastest verified {op} at {}: {} ({}) {}",
                format_size(size),
                f.primitive,
                f.backend,
                format_rate(rate(f))
            );
            // "Fastest", never "recommended": no cipher of this suite
            // authenticates, so the advice for encryption is an AEAD.
            match best(true) {
                Some(r) if r.primitive != f.primitive || r.backend != f.backend => {
                    line.push_str(&format!(
                        "; fastest without a security label: {} ({}) {}",
                        r.primitive,
                        r.backend,
                        format_rate(rate(r))
                    ))
                }
                Some(_) => {}
                None => line.push_str("; every cipher measured carries a security label"),
            }
            line.push_str("; none authenticates: to encrypt, use an AEAD");
            out.push(line);
        }
    }
    let mut failed: Vec<String> = mine()
        .filter(|m| m.status == CaseStatus::Failed)
        .map(|m| format!("{} ({})", m.primitive, m.backend))
        .collect();
    failed.dedup();
    if !failed.is_empty() {
        out.push(format!(
            "Cipher: FAILED checks, never timed: {}",
            failed.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod headline_tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn m(primitive: &str, backend: &str, bytes: u64, ns: f64, labels: &[&str]) -> Measurement {
        let mut x = CaseSpec::new("cipher", primitive, backend, "v", "encrypt")
            .size(bytes)
            .labels(labels.iter().copied())
            .measurement(CaseStatus::Measured, None);
        x.stats = Some(Summary {
            median: ns,
            bytes_per_s: Some(bytes as f64 * 1e9 / ns),
            ..Summary::default()
        });
        x
    }

    #[test]
    fn headline_names_the_fastest_never_recommends_a_cipher_and_lists_failures() {
        let mut bad = m("SM4-CBC", "openssl", 16, 1.0, &[]);
        bad.status = CaseStatus::Failed;
        bad.stats = None;
        let ms = vec![
            m("AES-128-ECB", "openssl", 16_384, 1_000.0, &["ECB"]),
            m("AES-128-CTR", "openssl", 16_384, 1_500.0, &[]),
            m("AES-128-CTR", "php", 16_384, 500.0, &[]),
            m("AES-128-CTR", "openssl", 16, 10.0, &[]),
            bad,
        ];
        let lines = headline(&ms);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0]
                .starts_with("Cipher: fastest verified encrypt at 16 KiB: AES-128-ECB (openssl)"),
            "{}",
            lines[0]
        );
        assert!(
            lines[0].contains("fastest without a security label: AES-128-CTR (openssl)"),
            "{}",
            lines[0]
        );
        assert!(lines[0].ends_with("none authenticates: to encrypt, use an AEAD"));
        assert!(!lines[0].contains("recommended"), "{}", lines[0]);
        assert!(lines[1].contains("FAILED") && lines[1].contains("SM4-CBC (openssl)"));
        assert!(headline(&[]).is_empty());
    }
}

/// OpenSSL backend / `openssl speed` throughput, per cipher and size.
fn peer_ratios(ms: &[Measurement]) -> Option<Table> {
    let speed = |m: &Measurement| m.stats.as_ref().map(|s| s.ops_per_s);
    let mut t = Table::new(
        "fidelity: openssl backend vs openssl speed -evp (same run)",
        [
            "cipher",
            "size",
            "ours ops/s",
            "openssl speed ops/s",
            "ratio",
            "verdict",
            "each message",
        ],
    )
    .right(&[1, 2, 3, 4]);
    for p in ms
        .iter()
        .filter(|m| m.backend == PEER && m.status == CaseStatus::Measured)
    {
        let ours = ms.iter().find(|m| {
            m.backend == "openssl"
                && m.primitive == p.primitive
                && m.operation == "encrypt"
                && m.input_bytes == p.input_bytes
                && m.status == CaseStatus::Measured
                && m.param("setup") == Some(crate::plan::SETUP_KEY_ONCE)
        });
        let verdict = if p.input_bytes >= 16_384 {
            ours.map_or(String::new(), |o| {
                cryptobench_core::paper::fidelity(cryptobench_core::verdict::speedup(o, p)).1
            })
        } else {
            String::new()
        };
        let (Some(o), Some(ps)) = (ours.and_then(speed), speed(p)) else {
            continue;
        };
        let size = format_size(p.input_bytes);
        // What each side processes per message, so the ratio is read right.
        let each = match ours.and_then(|m| m.param("padding")) {
            Some("pkcs7") => format!("ours {size} + PKCS#7 pad, speed {size} raw"),
            _ => format!("{size} raw, both"),
        };
        t.row([
            p.primitive.clone(),
            format_size(p.input_bytes),
            format!("{o:.0}"),
            format!("{ps:.0}"),
            format!("{:.3}", o / ps),
            verdict,
            each,
        ]);
    }
    t.note("both sides: one EVP_EncryptUpdate per message on a context keyed once, no padding, no final, wall clock");
    t.note("verdict at 16 KiB and above, on the 95% interval: met within 0.97-1.03; below, slower than the peer; above, not the same work (the peer's identical calls cannot be beaten); at 16 B the target is >= 0.8");
    (!t.rows.is_empty()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn measured(name: &str, backend: &str, ns: f64, labels: &[&str]) -> Measurement {
        let mut m = CaseSpec::new("cipher", name, backend, "", "encrypt")
            .size(1024)
            .param("setup", crate::plan::SETUP_KEY_ONCE)
            .labels(labels.iter().copied())
            .measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: ns,
            ops_per_s: 1e9 / ns,
            bytes_per_s: Some(1024.0 * 1e9 / ns),
            ..Summary::default()
        });
        m
    }

    #[test]
    fn ranking_is_fastest_first_and_marks_the_fastest_without_warning() {
        let ms = vec![
            measured("AES-128-CTR", "openssl", 300.0, &["no authentication"]),
            measured("RC4", "openssl", 100.0, &["broken", "no authentication"]),
            measured("AES-256-CBC", "openssl", 900.0, &["no authentication"]),
            measured("AES-128-CTR", PEER, 290.0, &[]),
        ];
        let tables = ranking(&ms);
        let t = &tables[0];
        let order: Vec<&str> = t.rows.iter().map(|r| r[1].as_str()).collect();
        assert_eq!(order, ["RC4", "AES-128-CTR", "AES-256-CBC"]);
        assert!(!t.rows[0][5].contains("FASTEST WITHOUT WARNING"));
        assert!(t.rows[1][5].starts_with("FASTEST WITHOUT WARNING"));
        assert!(!t.rows[2][5].contains("FASTEST"));
        let fidelity = tables
            .iter()
            .find(|t| t.title.starts_with("fidelity"))
            .unwrap();
        assert_eq!(fidelity.rows[0][4], format!("{:.3}", 290.0 / 300.0));
        assert_eq!(fidelity.rows[0][6], "1 KiB raw, both");
    }
}
