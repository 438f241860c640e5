//! The settings the `run` advice may name for an Argon2id target: memory on
//! a ladder of round values, whole passes, and an incumbent that stays
//! while it still holds.
//!
//! Lowering the memory continuously until the time fills the target names a
//! different setting in every run (226 MiB, then 241 MiB), because this
//! machine's speed swings by 5-12% between runs. So the short tune only
//! names memory on a ladder: powers of two KiB and their 1.5x midpoints
//! (..., 128, 192, 256, 384, 512 MiB, ...), the sizes people write down.
//! Neighbouring rungs are 1.33x or 1.5x apart, and whole passes fill the
//! gaps between their products (3, 5 and 7 passes give 1.125x, 1.25x and
//! 1.75x steps), so a target nearly always has a rung within +-10%. Among
//! the rungs whose time lands within +-10% of the target, RFC 9106
//! section 4's order decides: the most memory; then the passes that land
//! nearest the target, not the most passes, which sat at the band's upper
//! edge (+5-10%), where a slower moment in the run's own measurement
//! pushed the setting out of the +-20% that keeps it.
//!
//! A setting an earlier run chose for the same target (the incumbent) is
//! timed first and kept while it still lands within +-20%
//! (`TUNE_KEEP_TOLERANCE`), twice the band a new search must meet: that
//! hysteresis keeps the advice from flipping when a memory-bound hash
//! lands 12% off in one process and 8% in the next, and only a setting
//! clearly off is searched for again. An incumbent timed off that band is
//! timed once more, after the other targets' incumbents, and judged by the
//! timing nearer its target: on a shared host a hash that met a disturbed
//! moment lands 20-30% slow, and a point whose references met one more
//! than it did is scaled to calm speed too far and reads fast (a setting
//! chosen at 91% of 500 ms read under 80% in the next run, and was
//! replaced), so one odd timing does not change the advice. Nor does one
//! run: the keep band judges this run's timing pooled with the timings
//! earlier runs took of the same setting ([`pooled`]). The calm-speed time
//! is a lower bound (the scaling only shortens a timing, and can overshoot)
//! and the time as timed an upper one, so an incumbent is kept while the
//! span between them meets the band ([`incumbent_answers`]).

use crate::calm::PointTime;
use crate::params::Params;
use crate::tune::{Trial, TuneError};
use cryptobench_core::advice::{still_answers, TUNE_TOLERANCE};
use std::time::Duration;

/// Smallest rung, KiB: Argon2's 8 KiB per lane minimum for one lane.
const LOWEST_RUNG_KIB: u64 = 8;

/// A point is measured when its predicted time lies within this share of
/// the target: wider than the +-10% that accepts it, so a rung whose
/// prediction is a little off is still tried before a smaller one.
const PROBE: f64 = 0.15;

/// At most this many points per search: enough for a first estimate and a
/// few corrections, few enough for the 15 s `--quick` budget.
const MAX_TRIALS: usize = 10;

/// The ladder's memory values up to `budget_kib` for `lanes` lanes, largest
/// first: 2^k and 1.5 x 2^k KiB, rounded down to the 4 x lanes KiB blocks
/// Argon2 uses and at least its 8 KiB per lane.
pub fn rungs(budget_kib: u32, lanes: u32) -> Vec<u32> {
    let lanes = lanes.max(1);
    let unit = 4 * lanes;
    let floor = 8 * lanes;
    let mut out = Vec::new();
    let mut power = LOWEST_RUNG_KIB;
    while power <= u64::from(budget_kib) {
        for kib in [power, power + power / 2] {
            if kib <= u64::from(budget_kib) {
                let kib = kib as u32;
                let rounded = (kib / unit) * unit;
                if rounded >= floor {
                    out.push(rounded);
                }
            }
        }
        power *= 2;
    }
    out.sort_unstable();
    out.dedup();
    out.reverse();
    out
}

/// Whether `params` has its memory on the ladder for its lanes.
pub fn on_ladder(params: &Params) -> bool {
    rungs(params.m_kib, params.lanes).first() == Some(&params.m_kib)
}

/// Whether `time` lands within +-10% of `target`.
pub fn lands_within(time: Duration, target: Duration) -> bool {
    off_by(time, target) <= TUNE_TOLERANCE
}

