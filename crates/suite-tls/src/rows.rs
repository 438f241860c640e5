//! The suite's finished measurements as typed rows: what the tables print
//! now and what advice lines and report charts will render.
//!
//! A [`HandshakeRow`] is one provider x group x certificate x handshake
//! kind: each side's time per handshake with its interval, the model's
//! prediction measured in the same rounds and measured / predicted as a
//! paired ratio, the bytes of each flight, the server's tail quantiles,
//! and handshakes per second on one core and on every core. Beside them:
//! the measured breakdown of a server handshake ([`Breakdown`]), the
//! `openssl s_time` peer rows ([`PeerRow`]) and ML-DSA signing's tails
//! ([`SignTailRow`]).

use crate::case::{CLIENT_FINISHED_BYTES, CLIENT_HELLO_BYTES, SERVER_FLIGHT_BYTES};
use crate::plan::{
    CERT_PARAM, HANDSHAKE_PARAM, MODEL_OPERATION, NULL_SHARE, NULL_SHARE_SIGNATURE, SIGN_SINGLE,
};
use crate::{SUITE, S_TIME};
use cryptobench_core::verdict::time_ratio;
pub use cryptobench_core::verdict::Estimate;
use cryptobench_core::{CaseStatus, Measurement};

/// A median (or quantile) with its 95% interval, ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Interval {
    /// A measurement's median and interval.
    pub fn of(m: &Measurement) -> Option<Self> {
        let s = m.stats.as_ref()?;
        Some(Self {
            value: s.median,
            lo: s.ci95[0],
            hi: s.ci95[1],
        })
    }
}

/// Bytes each flight of a full handshake put on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireBytes {
    /// ClientHello (client to server).
    pub client_hello: u64,
    /// The server's flight.
    pub server_flight: u64,
    /// The client's Finished.
    pub client_finished: u64,
}

/// Single-call quantiles with their rank intervals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tails {
    /// Single calls sampled.
    pub samples: usize,
    /// Median of single calls.
    pub p50: Interval,
    /// 99th percentile.
    pub p99: Interval,
    /// 99.9th percentile.
    pub p999: Interval,
    /// Mean of single calls.
    pub mean: f64,
}

impl Tails {
    /// The tails of a single-call measurement's samples.
    pub fn of(m: &Measurement) -> Option<Self> {
        let xs = &m.samples_ns;
        if xs.len() < 10 {
            return None;
        }
        let q = |p: f64| {
            let (lo, hi) = cryptobench_stats::paired::quantile_ci_rank(xs, p);
            Interval {
                value: cryptobench_stats::quantile(xs, p),
                lo,
                hi,
            }
        };
        Some(Self {
            samples: xs.len(),
            p50: q(0.5),
            p99: q(0.99),
            p999: q(0.999),
            mean: cryptobench_stats::mean(xs),
        })
    }
}

/// Whole handshakes on several cores at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AllCores {
    /// Threads (one per core).
    pub threads: u32,
    /// Whole handshakes per second on all of them.
    pub handshakes_per_s: f64,
    /// Whole handshakes per second on one thread (the runner's reference).
    pub one_thread_per_s: f64,
    /// All cores' rate over `threads` times one thread's.
    pub efficiency: f64,
}

/// One provider x group x certificate x handshake kind.
#[derive(Debug, Clone, PartialEq)]
pub struct HandshakeRow {
    /// `rustls/aws-lc-rs`, `rustls/ring`.
    pub provider: String,
    /// Key-exchange group.
    pub group: String,
    /// Server certificate.
    pub cert: String,
    /// Resumed (PSK + key share) rather than full.
    pub resumed: bool,
    /// The server's time per handshake.
    pub server_ns: Option<Interval>,
    /// The client's time per handshake.
    pub client_ns: Option<Interval>,
    /// The model's prediction (its primitives on aws-lc-rs, same rounds).
    pub predicted_ns: Option<Interval>,
    /// Server time / prediction, paired.
    pub measured_over_predicted: Option<Estimate>,
    /// Bytes per flight.
    pub wire: Option<WireBytes>,
    /// The server's single-handshake quantiles.
    pub tails: Option<Tails>,
    /// Full handshakes a core can serve per second (1 / server time).
    pub per_core_per_s: Option<f64>,
    /// Whole handshakes on every core.
    pub all_cores: Option<AllCores>,
}

