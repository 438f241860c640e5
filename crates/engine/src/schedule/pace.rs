//! Pacing a run to its measuring limit.
//!
//! A budget's `measuring_limit` is a promise about the whole run ("a
//! default run measures for at most 210 s"), while its
//! `time_per_case` is what one case gets when the plan fits. A plan larger
//! than the limit allows at that time per case (every suite, every runtime
//! twin) would otherwise overrun it by minutes, and second tries of
//! disturbed groups could not fit at all. So before each group the runner
//! asks [`Pace::scale`] how much of the nominal time per case the group
//! gets: the largest share at which every group not yet finished fits in
//! what is left of the first pass's share of the limit.
//!
//! A group's cost at a share is modelled member by member
//! ([`MemberCost`]): its sampling is the larger of that share of the time
//! per case and the rounds no share shortens (a suite's floor of rounds, a
//! slow operation's fewest calls, five rounds of a sample), plus a slow
//! operation's calibration call and every member's calibration and
//! warm-up. Costing the floors from the plan matters because they sit
//! late in it: a quick run's Argon2 and public-key groups spend seconds
//! where their share says milliseconds, and a pacer that learnt only from
//! the hash and cipher groups before them gave those the whole time per
//! case and overran its share by 8 s. What the groups so far really took
//! corrects the model: calibration and warm-up per member, and round time
//! per modelled second (the reference member sampling on, the canary and
//! runtimes' round trips make it more than one). Pacing only ever
//! shortens, never below [`MIN_SCALE`]: a plan that fits runs exactly as
//! budgeted, and a case sampled for less says how precise it got.

use crate::group::rounds::{fewest_slow_rounds, Spent, MIN_ROUNDS};
use std::collections::BTreeMap;
use std::time::Duration;

/// The share of the measuring limit the first pass is paced to; second
/// tries of disturbed groups ([`crate::schedule::remeasure`]) get the rest.
pub const FIRST_PASS_SHARE: f64 = 0.85;
/// The least share of its nominal time per case a group is given, so a
/// paced case keeps a sample worth the name (`--quick` gives 50 ms).
pub const MIN_SCALE: f64 = 0.25;
/// Before any group has run: calibration per member on top of the
/// budget's warm-up, ns (quick runs here took 22 ms a member in all)...
const FIRST_CALIBRATION_NS: f64 = 15e6;
/// ... and round time per modelled second of sampling (the reference
/// member samples on while the others do, the canary joins every round).
const FIRST_ROUNDS_PER_MODELLED: f64 = 1.2;
/// How much modelled sampling, ns, the run's own correction counts for
/// beside a suite's: a suite's first group alone (an ECC keygen group ran
/// 3.6x its model where the run so far ran 1.1x) would swing the share of
/// every group after it between a quarter and all of its time.
const SUITE_PRIOR_NS: f64 = 0.5e9;
/// Halvings of the share searched for the largest that fits.
const SEARCH_STEPS: usize = 30;

/// What sampling one member costs, as the engine stops it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemberCost {
    /// Its nominal time per case, ns.
    pub time_ns: f64,
    /// One batch at least: the shortest sample, or a slow operation's one
    /// call (by its suite's guess), ns.
    pub batch_ns: f64,
    /// Whether one call outlasts a sample (sampled one call at a time).
    pub slow: bool,
    /// The suite's floor of rounds ([`cryptobench_core::CaseSpec::min_rounds`]).
    pub min_rounds: usize,
    /// A slow operation's fewest rounds when five calls pass five time
    /// budgets (`Budget::min_slow_samples`).
    pub min_slow_rounds: usize,
}

impl MemberCost {
    /// Its sampling time at `scale` of its time per case, ns: the share,
    /// or the rounds it takes whatever the share, whichever is longer
    /// (the stop rule of [`crate::group::rounds`], and `slow_rounds_floor`'s).
    pub fn sampling_ns(&self, scale: f64) -> f64 {
        let share = self.time_ns * scale;
        let rounds = if self.slow {
            let floor = fewest_slow_rounds(self.batch_ns, share, self.min_slow_rounds);
            (share / self.batch_ns).ceil().max(floor as f64)
        } else {
            MIN_ROUNDS as f64
        };
        share.max(rounds.max(self.min_rounds as f64) * self.batch_ns)
    }