/// Whether a time lands within the wider keep band of `target`
/// ([`still_answers`] with one time for both bounds).
fn still_holds(time: Duration, target: Duration) -> bool {
    let share = share_of(time, target);
    still_answers(share, share)
}

/// Whether an incumbent timed `time` still answers `target`: its time at
/// calm speed pooled with the earlier runs' ([`pooled`]) and this run's
/// time as timed bound its undisturbed time, and that span meets the keep
/// band ([`still_answers`]).
fn incumbent_answers(time: PointTime, history: &[Duration], target: Duration) -> bool {
    still_answers(
        share_of(pooled(time.at_calm, history), target),
        share_of(time.as_timed, target),
    )
}

/// `time` as a share of `target`.
fn share_of(time: Duration, target: Duration) -> f64 {
    time.as_secs_f64() / target.as_secs_f64().max(1e-12)
}

fn off_by(time: Duration, target: Duration) -> f64 {
    (share_of(time, target) - 1.0).abs()
}

/// The setting for `target`: memory on the ladder below `base.m_kib`,
/// `base`'s variant and lanes; the rung with the most memory (RFC 9106
/// order) on which a measured point lands within +-10% of the target, and
/// on it the passes nearest the target ([`nearer_neighbour`]). `measure`
/// returns the time of one hash at a point.
pub fn ladder_search(
    base: Params,
    target: Duration,
    measure: &mut dyn FnMut(&Params) -> Result<Duration, TuneError>,
) -> Result<Trial, TuneError> {
    let ladder = rungs(base.m_kib, base.lanes);
    let Some(&top) = ladder.first() else {
        return Err(TuneError::InvalidBase(format!(
            "{} KiB is below the smallest memory for {} lanes",
            base.m_kib, base.lanes
        )));
    };
    let goal = target.as_secs_f64();
    let mut trials: Vec<Trial> = Vec::new();
    let mut next = Params {
        m_kib: top,
        t: 1,
        ..base
    };
    while trials.len() < MAX_TRIALS {
        let time = measure(&next)?;
        let trial = Trial { params: next, time };
        trials.push(trial);
        if lands_within(time, target) {
            return Ok(nearer_neighbour(trial, goal, &trials, measure).unwrap_or(trial));
        }
        match next_candidate(&ladder, base, goal, &trials) {
            Some(p) => next = p,
            None => break,
        }
    }
    // Nothing predicted lands: one pass on the smallest rung tells whether
    // the target is simply too short for Argon2 here.
    let smallest = Params {
        m_kib: *ladder.last().unwrap_or(&top),
        t: 1,
        ..base
    };
    let lowest = match trials.iter().find(|t| t.params == smallest) {
        Some(t) => *t,
        None => {
            let time = measure(&smallest)?;
            Trial {
                params: smallest,
                time,
            }
        }
    };
    if lands_within(lowest.time, target) {
        return Ok(lowest);
    }
    if lowest.time.as_secs_f64() > goal {
        return Err(TuneError::TargetTooShort {
            m_kib: lowest.params.m_kib,
            ms: lowest.time.as_secs_f64() * 1e3,
            target_ms: goal * 1e3,
        });
    }
    Err(TuneError::OffLadder {
        target_ms: goal * 1e3,
        tried: trials.len(),
    })
}

/// The next point to measure: on the rung with the most memory that has
/// one, the passes not measured yet whose predicted time lies within
/// [`PROBE`] of the target, the nearest to it first.
fn next_candidate(ladder: &[u32], base: Params, goal: f64, trials: &[Trial]) -> Option<Params> {
    for &m_kib in ladder {
        let model = PassModel::at(m_kib, trials)?;
        let most = model
            .passes_for(goal * (1.0 + PROBE))
            .floor()
            .min(f64::from(u32::MAX)) as u32;
        let fewest = model.passes_for(goal * (1.0 - PROBE)).ceil().max(1.0) as u32;
        let off = |t: u32| (model.time(t) - goal).abs();
        let nearest = (fewest..=most)
            .map(|t| Params { m_kib, t, ..base })
            .filter(|p| !trials.iter().any(|tr| tr.params == *p))
            .min_by(|a, b| off(a.t).total_cmp(&off(b.t)));
        if nearest.is_some() {
            return nearest;
        }
    }
    None
}

