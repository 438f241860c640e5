use super::*;
use crate::{CaseSpec, Summary};

/// A verified case with median `ns` and a 95% interval of +-`spread`.
fn case(
    suite: &str,
    prim: &str,
    backend: &str,
    op: &str,
    size: u64,
    ns: f64,
    spread: f64,
) -> Measurement {
    let mut m = CaseSpec::new(suite, prim, backend, "v", op)
        .size(size)
        .measurement(CaseStatus::Measured, None);
    m.stats = Some(Summary {
        median: ns,
        ci95: [ns * (1.0 - spread), ns * (1.0 + spread)],
        ..Summary::default()
    });
    m
}

fn sealed(prim: &str, ns: f64, spread: f64) -> Measurement {
    case("aead", prim, "openssl", "encrypt", 20_000_000, ns, spread)
}

/// Gives `m` the `rounds` it was timed in, its median from them and its
/// interval leaving out `trim` rounds at each end.
fn timed_in(m: &mut Measurement, rounds: Vec<f64>, trim: usize) {
    let mut sorted = rounds.clone();
    sorted.sort_by(f64::total_cmp);
    let s = m.stats.as_mut().unwrap();
    s.median = sorted[sorted.len() / 2];
    s.ci95 = [sorted[trim], sorted[sorted.len() - 1 - trim]];
    m.samples_ns = rounds;
}

/// Asserts `text` contains `part`, showing the whole text when not.
fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in: {text}");
}

/// Asserts `text` starts with `start`, showing the whole text when not.
fn opens_with(text: &str, start: &str) {
    assert!(text.starts_with(start), "{start:?} does not open: {text}");
}

#[test]
fn overlapping_candidates_resolve_by_rule_in_every_run() {
    // Two runs of the same machine: the medians swap places, the
    // intervals overlap, the choice stays.
    let first = vec![
        sealed("AES-256-GCM", 1000.0, 0.05),
        sealed("AEGIS-256", 990.0, 0.05),
    ];
    let second = vec![
        sealed("AES-256-GCM", 990.0, 0.05),
        sealed("AEGIS-256", 1000.0, 0.05),
    ];
    let picks: Vec<String> = [first, second]
        .iter()
        .map(|ms| super::aead(ms)[0].line())
        .map(|l| l.split(" for bulk").next().unwrap().to_string())
        .collect();
    assert_eq!(picks[0], picks[1]);
    assert_eq!(picks[0], "AEAD, bulk data: Use AES-256-GCM (openssl)");
    let ms = [
        sealed("AES-256-GCM", 1000.0, 0.05),
        sealed("AEGIS-256", 990.0, 0.05),
    ];
    let line = super::aead(&ms)[0].line();
    assert!(
        line.contains("tied within 5% on the intervals with AEGIS-256"),
        "{line}"
    );
}

#[test]
fn a_clearly_faster_candidate_wins_on_speed() {
    let ms = vec![
        sealed("AES-256-GCM", 2000.0, 0.02),
        sealed("AEGIS-128L", 1000.0, 0.02),
    ];
    let a = super::aead(&ms);
    let line = a[0].line();
    assert!(
        line.starts_with("AEAD, bulk data: Use AEGIS-128L (openssl)"),
        "{line}"
    );
    assert!(line.contains("2.00x AES-256-GCM"), "{line}");
    assert!(!line.contains("tied"), "{line}");
}

#[test]
fn the_gcm_yardstick_is_openssl_s_whichever_gcm_is_faster() {
    let gcm =
        |backend: &str, ns: f64| case("aead", "AES-256-GCM", backend, "encrypt", 1 << 20, ns, 0.01);
    let aegis = case(
        "aead",
        "AEGIS-128L",
        "libsodium",
        "encrypt",
        1 << 20,
        500.0,
        0.01,
    );
    for (openssl, sodium) in [(1000.0, 1200.0), (1200.0, 1000.0)] {
        let ms = vec![
            aegis.clone(),
            gcm("openssl", openssl),
            gcm("libsodium", sodium),
        ];
        let line = super::aead(&ms)[0].line();
        says(&line, "AES-256-GCM (openssl;");
        says(&line, &format!("{:.2}x", openssl / 500.0));
    }
    // Without OpenSSL's, the fastest GCM measured.
    let ms = vec![
        aegis.clone(),
        gcm("libsodium", 1000.0),
        gcm("rustcrypto", 1500.0),
    ];
    says(&super::aead(&ms)[0].line(), "AES-256-GCM (libsodium;");
}

#[test]
fn unauthenticated_or_failed_cases_are_never_advised() {
    let mut failed = sealed("AEGIS-128L", 100.0, 0.01);
    failed
        .checks
        .push(crate::CheckResult::fail("kat", "mismatch"));
    let ctr = case(
        "cipher",
        "AES-128-CTR",
        "openssl",
        "encrypt",
        20_000_000,
        50.0,
        0.01,
    );
    let ms = vec![failed, ctr, sealed("AES-256-GCM", 1000.0, 0.02)];
    let line = super::aead(&ms)[0].line();
    assert!(
        line.starts_with("AEAD, bulk data: Use AES-256-GCM"),
        "{line}"
    );
}