    /// A slow operation's calibration call (one call timed before the
    /// rounds), which no share shortens, ns.
    pub fn calibration_ns(&self) -> f64 {
        if self.slow {
            self.batch_ns
        } else {
            0.0
        }
    }
}

/// A group as planned: the members that will be built and measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Planned {
    /// The suite the group belongs to: its groups so far correct the
    /// model of its groups to come.
    pub suite: String,
    /// One entry per member that will be measured.
    pub members: Vec<MemberCost>,
}

impl Planned {
    /// Its sampling time at `scale`, as modelled, ns.
    pub fn sampling_ns(&self, scale: f64) -> f64 {
        self.members.iter().map(|m| m.sampling_ns(scale)).sum()
    }

    /// Its slow operations' calibration calls, ns.
    fn calibration_ns(&self) -> f64 {
        self.members.iter().map(MemberCost::calibration_ns).sum()
    }
}

/// How a run's groups share its measuring limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Pace {
    /// The first pass's share of the limit, ns; `None` paces nothing.
    target_ns: Option<f64>,
    /// Calibration and warm-up per member before any group has run, ns.
    first_fixed_ns: f64,
    /// The groups not yet finished, by their number in the plan.
    remaining: Vec<Option<Planned>>,
    /// Members measured so far.
    members_done: usize,
    /// What the groups so far took.
    spent: Spent,
    /// Their slow operations' calibration calls, as modelled, ns.
    calibration_ns: f64,
    /// Their sampling at the scale they got, as modelled, ns.
    modelled_ns: f64,
    /// Per suite: (sampling as timed, sampling as modelled) of its groups
    /// so far, ns.
    by_suite: BTreeMap<String, (f64, f64)>,
    /// The smallest scale given so far.
    lowest: f64,
}

impl Pace {
    /// Pacing for the plan's `groups` under `limit` (`None`: no pacing),
    /// whose members warm up for `warmup` each.
    pub fn new(limit: Option<Duration>, warmup: Duration, groups: Vec<Planned>) -> Self {
        Self {
            target_ns: limit.map(|l| l.as_nanos() as f64 * FIRST_PASS_SHARE),
            first_fixed_ns: warmup.as_nanos() as f64 + FIRST_CALIBRATION_NS,
            remaining: groups.into_iter().map(Some).collect(),
            members_done: 0,
            spent: Spent::default(),
            calibration_ns: 0.0,
            modelled_ns: 0.0,
            by_suite: BTreeMap::new(),
            lowest: 1.0,
        }
    }

    /// The share of the nominal time per case the next group gets: the
    /// largest at which the groups not yet finished fit in what is left of
    /// the target, at their cost so far.
    pub fn scale(&self) -> f64 {
        let Some(target) = self.target_ns else {
            return 1.0;
        };
        let (fixed_per_member, run_rounds_per_modelled) = if self.members_done > 0
            && self.modelled_ns > 0.0
        {
            let sampling = self.spent.sampling_ns as f64;
            let fixed = (self.spent.measuring_ns as f64 - sampling - self.calibration_ns).max(0.0);
            (
                fixed / self.members_done as f64,
                sampling / self.modelled_ns,
            )
        } else {
            (self.first_fixed_ns, FIRST_ROUNDS_PER_MODELLED)
        };
        // A suite's own groups so far know its guesses best (Argon2's
        // calls ran 2x its guess here), weighed against the run's so far.
        let rounds_per_modelled = |g: &Planned| {
            let (timed, modelled) = self.by_suite.get(&g.suite).copied().unwrap_or_default();
            (timed + SUITE_PRIOR_NS * run_rounds_per_modelled) / (modelled + SUITE_PRIOR_NS)
        };
        let groups = || self.remaining.iter().flatten();
        if groups().all(|g| g.members.is_empty()) {
            return 1.0;
        }
        let members: usize = groups().map(|g| g.members.len()).sum();
        let fixed =
            fixed_per_member * members as f64 + groups().map(Planned::calibration_ns).sum::<f64>();
        let left = target - self.spent.measuring_ns as f64 - fixed;
        let fits = |scale: f64| {
            groups()
                .map(|g| rounds_per_modelled(g) * g.sampling_ns(scale))
                .sum::<f64>()
                <= left
        };
        if fits(1.0) {
            return 1.0;
        }
        if !fits(MIN_SCALE) {
            return MIN_SCALE;
        }
        // Modelled cost only grows with the share: bisect for the largest that fits.
        let (mut low, mut high) = (MIN_SCALE, 1.0);
        for _ in 0..SEARCH_STEPS {
            let mid = (low + high) / 2.0;
            if fits(mid) {
                low = mid;
            } else {
                high = mid;
            }
        }
        low
    }