/// After `landed` lands within +-10%: one pass more or fewer on the same
/// memory, when the model of that memory predicts it nearer the
/// target, is measured too, and the nearer of the two that land is the
/// setting. A setting near the band's edge is the one a slower moment
/// pushes outside the +-20% that keeps it. `None` when no neighbour is
/// nearer, or it did not land or could not be measured.
fn nearer_neighbour(
    landed: Trial,
    goal: f64,
    trials: &[Trial],
    measure: &mut dyn FnMut(&Params) -> Result<Duration, TuneError>,
) -> Option<Trial> {
    let p = landed.params;
    let model = PassModel::at(p.m_kib, trials)?;
    // Relative to the landed point's own time, so the model's error there
    // does not pick the neighbour.
    let landed_s = landed.time.as_secs_f64();
    let off = |t: u32| (landed_s + model.time(t) - model.time(p.t) - goal).abs();
    let t = [p.t.saturating_sub(1), p.t.saturating_add(1)]
        .into_iter()
        .filter(|&t| t >= 1 && off(t) < off(p.t))
        .min_by(|&a, &b| off(a).total_cmp(&off(b)))?;
    let next = Params { t, ..p };
    if trials.iter().any(|tr| tr.params == next) {
        return None;
    }
    let time = measure(&next).ok()?;
    let target = Duration::from_secs_f64(goal);
    let nearer = (time.as_secs_f64() - goal).abs() < (landed.time.as_secs_f64() - goal).abs();
    (lands_within(time, target) && nearer).then_some(Trial { params: next, time })
}

/// Seconds of one hash at some memory as `fixed + per_pass x t`. Each
/// hash maps its memory fresh (the heap policy of `cryptobench_engine::host::heap`) and
/// pays its page faults once, in the first pass, so time is not
/// proportional to passes: here 256 MiB on two lanes took about 130 ms of
/// faults and 200 ms per pass, and a model of time per pass alone
/// predicted three passes for 1 s where four were needed.
#[derive(Debug, Clone, Copy)]
struct PassModel {
    fixed: f64,
    per_pass: f64,
}

impl PassModel {
    /// The model at `m_kib`: fitted to the trials on that memory when
    /// they have two pass counts or more; else scaled from the memory
    /// nearest to it that has trials (both parts grow with memory), with
    /// no fixed part when that memory has one pass count only.
    fn at(m_kib: u32, trials: &[Trial]) -> Option<Self> {
        let distance = |m: u32| (f64::from(m) / f64::from(m_kib)).ln().abs();
        let nearest = trials
            .iter()
            .map(|t| t.params.m_kib)
            .min_by(|a, b| distance(*a).total_cmp(&distance(*b)))?;
        let points: Vec<(f64, f64)> = trials
            .iter()
            .filter(|t| t.params.m_kib == nearest)
            .map(|t| (f64::from(t.params.t.max(1)), t.time.as_secs_f64()))
            .collect();
        let scale = f64::from(m_kib) / f64::from(nearest);
        let fitted = Self::fit(&points).unwrap_or_else(|| {
            let per_pass = points.iter().map(|(t, s)| s / t).sum::<f64>() / points.len() as f64;
            Self {
                fixed: 0.0,
                per_pass,
            }
        });
        Some(Self {
            fixed: fitted.fixed * scale,
            per_pass: fitted.per_pass * scale,
        })
    }

    /// Least squares through `(passes, seconds)`; `None` with fewer than
    /// two pass counts or a fit that is not a positive cost per pass and
    /// a fixed part of at least zero.
    fn fit(points: &[(f64, f64)]) -> Option<Self> {
        let n = points.len() as f64;
        let mean_t = points.iter().map(|p| p.0).sum::<f64>() / n;
        let mean_s = points.iter().map(|p| p.1).sum::<f64>() / n;
        let var: f64 = points.iter().map(|p| (p.0 - mean_t).powi(2)).sum();
        if var <= 0.0 {
            return None;
        }
        let cov: f64 = points.iter().map(|p| (p.0 - mean_t) * (p.1 - mean_s)).sum();
        let per_pass = cov / var;
        let fixed = mean_s - per_pass * mean_t;
        (per_pass > 0.0 && fixed >= 0.0).then_some(Self { fixed, per_pass })
    }

    /// Predicted seconds of `t` passes.
    fn time(&self, t: u32) -> f64 {
        self.fixed + self.per_pass * f64::from(t)
    }