fn curve(prim: &str, op: &str, bits: u32, ns: f64, labels: &[&str]) -> Measurement {
    let mut m = case("ecc", prim, "openssl", op, 0, ns, 0.02);
    m.params.insert("security_bits".into(), bits.to_string());
    m.labels = labels.iter().map(|l| l.to_string()).collect();
    m
}

#[test]
fn curve_advice_leaves_binary_curves_out_and_weighs_use() {
    let binary = ["binary curve (removed from TLS 1.3)", "not for new designs"];
    let ms = vec![
        curve("c2tnb191v3", "keygen", 95, 10.0, &binary),
        curve("sect571r1", "keygen", 285, 10.0, &binary),
        curve("secp521r1", "keygen", 260, 900.0, &[]),
        curve("X448", "keygen", 224, 100.0, &[]),
        // X448 generates keys faster, P-521 agrees faster: use decides.
        curve("secp521r1", "ecdh", 260, 300.0, &[]),
        curve("X448", "ecdh", 224, 600.0, &[]),
    ];
    let advice = curves(&ms, None);
    assert_eq!(advice.len(), 1, "{advice:?}");
    let line = advice[0].line();
    assert!(
        line.starts_with("Curve, 256-bit: P-521, weighed on secp521r1 ecdh (openssl)"),
        "{line}"
    );
    assert!(
        line.contains("left out as deprecated binary curves: sect571r1"),
        "{line}"
    );
}

#[test]
fn curve_ties_go_to_the_standard_curve() {
    for (a, b) in [(100.0, 101.0), (101.0, 100.0)] {
        let ms = vec![
            curve("prime256v1", "ecdh", 128, a, &[]),
            curve("brainpoolP256r1", "ecdh", 128, b, &[]),
        ];
        let line = curves(&ms, None)[0].line();
        assert!(line.starts_with("Curve, 128-bit: P-256"), "{line}");
        assert!(
            line.contains("tied within 25% on the intervals with brainpoolP256r1"),
            "{line}"
        );
    }
}

fn pubkey(prim: &str, backend: &str, op: &str, us: f64, spread: f64) -> Measurement {
    case("pubkey", prim, backend, op, 0, us * 1e3, spread)
}

/// The pubkey suite's use of P-256 and Curve25519: `p256` and `c25519`
/// scale every figure; two backends per operation.
fn curve_use(p256: f64, c25519: f64, spread: f64) -> Vec<Measurement> {
    let mut ms = Vec::new();
    for (backend, slower) in [("openssl", 1.0), ("rustcrypto", 1.01)] {
        let k = slower;
        ms.push(pubkey(
            "ECDH-P256",
            backend,
            "derive",
            50.0 * p256 * k,
            spread,
        ));
        ms.push(pubkey(
            "ECDSA-P256",
            backend,
            "sign",
            20.0 * p256 * k,
            spread,
        ));
        ms.push(pubkey(
            "ECDSA-P256",
            backend,
            "verify",
            60.0 * p256 * k,
            spread,
        ));
        ms.push(pubkey(
            "X25519",
            backend,
            "derive",
            20.0 * c25519 * k,
            spread,
        ));
        ms.push(pubkey(
            "Ed25519",
            backend,
            "sign",
            10.0 * c25519 * k,
            spread,
        ));
        ms.push(pubkey(
            "Ed25519",
            backend,
            "verify",
            30.0 * c25519 * k,
            spread,
        ));
    }
    ms
}

#[test]
fn curves_are_weighed_on_agreement_sign_and_verify_not_keygen() {
    // Key generation alone favours P-256 (10 us against 40 us)...
    let keygen = vec![
        curve("prime256v1", "keygen", 128, 10_000.0, &[]),
        curve("X25519", "keygen", 128, 40_000.0, &[]),
        curve("brainpoolP256r1", "keygen", 128, 30_000.0, &[]),
    ];
    let alone = curves(&keygen, None)[0].line();
    opens_with(
        &alone,
        "Curve, 128-bit: P-256, weighed on prime256v1 keygen (openssl)",
    );
    // ... their use (derive + sign + verify: 130 us against 60 us) picks
    // Curve25519, at its cheapest library.
    let mut ms = keygen.clone();
    ms.extend(curve_use(1.0, 1.0, 0.02));
    let line = curves(&ms, None)[0].line();
    opens_with(
        &line,
        "Curve, 128-bit: Curve25519, weighed on X25519 derive (openssl) 20.0 us \
         + Ed25519 sign (openssl) 10.0 us + Ed25519 verify (openssl) 30.0 us = 60.0 us",
    );
    says(
        &line,
        "not weighed (not measured on the same operations): brainpoolP256r1",
    );
    assert!(!line.contains("tied"), "{line}");
    // With no pubkey cases the ecc suite's own ecdh/sign/verify stand in.
    let ecc_use = vec![
        curve("prime256v1", "ecdh", 128, 50_000.0, &[]),
        curve("X25519", "ecdh", 128, 20_000.0, &[]),
        curve("prime256v1", "keygen", 128, 10_000.0, &[]),
    ];
    opens_with(
        &curves(&ecc_use, None)[0].line(),
        "Curve, 128-bit: Curve25519, weighed on X25519 ecdh (openssl)",
    );
}

