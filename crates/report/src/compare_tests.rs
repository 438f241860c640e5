use super::*;
use cryptobench_core::CaseSpec;
use cryptobench_stats::compare_fastest;

pub(super) fn measured(primitive: &str, samples: &[f64]) -> Measurement {
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

pub(super) fn canary(samples: &[f64], floor: f64) -> Measurement {
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

pub(super) fn run(id: &str, ms: Vec<Measurement>) -> Run {
    Run::new(id, ms)
}

/// The compared case of `primitive`.
pub(super) fn case_of<'a>(cmp: &'a RunComparison, primitive: &str) -> &'a ComparedCase {
    cmp.cases
        .iter()
        .find(|c| c.candidate.primitive == primitive)
        .unwrap_or_else(|| panic!("{primitive} was not compared"))
}

/// The compared case of `primitive` by `backend`.
pub(super) fn member_of<'a>(
    cmp: &'a RunComparison,
    primitive: &str,
    backend: &str,
) -> &'a ComparedCase {
    cmp.cases
        .iter()
        .find(|c| c.candidate.primitive == primitive && c.candidate.backend == backend)
        .unwrap_or_else(|| panic!("{primitive} by {backend} was not compared"))
}

pub(super) fn series(centre: f64) -> Vec<f64> {
    (0..20).map(|i| centre + (i % 3) as f64 * 0.1).collect()
}

/// Four hash cases around `centre` ns and a canary around `canary_ns`.
fn with(centre: f64, canary_ns: f64) -> Vec<Measurement> {
    let mut ms: Vec<Measurement> = ["SHA-256", "SHA-512", "SHA3-256", "BLAKE2b"]
        .iter()
        .map(|n| measured(n, &series(centre)))
        .collect();
    ms.push(canary(&series(canary_ns), 0.005));
    ms
}

#[test]
fn a_whole_machine_drift_is_reported_apart_and_changes_no_case() {
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
    let steady = || -> Vec<Measurement> {
        (0..5)
            .map(|i| measured(&format!("H{i}"), &series(100.0)))
            .collect()
    };
    let (mut a_ms, mut b_ms) = (steady(), steady());
    a_ms.push(measured("X", &series(100.0)));
    b_ms.push(measured("X", &series(120.0)));
    let cmp = compare_full(&run("a", a_ms), &run("b", b_ms), 0.02);
    let x = case_of(&cmp, "X");
    assert_eq!(x.comparison.verdict, Verdict::Slower);
    assert_eq!(cmp.counts(), (0, 1, 5, 0));
}

/// Samples spread +-30% around `centre`: a wide interval.
fn noisy(centre: f64) -> Vec<f64> {
    (0..20).map(|i| centre * (0.7 + 0.03 * i as f64)).collect()
}

#[test]
fn a_noise_floor_widens_the_interval_and_is_never_a_dead_zone() {
    // A steady case around `steady`, a noisy one around `noisy_at`, the
    // canary with noise floor `floor`.
    let with_floor = |id: &str, steady: f64, noisy_at: f64, moved: f64, floor: f64| {
        let ms = vec![
            measured("A", &series(steady)),
            measured("B", &noisy(noisy_at)),
            measured("C", &noisy(moved)),
            canary(&series(50.0), floor),
        ];
        run(id, ms)
    };
    let (a, b) = (
        with_floor("a", 100.0, 100.0, 100.0, 0.01),
        with_floor("b", 104.0, 110.0, 130.0, 0.05),
    );
    let cmp = compare_full(&a, &b, 0.02);
    assert!((cmp.run_floor() - 0.05).abs() < 1e-12);
    let (steady, noisy_case, moved) = (&cmp.cases[0], &cmp.cases[1], &cmp.cases[2]);
    // 4% past a 2% threshold, within a 5% floor: not unchanged, not told.
    assert_eq!(
        steady.comparison.verdict,
        Verdict::Inconclusive,
        "{steady:?}"
    );
    assert!((steady.floor - 0.05).abs() < 1e-12);
    // An exact ratio widened by the floor alone: 1.04 / 1.05 .. 1.04 * 1.05.
    let (lo, hi) = steady.comparison.widened;
    assert!((lo - 1.04 / 1.05).abs() < 1e-9 && (hi - 1.04 * 1.05).abs() < 1e-9);
    // (1.02 * 1.05 - 1): the smallest change this pair could call one.
    assert!((steady.comparison.detectable - 0.071).abs() < 1e-9);
    // Twenty rounds spread +-30%: the fastest round's interval reaches the
    // fourth, 0.79 / 0.70 = +12.9%, so a 10% change is within its reach.
    assert_eq!(noisy_case.comparison.verdict, Verdict::Inconclusive);
    assert!(noisy_case.comparison.detectable > 0.15, "{noisy_case:?}");
    assert_eq!(moved.comparison.verdict, Verdict::Slower, "30% is past it");
    // The same floors against a threshold past them: 4% is unchanged.
    let cmp = compare_full(&a, &b, 0.15);
    assert_eq!(cmp.cases[0].comparison.verdict, Verdict::Unchanged);
    let t = comparison_table(&cmp, &a, &b);
    assert!(
        t.notes.iter().any(|n| n.contains("candidate 5.0%")
            && n.contains("unchanged only when its widened interval lies inside")),
        "{:?}",
        t.notes
    );
    assert!(
        t.notes.iter().any(|n| n.starts_with("3 case(s) compared: ")
            && n.contains("could not tell a change under")),
        "{:?}",
        t.notes
    );
}