    /// The (fractional) passes predicted to take `seconds`.
    fn passes_for(&self, seconds: f64) -> f64 {
        (seconds - self.fixed) / self.per_pass
    }
}

/// A setting an earlier run's short tune chose for a target, to be timed
/// first in this run.
#[derive(Debug, Clone, PartialEq)]
pub struct Incumbent {
    /// The target it was chosen for.
    pub target: Duration,
    /// Its parameters.
    pub params: Params,
    /// The backend that measured it.
    pub backend: String,
    /// The run that chose it.
    pub run_id: String,
    /// The calm reference hash time that run stored ([`crate::calm`]).
    pub calm_reference: Option<Duration>,
    /// Its own timings at calm speed in the tunes of earlier runs (that
    /// run's and older ones', at most [`HISTORY_RUNS`]), which this run's
    /// timing joins before the keep band judges it ([`pooled`]).
    pub history: Vec<Duration>,
}

/// The most earlier runs whose timings of an incumbent join this run's.
pub const HISTORY_RUNS: usize = 4;

/// An incumbent's time as judged: the median of this run's timing and
/// the earlier runs' ([`Incumbent::history`]). One run's timing moves by
/// 10-15% at calm speed (the reference hash tracks the points loosely), and
/// a setting chosen at 91% of 500 ms was dropped on one run's reading under
/// 80%; with its two earlier timings beside it, the median still holds. A
/// machine that really changed moves the median within a few runs.
pub fn pooled(time: Duration, history: &[Duration]) -> Duration {
    let all: Vec<f64> = history
        .iter()
        .take(HISTORY_RUNS)
        .chain(std::iter::once(&time))
        .map(Duration::as_secs_f64)
        .collect();
    Duration::from_secs_f64(cryptobench_stats::median(&all))
}

/// The `run` summary's short tune: one ladder search per advice target
/// ([`crate::ladder`]), sharing the points measured, within a wall-clock
/// budget (`--quick`: 15 s), so the Argon2id advice can name a setting
/// within +-10% of each target instead of the largest grid point far below
/// it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShortTune {
    /// The target.
    pub target: Duration,
    /// The setting found, or why none was.
    pub found: Result<Trial, TuneError>,
    /// The earlier run whose setting still landed within +-20% and was kept.
    pub kept_from: Option<String>,
    /// The earlier run's setting as timed here (this run's own timing,
    /// not pooled with the earlier runs'), kept or not.
    pub incumbent: Option<Trial>,
    /// The found setting's fastest time in this tune as timed, not scaled
    /// to calm speed; with `found`'s time it bounds its undisturbed time.
    pub as_timed: Option<Duration>,
}

/// The budget of the run's short tune: 15 s with `--quick` (the issue's
/// bound), 30 s by default, 60 s with `--full`.
pub fn short_tune_budget(quick: bool, full: bool) -> Duration {
    if quick {
        Duration::from_secs(15)
    } else if full {
        Duration::from_secs(60)
    } else {
        Duration::from_secs(30)
    }
}

/// Hashes timed per point: three for short targets, two for long ones, so
/// a trial costs one to two seconds and always has a second run to
/// outvote a hiccup.
pub fn short_tune_runs(target: Duration) -> usize {
    (0.75 / target.as_secs_f64().max(1e-3))
        .ceil()
        .clamp(2.0, 3.0) as usize
}

/// Times `p` with the share's hashes, unless timed already: then the time
/// seen, or with `again` the faster of that and a new timing (a disturbed
/// moment only ever adds time). Refuses a new point once `elapsed()`
/// reaches the share's `until`.
fn time_point(
    seen: &mut Vec<Timed>,
    clock: &mut Clock<'_>,
    p: &Params,
    share: Share,
    again: bool,
) -> Result<PointTime, TuneError> {
    let known = seen.iter().find(|t| t.params == *p).map(|t| t.time);
    match (known, again) {
        (Some(time), false) => Ok(time),
        _ => {
            let d = time_again(seen, clock, p, share)?;
            Ok(known.map_or(d, |time| time.faster(d)))
        }
    }
}

