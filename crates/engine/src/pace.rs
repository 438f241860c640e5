//! Pacing a run to its measuring limit.
//!
//! A budget's `measuring_limit` is a promise about the whole run ("a
//! default run measures for at most 190 s"), while its
//! `time_per_case` is what one case gets when the plan fits. A plan larger
//! than the limit allows at that time per case (every suite, every runtime
//! twin) would otherwise overrun it by minutes, and second tries of
//! disturbed groups could not fit at all. So before each group the runner
//! asks [`Pace::scale`] how much of the nominal time per case the group
//! gets: what is left of the first pass's share of the limit, less the
//! remaining members' calibration and warm-up (which no scale shortens),
//! over the remaining groups' rounds at the nominal time. Both are costed
//! at what the groups so far really took: calibration and warm-up per
//! member, and round time per second given (the reference member sampling
//! on, the canary, slow operations' fewest rounds and runtimes' round
//! trips make it more than one). Pacing only ever shortens, never below
//! [`MIN_SCALE`]: a plan that fits runs exactly as budgeted, and a case
//! sampled for less says how precise it got.

use crate::group::Spent;
use std::time::Duration;

/// The share of the measuring limit the first pass is paced to; second
/// tries of disturbed groups ([`crate::remeasure`]) get the rest.
pub const FIRST_PASS_SHARE: f64 = 0.85;
/// The least share of its nominal time per case a group is given, so a
/// paced case keeps a sample worth the name (`--quick` gives 50 ms).
pub const MIN_SCALE: f64 = 0.25;
/// Before any group has run: calibration and warm-up per member, ns...
const FIRST_FIXED_PER_MEMBER_NS: f64 = 50e6;
/// ... and round time per nominal second given (the reference member
/// samples on while the others do, the canary joins every round).
const FIRST_ROUNDS_PER_GIVEN: f64 = 1.2;

/// What is planned: the nominal cost (members x time per case) and how
/// many members will be measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Planned {
    /// Members x the nominal time per case, ns.
    pub nominal_ns: f64,
    /// Members that will be built and measured.
    pub members: usize,
}

/// How a run's groups share its measuring limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Pace {
    /// The first pass's share of the limit, ns; `None` paces nothing.
    target_ns: Option<f64>,
    /// What the groups not yet run would cost at the nominal time.
    remaining: Planned,
    /// Members measured so far.
    members_done: usize,
    /// What the groups so far took.
    spent: Spent,
    /// What those groups were given: nominal cost x scale, ns.
    given_ns: f64,
    /// The smallest scale given so far.
    lowest: f64,
}

impl Pace {
    /// Pacing for a plan of `planned` groups under `limit` (`None`: no
    /// pacing).
    pub fn new(limit: Option<Duration>, planned: Planned) -> Self {
        Self {
            target_ns: limit.map(|l| l.as_nanos() as f64 * FIRST_PASS_SHARE),
            remaining: planned,
            members_done: 0,
            spent: Spent::default(),
            given_ns: 0.0,
            lowest: 1.0,
        }
    }

    /// The share of the nominal time per case the next group gets: what is
    /// left of the target, less the remaining members' calibration and
    /// warm-up at their cost so far, over the remaining rounds at theirs.
    pub fn scale(&self) -> f64 {
        let Some(target) = self.target_ns else {
            return 1.0;
        };
        if self.remaining.nominal_ns <= 0.0 {
            return 1.0;
        }
        let (fixed_per_member, rounds_per_given) = if self.members_done > 0 && self.given_ns > 0.0 {
            let sampling = self.spent.sampling_ns as f64;
            let fixed = self.spent.measuring_ns as f64 - sampling;
            (fixed / self.members_done as f64, sampling / self.given_ns)
        } else {
            (FIRST_FIXED_PER_MEMBER_NS, FIRST_ROUNDS_PER_GIVEN)
        };
        let left = target - self.spent.measuring_ns as f64;
        let for_rounds = left - fixed_per_member * self.remaining.members as f64;
        (for_rounds / (rounds_per_given * self.remaining.nominal_ns)).clamp(MIN_SCALE, 1.0)
    }

