//! Two runs, case by case, judged against the machine's own noise.
//!
//! Two runs of the same binary on a shared machine differ for reasons that
//! have nothing to do with the code. Other tenants slow the machine in
//! episodes of seconds to minutes, and a case measured in one has its
//! median moved by 10-50%: between two identical quick runs here, 43-110
//! of 294 native cases' medians moved by more than 5%. Such noise only
//! adds time, so a case's fastest rounds stay where the code puts them:
//! in the same pairs 5-13 of the fastest rounds moved by more than 5%. A
//! code change moves every round, the fastest too. So each case is judged
//! by the ratio of its fastest rounds ([`cryptobench_stats::fast_end`]),
//! with its 95% interval.
//!
//! Each case's ratio is decided, not thresholded ([`cryptobench_stats::decide`]):
//! its 95% interval (how well each run knew its fastest round) is widened
//! by the between-run uncertainty the runs measured (the noise floor of
//! their canaries, and the floors below that apply to the case), the two
//! combined in quadrature on the log scale. The case is *unchanged* only
//! when that widened interval lies inside `1 +- threshold`, *faster* or
//! *slower* when it lies wholly outside, else *inconclusive*; with it
//! comes the smallest change the pair could have detected. A floor is
//! width, never a dead zone: a change past the threshold is never
//! unchanged.
//!
//! The machine's own drift is the ratio of the canaries' fast ends,
//! reported first. What is divided out of a one-core case is the drift it
//! shares with the other libraries timed in its own rounds, its
//! group-mates (`compare_group`): a neighbour on the host slows some work
//! more than the canary. A case without mates has its suite's canary
//! drift divided out, but only in a suite whose cases moved with it (a
//! canary can move while the cases do not, e.g. when the host moves the
//! VM). A case is changed only when its own
//! fastest rounds, before the drift is divided out, moved past the
//! threshold too, in the same direction; a change that only the correction makes is
//! inconclusive.
//!
//! A multi-core case (Argon2 with two lanes, a threads executor) is judged
//! by the canary run on its cores at once, drift and floor: a host can
//! take a VM's second core away for minutes while the first runs at full
//! speed, which the one-core canary never sees. One-core memory-bound
//! cases (Argon2 with one lane) are judged by the memory probe timed in
//! their groups' rounds, the median of its drift over their groups: between
//! two quick runs here their fastest rounds moved 5-24% with the cost of
//! page faults while the canary moved 0.1%. Their floor also covers how
//! far the probe moved within either run ([`memory_floor`]).

use crate::tables::{case_headers, status_free_size};
use cryptobench_core::disturbance::CalmLevels;
use cryptobench_core::model::MachineLoad;
use cryptobench_core::units::TimeUnit;
use cryptobench_core::verdict::Estimate;
use cryptobench_core::{CaseStatus, Measurement, Run, Table};
use cryptobench_stats::{median, quantile, quantile_ci_rank, Comparison, Verdict};
use std::collections::{BTreeMap, HashMap};

#[path = "compare_case.rs"]
mod case;
#[path = "compare_group.rs"]
mod group;
#[path = "compare_notes.rs"]
mod notes;
use case::{by_median, compare_case, judged_ns};
pub use group::moment_floor;
use group::{fastest_ratios, group_drift, mates_of};
pub use notes::comparison_notes;

/// The canary's fast end, as a quantile of its batches: a case's fastest of
/// some twenty rounds sits near its 5th percentile, and the canary, with a
/// thousand batches and more, is compared at the same place rather than at
/// its own extreme.
const CANARY_FAST_QUANTILE: f64 = 0.05;

/// A run floor past which a run's own noise hides changes of a few
/// percent between runs: `run` and `show` then call the machine noisy.
/// Calm hours on this project's VM read 1-3%; a host busy in ways /proc
/// does not show read 16-44% (methodology, section 10).
pub const NOISY_FLOOR: f64 = 0.05;

