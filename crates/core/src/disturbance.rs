//! Whether a measurement met a disturbed moment: its canary ran well over
//! the run's calm level.
//!
//! The engine uses this to pick the groups it measures again at the end of
//! a run; the advice uses it to tell a setting that missed its target
//! because it is wrong from one that missed because the machine slowed down
//! while it was timed. One rule for both, so a run never calls a moment
//! calm in one place and disturbed in the other.

use crate::model::Measurement;

/// How far (a fraction) a canary may run over the run's calm level before
/// the moment counts as disturbed. The canary's own spread between calm
/// groups is 2-5% on a 2-core VM.
pub const DISTURBED: f64 = 0.08;
/// How far the memory probe may run over the run's calm probe time before
/// a memory-bound moment counts as disturbed. Calm groups' fastest probes
/// spread over 2.0-2.24 ms here; disturbed ones ran 2.7-3.1 ms, and their
/// Argon2 cases 1.4-1.7x their time in the run before.
pub const MEMORY_DISTURBED: f64 = 0.15;

/// The quantile of a run's canary times taken as its calm level: a low
/// one, since disturbance only ever slows the canary down, but not the
/// minimum, which one lucky moment would set.
const CALM_QUANTILE: f64 = 0.2;

/// The calm canary time (ns) of a run from its canary times.
pub fn calm_level(canaries: &[f64]) -> Option<f64> {
    (!canaries.is_empty()).then(|| cryptobench_stats::quantile(canaries, CALM_QUANTILE))
}

/// A run's calm canary levels, one-core and multi-core, from the canary
/// times its measurements carry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalmLevels {
    /// The one-core canary's calm time, ns.
    pub single: Option<f64>,
    /// The calm time of the canary on several cores at once, ns.
    pub parallel: Option<f64>,
    /// The memory probe's calm time, ns.
    pub memory: Option<f64>,
}

/// One moment's readings of the machine, ns: the canary, the canary on
/// several cores at once and the memory probe, each when timed.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Readings {
    /// The one-core canary.
    pub canary: Option<f64>,
    /// The canary on several cores at once.
    pub parallel: Option<f64>,
    /// The memory probe.
    pub memory: Option<f64>,
}

impl Readings {
    /// The readings a measurement's machine load carries.
    pub fn of(load: &crate::MachineLoad) -> Self {
        Readings {
            canary: load.canary_ns,
            parallel: load.parallel_canary_ns,
            memory: load.memory_probe_ns,
        }
    }
}

impl CalmLevels {
    /// The calm levels of the measurements (the canary's own excluded).
    pub fn of(ms: &[Measurement]) -> Self {
        let readings: Vec<Readings> = ms
            .iter()
            .filter(|m| !m.is_canary())
            .filter_map(|m| Some(Readings::of(m.machine_load.as_ref()?)))
            .collect();
        Self::of_readings(&readings)
    }

    /// The calm levels of a set of moments' readings.
    pub fn of_readings(readings: &[Readings]) -> Self {
        let times = |pick: fn(&Readings) -> Option<f64>| -> Vec<f64> {
            readings
                .iter()
                .filter_map(pick)
                .filter(|t| t.is_finite() && *t > 0.0)
                .collect()
        };
        CalmLevels {
            single: calm_level(&times(|r| r.canary)),
            parallel: calm_level(&times(|r| r.parallel)),
            memory: calm_level(&times(|r| r.memory)),
        }
    }

    /// Each of `r`'s readings over its calm level (a factor), beside the
    /// fraction past which that moment counts as disturbed ([`DISTURBED`]
    /// for the canaries, [`MEMORY_DISTURBED`] for the memory probe).
    fn over_calm(&self, r: &Readings) -> impl Iterator<Item = (f64, f64)> {
        [
            (r.canary, self.single, DISTURBED),
            (r.parallel, self.parallel, DISTURBED),
            (r.memory, self.memory, MEMORY_DISTURBED),
        ]
        .into_iter()
        .filter_map(|(ns, calm, limit)| {
            let (ns, calm) = (ns?, calm?);
            (calm > 0.0).then(|| (ns / calm, limit))
        })
    }

