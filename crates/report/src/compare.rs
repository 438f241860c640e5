//! Two runs, case by case, judged against the machine's own noise.
//!
//! Two runs of the same binary on a shared machine differ for reasons that
//! have nothing to do with the code: the machine drifts, between the runs
//! and within each of them, and it is noisier at some moments than others.
//! The canary, timed in every round, measures the first. A whole-run
//! canary ratio misjudges a run whose machine was 10% faster for its first
//! half only (the later suites then look 10% slower), so each case is
//! judged with the drift *around it*: the ratio of the canary's times
//! measured near the case in the two runs, smoothed over neighbouring
//! cases. A suite's drift is divided out only when its cases' median ratio
//! agrees with it (a canary can move while the cases do not, e.g. when the
//! host moves the VM). The second is the noise floor each run measured
//! from its canary. A case counts as changed only when its change exceeds
//! both the threshold and the noise floor either run measured, and the two
//! intervals do not overlap; a change past the threshold whose intervals
//! overlap is "inconclusive".
//!
//! A case is changed only when its own medians moved past the limit too,
//! in the same direction: on a noisy host the canary's local time can move
//! 20% while the cases around it do not, and dividing that out alone then
//! called cases changed whose medians were within 6% (13 of 61 flagged
//! cases in one A/A pair here); such a case is inconclusive.
//!
//! A multi-core case (Argon2 with two lanes, a threads executor) is judged
//! by the canary run on its cores at once, drift and floor: a host can
//! take a VM's second core away for minutes while the first runs at full
//! speed, which the one-core canary never sees.

use crate::tables::{case_headers, status_free_size};
use cryptobench_core::model::{MachineLoad, LAYOUT_FIXED};
use cryptobench_core::units::TimeUnit;
use cryptobench_core::verdict::{seed_of, time_ratio, Estimate};
use cryptobench_core::{CaseStatus, Measurement, Run, Table};
use cryptobench_stats::{compare, median, Comparison, Verdict};
use std::collections::{BTreeMap, HashMap};

/// Cases either side of a case whose canary times are smoothed into its
/// local drift: a group's canary median moves with its own noise, a
/// window of neighbours moves only with the machine.
const LOCAL_WINDOW: usize = 6;

/// One case of a comparison.
#[derive(Debug, Clone)]
pub struct ComparedCase {
    /// The case key.
    pub key: String,
    /// The baseline's measurement.
    pub baseline: Measurement,
    /// The candidate's measurement.
    pub candidate: Measurement,
    /// Time ratio (candidate / baseline), drift removed, and the verdict.
    pub comparison: Comparison,
}

/// A whole comparison: the cases and what the machine did.
#[derive(Debug, Clone)]
pub struct RunComparison {
    /// Every measured case the two runs share (the canary excluded).
    pub cases: Vec<ComparedCase>,
    /// The candidate machine's time relative to the baseline's (above 1:
    /// slower), from the canaries, else the median ratio of all cases.
    pub drift: Option<Estimate>,
    /// Whether `drift` comes from the canaries.
    pub drift_from_canary: bool,
    /// The median of the cases' raw time ratios (candidate / baseline).
    pub cases_median: Option<f64>,
    /// Whether the canaries' drift was divided out of every case: only when
    /// each suite's median ratio agrees with its local drift within the
    /// effective threshold.
    pub drift_removed: bool,
    /// Suites whose cases did not move with the canary around them: their
    /// drift was not divided out.
    pub drift_kept: Vec<String>,
    /// Noise floors the two runs measured (fractions), when they did.
    pub floors: (Option<f64>, Option<f64>),
    /// Floors of the canary on several cores at once, when the runs had
    /// multi-core cases: what a multi-core case must also exceed.
    pub parallel_floors: (Option<f64>, Option<f64>),
    /// The threshold the user asked for.
    pub threshold: f64,
    /// Each run's address layout ("fixed" or "randomized"), when recorded.
    pub layouts: (Option<String>, Option<String>),
}

impl RunComparison {
    /// The change a case must exceed: the threshold or the larger floor.
    pub fn effective_threshold(&self) -> f64 {
        self.threshold.max(larger(self.floors))
    }
    /// The change a multi-core case must exceed: [`Self::effective_threshold`]
    /// or the larger floor of the canary on several cores.
    pub fn multi_core_threshold(&self) -> f64 {
        self.effective_threshold().max(larger(self.parallel_floors))
    }
    /// How many cases have each verdict: (faster, slower, unchanged, inconclusive).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let n = |v: Verdict| {
            self.cases
                .iter()
                .filter(|c| c.comparison.verdict == v)
                .count()
        };
        (
            n(Verdict::Faster),
            n(Verdict::Slower),
            n(Verdict::Unchanged),
            n(Verdict::Inconclusive),
        )
    }
}