/// One case of a comparison.
#[derive(Debug, Clone)]
pub struct ComparedCase {
    /// The case key.
    pub key: String,
    /// The baseline's measurement.
    pub baseline: Measurement,
    /// The candidate's measurement.
    pub candidate: Measurement,
    /// Ratio of the fastest rounds (candidate / baseline), drift removed,
    /// its interval, the interval widened by `floor`, the verdict and the
    /// smallest change it could have detected.
    pub comparison: Comparison,
    /// The between-run uncertainty the case's interval was widened by: the
    /// larger floor of its kind (one-core, multi-core, memory-bound) and
    /// the floors that apply to it alone (its runtime's restart gap, a
    /// disturbed moment, its placement spread).
    pub floor: f64,
    /// Whether the machine's drift was divided out of this case.
    pub drift_divided: bool,
    /// How much slower than calm the machine ran while either run sampled
    /// this case, when that moment counts as disturbed (a factor); the
    /// floor covers it.
    pub disturbed: Option<f64>,
    /// How far the instances built to choose this case's placement ran
    /// apart in either run, the larger ([`Measurement::placement_spread`]);
    /// the floor covers it.
    pub placement: Option<f64>,
}

/// A whole comparison: the cases and what the machine did.
#[derive(Debug, Clone)]
pub struct RunComparison {
    /// Every measured case the two runs share (the canary excluded).
    pub cases: Vec<ComparedCase>,
    /// The candidate machine's time relative to the baseline's (above 1:
    /// slower), from the canaries' fast ends, else the median ratio of the
    /// cases' fastest rounds.
    pub drift: Option<Estimate>,
    /// Whether `drift` comes from the canaries.
    pub drift_from_canary: bool,
    /// Each suite's drift from the canary in its groups' rounds
    /// ([`suite_drifts`]): what its one-core cases without group-mates are
    /// divided by instead of `drift`.
    pub suite_drifts: BTreeMap<String, f64>,
    /// The median of the cases' raw ratios of fastest rounds (candidate /
    /// baseline).
    pub cases_median: Option<f64>,
    /// Whether the canaries' drift was divided out of every case: only when
    /// each suite's median ratio agrees with it within the effective
    /// threshold.
    pub drift_removed: bool,
    /// Suites whose cases did not move with the canary: their drift was
    /// not divided out ("argon2 (multi-core)" for a suite's multi-core
    /// cases, which follow the canary on their cores).
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
    /// What the memory probe says of the one-core memory-bound cases,
    /// when both runs probed some.
    pub memory: Option<MemoryDrift>,
    /// How far the memory probe moved within each run ([`memory_floor`]):
    /// what a one-core memory-bound case must also exceed.
    pub memory_floors: (Option<f64>, Option<f64>),
    /// How far a fresh process alone moved each runtime's cases within
    /// each run ([`restart_floors`]), by backend: what its cases must
    /// also exceed.
    pub restart_floors: BTreeMap<String, (Option<f64>, Option<f64>)>,
    /// How far one-core cases moved against the other libraries of their
    /// groups between two moments within each run ([`moment_floor`]):
    /// what a one-core case must also exceed.
    pub moment_floors: (Option<f64>, Option<f64>),
    /// How many cases were judged against their group-mates' drift.
    pub judged_by_group: usize,
}

/// The machine's memory drift between two runs, from the memory probes
/// of the groups of one-core memory-bound cases.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryDrift {
    /// The median of those groups' probe ratios (candidate / baseline).
    pub probe: f64,
    /// The median of those cases' raw ratios.
    pub cases_median: f64,
    /// How many cases.
    pub cases: usize,
    /// Whether `probe` was divided out of them: only when it agrees with
    /// `cases_median` within the limit.
    pub removed: bool,
}

/// Where a case's drift comes from.
enum Drift {
    /// The other libraries of its kind timed in the case's rounds
    /// (`compare_group`): the drift it shares with them.
    Group(f64),
    /// The canary in its suite's groups, else over the whole run.
    Run,
    /// The canary on the case's cores in its group (a multi-core case).
    Cores(Option<f64>),
    /// The memory probe ([`MemoryDrift`]).
    Memory,
}

