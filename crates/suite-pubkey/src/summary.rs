//! The suite's tables and headline lines: per set and operation, every
//! backend's median side by side; the handshake table; seed 000 Table 1.

use crate::handshake;
use crate::table1;
use crate::SUITE;
use cryptobench_core::advice::verified;
use cryptobench_core::units::format_ns;
use cryptobench_core::{CaseStatus, Measurement, Table};

/// Every table of the suite over these measurements.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let mine: Vec<Measurement> = ms.iter().filter(|m| m.suite == SUITE).cloned().collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let mut out = vec![matrix(&mine)];
    out.extend(handshake::table(&mine));
    out.extend(table1::table(&mine));
    out
}

/// Set x operation rows, one column per backend.
fn matrix(ms: &[Measurement]) -> Table {
    let mut backends: Vec<&str> = Vec::new();
    let mut rows: Vec<(&str, &str)> = Vec::new();
    for m in ms {
        if !backends.contains(&m.backend.as_str()) {
            backends.push(&m.backend);
        }
        if !rows.contains(&(m.primitive.as_str(), m.operation.as_str())) {
            rows.push((&m.primitive, &m.operation));
        }
    }
    let mut headers = vec!["set".to_string(), "operation".to_string()];
    headers.extend(backends.iter().map(|b| b.to_string()));
    let right: Vec<usize> = (2..headers.len()).collect();
    let mut t = Table::new(
        "pubkey: median time per operation (* fastest verified)",
        headers,
    )
    .right(&right);
    for (prim, op) in rows {
        let cells: Vec<Option<&Measurement>> = backends
            .iter()
            .map(|b| {
                ms.iter()
                    .find(|m| m.primitive == prim && m.operation == op && m.backend == *b)
            })
            .collect();
        let best = handshake::fastest(ms, prim, op).map(|m| m.backend.clone());
        let mut row = vec![prim.to_string(), op.to_string()];
        for (b, m) in backends.iter().zip(cells) {
            row.push(match m {
                None => String::new(),
                Some(m) => match (&m.status, &m.stats) {
                    (CaseStatus::Measured, Some(s)) => {
                        let star = if best.as_deref() == Some(*b) { "*" } else { "" };
                        format!("{}{star}", format_ns(s.median))
                    }
                    (CaseStatus::Failed, _) => "FAILED".into(),
                    (CaseStatus::Skipped, _) => "skipped".into(),
                    (CaseStatus::Unavailable, _) => "n/a".into(),
                    _ => "-".into(),
                },
            });
        }
        t.row(row);
    }
    t.note("keygen includes encoding the public key; sign covers the 130-byte TLS 1.3 CertificateVerify content; derive uses a prepared peer share");
    t
}

/// The `run` summary lines: the published shape (ML-KEM vs X25519) and
/// the handshake advice.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    let mine: Vec<Measurement> = ms.iter().filter(|m| m.suite == SUITE).cloned().collect();
    let mut out = Vec::new();
    let pair = |alg: &str, ops: [&str; 2]| -> Option<(f64, String)> {
        let a = handshake::fastest(&mine, alg, ops[0])?;
        let b = handshake::fastest(&mine, alg, ops[1])?;
        let ns = a.stats.as_ref()?.median + b.stats.as_ref()?.median;
        Some((ns, format!("{}/{}", a.backend, b.backend)))
    };
    if let (Some((kem, kb)), Some((dh, db))) = (
        pair("ML-KEM-768", ["encaps", "decaps"]),
        pair("X25519", ["keygen", "derive"]),
    ) {
        out.push(format!(
            "pubkey: ML-KEM-768 encaps + decaps {} ({kb}) vs X25519 keygen + derive {} ({db}): the KEM pair is {:.2}x the X25519 time",
            format_ns(kem),
            format_ns(dh),
            kem / dh
        ));
    }
    out.extend(handshake::advice(&mine));
    let failed: Vec<String> = mine
        .iter()
        .filter(|m| m.status == CaseStatus::Failed && !m.backend.starts_with("peer:"))
        .map(|m| format!("{} {} {}", m.primitive, m.backend, m.operation))
        .collect();
    if !failed.is_empty() && mine.iter().any(verified) {
        out.push(format!(
            "pubkey: {} case(s) FAILED their checks (not timed): {}",
            failed.len(),
            failed.join(", ")
        ));
    }
    out
}
