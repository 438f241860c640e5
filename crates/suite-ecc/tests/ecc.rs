//! Behaviour of the ecc suite: curve enumeration, the key checks (and that
//! they catch a corrupted key), cross-backend agreement, classification,
//! band winners, the paper's verdicts and the command-line rules.

use cryptobench_core::{CheckOutcome, Error, RunConfig, Setup, Suite};
use cryptobench_suite_ecc::curves::{self, Family, Kind};
use cryptobench_suite_ecc::ops::{CurveOps, KeyError, Op};
use cryptobench_suite_ecc::ossl::{self, Api, OsslEc, OsslEdx};
use cryptobench_suite_ecc::summary::{self, KeygenRow};
use cryptobench_suite_ecc::{cli::EccArgs, kat, paper, rc, EccSuite};
use openssl::bn::BigNumContext;
use openssl::ec::{EcGroup, EcKey, PointConversionForm};
use openssl::nid::Nid;
use openssl::pkey::{Id, PKey};

fn curve(name: &str) -> &'static curves::Curve {
    curves::resolve(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_all_pass(what: &str, checks: &[cryptobench_core::CheckResult]) {
    assert!(!checks.is_empty(), "{what}: no checks ran");
    for c in checks {
        assert_ne!(
            c.outcome,
            CheckOutcome::Fail,
            "{what}: {} failed: {}",
            c.name,
            c.detail
        );
    }
    assert!(
        checks.iter().any(|c| c.outcome == CheckOutcome::Pass),
        "{what}: nothing passed"
    );
}

#[test]
fn enumeration_finds_the_builtin_curves() {
    let all = curves::catalogue();
    let named = all
        .iter()
        .filter(|c| matches!(c.kind, Kind::Weierstrass(_)))
        .count();
    assert!(named >= 80, "only {named} named curves");
    assert_eq!(named, curves::builtin_curves().len());
    for name in [
        "prime256v1",
        "secp384r1",
        "brainpoolP512t1",
        "X25519",
        "X448",
        "Ed25519",
        "Ed448",
    ] {
        let c = curve(name);
        assert!(c.unsupported.is_none(), "{name}: {:?}", c.unsupported);
    }
    let p256 = curve("prime256v1");
    assert_eq!(
        (p256.key_bits, p256.order_bits, p256.cofactor),
        (256, 256, 1)
    );
    assert!(!p256.binary);
    let k163 = curve("sect163k1");
    assert!(k163.binary && k163.cofactor == 2 && k163.key_bits == 163);
}

#[test]
fn key_checks_pass_on_a_handful_of_curves() {
    for name in [
        "prime256v1",
        "secp384r1",
        "brainpoolP512t1",
        "sect163k1",
        "c2pnb176v1",
        "SM2",
    ] {
        let c = curve(name);
        for api in [Api::EcKey, Api::Evp] {
            let mut ops = OsslEc::new(c, api, Op::Keygen).expect(name);
            assert_all_pass(name, &ops.checks(Op::Keygen));
            ops.keygen().expect(name);
        }
    }
    for kind in [Kind::X25519, Kind::X448, Kind::Ed25519, Kind::Ed448] {
        let mut ops = OsslEdx::new(kind, Op::Keygen).unwrap();
        let checks = ops.checks(Op::Keygen);
        assert_all_pass(&format!("{kind:?}"), &checks);
        assert!(checks
            .iter()
            .any(|c| c.name.starts_with("kat:") && c.outcome == CheckOutcome::Pass));
    }
}

#[test]
fn key_check_catches_a_corrupted_public_key() {
    for name in ["prime256v1", "sect233k1", "brainpoolP256t1"] {
        let c = curve(name);
        let Kind::Weierstrass(nid) = c.kind else {
            unreachable!()
        };
        let group = EcGroup::from_curve_name(Nid::from_raw(nid)).unwrap();
        let key = EcKey::generate(&group).unwrap();
        assert!(ossl::check_key_pair(&group, key.private_key(), key.public_key()).is_ok());
        let bad = ossl::corrupted_public(&group, key.public_key()).unwrap();
        let err = ossl::check_key_pair(&group, key.private_key(), &bad).unwrap_err();
        assert_eq!(err, KeyError::NotDTimesG, "{name}");
        // A flipped bit in the encoded point: off the curve or the wrong point.
        let mut ctx = BigNumContext::new().unwrap();
        let mut sec1 = key
            .public_key()
            .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)
            .unwrap();
        let last = sec1.len() - 1;
        sec1[last] ^= 1;
        let d = key.private_key().to_vec();
        assert!(
            ossl::check_foreign_key(nid, &d, &sec1).is_err(),
            "{name}: flipped bit accepted"
        );
    }
    // The 25519 path: a public key of another private key is refused.
    let a = PKey::generate_ed25519().unwrap();
    let b = PKey::generate_ed25519().unwrap();
    let err = rc::check_edx_key(
        Kind::Ed25519,
        &a.raw_private_key().unwrap(),
        &b.raw_public_key().unwrap(),
    );
    assert!(err.is_err());
}