/// The larger of the two runs' floors; 0 where neither measured one.
fn larger(floors: (Option<f64>, Option<f64>)) -> f64 {
    floors.0.unwrap_or(0.0).max(floors.1.unwrap_or(0.0))
}

/// Pairs the measured cases of two runs by case key and compares them.
pub fn compare_runs(baseline: &Run, candidate: &Run, threshold: f64) -> Vec<ComparedCase> {
    compare_full(baseline, candidate, threshold).cases
}

/// The full comparison of two runs.
pub fn compare_full(baseline: &Run, candidate: &Run, threshold: f64) -> RunComparison {
    let mut pairs: Vec<(&Measurement, &Measurement)> = Vec::new();
    for c in candidate
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && !m.is_canary())
    {
        let key = c.case_key();
        if let Some(b) = baseline
            .measurements
            .iter()
            .find(|m| m.status == CaseStatus::Measured && m.case_key() == key)
        {
            pairs.push((b, c));
        }
    }
    let raw: Vec<f64> = pairs
        .iter()
        .filter_map(|(b, c)| Some(c.median_ns()? / b.median_ns()?))
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    let cases_median = (!raw.is_empty()).then(|| median(&raw));
    let (drift, drift_from_canary) = match (baseline.canary(), candidate.canary()) {
        (Some(b), Some(c)) => (time_ratio(c, b), true),
        _ => (cases_median.map(Estimate::exact), false),
    };
    let whole_run = drift
        .filter(|_| drift_from_canary)
        .map(|d| d.value)
        .filter(|d| d.is_finite() && *d > 0.0);
    // Each case's drift: the canary around it in the two runs, else the
    // whole run's canary ratio (a run stored before per-case canaries); a
    // multi-core case's from the canary on its cores, where both runs
    // timed that one.
    let (near_b, near_c) = (local_canary(baseline), local_canary(candidate));
    let (many_b, many_c) = (
        group_parallel_canary(baseline),
        group_parallel_canary(candidate),
    );
    // Per pair (both sides share the case key): the drift, and whether
    // the case is judged as multi-core.
    let local: Vec<(Option<f64>, bool)> = pairs
        .iter()
        .map(|(_, c)| {
            let key = c.case_key();
            let many = many_b.contains_key(&key) && many_c.contains_key(&key);
            let (on_b, on_c) = if many {
                (&many_b, &many_c)
            } else {
                (&near_b, &near_c)
            };
            let around = on_c.get(&key).zip(on_b.get(&key)).map(|(c, b)| c / b);
            let drift = around.filter(|d| d.is_finite() && *d > 0.0).or(whole_run);
            (drift, many)
        })
        .collect();
    // Only the canary tells the machine from the code (a median of the
    // cases would also swallow a change that slowed every case), but only
    // a drift the cases share is the machine's: a suite whose cases did
    // not move with the canary around them keeps its raw ratios.
    let mut per_suite: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for ((b, c), (d, _)) in pairs.iter().zip(&local) {
        if let (Some(d), Some(cm), Some(bm)) = (d, c.median_ns(), b.median_ns()) {
            let entry = per_suite.entry(c.suite.as_str()).or_default();
            entry.0.push(cm / bm);
            entry.1.push(*d);
        }
    }
    let mut out = RunComparison {
        cases: Vec::new(),
        drift,
        drift_from_canary,
        cases_median,
        drift_removed: false,
        drift_kept: Vec::new(),
        floors: (baseline.noise_floor(), candidate.noise_floor()),
        parallel_floors: (
            baseline.parallel_noise_floor(),
            candidate.parallel_noise_floor(),
        ),
        threshold,
        layouts: (
            baseline.machine.address_layout.clone(),
            candidate.machine.address_layout.clone(),
        ),
    };
    // Agreement within the limit a case must pass: a disagreement the
    // noise floor covers cannot make a case changed on its own.
    let limit = out.effective_threshold();
    out.drift_kept = per_suite
        .iter()
        .filter(|(_, (raw, d))| (median(d) / median(raw) - 1.0).abs() > limit)
        .map(|(suite, _)| suite.to_string())
        .collect();
    out.drift_removed = drift_from_canary && !per_suite.is_empty() && out.drift_kept.is_empty();
    let multi_core_limit = out.multi_core_threshold();
    for ((b, c), (d, many)) in pairs.into_iter().zip(local) {
        let d = d.filter(|_| drift_from_canary && !out.drift_kept.contains(&c.suite));
        let limit = if many { multi_core_limit } else { limit };
        let comparison = compare_case(b, c, limit, d);
        out.cases.push(ComparedCase {
            key: c.case_key(),
            baseline: b.clone(),
            candidate: c.clone(),
            comparison,
        });
    }
    out
}

