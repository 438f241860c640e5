//! The report's pubkey figure: server CPU per TLS 1.3 handshake, one group
//! of bars per server signature, one bar per key share.

use crate::handshake::{self, KEY_SHARES, SIGNATURES};
use cryptobench_core::{Chart, ChartKind, Measurement, Series};

/// Charts over these measurements (none when nothing was measured).
pub fn charts(ms: &[Measurement]) -> Vec<Chart> {
    let mut chart = Chart::new(
        ChartKind::Bar,
        "TLS 1.3 handshake: server CPU per handshake (key share + signature)",
        "server signature",
        "µs per handshake (one core)",
    );
    let sigs: Vec<(&str, f64)> = SIGNATURES
        .iter()
        .filter_map(|s| Some((*s, handshake::sign_cost(ms, s)?.ns)))
        .collect();
    chart.categories = sigs.iter().map(|(s, _)| s.to_string()).collect();
    for share in KEY_SHARES {
        let Some(k) = handshake::share_cost(ms, share) else {
            continue;
        };
        chart.series.push(Series {
            name: share.to_string(),
            points: sigs
                .iter()
                .enumerate()
                .map(|(i, (_, sig_ns))| (i as f64, (k.ns + sig_ns) / 1e3))
                .collect(),
        });
    }
    if chart.series.is_empty() || chart.categories.is_empty() {
        return Vec::new();
    }
    chart.log_y = true;
    chart.notes.push(
        "Fastest verified backend per operation; ECDHE = keygen + derive, KEM = encaps; log scale."
            .into(),
    );
    vec![chart]
}
