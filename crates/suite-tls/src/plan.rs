//! Which cases a run holds, and how they are grouped.
//!
//! Comparison groups (the engine's rounds, so ratios inside one are
//! paired):
//!
//! - `tls/full/server/CERT`: every provider's server row of every group
//!   with that certificate, the model of each group (its primitives on
//!   aws-lc-rs), the breakdown's two stand-in rows and the `openssl
//!   s_time` peers: measured / predicted, rustls / s_time and the
//!   breakdown's differences all come from the same rounds;
//! - `tls/full/client/CERT`: the client rows;
//! - `tls/resumed`: resumed handshakes (server, client, the key share's
//!   model) with `--resumption` or `--full`;
//! - `tls/tails`: one server handshake per sample, and one ML-DSA
//!   signature per sample, for p50/p99/p99.9, at least
//!   [`tail_rounds`] samples each.
//!
//! The multi-core rows (`handshake` on every core, or `--threads N`) are
//! measured alone by the engine's multi-thread runner.
//!
//! Grids: `--quick` (and `run --quick`) times X25519 and X25519MLKEM768
//! with ECDSA P-256 on aws-lc-rs, one s_time peer and short tails; a
//! default `run` every group with ECDSA P-256 on both providers and two
//! peers; `cryptobench tls` every certificate too, RSA's peers included;
//! `--full` adds resumed handshakes and a multi-core row per row.

use crate::case::{Role, TlsCase};
use crate::catalog::{self, Cert, Group, CERTS, GROUPS};
use crate::exchange::PairSpec;
use crate::model::{ModelCase, SignTail, ML_DSA_BACKEND, MODEL_BACKEND};
use crate::peer_case::STimeCase;
use crate::provider::{self, Provider};
use crate::{Options, SUITE, S_TIME};
use cryptobench_core::{Case, CaseSpec, Offer, PlannedCase, RunConfig};

/// The model's operation name.
pub const MODEL_OPERATION: &str = "model-server";
/// The ML-DSA tail's operation name.
pub const SIGN_SINGLE: &str = "sign-single";
/// The breakdown row with a null key share.
pub const NULL_SHARE: &str = "null share";
/// The breakdown row with a null key share and a null signature.
pub const NULL_SHARE_SIGNATURE: &str = "null share+signature";
/// `params` keys.
pub const CERT_PARAM: &str = "cert";
/// Full or resumed.
pub const HANDSHAKE_PARAM: &str = "handshake";
/// The ML-DSA sets whose signing tails are measured.
pub const ML_DSA_TAILS: [&str; 2] = ["ML-DSA-44", "ML-DSA-65"];

/// Samples of each tail case: enough that p99.9 has a few above it.
pub fn tail_rounds(cfg: &RunConfig) -> usize {
    if cfg.quick {
        1_000
    } else if cfg.full {
        10_000
    } else {
        3_000
    }
}

/// Threads of the multi-core rows: `--threads N`, else every core.
pub fn cores(cfg: &RunConfig) -> u32 {
    if cfg.threads > 1 {
        cfg.threads
    } else {
        std::thread::available_parallelism()
            .map(|n| u32::try_from(n.get()).unwrap_or(1))
            .unwrap_or(1)
    }
}

struct Grid {
    groups: Vec<&'static Group>,
    certs: Vec<&'static Cert>,
    providers: Vec<&'static dyn Provider>,
    resumed: bool,
    /// (group, cert) rows with an s_time peer.
    peers: Vec<(&'static str, &'static str)>,
    breakdown: bool,
}

fn grid(o: &Options, cfg: &RunConfig) -> Grid {
    let groups = o.groups.clone().unwrap_or_else(|| {
        let quick = ["X25519", "X25519MLKEM768"];
        GROUPS
            .iter()
            .filter(|g| !cfg.quick || quick.contains(&g.name))
            .collect()
    });
    let certs = o.certs.clone().unwrap_or_else(|| {
        CERTS
            .iter()
            .filter(|c| c.name == "ECDSA-P256" || (!cfg.quick && (o.alone || cfg.full)))
            .collect()
    });
    let providers = provider::all()
        .into_iter()
        .filter(|p| cfg.wants_backend(p.name()))
        .filter(|p| !cfg.quick || p.name() == provider::AWS_LC_RS)
        .collect();
    let peers = if o.no_peers {
        Vec::new()
    } else if cfg.quick {
        vec![("X25519", "ECDSA-P256")]
    } else {
        let certs: &[&str] = if o.alone || cfg.full {
            &["ECDSA-P256", "RSA-2048"]
        } else {
            &["ECDSA-P256"]
        };
        let mut v = Vec::new();
        for c in certs {
            v.extend([("X25519", *c), ("secp256r1", *c)]);
        }
        v
    };
    Grid {
        groups,
        certs,
        providers,
        resumed: o.resumption || cfg.full,
        peers,
        breakdown: !cfg.quick,
    }
}