    /// Records that group number `group` of the plan, run at `scale`,
    /// took `spent`.
    pub fn record(&mut self, group: usize, scale: f64, spent: Spent) {
        let Some(planned) = self.remaining.get_mut(group).and_then(Option::take) else {
            return;
        };
        self.members_done += planned.members.len();
        self.spent.add(spent);
        self.calibration_ns += planned.calibration_ns();
        let modelled = planned.sampling_ns(scale);
        self.modelled_ns += modelled;
        let suite = self.by_suite.entry(planned.suite.clone()).or_default();
        suite.0 += spent.sampling_ns as f64;
        suite.1 += modelled;
        if !planned.members.is_empty() {
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
    const SAMPLE: f64 = 2e-3;

    /// A member with `per_case` s of nominal time, one call of `call` s
    /// (slow when longer than a sample) and a suite floor of `floor` rounds.
    fn member(per_case: f64, call: f64, floor: usize) -> MemberCost {
        MemberCost {
            time_ns: per_case * S,
            batch_ns: call.max(SAMPLE) * S,
            slow: call > SAMPLE,
            min_rounds: floor,
            min_slow_rounds: 3,
        }
    }

    /// `n` fast members of a group with `per_case` s of nominal time each.
    fn planned(n: usize, per_case: f64) -> Planned {
        Planned {
            suite: "fast".into(),
            members: vec![member(per_case, 0.0, 0); n],
        }
    }

    /// What a group costs: `fixed` s per member, rounds of `ratio` x its
    /// modelled sampling.
    fn cost(p: &Planned, scale: f64, fixed: f64, ratio: f64) -> Spent {
        let sampling = p.sampling_ns(scale) * ratio;
        let measuring = sampling + p.calibration_ns() + fixed * S * p.members.len() as f64;
        Spent {
            checking_ns: 0,
            measuring_ns: measuring as u64,
            sampling_ns: sampling as u64,
        }
    }

    /// Runs `groups` in order; returns the measuring time and the pace.
    fn run_groups(limit_s: u64, groups: Vec<Planned>, fixed: f64, ratio: f64) -> (f64, Pace) {
        let ratios = |_: &Planned| ratio;
        run_groups_at(limit_s, groups, fixed, &ratios)
    }

    /// [`run_groups`] with each group's rounds at `ratio(group)` x its model.
    fn run_groups_at(
        limit_s: u64,
        groups: Vec<Planned>,
        fixed: f64,
        ratio: &dyn Fn(&Planned) -> f64,
    ) -> (f64, Pace) {
        let mut p = Pace::new(
            Some(Duration::from_secs(limit_s)),
            Duration::ZERO,
            groups.clone(),
        );
        let mut total = 0.0;
        for (i, g) in groups.iter().enumerate() {
            let s = p.scale();
            let c = cost(g, s, fixed, ratio(g));
            total += c.measuring_ns as f64;
            p.record(i, s, c);
        }
        (total / S, p)
    }

    /// Runs `groups` groups of 10 members of 0.3 s.
    fn run(limit_s: u64, groups: usize, fixed: f64, ratio: f64) -> (f64, Pace) {
        run_groups(limit_s, vec![planned(10, 0.3); groups], fixed, ratio)
    }

    #[test]
    fn without_a_limit_every_group_gets_its_whole_time() {
        let mut p = Pace::new(None, Duration::ZERO, vec![planned(1000, 1.0); 2]);
        assert_eq!(p.scale(), 1.0);
        let g = planned(1000, 1.0);
        p.record(0, 1.0, cost(&g, 1.0, 0.05, 1.0));
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
    fn floors_late_in_the_plan_are_paid_for_by_the_groups_before_them() {
        // A quick run's shape: 400 fast members of 50 ms, then groups no
        // share shortens: public-key members that take 20 rounds of 10 ms
        // calls, and Argon2 calls of 1 s that take 3 rounds after their
        // calibration call. Their 28.8 s with calibration calls, and 4.3 s
        // of calibration and warm-up in all, leave less of the 51 s target
        // than the 20 s the fast members would take at their whole time.
        let mut groups = vec![planned(10, 0.05); 40];
        groups.extend(vec![
            Planned {
                suite: "pubkey".into(),
                members: vec![member(0.05, 0.01, 20); 10]
            };
            8
        ]);
        groups.extend(vec![
            Planned {
                suite: "argon2".into(),
                members: vec![member(0.05, 1.0, 0)]
            };
            3
        ]);
        let floors: f64 = groups[40..]
            .iter()
            .map(|g| g.sampling_ns(MIN_SCALE))
            .sum::<f64>()
            + groups.iter().map(Planned::calibration_ns).sum::<f64>();
        assert!((floors / S - 28.8).abs() < 1e-6, "{}", floors / S);
        let (total, p) = run_groups(60, groups, 0.01, 1.0);
        let target = 60.0 * FIRST_PASS_SHARE;
        assert!(total <= target * 1.01, "{total} over {target}");
        assert!(total >= target * 0.95, "{total} well under {target}");
        assert!(p.lowest() < 1.0, "the fast groups make room");
    }

    #[test]
    fn a_suite_that_runs_over_its_model_is_costed_by_its_own_groups() {
        // 30 groups run as modelled, then 40 of a suite whose rounds take
        // 3x their model: from its first few groups on, the rest of that
        // suite is costed at what it takes, not at the run's 1x.
        let mut groups = vec![planned(10, 0.05); 30];
        let slow = Planned {
            suite: "slow".into(),
            ..planned(10, 0.05)
        };
        groups.extend(vec![slow; 40]);
        let ratio = |g: &Planned| if g.suite == "slow" { 3.0 } else { 1.0 };
        let (total, _) = run_groups_at(60, groups, 0.01, &ratio);
        let target = 60.0 * FIRST_PASS_SHARE;
        assert!(total <= target * 1.03, "{total} over {target}");
        assert!(total >= target * 0.9, "{total} well under {target}");
    }

    #[test]
    fn a_member_costs_its_share_or_the_rounds_no_share_shortens() {
        let fast = member(0.05, 0.0, 0);
        assert!((fast.sampling_ns(1.0) / S - 0.05).abs() < 1e-9);
        // Five rounds of a 2 ms sample: 10 ms at the least.
        assert!((fast.sampling_ns(0.1) / S - 0.01).abs() < 1e-9);
        let floored = member(0.05, 0.0, 20);
        assert!((floored.sampling_ns(1.0) / S - 0.05).abs() < 1e-9);
        assert!((floored.sampling_ns(0.25) / S - 0.04).abs() < 1e-9);
        // 1 s calls against 50 ms: the slow floor of 3 calls, and one to calibrate.
        let slow = member(0.05, 1.0, 0);
        assert!((slow.sampling_ns(1.0) / S - 3.0).abs() < 1e-9);
        assert!((slow.calibration_ns() / S - 1.0).abs() < 1e-9);
        // 20 ms calls against 300 ms: the 15 calls the budget holds.
        let slow = member(0.3, 0.02, 0);
        assert!((slow.sampling_ns(1.0) / S - 0.3).abs() < 1e-9);
        // ... and at a quarter, the seven rounds that fit five budgets.
        assert!((slow.sampling_ns(0.25) / S - 0.14).abs() < 1e-9);
    }

    #[test]
    fn an_overrun_limit_leaves_the_least_scale_not_nothing() {
        let g = planned(10, 1.0);
        let mut p = Pace::new(
            Some(Duration::from_secs(10)),
            Duration::ZERO,
            vec![g.clone(); 10],
        );
        p.record(0, 1.0, cost(&g, 1.0, 0.0, 2.0));
        assert_eq!(p.scale(), MIN_SCALE);
        assert_eq!(p.lowest(), 1.0, "the lowest counts scales given, not asked");
    }
}