impl HandshakeRow {
    /// Server handshakes per second on every core: one core's rate times
    /// the cores times the scaling the multi-core row measured.
    pub fn server_all_cores_per_s(&self) -> Option<f64> {
        let c = self.all_cores?;
        Some(self.per_core_per_s? * f64::from(c.threads) * c.efficiency)
    }
    /// Cores a server needs for `rate` handshakes per second (at the
    /// measured scaling; one core's rate when no multi-core row exists).
    pub fn cores_for(&self, rate: f64) -> Option<f64> {
        let per_core = self.per_core_per_s?;
        let efficiency = self.all_cores.map_or(1.0, |c| c.efficiency).max(1e-9);
        Some(rate / (per_core * efficiency))
    }
}

/// The measured breakdown of one server row (aws-lc-rs): the same
/// handshake with a null key share, and with a null key share and a null
/// signature, in the same rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakdown {
    /// Group of the real row.
    pub group: String,
    /// Certificate.
    pub cert: String,
    /// The real row's server time.
    pub server_ns: f64,
    /// Everything but the key share and the signature (null both).
    pub rest_ns: f64,
    /// The signature inside the handshake (null share - null both).
    pub signature_ns: f64,
    /// The key share inside the handshake (server - null share).
    pub share_ns: f64,
    /// The model: key share + signature timed alone.
    pub model_ns: f64,
}

/// An `openssl s_time` peer row beside its rustls row.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerRow {
    /// Group.
    pub group: String,
    /// Certificate.
    pub cert: String,
    /// s_server's CPU per handshake.
    pub server_ns: Option<Interval>,
    /// s_time's own CPU per handshake (its client), mean over the runs.
    pub client_ns: Option<f64>,
    /// rustls/aws-lc-rs server time / s_server's, paired.
    pub rustls_over_peer: Option<Estimate>,
}

/// An ML-DSA signing tail.
#[derive(Debug, Clone, PartialEq)]
pub struct SignTailRow {
    /// The set.
    pub signature: String,
    /// The library.
    pub backend: String,
    /// Its single-call quantiles.
    pub tails: Tails,
}

/// Every typed row of a run's tls measurements.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TlsView {
    /// Handshake rows, in measurement order.
    pub rows: Vec<HandshakeRow>,
    /// Breakdowns of the aws-lc-rs server rows.
    pub breakdowns: Vec<Breakdown>,
    /// Peer rows.
    pub peers: Vec<PeerRow>,
    /// ML-DSA signing tails.
    pub sign_tails: Vec<SignTailRow>,
}

fn measured(m: &&Measurement) -> bool {
    m.suite == SUITE && m.status == CaseStatus::Measured && m.stats.is_some()
}

/// Finds the measured case of this shape.
struct Finder<'a>(Vec<&'a Measurement>);

impl<'a> Finder<'a> {
    fn find(
        &self,
        backend: &str,
        primitive: &str,
        op: &str,
        cert: &str,
        kind: &str,
    ) -> Option<&'a Measurement> {
        self.0.iter().copied().find(|m| {
            m.backend == backend
                && m.primitive == primitive
                && m.operation == op
                && m.param(CERT_PARAM) == Some(cert)
                && m.param(HANDSHAKE_PARAM) == Some(kind)
        })
    }
}

fn wire(m: &Measurement) -> Option<WireBytes> {
    let get = |k: &str| m.extra.get(k).map(|v| *v as u64);
    Some(WireBytes {
        client_hello: get(CLIENT_HELLO_BYTES)?,
        server_flight: get(SERVER_FLIGHT_BYTES)?,
        client_finished: get(CLIENT_FINISHED_BYTES)?,
    })
}

