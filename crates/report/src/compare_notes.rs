//! The lines under a comparison: what the machine did between the runs,
//! which floors a case had to pass, and the counts.

use super::{by_median, larger, percent_or_none, RunComparison, FLOOR_QUANTILE};
use cryptobench_core::disturbance::{DISTURBED, MEMORY_DISTURBED};
use cryptobench_core::model::LAYOUT_FIXED;

/// The lines that explain a comparison: the machine's drift, the floor
/// used, and the counts.
pub fn comparison_notes(cmp: &RunComparison) -> Vec<String> {
    let mut notes = Vec::new();
    let by_canary = cmp.cases.len() - cmp.judged_by_group;
    // Who the canary's drift was divided out of: the cases without
    // group-mates, where the suites' cases moved with it.
    let divided_of = if cmp.judged_by_group == 0 {
        "each case"
    } else {
        "each case without group-mates"
    };
    match cmp.drift {
        Some(d) if cmp.drift_removed || (cmp.drift_from_canary && cmp.drift_kept.is_empty()) => {
            notes.push(format!(
                "machine: the candidate's machine was {} overall (ratio of the canaries' fast ends {:.3}, 95% CI {:.3} .. {:.3}; the cases' median {:.3}); it is divided out of {divided_of}",
                drift_words(d.value),
                d.value,
                d.lo,
                d.hi,
                cmp.cases_median.unwrap_or(f64::NAN)
            ))
        }
        Some(d) if cmp.drift_from_canary => notes.push(format!(
            "machine: the canary was {} overall (ratio of the canaries' fast ends {:.3}, 95% CI {:.3} .. {:.3}; the cases' median {:.3}); in {} the canary moved without them, so its drift is not divided out there{}",
            drift_words(d.value),
            d.value,
            d.lo,
            d.hi,
            cmp.cases_median.unwrap_or(f64::NAN),
            cmp.drift_kept.join(", "),
            if cmp
                .cases
                .iter()
                .any(|c| c.drift_divided && !cmp.drift_kept.contains(&c.candidate.suite))
            {
                "; elsewhere it is divided out of the cases without group-mates"
            } else {
                ""
            }
        )),
        Some(d) => notes.push(format!(
            "machine: the candidate's cases were {} overall (median ratio of fastest rounds {:.3}); one of the runs has no canary, so the machine's drift cannot be told from the code's and is not removed",
            drift_words(d.value),
            d.value
        )),
        None => {}
    }
    if cmp.judged_by_group > 0 {
        notes.push(format!(
            "group: {} case(s) judged against the other libraries timed in their own rounds: each one's drift is the median ratio of its group's members of other backends timed in this process on one core, as memory-bound as it (with two of them its own ratio joins; a neighbour on the host slows some work more than the canary)",
            cmp.judged_by_group
        ));
    }
    if !cmp.suite_drifts.is_empty() && by_canary > 0 {
        let each: Vec<String> = cmp
            .suite_drifts
            .iter()
            .map(|(suite, d)| format!("{suite} {d:.3}"))
            .collect();
        notes.push(format!(
            "machine, suite by suite (the canary in each suite's groups, candidate / baseline; what its one-core cases without group-mates are divided by where the drift is divided out): {}",
            each.join(", ")
        ));
    }
    notes.push(format!(
        "verdicts: each case's 95% interval is widened by its floor, the between-run uncertainty (at least the larger of the noise floors the runs measured at the machine's fast end: baseline {}, candidate {}), the two combined in quadrature on the log scale (the floor column, the widened CI column); a case is unchanged only when its widened interval lies inside 1 +- {:.1}% (the threshold), faster or slower when it lies wholly outside, else inconclusive; the detectable column is the smallest change that pair of runs could have called a change",
        shown(cmp.floors.0),
        shown(cmp.floors.1),
        cmp.threshold * 100.0,
    ));
    notes.extend(floors_note(
        &format!(
            "a one-core case judged against its group-mates is widened by {:.1}%: how far one-core cases moved against the other libraries of their groups between the first and the second half of their rounds within either run (the {:.0}th percentile, or the largest of fewer than ten cases: ",
            cmp.group_floor() * 100.0,
            FLOOR_QUANTILE * 100.0
        ),
        cmp.moment_floors,
        "); the canary's floors do not apply to it, since its mates' drift divides out how far the machine moved; a one-core case without mates is widened by both",
    ));
    let by_median = cmp
        .cases
        .iter()
        .filter(|c| by_median(&c.baseline, &c.candidate))
        .count();
    if by_median > 0 {
        notes.push(format!(
            "{by_median} case(s) whose work per call varies by design (ML-DSA signing's rejections, RSA's prime search) judged by their medians instead, with the medians' 95% intervals: their fastest rounds are lucky batches"
        ));
    }
    if let Some(m) = cmp.memory {
        notes.push(format!(
            "memory: the memory probe (fresh pages faulted in and filled, beside {} one-core memory-bound case(s)) was {} (median ratio of their groups' fastest probes {:.3}; the cases' median {:.3}); {}",
            m.cases,
            drift_words(m.probe),
            m.probe,
            m.cases_median,
            if m.removed {
                "it is divided out of them instead of the canary's drift"
            } else {
                "they did not move with it, so no drift is divided out of them"
            }
        ));
    }
    notes.extend(floors_note(
        &format!(
            "a one-core memory-bound case is widened by {:.1}%: how far the memory probe's fastest moved between the groups of either run (",
            cmp.memory_floor() * 100.0
        ),
        cmp.memory_floors,
        "); the memory system's speed moves from minute to minute by more than the canary's",
    ));
    let disturbed = cmp.cases.iter().filter(|c| c.disturbed.is_some()).count();
    if disturbed > 0 {
        notes.push(format!(
            "{disturbed} case(s) measured in a disturbed moment of either run that measuring again did not replace (the canary {:.0}% or more over its run's calm level, the memory probe {:.0}%): each one's floor covers how much slower the machine ran then",
            DISTURBED * 100.0,
            MEMORY_DISTURBED * 100.0
        ));
    }
    let (placed, most) = cmp.placement_bound();
    if placed > 0 {
        notes.push(format!(
            "{placed} case(s) widened by how far their instances ran apart where either run built them several times to choose where their memory lands (the median instance over the fastest, up to {:.1}%): a fresh process lands them elsewhere",
            most * 100.0
        ));
    }
    if !cmp.restart_floors.is_empty() {
        let each: Vec<String> = cmp
            .restart_floors
            .iter()
            .map(|(backend, floors)| format!("{backend} {:.1}%", larger(*floors) * 100.0))
            .collect();
        notes.push(format!(
            "a case timed in a runtime's two runner processes is widened by how far its runtime's cases moved between them within either run (the {:.0}th percentile of their gaps): {}",
            FLOOR_QUANTILE * 100.0,
            each.join(", ")
        ));
    }
    notes.extend(floors_note(
        &format!(
            "a multi-core case is widened by {:.1}%, judged by the canary on as many cores at once (its floors: ",
            cmp.multi_core_floor() * 100.0
        ),
        cmp.parallel_floors,
        ")",
    ));
    // With a random layout a small-message case moves between processes
    // by up to 2x on its own (crates/engine/src/layout.rs).
    let fixed = |l: &Option<String>| l.as_deref() == Some(LAYOUT_FIXED);
    if !fixed(&cmp.layouts.0) || !fixed(&cmp.layouts.1) {
        let shown = |l: &Option<String>| l.clone().unwrap_or_else(|| "not recorded".into());
        notes.push(format!(
            "address layout: baseline {}, candidate {}: with a randomized layout, cases of small messages can differ by where code and buffers landed alone",
            shown(&cmp.layouts.0),
            shown(&cmp.layouts.1)
        ));
    }
    notes.push(summary_line(cmp));
    notes
}

