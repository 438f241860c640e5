//! Where `argon2 tune`'s choice lands when it is used: its parameters
//! hashed in fresh processes, as a service would hash them, and refined
//! until the median of those hashes is within +-10% of the target.
//!
//! The search ([`crate::tune`]) times its points in its own process, one
//! hash after another, on whatever the machine did at that moment; a
//! choice timed so can miss in use: on a shared 2-core machine a pick for
//! 300 ms took 572 ms as `argon2 hash` calls, and one for 250 ms 321-335
//! ms. A fresh process faults in all of its memory anew and meets the
//! machine at another moment, so the choice is measured that way, and
//! what it measures is what is printed. The time of one hash is taken to
//! scale with its work (memory x passes): each step rescales the work by
//! target / measured, keeping the passes while the memory stays within
//! the budget.

use crate::params::Params;
use crate::tune::TuneError;
use std::time::Duration;

/// How far from the target a median may land: +-10%.
pub const BAND: f64 = 0.10;
/// Most candidates measured before giving up.
pub const MAX_STEPS: usize = 6;

/// One candidate measured in fresh processes.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The parameters hashed.
    pub params: Params,
    /// Each process's hash time.
    pub times: Vec<Duration>,
    /// Their median.
    pub median: Duration,
}

impl Step {
    /// The median's distance from `target`, as a fraction (+0.05: 5% over).
    pub fn off_by(&self, target: Duration) -> f64 {
        self.median.as_secs_f64() / target.as_secs_f64() - 1.0
    }

    /// Whether the middle of this step's hashes (all but the fastest and
    /// the slowest, from five on) lie within twice [`BAND`] of each other:
    /// hashes of one setting scattered wider than the band make any
    /// setting's median of a few hashes miss it as often as not.
    pub fn stable(&self) -> bool {
        let mut xs: Vec<f64> = self.times.iter().map(Duration::as_secs_f64).collect();
        xs.sort_by(f64::total_cmp);
        let trim = usize::from(xs.len() >= 5);
        let middle = &xs[trim..xs.len() - trim];
        match (middle.first(), middle.last()) {
            (Some(&lo), Some(&hi)) if lo > 0.0 => hi / lo - 1.0 <= 2.0 * BAND,
            _ => false,
        }
    }

    /// The fastest and slowest hash of this step.
    pub fn range(&self) -> (Duration, Duration) {
        let lo = self.times.iter().min().copied().unwrap_or(self.median);
        let hi = self.times.iter().max().copied().unwrap_or(self.median);
        (lo, hi)
    }
}

/// How the landing ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    /// Every candidate measured, in order; the last is the answer when
    /// `landed`.
    pub steps: Vec<Step>,
    /// Whether the last step's median is within [`BAND`] of the target.
    pub landed: bool,
}

impl Landing {
    /// The parameters that landed.
    pub fn landed_params(&self) -> Option<&Step> {
        self.steps.last().filter(|_| self.landed)
    }
}

/// Whether `median` is within [`BAND`] of `target`.
pub fn within_band(median: Duration, target: Duration) -> bool {
    (median.as_secs_f64() / target.as_secs_f64() - 1.0).abs() <= BAND
}

/// The next candidate after `p` took `median` against `target`: the work
/// (memory x passes) rescaled by target / median, the passes kept while
/// the memory fits between the lanes' minimum and `max_m_kib`, else as
/// many passes as the budget needs (at most 1000). `None` when it is the
/// same point again.
pub fn next_candidate(
    p: &Params,
    median: Duration,
    target: Duration,
    max_m_kib: u32,
) -> Option<Params> {
    let scale = target.as_secs_f64() / median.as_secs_f64().max(1e-9);
    if !scale.is_finite() || scale <= 0.0 {
        return None;
    }
    let unit = 4 * p.lanes.max(1);
    let floor = 8 * p.lanes.max(1);
    let top = (max_m_kib / unit * unit).max(floor);
    let work = f64::from(p.m_kib) * f64::from(p.t) * scale;
    let mut t = p.t.max(1);
    if work / f64::from(t) > f64::from(top) {
        t = (work / f64::from(top)).ceil() as u32;
    } else if work / f64::from(t) < f64::from(floor) {
        t = (work / f64::from(floor)).floor().max(1.0) as u32;
    }
    let t = t.clamp(1, crate::limits::MAX_PASSES);
    let m = (work / f64::from(t)).clamp(f64::from(floor), f64::from(top)) as u32;
    let m_kib = (m / unit * unit).max(floor);
    let next = Params { m_kib, t, ..*p };
    (next != *p).then_some(next)
}

