//! The short tune's times at the machine's calm speed, by pairing each
//! point with a small reference hash.
//!
//! A two-lane Argon2 hash on this shared 2-core machine ran up to 1.5x
//! slower in one minute than in the next (the second core lent elsewhere,
//! memory bandwidth shared). The short tune chose its setting from a few
//! hashes, so a first run tuned in a slow minute named a setting that the
//! next run, in a calm one, timed at 72% of its target and replaced: the
//! advice flipped between identical runs. The same comparison problem the
//! engine solves for cases (a ratio measured in one moment survives the
//! machine's drift, an absolute time does not) is solved here the same way:
//! every point is timed between reference hashes of one pass over 16 MiB on
//! the same lanes, and its fastest time is scaled by how much slower the
//! fastest of those references ran than the calmest reference seen. A
//! slow minute slows the reference and the point alike, so the scaled time
//! is what the point takes at calm speed.
//!
//! "Calm" is the fastest reference of this tune, or of the run the
//! incumbents come from when that was faster, but never more than
//! [`EARLIER_CALM_SPAN`] (2x) faster: a whole run spent in a slow stretch,
//! or with a core taken by another process, then still judges its
//! incumbents at the speed they were chosen at, while a machine that
//! really became slower (moved to other hardware) is not held to an old
//! speed beyond that. Disturbance only ever adds time, so the
//! fastest reference is the least disturbed one.
//!
//! A run stores the calm it judged at, not its own fastest reference: a
//! run spent in a slow stretch (references 13.2 ms, the earlier calm
//! 10.4 ms) otherwise handed the next run a calm 11% slower than the one
//! its incumbents were chosen at, and two of three settings were dropped
//! and searched for again. The price: a machine that became slower for
//! good is judged at its old speed until it runs [`EARLIER_CALM_SPAN`]
//! slower; `cryptobench argon2 tune` has no memory and is not affected.

use crate::params::Params;
use crate::short_tune::rungs;
use crate::tune::TuneError;
use std::time::Duration;

/// The reference hash's memory, KiB: 16 MiB, about 10-20 ms on two lanes
/// here, small next to the points it brackets.
pub const REFERENCE_KIB: u32 = 16 * 1024;

/// How much faster than this tune's own calmest reference an earlier
/// run's may be and still count as calm: a two-lane hash swung by up to
/// 1.5x between minutes here, and with one of the two cores kept busy by
/// another process every hash of a tune ran up to about twice as slow
/// (all its incumbents out of band, the targets' shares spent searching).
pub const EARLIER_CALM_SPAN: f64 = 2.0;

/// The reference point for `base`'s variant and lanes: one pass over the
/// largest ladder rung up to [`REFERENCE_KIB`] (and `base`'s memory).
pub fn reference_point(base: &Params) -> Params {
    let m_kib = rungs(REFERENCE_KIB.min(base.m_kib), base.lanes)
        .first()
        .copied()
        .unwrap_or(base.m_kib);
    Params {
        m_kib,
        t: 1,
        ..*base
    }
}

/// The calmest reference times seen: this tune's and the earlier run's.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CalmReference {
    here: Option<Duration>,
    earlier: Option<Duration>,
}

impl CalmReference {
    /// Before any reference is timed; `earlier` is the calm reference the
    /// incumbents' run stored, if any.
    pub fn new(earlier: Option<Duration>) -> Self {
        Self {
            here: None,
            earlier: earlier.filter(|d| !d.is_zero()),
        }
    }

    /// The calm reference: this tune's fastest, or the earlier run's when
    /// faster by at most [`EARLIER_CALM_SPAN`]. What this run stores for
    /// the next one.
    pub fn calm(&self) -> Option<Duration> {
        let here = self.here?;
        Some(match self.earlier {
            Some(e) if e < here && here.as_secs_f64() <= e.as_secs_f64() * EARLIER_CALM_SPAN => e,
            _ => here,
        })
    }

    /// `fastest`, the fastest time of a point timed between the reference
    /// times `around`, at calm speed: scaled by the calm reference over the
    /// fastest of `around` (which join the references seen). Never slower
    /// than `fastest`; unchanged without a reference.
    pub fn at_calm_speed(&mut self, fastest: Duration, around: &[Duration]) -> Duration {
        let Some(local) = around.iter().copied().filter(|d| !d.is_zero()).min() else {
            return fastest;
        };
        self.here = Some(self.here.map_or(local, |h| h.min(local)));
        let calm = self.calm().unwrap_or(local);
        fastest.mul_f64(calm.as_secs_f64() / local.as_secs_f64())
    }
}

/// A point's fastest time as timed, and scaled to the machine's calm
/// speed. The calm reference is the fastest seen, so `at_calm` never
/// exceeds `as_timed`: disturbance only adds time, and the two bound what
/// the point takes undisturbed. The scaling can overshoot (likely because
/// the 16 MiB reference fits in the last-level cache other tenants share
/// and the points do not): a 1 s setting the engine timed at 88-96% of its
/// target in four runs read 74-86% at calm speed, and was dropped when the
/// calm reference had crept 11% faster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointTime {
    /// The fastest time, scaled to calm speed.
    pub at_calm: Duration,
    /// The fastest time as timed.
    pub as_timed: Duration,
}

impl PointTime {
    /// Each bound the faster of the two timings'.
    pub fn faster(self, other: PointTime) -> PointTime {
        PointTime {
            at_calm: self.at_calm.min(other.at_calm),
            as_timed: self.as_timed.min(other.as_timed),
        }
    }
}

/// A time taken without a reference: both bounds are that time.
impl From<Duration> for PointTime {
    fn from(d: Duration) -> Self {
        PointTime {
            at_calm: d,
            as_timed: d,
        }
    }
}