impl RunComparison {
    /// The larger noise floor of the two runs' canaries.
    pub fn run_floor(&self) -> f64 {
        larger(self.floors)
    }
    /// The floor of a multi-core case: [`Self::run_floor`] or the larger
    /// floor of the canary on several cores.
    pub fn multi_core_floor(&self) -> f64 {
        self.run_floor().max(larger(self.parallel_floors))
    }
    /// The floor of a one-core case that is not memory-bound:
    /// [`Self::run_floor`] or the larger moment floor.
    pub fn one_core_floor(&self) -> f64 {
        self.run_floor().max(larger(self.moment_floors))
    }
    /// The floor of a one-core case judged against its group-mates: the
    /// larger moment floor. The canary's floors say how far the machine
    /// moved between moments, which the mates' drift divides out of such a
    /// case; what is left is how far a case moves against its mates.
    /// Without one, [`Self::one_core_floor`].
    pub fn group_floor(&self) -> f64 {
        if self.moment_floors.0.is_none() && self.moment_floors.1.is_none() {
            return self.one_core_floor();
        }
        larger(self.moment_floors)
    }
    /// The floor of a one-core memory-bound case: [`Self::run_floor`] or
    /// the larger memory floor.
    pub fn memory_floor(&self) -> f64 {
        self.run_floor().max(larger(self.memory_floors))
    }
    /// The threshold or the larger run floor: how far the suites' cases
    /// and the canary may disagree before the drift is kept.
    pub fn effective_threshold(&self) -> f64 {
        self.threshold.max(self.run_floor())
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
    /// The median and the largest, over the cases, of the smallest change
    /// each could have detected; `None` without cases.
    pub fn detectable(&self) -> Option<(f64, f64)> {
        let each: Vec<f64> = self.cases.iter().map(|c| c.comparison.detectable).collect();
        (!each.is_empty()).then(|| {
            let most = each.iter().copied().fold(0.0, f64::max);
            (median(&each), most)
        })
    }

    /// The cases whose floor their placement spread set, and the largest
    /// such spread.
    pub fn placement_bound(&self) -> (usize, f64) {
        self.cases
            .iter()
            .filter_map(|c| c.placement.filter(|&p| p > 0.0 && p >= c.floor))
            .fold((0, 0.0), |(n, most), p| (n + 1, f64::max(most, p)))
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

/// The candidate canary's fast end over the baseline's, with the interval
/// of that quantile's ranks on both sides.
fn canary_drift(baseline: &Measurement, candidate: &Measurement) -> Option<Estimate> {
    let fast = |m: &Measurement| {
        let (lo, hi) = quantile_ci_rank(&m.samples_ns, CANARY_FAST_QUANTILE);
        let value = quantile(&m.samples_ns, CANARY_FAST_QUANTILE);
        (value.is_finite() && lo > 0.0).then_some((value, lo, hi))
    };
    let ((b, blo, bhi), (c, clo, chi)) = (fast(baseline)?, fast(candidate)?);
    Some(Estimate {
        value: c / b,
        lo: clo / bhi,
        hi: chi / blo,
        paired: false,
        earlier: None,
        rounds: None,
    })
}

/// The full comparison of two runs.
pub fn compare_full(baseline: &Run, candidate: &Run, threshold: f64) -> RunComparison {
    // The first measured baseline case of each key, found by hashing:
    // pairing stays linear in the runs' size.
    let mut first_of: HashMap<String, &Measurement> = HashMap::new();
    for m in baseline
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured)
    {
        first_of.entry(m.case_key()).or_insert(m);
    }
    let mut pairs: Vec<(&Measurement, &Measurement)> = Vec::new();
    for c in candidate
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && !m.is_canary())
    {
        if let Some(b) = first_of.get(&c.case_key()) {
            pairs.push((b, c));
        }
    }
    drop(first_of);
    let raw_ratio = |b: &Measurement, c: &Measurement| {
        let median = by_median(b, c);
        Some(judged_ns(c, median)? / judged_ns(b, median)?).filter(|r| r.is_finite() && *r > 0.0)
    };
    let raw: Vec<f64> = pairs.iter().filter_map(|(b, c)| raw_ratio(b, c)).collect();
    let cases_median = (!raw.is_empty()).then(|| median(&raw));
    let (drift, drift_from_canary) = match (baseline.canary(), candidate.canary()) {
        (Some(b), Some(c)) => (canary_drift(b, c), true),
        _ => (cases_median.map(Estimate::exact), false),
    };
    let whole_run = drift
        .filter(|_| drift_from_canary)
        .map(|d| d.value)
        .filter(|d| d.is_finite() && *d > 0.0);
    // A multi-core case's drift comes from the canary on its cores in its
    // group, where both runs timed one: a core lent elsewhere for minutes
    // slows every round of a group, its fastest included.
    let parallel = |l: &MachineLoad| l.parallel_canary_ns;
    let (many_b, many_c) = (by_group(baseline, parallel), by_group(candidate, parallel));
    // One-core memory-bound cases share the machine's memory drift: the
    // median of their groups' probe ratios (one group's fastest of five
    // probes scatters by some 5%, the median of a run's groups does not),
    // divided out only when their own median ratio agrees with it.
    let memory = |l: &MachineLoad| l.memory_probe_ns;
    let (memory_b, memory_c) = (by_group(baseline, memory), by_group(candidate, memory));
    let probe_ratio = |key: &str| {
        Some(memory_c.get(key)? / memory_b.get(key)?).filter(|d| d.is_finite() && *d > 0.0)
    };
    let suite_drift = suite_drifts(baseline, candidate, &pairs);
    let mates = mates_of(&pairs);
    let fast_ratios = fastest_ratios(&pairs);
    let mut memory_bound = Vec::new();
    let local: Vec<Drift> = pairs
        .iter()
        .zip(&mates)
        .enumerate()
        .map(|(i, ((b, c), mates))| {
            if let Some(d) = group_drift(i, mates, &fast_ratios) {
                return Drift::Group(d);
            }
            let key = c.case_key();
            match (many_b.get(&key), many_c.get(&key)) {
                (Some(b), Some(c)) => {
                    Drift::Cores(Some(c / b).filter(|d| d.is_finite() && *d > 0.0))
                }
                _ => match (probe_ratio(&key), raw_ratio(b, c)) {
                    (Some(d), Some(r)) => {
                        memory_bound.push((d, r));
                        Drift::Memory
                    }
                    _ => Drift::Run,
                },
            }
        })
        .collect();
    let memory_drift = (!memory_bound.is_empty()).then(|| {
        let (probes, raws): (Vec<f64>, Vec<f64>) = memory_bound.iter().copied().unzip();
        (median(&probes), median(&raws))
    });
    // Only the canary tells the machine from the code (a median of the
    // cases would also swallow a change that slowed every case), but only
    // a drift the cases share is the machine's: a suite whose cases did
    // not move with the canary keeps its raw ratios.
    // A suite's multi-core cases are asked apart from its one-core ones:
    // they follow the canary on their own cores, which can move while the
    // one-core canary stays put (a second core lent elsewhere for a run).
    // Each case's ratio over its own drift: a multi-core case's drift is
    // its group's.
    // Each suite's cases: (raw ratio, ratio over its drift).
    let mut per_suite: BTreeMap<(&str, bool), Vec<(f64, f64)>> = BTreeMap::new();
    let run_drift = |suite: &str| suite_drift.get(suite).copied().or(whole_run);
    for ((b, c), drift) in pairs.iter().zip(&local) {
        let d = match drift {
            Drift::Cores(d) => *d,
            Drift::Run => run_drift(&c.suite),
            // Asked apart: the memory probe's drift has an agreement test
            // of its own, and group-mates' drift is the same work's.
            Drift::Memory | Drift::Group(_) => None,
        };
        if let (Some(d), Some(r)) = (d, raw_ratio(b, c)) {
            let many = matches!(drift, Drift::Cores(_));
            per_suite
                .entry((c.suite.as_str(), many))
                .or_default()
                .push((r, r / d));
        }
    }
    let mut out = RunComparison {
        cases: Vec::new(),
        drift,
        drift_from_canary,
        suite_drifts: suite_drift
            .iter()
            .map(|(s, d)| (s.to_string(), *d))
            .collect(),
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
        memory: None,
        memory_floors: (memory_floor(baseline), memory_floor(candidate)),
        restart_floors: restart_floors_of(baseline, candidate),
        moment_floors: (moment_floor(baseline), moment_floor(candidate)),
        judged_by_group: local
            .iter()
            .filter(|d| matches!(d, Drift::Group(_)))
            .count(),
    };
    // Agreement within the limit a case must pass: a disagreement the
    // noise floor covers cannot make a case changed on its own.
    let limit = out.effective_threshold();
    let multi_core_limit = threshold.max(out.multi_core_floor());
    let agrees_within = |limit: f64, d: f64, raw: f64| (d / raw - 1.0).abs() <= limit;
    let agrees = |d: f64, raw: f64| agrees_within(limit, d, raw);
    // Divided out where the cases moved with it: the median corrected
    // ratio within the limit, and no farther from 1 than the median raw
    // one. With one core busy, the canary in the aead suite's groups ran
    // 1.9% slower while its cases' fastest rounds stayed (a median raw
    // ratio of 1.00); divided out, 15 of them read 2-3% faster,
    // "inconclusive".
    out.drift_kept = per_suite
        .iter()
        .filter(|((_, many), ratios)| {
            let limit = if *many { multi_core_limit } else { limit };
            let (raw, corrected): (Vec<f64>, Vec<f64>) = ratios.iter().copied().unzip();
            let (raw, corrected) = (median(&raw), median(&corrected));
            !agrees_within(limit, 1.0, corrected) || corrected.ln().abs() > raw.ln().abs()
        })
        .map(|((suite, many), _)| drift_label(suite, *many))
        .collect();
    out.drift_removed = drift_from_canary && !per_suite.is_empty() && out.drift_kept.is_empty();
    out.memory = memory_drift.map(|(probe, raw)| MemoryDrift {
        probe,
        cases_median: raw,
        cases: memory_bound.len(),
        removed: agrees(probe, raw),
    });
    let calm = (
        CalmLevels::of(&baseline.measurements),
        CalmLevels::of(&candidate.measurements),
    );
    for ((b, c), drift) in pairs.into_iter().zip(local) {
        let many = matches!(drift, Drift::Cores(_));
        let kept = !drift_from_canary || out.drift_kept.contains(&drift_label(&c.suite, many));
        let d = match drift {
            Drift::Group(d) => Some(d),
            Drift::Cores(d) => d.filter(|_| !kept),
            Drift::Run => run_drift(&c.suite).filter(|_| !kept),
            Drift::Memory => out.memory.filter(|m| m.removed).map(|m| m.probe),
        };
        let drift_divided = d.is_some() && !matches!(drift, Drift::Memory);
        let run_floor = match drift {
            Drift::Cores(_) if c.memory_bound() => out.multi_core_floor().max(out.memory_floor()),
            Drift::Cores(_) => out.multi_core_floor(),
            Drift::Memory => out.memory_floor(),
            Drift::Group(_) if c.cores_used() > 1 => out.multi_core_floor(),
            Drift::Group(_) if c.memory_bound() => out.memory_floor(),
            Drift::Group(_) => out.group_floor(),
            Drift::Run => out.one_core_floor(),
        };
        let restart = out
            .restart_floors
            .get(&c.backend)
            .map_or(0.0, |floors| larger(*floors));
        // A moment the canary says was disturbed (what measuring again
        // could not replace) may have slowed the case by as much.
        let disturbed = [calm.0.slowdown(b), calm.1.slowdown(c)]
            .into_iter()
            .flatten()
            .reduce(f64::max);
        // Where its memory landed moves a case between processes by about
        // as much as it moved its instances within one.
        let placement = [b.placement_spread(), c.placement_spread()]
            .into_iter()
            .flatten()
            .reduce(f64::max);
        // Others wanting the case's cores for its whole stretch can slow
        // every round, the fastest too.
        let contention = [
            case::contention_floor(b, baseline.machine.cores),
            case::contention_floor(c, candidate.machine.cores),
        ]
        .into_iter()
        .flatten()
        .reduce(f64::max);
        let own = run_floor
            .max(restart)
            .max(disturbed.map_or(0.0, |f| f - 1.0))
            .max(placement.unwrap_or(0.0))
            .max(contention.unwrap_or(0.0));
        let comparison = compare_case(b, c, own, d, threshold);
        out.cases.push(ComparedCase {
            key: c.case_key(),
            baseline: b.clone(),
            candidate: c.clone(),
            comparison,
            floor: own,
            drift_divided,
            disturbed,
            placement,
        });
    }
    out
}

/// The drift of each suite's one-core cases: the median, over them, of
/// the canary's time in their groups' rounds, candidate over baseline.
///
/// The whole run's canary says how fast the machine was overall, but a
/// suite is measured in a stretch of it, and the machine moves between
/// stretches: in four pairs of back-to-back quick runs here whole suites
/// moved 2-4% one way (31 aead cases 2.0-3.9% slower in one pair, 29
/// pubkey cases in another) while the run's canary did not, and each such
/// suite's groups' canaries moved with it (aead 1.027 against 1.030,
/// ecc 1.037 against 1.040). Measured in those rounds, the canary of the
/// suite's own groups is the machine at that stretch.
fn suite_drifts<'a>(
    baseline: &Run,
    candidate: &Run,
    pairs: &[(&'a Measurement, &'a Measurement)],
) -> BTreeMap<&'a str, f64> {
    let one_core = |l: &MachineLoad| l.canary_ns.filter(|_| l.parallel_canary_ns.is_none());
    let (before, after) = (by_group(baseline, one_core), by_group(candidate, one_core));
    let mut ratios: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (_, c) in pairs
        .iter()
        .filter(|(b, c)| !c.memory_bound() && !b.memory_bound())
    {
        let key = c.case_key();
        if let (Some(b), Some(a)) = (before.get(&key), after.get(&key)) {
            let r = a / b;
            if r.is_finite() && r > 0.0 {
                ratios.entry(c.suite.as_str()).or_default().push(r);
            }
        }
    }
    ratios
        .into_iter()
        .map(|(suite, rs)| (suite, median(&rs)))
        .collect()
}