/// The counts: decided and undecided cases, and the change these runs
/// could detect.
pub fn summary_line(cmp: &RunComparison) -> String {
    let (faster, slower, unchanged, inconclusive) = cmp.counts();
    let n = cmp.cases.len();
    let share = |k: usize| {
        if n == 0 {
            0.0
        } else {
            100.0 * k as f64 / n as f64
        }
    };
    let decided = faster + slower + unchanged;
    let detectable = match cmp.detectable() {
        Some((median, most)) => format!(
            "; these runs could not tell a change under {} (median over the cases; the least precise {})",
            percent_or_none(median),
            percent_or_none(most)
        ),
        None => String::new(),
    };
    format!(
        "{n} case(s) compared: {decided} decided ({:.0}%: {unchanged} unchanged, {} changed: {faster} faster, {slower} slower), {inconclusive} undecided (inconclusive){detectable}",
        share(decided),
        faster + slower
    )
}

fn drift_words(ratio: f64) -> String {
    let pct = (ratio - 1.0).abs() * 100.0;
    if pct < 0.05 {
        "as fast".into()
    } else if ratio > 1.0 {
        format!("{pct:.1}% slower")
    } else {
        format!("{pct:.1}% faster")
    }
}

/// A floor as the notes show it.
fn shown(floor: Option<f64>) -> String {
    floor.map_or("not measured".to_string(), |f| format!("{:.1}%", f * 100.0))
}

/// `head`, the two runs' `floors` and `tail`, when either run measured
/// the floor.
fn floors_note(head: &str, floors: (Option<f64>, Option<f64>), tail: &str) -> Option<String> {
    (floors.0.is_some() || floors.1.is_some()).then(|| {
        format!(
            "{head}baseline {}, candidate {}{tail}",
            shown(floors.0),
            shown(floors.1)
        )
    })
}
