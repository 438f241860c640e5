//! The suite's tables and `run` summary lines, drawn from [`crate::rows`].

use crate::rows::{view, Estimate, HandshakeRow, Interval, TlsView};
use cryptobench_core::units::format_ns;
use cryptobench_core::{Measurement, Table};

fn us(i: Option<Interval>) -> String {
    match i {
        Some(i) => format!("{} ({}-{})", format_ns(i.value), short(i.lo), short(i.hi)),
        None => "-".into(),
    }
}

/// A time in microseconds without its unit, for interval ends.
fn short(ns: f64) -> String {
    format!("{:.1}", ns / 1e3)
}

fn ratio(e: Option<&Estimate>) -> String {
    match e {
        Some(e) => format!(
            "{:.2} ({:.2}-{:.2}){}",
            e.value,
            e.lo,
            e.hi,
            if e.paired { "" } else { " unpaired" }
        ),
        None => "-".into(),
    }
}

/// Every table of the suite over these measurements.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let v = view(ms);
    let mut out = Vec::new();
    out.extend(handshakes(&v));
    out.extend(tails(&v));
    out.extend(breakdown(&v));
    out.extend(peers(&v));
    out
}

fn handshakes(v: &TlsView) -> Option<Table> {
    if v.rows.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "tls: TLS 1.3 handshakes, each side's time per handshake (us, 95% interval), the pubkey model beside them",
        [
            "provider", "group", "cert", "kind", "server", "client", "model", "server/model",
            "ClientHello B", "server flight B", "hs/s/core", "hs/s all cores",
        ],
    )
    .right(&[4, 5, 6, 7, 8, 9, 10, 11]);
    for r in &v.rows {
        let all = match (r.server_all_cores_per_s(), r.all_cores) {
            (Some(rate), Some(c)) => {
                format!("{rate:.0} ({} cores, x{:.2})", c.threads, c.efficiency)
            }
            _ => "-".into(),
        };
        t.row([
            r.provider.clone(),
            r.group.clone(),
            if r.resumed {
                "-".into()
            } else {
                r.cert.clone()
            },
            if r.resumed { "resumed" } else { "full" }.to_string(),
            us(r.server_ns),
            us(r.client_ns),
            us(r.predicted_ns),
            ratio(r.measured_over_predicted.as_ref()),
            r.wire.map_or("-".into(), |w| w.client_hello.to_string()),
            r.wire.map_or("-".into(), |w| w.server_flight.to_string()),
            r.per_core_per_s.map_or("-".into(), |x| format!("{x:.0}")),
            all,
        ]);
    }
    t.note("server, client: each side's steps of complete in-memory handshakes (one thread, monotonic clock), medians with 95% intervals");
    t.note("model: the pubkey suite's prediction (key share + CertificateVerify signature; resumed: key share) timed on aws-lc-rs in the same rounds; server/model is the paired ratio");
    t.note("hs/s all cores = hs/s/core x cores x the scaling whole handshakes showed on that many threads");
    Some(t)
}

fn tails(v: &TlsView) -> Option<Table> {
    let rows: Vec<&HandshakeRow> = v.rows.iter().filter(|r| r.tails.is_some()).collect();
    if rows.is_empty() && v.sign_tails.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "tls: tails of single calls (us, rank intervals), beside the batch median",
        [
            "what",
            "batch median",
            "p50",
            "p99",
            "p99.9",
            "p99/p50",
            "mean",
            "calls",
        ],
    )
    .right(&[1, 2, 3, 4, 5, 6, 7]);
    let mut push = |what: String, median: Option<Interval>, tl: &crate::rows::Tails| {
        t.row([
            what,
            us(median),
            us(Some(tl.p50)),
            us(Some(tl.p99)),
            us(Some(tl.p999)),
            format!("{:.2}", tl.p99.value / tl.p50.value),
            format_ns(tl.mean),
            tl.samples.to_string(),
        ]);
    };
    for r in rows {
        let tl = r.tails.expect("filtered");
        push(
            format!("server handshake {} {} ({})", r.group, r.cert, r.provider),
            r.server_ns,
            &tl,
        );
    }
    for s in &v.sign_tails {
        push(
            format!("{} sign ({})", s.signature, s.backend),
            None,
            &s.tails,
        );
    }
    t.note("one call per sample, interleaved with the run's canary; ML-DSA signing retries on rejection, so its mean and p99 sit above its median");
    Some(t)
}

fn breakdown(v: &TlsView) -> Option<Table> {
    if v.breakdowns.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "tls: what a server handshake is made of (rustls/aws-lc-rs, medians of the same rounds, us)",
        [
            "group", "cert", "server", "rest", "key share", "signature", "model", "(share+sig)/model",
            "server/model",
        ],
    )
    .right(&[2, 3, 4, 5, 6, 7, 8]);
    for b in &v.breakdowns {
        t.row([
            b.group.clone(),
            b.cert.clone(),
            short(b.server_ns),
            short(b.rest_ns),
            short(b.share_ns),
            short(b.signature_ns),
            short(b.model_ns),
            format!("{:.2}", (b.share_ns + b.signature_ns) / b.model_ns),
            format!("{:.2}", b.server_ns / b.model_ns),
        ]);
    }
    t.note("rest = the handshake with a null key share and a null signature (key schedule, transcript hash, records, certificate, allocation); signature = null share - rest; key share = server - null share");
    Some(t)
}

fn peers(v: &TlsView) -> Option<Table> {
    if v.peers.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "tls: rustls/aws-lc-rs vs openssl s_server + s_time (server CPU per full handshake)",
        [
            "group",
            "cert",
            "rustls server",
            "s_server CPU",
            "s_time client CPU",
            "rustls/s_server",
        ],
    )
    .right(&[2, 3, 4, 5]);
    for p in &v.peers {
        let rustls = v
            .rows
            .iter()
            .find(|r| {
                r.group == p.group
                    && r.cert == p.cert
                    && !r.resumed
                    && r.provider == crate::provider::AWS_LC_RS
            })
            .and_then(|r| r.server_ns);
        t.row([
            p.group.clone(),
            p.cert.clone(),
            us(rustls),
            us(p.server_ns),
            p.client_ns.map_or("-".into(), format_ns),
            ratio(p.rustls_over_peer.as_ref()),
        ]);
    }
    t.note("s_server CPU: the server process's CPU time (user + system) over one s_time run of fresh connections on 127.0.0.1, over the connections s_time counted; it holds the kernel's TCP work, which the in-memory rustls rows do not");
    Some(t)
}

/// The `run` summary lines: rustls vs s_time, and measured vs model.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    let v = view(ms);
    let mut out = Vec::new();
    for p in &v.peers {
        if let Some(e) = &p.rustls_over_peer {
            out.push(format!(
                "tls: rustls/aws-lc-rs server / openssl s_server (s_time) for {} + {}: {:.2} (95% {:.2}-{:.2}{}, {} rounds)",
                p.group,
                p.cert,
                e.value,
                e.lo,
                e.hi,
                if e.paired { ", paired" } else { ", unpaired" },
                e.rounds.unwrap_or(0)
            ));
        }
    }
    for r in v
        .rows
        .iter()
        .filter(|r| r.provider == crate::provider::AWS_LC_RS && !r.resumed)
    {
        if let (Some(e), Some(s)) = (&r.measured_over_predicted, r.server_ns) {
            out.push(format!(
                "tls: {} + {} server {} per handshake, measured/model {:.2} (95% {:.2}-{:.2})",
                r.group,
                r.cert,
                format_ns(s.value),
                e.value,
                e.lo,
                e.hi
            ));
        }
    }
    out
}
