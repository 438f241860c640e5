//! Unit tests over the whole registry: every available entry passes its
//! checks, and the checks can fail.

use crate::algorithms::{Kind, ALGORITHMS};
use crate::checks;
use crate::engines::{agreements, kems, signers};
use cryptobench_core::CheckOutcome;

fn available(kind: Kind) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    match kind {
        Kind::Kem => {
            for e in kems().iter().filter(|e| e.available().is_ok()) {
                out.push((e.algorithm().name, e.backend()));
            }
        }
        Kind::Agreement => {
            for e in agreements().iter().filter(|e| e.available().is_ok()) {
                out.push((e.algorithm().name, e.backend()));
            }
        }
        Kind::Signature => {
            for e in signers().iter().filter(|e| e.available().is_ok()) {
                out.push((e.algorithm().name, e.backend()));
            }
        }
    }
    out
}

fn assert_checks_pass(kind: Kind) {
    assert_checks_pass_where(kind, |_| true);
}

/// [`assert_checks_pass`] for the entries whose algorithm name passes
/// `wanted`.
fn assert_checks_pass_where(kind: Kind, wanted: impl Fn(&str) -> bool) {
    let mut failures = Vec::new();
    let entries: Vec<_> = available(kind)
        .into_iter()
        .filter(|(name, _)| wanted(name))
        .collect();
    assert!(!entries.is_empty(), "no {kind:?} entry is available");
    for (name, backend) in entries {
        let alg = ALGORITHMS.iter().find(|a| a.name == name).unwrap();
        for c in checks::run(alg, backend) {
            eprintln!(
                "{name:<20} {backend:<20} {:<40} {:?} {}",
                c.name, c.outcome, c.detail
            );
            if c.outcome == CheckOutcome::Fail {
                failures.push(format!("{name} {backend} {}: {}", c.name, c.detail));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_kem_entry_passes_its_checks() {
    assert_checks_pass(Kind::Kem);
}

#[test]
fn every_agreement_entry_passes_its_checks() {
    assert_checks_pass(Kind::Agreement);
}

/// An EC secret scalar must lie in 1..n: every ECDH-P256 entry refuses 0
/// and the group order n, and takes n - 1, whose share is -G.
#[test]
fn every_ecdh_p256_entry_refuses_scalars_outside_one_to_the_order() {
    const ORDER: &str = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
    const ORDER_LESS_ONE: &str = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550";
    let entries: Vec<_> = agreements()
        .into_iter()
        .filter(|e| e.algorithm().name == "ECDH-P256" && e.available().is_ok())
        .collect();
    assert!(entries.len() >= 2, "ECDH-P256 entries: {}", entries.len());
    for e in &entries {
        for (name, scalar) in [("0", "00".repeat(32)), ("n", ORDER.to_string())] {
            let bytes = hex::decode(&scalar).unwrap();
            assert!(
                e.import_secret(&bytes).is_err(),
                "{} took the scalar {name}",
                e.backend()
            );
        }
        let key = e
            .import_secret(&hex::decode(ORDER_LESS_ONE).unwrap())
            .unwrap_or_else(|why| panic!("{} refused n - 1: {why}", e.backend()));
        // -G: the generator's x and p - y (SEC 2's G, uncompressed).
        let minus_g = concat!(
            "04",
            "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296",
            "b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a"
        );
        assert_eq!(hex::encode(key.public_key()), minus_g, "{}", e.backend());
    }
}

// SLH-DSA signs for seconds (the small "s" sets), so its entries have a
// test of their own, which runs beside the others.
fn is_slh_dsa(name: &str) -> bool {
    name.starts_with("SLH-DSA")
}

#[test]
fn every_signature_entry_but_slh_dsa_passes_its_checks() {
    assert_checks_pass_where(Kind::Signature, |name| !is_slh_dsa(name));
}

#[test]
fn every_slh_dsa_entry_passes_its_checks() {
    assert_checks_pass_where(Kind::Signature, is_slh_dsa);
}

#[test]
fn liboqs_ml_dsa_is_unavailable_while_it_fails_wycheproof() {
    // liboqs 0.13's AVX2 verify accepts signatures with ||z|| out of bound.
    let entry = signers()
        .into_iter()
        .find(|e| e.backend() == "liboqs" && e.algorithm().name == "ML-DSA-44")
        .unwrap();
    let why = entry.available().unwrap_err().into_reason();
    assert!(why.contains("wycheproof:mldsa_44_verify_test"), "{why}");
    let alg = ALGORITHMS.iter().find(|a| a.name == "ML-DSA-44").unwrap();
    assert!(!checks::all_pass(&checks::run(alg, "liboqs")));
}

mod plan_and_views {
    use crate::{handshake, summary, PubkeySuite, HEADLINE, SUITE};
    use cryptobench_core::advice::ADVICE_ROUNDS;
    use cryptobench_core::{CaseSpec, CaseStatus, Measurement, RunConfig, Setup, Suite, Summary};

    #[test]
    fn quick_plan_is_the_headline_cells_paired_by_set_and_operation() {
        let plan = PubkeySuite::default().plan(&RunConfig::quick()).unwrap();
        for (alg, ops) in HEADLINE {
            for op in *ops {
                assert!(
                    plan.iter().any(|c| c.spec.primitive == *alg
                        && c.spec.operation == *op
                        && matches!(c.setup, Setup::Ready(_))),
                    "{alg} {op} missing"
                );
            }
        }
        // A security level's curve families share a group per operation,
        // so the curve advice weighs them side by side; the hybrid key
        // share's encapsulation joins X25519's derive, which the key-share
        // advice weighs it against; the rest pair their own backends.
        let level = |prim: &str| match prim {
            "X25519" | "Ed25519" | "ECDH-P256" | "ECDSA-P256" => Some("128-bit"),
            "ECDH-P384" | "ECDSA-P384" => Some("192-bit"),
            "X448" | "Ed448" | "ECDH-P521" | "ECDSA-P521" => Some("256-bit"),
            _ => None,
        };
        for c in &plan {
            let (prim, op) = (&c.spec.primitive, &c.spec.operation);
            let expected = match level(prim) {
                Some(level) => format!("{SUITE}/{level} curves/{op}"),
                None if (prim.as_str(), op.as_str()) == ("X25519MLKEM768", "encaps") => {
                    format!("{SUITE}/128-bit curves/derive")
                }
                None => format!("{SUITE}/{prim}/{op}"),
            };
            assert_eq!(c.spec.group.as_deref(), Some(expected.as_str()));
            // What the curve and key-share advice decide on samples the
            // advice's rounds; `openssl speed` peers and the rest, the
            // engine's own floor.
            let advised = expected.contains(" curves/") && !c.spec.backend.starts_with("peer:");
            let rounds = if advised { ADVICE_ROUNDS } else { 0 };
            assert_eq!(c.spec.min_rounds, rounds, "{prim} {op} {}", c.spec.backend);
        }
        let group_of = |prim: &str, op: &str| {
            plan.iter()
                .find(|c| c.spec.primitive == prim && c.spec.operation == op)
                .and_then(|c| c.spec.group.clone())
        };
        assert_eq!(
            group_of("X25519", "derive"),
            group_of("ECDH-P256", "derive")
        );
        // OpenSSL has no ML-KEM before 3.5: planned as unavailable, with why.
        assert!(plan.iter().any(|c| c.spec.backend == "openssl"
            && c.spec.primitive == "ML-KEM-768"
            && matches!(&c.setup, Setup::Unavailable(why) if why.contains("OpenSSL"))));
    }

    #[test]
    fn backend_filter_keeps_composites_by_their_kem_library() {
        let cfg = RunConfig {
            backends: Some(vec!["libcrux".into()]),
            ..RunConfig::quick()
        };
        let plan = PubkeySuite::default().plan(&cfg).unwrap();
        assert!(!plan.is_empty());
        assert!(plan
            .iter()
            .all(|c| c.spec.backend == "libcrux" || c.spec.backend == "libcrux+rustcrypto"));
    }

    fn cell(alg: &str, op: &str, backend: &str, ns: f64) -> Measurement {
        let mut m =
            CaseSpec::new(SUITE, alg, backend, "1", op).measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: ns,
            ..Summary::default()
        });
        m
    }

    #[test]
    fn the_summary_judges_each_openssl_speed_peer_two_sided() {
        // Same group, round by round: ours 6% slower than the peer in
        // every round for ECDSA, the same for X25519.
        let rounds = |ns: f64, factor: f64| -> Vec<f64> {
            (0..20)
                .map(|i| ns * factor * (1.0 + (i % 4) as f64 * 0.01))
                .collect()
        };
        let paired = |alg: &str, op: &str, backend: &str, samples: Vec<f64>| {
            let mut m = cell(alg, op, backend, samples[0]);
            m.group = Some(format!("{SUITE}/{alg}/{op}"));
            m.samples_ns = samples;
            m
        };
        let peer = cryptobench_engine::build::peers::OPENSSL_SPEED;
        let ours = crate::backend::openssl::NAME;
        let ms = vec![
            paired("ECDSA-P256", "sign", peer, rounds(20_000.0, 1.0)),
            paired("ECDSA-P256", "sign", ours, rounds(20_000.0, 1.06)),
            paired("X25519", "derive", peer, rounds(30_000.0, 1.0)),
            paired("X25519", "derive", ours, rounds(30_000.0, 1.0)),
            // RSA: the ready-digest row does the peer's work; `sign` hashes
            // the message too, 2% more.
            paired("RSA-2048-PKCS1", "sign", peer, rounds(1e6, 1.0)),
            paired("RSA-2048-PKCS1", "sign", ours, rounds(1e6, 1.02)),
            paired("RSA-2048-PKCS1", "sign-digest", ours, rounds(1e6, 1.0)),
        ];
        let lines = summary::headline(&ms);
        let line = |alg: &str| lines.iter().find(|l| l.contains(alg)).cloned().unwrap();
        assert!(
            line("ECDSA-P256").contains("slower than the peer: 0.943"),
            "{lines:?}"
        );
        assert!(line("X25519 derive").contains("met: 1.000"), "{lines:?}");
        let rsa = line("RSA-2048-PKCS1 sign of a ready digest");
        for part in [
            "= met: 1.000",
            "with hashing the message (our `sign`): 0.980",
        ] {
            assert!(rsa.contains(part), "{rsa}");
        }
    }

    #[test]
    fn a_sign_peer_gets_openssl_s_ready_digest_row_in_its_group() {
        let full = RunConfig {
            full: true,
            ..RunConfig::default()
        };
        let plan = PubkeySuite::default().plan(&full).unwrap();
        let like = |alg: &str| {
            plan.iter().find(|c| {
                c.spec.primitive == alg
                    && c.spec.backend == crate::backend::openssl::NAME
                    && c.spec.operation == "sign-digest"
            })
        };
        for (alg, group) in [
            ("ECDSA-P256", "128-bit curves"),
            ("RSA-2048-PKCS1", "RSA-2048-PKCS1"),
        ] {
            let c = like(alg).unwrap_or_else(|| panic!("{alg}: no sign-digest row"));
            assert!(matches!(c.setup, Setup::Ready(_)));
            assert_eq!(
                c.spec.group.as_deref(),
                Some(format!("{SUITE}/{group}/sign").as_str())
            );
        }
        // EdDSA signs whole messages: no such row.
        assert!(like("Ed25519").is_none());
        let quick = PubkeySuite::default().plan(&RunConfig::quick()).unwrap();
        assert!(quick.iter().all(|c| c.spec.operation != "sign-digest"));
        // A default run compares X25519 and ECDSA P-256 only.
        let default = PubkeySuite::default().plan(&RunConfig::default()).unwrap();
        let mut peers: Vec<&str> = default
            .iter()
            .filter(|c| c.spec.backend == cryptobench_engine::build::peers::OPENSSL_SPEED)
            .map(|c| c.spec.primitive.as_str())
            .collect();
        peers.sort_unstable();
        assert_eq!(peers, ["ECDSA-P256", "X25519"]);
        let digest_rows = default.iter().filter(|c| c.spec.operation == "sign-digest");
        assert!(digest_rows
            .map(|c| c.spec.primitive.as_str())
            .eq(["ECDSA-P256"]));
    }

    #[test]
    fn the_ready_digest_row_is_checked_then_signs() {
        let alg = crate::algorithms::by_name("ECDSA-P256").unwrap();
        let cache = std::sync::Arc::new(crate::checks::CheckCache::new());
        let mut case =
            crate::case::PubkeyCase::new(alg, "openssl", "sign-digest", cache.clone()).unwrap();
        use cryptobench_core::{Case, CheckOutcome};
        let checks = case.checks();
        let own = checks.iter().find(|c| c.name == "prehashed").unwrap();
        assert_eq!(own.outcome, CheckOutcome::Pass, "{}", own.detail);
        case.run_batch(3).unwrap();
        // A backend that signs whole messages says so.
        let rc = crate::case::PubkeyCase::new(alg, "rustcrypto", "sign-digest", cache);
        assert!(matches!(
            rc,
            Err(cryptobench_core::CaseError::Unavailable(_))
        ));
    }

    #[test]
    fn handshake_cost_adds_share_and_signature_and_counts_bytes() {
        let ms = vec![
            cell("X25519", "keygen", "a", 10_000.0),
            cell("X25519", "derive", "b", 30_000.0),
            cell("X25519", "derive", "c", 50_000.0),
            cell("X25519MLKEM768", "encaps", "a", 70_000.0),
            cell("Ed25519", "sign", "a", 20_000.0),
        ];
        assert_eq!(handshake::share_cost(&ms, "X25519").unwrap().ns, 40_000.0);
        let t = handshake::table(&ms).unwrap();
        let row = t.rows.iter().find(|r| r[0] == "X25519MLKEM768").unwrap();
        assert_eq!(row[3], "11111"); // 1e9 / 90 us
        assert_eq!(row[5], "2336"); // 1216 + 1120
        assert_eq!(row[6], "96"); // 64 + 32
        let line = handshake::advice(&ms).unwrap();
        assert!(line.contains("costs 30.0 us more"), "{line}");
        assert!(summary::headline(&ms)
            .iter()
            .any(|l| l.contains("costs 30.0 us more")));
    }

    #[test]
    fn table1_sets_the_measured_ratio_beside_the_key_ratio() {
        let ms = vec![
            cell("ECDSA-P256", "sign", "a", 20_000.0),
            cell("RSA-3072-PKCS1", "sign", "a", 2_000_000.0),
        ];
        let t = crate::table1::table(&ms).unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0][3], "1:12.0");
        assert!(t.rows[0][5].ends_with("1:100.0"), "{}", t.rows[0][5]);
        assert!(crate::table1::table(&ms[..1]).is_none());
    }
}

#[test]
fn the_default_run_leaves_large_rsa_key_generation_to_full() {
    let keygens = |cfg: &cryptobench_core::RunConfig| -> std::collections::BTreeSet<String> {
        crate::PubkeySuite::default()
            .grid(cfg)
            .into_iter()
            .filter(|(_, ops)| ops.contains(&crate::algorithms::KEYGEN))
            .map(|(a, _)| a.name.to_string())
            .collect()
    };
    let default = keygens(&cryptobench_core::RunConfig::default());
    assert!(default.contains("RSA-2048-PKCS1"), "{default:?}");
    assert!(!default.contains("RSA-3072-PKCS1") && !default.contains("RSA-4096-PKCS1"));
    assert!(default.contains("ML-KEM-768") && default.contains("Ed25519"));
    let full = keygens(&cryptobench_core::RunConfig {
        full: true,
        ..cryptobench_core::RunConfig::default()
    });
    assert!(full.contains("RSA-3072-PKCS1") && full.contains("RSA-4096-PKCS1"));
}