#[test]
fn openssl_and_rustcrypto_agree_on_the_five_curves() {
    for name in ["prime256v1", "secp384r1", "secp521r1", "secp256k1"] {
        let c = curve(name);
        let Kind::Weierstrass(nid) = c.kind else {
            unreachable!()
        };
        let group = EcGroup::from_curve_name(Nid::from_raw(nid)).unwrap();
        let mut ctx = BigNumContext::new().unwrap();
        for _ in 0..3 {
            let key = EcKey::generate(&group).unwrap();
            let len = group.order_bits().div_ceil(8) as i32;
            let d = key.private_key().to_vec_padded(len).unwrap();
            let ours = key
                .public_key()
                .to_bytes(&group, PointConversionForm::UNCOMPRESSED, &mut ctx)
                .unwrap();
            assert_eq!(
                rc::public_from_scalar(name, &d),
                Some(ours.clone()),
                "{name}"
            );
            assert_eq!(ossl::public_from_scalar(nid, &d).unwrap(), ours, "{name}");
        }
    }
    for (kind, key) in [
        (Kind::Ed25519, PKey::generate_ed25519()),
        (Kind::X25519, PKey::generate_x25519()),
    ] {
        let key = key.unwrap();
        let (d, q) = (
            key.raw_private_key().unwrap(),
            key.raw_public_key().unwrap(),
        );
        rc::check_edx_key(kind, &d, &q).unwrap();
    }
    // RFC 6979 A.2.5: OpenSSL and RustCrypto both give the published point.
    let Kind::Weierstrass(nid) = curve("P-256").kind else {
        unreachable!()
    };
    let check = kat::check_vector(&kat::P256, "OpenSSL", |d| ossl::public_from_scalar(nid, d));
    assert_eq!(check.outcome, CheckOutcome::Pass, "{}", check.detail);
    let check = kat::check_vector(&kat::P256, "RustCrypto", |d| {
        rc::public_from_scalar("prime256v1", d).ok_or_else(|| KeyError::Library("refused".into()))
    });
    assert_eq!(check.outcome, CheckOutcome::Pass, "{}", check.detail);
    let _ = Id::EC;
}