/// Times `p` once more and returns that timing alone; the point keeps
/// its faster time for the searches that reuse it.
fn time_again(
    seen: &mut Vec<Timed>,
    clock: &mut Clock<'_>,
    p: &Params,
    share: Share,
) -> Result<PointTime, TuneError> {
    if (clock.elapsed)() >= share.until {
        return Err(TuneError::BudgetSpent {
            budget_s: clock.budget.as_secs(),
            until_s: share.until.as_secs_f64(),
        });
    }
    let d = (clock.measure)(p, share.runs)?;
    match seen.iter_mut().find(|t| t.params == *p) {
        Some(known) => {
            known.time = known.time.faster(d);
            known.hashes += share.runs;
        }
        None => seen.push(Timed {
            params: *p,
            time: d,
            hashes: share.runs,
        }),
    }
    Ok(d)
}

/// A point the short tune timed: its fastest time so far, at calm speed
/// and as timed, and how many hashes its timings took in all.
#[derive(Debug, Clone, Copy)]
struct Timed {
    params: Params,
    time: PointTime,
    hashes: usize,
}

/// One target of the short tune: its hashes per point and the moment of
/// the budget after which it starts no new point.
#[derive(Debug, Clone, Copy)]
struct Share {
    target: Duration,
    runs: usize,
    until: Duration,
}

/// The short tune's budget, its clock and its way of timing a point.
struct Clock<'a> {
    budget: Duration,
    elapsed: &'a mut dyn FnMut() -> Duration,
    measure: &'a mut dyn FnMut(&Params, usize) -> Result<PointTime, TuneError>,
}

/// Runs one search per target with `base` as variant, lanes and memory
/// budget, longest target first: its first trial (one pass at the top
/// rung) is the expensive one, measured once with the fewest runs and
/// reused by the shorter targets' searches. The k-th of n targets starts
/// no point after k/n of the budget, so a slow search cannot leave the
/// targets after it none. An incumbent for a target
/// (same lanes, on the ladder, within the budget) is timed first and kept
/// while it answers ([`incumbent_answers`]); otherwise the ladder is
/// searched.
/// An incumbent timed off the keep band is timed again after the other
/// targets, not at once: the disturbed moments of a shared host last
/// seconds (a second core lent elsewhere), and a second try straight after
/// the first can meet the same one.
/// `measure(params, runs)` times a point (its fastest time at calm speed
/// and as timed); once `elapsed()` passes a
/// target's share no new point is measured for it and it says so. Points are
/// measured once and reused by later searches.
pub fn short_tune(
    targets: &[Duration],
    base: Params,
    incumbents: &[Incumbent],
    budget: Duration,
    elapsed: &mut dyn FnMut() -> Duration,
    measure: &mut dyn FnMut(&Params, usize) -> Result<PointTime, TuneError>,
) -> Vec<ShortTune> {
    let mut sorted: Vec<Duration> = targets.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.reverse();
    let mut clock = Clock {
        budget,
        elapsed,
        measure,
    };
    let mut seen: Vec<Timed> = Vec::new();
    let mut out = Vec::new();
    // Targets whose incumbent was timed off the keep band once: (the
    // target's share, the incumbent, its parameters, that first time).
    let mut off_once = Vec::new();
    let searches = sorted.len() as u32;
    for (k, target) in (1..).zip(sorted) {
        let runs = short_tune_runs(target);
        // Each target may start points until its share of the budget is
        // used, what earlier targets left over included: searching the
        // longer targets anew (no incumbent kept) once took all 15 s, and
        // the 250 ms line fell back to the grid in that run alone.
        let until = budget * k / searches;
        let incumbent = incumbents
            .iter()
            .filter(|i| i.target == target && i.params.lanes == base.lanes)
            .map(|i| {
                let params = Params {
                    m_kib: i.params.m_kib,
                    t: i.params.t,
                    ..base
                };
                (i, params)
            })
            .find(|(_, p)| p.m_kib <= base.m_kib && p.t >= 1 && on_ladder(p));
        let share = Share {
            target,
            runs,
            until,
        };
        let Some((i, params)) = incumbent else {
            out.push(search(base, share, &mut seen, &mut clock, None));
            continue;
        };
        match time_point(&mut seen, &mut clock, &params, share, false) {
            Ok(time) if !incumbent_answers(time, &i.history, target) => {
                off_once.push((share, i, params, time));
            }
            time => out.push(judge_incumbent(
                base, share, i, params, time, &mut seen, &mut clock,
            )),
        }
    }
    // Their second try, after the other targets: the budget left is
    // theirs, and a second timing that answers keeps the setting.
    for (share, i, params, first) in off_once {
        let share = Share {
            until: budget,
            ..share
        };
        let time = match time_again(&mut seen, &mut clock, &params, share) {
            Ok(again) if incumbent_answers(again, &i.history, share.target) => Ok(again),
            _ => Ok(first),
        };
        out.push(judge_incumbent(
            base, share, i, params, time, &mut seen, &mut clock,
        ));
    }
    out.sort_by_key(|t| std::cmp::Reverse(t.target));
    out
}

