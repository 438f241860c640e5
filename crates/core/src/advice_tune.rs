//! The labels and bands of the `run` summary's Argon2id short tune: what
//! a tuned point carries from one run to the next, and when a setting the
//! tune chose still answers its target.
//!
//! Labels, not params, so a tuned case keeps its key from run to run.

use crate::model::Measurement;
use std::time::Duration;

/// Param of a point the `run` summary's short tune chose for a target
/// (nanoseconds): that point answers its target when it lands within
/// [`TUNE_TOLERANCE`] of it.
pub const TUNED_FOR_NS: &str = "tuned_for_ns";

/// How close a newly searched point must land to its target (+-10%).
pub const TUNE_TOLERANCE: f64 = 0.10;

/// How far a point already chosen (by this run's short tune, or kept from
/// an earlier run) may land from its target and still answer it (+-20%).
/// Wider than [`TUNE_TOLERANCE`] on purpose (hysteresis): a memory-bound
/// Argon2 hash varies by 10-20% between processes on a shared machine, so
/// one band for both choosing and keeping made the advice flip between
/// identical runs. The line always quotes the measured share.
pub const TUNE_KEEP_TOLERANCE: f64 = 0.20;

/// Label of a tuned point the short tune kept from an earlier run (it
/// still landed within [`TUNE_KEEP_TOLERANCE`]); the run id follows. A label,
/// not a param, so the case keeps its key from run to run.
pub const TUNE_KEPT_FROM: &str = "short tune kept the setting of run ";

/// Label of a tuned point giving the calmest time of the short tune's
/// reference hash in its run (then the nanoseconds and " ns"), so the next
/// run's tune judges the incumbents at that speed too. A label, for the
/// same reason.
pub const TUNE_CALM_REFERENCE: &str = "short tune's reference hash at calm speed: ";

/// Label of a tuned point giving the time the short tune judged it by:
/// its hash at the machine's calm speed (then the nanoseconds and " ns").
/// The advice judges the point by this time, so the setting the tune
/// chose and the line that names it cannot disagree.
pub const TUNE_CALM_TIME: &str = "short tune's time at calm speed: ";

/// The [`TUNE_CALM_REFERENCE`] label for a reference time.
pub fn calm_reference_label(calm: Duration) -> String {
    duration_label(TUNE_CALM_REFERENCE, calm)
}

/// The calm reference time a tuned point's labels carry, if any.
pub fn calm_reference_of(m: &Measurement) -> Option<Duration> {
    duration_of(m, TUNE_CALM_REFERENCE)
}

/// The [`TUNE_CALM_TIME`] label for the tune's time of a point.
pub fn calm_time_label(took: Duration) -> String {
    duration_label(TUNE_CALM_TIME, took)
}

/// The short tune's time of a tuned point at calm speed, if labelled.
pub fn calm_time_of(m: &Measurement) -> Option<Duration> {
    duration_of(m, TUNE_CALM_TIME)
}

/// Label of a tuned point giving the short tune's fastest time of it as
/// timed, not scaled to calm speed (then the nanoseconds and " ns"): with
/// [`TUNE_CALM_TIME`] it bounds what the hash takes undisturbed
/// ([`still_answers`]).
pub const TUNE_AS_TIMED: &str = "short tune's time as timed: ";

/// The [`TUNE_AS_TIMED`] label for the tune's time of a point as timed.
pub fn as_timed_label(took: Duration) -> String {
    duration_label(TUNE_AS_TIMED, took)
}

/// The short tune's time of a tuned point as timed, if labelled.
pub fn as_timed_of(m: &Measurement) -> Option<Duration> {
    duration_of(m, TUNE_AS_TIMED)
}

/// Whether a setting chosen for a target still answers it, given its time
/// at the machine's calm speed and as timed, as shares of the target.
/// Disturbance only adds time, so the two bound what the hash takes
/// undisturbed; the setting answers while that span meets the keep band
/// ([`TUNE_KEEP_TOLERANCE`]). The calm figure alone crept down between
/// identical runs as the calm reference grew faster, and dropped a 1 s
/// setting whose hash the same runs timed at 88-96% of its target.
pub fn still_answers(at_calm: f64, as_timed: f64) -> bool {
    let (lo, hi) = (at_calm.min(as_timed), at_calm.max(as_timed));
    lo <= 1.0 + TUNE_KEEP_TOLERANCE && hi >= 1.0 - TUNE_KEEP_TOLERANCE
}

/// Label of a tuned point kept from an earlier run, giving this run's own
/// timing of it at calm speed (then the nanoseconds and " ns"): the
/// [`TUNE_CALM_TIME`] it is judged by pools that timing with earlier runs',
/// and the next run pools the own timings, not the pooled ones.
pub const TUNE_OWN_TIME: &str = "short tune's own time in this run at calm speed: ";

/// The [`TUNE_OWN_TIME`] label for this run's own timing of a kept point.
pub fn own_time_label(took: Duration) -> String {
    duration_label(TUNE_OWN_TIME, took)
}

/// A tuned point's own timing in its run's tune at calm speed: the
/// [`TUNE_OWN_TIME`] label of a kept point, else its [`TUNE_CALM_TIME`]
/// (a point the run searched for was judged by its own timing).
pub fn own_time_of(m: &Measurement) -> Option<Duration> {
    duration_of(m, TUNE_OWN_TIME).or_else(|| calm_time_of(m))
}

fn duration_label(prefix: &str, d: Duration) -> String {
    format!("{prefix}{} ns", d.as_nanos())
}

fn duration_of(m: &Measurement, prefix: &str) -> Option<Duration> {
    m.labels.iter().find_map(|l| {
        let ns = l.strip_prefix(prefix)?.strip_suffix(" ns")?;
        Some(Duration::from_nanos(ns.parse().ok()?))
    })
}