/// Times `p` `runs` times between reference hashes (one before, one after
/// each) with `hash`, and returns its fastest time, at calm speed and as
/// timed.
///
/// The fastest run, not the median: on a shared machine noise only adds
/// time, and with two or three runs one hiccup moved the median enough
/// that the engine, sampling the chosen point at leisure, measured it at
/// 80% of its target (advice flipping between runs).
pub fn timed_at_calm_speed(
    hash: &mut dyn FnMut(&Params) -> Result<Duration, TuneError>,
    reference: &Params,
    p: &Params,
    runs: usize,
    calm: &mut CalmReference,
) -> Result<PointTime, TuneError> {
    let mut around = vec![hash(reference)?];
    let mut fastest = Duration::MAX;
    for _ in 0..runs.max(1) {
        fastest = fastest.min(hash(p)?);
        around.push(hash(reference)?);
    }
    Ok(PointTime {
        at_calm: calm.at_calm_speed(fastest, &around),
        as_timed: fastest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Variant;

    fn ms(v: f64) -> Duration {
        Duration::from_secs_f64(v / 1e3)
    }

    #[test]
    fn the_reference_is_one_pass_over_16_mib_on_the_points_lanes() {
        let base = Params::new(Variant::Id, 256 * 1024, 1, 2);
        let r = reference_point(&base);
        assert_eq!((r.m_kib, r.t, r.lanes), (16 * 1024, 1, 2));
        // A budget under 16 MiB: the largest rung under it.
        let small = Params::new(Variant::Id, 12 * 1024, 1, 2);
        assert_eq!(reference_point(&small).m_kib, 12 * 1024);
    }

    #[test]
    fn a_point_timed_in_a_slow_moment_is_scaled_to_calm_speed() {
        let mut calm = CalmReference::new(None);
        // Calm: reference 10 ms, point 200 ms.
        assert_eq!(
            calm.at_calm_speed(ms(200.0), &[ms(10.0), ms(10.5)]),
            ms(200.0)
        );
        // 30% slower moment: both slow; the point is 200 ms at calm speed.
        let slow = calm.at_calm_speed(ms(260.0), &[ms(13.0), ms(13.5)]);
        assert!((slow.as_secs_f64() * 1e3 - 200.0).abs() < 0.01, "{slow:?}");
        // A faster reference becomes the calm one; never slower than timed.
        let faster = calm.at_calm_speed(ms(190.0), &[ms(9.5)]);
        assert_eq!(faster, ms(190.0));
        assert_eq!(calm.here, Some(ms(9.5)));
        // No reference: the time as timed.
        assert_eq!(calm.at_calm_speed(ms(100.0), &[]), ms(100.0));
    }

    #[test]
    fn an_earlier_runs_calm_counts_within_its_span_only() {
        let mut calm = CalmReference::new(Some(ms(10.0)));
        // This whole tune runs 40% slow: judged at the earlier calm.
        let t = calm.at_calm_speed(ms(280.0), &[ms(14.0)]);
        assert!((t.as_secs_f64() * 1e3 - 200.0).abs() < 0.01, "{t:?}");
        assert_eq!(calm.calm(), Some(ms(10.0)));
        assert_eq!(calm.here, Some(ms(14.0)));
        // Twice as slow (a core taken): still the earlier calm.
        let mut busy = CalmReference::new(Some(ms(10.0)));
        let t = busy.at_calm_speed(ms(400.0), &[ms(20.0)]);
        assert!((t.as_secs_f64() * 1e3 - 200.0).abs() < 0.01, "{t:?}");
        // Three times as slow throughout: past the span, this tune's own.
        let mut moved = CalmReference::new(Some(ms(10.0)));
        assert_eq!(moved.at_calm_speed(ms(600.0), &[ms(30.0)]), ms(600.0));
        // An earlier run slower than this one changes nothing.
        let mut slower = CalmReference::new(Some(ms(12.0)));
        assert_eq!(slower.at_calm_speed(ms(200.0), &[ms(10.0)]), ms(200.0));
    }

    #[test]
    fn timing_brackets_every_run_with_references_and_takes_the_calm_speed() {
        // A machine 30% slow from the fourth hash on: reference 10 ms and
        // point 200 ms when calm.
        let mut calls = 0;
        let mut hash = |p: &Params| -> Result<Duration, TuneError> {
            calls += 1;
            let slow = if calls >= 4 { 1.3 } else { 1.0 };
            let calm_ms = if p.m_kib == 16 * 1024 { 10.0 } else { 200.0 };
            Ok(ms(calm_ms * slow))
        };
        let base = Params::new(Variant::Id, 256 * 1024, 1, 2);
        let reference = reference_point(&base);
        let point = Params::new(Variant::Id, 128 * 1024, 2, 2);
        let mut calm = CalmReference::new(None);
        let first = timed_at_calm_speed(&mut hash, &reference, &point, 1, &mut calm).unwrap();
        assert_eq!(first, PointTime::from(ms(200.0)));
        // Now every hash runs 30% slow: the point still reads 200 ms.
        let again = timed_at_calm_speed(&mut hash, &reference, &point, 2, &mut calm).unwrap();
        assert!(
            (again.at_calm.as_secs_f64() * 1e3 - 200.0).abs() < 0.01,
            "{again:?}"
        );
        // As timed: the faster of its two runs, both 30% slow.
        assert!(
            (again.as_timed.as_secs_f64() * 1e3 - 260.0).abs() < 0.01,
            "{again:?}"
        );
        // 3 hashes, then 5: a reference before and after each run.
        assert_eq!(calls, 8);
    }
}