/// A case measured while the canary took `canary_ns` per operation.
fn measured_near(primitive: &str, centre: f64, canary_ns: f64) -> Measurement {
    let mut m = measured(primitive, &series(centre));
    m.machine_load = Some(cryptobench_core::model::MachineLoad {
        canary_ns: Some(canary_ns),
        ..Default::default()
    });
    m
}

#[test]
fn a_suite_whose_cases_did_not_follow_the_canary_keeps_its_raw_ratios() {
    // The canary around every case got 8% faster; the cases did not move.
    let build = |canary_ns: f64| {
        let mut ms: Vec<Measurement> = (0..10)
            .map(|i| measured_near(&format!("H{i}"), 100.0, canary_ns))
            .collect();
        ms.push(canary(&series(canary_ns), 0.005));
        ms
    };
    let cmp = compare_full(&run("a", build(50.0)), &run("b", build(46.0)), 0.02);
    assert!(!cmp.drift_removed);
    assert_eq!(cmp.drift_kept, vec!["hash".to_string()]);
    assert_eq!(cmp.counts(), (0, 0, 10, 0));
    assert!(comparison_notes(&cmp)[0].contains("in hash the canary moved without them"));
}

#[test]
fn a_randomized_address_layout_is_named_and_two_fixed_ones_are_not() {
    let with_layout = |id: &str, layout: Option<&str>| {
        let mut r = run(id, with(100.0, 50.0));
        r.machine.address_layout = layout.map(str::to_string);
        r
    };
    let layout_note = |a: &Run, b: &Run| {
        comparison_notes(&compare_full(a, b, 0.02))
            .into_iter()
            .find(|n| n.starts_with("address layout"))
    };
    let fixed = with_layout("a", Some("fixed"));
    assert_eq!(layout_note(&fixed, &with_layout("b", Some("fixed"))), None);
    let note = layout_note(&fixed, &with_layout("b", Some("randomized")))
        .expect("a randomized candidate is named");
    assert!(
        note.contains("baseline fixed, candidate randomized"),
        "{note}"
    );
    let note = layout_note(&with_layout("a", None), &fixed).expect("an old run is named");
    assert!(note.contains("baseline not recorded"), "{note}");
}

/// A two-lane case measured while the canary took `one_core` per
/// operation alone and `all_cores` on two cores at once.
fn two_lanes(primitive: &str, centre: f64, one_core: f64, all_cores: f64) -> Measurement {
    let mut m = measured_near(primitive, centre, one_core);
    m.params.insert("threads".into(), "2".into());
    if let Some(load) = m.machine_load.as_mut() {
        load.parallel_canary_ns = Some(all_cores);
    }
    m
}

/// `n` one-core cases ("one-0", ...) at 100 ns beside a 50 ns canary.
fn one_core_cases(n: usize) -> Vec<Measurement> {
    (0..n)
        .map(|i| measured_near(&format!("one-{i}"), 100.0, 50.0))
        .collect()
}

/// A steady 50 ns canary whose multi-core noise floor was `floor`.
fn canary_with_parallel_floor(floor: f64) -> Measurement {
    let mut c = canary(&series(50.0), 0.005);
    c.extra.insert(
        cryptobench_core::model::PARALLEL_NOISE_FLOOR_KEY.into(),
        floor,
    );
    c
}