/// Measures `start` with `measure` (each process's hash time) and refines
/// it until its median lands within [`BAND`] of `target`, at most
/// [`MAX_STEPS`] candidates; `max_m_kib` bounds the memory. Stops, not
/// landed, at a step whose hashes scatter wider than the band
/// ([`Step::stable`]): the machine cannot hold a setting to it then.
pub fn land(
    start: Params,
    target: Duration,
    max_m_kib: u32,
    measure: &mut dyn FnMut(&Params) -> Result<Vec<Duration>, TuneError>,
) -> Result<Landing, TuneError> {
    let mut steps = Vec::new();
    let mut p = start;
    for _ in 0..MAX_STEPS {
        let times = measure(&p)?;
        let median = median_of(&times);
        steps.push(Step {
            params: p,
            times,
            median,
        });
        let stable = steps.last().is_some_and(Step::stable);
        if !stable || within_band(median, target) {
            return Ok(Landing {
                steps,
                landed: stable,
            });
        }
        match next_candidate(&p, median, target, max_m_kib) {
            Some(next) => p = next,
            None => break,
        }
    }
    Ok(Landing {
        steps,
        landed: false,
    })
}

/// The median of `times` (the mean of the middle two for an even count).
fn median_of(times: &[Duration]) -> Duration {
    crate::tune::median(times.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Variant;

    fn ms(v: f64) -> Duration {
        Duration::from_secs_f64(v / 1e3)
    }

    /// A machine whose fresh processes hash `slower` times as slow as the
    /// search's timing said: 1 ms per MiB-pass there.
    fn fresh_process(slower: f64) -> impl FnMut(&Params) -> Result<Vec<Duration>, TuneError> {
        move |p: &Params| {
            let base = f64::from(p.m_kib) / 1024.0 * f64::from(p.t) * slower;
            Ok(vec![
                ms(base * 0.98),
                ms(base),
                ms(base * 1.05),
                ms(base * 0.99),
                ms(base),
            ])
        }
    }

    #[test]
    fn a_choice_that_is_twice_as_slow_in_use_is_refined_into_the_band() {
        // The search picked 256 MiB, t = 1 for 300 ms (256 ms in its own
        // timing); fresh processes take 1.9x as long: 486 ms, 62% over.
        let start = Params::new(Variant::Id, 256 * 1024, 1, 2);
        let target = ms(300.0);
        let landing = land(start, target, 256 * 1024, &mut fresh_process(1.9)).unwrap();
        assert!(landing.landed, "{landing:?}");
        assert!(!within_band(landing.steps[0].median, target));
        let last = landing.landed_params().unwrap();
        assert!(last.off_by(target).abs() <= BAND, "{last:?}");
        assert!(last.params.m_kib < start.m_kib && last.params.t == 1);
    }

    #[test]
    fn a_choice_short_of_the_target_at_the_memory_budget_gains_passes() {
        let start = Params::new(Variant::Id, 64 * 1024, 1, 2);
        let target = ms(250.0);
        let landing = land(start, target, 64 * 1024, &mut fresh_process(1.0)).unwrap();
        let last = landing.landed_params().unwrap();
        assert!(
            last.params.t >= 4 && last.params.m_kib <= 64 * 1024,
            "{last:?}"
        );
        assert!(last.off_by(target).abs() <= BAND);
    }

    #[test]
    fn hashes_scattered_wider_than_the_band_are_reported_not_landed() {
        // The median lands on the target, but one setting's hashes took
        // 240-380 ms: a median of a few of them misses as often as not.
        let mut scattered =
            |_: &Params| Ok(vec![ms(240.0), ms(260.0), ms(300.0), ms(340.0), ms(380.0)]);
        let start = Params::new(Variant::Id, 300 * 1024, 1, 2);
        let landing = land(start, ms(300.0), 512 * 1024, &mut scattered).unwrap();
        assert!(!landing.landed && landing.steps.len() == 1, "{landing:?}");
        // One outlier of five does not make a machine unstable.
        let mut one_off =
            |_: &Params| Ok(vec![ms(100.0), ms(295.0), ms(300.0), ms(310.0), ms(900.0)]);
        assert!(
            land(start, ms(300.0), 512 * 1024, &mut one_off)
                .unwrap()
                .landed
        );
    }

    #[test]
    fn a_choice_that_lands_at_once_is_kept() {
        let start = Params::new(Variant::Id, 300 * 1024, 1, 2);
        let landing = land(start, ms(300.0), 512 * 1024, &mut fresh_process(1.0)).unwrap();
        assert_eq!(landing.steps.len(), 1);
        assert_eq!(landing.landed_params().unwrap().params, start);
    }

    #[test]
    fn a_machine_that_never_repeats_itself_is_reported_not_landed() {
        let mut k = 0.0;
        let mut erratic = |_: &Params| {
            k += 1.0;
            // Alternately half and double the target.
            let v = if k % 2.0 == 0.0 { 150.0 } else { 600.0 };
            Ok(vec![ms(v); 5])
        };
        let start = Params::new(Variant::Id, 64 * 1024, 3, 2);
        let landing = land(start, ms(300.0), 1 << 20, &mut erratic).unwrap();
        assert!(!landing.landed);
        assert!(landing.landed_params().is_none());
        assert_eq!(landing.steps.len(), MAX_STEPS);
    }
}
