use super::*;
use crate::calm::PointTime;
use crate::params::Variant;
use crate::tune::tests::machine;

#[test]
fn the_ladder_holds_round_values_only() {
    let mib: Vec<f64> = rungs(1 << 20, 2)
        .iter()
        .filter(|&&k| k >= 1024)
        .map(|&k| f64::from(k) / 1024.0)
        .collect();
    assert_eq!(
        mib,
        [
            1024.0, 768.0, 512.0, 384.0, 256.0, 192.0, 128.0, 96.0, 64.0, 48.0, 32.0, 24.0, 16.0,
            12.0, 8.0, 6.0, 4.0, 3.0, 2.0, 1.5, 1.0
        ]
    );
    // A budget between rungs tops out at the rung below it.
    assert_eq!(rungs(250 * 1024, 2)[0], 192 * 1024);
    // Four lanes: nothing under 32 KiB, every rung whole 16 KiB blocks.
    let four = rungs(1 << 20, 4);
    assert_eq!(four.last(), Some(&32));
    assert!(four.iter().all(|k| k % 16 == 0));
    assert!(on_ladder(&Params::new(Variant::Id, 384 * 1024, 2, 2)));
    assert!(!on_ladder(&Params::new(Variant::Id, 226 * 1024, 2, 2)));
}

/// Every (rung, t) point of the model in RFC order, and whether it lands.
fn lands_on_model(ns: f64, m_kib: u32, t: u32, target: Duration) -> bool {
    let time = machine(ns, 2)(&Params::new(Variant::Id, m_kib, t, 2)).unwrap();
    lands_within(time, target)
}

#[test]
fn the_search_names_the_most_memory_that_lands_and_the_passes_nearest_the_target() {
    for ns in [400.0, 1_000.0, 2_500.0] {
        for target_ms in [250, 500, 1000] {
            let target = Duration::from_millis(target_ms);
            let base = Params::new(Variant::Id, 1 << 20, 1, 2);
            let found = ladder_search(base, target, &mut machine(ns, 2)).unwrap();
            let p = found.params;
            assert!(on_ladder(&p), "{ns} {target_ms}: {p:?}");
            assert!(lands_within(found.time, target), "{found:?}");
            // No point with more memory lands.
            for &m in rungs(1 << 20, 2).iter().filter(|&&m| m > p.m_kib) {
                for t in 1..=64 {
                    assert!(
                        !lands_on_model(ns, m, t, target),
                        "{ns} ns, {target_ms} ms: chose {p:?} but {m} KiB, t = {t} lands"
                    );
                }
            }
            // On its memory, no other number of passes lands nearer.
            let off = |t: u32| {
                let time = machine(ns, 2)(&Params { t, ..p }).unwrap();
                (time.as_secs_f64() / target.as_secs_f64() - 1.0).abs()
            };
            for t in (1..=64).filter(|&t| t != p.t) {
                assert!(
                    off(t) >= off(p.t),
                    "{ns} ns, {target_ms} ms: chose {p:?} but t = {t} lands nearer"
                );
            }
        }
    }
}

#[test]
fn the_passes_nearest_the_target_win_over_the_most_that_land() {
    // 192 MiB at 792 ns per KiB-pass on 2 lanes: 77.9 ms per pass, so
    // t = 14 lands at 109% of 1 s (inside +-10%, at its edge) and
    // t = 13 at 101%.
    let base = Params::new(Variant::Id, 192 * 1024, 1, 2);
    let target = Duration::from_secs(1);
    let found = ladder_search(base, target, &mut machine(792.0, 2)).unwrap();
    assert_eq!((found.params.m_kib, found.params.t), (192 * 1024, 13));
    // A prediction that was off: the point landed at the edge is
    // corrected by one pass on its own time per pass.
    let mut skewed = machine(792.0, 2);
    let mut measure = |p: &Params| {
        let t = skewed(p)?;
        // One pass runs 8% slow (first touch of the memory).
        Ok(if p.t == 1 { t.mul_f64(1.08) } else { t })
    };
    let found = ladder_search(base, target, &mut measure).unwrap();
    assert_eq!(found.params.t, 13, "{found:?}");
}

