//! The tls suite's checks, wire sizes and peer lifecycle, on real
//! handshakes and real `openssl` processes.

use cryptobench_core::{Case, CheckOutcome, RunConfig, Setup, Suite};
use cryptobench_suite_tls::catalog::{cert, group, Cert, Group};
use cryptobench_suite_tls::checks::{check_pair, group_check, tamper_check};
use cryptobench_suite_tls::error::TlsError;
use cryptobench_suite_tls::exchange::{Pair, PairSpec};
use cryptobench_suite_tls::peer::{PeerFiles, SServer, LOOPBACK};
use cryptobench_suite_tls::peer_case::STimeCase;
use cryptobench_suite_tls::provider::{AwsLcRs, Provider, Ring};
use cryptobench_suite_tls::{certs, Options, TlsSuite};
use std::os::unix::fs::PermissionsExt;

fn g(name: &str) -> &'static Group {
    group(name).expect("a group of the table")
}

fn c(name: &str) -> &'static Cert {
    cert(name).expect("a certificate of the table")
}

fn spec(provider: &'static dyn Provider, group: &str, cert: &str) -> PairSpec {
    PairSpec {
        provider,
        group: Some(g(group)),
        cert: c(cert),
        null_signature: false,
        resumed: false,
    }
}

/// The openssl program, or a loud failure saying how to install it.
fn need_openssl() {
    if let Err(e) = cryptobench_engine::build::peers::openssl_cli_version() {
        panic!("this test needs the openssl program ({e}); install it: apt-get install openssl");
    }
}

fn all_pass(checks: &[cryptobench_core::CheckResult]) {
    for ch in checks {
        assert_eq!(ch.outcome, CheckOutcome::Pass, "{}: {}", ch.name, ch.detail);
    }
}

#[test]
fn every_row_of_every_provider_passes_its_checks() {
    for p in [&AwsLcRs as &'static dyn Provider, &Ring] {
        for gr in cryptobench_suite_tls::catalog::GROUPS {
            if p.kx_group(gr).is_none() {
                continue;
            }
            for ce in ["ECDSA-P256", "Ed25519", "RSA-2048"] {
                let mut pair = Pair::new(spec(p, gr.name, ce)).unwrap();
                let (checks, wire) = check_pair(&mut pair);
                all_pass(&checks);
                assert!(wire.is_some());
            }
        }
    }
    // Resumed rows resume, and the stand-ins of the breakdown still finish.
    let mut resumed = Pair::new(PairSpec {
        resumed: true,
        ..spec(&AwsLcRs, "X25519MLKEM768", "ECDSA-P256")
    })
    .unwrap();
    all_pass(&check_pair(&mut resumed).0);
    let null = PairSpec {
        group: None,
        null_signature: true,
        ..spec(&AwsLcRs, "X25519", "RSA-2048")
    };
    all_pass(&check_pair(&mut Pair::new(null).unwrap()).0);
}

#[test]
fn a_tampered_flight_and_a_wrong_group_are_refused() {
    let mut pair = Pair::new(spec(&AwsLcRs, "X25519", "ECDSA-P256")).unwrap();
    assert_eq!(tamper_check(&mut pair).outcome, CheckOutcome::Pass);
    assert!(pair.handshake(true).is_err(), "a flipped bit went through");

    // A finished handshake on another group fails the group check.
    let mut other = Pair::new(spec(&AwsLcRs, "secp256r1", "ECDSA-P256")).unwrap();
    let done = other.handshake(false).unwrap();
    let check = group_check(&pair, &done);
    assert_eq!(check.outcome, CheckOutcome::Fail, "{}", check.detail);
    assert_eq!(group_check(&other, &done).outcome, CheckOutcome::Pass);

    // A server without the asked group: a retry, which the checks refuse.
    let mut wrong =
        Pair::with_server_groups(spec(&AwsLcRs, "X25519", "ECDSA-P256"), &[g("secp256r1")])
            .unwrap();
    let (checks, wire) = check_pair(&mut wrong);
    assert!(wire.is_none());
    assert!(
        checks.iter().any(|ch| ch.outcome == CheckOutcome::Fail),
        "{checks:?}"
    );
}

fn wire(provider: &'static dyn Provider, group: &str, cert: &str) -> (i64, i64) {
    let mut pair = Pair::new(spec(provider, group, cert)).unwrap();
    let w = pair.handshake(false).unwrap().wire;
    (w.client_hello as i64, w.server_flight as i64)
}

