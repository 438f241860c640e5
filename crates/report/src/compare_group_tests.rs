use super::super::tests::{canary, case_of, measured, member_of, run, series};
use super::super::{compare_full, comparison_notes};
use super::moment_floor;
use cryptobench_core::{Measurement, Run};
use cryptobench_stats::Verdict;

/// `primitive` by `backend` in group `group`, its rounds `samples`, the
/// canary in its rounds at 50 ns.
fn grouped(primitive: &str, backend: &str, group: &str, samples: &[f64]) -> Measurement {
    let mut m = measured(primitive, samples);
    m.backend = backend.into();
    m.group = Some(group.into());
    m.machine_load = Some(cryptobench_core::model::MachineLoad {
        canary_ns: Some(50.0),
        ..Default::default()
    });
    m
}

/// A run of `ms` and a canary that did not move.
fn with_calm_canary(id: &str, mut ms: Vec<Measurement>) -> Run {
    ms.push(canary(&series(50.0), 0.005));
    run(id, ms)
}

#[test]
fn a_case_is_judged_against_the_other_libraries_timed_in_its_rounds() {
    // Group g1: the host slowed this work by `g1` while the canary stayed;
    // a runtime and a peer of the same work slowed alike. Group g2: one
    // library changed by `x`. Group g3: three curves of one library, no
    // other backend to stand for the machine.
    let build = |id: &str, g1: f64, x: f64, g3: f64| {
        let mut ms: Vec<Measurement> = ["openssl", "rustcrypto", "libsodium"]
            .iter()
            .map(|b| grouped("AES", b, "g1", &series(100.0 * g1)))
            .collect();
        let mut python = grouped("AES", "python", "g1", &series(300.0 * g1));
        python.params.insert("runtime".into(), "python".into());
        ms.push(python);
        ms.push(grouped(
            "AES",
            "peer:openssl-speed",
            "g1",
            &series(90.0 * g1),
        ));
        ms.push(grouped("ChaCha", "openssl", "g2", &series(80.0 * x)));
        ms.push(grouped("ChaCha", "rustcrypto", "g2", &series(90.0)));
        ms.push(grouped("ChaCha", "libsodium", "g2", &series(70.0)));
        for curve in ["P-256", "P-384", "P-521"] {
            ms.push(grouped(curve, "openssl", "g3", &series(1000.0 * g3)));
        }
        with_calm_canary(id, ms)
    };
    let cmp = compare_full(
        &build("a", 1.0, 1.0, 1.0),
        &build("b", 1.04, 1.10, 1.04),
        0.02,
    );
    for b in [
        "openssl",
        "rustcrypto",
        "libsodium",
        "python",
        "peer:openssl-speed",
    ] {
        let c = member_of(&cmp, "AES", b);
        assert_eq!(c.comparison.verdict, Verdict::Unchanged, "{b}: {c:?}");
        assert!(c.drift_divided, "{b}");
    }
    let changed = member_of(&cmp, "ChaCha", "openssl");
    assert_eq!(changed.comparison.verdict, Verdict::Slower, "{changed:?}");
    assert!((changed.comparison.ratio - 1.10).abs() < 1e-9);
    // Its mates are each other's and its: the median keeps them unchanged.
    let unchanged = cmp
        .cases
        .iter()
        .filter(|c| c.candidate.primitive == "ChaCha" && c.candidate.backend != "openssl");
    for c in unchanged {
        assert_eq!(c.comparison.verdict, Verdict::Unchanged, "{c:?}");
    }
    // One library's cases alone are judged by the canary: a change of
    // that library shows.
    assert_eq!(case_of(&cmp, "P-384").comparison.verdict, Verdict::Slower);
    // The runtime and the peer have mates; they are none.
    assert_eq!(cmp.judged_by_group, 5 + 3);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("group: 8 case(s) judged against the other libraries"),
        "{notes}"
    );
}

/// `rounds` rounds around `centre`, the second half `moved` slower.
fn halves(centre: f64, moved: f64) -> Vec<f64> {
    (0..20)
        .map(|i| {
            let x = centre + (i % 3) as f64 * 0.1;
            if i < 10 {
                x
            } else {
                x * (1.0 + moved)
            }
        })
        .collect()
}

/// Twelve groups of two libraries; in each, openssl's second half of
/// rounds ran `moved` slower than its first against rustcrypto's, and in
/// the first group openssl is `changed` times as slow.
fn twelve_groups(id: &str, moved: f64, changed: f64) -> Run {
    let mut ms = Vec::new();
    for g in 0..12 {
        let group = format!("g{g}");
        let factor = if g == 0 { changed } else { 1.0 };
        ms.push(grouped(
            &format!("P{g}"),
            "openssl",
            &group,
            &halves(100.0 * factor, moved),
        ));
        ms.push(grouped(
            &format!("P{g}"),
            "rustcrypto",
            &group,
            &halves(200.0, 0.0),
        ));
    }
    with_calm_canary(id, ms)
}