/// The cases of a suite that share a drift: its one-core cases ("argon2")
/// or its multi-core ones ("argon2 (multi-core)").
fn drift_label(suite: &str, many: bool) -> String {
    if many {
        format!("{suite} (multi-core)")
    } else {
        suite.to_string()
    }
}

/// A machine reading around each case of a run (the canary on several
/// cores, the memory probe), by case key: the median over the members of
/// its group that carry one. Not smoothed over neighbouring cases: few
/// cases carry one, their neighbours in the run can be minutes apart, and
/// a core taken away comes and goes within that.
fn by_group(run: &Run, reading: impl Fn(&MachineLoad) -> Option<f64>) -> HashMap<String, f64> {
    let (timed, groups) = group_readings(run, reading);
    timed
        .into_iter()
        .map(|(m, group)| (m.case_key(), groups[&group]))
        .collect()
}

/// The measured cases carrying `reading`, each with its group's name, and
/// the median reading of each group over those cases.
fn group_readings(
    run: &Run,
    reading: impl Fn(&MachineLoad) -> Option<f64>,
) -> (Vec<(&Measurement, String)>, HashMap<String, f64>) {
    let group_of = |m: &Measurement| m.group.clone().unwrap_or_else(|| m.case_key());
    let mut readings: HashMap<String, Vec<f64>> = HashMap::new();
    let mut timed = Vec::new();
    for m in run
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && !m.is_canary())
    {
        let Some(ns) = m.machine_load.as_ref().and_then(&reading) else {
            continue;
        };
        if ns.is_finite() && ns > 0.0 {
            readings.entry(group_of(m)).or_default().push(ns);
            timed.push((m, group_of(m)));
        }
    }
    let medians = readings
        .into_iter()
        .map(|(group, ns)| (group, median(&ns)))
        .collect();
    (timed, medians)
}

