use super::*;
use cryptobench_core::CaseSpec;

fn measured(primitive: &str, samples: &[f64]) -> Measurement {
    let mut m = CaseSpec::new("hash", primitive, "openssl", "OpenSSL 3", "digest")
        .size(1024)
        .measurement(CaseStatus::Measured, None);
    m.samples_ns = samples.to_vec();
    let s = cryptobench_stats::summarize(samples, 1);
    m.stats = Some(cryptobench_core::Summary {
        median: s.median,
        ci95: [s.ci95.0, s.ci95.1],
        ..Default::default()
    });
    m
}

fn canary(samples: &[f64], floor: f64) -> Measurement {
    let mut m = CaseSpec::new(
        cryptobench_core::model::CANARY_SUITE,
        cryptobench_core::model::CANARY_PRIMITIVE,
        "builtin",
        "0",
        "mix",
    )
    .measurement(CaseStatus::Measured, None);
    m.samples_ns = samples.to_vec();
    m.stats = Some(cryptobench_core::Summary {
        median: median(samples),
        ci95: [median(samples) * 0.995, median(samples) * 1.005],
        ..Default::default()
    });
    m.extra
        .insert(cryptobench_core::model::NOISE_FLOOR_KEY.into(), floor);
    m
}

fn run(id: &str, ms: Vec<Measurement>) -> Run {
    Run::new(id, ms)
}

fn series(centre: f64) -> Vec<f64> {
    (0..20).map(|i| centre + (i % 3) as f64 * 0.1).collect()
}

#[test]
fn a_whole_machine_drift_is_reported_apart_and_changes_no_case() {
    let names = ["SHA-256", "SHA-512", "SHA3-256", "BLAKE2b"];
    let with = |centre: f64, canary_ns: f64| {
        let mut ms: Vec<Measurement> = names.iter().map(|n| measured(n, &series(centre))).collect();
        ms.push(canary(&series(canary_ns), 0.005));
        ms
    };
    let (a, b) = (run("a", with(100.0, 50.0)), run("b", with(104.0, 52.0)));
    let cmp = compare_full(&a, &b, 0.02);
    assert_eq!(cmp.counts(), (0, 0, 4, 0), "{:?}", cmp.cases[0].comparison);
    let notes = comparison_notes(&cmp);
    assert!(notes[0].contains("4.0% slower"), "{notes:?}");
    // Without canaries the same shift cannot be told from a regression.
    let strip = |r: &Run| {
        run(
            &r.id,
            r.measurements
                .iter()
                .filter(|m| !m.is_canary())
                .cloned()
                .collect(),
        )
    };
    let cmp = compare_full(&strip(&a), &strip(&b), 0.02);
    assert_eq!(cmp.counts(), (0, 4, 0, 0));
    assert!(comparison_notes(&cmp)[0].contains("cannot be told"));
}

#[test]
fn a_canary_that_moved_alone_is_not_divided_out_of_the_cases() {
    let names = ["SHA-256", "SHA-512", "SHA3-256", "BLAKE2b"];
    let with = |centre: f64, canary_ns: f64| {
        let mut ms: Vec<Measurement> = names.iter().map(|n| measured(n, &series(centre))).collect();
        ms.push(canary(&series(canary_ns), 0.005));
        ms
    };
    // The canary got 8% faster, the cases did not move: an A/A pair.
    let cmp = compare_full(
        &run("a", with(100.0, 50.0)),
        &run("b", with(100.0, 46.0)),
        0.02,
    );
    assert!(!cmp.drift_removed);
    assert_eq!(cmp.counts(), (0, 0, 4, 0), "{:?}", cmp.cases[0].comparison);
    assert!(
        comparison_notes(&cmp)[0].contains("moved without them"),
        "{:?}",
        comparison_notes(&cmp)
    );
    // Every case 6% slower while the canary stayed: the code, not the machine.
    let cmp = compare_full(
        &run("a", with(100.0, 50.0)),
        &run("b", with(106.0, 50.0)),
        0.02,
    );
    assert!(!cmp.drift_removed);
    assert_eq!(cmp.counts(), (0, 4, 0, 0));
}

#[test]
fn a_real_change_stands_out_of_the_drift() {
    let mut a_ms: Vec<Measurement> = (0..5)
        .map(|i| measured(&format!("H{i}"), &series(100.0)))
        .collect();
    let mut b_ms: Vec<Measurement> = (0..5)
        .map(|i| measured(&format!("H{i}"), &series(100.0)))
        .collect();
    a_ms.push(measured("X", &series(100.0)));
    b_ms.push(measured("X", &series(120.0)));
    let cmp = compare_full(&run("a", a_ms), &run("b", b_ms), 0.02);
    let x = cmp
        .cases
        .iter()
        .find(|c| c.candidate.primitive == "X")
        .unwrap();
    assert_eq!(x.comparison.verdict, Verdict::Slower);
    assert_eq!(cmp.counts(), (0, 1, 5, 0));
}

/// Samples spread +-30% around `centre`: a wide interval.
fn noisy(centre: f64) -> Vec<f64> {
    (0..20).map(|i| centre * (0.7 + 0.03 * i as f64)).collect()
}

#[test]
fn the_larger_noise_floor_raises_the_bar_and_overlap_is_inconclusive() {
    let a = run(
        "a",
        vec![
            measured("A", &series(100.0)),
            measured("B", &noisy(100.0)),
            canary(&series(50.0), 0.01),
        ],
    );
    let b = run(
        "b",
        vec![
            measured("A", &series(104.0)),
            measured("B", &noisy(110.0)),
            canary(&series(50.0), 0.05),
        ],
    );
    let cmp = compare_full(&a, &b, 0.02);
    assert!((cmp.effective_threshold() - 0.05).abs() < 1e-12);
    assert_eq!(
        cmp.cases[0].comparison.verdict,
        Verdict::Unchanged,
        "4% < 5% floor"
    );
    assert_eq!(cmp.cases[1].comparison.verdict, Verdict::Inconclusive);
    let t = comparison_table(&cmp, &a, &b);
    assert!(
        t.notes.iter().any(|n| n.contains("candidate 5.0%")),
        "{:?}",
        t.notes
    );
}