#[test]
fn a_multi_core_case_is_judged_by_the_canary_on_its_cores() {
    // The candidate's host took the second core away while its two-lane
    // cases ran: they and the two-core canary took 1.6x, the one-core
    // canary and the one-lane cases did not move.
    let build = |slow: f64, slow_lanes_too: bool| {
        let mut ms = one_core_cases(6);
        // Most of the suite's two-lane cases follow their cores.
        for name in ["both", "both-1", "both-2", "both-3"] {
            ms.push(two_lanes(name, 100.0 * slow, 50.0, 50.0 * slow));
        }
        let lanes_alone = if slow_lanes_too { slow } else { 1.0 };
        ms.push(two_lanes("moved", 100.0 * slow, 50.0, 50.0 * lanes_alone));
        ms.push(canary_with_parallel_floor(0.03));
        run(if slow > 1.0 { "b" } else { "a" }, ms)
    };
    let cmp = compare_full(&build(1.0, true), &build(1.6, false), 0.02);
    let both = case_of(&cmp, "both");
    // Its floor (the two-core canary's and the disturbed moment) is wider
    // than the threshold: not told, never unchanged.
    assert_eq!(both.comparison.verdict, Verdict::Inconclusive, "{both:?}");
    assert!((both.comparison.ratio - 1.0).abs() < 0.01);
    // Slower on two cores while two cores were as fast as before: the code.
    assert_eq!(case_of(&cmp, "moved").comparison.verdict, Verdict::Slower);
    assert_eq!(
        case_of(&cmp, "one-0").comparison.verdict,
        Verdict::Unchanged
    );
    assert!((cmp.multi_core_floor() - 0.03).abs() < 1e-9);
    assert!((cmp.run_floor() - 0.005).abs() < 1e-9);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("a multi-core case is widened by 3.0%"),
        "{notes}"
    );
}

#[test]
fn a_suite_s_multi_core_cases_follow_their_cores_apart_from_its_one_core_cases() {
    // The baseline's second core was away for the whole run: its two-lane
    // cases took 1.45x and its two-core canary 1.35x (its floor 25%); the
    // one-core canary and cases stayed put. Asked together, the suite's
    // cases (median 1.45x) disagree with their drifts (median 1.35x) by
    // more than the 2% a one-core case must pass.
    let build = |lanes: f64, cores: f64| {
        let mut ms = one_core_cases(3);
        for i in 0..6 {
            ms.push(two_lanes(
                &format!("two-{i}"),
                100.0 * lanes,
                50.0,
                50.0 * cores,
            ));
        }
        ms.push(canary_with_parallel_floor(0.25));
        ms
    };
    let cmp = compare_full(
        &run("a", build(1.45, 1.35)),
        &run("b", build(1.0, 1.0)),
        0.02,
    );
    assert!(cmp.drift_kept.is_empty(), "{:?}", cmp.drift_kept);
    // The two-lane cases, held to a 25% floor, are not told.
    assert_eq!(cmp.counts(), (0, 0, 3, 6));
    let two = case_of(&cmp, "two-0");
    assert!((two.comparison.ratio - 1.35 / 1.45).abs() < 0.01, "{two:?}");
    assert!(two.drift_divided);
    // Two-lane cases that did not follow their cores' canary keep their
    // raw ratios, and the notes name them apart from the suite.
    let cmp = compare_full(&run("a", build(1.0, 1.6)), &run("b", build(1.0, 1.0)), 0.02);
    assert_eq!(cmp.drift_kept, vec!["hash (multi-core)".to_string()]);
    assert_eq!(cmp.counts(), (0, 0, 3, 6));
    assert!(!case_of(&cmp, "two-0").drift_divided);
    assert!(case_of(&cmp, "one-0").drift_divided);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("in hash (multi-core) the canary moved without them")
            && notes.contains("elsewhere it is divided out"),
        "{notes}"
    );
}