    /// Records a group `planned` as it was, run at `scale`, that took `spent`.
    pub fn record(&mut self, planned: Planned, scale: f64, spent: Spent) {
        self.remaining.nominal_ns = (self.remaining.nominal_ns - planned.nominal_ns).max(0.0);
        self.remaining.members = self.remaining.members.saturating_sub(planned.members);
        self.members_done += planned.members;
        self.spent.add(spent);
        self.given_ns += planned.nominal_ns * scale;
        if planned.members > 0 {
            self.lowest = self.lowest.min(scale);
        }
    }

    /// The smallest share of the nominal time per case any group got
    /// (1 when the plan fitted).
    pub fn lowest(&self) -> f64 {
        self.lowest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: f64 = 1e9;

    /// `n` members of a group with `per_case` s of nominal time each.
    fn planned(n: usize, per_case: f64) -> Planned {
        Planned {
            nominal_ns: n as f64 * per_case * S,
            members: n,
        }
    }

    /// What a group costs: `fixed` s per member, rounds of `ratio` x what
    /// it was given.
    fn cost(p: Planned, scale: f64, fixed: f64, ratio: f64) -> Spent {
        let sampling = p.nominal_ns * scale * ratio;
        let measuring = sampling + fixed * S * p.members as f64;
        Spent {
            checking_ns: 0,
            measuring_ns: measuring as u64,
            sampling_ns: sampling as u64,
        }
    }

    /// Runs `groups` groups of 10 members of 0.3 s; returns the measuring
    /// time and the pace.
    fn run(limit_s: u64, groups: usize, fixed: f64, ratio: f64) -> (f64, Pace) {
        let g = planned(10, 0.3);
        let all = Planned {
            nominal_ns: g.nominal_ns * groups as f64,
            members: g.members * groups,
        };
        let mut p = Pace::new(Some(Duration::from_secs(limit_s)), all);
        let mut total = 0.0;
        for _ in 0..groups {
            let s = p.scale();
            let c = cost(g, s, fixed, ratio);
            total += c.measuring_ns as f64;
            p.record(g, s, c);
        }
        (total / S, p)
    }

    #[test]
    fn without_a_limit_every_group_gets_its_whole_time() {
        let mut p = Pace::new(None, planned(1000, 1.0));
        assert_eq!(p.scale(), 1.0);
        let g = planned(10, 1.0);
        p.record(g, 1.0, cost(g, 1.0, 0.05, 1.0));
        assert_eq!(p.scale(), 1.0);
        assert_eq!(p.lowest(), 1.0);
    }

    #[test]
    fn a_plan_that_fits_is_not_paced() {
        // 100 members: 30 s of rounds and 5 s of calibration, under 85 s.
        let (total, p) = run(100, 10, 0.05, 1.0);
        assert_eq!(p.lowest(), 1.0);
        assert!((total - 35.0).abs() < 0.01, "{total}");
    }

    #[test]
    fn a_plan_twice_the_limit_ends_near_the_first_pass_share() {
        // 750 members of 0.3 s: 225 s of rounds and 37.5 s of calibration.
        let (total, p) = run(210, 75, 0.05, 1.2);
        let target = 210.0 * FIRST_PASS_SHARE;
        assert!(total <= target * 1.01, "{total} over {target}");
        assert!(total >= target * 0.95, "{total} well under {target}");
        assert!(p.lowest() < 1.0 && p.lowest() > MIN_SCALE, "{}", p.lowest());
    }

    #[test]
    fn the_calibration_that_does_not_shrink_is_left_out_of_the_share() {
        // Calibration of 0.1 s per member, a third of the nominal time:
        // a model costing it in proportion would starve the later groups.
        let (total, p) = run(210, 75, 0.1, 1.0);
        let target = 210.0 * FIRST_PASS_SHARE;
        assert!(total <= target * 1.01 && total >= target * 0.95, "{total}");
        assert!(p.lowest() > MIN_SCALE, "{}", p.lowest());
    }

    #[test]
    fn an_overrun_limit_leaves_the_least_scale_not_nothing() {
        let mut p = Pace::new(Some(Duration::from_secs(10)), planned(100, 1.0));
        let g = planned(10, 1.0);
        p.record(g, 1.0, cost(g, 1.0, 0.0, 2.0));
        assert_eq!(p.scale(), MIN_SCALE);
        assert_eq!(p.lowest(), 1.0, "the lowest counts scales given, not asked");
    }
}