#[test]
fn a_run_s_moment_floor_is_how_far_cases_moved_against_their_mates_between_halves() {
    // In each group openssl's second half ran 3% slower than its first
    // against rustcrypto's.
    let floor = moment_floor(&twelve_groups("a", 0.03, 1.0)).unwrap();
    assert!((floor - 0.03).abs() < 1e-6, "{floor}");
    assert_eq!(moment_floor(&twelve_groups("a", 0.0, 1.0)), Some(0.0));
    // Fewer than ten cases with mates: the largest movement among them,
    // from three; none from fewer.
    let all = twelve_groups("a", 0.03, 1.0).measurements;
    let mut few = all[..6].to_vec();
    few[0] = grouped("P0", "openssl", "g0", &halves(100.0, 0.05));
    let floor = moment_floor(&with_calm_canary("few", few)).unwrap();
    assert!((floor - 0.05).abs() < 1e-6, "{floor}");
    assert_eq!(
        moment_floor(&with_calm_canary("two", all[..2].to_vec())),
        None
    );
    // A case 2.5% slower is past the 2% threshold but within how far cases
    // moved within the run: not told. 6% clears both (a ratio past
    // 1.02 * 1.03 once widened by the 3% floor).
    let verdict = |changed: f64| {
        let cmp = compare_full(
            &twelve_groups("a", 0.03, 1.0),
            &twelve_groups("b", 0.03, changed),
            0.02,
        );
        assert!((cmp.group_floor() - 0.03).abs() < 1e-6);
        member_of(&cmp, "P0", "openssl").comparison.verdict
    };
    assert_eq!(verdict(1.025), Verdict::Inconclusive);
    assert_eq!(verdict(1.06), Verdict::Slower);
    let cmp = compare_full(
        &twelve_groups("a", 0.03, 1.0),
        &twelve_groups("b", 0.0, 1.0),
        0.02,
    );
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains(
            "(the 97th percentile, or the largest of fewer than ten cases: baseline 3.0%, candidate 0.0%)"
        ),
        "{notes}"
    );
}

#[test]
fn a_run_s_header_says_how_noisy_the_machine_was_by_the_floors_compare_uses() {
    let header = |run: &Run| crate::tables::run_header(run).replace("\n    ", " ");
    // Cases 3% against their mates and a calm canary: noise, not noisy.
    let calm = header(&twelve_groups("a", 0.03, 1.0));
    assert!(
        calm.contains("noise: between moments of this run the machine's fast end (the canary) moved 0.5% and one-core cases moved 3.0% against the other libraries in their rounds"),
        "{calm}"
    );
    assert!(!calm.contains("noisy"), "{calm}");
    // 8%: a change of a few percent between runs cannot be told.
    let noisy = header(&twelve_groups("a", 0.08, 1.0));
    assert!(noisy.contains("noisy machine:"), "{noisy}");
    assert!(noisy.contains("moved 8.0% against"), "{noisy}");
    assert!(noisy.contains("`cryptobench noise`"), "{noisy}");
    // The canary alone is enough to say it.
    let canary_only = header(&run("c", vec![canary(&series(50.0), 0.12)]));
    assert!(
        canary_only.contains("noisy machine: between moments of this run the machine's fast end (the canary) moved 12.0%:"),
        "{canary_only}"
    );
    // Without a canary or mates there is nothing to say.
    let silent = header(&run("d", vec![measured("SHA-256", &series(100.0))]));
    assert!(!silent.contains("noise"), "{silent}");
}

#[test]
fn the_canary_s_floor_does_not_hide_a_change_its_group_mates_can_see() {
    // The machine's fast end moved 12% between moments in both runs, but
    // within each group the libraries moved together (1% against each
    // other): the mates divide the machine's movement out, so a library
    // 5% slower shows. The sensitivity example's trials read 3 of 10
    // while the canary's floor applied to such cases.
    let build = |id: &str, changed: f64| {
        let mut ms = twelve_groups(id, 0.01, changed).measurements;
        ms.retain(|m| !m.is_canary());
        ms.push(canary(&series(50.0), 0.12));
        run(id, ms)
    };
    let cmp = compare_full(&build("a", 1.0), &build("b", 1.05), 0.02);
    assert!((cmp.run_floor() - 0.12).abs() < 1e-6);
    assert!((cmp.group_floor() - 0.01).abs() < 1e-6);
    let target = member_of(&cmp, "P0", "openssl");
    assert_eq!(target.comparison.verdict, Verdict::Slower, "{target:?}");
    // Its one mate reads the change as its own, the other way, and only
    // as inconclusive; the other groups stay unchanged.
    for c in cmp.cases.iter().filter(|c| c.candidate.primitive != "P0") {
        assert_eq!(c.comparison.verdict, Verdict::Unchanged, "{c:?}");
    }
    let mate = member_of(&cmp, "P0", "rustcrypto");
    assert_eq!(mate.comparison.verdict, Verdict::Inconclusive);
    let notes = comparison_notes(&cmp).join("\n");
    assert!(
        notes.contains("the canary's floors do not apply to it"),
        "{notes}"
    );
    // Without a moment floor (too few cases with mates) the canary's
    // floor applies, and a 5% change within its 12% is not told.
    let pair = |id: &str, changed: f64| {
        let mut ms = twelve_groups(id, 0.01, changed).measurements[..2].to_vec();
        ms.push(canary(&series(50.0), 0.12));
        run(id, ms)
    };
    let cmp = compare_full(&pair("a", 1.0), &pair("b", 1.05), 0.02);
    assert!((cmp.group_floor() - 0.12).abs() < 1e-6);
    assert_eq!(cmp.cases[0].comparison.verdict, Verdict::Inconclusive);
}