#[test]
fn a_target_no_setting_reaches_is_reported() {
    let base = Params::new(Variant::Id, 1 << 20, 1, 2);
    let e = ladder_search(base, Duration::from_micros(10), &mut machine(1e6, 2)).unwrap_err();
    assert!(
        matches!(e, TuneError::TargetTooShort { m_kib: 16, .. }),
        "{e}"
    );
}

/// [`short_tune`] on the model machine with a clock that never runs
/// out; returns the results and the points measured.
fn tune_on_model(
    ns: f64,
    targets: &[Duration],
    incumbents: &[Incumbent],
) -> (Vec<ShortTune>, Vec<Params>) {
    tune_on_model_from(
        Params::new(Variant::Id, 1 << 20, 1, 2),
        ns,
        targets,
        incumbents,
    )
}

/// [`tune_on_model`] with `base` as variant, lanes and memory budget.
fn tune_on_model_from(
    base: Params,
    ns: f64,
    targets: &[Duration],
    incumbents: &[Incumbent],
) -> (Vec<ShortTune>, Vec<Params>) {
    let mut model = machine(ns, 2);
    let mut measured = Vec::new();
    let mut measure = |p: &Params, _runs: usize| {
        measured.push(*p);
        model(p).map(PointTime::from)
    };
    let mut clock = || Duration::ZERO;
    let found = short_tune(
        targets,
        base,
        incumbents,
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    (found, measured)
}

#[test]
fn the_short_tune_lands_each_target_on_the_ladder_and_shares_its_points() {
    let targets = [Duration::from_millis(500), Duration::from_millis(250)];
    let (found, measured) = tune_on_model(1_000.0, &targets, &[]);
    assert_eq!(found[0].target, Duration::from_millis(500), "longest first");
    for f in &found {
        let trial = f.found.as_ref().unwrap();
        assert!(lands_within(trial.time, f.target), "{f:?}");
        assert!(on_ladder(&trial.params), "{f:?}");
        assert_eq!(f.kept_from, None);
    }
    // The second search reuses the first one's t = 1 point at the top rung.
    let top = Params::new(Variant::Id, 1 << 20, 1, 2);
    assert_eq!(measured.iter().filter(|p| **p == top).count(), 1);
}

fn incumbent(target_ms: u64, m_mib: u32, t: u32) -> Incumbent {
    Incumbent {
        target: Duration::from_millis(target_ms),
        params: Params::new(Variant::Id, m_mib * 1024, t, 2),
        backend: "libargon2".into(),
        run_id: "20261124-033847-35af".into(),
        calm_reference: None,
        history: Vec::new(),
    }
}

#[test]
fn an_incumbent_within_ten_percent_is_kept_and_timed_alone() {
    // 1000 ns per KiB-pass on 2 lanes: 768 MiB, t = 1 and 384 MiB,
    // t = 2 both take ~393 ms, 98% of 400 ms. The search names the
    // first (more memory); an incumbent on the second stays.
    let target = Duration::from_millis(400);
    let (plain, _) = tune_on_model(1_000.0, &[target], &[]);
    let plain = plain[0].found.as_ref().unwrap().params;
    let kept = incumbent(400, 384, 2);
    assert_ne!(
        plain, kept.params,
        "the test needs an incumbent the search would not pick"
    );
    let (found, measured) = tune_on_model(1_000.0, &[target], std::slice::from_ref(&kept));
    let f = &found[0];
    assert_eq!(f.found.as_ref().unwrap().params, kept.params);
    assert_eq!(f.kept_from.as_deref(), Some("20261124-033847-35af"));
    assert_eq!(measured, vec![kept.params], "only the incumbent is timed");
}

#[test]
fn an_incumbent_off_by_fifteen_percent_is_kept_a_new_point_would_not_be() {
    // 384 MiB, t = 2 takes ~393 ms: 115% of a 342 ms target, outside
    // the +-10% a search accepts, inside the +-20% that keeps.
    let target = Duration::from_millis(342);
    let kept = incumbent(342, 384, 2);
    let (found, measured) = tune_on_model(1_000.0, &[target], std::slice::from_ref(&kept));
    assert_eq!(measured, vec![kept.params]);
    assert_eq!(found[0].found.as_ref().unwrap().params, kept.params);
    assert!(!lands_within(found[0].found.as_ref().unwrap().time, target));
}

#[test]
fn an_incumbent_off_by_a_quarter_is_dropped_for_a_plain_search() {
    // 384 MiB, t = 2 takes ~393 ms: 126% of a 312 ms target.
    let target = Duration::from_millis(312);
    let stale = incumbent(312, 384, 2);
    let (found, measured) = tune_on_model(1_000.0, &[target], std::slice::from_ref(&stale));
    let (plain, _) = tune_on_model(1_000.0, &[target], &[]);
    let f = &found[0];
    assert_eq!(measured[0], stale.params, "the incumbent is timed first");
    assert_eq!(f.kept_from, None);
    let timed = f.incumbent.unwrap();
    assert_eq!(timed.params, stale.params);
    let share = timed.time.as_secs_f64() / target.as_secs_f64();
    assert!((1.25..1.27).contains(&share), "{share}");
    assert_eq!(f.found, plain[0].found);
    assert_ne!(f.found.as_ref().unwrap().params, stale.params);
    // An incumbent off the ladder, or for other lanes, is not even timed.
    let odd = [incumbent(312, 226, 1), {
        let mut i = incumbent(312, 384, 2);
        i.params.lanes = 4;
        i
    }];
    let (_, measured) = tune_on_model(1_000.0, &[target], &odd);
    assert!(measured
        .iter()
        .all(|p| p.m_kib != 226 * 1024 && p.lanes == 2));
}

/// The 400 ms incumbent 384 MiB, t = 2 (~393 ms, 98% of its target),
/// its first timing `first` times what it takes and every other timing
/// true: what the short tune found and how many timings it made.
fn incumbent_timed_odd_once(first: f64) -> (Vec<ShortTune>, usize) {
    let kept = incumbent(400, 384, 2);
    let base = Params::new(Variant::Id, 1 << 20, 1, 2);
    let mut model = machine(1_000.0, 2);
    let mut calls = 0;
    let mut measure = |p: &Params, _runs: usize| {
        calls += 1;
        let t = model(p)?;
        Ok(PointTime::from(if calls == 1 {
            t.mul_f64(first)
        } else {
            t
        }))
    };
    let mut clock = || Duration::ZERO;
    let found = short_tune(
        &[Duration::from_millis(400)],
        base,
        std::slice::from_ref(&kept),
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    (found, calls)
}

/// Asserts the 400 ms incumbent was kept, timed twice, at a time that
/// lands.
fn kept_after_a_second_try(found: &[ShortTune], calls: usize) {
    let kept = incumbent(400, 384, 2);
    assert_eq!(calls, 2, "timed twice, no search");
    assert_eq!(found[0].kept_from.as_deref(), Some("20261124-033847-35af"));
    let trial = found[0].found.as_ref().unwrap();
    assert_eq!(trial.params, kept.params);
    assert!(lands_within(trial.time, found[0].target), "{trial:?}");
}

#[test]
fn an_incumbent_timed_slow_once_gets_a_second_try() {
    // Its first timing meets a disturbed moment (+30%), the second does
    // not: judged by the faster.
    let (found, calls) = incumbent_timed_odd_once(1.3);
    kept_after_a_second_try(&found, calls);
}

#[test]
fn an_incumbent_timed_slow_is_timed_again_after_the_other_targets() {
    // Two incumbents that hold on this machine (98% of their targets).
    // The 400 ms one first meets a disturbed moment (+30%) that lasts
    // until the next timing: timed again at once it would be dropped;
    // timed after the 200 ms incumbent it is kept.
    let long = incumbent(400, 384, 2);
    let short = incumbent(200, 192, 2);
    let base = Params::new(Variant::Id, 1 << 20, 1, 2);
    let mut model = machine(1_000.0, 2);
    let mut order = Vec::new();
    let mut measure = |p: &Params, _runs: usize| {
        order.push(*p);
        let t = model(p)?;
        // The disturbed moment covers the first two timings.
        Ok(PointTime::from(
            if order.len() == 1 || (order.len() == 2 && *p == long.params) {
                t.mul_f64(1.3)
            } else {
                t
            },
        ))
    };
    let mut clock = || Duration::ZERO;
    let found = short_tune(
        &[Duration::from_millis(200), Duration::from_millis(400)],
        base,
        &[short.clone(), long.clone()],
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    assert_eq!(order, vec![long.params, short.params, long.params]);
    assert_eq!(found[0].target, Duration::from_millis(400), "longest first");
    for (f, i) in found.iter().zip([&long, &short]) {
        assert_eq!(f.kept_from.as_deref(), Some(i.run_id.as_str()), "{f:?}");
        assert_eq!(f.found.as_ref().unwrap().params, i.params);
    }
    assert!(lands_within(
        found[0].found.as_ref().unwrap().time,
        found[0].target
    ));
}

/// [`short_tune`] for 250 ms and 1 s with a 15 s budget, from 1 GiB
/// on two lanes, on the given clock and machine.
fn tune_250ms_and_1s(
    clock: &mut dyn FnMut() -> Duration,
    measure: &mut dyn FnMut(&Params, usize) -> Result<PointTime, TuneError>,
) -> Vec<ShortTune> {
    short_tune(
        &[Duration::from_millis(250), Duration::from_secs(1)],
        Params::new(Variant::Id, 1 << 20, 1, 2),
        &[],
        Duration::from_secs(15),
        clock,
        measure,
    )
}

#[test]
fn a_search_that_never_lands_leaves_the_next_target_its_share() {
    // A machine on which more than one pass runs 3x slow: the 1 s
    // search keeps missing; one pass at 512 MiB lands on 250 ms.
    let mut model = machine(1_000.0, 2);
    let spent = std::cell::Cell::new(Duration::ZERO);
    let mut measure = |p: &Params, runs: usize| {
        let one = model(p)?;
        let one = if p.t > 1 { one * 3 } else { one };
        spent.set(spent.get() + one * runs as u32);
        Ok(one.into())
    };
    let mut clock = || spent.get();
    let found = tune_250ms_and_1s(&mut clock, &mut measure);
    let long = found[0].found.as_ref().unwrap_err();
    assert!(
        matches!(long, TuneError::BudgetSpent { until_s, .. } if *until_s == 7.5),
        "{long}"
    );
    let short = found[1].found.as_ref().unwrap();
    assert_eq!(
        (short.params.m_kib, short.params.t),
        (512 * 1024, 1),
        "{short:?}"
    );
}

#[test]
fn a_fixed_cost_per_hash_is_fitted_not_spread_over_the_passes() {
    // Page faults once per hash (130 ms at 256 MiB) and 200 ms per
    // pass: one pass takes 330 ms, and a model of time per pass alone
    // predicts 3 passes for 1 s (730 ms, a miss).
    let mut measured = Vec::new();
    let mut measure = |p: &Params| {
        measured.push(*p);
        let scale = f64::from(p.m_kib) / f64::from(256 * 1024);
        Ok(Duration::from_secs_f64(
            scale * (0.13 + 0.2 * f64::from(p.t)),
        ))
    };
    let found = ladder_search(
        Params::new(Variant::Id, 256 * 1024, 1, 2),
        Duration::from_secs(1),
        &mut measure,
    )
    .unwrap();
    assert_eq!((found.params.m_kib, found.params.t), (256 * 1024, 4));
    assert!(measured.len() <= 3, "{measured:?}");
    let model = PassModel::at(
        256 * 1024,
        &[
            Trial {
                params: Params::new(Variant::Id, 256 * 1024, 1, 2),
                time: Duration::from_millis(330),
            },
            Trial {
                params: Params::new(Variant::Id, 256 * 1024, 3, 2),
                time: Duration::from_millis(730),
            },
        ],
    )
    .unwrap();
    assert!((model.fixed - 0.13).abs() < 1e-9 && (model.per_pass - 0.2).abs() < 1e-9);
    // Scaled to half the memory, both parts halve.
    let half = PassModel::at(
        128 * 1024,
        &[Trial {
            params: Params::new(Variant::Id, 256 * 1024, 2, 2),
            time: Duration::from_millis(400),
        }],
    )
    .unwrap();
    assert!((half.time(2) - 0.2).abs() < 1e-9, "{half:?}");
}

#[test]
fn a_spent_budget_keeps_the_nearest_point_within_twenty_percent() {
    // 1 GiB, one pass, two lanes: 524 ms; then the budget is spent.
    let tune = |target_ms: u64| {
        let mut model = machine(1_000.0, 2);
        let mut measure = |p: &Params, _runs: usize| model(p).map(PointTime::from);
        let mut looks = 0u64;
        let mut clock = || {
            looks += 1;
            Duration::from_secs(if looks == 1 { 0 } else { 20 })
        };
        short_tune(
            &[Duration::from_millis(target_ms)],
            Params::new(Variant::Id, 1 << 20, 1, 2),
            &[],
            Duration::from_secs(15),
            &mut clock,
            &mut measure,
        )
    };
    // 87% of 600 ms: outside the +-10% a search accepts, inside +-20%.
    let found = tune(600);
    let kept = found[0].found.as_ref().unwrap();
    assert_eq!((kept.params.m_kib, kept.params.t), (1 << 20, 1));
    // 66% of 800 ms: nothing answers, and the spent budget is said.
    let found = tune(800);
    assert!(matches!(found[0].found, Err(TuneError::BudgetSpent { .. })));
}

#[test]
fn a_spent_budget_is_said_per_target() {
    let mut model = machine(1_000.0, 2);
    let mut measure = |p: &Params, _runs: usize| model(p).map(PointTime::from);
    let mut spent = 0u64;
    // Each look at the clock advances it 6 s: the 1 s search measures
    // one point before its share (7.5 s) is spent, and the 250 ms
    // search finds the whole budget spent.
    let mut clock = || {
        spent += 6;
        Duration::from_secs(spent)
    };
    let found = tune_250ms_and_1s(&mut clock, &mut measure);
    let last = found.last().unwrap();
    let why = last.found.as_ref().unwrap_err();
    assert_eq!(
        *why,
        TuneError::BudgetSpent {
            budget_s: 15,
            until_s: 15.0
        },
        "{why}"
    );
    assert_eq!(short_tune_runs(Duration::from_millis(250)), 3);
    assert_eq!(short_tune_runs(Duration::from_secs(1)), 2);
    assert_eq!(short_tune_budget(true, false), Duration::from_secs(15));
}

#[test]
fn a_point_a_longer_search_timed_is_timed_again_before_a_shorter_target_names_it() {
    // One pass on 256 MiB takes 190 ms here (76% of 250 ms), but the 1 s
    // search's first timing of it met a disturbed moment (+25%: 95%).
    let base = Params::new(Variant::Id, 256 * 1024, 1, 2);
    let top = base;
    let mut model = machine(1_450.0, 2);
    let mut measured = Vec::new();
    let mut measure = |p: &Params, _runs: usize| {
        measured.push(*p);
        let t = model(p)?;
        Ok(PointTime::from(if measured.len() == 1 {
            t.mul_f64(1.25)
        } else {
            t
        }))
    };
    let mut clock = || Duration::ZERO;
    let found = short_tune(
        &[Duration::from_millis(250), Duration::from_secs(1)],
        base,
        &[],
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    assert_eq!(measured[0], top, "the 1 s search starts at the top rung");
    assert_eq!(
        measured.iter().filter(|p| **p == top).count(),
        2,
        "timed again for 250 ms: {measured:?}"
    );
    let short = &found[1];
    assert_eq!(short.target, Duration::from_millis(250));
    let trial = short.found.as_ref().unwrap();
    assert_ne!(trial.params, top, "{trial:?}");
    let truth = machine(1_450.0, 2)(&trial.params).unwrap();
    assert!(lands_within(truth, short.target), "{trial:?}");
    // A borrowed point that lands on its second timing too is named at
    // the faster time, without a third.
    let targets = [Duration::from_millis(190), Duration::from_secs(1)];
    let (found, calls) = tune_on_model_from(base, 1_450.0, &targets, &[]);
    assert_eq!(found[1].found.as_ref().unwrap().params, top);
    assert_eq!(calls.iter().filter(|p| **p == top).count(), 2);
    // Timed with as many hashes as the shorter target takes (two each for
    // 400 ms and 1 s): named as it was, not timed again.
    let targets = [Duration::from_millis(400), Duration::from_secs(1)];
    let (found, calls) = tune_on_model_from(base, 3_050.0, &targets, &[]);
    assert_eq!(found[1].found.as_ref().unwrap().params, top);
    assert_eq!(calls.iter().filter(|p| **p == top).count(), 1);
}

#[test]
fn an_incumbent_timed_fast_once_gets_a_second_try_judged_by_the_nearer_timing() {
    // Its first timing reads 25% fast (references disturbed more than the
    // point scale it down too far); the second does not.
    let (found, calls) = incumbent_timed_odd_once(0.75);
    kept_after_a_second_try(&found, calls);
    let target = Duration::from_millis(400);
    let kept = incumbent(400, 384, 2);
    let base = Params::new(Variant::Id, 1 << 20, 1, 2);
    let mut clock = || Duration::ZERO;
    // Fast both times: dropped and searched for again.
    let mut model = machine(1_000.0, 2);
    let mut measure = |p: &Params, _runs: usize| {
        let t = model(p)?;
        Ok(PointTime::from(if *p == kept.params {
            t.mul_f64(0.75)
        } else {
            t
        }))
    };
    let found = short_tune(
        &[target],
        base,
        std::slice::from_ref(&kept),
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    assert_eq!(found[0].kept_from, None);
    assert_ne!(found[0].found.as_ref().unwrap().params, kept.params);
}

/// The 400 ms incumbent 384 MiB, t = 2 (~393 ms here) with earlier runs'
/// timings `history` (shares of 400 ms), timed 25% fast every time in this
/// run: what the short tune found.
fn fast_here_with_history(history: &[f64]) -> ShortTune {
    let target = Duration::from_millis(400);
    let kept = Incumbent {
        history: history.iter().map(|s| target.mul_f64(*s)).collect(),
        ..incumbent(400, 384, 2)
    };
    let base = Params::new(Variant::Id, 1 << 20, 1, 2);
    let mut model = machine(1_000.0, 2);
    let mut measure = |p: &Params, _runs: usize| {
        let t = model(p)?;
        Ok(PointTime::from(if *p == kept.params {
            t.mul_f64(0.75)
        } else {
            t
        }))
    };
    let mut clock = || Duration::ZERO;
    let mut found = short_tune(
        &[target],
        base,
        std::slice::from_ref(&kept),
        Duration::from_secs(15),
        &mut clock,
        &mut measure,
    );
    found.remove(0)
}

#[test]
fn one_run_reading_an_incumbent_fast_does_not_drop_what_earlier_runs_timed_on_target() {
    // Earlier runs timed it at 98% and 96%: this run's 74% (twice) is one
    // reading of three, and the median keeps it.
    let f = fast_here_with_history(&[0.98, 0.96]);
    let kept = incumbent(400, 384, 2);
    assert_eq!(f.kept_from.as_deref(), Some("20261124-033847-35af"));
    let named = f.found.as_ref().unwrap();
    assert_eq!(named.params, kept.params);
    // Named at the pooled time (the advice judges by it); this run's own
    // timing is kept apart, for the next run's history.
    let share = |d: Duration| d.as_secs_f64() / 0.4;
    assert!((0.95..0.97).contains(&share(named.time)), "{named:?}");
    let own = f.incumbent.unwrap().time;
    assert!((0.73..0.75).contains(&share(own)), "{own:?}");
    // Timed fast in earlier runs too, it is off: dropped and searched for.
    let f = fast_here_with_history(&[0.75, 0.76]);
    assert_eq!(f.kept_from, None);
    assert_ne!(f.found.as_ref().unwrap().params, kept.params);
}

#[test]
fn the_pooled_time_is_the_median_of_this_run_and_at_most_four_earlier() {
    let ms = |v: u64| Duration::from_millis(v);
    assert_eq!(pooled(ms(300), &[]), ms(300));
    assert_eq!(pooled(ms(300), &[ms(400)]), ms(350));
    assert_eq!(pooled(ms(300), &[ms(400), ms(390)]), ms(390));
    // Newest first: the fifth earlier run no longer counts (with it,
    // the median of six would be 400 ms).
    let history = [ms(500), ms(500), ms(300), ms(300), ms(300)];
    assert_eq!(pooled(ms(500), &history), ms(500));
    assert_eq!(HISTORY_RUNS, 4);
}

#[test]
fn an_incumbent_the_calm_scaling_reads_fast_is_kept_while_its_time_as_timed_answers() {
    // The 400 ms incumbent (~393 ms here) read 75-76% at calm speed in
    // earlier runs and 75% in this one, as a calm reference that crept
    // faster scales it down, while this run timed it at 98% as it ran.
    let target = Duration::from_millis(400);
    let kept = Incumbent {
        history: [0.75, 0.76].iter().map(|s| target.mul_f64(*s)).collect(),
        ..incumbent(400, 384, 2)
    };
    let tune = |as_timed: f64| {
        let mut model = machine(1_000.0, 2);
        let mut calls = 0;
        let mut measure = |p: &Params, _runs: usize| {
            calls += 1;
            let t = model(p)?;
            Ok(if *p == kept.params {
                PointTime {
                    at_calm: t.mul_f64(0.75),
                    as_timed: t.mul_f64(as_timed),
                }
            } else {
                t.into()
            })
        };
        let mut clock = || Duration::ZERO;
        let found = short_tune(
            &[target],
            Params::new(Variant::Id, 1 << 20, 1, 2),
            std::slice::from_ref(&kept),
            Duration::from_secs(15),
            &mut clock,
            &mut measure,
        );
        (found[0].clone(), calls)
    };
    let (f, calls) = tune(1.0);
    assert_eq!(f.kept_from.as_deref(), Some("20261124-033847-35af"));
    assert_eq!(calls, 1, "kept on its first timing");
    assert_eq!(f.found.as_ref().unwrap().params, kept.params);
    let share = |d: Duration| d.as_secs_f64() / 0.4;
    assert!((0.97..0.99).contains(&share(f.as_timed.unwrap())), "{f:?}");
    // Named at its pooled time at calm speed, as before.
    assert!((0.74..0.76).contains(&share(f.found.unwrap().time)));
    // Timed fast as it ran too (76% of the target): off both ways, dropped.
    let (f, _) = tune(0.78);
    assert_eq!(f.kept_from, None);
    assert_ne!(f.found.as_ref().unwrap().params, kept.params);
}