/// The line with every figure taken out: what was chosen, not measured.
fn choices(line: &str) -> String {
    line.chars()
        .filter(|c| !c.is_ascii_digit() && *c != '.')
        .collect()
}

#[test]
fn curve_lines_agree_when_medians_swap_within_their_intervals() {
    // Curve25519 and P-256 cost the same within their 4% intervals; the
    // second run swaps which one is faster, and which backend is.
    let first = curve_use(0.46, 1.01, 0.04);
    let mut second = curve_use(0.47, 1.0, 0.04);
    for m in &mut second {
        if m.backend == "rustcrypto" {
            let s = m.stats.as_mut().unwrap();
            let faster = 0.985;
            s.median *= faster;
            s.ci95 = [s.ci95[0] * faster, s.ci95[1] * faster];
        }
    }
    let lines: Vec<String> = [first, second]
        .iter()
        .map(|ms| curves(ms, None)[0].line())
        .collect();
    assert_ne!(lines[0], lines[1], "the figures differ");
    assert_eq!(choices(&lines[0]), choices(&lines[1]));
    opens_with(
        &lines[0],
        "Curve, 128-bit: Curve25519, weighed on X25519 derive (openssl)",
    );
    says(&lines[0], "tied within 25% on the intervals with P-256");
}

#[test]
fn a_family_measured_in_a_disturbed_moment_is_weighed_by_its_fastest_rounds() {
    // Curve448's sign and verify met a disturbed moment: their medians
    // and intervals rose, their fastest rounds did not. On medians the
    // family would tie with P-521; on fastest rounds it is clearly faster.
    let rounds = |calm: f64, slow: f64| -> Vec<f64> {
        (0..20)
            .map(|i| {
                if i < 6 {
                    calm * (1.0 + i as f64 * 0.002)
                } else {
                    slow
                }
            })
            .collect()
    };
    let mut ms = Vec::new();
    for (prim, op, calm, slow) in [
        ("X448", "derive", 221.0, 223.0),
        ("Ed448", "sign", 192.0, 240.0),
        ("Ed448", "verify", 224.0, 330.0),
        ("ECDH-P521", "derive", 280.0, 282.0),
        ("ECDSA-P521", "sign", 200.0, 202.0),
        ("ECDSA-P521", "verify", 420.0, 423.0),
    ] {
        let mut m = pubkey(prim, "openssl", op, slow, 0.05);
        m.samples_ns = rounds(calm * 1e3, slow * 1e3);
        ms.push(m);
    }
    let line = curves(&ms, None)[0].line();
    opens_with(
        &line,
        "Curve, 256-bit: Curve448, weighed on X448 derive (openssl) 221 us",
    );
    says(&line, "(fastest rounds)");
    assert!(!line.contains("tied"), "{line}");
    // On a run whose cases moved 50% against their group-mates between
    // two moments, 41% apart is within that: tied, and standard status
    // names P-521.
    let noisy = curves(&ms, Some(0.5))[0].line();
    opens_with(&noisy, "Curve, 256-bit: P-521, weighed on");
    says(
        &noisy,
        "tied within 50% (how far this run's cases moved against their group-mates) on the intervals with Curve448",
    );
    // A floor below the tie margin leaves the margin.
    assert_eq!(curves(&ms, Some(0.01))[0].line(), line);
    // Without the rounds the medians decide (791 us against 907 us), and
    // the two tie.
    for m in &mut ms {
        m.samples_ns.clear();
    }
    says(&curves(&ms, None)[0].line(), "tied within 25%");
}

/// Curve448 and P-521 timed side by side in the pubkey suite's 256-bit
/// groups, eight rounds, each round's moment slowing both alike (up to
/// 1.6x); P-521's uses cost `p521` times their calm time in every round
/// and `odd` times in round 3.
fn side_by_side_448_521(p521: f64, odd: f64) -> Vec<Measurement> {
    let moments = [1.0, 1.3, 1.05, 1.6, 1.1, 1.45, 1.0, 1.2];
    let mut ms = Vec::new();
    for (prim, op, calm, scale) in [
        ("X448", "derive", 221.0, 1.0),
        ("Ed448", "sign", 192.0, 1.0),
        ("Ed448", "verify", 224.0, 1.0),
        ("ECDH-P521", "derive", 280.0, p521),
        ("ECDSA-P521", "sign", 200.0, p521),
        ("ECDSA-P521", "verify", 420.0, p521),
    ] {
        let rounds: Vec<f64> = (0..moments.len())
            .map(|k| {
                let own = if scale != 1.0 && k == 3 { odd } else { scale };
                calm * 1e3 * own * moments[k]
            })
            .collect();
        let mut m = pubkey(prim, "openssl", op, calm, 0.05);
        timed_in(&mut m, rounds, 1);
        m.group = Some(format!("pubkey/256-bit curves/{op}"));
        ms.push(m);
    }
    ms
}