#[test]
fn a_change_only_the_drift_correction_makes_is_inconclusive() {
    // The candidate's machine was 10% slower, canary and thirty cases
    // with it; ten cases did not move. The suite agrees with its canary,
    // so the drift is divided out, and it alone would call those ten 9%
    // faster.
    let build = |slow: f64| {
        let mut ms: Vec<Measurement> = (0..40)
            .map(|i| {
                let centre = if i < 10 { 100.0 } else { 100.0 * slow };
                measured(&format!("H{i}"), &series(centre))
            })
            .collect();
        ms.push(canary(&series(50.0 * slow), 0.005));
        ms
    };
    let cmp = compare_full(&run("a", build(1.0)), &run("b", build(1.1)), 0.02);
    assert!(
        cmp.drift_removed,
        "the suite as a whole agrees with its canary"
    );
    let h2 = case_of(&cmp, "H2");
    assert!(h2.comparison.ratio < 0.92, "{h2:?}");
    assert_eq!(h2.comparison.verdict, Verdict::Inconclusive);
    assert_eq!(case_of(&cmp, "H30").comparison.verdict, Verdict::Unchanged);
}

/// Batches of ML-DSA-like signing: each round's mean over a few calls of
/// 1 to 8 tries, so its fastest round is luck.
fn lucky(seed: u64) -> Vec<f64> {
    let mut rng = cryptobench_stats::SplitMix64::new(seed);
    (0..30)
        .map(|_| {
            (0..4)
                .map(|_| 100.0 * (1 + rng.below(8)) as f64)
                .sum::<f64>()
                / 4.0
        })
        .collect()
}

#[test]
fn a_case_whose_work_varies_is_judged_by_its_median() {
    let signing = |samples: &[f64]| {
        let mut m = measured("ML-DSA-44", samples);
        m.labels
            .push(cryptobench_core::model::LABEL_WORK_VARIES.into());
        m
    };
    // Two processes of the same code whose fastest rounds were unequally lucky.
    let (mut a, b) = (lucky(7), lucky(8));
    let lowest = a.iter().copied().fold(f64::INFINITY, f64::min);
    a.iter_mut()
        .filter(|x| **x == lowest)
        .for_each(|x| *x *= 0.6);
    let base = run("a", vec![signing(&a), canary(&series(500.0), 0.005)]);
    let cand = run("b", vec![signing(&b), canary(&series(500.0), 0.005)]);
    let cmp = compare_full(&base, &cand, 0.02);
    let c = case_of(&cmp, "ML-DSA-44");
    assert_ne!(c.comparison.verdict, Verdict::Slower, "{c:?}");
    assert_ne!(c.comparison.verdict, Verdict::Faster, "{c:?}");
    assert!(
        c.comparison.detectable > 0.02,
        "judged with its medians' interval: {c:?}"
    );
    // Judged by fastest rounds, the lucky batch alone makes it a change.
    let fastest = compare_fastest(&a, &b, 0.02);
    assert_ne!(fastest.verdict, Verdict::Unchanged);
    assert!(comparison_notes(&cmp)
        .iter()
        .any(|n| n.contains("judged by their medians")));
    // A real doubling is still seen.
    let slow: Vec<f64> = b.iter().map(|x| x * 2.0).collect();
    let cand = run("c", vec![signing(&slow), canary(&series(500.0), 0.005)]);
    let cmp = compare_full(&base, &cand, 0.02);
    assert_eq!(
        case_of(&cmp, "ML-DSA-44").comparison.verdict,
        Verdict::Slower
    );
}

/// A one-core case filling 16 MiB per call, measured while the memory
/// probe took `probe_ns`.
fn memory_bound(primitive: &str, centre: f64, probe_ns: f64) -> Measurement {
    let mut m = measured_near(primitive, centre, 50.0);
    m.params.insert("m_kib".into(), "16384".into());
    if let Some(load) = m.machine_load.as_mut() {
        load.memory_probe_ns = Some(probe_ns);
    }
    m
}