/// The whole plan.
pub fn plan(o: &Options, cfg: &RunConfig) -> Vec<PlannedCase> {
    let g = grid(o, cfg);
    let mut out = Vec::new();
    for &cert in &g.certs {
        full_rows(&g, cert, cfg, &mut out);
    }
    if g.resumed {
        resumed_rows(&g, &mut out);
    }
    tails(&g, cfg, &mut out);
    multi_core(&g, cfg, &mut out);
    out
}

fn spec(primitive: &str, backend: &str, version: String, op: &str) -> CaseSpec {
    CaseSpec::new(SUITE, primitive, backend, version, op)
}

fn rustls_spec(p: &dyn Provider, group: &str, cert: &Cert, role: Role, resumed: bool) -> CaseSpec {
    let full = if resumed { "resumed" } else { "full" };
    let spec = spec(group, p.name(), p.version(), role.operation())
        .param(CERT_PARAM, cert.name)
        .param(HANDSHAKE_PARAM, full);
    let pq = catalog::group(group).is_some_and(|g| g.post_quantum);
    spec.labels(pq.then_some("post-quantum"))
}

/// A rustls case to build when the engine reaches it.
fn rustls(spec: CaseSpec, pair: PairSpec, role: Role) -> PlannedCase {
    PlannedCase::ready(spec, move || {
        Ok(Box::new(TlsCase::new(pair, role)?) as Box<dyn Case>)
    })
}

fn pair(p: &'static dyn Provider, group: Option<&'static Group>, cert: &'static Cert) -> PairSpec {
    PairSpec {
        provider: p,
        group,
        cert,
        null_signature: false,
        resumed: false,
    }
}

fn model_version() -> String {
    cryptobench_suite_pubkey::algorithms::by_name("X25519")
        .and_then(|a| {
            cryptobench_suite_pubkey::entries(a)
                .into_iter()
                .find(|(b, _, _)| *b == MODEL_BACKEND)
        })
        .map(|(_, v, _)| v)
        .unwrap_or_default()
}

fn model(group: &'static Group, cert: Option<&'static Cert>, id: &str, full: &str) -> PlannedCase {
    let s = spec(group.name, MODEL_BACKEND, model_version(), MODEL_OPERATION)
        .param(CERT_PARAM, cert.map_or("-", |c| c.name))
        .param(HANDSHAKE_PARAM, full)
        .group(id)
        .expect_ns(100e3);
    PlannedCase::ready(s, move || {
        Ok(Box::new(ModelCase::new(group, cert)?) as Box<dyn Case>)
    })
}

fn full_rows(g: &Grid, cert: &'static Cert, cfg: &RunConfig, out: &mut Vec<PlannedCase>) {
    let server_id = format!("{SUITE}/full/server/{}", cert.name);
    let client_id = format!("{SUITE}/full/client/{}", cert.name);
    let slow = if cert.name == "RSA-2048" { 1.5e6 } else { 0.0 };
    for &group in &g.groups {
        for &p in &g.providers {
            if p.offer(group) != Offer::Runs {
                continue;
            }
            let pair = pair(p, Some(group), cert);
            for (role, id, ns) in [
                (Role::Server, &server_id, 150e3 + slow),
                (Role::Client, &client_id, 250e3),
            ] {
                let s = rustls_spec(p, group.name, cert, role, false)
                    .group(id.as_str())
                    .expect_ns(ns);
                out.push(rustls(s, pair, role));
            }
        }
        if g.providers.iter().any(|p| p.name() == provider::AWS_LC_RS) {
            out.push(model(group, Some(cert), &server_id, "full"));
        }
        if g.peers.contains(&(group.name, cert.name)) {
            out.push(s_time(group, cert, &server_id, cfg));
        }
    }
    if g.breakdown && g.providers.iter().any(|p| p.name() == provider::AWS_LC_RS) {
        for (name, null_signature) in [(NULL_SHARE, false), (NULL_SHARE_SIGNATURE, true)] {
            let p: &'static dyn Provider = &provider::AwsLcRs;
            let s = rustls_spec(p, name, cert, Role::Server, false)
                .group(server_id.as_str())
                .expect_ns(100e3 + slow);
            let pair = PairSpec {
                null_signature,
                ..pair(p, None, cert)
            };
            out.push(rustls(s, pair, Role::Server));
        }
    }
}