/// An incumbent timed `time` for `target`: kept while it answers
/// ([`incumbent_answers`]), and named at its calm-speed time pooled with
/// its earlier runs' ([`pooled`]); else the ladder is searched (a failed
/// hash too), and a budget spent is said.
fn judge_incumbent(
    base: Params,
    share: Share,
    i: &Incumbent,
    params: Params,
    time: Result<PointTime, TuneError>,
    seen: &mut Vec<Timed>,
    clock: &mut Clock<'_>,
) -> ShortTune {
    let target = share.target;
    match time {
        Ok(time) => {
            let own = Trial {
                params,
                time: time.at_calm,
            };
            if incumbent_answers(time, &i.history, target) {
                ShortTune {
                    target,
                    found: Ok(Trial {
                        params,
                        time: pooled(time.at_calm, &i.history),
                    }),
                    kept_from: Some(i.run_id.clone()),
                    incumbent: Some(own),
                    as_timed: Some(time.as_timed),
                }
            } else {
                // Off the keep band both ways: search again.
                search(base, share, seen, clock, Some(own))
            }
        }
        Err(TuneError::Hash(_) | TuneError::Memory(_)) => search(base, share, seen, clock, None),
        Err(why) => ShortTune {
            target,
            found: Err(why),
            kept_from: None,
            incumbent: None,
            as_timed: None,
        },
    }
}

/// The ladder search for `target`, beside the incumbent it replaces.
///
/// A point a longer target's search timed with fewer hashes than this
/// target takes (often the one-pass top rung, whose time is mostly page
/// faults) is timed again with this target's hashes before it is named,
/// and judged by the faster time, as the next run judges the incumbent it
/// becomes:
/// accepted on one slow timing at 92% of 250 ms, such a point was timed
/// at 68-75% by the engine and by the next run, which dropped it.
fn search(
    base: Params,
    share: Share,
    seen: &mut Vec<Timed>,
    clock: &mut Clock<'_>,
    incumbent: Option<Trial>,
) -> ShortTune {
    let target = share.target;
    // Timed again, a point has this target's hashes and is borrowed no more.
    let borrowed =
        |seen: &[Timed], p: &Params| seen.iter().any(|t| t.params == *p && t.hashes < share.runs);
    let found = loop {
        let found = ladder_search(base, target, &mut |p| {
            time_point(seen, clock, p, share, false).map(|t| t.at_calm)
        });
        let trial = match found {
            Ok(trial) if borrowed(seen, &trial.params) => trial,
            // Out of time: a point already timed within the keep band
            // answers as a kept incumbent would, rather than the grid's
            // largest point (a fraction of the target in a first run).
            Err(spent @ TuneError::BudgetSpent { .. }) => {
                break nearest_held(seen, target).ok_or(spent)
            }
            other => break other,
        };
        match time_point(seen, clock, &trial.params, share, true) {
            // Still lands: named at the faster time. Otherwise the search
            // goes on from the points it has, this one at its new time.
            Ok(time) if lands_within(time.at_calm, target) => {
                break Ok(Trial {
                    params: trial.params,
                    time: time.at_calm,
                })
            }
            Ok(_) => continue,
            // No time left to confirm it: it answers as it was timed.
            Err(TuneError::BudgetSpent { .. }) => break Ok(trial),
            Err(e) => break Err(e),
        }
    };
    let as_timed = found.as_ref().ok().and_then(|f| {
        seen.iter()
            .find(|t| t.params == f.params)
            .map(|t| t.time.as_timed)
    });
    ShortTune {
        target,
        found,
        kept_from: None,
        incumbent,
        as_timed,
    }
}