/// The measured cases of a run that carry a canary time (`which` of
/// their load), with it, in the order the run measured them.
fn canary_times(
    run: &Run,
    which: impl Fn(&MachineLoad) -> Option<f64>,
) -> Vec<(&Measurement, f64)> {
    run.measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && !m.is_canary())
        .filter_map(|m| Some((m, which(m.machine_load.as_ref()?)?)))
        .filter(|(_, ns)| ns.is_finite() && *ns > 0.0)
        .collect()
}

/// The canary's time around each case of a run, by case key: the median
/// of the per-case canary times within [`LOCAL_WINDOW`] cases of it, in
/// the order the run measured them.
fn local_canary(run: &Run) -> HashMap<String, f64> {
    let timed = canary_times(run, |l| l.canary_ns);
    (0..timed.len())
        .map(|i| {
            let window =
                &timed[i.saturating_sub(LOCAL_WINDOW)..(i + LOCAL_WINDOW + 1).min(timed.len())];
            let times: Vec<f64> = window.iter().map(|(_, ns)| *ns).collect();
            (timed[i].0.case_key(), median(&times))
        })
        .collect()
}

/// The canary on several cores around each multi-core case of a run, by
/// case key: the median over the members of its group that carry one. Not
/// smoothed over neighbouring cases like [`local_canary`]: few cases are
/// multi-core, their neighbours in the run can be minutes apart, and a
/// core taken away comes and goes within that.
fn group_parallel_canary(run: &Run) -> HashMap<String, f64> {
    let timed = canary_times(run, |l| l.parallel_canary_ns);
    let group_of = |m: &Measurement| m.group.clone().unwrap_or_else(|| m.case_key());
    let mut by_group: HashMap<String, Vec<f64>> = HashMap::new();
    for (m, ns) in &timed {
        by_group.entry(group_of(m)).or_default().push(*ns);
    }
    timed
        .iter()
        .map(|(m, _)| (m.case_key(), median(&by_group[&group_of(m)])))
        .collect()
}

/// One case: its raw samples, with the machine's drift (from the two
/// canaries) divided out of the candidate's.
///
/// Each case's own ratio to the canary of its rounds is kept in the run,
/// but dividing by it adds the canary's noise to every case: measured on
/// a 5% slowdown (the `sensitivity` example), raw samples over the drift
/// caught it in 9-10 of 10 comparisons, per-round canary ratios in 7-8.
pub(crate) fn compare_case(
    b: &Measurement,
    c: &Measurement,
    limit: f64,
    drift: Option<f64>,
) -> Comparison {
    let d = drift.unwrap_or(1.0);
    let raw = if b.samples_ns.len() >= 2 && c.samples_ns.len() >= 2 {
        let scaled: Vec<f64> = c.samples_ns.iter().map(|x| x / d).collect();
        compare(&b.samples_ns, &scaled, limit, seed_of(&c.case_key()))
    } else {
        let ratio = c.median_ns().unwrap_or(f64::NAN) / b.median_ns().unwrap_or(f64::NAN) / d;
        Comparison {
            ratio,
            ci95: (ratio, ratio),
            verdict: Verdict::Unchanged,
            intervals_overlap: true,
        }
    };
    let mut verdict = judge(raw.ratio, raw.intervals_overlap, limit);
    // A change that only the drift correction makes: the canary around the
    // case moved and the case did not, or the other way round. Which one
    // the machine did cannot be told from two runs.
    let undrifted = c.median_ns().unwrap_or(f64::NAN) / b.median_ns().unwrap_or(f64::NAN);
    let moved_itself = match verdict {
        Verdict::Slower => undrifted > 1.0 + limit,
        Verdict::Faster => undrifted < 1.0 - limit,
        _ => true,
    };
    if !moved_itself && undrifted.is_finite() {
        verdict = Verdict::Inconclusive;
    }
    Comparison { verdict, ..raw }
}

/// Unchanged within the limit; past it, changed only when the intervals
/// are apart, else inconclusive.
fn judge(ratio: f64, intervals_overlap: bool, limit: f64) -> Verdict {
    if !ratio.is_finite() || (ratio - 1.0).abs() <= limit {
        Verdict::Unchanged
    } else if intervals_overlap {
        Verdict::Inconclusive
    } else if ratio > 1.0 {
        Verdict::Slower
    } else {
        Verdict::Faster
    }
}