fn s_time(group: &'static Group, cert: &'static Cert, id: &str, _cfg: &RunConfig) -> PlannedCase {
    let version = cryptobench_engine::build::peers::openssl_cli_version();
    let s = spec(
        group.name,
        S_TIME,
        version.clone().unwrap_or_default(),
        Role::Server.operation(),
    )
    .param(CERT_PARAM, cert.name)
    .param(HANDSHAKE_PARAM, "full")
    .group(id)
    // One sample is one s_time process of one to two seconds.
    .expect_ns(1.5e9);
    match version {
        Ok(_) => PlannedCase::ready(s, move || {
            Ok(Box::new(STimeCase::new(group, cert)?) as Box<dyn Case>)
        }),
        Err(e) => PlannedCase::unavailable(
            s,
            format!("{e}; install it: {}", crate::error::INSTALL_OPENSSL),
        ),
    }
}

fn resumed_rows(g: &Grid, out: &mut Vec<PlannedCase>) {
    let id = format!("{SUITE}/resumed");
    let cert = catalog::cert("ECDSA-P256").expect("a name from the table");
    for &group in &g.groups {
        for &p in &g.providers {
            if p.offer(group) != Offer::Runs {
                continue;
            }
            let pair = PairSpec {
                resumed: true,
                ..pair(p, Some(group), cert)
            };
            for role in [Role::Server, Role::Client] {
                let s = rustls_spec(p, group.name, cert, role, true)
                    .group(id.as_str())
                    .expect_ns(100e3);
                out.push(rustls(s, pair, role));
            }
        }
        if g.providers.iter().any(|p| p.name() == provider::AWS_LC_RS) {
            out.push(model(group, None, &id, "resumed"));
        }
    }
}

/// The tail rows: X25519 and X25519MLKEM768 (or the first group asked)
/// with the first certificate, and ML-DSA signing.
fn tails(g: &Grid, cfg: &RunConfig, out: &mut Vec<PlannedCase>) {
    let id = format!("{SUITE}/tails");
    let rounds = tail_rounds(cfg);
    let Some(&cert) = g.certs.first() else {
        return;
    };
    let aws: &'static dyn Provider = &provider::AwsLcRs;
    if g.providers.iter().any(|p| p.name() == aws.name()) {
        let mut groups: Vec<&'static Group> = g
            .groups
            .iter()
            .copied()
            .filter(|gr| ["X25519", "X25519MLKEM768"].contains(&gr.name))
            .collect();
        if groups.is_empty() {
            groups.extend(g.groups.first());
        }
        for group in groups {
            let s = rustls_spec(aws, group.name, cert, Role::ServerSingle, false)
                .group(id.as_str())
                .min_rounds(rounds)
                .expect_ns(150e3);
            out.push(rustls(s, pair(aws, Some(group), cert), Role::ServerSingle));
        }
    }
    if !cfg.wants_backend(ML_DSA_BACKEND) && cfg.backends.is_some() {
        return;
    }
    for name in ML_DSA_TAILS {
        let version = cryptobench_suite_pubkey::algorithms::by_name(name)
            .and_then(|a| {
                cryptobench_suite_pubkey::entries(a)
                    .into_iter()
                    .find(|(b, _, _)| *b == ML_DSA_BACKEND)
            })
            .map(|(_, v, _)| v)
            .unwrap_or_default();
        let s = spec(name, ML_DSA_BACKEND, version, SIGN_SINGLE)
            .group(id.as_str())
            .min_rounds(rounds)
            .label("post-quantum")
            .expect_ns(150e3);
        out.push(PlannedCase::ready(s, move || {
            Ok(Box::new(SignTail::new(name)?) as Box<dyn Case>)
        }));
    }
}

/// Whole handshakes on every core (or `--threads N`), aws-lc-rs: every
/// row with `--full`, else each group with the first certificate.
fn multi_core(g: &Grid, cfg: &RunConfig, out: &mut Vec<PlannedCase>) {
    let n = cores(cfg);
    let aws: &'static dyn Provider = &provider::AwsLcRs;
    if n < 2 || !g.providers.iter().any(|p| p.name() == aws.name()) {
        return;
    }
    let certs: Vec<&'static Cert> = if cfg.full {
        g.certs.clone()
    } else {
        g.certs.first().copied().into_iter().collect()
    };
    for cert in certs {
        for &group in &g.groups {
            if aws.offer(group) != Offer::Runs {
                continue;
            }
            let s = rustls_spec(aws, group.name, cert, Role::Handshake, false)
                .threads(n)
                .expect_ns(400e3 / f64::from(n));
            out.push(rustls(s, pair(aws, Some(group), cert), Role::Handshake));
        }
    }
}