#[test]
fn families_timed_side_by_side_are_tied_on_their_cost_ratio_not_the_moment_floor() {
    // P-521's uses at their calm times (900 us) against Curve448's (637 us):
    // 41% more in every round. A 50% moment floor ties them when weighed
    // apart; side by side they are not tied, and the faster family stands.
    let ms = side_by_side_448_521(1.0, 1.0);
    let line = curves(&ms, Some(0.5))[0].line();
    opens_with(&line, "Curve, 256-bit: Curve448, weighed on");
    assert!(!line.contains("tied"), "{line}");
    // P-521 made 28% cheaper (within 2% of Curve448) in every round: tied
    // within the family margin (25%), whatever the floor, and standard
    // status names P-521.
    let close = side_by_side_448_521(0.72, 0.72);
    let line = curves(&close, Some(0.5))[0].line();
    opens_with(&line, "Curve, 256-bit: P-521, weighed on");
    says(&line, "tied within 25% on the intervals with Curve448");
    // 15% apart in every round (P-521 and Curve448 on this host on
    // 2026-11-30): within the family margin, clear of its edge.
    let host = side_by_side_448_521(0.814, 0.814);
    let line = curves(&host, None)[0].line();
    opens_with(&line, "Curve, 256-bit: P-521, weighed on");
    says(&line, "tied within 25% on the intervals with Curve448");
    // One round within the margin alone does not tie them.
    let one = side_by_side_448_521(1.0, 0.72);
    assert!(!curves(&one, None)[0].line().contains("tied"));
    // Timed in separate groups, the floor still judges.
    let mut apart = side_by_side_448_521(1.0, 1.0);
    for m in &mut apart {
        m.group = Some(format!("pubkey/{}/{}", m.primitive, m.operation));
    }
    says(&curves(&apart, Some(0.5))[0].line(), "tied within 50%");
}

#[test]
fn a_curve_familys_pubkey_primitives_have_its_level() {
    assert_eq!(curve_level_of("X25519"), Some("128-bit"));
    assert_eq!(curve_level_of("ECDSA-P256"), Some("128-bit"));
    assert_eq!(curve_level_of("ECDH-P384"), Some("192-bit"));
    assert_eq!(curve_level_of("Ed448"), Some("256-bit"));
    assert_eq!(curve_level_of("ECDSA-P521"), Some("256-bit"));
    assert_eq!(curve_level_of("ML-KEM-768"), None);
    assert_eq!(curve_level_of("RSA-2048-PSS"), None);
}

fn argon(m_mib: u64, t: u32, ms_taken: f64) -> Measurement {
    let mut m = case(
        "argon2",
        "Argon2id",
        "libargon2",
        "hash",
        0,
        ms_taken * 1e6,
        0.02,
    );
    m.params.insert("m_kib".into(), (m_mib * 1024).to_string());
    m.params.insert("t".into(), t.to_string());
    m.params.insert("p".into(), "1".into());
    m
}

#[test]
fn argon2_says_where_the_grid_stops() {
    let ms = vec![argon(4, 1, 5.0), argon(16, 1, 20.0), argon(16, 3, 60.0)];
    let a = argon2(&ms, &[100e6, 2e9, 1e6]);
    opens_with(&a[0].text, "m = 16 MiB, t = 3");
    says(&a[0].text, "refines it");
    says(&a[1].text, "the measured grid stops at 16 MiB");
    says(&a[1].text, "argon2 tune --target 2.00s");
    opens_with(&a[2].text, "no measured point fits");
    // A point whose interval reaches past the target does not fit.
    let mut edge = argon(32, 1, 98.0);
    edge.stats.as_mut().unwrap().ci95[1] = 103e6;
    let two = [edge, argon(16, 1, 20.0)];
    let a = argon2(&two, &[100e6]);
    opens_with(&a[0].text, "m = 16 MiB");
}