#[test]
fn the_hybrid_adds_its_ml_kem_bytes_to_each_flight() {
    // Ed25519 and RSA signatures have one length, so the flights differ by
    // the key shares alone: ML-KEM-768's encapsulation key (1184 B) in the
    // ClientHello, its ciphertext (1088 B) in the server's flight.
    for cert in ["Ed25519", "RSA-2048"] {
        let (ch, sf) = wire(&AwsLcRs, "X25519", cert);
        let (hch, hsf) = wire(&AwsLcRs, "X25519MLKEM768", cert);
        assert_eq!(hch - ch, 1184, "{cert} ClientHello");
        assert_eq!(hsf - sf, 1088, "{cert} server flight");
        let (mch, msf) = wire(&AwsLcRs, "MLKEM768", cert);
        assert_eq!(
            (mch - ch, msf - sf),
            (1184 - 32, 1088 - 32),
            "{cert} MLKEM768"
        );
    }
    // An ECDSA signature's DER length varies by a byte or two.
    let (ch, sf) = wire(&AwsLcRs, "X25519", "ECDSA-P256");
    let (hch, hsf) = wire(&AwsLcRs, "X25519MLKEM768", "ECDSA-P256");
    assert_eq!(hch - ch, 1184);
    assert!((hsf - sf - 1088).abs() <= 2, "{}", hsf - sf);
    // Both providers' servers send the same flight (ring's ClientHello
    // lists fewer signature schemes).
    assert_eq!(
        wire(&Ring, "X25519", "Ed25519").1,
        wire(&AwsLcRs, "X25519", "Ed25519").1
    );
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.contains(") Z "))
        .unwrap_or(false)
}

#[test]
fn s_server_starts_answers_and_is_killed_with_no_process_left() {
    need_openssl();
    for bind in ["0.0.0.0", "::1", "127.0.0.2", "192.168.1.1"] {
        let set = certs::get(c("ECDSA-P256")).unwrap();
        let files = PeerFiles::write(&set, g("X25519")).unwrap();
        match SServer::start(bind.parse().unwrap(), &files) {
            Err(TlsError::NotLoopback(_)) => {}
            Err(e) => panic!("{bind}: {e}"),
            Ok(_) => panic!("{bind}: s_server started"),
        }
    }

    let set = certs::get(c("ECDSA-P256")).unwrap();
    let files = PeerFiles::write(&set, g("X25519")).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(files.dir()), 0o700);
    assert_eq!(mode(&files.key), 0o600);
    let server = SServer::start(LOOPBACK, &files).unwrap();
    let pid = server.pid().unwrap();
    assert!(alive(pid));
    assert!(std::net::TcpStream::connect((LOOPBACK, server.port())).is_ok());
    drop(server);
    assert!(!alive(pid), "s_server {pid} still runs after its drop");

    // The peer case: its checks pass, one s_time run counts connections
    // and the server's CPU, and dropping the case ends its server.
    let mut case = STimeCase::new(g("X25519"), c("ECDSA-P256")).unwrap();
    all_pass(&case.checks());
    let batch = case.time_batch(1).unwrap().unwrap();
    assert!(batch.iters > 0, "{batch:?}");
    let per_handshake = batch.wall_ns / batch.iters as f64;
    assert!(
        per_handshake > 1e3 && per_handshake < 1e8,
        "{per_handshake} ns"
    );
    let extra = case.extra();
    assert!(
        extra
            .iter()
            .any(|(k, v)| k == "peer_client_cpu_ns" && *v > 0.0),
        "{extra:?}"
    );
    let children = children_of_this_process();
    assert!(!children.is_empty(), "the case's s_server is a child");
    drop(case);
    let left: Vec<u32> = children.into_iter().filter(|p| alive(*p)).collect();
    assert!(left.is_empty(), "processes left after the case: {left:?}");
}

/// Processes whose parent is this test process.
fn children_of_this_process() -> Vec<u32> {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    let after = s.rsplit_once(") ")?.1.to_string();
                    after.split_whitespace().nth(1).map(|pp| pp == me)
                })
                .unwrap_or(false)
        })
        .collect()
}

#[test]
fn the_quick_plan_is_small_and_every_case_names_its_row() {
    let plan = TlsSuite::default().plan(&RunConfig::quick()).unwrap();
    let ready = plan
        .iter()
        .filter(|p| matches!(p.setup, Setup::Ready(_)))
        .count();
    assert!((8..=16).contains(&ready), "{ready} quick cases");
    for p in &plan {
        assert_eq!(p.spec.suite, "tls");
    }
    let named = TlsSuite {
        options: Options {
            groups: Some(vec![g("MLKEM768")]),
            certs: Some(vec![c("Ed25519")]),
            no_peers: true,
            ..Options::default()
        },
    };
    let plan = named.plan(&RunConfig::default()).unwrap();
    // ring has no MLKEM768: only aws-lc-rs rows.
    assert!(plan
        .iter()
        .filter(|p| p.spec.primitive == "MLKEM768")
        .all(|p| p.spec.backend != "rustls/ring"));
    assert!(plan.iter().all(|p| !p.spec.backend.starts_with("peer:")));
}