/// Every runnable case of a small plan passes its checks and runs.
#[test]
fn planned_cases_pass_checks_for_every_operation() {
    let suite = EccSuite {
        curves: Some(
            [
                "prime256v1",
                "secp521r1",
                "secp256k1",
                "X25519",
                "Ed25519",
                "X448",
                "Ed448",
                "sect283k1",
            ]
            .map(String::from)
            .to_vec(),
        ),
        operations: Op::ALL.to_vec(),
        keys: Some(3),
        ..EccSuite::default()
    };
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    let mut ran = 0;
    for p in &plan {
        let Setup::Ready(factory) = &p.setup else {
            continue;
        };
        let what = format!(
            "{} {} {} {:?}",
            p.spec.primitive,
            p.spec.backend,
            p.spec.operation,
            p.spec.params.get("api")
        );
        let mut case = factory().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_all_pass(&what, &case.checks());
        case.run_batch(2).unwrap_or_else(|e| panic!("{what}: {e}"));
        if p.spec.operation == "keygen" {
            assert_eq!(case.fixed_iterations(), Some(3));
        }
        ran += 1;
    }
    assert!(ran >= 35, "only {ran} cases ran");
    // Every registered backend runs at least one of these curves.
    for backend in cryptobench_suite_ecc::backend::all() {
        assert!(
            plan.iter()
                .any(|p| p.spec.backend == backend.name() && matches!(p.setup, Setup::Ready(_))),
            "{} missing",
            backend.name()
        );
    }
    // Signature-only and agreement-only curves say why, instead of vanishing.
    let x_sign = plan
        .iter()
        .find(|p| p.spec.primitive == "X25519" && p.spec.operation == "sign")
        .unwrap();
    assert!(matches!(&x_sign.setup, Setup::Unavailable(r) if r.contains("key-agreement")));
}

#[test]
fn families_are_classified_as_in_the_seed() {
    let cases = [
        ("brainpoolP160r1", Family::Brainpool),
        ("prime239v2", Family::Prime),
        ("c2pnb163v1", Family::C2pnb),
        ("c2tnb431r1", Family::C2tnb),
        ("secp256k1", Family::Secp),
        ("sect571r1", Family::Sect),
        ("Ed448", Family::EdwardsMontgomery),
        ("wap-wsg-idm-ecid-wtls12", Family::Other),
        ("SM2", Family::Other),
        ("Oakley-EC2N-3", Family::Other),
    ];
    for (name, family) in cases {
        assert_eq!(Family::of(name), family, "{name}");
    }
    assert_eq!(
        Family::resolve_list("brainpool, SECT,edwards").unwrap(),
        vec![Family::Brainpool, Family::Sect, Family::EdwardsMontgomery]
    );
    let e = Family::resolve_list("brainpol").unwrap_err().to_string();
    assert!(e.contains("did you mean Brainpool"), "{e}");
}

#[test]
fn labels_follow_the_curve_facts() {
    assert!(curve("prime256v1").labels().is_empty());
    let l = curve("secp112r1").labels();
    assert!(
        l.contains(&"< 112-bit security".to_string())
            && l.contains(&"not for new designs".to_string())
    );
    assert!(curve("sect283k1")
        .labels()
        .contains(&"binary curve (removed from TLS 1.3)".to_string()));
    assert_eq!(curve("X25519").labels(), vec!["cofactor > 1".to_string()]);
    assert_eq!(curve("secp521r1").security_bits(), 260);
}

fn row(name: &str, bits: u32, ms: f64) -> KeygenRow {
    KeygenRow {
        curve: name.to_string(),
        family: Family::of(name),
        key_bits: bits,
        security_bits: bits / 2,
        time_ns: ms * 1e6,
        mean_ns: ms * 1e6,
        ci95: [ms * 1e6; 2],
        path: "openssl EC_KEY".into(),
        labels: Vec::new(),
    }
}

#[test]
fn seed_ratio_and_band_winners_on_synthetic_measurements() {
    let p256 = row("prime256v1", 256, 2.85);
    assert!((p256.seed_ratio_pct() - 1.11).abs() < 0.01);
    let rows = vec![
        row("secp112r1", 112, 0.1),
        row("prime192v1", 192, 4.0),
        row("brainpoolP192r1", 192, 3.0),
        row("secp224r1", 224, 5.0),
        p256.clone(),
        row("brainpoolP320r1", 320, 2.0),
        row("secp384r1", 384, 9.0),
        row("brainpoolP512r1", 512, 13.0),
        row("sect571r1", 571, 12.0),
    ];
    let winners = summary::band_winners(&rows);
    let by_ratio: Vec<Option<String>> = winners
        .iter()
        .map(|(_, r, _)| r.as_ref().map(|x| x.curve.clone()))
        .collect();
    assert_eq!(
        by_ratio,
        vec![
            Some("brainpoolP192r1".into()),
            Some("secp224r1".into()),
            Some("brainpoolP320r1".into()),
            Some("secp384r1".into()),
            Some("sect571r1".into()),
        ]
    );
    let avgs = summary::family_averages(&rows);
    let brainpool = avgs.iter().find(|a| a.0 == Family::Brainpool).unwrap();
    assert_eq!(brainpool.1, 3);
    let expected = (3.0 / 192.0 + 2.0 / 320.0 + 13.0 / 512.0) * 100.0 / 3.0;
    assert!((brainpool.2 - expected).abs() < 1e-9);
}