#[test]
fn argon2_keeps_the_tuned_point_while_it_lands_within_twenty_percent() {
    let tuned = |m_mib: u64, t: u32, ms_taken: f64, target_ms: u64| {
        let mut m = argon(m_mib, t, ms_taken);
        m.params
            .insert(TUNED_FOR_NS.into(), (target_ms * 1_000_000).to_string());
        m
    };
    let grid = [argon(16, 1, 20.0), argon(16, 3, 60.0)];
    let mut ms = grid.to_vec();
    ms.push(tuned(300, 1, 240.0, 250));
    ms.push(tuned(600, 1, 640.0, 500));
    let a = argon2(&ms, &[250e6, 500e6, 1e9]);
    assert!(
        a[0].text.starts_with("m = 300 MiB, t = 1")
            && a[0].text.contains("96% of the target, tuned"),
        "{}",
        a[0].text
    );
    // 128% of 500 ms: outside +-20%, said; still nearer than the grid's
    // pick (the 300 MiB point, 48%), so the setting stands.
    opens_with(&a[1].text, "m = 600 MiB, t = 1");
    says(
        &a[1].text,
        "640 ms per hash (128% of the target: outside +-20%, the machine's speed changed",
    );
    says(&a[1].text, "still nearer the target than any grid point");
    // 160% of 500 ms, with a grid point at 96%: the grid answers, and the
    // line says what the tune chose.
    let mut far = grid.to_vec();
    far.push(argon(300, 2, 480.0));
    far.push(tuned(600, 1, 800.0, 500));
    let b = argon2(&far, &[500e6]);
    opens_with(&b[0].text, "m = 300 MiB, t = 2");
    says(
        &b[0].text,
        "the run's short tune chose m = 600 MiB, t = 1, p = 1 (libargon2), which took 800 ms here, 160% of the target: outside +-20%",
    );
    // 112%: outside the +-10% a search accepts, inside the +-20% a chosen
    // point keeps (hysteresis), and the share is quoted.
    let close = [tuned(600, 1, 560.0, 500)];
    let near = argon2(&close, &[500e6]);
    assert!(
        near[0].text.starts_with("m = 600 MiB, t = 1")
            && near[0]
                .text
                .contains("112% of the target, tuned in this run"),
        "{}",
        near[0].text
    );
    // No tuned point for 1 s: the grid rule as before.
    assert!(!a[2].text.contains("short tune"), "{}", a[2].text);
    // A point kept from an earlier run says so, and which run.
    let mut kept = tuned(300, 1, 240.0, 250);
    kept.labels
        .push(format!("{TUNE_KEPT_FROM}20261124-033847-35af"));
    let a = argon2(std::slice::from_ref(&kept), &[250e6]);
    says(
        &a[0].text,
        "96% of the target, kept from run 20261124-033847-35af: still within 20%)",
    );
}

#[test]
fn argon2_judges_a_tuned_point_timed_in_a_disturbed_moment_at_calm_speed() {
    let with_canary = |mut m: Measurement, canary_ns: f64| {
        m.machine_load = Some(crate::MachineLoad {
            canary_ns: Some(canary_ns),
            ..crate::MachineLoad::default()
        });
        m
    };
    let tuned = |ms_taken: f64, canary_ns: f64| {
        let mut m = with_canary(argon(128, 5, ms_taken), canary_ns);
        m.params.insert(TUNED_FOR_NS.into(), "250000000".into());
        m
    };
    let grid: Vec<Measurement> = (0..6)
        .map(|i| with_canary(argon(16, 1, 20.0), 124.0 + f64::from(i)))
        .collect();
    // 133% of 250 ms while the canary ran 32% over calm: about 102% at calm
    // speed, so the tuned setting stands and the line says why.
    let mut ms = grid.clone();
    ms.push(tuned(333.0, 164.0));
    let a = argon2(&ms, &[250e6]);
    opens_with(&a[0].text, "m = 128 MiB, t = 5");
    says(
        &a[0].text,
        "133% of the target, timed while the machine ran 31% slower than calm: 102% at calm speed",
    );
    // The same time on a calm moment: the setting missed, and says so,
    // but stands: the grid's 20 ms point is farther from the target.
    let mut ms = grid.clone();
    ms.push(tuned(333.0, 125.0));
    let a = argon2(&ms, &[250e6]);
    opens_with(&a[0].text, "m = 128 MiB, t = 5");
    says(&a[0].text, "133% of the target: outside +-20%");
    // A time that lands stays, however slow the moment.
    let mut ms = grid.clone();
    ms.push(tuned(262.0, 180.0));
    let a = argon2(&ms, &[250e6]);
    opens_with(&a[0].text, "m = 128 MiB, t = 5");
    says(&a[0].text, "105% of the target, tuned in this run");
    // Too fast is never excused by a slow moment; the grid's pick is then
    // the tuned point itself, which answers as the tuned setting.
    let mut ms = grid;
    ms.push(tuned(150.0, 164.0));
    let line = &argon2(&ms, &[250e6])[0].text;
    opens_with(line, "m = 128 MiB, t = 5");
    says(line, "60% of the target: outside +-20%");
    says(line, "still nearer the target than any grid point");
}