#[test]
fn a_memory_bound_case_is_judged_by_the_memory_probe_in_its_rounds() {
    // Page faults cost 15% more in the candidate: its memory-bound cases
    // and their probes took 1.15x while the canary and the other cases
    // stayed put; one hash also slowed by 10% on its own.
    let build = |slow: f64| {
        let mut ms: Vec<Measurement> = (0..6)
            .map(|i| measured_near(&format!("cpu-{i}"), 100.0, 50.0))
            .collect();
        for i in 0..4 {
            ms.push(memory_bound(&format!("m-{i}"), 100.0 * slow, 2000.0 * slow));
        }
        let own = if slow > 1.0 { slow * 1.1 } else { 1.0 };
        ms.push(memory_bound("own", 100.0 * own, 2000.0 * slow));
        ms.push(canary(&series(50.0), 0.005));
        run(if slow > 1.0 { "b" } else { "a" }, ms)
    };
    let cmp = compare_full(&build(1.0), &build(1.15), 0.02);
    let m0 = case_of(&cmp, "m-0");
    assert_eq!(m0.comparison.verdict, Verdict::Unchanged, "{m0:?}");
    assert!((m0.comparison.ratio - 1.0).abs() < 0.01);
    assert_eq!(case_of(&cmp, "own").comparison.verdict, Verdict::Slower);
    assert_eq!(
        case_of(&cmp, "cpu-0").comparison.verdict,
        Verdict::Unchanged
    );
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("beside 5 one-core memory-bound case(s)) was 15.0% slower"),
        "{notes}"
    );
    // Without the probe in either run the canary's (absent) drift stands.
    let unprobed = |slow: f64| {
        let mut r = build(slow);
        for m in &mut r.measurements {
            if let Some(l) = m.machine_load.as_mut() {
                l.memory_probe_ns = None;
            }
        }
        r
    };
    let cmp = compare_full(&unprobed(1.0), &unprobed(1.15), 0.02);
    assert_eq!(case_of(&cmp, "m-0").comparison.verdict, Verdict::Slower);
    assert!(cmp.memory.is_none());
}

#[test]
fn a_memory_bound_case_must_move_past_the_memory_probes_spread_within_either_run() {
    // Three groups of memory-bound cases whose fastest probes ran 0%, 5%
    // and 10% over the fastest: the memory system moved by 10% within the
    // run. A hash beside them is held to the canary's floor alone.
    let build = |id: &str, moved: f64, jumped: f64, hash: f64| {
        let mut ms = Vec::new();
        for (g, probe) in [2000.0, 2100.0, 2200.0].into_iter().enumerate() {
            for i in 0..3 {
                let mut m = memory_bound(&format!("m-{g}-{i}"), 100.0, probe);
                m.group = Some(format!("argon2#{g}"));
                ms.push(m);
            }
        }
        let mut m = memory_bound("moved", 100.0 * moved, 2000.0);
        m.group = Some("argon2#0".into());
        ms.push(m);
        let mut m = memory_bound("jumped", 100.0 * jumped, 2100.0);
        m.group = Some("argon2#1".into());
        ms.push(m);
        ms.push(measured_near("hash", 100.0 * hash, 50.0));
        // A two-lane hash: judged by the canary on its cores, and held to
        // the memory floor too.
        let mut lanes = two_lanes("lanes", 100.0 * moved, 50.0, 50.0);
        lanes.params.insert("m_kib".into(), "16384".into());
        ms.push(lanes);
        ms.push(canary(&series(50.0), 0.005));
        run(id, ms)
    };
    let cmp = compare_full(
        &build("a", 1.0, 1.0, 1.0),
        &build("b", 1.07, 1.15, 1.07),
        0.02,
    );
    let lanes = case_of(&cmp, "lanes");
    // 7% within a 10% floor: not told.
    assert_eq!(lanes.comparison.verdict, Verdict::Inconclusive, "{lanes:?}");
    assert!(lanes.floor >= 0.1 - 1e-9, "{}", lanes.floor);
    for floor in [cmp.memory_floors.0, cmp.memory_floors.1] {
        assert!(floor.is_some_and(|f| (f - 0.1).abs() < 1e-9), "{floor:?}");
    }
    let moved = case_of(&cmp, "moved");
    assert_eq!(moved.comparison.verdict, Verdict::Inconclusive, "{moved:?}");
    assert!(moved.floor >= 0.1 - 1e-9, "{}", moved.floor);
    assert_eq!(case_of(&cmp, "jumped").comparison.verdict, Verdict::Slower);
    assert_eq!(case_of(&cmp, "hash").comparison.verdict, Verdict::Slower);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("a one-core memory-bound case is widened by 10.0%"),
        "{notes}"
    );
    // One group alone shows no spread: no floor of its own.
    let one = |id: &str| {
        let mut r = build(id, 1.0, 1.0, 1.0);
        r.measurements.retain(|m| {
            m.group.as_deref() != Some("argon2#1") && m.group.as_deref() != Some("argon2#2")
        });
        r
    };
    assert_eq!(
        compare_full(&one("a"), &one("b"), 0.02).memory_floors,
        (None, None)
    );
}