/// The comparison as a table (ratio = candidate time / baseline time);
/// both time columns in one unit.
pub fn comparison_table(cmp: &RunComparison, baseline: &Run, candidate: &Run) -> Table {
    let unit = TimeUnit::for_column(
        cmp.cases
            .iter()
            .flat_map(|c| [c.baseline.median_ns(), c.candidate.median_ns()])
            .flatten(),
    );
    let base_header = format!("baseline ({})", unit.symbol());
    let cand_header = format!("candidate ({})", unit.symbol());
    let mut t = Table::new(
        format!(
            "Compare {} (baseline) -> {}: time ratio with the machine's drift removed, lower is faster",
            baseline.id, candidate.id
        ),
        case_headers(&[&base_header, &cand_header, "ratio", "95% CI", "verdict"]),
    )
    .right(&[4, 6, 7, 8, 9]);
    let candidates: Vec<&Measurement> = cmp.cases.iter().map(|c| &c.candidate).collect();
    let variants = crate::tables::variants(&candidates);
    for (c, variant) in cmp.cases.iter().zip(variants) {
        let m = &c.candidate;
        t.row([
            m.suite.clone(),
            m.primitive.clone(),
            m.backend.clone(),
            m.operation.clone(),
            status_free_size(m.input_bytes),
            variant,
            unit.format_bare(c.baseline.median_ns().unwrap_or(f64::NAN)),
            unit.format_bare(m.median_ns().unwrap_or(f64::NAN)),
            format!("{:.3}", c.comparison.ratio),
            format!("{:.3} .. {:.3}", c.comparison.ci95.0, c.comparison.ci95.1),
            c.comparison.verdict.as_str().to_string(),
        ]);
    }
    for note in comparison_notes(cmp) {
        t.note(note);
    }
    t
}

/// The lines that explain a comparison: the machine's drift, the floor
/// used, and the counts.
pub fn comparison_notes(cmp: &RunComparison) -> Vec<String> {
    let mut notes = Vec::new();
    match cmp.drift {
        Some(d) if cmp.drift_removed => notes.push(format!(
            "machine: the candidate's machine was {} overall (canary time ratio {:.3}, 95% CI {:.3} .. {:.3}; the cases' median {:.3}); each case is judged with the canary's drift around it divided out",
            drift_words(d.value),
            d.value,
            d.lo,
            d.hi,
            cmp.cases_median.unwrap_or(f64::NAN)
        )),
        Some(d) if cmp.drift_from_canary => notes.push(format!(
            "machine: the canary was {} overall (time ratio {:.3}, 95% CI {:.3} .. {:.3}; the cases' median {:.3}); in {} the canary moved without them, so its drift is not divided out there{}",
            drift_words(d.value),
            d.value,
            d.lo,
            d.hi,
            cmp.cases_median.unwrap_or(f64::NAN),
            cmp.drift_kept.join(", "),
            if cmp.cases.iter().any(|c| !cmp.drift_kept.contains(&c.candidate.suite)) {
                "; elsewhere each case is judged with the canary's drift around it divided out"
            } else {
                ""
            }
        )),
        Some(d) => notes.push(format!(
            "machine: the candidate's cases were {} overall (median time ratio {:.3}); one of the runs has no canary, so the machine's drift cannot be told from the code's and is not removed",
            drift_words(d.value),
            d.value
        )),
        None => {}
    }
    let floor =
        |f: Option<f64>| f.map_or("not measured".to_string(), |f| format!("{:.1}%", f * 100.0));
    notes.push(format!(
        "a case changed only past {:.1}%: the larger of the threshold ({:.1}%) and the noise floors the runs measured (baseline {}, candidate {}), with intervals apart",
        cmp.effective_threshold() * 100.0,
        cmp.threshold * 100.0,
        floor(cmp.floors.0),
        floor(cmp.floors.1)
    ));
    if cmp.parallel_floors.0.is_some() || cmp.parallel_floors.1.is_some() {
        notes.push(format!(
            "a multi-core case changed only past {:.1}%, judged by the canary on as many cores at once (its floors: baseline {}, candidate {})",
            cmp.multi_core_threshold() * 100.0,
            floor(cmp.parallel_floors.0),
            floor(cmp.parallel_floors.1)
        ));
    }
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
    let (faster, slower, unchanged, inconclusive) = cmp.counts();
    let n = cmp.cases.len();
    notes.push(format!(
        "{n} case(s) compared: {unchanged} unchanged ({:.0}%), {} changed ({faster} faster, {slower} slower), {inconclusive} inconclusive",
        if n == 0 { 0.0 } else { 100.0 * unchanged as f64 / n as f64 },
        faster + slower
    ));
    notes
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

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