    /// How far over calm the most disturbed of `r`'s readings ran, in units
    /// of its limit (above 1: disturbed); 0 without readings.
    pub fn excess(&self, r: &Readings) -> f64 {
        self.over_calm(r)
            .map(|(factor, limit)| (factor - 1.0) / limit)
            .fold(0.0, f64::max)
    }

    /// How much slower than calm the machine ran while `m` was sampled (a
    /// factor, the largest of the readings past their limits: the canaries'
    /// [`DISTURBED`], the memory probe's [`MEMORY_DISTURBED`]); `None` for
    /// a calm moment or without a canary.
    pub fn slowdown(&self, m: &Measurement) -> Option<f64> {
        let readings = Readings::of(m.machine_load.as_ref()?);
        self.over_calm(&readings)
            .filter(|(factor, limit)| factor.is_finite() && *factor > 1.0 + limit)
            .map(|(factor, _)| factor)
            .reduce(f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaseSpec, CaseStatus, MachineLoad};

    fn blank() -> Measurement {
        CaseSpec::new("argon2", "Argon2id", "libargon2", "v", "hash")
            .measurement(CaseStatus::Measured, None)
    }

    fn at(canary: f64, parallel: Option<f64>) -> Measurement {
        let mut m = blank();
        m.machine_load = Some(MachineLoad {
            canary_ns: Some(canary),
            parallel_canary_ns: parallel,
            ..MachineLoad::default()
        });
        m
    }

    #[test]
    fn a_memory_bound_case_whose_probe_ran_slow_was_disturbed() {
        let probed = |probe: f64| {
            let mut m = at(100.0, None);
            m.machine_load.as_mut().unwrap().memory_probe_ns = Some(probe);
            m
        };
        let ms: Vec<Measurement> = [2.0e6, 2.05e6, 2.1e6, 2.2e6, 2.24e6, 3.06e6]
            .into_iter()
            .map(probed)
            .collect();
        let calm = CalmLevels::of(&ms);
        assert_eq!(
            calm.slowdown(&ms[4]),
            None,
            "12% over calm is the probe's spread"
        );
        let factor = calm.slowdown(&ms[5]).expect("50% over calm is disturbed");
        assert!(factor > 1.4, "{factor}");
    }

    #[test]
    fn the_calm_level_is_a_low_quantile_not_the_minimum() {
        let calm = calm_level(&[90.0, 104.0, 105.0, 106.0, 130.0, 131.0]).unwrap();
        assert!((104.0..=105.0).contains(&calm), "{calm}");
        assert_eq!(calm_level(&[]), None);
    }

    #[test]
    fn a_measurement_whose_canary_ran_past_the_limit_was_disturbed() {
        let mut ms: Vec<Measurement> = (0..8).map(|i| at(100.0 + f64::from(i), None)).collect();
        ms.push(at(132.0, None));
        let calm = CalmLevels::of(&ms);
        let factor = calm.slowdown(&ms[8]).expect("32% over calm is disturbed");
        assert!((1.29..1.31).contains(&factor), "{factor}");
        assert_eq!(calm.slowdown(&ms[3]), None, "a calm moment");
        assert_eq!(calm.slowdown(&blank()), None, "no canary");
    }

    #[test]
    fn a_multi_core_case_is_judged_by_its_canary_on_several_cores_too() {
        let mut ms: Vec<Measurement> = (0..6).map(|_| at(100.0, Some(105.0))).collect();
        // One-core canary calm, its cores taken away: disturbed all the same.
        ms.push(at(100.0, Some(190.0)));
        let calm = CalmLevels::of(&ms);
        let factor = calm.slowdown(&ms[6]).expect("cores taken");
        assert!((1.8..1.82).contains(&factor), "{factor}");
        assert_eq!(calm.slowdown(&ms[0]), None);
    }
}