#[test]
fn argon2_judges_a_tuned_point_by_the_tunes_time_at_calm_speed() {
    let tuned = |ms_taken: f64, tune_ms: f64| {
        let mut m = argon(256, 11, ms_taken);
        m.params.insert(TUNED_FOR_NS.into(), "1000000000".into());
        m.labels
            .push(calm_time_label(std::time::Duration::from_secs_f64(
                tune_ms / 1e3,
            )));
        m
    };
    // The run timed it at 140% of 1 s; the tune at 103% at calm speed:
    // the tuned setting answers, and the line quotes both.
    let grid = [argon(256, 5, 722.0)];
    let mut ms = grid.to_vec();
    ms.push(tuned(1400.0, 1030.0));
    let a = argon2(&ms, &[1e9]);
    opens_with(&a[0].text, "m = 256 MiB, t = 11");
    says(
        &a[0].text,
        "1.40 s per hash (140% of the target in this run, 103% at the machine's calm speed in the short tune, tuned in this run)",
    );
    // The same words when the run's time lands too.
    let mut ms = grid.to_vec();
    ms.push(tuned(990.0, 1030.0));
    says(
        &argon2(&ms, &[1e9])[0].text,
        "(99% of the target in this run, 103% at the machine's calm speed",
    );
    // A tune time outside +-20% (a damaged or foreign label) decides
    // nothing: the run's own time is judged as for an unlabelled point,
    // and the grid's 72% point is nearer than 160%.
    let mut ms = grid.to_vec();
    ms.push(tuned(1600.0, 1300.0));
    let a = argon2(&ms, &[1e9]);
    opens_with(&a[0].text, "m = 256 MiB, t = 5");
    says(&a[0].text, "the run's short tune chose m = 256 MiB, t = 11");
    // The label reads back; a damaged one is no time.
    let m = tuned(990.0, 1030.0);
    assert_eq!(
        calm_time_of(&m),
        Some(std::time::Duration::from_millis(1030))
    );
    assert_eq!(calm_reference_of(&m), None, "one label, one meaning");
    let mut bad = argon(256, 11, 990.0);
    bad.labels = vec![format!("{TUNE_CALM_TIME}1.03 s")];
    assert_eq!(calm_time_of(&bad), None);
    // At 78% at calm speed alone it would not answer; timed at 93% as it
    // ran, the two bound its undisturbed time and it does, saying both.
    let mut drifted = tuned(930.0, 780.0);
    drifted
        .labels
        .push(as_timed_label(std::time::Duration::from_millis(930)));
    says(
        &argon2(&[drifted.clone()], &[1e9])[0].text,
        "(93% of the target in this run, 78% at the machine's calm speed in the short tune and 93% as timed there, tuned in this run)",
    );
    assert_eq!(
        as_timed_of(&drifted),
        Some(std::time::Duration::from_millis(930))
    );
    // Fast as timed too: it does not answer at the tune's times.
    let mut fast = tuned(930.0, 700.0);
    fast.labels
        .push(as_timed_label(std::time::Duration::from_millis(760)));
    assert!(!argon2(&[fast], &[1e9])[0].text.contains("as timed there"));
}

#[test]
fn the_calm_reference_label_reads_back_and_nothing_else_reads_as_one() {
    let calm = std::time::Duration::from_nanos(14_203_311);
    let mut m = argon(256, 3, 500.0);
    assert_eq!(calm_reference_of(&m), None);
    m.labels
        .push(format!("{TUNE_KEPT_FROM}20261127-141613-887e"));
    m.labels.push(calm_reference_label(calm));
    assert_eq!(calm_reference_of(&m), Some(calm));
    // A damaged label is no reference, not a zero one.
    m.labels = vec![format!("{TUNE_CALM_REFERENCE}14 ms")];
    assert_eq!(calm_reference_of(&m), None);
}

#[test]
fn each_use_of_a_curve_timed_apart_is_at_its_fastest_backend_by_fastest_rounds() {
    // aws-lc-rs verifies Ed25519 in 24.5 us when undisturbed; in this run
    // half its rounds met a disturbed moment (35 us), so its median
    // interval reaches over RustCrypto's steady 30 us. On medians the
    // two tie and the backend order names RustCrypto.
    let rounds = |m: &mut Measurement, xs: Vec<f64>| timed_in(m, xs, 5);
    let mut aws = pubkey("Ed25519", "aws-lc-rs", "verify", 30.0, 0.0);
    rounds(
        &mut aws,
        (0..20)
            .map(|i| {
                if i % 2 == 0 {
                    24_500.0 + i as f64
                } else {
                    35_000.0
                }
            })
            .collect(),
    );
    let mut rust = pubkey("Ed25519", "rustcrypto", "verify", 30.0, 0.0);
    rounds(
        &mut rust,
        (0..20).map(|i| 30_000.0 + 20.0 * i as f64).collect(),
    );
    assert!(tied(&rust, &aws), "the premise: tied on medians");
    let mut ms = vec![
        pubkey("X25519", "aws-lc-rs", "derive", 17.0, 0.01),
        pubkey("Ed25519", "aws-lc-rs", "sign", 6.0, 0.01),
    ];
    ms.extend([aws, rust]);
    let line = curves(&ms, None)[0].line();
    says(&line, "Ed25519 verify (aws-lc-rs)");
}