/// A case timed in a runtime's two runner processes in turn, its fastest
/// rounds `gap` apart between them.
fn in_runtime(primitive: &str, centre: f64, gap: f64) -> Measurement {
    let mut m = measured(primitive, &series(centre));
    m.backend = "python".into();
    m.samples_process = (0..m.samples_ns.len()).map(|i| (i % 2) as u8).collect();
    for (x, p) in m.samples_ns.iter_mut().zip(&m.samples_process) {
        if *p == 1 {
            *x *= 1.0 + gap;
        }
    }
    m
}

#[test]
fn a_runtime_case_must_move_past_what_a_fresh_process_alone_moves_its_runtime() {
    // Ten python cases whose two runner processes were 0-9% apart, and two
    // with no gap: the 97th percentile of those twelve gaps is 8.67%.
    let build = |id: &str, moved: f64, jumped: f64, native: f64| {
        let mut ms: Vec<Measurement> = (0..10)
            .map(|i| in_runtime(&format!("py-{i}"), 100.0, 0.01 * i as f64))
            .collect();
        ms.push(in_runtime("moved", 100.0 * moved, 0.0));
        ms.push(in_runtime("jumped", 100.0 * jumped, 0.0));
        ms.push(measured("native", &series(100.0 * native)));
        ms.push(canary(&series(50.0), 0.005));
        run(id, ms)
    };
    let cmp = compare_full(
        &build("a", 1.0, 1.0, 1.0),
        &build("b", 1.06, 1.15, 1.06),
        0.02,
    );
    let (base, cand) = cmp.restart_floors["python"];
    for floor in [base, cand] {
        assert!(
            floor.is_some_and(|f| (0.0865..0.0869).contains(&f)),
            "{floor:?}"
        );
    }
    let moved = case_of(&cmp, "moved");
    // 6% within an 8.7% restart floor: not told.
    assert_eq!(moved.comparison.verdict, Verdict::Inconclusive, "{moved:?}");
    assert_eq!(case_of(&cmp, "jumped").comparison.verdict, Verdict::Slower);
    // A native case is held to the run's floor alone.
    assert_eq!(case_of(&cmp, "native").comparison.verdict, Verdict::Slower);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("within either run (the 97th percentile of their gaps): python 8.7%"),
        "{notes}"
    );
    // Untagged samples (one process) give no floor.
    let untagged = |id: &str| {
        let mut r = build(id, 1.0, 1.0, 1.0);
        for m in &mut r.measurements {
            m.samples_process.clear();
        }
        r
    };
    assert!(compare_full(&untagged("a"), &untagged("b"), 0.02)
        .restart_floors
        .is_empty());
}

#[test]
fn a_case_measured_in_a_disturbed_moment_is_held_to_how_much_slower_the_machine_ran() {
    // Ten calm cases; in the baseline two more were sampled while the
    // canary ran 24% over its calm level: one took 15% longer then, one
    // 40% longer (more than the moment explains).
    let build = |id: &str, disturbed: bool| {
        let mut ms: Vec<Measurement> = (0..10)
            .map(|i| measured_near(&format!("calm-{i}"), 100.0, 50.0))
            .collect();
        let (canary_ns, slow, slower) = if disturbed {
            (62.0, 1.15, 1.4)
        } else {
            (50.0, 1.0, 1.0)
        };
        ms.push(measured_near("slowed", 100.0 * slow, canary_ns));
        ms.push(measured_near("slowed-more", 100.0 * slower, canary_ns));
        ms.push(canary(&series(50.0), 0.005));
        run(id, ms)
    };
    let cmp = compare_full(&build("a", true), &build("b", false), 0.02);
    let slowed = case_of(&cmp, "slowed");
    // 15% within the 24% the machine slowed then: not told.
    assert_eq!(
        slowed.comparison.verdict,
        Verdict::Inconclusive,
        "{slowed:?}"
    );
    assert!(slowed.disturbed.is_some_and(|f| (f - 1.24).abs() < 1e-9));
    assert!(slowed.floor >= 0.24 - 1e-9, "{}", slowed.floor);
    assert_eq!(
        case_of(&cmp, "slowed-more").comparison.verdict,
        Verdict::Faster
    );
    assert_eq!(case_of(&cmp, "calm-0").disturbed, None);
    assert_eq!(case_of(&cmp, "calm-0").floor, cmp.one_core_floor());
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("2 case(s) measured in a disturbed moment"),
        "{notes}"
    );
}

