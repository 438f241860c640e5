//! The suite's tables and headline lines: the handshake table and seed
//! 000 Table 1 (the binary draws the per-case table itself).

use crate::algorithms::{SIGN, SIGN_DIGEST};
use crate::handshake;
use crate::table1;
use crate::SUITE;
use cryptobench_core::advice::verified;
use cryptobench_core::units::format_ns;
use cryptobench_core::verdict::speedup;
use cryptobench_core::{CaseStatus, Measurement, Table};

/// Every table of the suite over these measurements.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let mine: Vec<Measurement> = ms.iter().filter(|m| m.suite == SUITE).cloned().collect();
    if mine.is_empty() {
        return Vec::new();
    }
    // The per-case table (every backend's cell) is drawn by the binary.
    let mut out: Vec<Table> = handshake::table(&mine).into_iter().collect();
    out.extend(table1::table(&mine));
    out
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
    out.extend(fidelity(&mine));
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

/// One line per `openssl speed` peer measured: our OpenSSL row over it,
/// paired (same group), judged two-sided, so the fidelity target reads
/// off the run's summary. For RSA and ECDSA the judged row is
/// `sign-digest` (the peer's work: no hashing); our `sign`, which hashes
/// the message first, is shown beside it.
fn fidelity(mine: &[Measurement]) -> Vec<String> {
    let measured = |m: &&Measurement| m.status == CaseStatus::Measured && m.stats.is_some();
    let openssl_row = |peer: &Measurement, op: &str| {
        mine.iter().filter(measured).find(|m| {
            m.backend == crate::backend::openssl::NAME
                && m.primitive == peer.primitive
                && m.operation == op
        })
    };
    mine.iter()
        .filter(measured)
        .filter(|p| p.backend == cryptobench_engine::build::peers::OPENSSL_SPEED)
        .filter_map(|peer| {
            let like = (peer.operation == SIGN)
                .then(|| openssl_row(peer, SIGN_DIGEST))
                .flatten();
            let ours = like.or_else(|| openssl_row(peer, &peer.operation))?;
            let (_, words) = cryptobench_core::paper::fidelity(speedup(ours, peer));
            let beside = match (like, openssl_row(peer, SIGN)) {
                (Some(_), Some(sign)) => speedup(sign, peer)
                    .map(|r| {
                        format!(
                            "; with hashing the message (our `sign`): {:.3} (95% {:.3}-{:.3})",
                            r.value, r.lo, r.hi
                        )
                    })
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let what = if like.is_some() {
                " of a ready digest"
            } else {
                ""
            };
            Some(format!(
                "pubkey fidelity {} {}{what}: cryptobench/openssl speed = {words}{beside}",
                peer.primitive, peer.operation,
            ))
        })
        .collect()
}