#[test]
fn backends_timed_in_one_group_are_told_apart_by_their_paired_ratio() {
    // Six rounds of one group on a busy host: each round 0-90% slower than
    // the first, the same for both backends, and OpenSSL 1.4x aws-lc-rs's
    // time in every round. The fastest-round intervals of six rounds reach
    // the third fastest, so they overlap and would tie the two (the
    // backend order then names OpenSSL); the paired ratio does not.
    let drift = [1.0, 1.5, 1.6, 1.7, 1.8, 1.9];
    let timed = |backend: &str, us: f64| {
        let mut m = pubkey("ECDH-P521", backend, "derive", us, 0.3);
        m.group = Some("pubkey/ECDH-P521/derive#1".into());
        m.samples_ns = drift.iter().map(|d| us * 1e3 * d).collect();
        m
    };
    let (aws, openssl) = (timed("aws-lc-rs", 300.0), timed("openssl", 420.0));
    assert!(
        tied_on_fastest_rounds(&openssl, &aws),
        "the premise: tied on fastest rounds"
    );
    assert!(!tied_side_by_side(&openssl, &aws));
    let mut ms = vec![openssl, aws];
    assert_eq!(side_by_side_pick(&ms), "aws-lc-rs");
    // Apart from the group (no rounds in common) the two are tied, and
    // the backend order decides.
    for m in &mut ms {
        m.group = None;
    }
    assert_eq!(side_by_side_pick(&ms), "openssl");
}

/// The backend [`choose_side_by_side`] picks among `ms`.
fn side_by_side_pick(ms: &[Measurement]) -> String {
    let refs: Vec<&Measurement> = ms.iter().collect();
    choose_side_by_side(&refs, |_| 0).unwrap().0.backend.clone()
}

#[test]
fn aead_candidates_from_different_groups_are_weighed_by_their_fastest_rounds() {
    // AEGIS-128L and AEGIS-256 at 1 KB in two groups. Half of AEGIS-128L's
    // rounds met a disturbed moment (150 ns against 106-110 ns), so its
    // median interval reaches within 5% of AEGIS-256's steady 157 ns; on
    // medians the two tie and the key-length rule names AEGIS-256, as one
    // quick run of five did. Their fastest rounds are 1.45x apart.
    let timed = |prim: &str, group: &str, rounds: Vec<f64>| {
        let mut m = case("aead", prim, "libsodium", "encrypt", 1000, 1.0, 0.0);
        timed_in(&mut m, rounds, 4);
        m.group = Some(group.into());
        m
    };
    let l128 = timed(
        "AEGIS-128L",
        "aead/encrypt/1000B/t1#3",
        (0..20)
            .map(|i| {
                if i % 2 == 0 {
                    106.0 + i as f64 * 0.2
                } else {
                    153.0
                }
            })
            .collect(),
    );
    let l256 = timed(
        "AEGIS-256",
        "aead/encrypt/1000B/t1#4",
        (0..20).map(|i| 154.0 + i as f64 * 0.3).collect(),
    );
    assert!(tied(&l256, &l128), "the premise: tied on medians");
    let mut ms = vec![l256, l128];
    // A larger size, so 1 KB is the small-message line.
    ms.push(case(
        "aead",
        "AEGIS-128L",
        "libsodium",
        "encrypt",
        1 << 20,
        9e4,
        0.01,
    ));
    let advice = super::aead(&ms);
    let small = advice
        .iter()
        .find(|a| a.topic == "AEAD, small messages")
        .unwrap();
    opens_with(&small.text, "Use AEGIS-128L (libsodium) for 1 KB messages");
    assert!(!small.text.contains("tied"), "{}", small.text);
}

#[test]
fn one_round_alone_does_not_tie_two_backends_of_one_group() {
    // Five rounds of X25519 derive: OpenSSL took 8-31% longer than
    // aws-lc-rs in four, and 3% less in the one where aws-lc-rs met a
    // disturbed moment. The median's interval reaches down to that round.
    let timed = |backend: &str, rounds: [f64; 5]| {
        let mut m = pubkey("X25519", backend, "derive", rounds[2] / 1e3, 0.2);
        m.group = Some("pubkey/X25519/derive#1".into());
        m.samples_ns = rounds.to_vec();
        m
    };
    let aws = timed(
        "aws-lc-rs",
        [47_800.0, 46_600.0, 41_000.0, 38_100.0, 43_400.0],
    );
    let openssl = timed(
        "openssl",
        [46_600.0, 58_200.0, 49_500.0, 49_400.0, 46_800.0],
    );
    let r = time_ratio(&openssl, &aws).unwrap();
    assert!(r.paired && r.lo <= 1.0 + TIE_MARGIN, "the premise: {r:?}");
    assert!(!tied_side_by_side(&openssl, &aws));
    let mut ms = vec![openssl, aws];
    assert_eq!(side_by_side_pick(&ms), "aws-lc-rs");
    // Two such rounds are a tie, and the backend order names OpenSSL.
    ms[0].samples_ns[1] = 46_000.0;
    assert!(tied_side_by_side(&ms[0], &ms[1]));
    assert_eq!(side_by_side_pick(&ms), "openssl");
}