/// How far the memory system's speed moved within a run: the slowest of
/// its one-core memory-bound groups' fastest memory probes over the
/// fastest, less one; `None` with fewer than two such groups. A run has a
/// dozen such moments at most (one per group), so the whole range: within
/// each of twenty quick runs here it spanned 5-12% (45% in a disturbed
/// one), and those groups' Argon2 cases moved 3-10% between two runs
/// while the canary stayed within 1%.
fn memory_floor(run: &Run) -> Option<f64> {
    let one_core_probe =
        |l: &MachineLoad| l.memory_probe_ns.filter(|_| l.parallel_canary_ns.is_none());
    let (_, groups) = group_readings(run, one_core_probe);
    let probes: Vec<f64> = groups.into_values().collect();
    let fastest = probes.iter().copied().reduce(f64::min)?;
    let slowest = probes.iter().copied().reduce(f64::max)?;
    (probes.len() >= 2).then(|| slowest / fastest - 1.0)
}

/// The quantile a floor is taken at, over the changes noise alone made
/// within a run (a runtime's fresh process, two moments of a group): a
/// smaller change is one that noise alone makes in more than 3 cases of
/// 100, the share of cases an A/A comparison may call changed. In eight
/// A/A pairs here, 1-9 of 141 runtime cases came out changed or
/// inconclusive with restart floors at the 90th percentile, 0-4 at the
/// 97th.
pub(super) const FLOOR_QUANTILE: f64 = 0.97;