/// The point timed so far that lands nearest `target`, when it lands
/// within the keep band ([`cryptobench_core::advice::TUNE_KEEP_TOLERANCE`]).
fn nearest_held(seen: &[Timed], target: Duration) -> Option<Trial> {
    seen.iter()
        .filter(|t| still_holds(t.time.at_calm, target))
        .min_by(|a, b| off_by(a.time.at_calm, target).total_cmp(&off_by(b.time.at_calm, target)))
        .map(|t| Trial {
            params: t.params,
            time: t.time.at_calm,
        })
}

/// What [`short_tune_here`] found: the backend it tuned on, one result per
/// target, and the calm reference hash time it judged at (stored with the
/// run, for the next run's tune).
#[derive(Debug, Clone, PartialEq)]
pub struct TunedHere {
    /// The library backend that timed every point.
    pub backend: &'static str,
    /// One result per target, longest first.
    pub found: Vec<ShortTune>,
    /// The calm reference hash time this tune judged at, stored for the
    /// next run's tune ([`crate::calm`]).
    pub calm_reference: Option<Duration>,
}

/// [`short_tune`] on this machine for Argon2id: the first library backend
/// that `--backend` admits and that can take the point (libargon2, then
/// RustCrypto, then libsodium), lanes = cores, memory up to 1 GiB (256 MiB
/// with `--quick`) or what is free. Every point is timed between reference
/// hashes and judged at the machine's calm speed ([`crate::calm`]). Returns
/// what it found, or why no backend can run.
pub fn short_tune_here(
    targets: &[Duration],
    incumbents: &[Incumbent],
    cfg: &cryptobench_core::RunConfig,
) -> Result<TunedHere, TuneError> {
    use crate::calm::{reference_point, timed_at_calm_speed, CalmReference};
    use crate::engines::{self, Inputs};
    let lanes = crate::limits::cores().min(crate::limits::MAX_LANES);
    // `--quick`: a 256 MiB budget keeps every trial short enough for 15 s.
    let cap = if cfg.quick {
        "256MiB"
    } else {
        crate::limits::DEFAULT_MAX_MEMORY
    };
    let mut m_kib =
        crate::params::parse_memory_kib(cap).map_err(|e| TuneError::InvalidBase(e.to_string()))?;
    if let Some(avail) = crate::memory::available_bytes() {
        let usable = avail.saturating_sub(crate::memory::margin(avail)) / 1024;
        m_kib = m_kib.min(usable.min(u64::from(u32::MAX)) as u32);
    }
    let base = Params::new(crate::params::Variant::Id, m_kib, 1, lanes);
    base.validate()
        .map_err(|e| TuneError::InvalidBase(e.to_string()))?;
    let inputs = Inputs {
        password: b"correct horse battery staple".to_vec(),
        salt: vec![0x5a; crate::cases::SALT_LEN],
        ..Inputs::default()
    };
    let hasher = engines::all()
        .into_iter()
        .filter(|h| h.name() != engines::CLI && cfg.wants_backend(h.name()))
        .find(|h| {
            h.available()
                .and_then(|_| h.supports(&base, &inputs))
                .is_ok()
        })
        .ok_or(TuneError::NoBackend)?;
    let mine: Vec<Incumbent> = incumbents
        .iter()
        .filter(|i| i.backend == hasher.name())
        .cloned()
        .collect();
    let reference = reference_point(&base);
    let mut calm = CalmReference::new(mine.iter().find_map(|i| i.calm_reference));
    let start = std::time::Instant::now();
    let mut elapsed = || start.elapsed();
    let mut hash = |p: &Params| -> Result<Duration, TuneError> {
        let mut out = vec![0u8; p.tag_len];
        let t0 = std::time::Instant::now();
        hasher.hash(p, &inputs, &mut out)?;
        let took = t0.elapsed();
        std::hint::black_box(&out);
        Ok(took)
    };
    let mut measure = |p: &Params, runs: usize| {
        crate::memory::check(p.memory_bytes(), crate::memory::available_bytes())?;
        timed_at_calm_speed(&mut hash, &reference, p, runs, &mut calm)
    };
    let budget = short_tune_budget(cfg.quick, cfg.full);
    let found = short_tune(targets, base, &mine, budget, &mut elapsed, &mut measure);
    Ok(TunedHere {
        backend: hasher.name(),
        found,
        calm_reference: calm.calm(),
    })
}

#[cfg(test)]
#[path = "short_tune_tests.rs"]
mod tests;