fn all_cores(m: &Measurement) -> Option<AllCores> {
    Some(AllCores {
        threads: m.threads,
        handshakes_per_s: *m.extra.get("total_ops_per_s")?,
        one_thread_per_s: *m.extra.get("single_thread_ops_per_s")?,
        efficiency: *m.extra.get("scaling_efficiency")?,
    })
}

/// The typed rows of `ms` (other suites' measurements are ignored).
pub fn view(ms: &[Measurement]) -> TlsView {
    let f = Finder(ms.iter().filter(measured).collect());
    let mut out = TlsView::default();
    let model_backend = crate::model::MODEL_BACKEND;
    for m in f.0.iter().filter(|m| {
        m.operation == "server" && m.backend.starts_with("rustls/") && !is_null(&m.primitive)
    }) {
        let (cert, kind) = (
            m.param(CERT_PARAM).unwrap_or("-"),
            m.param(HANDSHAKE_PARAM).unwrap_or("full"),
        );
        let model_cert = if kind == "resumed" { "-" } else { cert };
        let model = f.find(
            model_backend,
            &m.primitive,
            MODEL_OPERATION,
            model_cert,
            kind,
        );
        let client = f.find(&m.backend, &m.primitive, "client", cert, kind);
        let single = f.find(&m.backend, &m.primitive, "server-single", cert, kind);
        let multi = f.0.iter().copied().find(|x| {
            x.backend == m.backend
                && x.primitive == m.primitive
                && x.operation == "handshake"
                && x.param(CERT_PARAM) == Some(cert)
                && x.threads > 1
        });
        let server = Interval::of(m);
        out.rows.push(HandshakeRow {
            provider: m.backend.clone(),
            group: m.primitive.clone(),
            cert: cert.to_string(),
            resumed: kind == "resumed",
            server_ns: server,
            client_ns: client.and_then(Interval::of),
            predicted_ns: model.and_then(Interval::of),
            measured_over_predicted: model.and_then(|p| time_ratio(m, p)),
            wire: wire(m),
            tails: single.and_then(Tails::of),
            per_core_per_s: server.map(|s| 1e9 / s.value),
            all_cores: multi.and_then(all_cores),
        });
        if kind == "full" && m.backend == crate::provider::AWS_LC_RS {
            out.breakdowns.extend(breakdown(&f, m, model, cert));
        }
        if let Some(peer) = f.find(S_TIME, &m.primitive, "server", cert, kind) {
            if m.backend == crate::provider::AWS_LC_RS {
                out.peers.push(PeerRow {
                    group: m.primitive.clone(),
                    cert: cert.to_string(),
                    server_ns: Interval::of(peer),
                    client_ns: peer.extra.get("peer_client_cpu_ns").copied(),
                    rustls_over_peer: time_ratio(m, peer),
                });
            }
        }
    }
    for m in f.0.iter().filter(|m| m.operation == SIGN_SINGLE) {
        if let Some(tails) = Tails::of(m) {
            out.sign_tails.push(SignTailRow {
                signature: m.primitive.clone(),
                backend: m.backend.clone(),
                tails,
            });
        }
    }
    out
}

fn is_null(primitive: &str) -> bool {
    primitive == NULL_SHARE || primitive == NULL_SHARE_SIGNATURE
}

fn breakdown(
    f: &Finder<'_>,
    m: &Measurement,
    model: Option<&Measurement>,
    cert: &str,
) -> Option<Breakdown> {
    let median = |x: &Measurement| x.stats.as_ref().map(|s| s.median);
    let share = f.find(&m.backend, NULL_SHARE, "server", cert, "full")?;
    let both = f.find(&m.backend, NULL_SHARE_SIGNATURE, "server", cert, "full")?;
    let (server, null_share, rest) = (median(m)?, median(share)?, median(both)?);
    Some(Breakdown {
        group: m.primitive.clone(),
        cert: cert.to_string(),
        server_ns: server,
        rest_ns: rest,
        signature_ns: null_share - rest,
        share_ns: server - null_share,
        model_ns: median(model?)?,
    })
}