#[test]
fn the_seeds_own_figures_reproduce_its_conclusions() {
    let rows: Vec<KeygenRow> = paper::seed_tables()
        .iter()
        .flat_map(|(_, _, t, _)| t.iter())
        .map(|&(n, bits, ms, _)| row(n, bits, ms))
        .collect();
    let ranking: Vec<Family> = paper::ranking_here(&rows)
        .into_iter()
        .map(|r| r.0)
        .collect();
    let seed: Vec<Family> = paper::ranking_seed().into_iter().map(|r| r.0).collect();
    assert_eq!(ranking, seed);
    for line in paper::conclusions(&rows) {
        assert!(line.starts_with("holds here"), "{line}");
    }
    // Slower prime curves flip the first verdict.
    let mut slow = rows.clone();
    for r in slow.iter_mut().filter(|r| r.family == Family::Prime) {
        r.time_ns *= 3.0;
        r.ci95 = [r.ci95[0] * 3.0, r.ci95[1] * 3.0];
    }
    let first = &paper::conclusions(&slow)[0];
    assert!(first.starts_with("differs here"), "{first}");
}

#[test]
fn aliases_resolve_and_typos_get_did_you_mean() {
    for alias in ["P-256", "p256", "secp256r1", "PRIME256V1", "prime256v1"] {
        assert_eq!(curve(alias).name, "prime256v1", "{alias}");
    }
    assert_eq!(curve("P-384").name, "secp384r1");
    assert_eq!(curve("k-571").name, "sect571k1");
    assert_eq!(curve("curve25519").name, "X25519");
    let e = curves::resolve("prime256v2").unwrap_err();
    assert!(matches!(e, Error::Usage(_)));
    assert!(e.to_string().contains("did you mean prime256v1"), "{e}");
    let list = curves::resolve_list("P-256, secp256r1,ed25519").unwrap();
    assert_eq!(list.len(), 2);
}

#[test]
fn bad_options_are_usage_errors() {
    for bad in ["0", "-1", "1000000000", "many"] {
        let args = EccArgs {
            keys: Some(bad.into()),
            ..EccArgs::default()
        };
        assert!(
            matches!(args.suite(), Err(Error::Usage(m)) if m.contains("--keys") && m.contains("1 to 10000")),
            "{bad}"
        );
    }
    let suite = EccSuite {
        keys: Some(0),
        ..EccSuite::default()
    };
    assert!(matches!(
        suite.plan(&RunConfig::quick()),
        Err(Error::Usage(_))
    ));
    let bad_op = EccArgs {
        operations: Some("keygen,sing".into()),
        ..EccArgs::default()
    };
    let e = bad_op.suite().unwrap_err().to_string();
    assert!(e.contains("did you mean sign"), "{e}");
    let bad_curve = EccArgs {
        curves: Some("brainpoolP521r1".into()),
        ..EccArgs::default()
    };
    assert!(matches!(bad_curve.suite(), Err(Error::Usage(_))));
    let ok = EccArgs {
        curves: Some("P-256,X25519".into()),
        operations: Some("Keygen,ECDH".into()),
        api: Some("evp".into()),
        keys: Some("5".into()),
        ..EccArgs::default()
    };
    let suite = ok.suite().unwrap();
    assert_eq!(suite.operations, vec![Op::Keygen, Op::Ecdh]);
    assert_eq!(suite.apis, Some(vec![Api::Evp]));
}