/// Curve25519's uses at two libraries, timed in one group per use (20
/// rounds): aws-lc-rs's derive and sign well ahead, its verify
/// `verify_ratio` times RustCrypto's.
fn curve25519_at_two_libraries(verify_ratio: f64) -> Vec<Measurement> {
    let mut ms = Vec::new();
    for (prim, op, aws_us, rust_us) in [
        ("X25519", "derive", 26.0, 54.0),
        ("Ed25519", "sign", 10.0, 18.0),
        ("Ed25519", "verify", 46.0 * verify_ratio, 46.0),
    ] {
        for (backend, us) in [("aws-lc-rs", aws_us), ("rustcrypto", rust_us)] {
            let mut m = pubkey(prim, backend, op, us, 0.0);
            m.group = Some(format!("pubkey/128-bit curves/{op}"));
            let rounds = (0..20)
                .map(|i| us * 1e3 * (1.0 + 0.002 * i as f64))
                .collect();
            timed_in(&mut m, rounds, 5);
            ms.push(m);
        }
    }
    ms
}

#[test]
fn a_curve_is_weighed_at_one_library_whatever_one_use_reads() {
    // aws-lc-rs's Ed25519 verify 1.055x and 1.114x faster than RustCrypto's
    // (an identical pair of quick runs): one use at a time, the first is a
    // tie the backend order gave to RustCrypto, the second is not.
    let verify = |ms: &[Measurement]| -> Vec<Measurement> {
        ms.iter()
            .filter(|m| m.operation == "verify")
            .cloned()
            .collect()
    };
    let near = curve25519_at_two_libraries(1.0 / 1.045);
    let far = curve25519_at_two_libraries(1.0 / 1.114);
    assert_eq!(side_by_side_pick(&verify(&near)), "rustcrypto", "premise");
    assert_eq!(side_by_side_pick(&verify(&far)), "aws-lc-rs", "premise");
    // In sum aws-lc-rs costs 80 us against RustCrypto's 118 us: every use
    // is weighed at aws-lc-rs in both runs.
    for ms in [near, far] {
        let line = curves(&ms, None)[0].line();
        opens_with(
            &line,
            "Curve, 128-bit: Curve25519, weighed on X25519 derive (aws-lc-rs)",
        );
        says(&line, "Ed25519 sign (aws-lc-rs)");
        says(&line, "Ed25519 verify (aws-lc-rs)");
        assert!(!line.contains("rustcrypto"), "{line}");
    }
}

#[test]
fn libraries_tied_in_sum_resolve_by_the_backend_order() {
    // RustCrypto 2% cheaper in sum than OpenSSL: tied, OpenSSL first.
    let mut ms = Vec::new();
    for (prim, op, us) in [
        ("X25519", "derive", 30.0),
        ("Ed25519", "sign", 10.0),
        ("Ed25519", "verify", 40.0),
    ] {
        for (backend, k) in [("rustcrypto", 1.0), ("openssl", 1.02)] {
            let mut m = pubkey(prim, backend, op, us * k, 0.0);
            m.group = Some(format!("pubkey/128-bit curves/{op}"));
            let rounds = (0..20)
                .map(|i| us * k * 1e3 * (1.0 + 0.002 * i as f64))
                .collect();
            timed_in(&mut m, rounds, 5);
            ms.push(m);
        }
    }
    let line = curves(&ms, None)[0].line();
    says(&line, "X25519 derive (openssl)");
    says(&line, "Ed25519 verify (openssl)");
    // Where no library measured every use, each use stands at its own.
    ms.retain(|m| !(m.backend == "openssl" && m.operation == "sign"));
    ms.retain(|m| !(m.backend == "rustcrypto" && m.operation == "verify"));
    let line = curves(&ms, None)[0].line();
    says(&line, "Ed25519 sign (rustcrypto)");
    says(&line, "Ed25519 verify (openssl)");
}

#[test]
fn a_tuned_setting_answers_while_its_calm_and_timed_shares_meet_the_keep_band() {
    // Either bound inside: answers.
    assert!(still_answers(0.78, 0.93));
    assert!(still_answers(1.0, 1.0));
    assert!(still_answers(1.15, 1.4));
    // The span straddles the whole band: answers.
    assert!(still_answers(0.7, 1.3));
    // Both fast or both slow: does not.
    assert!(!still_answers(0.7, 0.78));
    assert!(!still_answers(1.25, 1.5));
    // Order does not matter.
    assert_eq!(still_answers(0.93, 0.78), still_answers(0.78, 0.93));
}

#[path = "advice_key_share_tests.rs"]
mod key_share;