/// How far a fresh process alone moves a runtime's cases within a run, by
/// backend: the [`FLOOR_QUANTILE`] over its cases of how far each one's
/// fastest rounds in its two runner processes differ (the larger over the
/// smaller, less one; [`Measurement::restart_ratio`]), from three cases
/// up. Between two runs each runtime case meets a fresh process, so a
/// change smaller than this cannot be told from the restart.
fn restart_floors(run: &Run) -> BTreeMap<String, f64> {
    let mut apart: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for m in run
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && !m.is_canary())
    {
        if let Some(r) = m.restart_ratio() {
            apart
                .entry(m.backend.clone())
                .or_default()
                .push(r.max(1.0 / r) - 1.0);
        }
    }
    apart
        .into_iter()
        .filter(|(_, gaps)| gaps.len() >= 3)
        .map(|(backend, gaps)| (backend, quantile(&gaps, FLOOR_QUANTILE)))
        .collect()
}

/// Both runs' restart floors, by backend.
fn restart_floors_of(
    baseline: &Run,
    candidate: &Run,
) -> BTreeMap<String, (Option<f64>, Option<f64>)> {
    let (b, c) = (restart_floors(baseline), restart_floors(candidate));
    b.keys()
        .chain(c.keys())
        .map(|k| (k.clone(), (b.get(k).copied(), c.get(k).copied())))
        .collect()
}