#[test]
fn default_plan_covers_every_curve_with_keygen_only() {
    let plan = EccSuite::seed().plan(&RunConfig::quick()).unwrap();
    let all = curves::catalogue();
    for c in all {
        assert!(
            plan.iter()
                .any(|p| p.spec.primitive == c.name && p.spec.backend == "openssl"),
            "{}",
            c.name
        );
    }
    assert!(plan.iter().all(|p| p.spec.operation == "keygen"));
    let p256: Vec<_> = plan
        .iter()
        .filter(|p| p.spec.primitive == "prime256v1" && p.spec.backend == "openssl")
        .map(|p| p.spec.params["api"].clone())
        .collect();
    assert_eq!(p256, vec!["EC_KEY", "EVP"]);
}

#[test]
fn full_runs_plan_the_openssl_speed_peer_and_default_and_quick_runs_do_not() {
    let suite = EccSuite {
        curves: Some(vec!["prime256v1".into()]),
        ..EccSuite::default()
    };
    let peer = |cfg: &RunConfig| {
        suite
            .plan(cfg)
            .unwrap()
            .into_iter()
            .filter(|p| p.spec.backend == "peer:openssl-speed")
            .map(|p| (p.spec.primitive, p.spec.operation))
            .collect::<Vec<_>>()
    };
    let full = RunConfig {
        full: true,
        ..RunConfig::default()
    };
    assert_eq!(
        peer(&full),
        vec![("prime256v1".to_string(), "sign".to_string())]
    );
    assert!(peer(&RunConfig::default()).is_empty());
    assert!(peer(&RunConfig::quick()).is_empty());
    let mut named = RunConfig::quick();
    named.backends = Some(vec!["peer:openssl-speed".into()]);
    assert_eq!(peer(&named).len(), 1);
}

#[test]
fn curves_openssl_marks_unfit_for_ecdsa_are_unavailable_for_signing() {
    let suite = EccSuite {
        curves: Some(vec!["Oakley-EC2N-3".into()]),
        operations: vec![Op::Keygen, Op::Sign],
        ..EccSuite::default()
    };
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    let sign = plan.iter().find(|p| p.spec.operation == "sign").unwrap();
    assert!(matches!(&sign.setup, Setup::Unavailable(r) if r.contains("Not suitable for ECDSA")));
    let keygen = plan.iter().find(|p| p.spec.operation == "keygen").unwrap();
    assert!(matches!(keygen.setup, Setup::Ready(_)));
}

#[test]
fn the_default_run_times_the_headline_curves_and_full_every_curve() {
    use cryptobench_suite_ecc::HEADLINE_CURVES;
    let curves_of = |suite: &EccSuite, cfg: &RunConfig| -> std::collections::BTreeSet<String> {
        suite
            .plan(cfg)
            .unwrap()
            .iter()
            .filter(|p| p.spec.backend == "openssl")
            .map(|p| p.spec.primitive.clone())
            .collect()
    };
    let every: std::collections::BTreeSet<String> =
        curves::catalogue().iter().map(|c| c.name.clone()).collect();
    let headline: std::collections::BTreeSet<String> =
        HEADLINE_CURVES.iter().map(|c| c.to_string()).collect();
    assert!(headline.is_subset(&every), "a headline name is no curve");
    let default = RunConfig::default();
    assert_eq!(curves_of(&EccSuite::default(), &default), headline);
    assert_eq!(
        curves_of(&EccSuite::default(), &RunConfig::quick()),
        headline
    );
    let full = RunConfig {
        full: true,
        ..RunConfig::default()
    };
    assert_eq!(curves_of(&EccSuite::default(), &full), every);
    // The seed's experiment (`cryptobench ecc`, `paper ecc-keygen`).
    assert_eq!(curves_of(&EccSuite::seed(), &default), every);
    let command = cryptobench_suite_ecc::cli::EccArgs::default()
        .suite()
        .unwrap();
    assert_eq!(curves_of(&command, &default), every);
}