#[test]
fn a_suite_measured_in_a_slower_stretch_is_judged_by_its_groups_canary() {
    // The whole run's canary stayed at 50 ns; the cipher suite's stretch
    // of the candidate ran 3% slower, its groups' canary and its cases
    // alike (one cipher case also 10% slower: the code).
    let build = |cipher_ns: f64, cipher_canary: f64, changed_ns: f64| {
        let mut ms: Vec<Measurement> = (0..8)
            .map(|i| measured_near(&format!("H{i}"), 100.0, 50.0))
            .collect();
        for i in 0..8 {
            let mut m = measured_near(&format!("C{i}"), cipher_ns, cipher_canary);
            m.suite = "cipher".into();
            ms.push(m);
        }
        let mut m = measured_near("X", changed_ns, cipher_canary);
        m.suite = "cipher".into();
        ms.push(m);
        ms.push(canary(&series(50.0), 0.005));
        ms
    };
    let baseline = run("a", build(100.0, 50.0, 100.0));
    let candidate = run("b", build(103.0, 51.5, 113.3));
    let cmp = compare_full(&baseline, &candidate, 0.02);
    assert_eq!(cmp.counts(), (0, 1, 16, 0), "{:?}", cmp.suite_drifts);
    assert_eq!(case_of(&cmp, "X").comparison.verdict, Verdict::Slower);
    assert!((cmp.suite_drifts["cipher"] - 1.03).abs() < 1e-9);
    assert!((cmp.suite_drifts["hash"] - 1.0).abs() < 1e-9);
    let notes = comparison_notes(&cmp);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("suite by suite") && n.contains("cipher 1.030")),
        "{notes:?}"
    );
}

#[test]
fn a_suite_drift_that_would_move_its_cases_away_from_one_is_not_divided_out() {
    // One core busy: the canary in the suite's groups ran 1.9% slower
    // while the cases' fastest rounds stayed. Divided out, a case that
    // moved 0.7% would read 2.5% faster: "inconclusive" for nothing.
    let build = |canary_ns: f64, y_ns: f64| {
        let mut ms: Vec<Measurement> = (0..8)
            .map(|i| measured_near(&format!("H{i}"), 100.0, canary_ns))
            .collect();
        ms.push(measured_near("Y", y_ns, canary_ns));
        ms.push(canary(&series(50.0), 0.005));
        ms
    };
    let cmp = compare_full(
        &run("a", build(50.0, 100.0)),
        &run("b", build(50.95, 99.3)),
        0.02,
    );
    assert_eq!(cmp.drift_kept, vec!["hash".to_string()]);
    assert_eq!(
        cmp.counts(),
        (0, 0, 9, 0),
        "{:?}",
        case_of(&cmp, "Y").comparison
    );
}

#[test]
fn a_case_whose_instances_ran_apart_is_judged_past_that_spread() {
    // SHA-256 4% slower, the rest as they were: a change past 2%, unless
    // building SHA-256 six times showed its placement moves it by 5%.
    let moved = |spread: Option<f64>| {
        let mut ms = with(100.0, 50.0);
        ms[0] = measured("SHA-256", &series(104.0));
        if let Some(s) = spread {
            ms[0]
                .extra
                .insert(cryptobench_core::model::PLACEMENT_SPREAD_KEY.into(), s);
        }
        ms
    };
    let base = run("a", with(100.0, 50.0));
    let cmp = compare_full(&base, &run("b", moved(None)), 0.02);
    assert_eq!(case_of(&cmp, "SHA-256").comparison.verdict, Verdict::Slower);
    assert_eq!(cmp.placement_bound().0, 0);
    let cmp = compare_full(&base, &run("b", moved(Some(0.05))), 0.02);
    let sha = case_of(&cmp, "SHA-256");
    // 4% within its 5% placement spread: not told.
    assert_eq!(sha.comparison.verdict, Verdict::Inconclusive);
    assert!((sha.floor - 0.05).abs() < 1e-12, "{}", sha.floor);
    assert_eq!(cmp.placement_bound(), (1, 0.05));
    let notes = comparison_notes(&cmp);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("1 case(s) widened by how far their instances ran apart")),
        "{notes:?}"
    );
}