/// The comparison as a table: each run's fastest round, their ratio
/// (candidate / baseline, drift removed) with its interval, that interval
/// widened by the case's floor, the smallest change it could have
/// detected and the verdict; both time columns in one unit.
pub fn comparison_table(cmp: &RunComparison, baseline: &Run, candidate: &Run) -> Table {
    let unit = TimeUnit::for_column(
        cmp.cases
            .iter()
            .flat_map(|c| {
                let median = by_median(&c.baseline, &c.candidate);
                [
                    judged_ns(&c.baseline, median),
                    judged_ns(&c.candidate, median),
                ]
            })
            .flatten(),
    );
    let base_header = format!("baseline ({})", unit.symbol());
    let cand_header = format!("candidate ({})", unit.symbol());
    let mut t = Table::new(
        format!(
            "Compare {} (baseline) -> {}: fastest rounds, their time ratio with the machine's drift removed, lower is faster",
            baseline.id, candidate.id
        ),
        case_headers(&[
            &base_header,
            &cand_header,
            "ratio",
            "95% CI",
            "floor",
            "widened CI",
            "detectable",
            "verdict",
        ]),
    )
    .right(&[4, 6, 7, 8, 9, 10, 11, 12]);
    let candidates: Vec<&Measurement> = cmp.cases.iter().map(|c| &c.candidate).collect();
    let variants = crate::tables::variants(&candidates);
    let interval = |(lo, hi): (f64, f64)| format!("{lo:.3} .. {hi:.3}");
    for (c, variant) in cmp.cases.iter().zip(variants) {
        let m = &c.candidate;
        let median = by_median(&c.baseline, m);
        t.row([
            m.suite.clone(),
            m.primitive.clone(),
            m.backend.clone(),
            m.operation.clone(),
            status_free_size(m.input_bytes),
            variant,
            unit.format_bare(judged_ns(&c.baseline, median).unwrap_or(f64::NAN)),
            unit.format_bare(judged_ns(m, median).unwrap_or(f64::NAN)),
            format!("{:.3}", c.comparison.ratio),
            interval(c.comparison.ci95),
            format!("{:.1}%", c.floor * 100.0),
            interval(c.comparison.widened),
            percent_or_none(c.comparison.detectable),
            c.comparison.verdict.as_str().to_string(),
        ]);
    }
    for note in comparison_notes(cmp) {
        t.note(note);
    }
    t
}

/// A fraction as a percentage, "none" when no change could be detected.
pub(crate) fn percent_or_none(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", x * 100.0)
    } else {
        "none".into()
    }
}

#[cfg(test)]
#[path = "compare_tests.rs"]
mod tests;
