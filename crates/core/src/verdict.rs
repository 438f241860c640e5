//! Verdicts decided on intervals, never on a point estimate.
//!
//! Every conclusion the tool prints (a seed paper's claim, the fidelity of a
//! backend against its peer, a recommendation's premise, a case that changed
//! between two runs) is one of four states. "Inconclusive" exists because a
//! noisy machine often cannot tell: a ratio whose 95% interval straddles the
//! claim's threshold proves neither side, and saying "holds" there would flip
//! from run to run.

use crate::model::{EarlierSamples, Measurement, PairedRatio};
use cryptobench_stats::{ratio_estimate, round_ratios, stretch_medians, widened};
use serde::{Deserialize, Serialize};

/// The outcome of testing a claim against measurements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The whole interval satisfies the claim.
    Holds,
    /// The whole interval contradicts the claim.
    Differs,
    /// The interval straddles the claim's threshold: this run cannot tell.
    Inconclusive,
    /// Too few (or no) measurements to test the claim.
    NotMeasured,
}

impl Verdict {
    /// The words printed in tables ("holds here", ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds here",
            Verdict::Differs => "differs here",
            Verdict::Inconclusive => "inconclusive",
            Verdict::NotMeasured => "not measured",
        }
    }

    /// Combines verdicts of the parts of one claim: any difference wins,
    /// then any doubt, then any gap; all holding is holding.
    pub fn all(parts: impl IntoIterator<Item = Verdict>) -> Verdict {
        let mut out = Verdict::Holds;
        let mut any = false;
        for v in parts {
            any = true;
            out = match (out, v) {
                (Verdict::Differs, _) | (_, Verdict::Differs) => Verdict::Differs,
                (Verdict::Inconclusive, _) | (_, Verdict::Inconclusive) => Verdict::Inconclusive,
                (Verdict::NotMeasured, _) | (_, Verdict::NotMeasured) => Verdict::NotMeasured,
                _ => Verdict::Holds,
            };
        }
        if any {
            out
        } else {
            Verdict::NotMeasured
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A ratio with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Point estimate (median).
    pub value: f64,
    /// 95% interval, `lo <= value <= hi`.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
    /// True when the interval comes from rounds measured together
    /// (paired); false when two separately measured medians were divided.
    pub paired: bool,
    /// When earlier runs on this machine widened `lo..hi`: how many, and
    /// this run's own interval ([`Measurement::earlier`]).
    pub earlier: Option<EarlierRuns>,
    /// How many rounds (paired) or samples (the fewer of two medians')
    /// the interval rests on; `None` for a published figure.
    pub rounds: Option<usize>,
}

/// Fewest rounds on which an interval may decide a claim. The interval of
/// a median from n values reaches at most from the lowest to the highest,
/// which holds the true median with probability 1 - 2 / 2^n: 94% for
/// five values, 75% for three. A peer timed as three one-second
/// `openssl speed` processes read "slower than the peer" at 0.62x (95%
/// 0.62-0.86) in one default run and 1.08x in the next (2026-11-30); on
/// fewer rounds than this a verdict is "inconclusive", whatever the
/// interval says.
pub const FEWEST_DECIDING_ROUNDS: usize = 5;

/// Earlier runs whose ratios an [`Estimate`]'s interval also holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EarlierRuns {
    /// How many earlier runs measured the ratio.
    pub runs: usize,
    /// This run's own interval, before the earlier runs widened it.
    pub own: (f64, f64),
}

impl Estimate {
    /// A ratio measured in paired rounds, with its 95% interval.
    pub fn paired(value: f64, lo: f64, hi: f64) -> Self {
        Self {
            value,
            lo,
            hi,
            paired: true,
            earlier: None,
            rounds: None,
        }
    }

    /// An estimate whose interval is the point itself (published figures).
    pub fn exact(value: f64) -> Self {
        Self {
            value,
            lo: value,
            hi: value,
            paired: false,
            earlier: None,
            rounds: None,
        }
    }

    /// This estimate, resting on `rounds` rounds or samples.
    pub fn on_rounds(self, rounds: usize) -> Self {
        Self {
            rounds: Some(rounds),
            ..self
        }
    }

    /// Whether the interval rests on too few rounds to decide a claim
    /// ([`FEWEST_DECIDING_ROUNDS`]).
    pub fn too_few_rounds(&self) -> bool {
        self.rounds.is_some_and(|n| n < FEWEST_DECIDING_ROUNDS)
    }

    /// `1 / self`: the interval's ends swap.
    pub fn inverse(self) -> Self {
        Self {
            value: 1.0 / self.value,
            lo: 1.0 / self.hi,
            hi: 1.0 / self.lo,
            paired: self.paired,
            rounds: self.rounds,
            earlier: self.earlier.map(|e| EarlierRuns {
                own: (1.0 / e.own.1, 1.0 / e.own.0),
                ..e
            }),
        }
    }

    /// Half the interval's width relative to the value (0.01 = +-1%).
    pub fn relative_half_width(&self) -> f64 {
        if self.value.abs() > 0.0 {
            (self.hi - self.lo) / 2.0 / self.value.abs()
        } else {
            f64::INFINITY
        }
    }

    /// Claim "value >= min" (with `tolerance`, a fraction, in the claim's
    /// favour: "more than twice" tested at 2.0 with 0.03 accepts 1.94).
    pub fn at_least(&self, min: f64, tolerance: f64) -> Verdict {
        let edge = at_least_edge(min, tolerance);
        self.decide(self.lo >= edge, self.hi < edge)
    }

    /// Claim "value <= max" (with `tolerance` in the claim's favour).
    pub fn at_most(&self, max: f64, tolerance: f64) -> Verdict {
        let edge = max * (1.0 + tolerance);
        self.decide(self.hi <= edge, self.lo > edge)
    }

    /// Claim "value lies in [lo, hi]" (a band such as "2-3x", widened by
    /// `tolerance` on both sides).
    pub fn within(&self, lo: f64, hi: f64, tolerance: f64) -> Verdict {
        let [a, b] = within_edges(lo, hi, tolerance);
        self.decide(self.lo >= a && self.hi <= b, self.hi < a || self.lo > b)
    }

    fn decide(&self, holds: bool, differs: bool) -> Verdict {
        if !self.value.is_finite() || !self.lo.is_finite() || !self.hi.is_finite() {
            Verdict::NotMeasured
        } else if self.too_few_rounds() {
            Verdict::Inconclusive
        } else if holds {
            Verdict::Holds
        } else if differs {
            Verdict::Differs
        } else {
            Verdict::Inconclusive
        }
    }
}

/// The ratio at which [`Estimate::at_least`]'s verdict changes: `min`
/// with the tolerance applied.
pub fn at_least_edge(min: f64, tolerance: f64) -> f64 {
    min * (1.0 - tolerance)
}

/// The ratios at which [`Estimate::within`]'s verdict changes: the band's
/// ends with the tolerance applied.
pub fn within_edges(lo: f64, hi: f64, tolerance: f64) -> [f64; 2] {
    [lo * (1.0 - tolerance), hi * (1.0 + tolerance)]
}

/// Time ratio `a / b` (above 1: `a` is slower) with its interval.
///
/// When the two were measured as a paired group, the engine stored the
/// median of per-round ratios and its bootstrap interval on `a`; that is
/// used. Otherwise the medians are divided and the interval is the
/// conservative quotient of the two medians' intervals. `None` when either
/// has no statistics.
pub fn time_ratio(a: &Measurement, b: &Measurement) -> Option<Estimate> {
    if let Some(p) = same_rounds(a, b) {
        return Some(p);
    }
    let key = b.case_key();
    if let Some(p) = a.paired.iter().find(|p| p.other == key) {
        return Some(from_paired(p));
    }
    let own = a.case_key();
    if let Some(p) = b.paired.iter().find(|p| p.other == own) {
        return Some(from_paired(p).inverse());
    }
    let (sa, sb) = (a.stats.as_ref()?, b.stats.as_ref()?);
    if sa.median <= 0.0 || sb.median <= 0.0 {
        return None;
    }
    let (alo, ahi) = interval_or_point(sa.ci95, sa.median);
    let (blo, bhi) = interval_or_point(sb.ci95, sb.median);
    Some(Estimate {
        value: sa.median / sb.median,
        lo: alo / bhi,
        hi: ahi / blo,
        paired: false,
        earlier: None,
        // Samples kept on both sides say how many the interval rests on.
        rounds: Some(a.samples_ns.len().min(b.samples_ns.len())).filter(|&n| n > 0),
    })
}

/// Speed ratio `a / b` (above 1: `a` is faster), i.e. `time(b) / time(a)`.
pub fn speedup(a: &Measurement, b: &Measurement) -> Option<Estimate> {
    time_ratio(b, a)
}

/// The paired estimate when both were sampled in the rounds of one group.
fn same_rounds(a: &Measurement, b: &Measurement) -> Option<Estimate> {
    let (ga, gb) = (a.group.as_ref()?, b.group.as_ref()?);
    if ga != gb {
        return None;
    }
    let seed = seed_of(&a.case_key()) ^ seed_of(&b.case_key()).rotate_left(17);
    let ratios = round_ratios(&a.samples_ns, &b.samples_ns);
    let p = ratio_estimate(&ratios, seed)?;
    // The interval also holds what each runner process and each stretch
    // of the run measured alone.
    let stretches = stretch_medians(&ratios);
    let own = widened(
        p.ci95,
        std::iter::once(p.ratio)
            .chain(per_process_ratios(a, b))
            .chain(stretches),
    );
    let earlier = earlier_ratios(a, b);
    let (lo, hi) = widened(own, earlier.iter().copied());
    Some(Estimate {
        earlier: (!earlier.is_empty()).then_some(EarlierRuns {
            runs: earlier.len(),
            own,
        }),
        ..Estimate::paired(p.ratio, lo, hi).on_rounds(ratios.len())
    })
}

/// The paired ratio `a / b` (median of per-round ratios) in each earlier
/// run that measured both in one group ([`Measurement::earlier`]), when it
/// timed at least [`EARLIER_ROUNDS`] rounds of them. A shared machine
/// moves some ratios between runs by more than one run's interval: seed
/// 004's GCM / CCM in PHP read 1.93x in one quick run and 2.12x in the
/// next, each interval clear of the claim's 2x edge, as OpenSSL's own
/// ratio moved from 2.95x to 3.37x and PHP's per-call cost from 4.4 ms to
/// 3.7 ms. A verdict whose interval holds what the earlier runs measured
/// says "holds" or "differs" only where the runs agree.
fn earlier_ratios(a: &Measurement, b: &Measurement) -> Vec<f64> {
    a.earlier
        .iter()
        .filter_map(|ea: &EarlierSamples| {
            let eb = b.earlier.iter().find(|eb| eb.run == ea.run)?;
            let r = round_ratios(&ea.samples_ns, &eb.samples_ns);
            (r.len() >= EARLIER_ROUNDS).then(|| cryptobench_stats::median(&r))
        })
        .collect()
}

/// Fewest common rounds of an earlier run for [`earlier_ratios`].
const EARLIER_ROUNDS: usize = 5;

/// The paired ratio `a / b` in each runner process alone, for cases timed
/// in a runtime's two processes ([`Measurement::samples_process`]); empty
/// when neither was, or a process timed fewer than [`PROCESS_ROUNDS`]
/// rounds. A fresh process moves a runtime's cases by a few percent
/// (what its JIT compiled, where its heap lies), so a ratio's interval
/// from one run's rounds alone can exclude what the next run's processes
/// measure: seed 004's GCM / CCM decrypt in PHP read 1.89x and 2.13x in
/// two quick runs, each with an interval clear of the claim's 2x edge. The
/// interval of a ratio is widened to hold what each process measured.
pub fn per_process_ratios(a: &Measurement, b: &Measurement) -> Vec<f64> {
    if a.samples_process.is_empty() && b.samples_process.is_empty() {
        return Vec::new();
    }
    // A round counts for a process when each case timed in two processes
    // timed it there (a case timed here counts for both).
    let timed_in = |m: &Measurement, i: usize, process: u8| {
        m.samples_process.is_empty() || m.samples_process.get(i) == Some(&process)
    };
    let mut medians = Vec::new();
    for process in 0..2u8 {
        let ratios: Vec<f64> = a
            .samples_ns
            .iter()
            .zip(&b.samples_ns)
            .enumerate()
            .filter(|&(i, (_, y))| *y > 0.0 && timed_in(a, i, process) && timed_in(b, i, process))
            .map(|(_, (x, y))| x / y)
            .collect();
        if ratios.len() < PROCESS_ROUNDS {
            return Vec::new();
        }
        medians.push(cryptobench_stats::median(&ratios));
    }
    medians
}

/// Fewest rounds of each runner process for [`per_process_ratios`].
const PROCESS_ROUNDS: usize = 3;

/// A deterministic bootstrap seed (FNV-1a of a case key), so the same
/// stored run always gives the same interval.
pub fn seed_of(key: &str) -> u64 {
    fnv1a(key.as_bytes())
}

/// FNV-1a, 64 bits: a cheap, stable hash for seeds and content addresses
/// (not for anything an attacker chooses).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn from_paired(p: &PairedRatio) -> Estimate {
    Estimate::paired(p.ratio, p.ci95[0], p.ci95[1]).on_rounds(p.rounds)
}

fn interval_or_point(ci: [f64; 2], median: f64) -> (f64, f64) {
    if ci[0] > 0.0 && ci[1] >= ci[0] && ci[0].is_finite() && ci[1].is_finite() {
        (ci[0].min(median), ci[1].max(median))
    } else {
        (median, median)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_decided_on_the_interval() {
        // (value, lo, hi), tolerance, verdict on "at least 2x".
        for ((value, lo, hi), tolerance, verdict) in [
            ((2.5, 2.4, 2.6), 0.0, Verdict::Holds),
            ((1.6, 1.5, 1.7), 0.0, Verdict::Differs),
            ((2.0, 1.9, 2.1), 0.0, Verdict::Inconclusive),
            ((1.96, 1.95, 1.97), 0.03, Verdict::Holds),
        ] {
            let estimate = Estimate::paired(value, lo, hi);
            assert_eq!(estimate.at_least(2.0, tolerance), verdict, "{estimate:?}");
        }
    }

    #[test]
    fn a_band_claim_fails_above_the_band_too() {
        // "2-3x faster" is not confirmed by 8.45x.
        assert_eq!(
            Estimate::paired(8.45, 8.3, 8.6).within(2.0, 3.0, 0.05),
            Verdict::Differs
        );
        assert_eq!(
            Estimate::paired(2.5, 2.4, 2.6).within(2.0, 3.0, 0.05),
            Verdict::Holds
        );
        assert_eq!(
            Estimate::paired(3.1, 2.9, 3.3).within(2.0, 3.0, 0.05),
            Verdict::Inconclusive
        );
    }

    #[test]
    fn too_few_rounds_decide_no_claim() {
        let clear = Estimate::paired(2.5, 2.4, 2.6);
        for (rounds, verdict) in [
            (None, Verdict::Holds),
            (Some(4), Verdict::Inconclusive),
            (Some(FEWEST_DECIDING_ROUNDS), Verdict::Holds),
        ] {
            let e = Estimate { rounds, ..clear };
            assert_eq!(e.at_least(2.0, 0.0), verdict, "{rounds:?}");
        }
        let below = Estimate::paired(1.5, 1.4, 1.6).on_rounds(3);
        assert_eq!(below.at_most(1.0, 0.0), Verdict::Inconclusive);
        assert_eq!(below.within(2.0, 3.0, 0.0), Verdict::Inconclusive);
        assert_eq!(below.inverse().rounds, Some(3));
    }

    #[test]
    fn combined_verdicts_take_the_weakest_part() {
        use Verdict::*;
        assert_eq!(Verdict::all([Holds, Holds]), Holds);
        assert_eq!(Verdict::all([Holds, Inconclusive]), Inconclusive);
        assert_eq!(Verdict::all([Inconclusive, Differs]), Differs);
        assert_eq!(Verdict::all([Holds, NotMeasured]), NotMeasured);
        assert_eq!(Verdict::all([]), NotMeasured);
    }

    #[test]
    fn unpaired_ratios_take_the_conservative_interval() {
        let mut a = crate::CaseSpec::new("s", "A", "x", "1", "op")
            .measurement(crate::CaseStatus::Measured, None);
        let mut b = crate::CaseSpec::new("s", "B", "x", "1", "op")
            .measurement(crate::CaseStatus::Measured, None);
        a.stats = Some(crate::Summary {
            median: 200.0,
            ci95: [190.0, 210.0],
            ..Default::default()
        });
        b.stats = Some(crate::Summary {
            median: 100.0,
            ci95: [95.0, 105.0],
            ..Default::default()
        });
        let r = time_ratio(&a, &b).unwrap();
        assert_eq!(r.value, 2.0);
        assert!((r.lo - 190.0 / 105.0).abs() < 1e-12 && (r.hi - 210.0 / 95.0).abs() < 1e-12);
        assert!(!r.paired);
        let s = speedup(&a, &b).unwrap();
        assert_eq!(s.value, 0.5);
        // Paired data on either side wins over the quotient.
        b.paired.push(PairedRatio {
            other: a.case_key(),
            ratio: 0.5,
            ci95: [0.49, 0.51],
            rounds: 9,
        });
        let r = time_ratio(&a, &b).unwrap();
        assert!(r.paired && (r.value - 2.0).abs() < 1e-12);
        assert!((r.lo - 1.0 / 0.51).abs() < 1e-12);
    }

    #[test]
    fn members_of_one_group_are_compared_round_by_round() {
        let member = |name: &str, scale: f64| {
            let mut m = crate::CaseSpec::new("s", name, "x", "1", "op")
                .measurement(crate::CaseStatus::Measured, None);
            // The machine slows down by 30% over the rounds; both follow.
            m.samples_ns = (0..12).map(|i| scale * (1.0 + 0.03 * i as f64)).collect();
            m.stats = Some(crate::Summary {
                median: scale * 1.165,
                ci95: [scale, scale * 1.33],
                ..Default::default()
            });
            m.group = Some("g1".into());
            m
        };
        let (a, b) = (member("A", 300.0), member("B", 100.0));
        let r = time_ratio(&a, &b).unwrap();
        assert!(r.paired);
        assert!((r.value - 3.0).abs() < 1e-9 && r.relative_half_width() < 1e-9);
    }

    /// A case of group `g`: its time in each round and, when given, the
    /// runner process of each round.
    fn grouped(name: &str, times: &[f64], processes: &[u8]) -> Measurement {
        let mut m = crate::CaseSpec::new("s", name, "php", "1", "op")
            .measurement(crate::CaseStatus::Measured, None);
        m.group = Some("g".into());
        m.samples_ns = times.to_vec();
        m.samples_process = processes.to_vec();
        m
    }

    #[test]
    fn a_runtime_ratio_holds_what_each_process_measured() {
        // Process 0 reads a / b = 2.0, process 1 reads 2.4.
        let processes: Vec<u8> = (0..40).map(|i| (i % 2) as u8).collect();
        let a_times: Vec<f64> = (0..40)
            .map(|i| if i % 2 == 0 { 200.0 } else { 240.0 } + (i % 5) as f64 * 0.01)
            .collect();
        let b_times = vec![100.0; 40];
        let a = grouped("A", &a_times, &processes);
        let b = grouped("B", &b_times, &[]);
        let e = time_ratio(&a, &b).expect("paired");
        assert!(e.paired);
        assert!(e.lo <= 2.0 + 1e-3 && e.hi >= 2.4 - 1e-3, "{e:?}");
        // The same rounds without process tags keep the bootstrap interval.
        let plain = time_ratio(&grouped("A", &a_times, &[]), &b).expect("paired");
        assert!(plain.hi - plain.lo <= e.hi - e.lo, "{plain:?} {e:?}");
    }

    #[test]
    fn a_ratio_that_drifts_within_the_run_holds_every_stretch() {
        // a / b climbs from 1.8 to 2.2 over 80 rounds, a little noise on top:
        // the rounds' bootstrap sees about 2.0 +- 0.05, the run saw both ends.
        let a_times: Vec<f64> = (0..80)
            .map(|i| 180.0 + 0.5 * i as f64 + (i % 3) as f64 * 0.1)
            .collect();
        let b_times = vec![100.0; 80];
        let e = time_ratio(&grouped("A", &a_times, &[]), &grouped("B", &b_times, &[])).unwrap();
        assert!(e.lo <= 1.85 && e.hi >= 2.14, "{e:?}");
        assert_eq!(e.within(2.0, 4.5, 0.0), Verdict::Inconclusive);
        // Too few rounds for four stretches of five: the bootstrap alone.
        let few = time_ratio(
            &grouped("A", &a_times[..19], &[]),
            &grouped("B", &b_times[..19], &[]),
        )
        .unwrap();
        assert!(few.hi < 1.9, "{few:?}");
    }

    #[test]
    fn a_steady_ratio_keeps_about_its_bootstrap_interval() {
        // No drift: each stretch's median lies near the whole run's.
        let a_times: Vec<f64> = (0..200).map(|i| 200.0 + (i * 7 % 11) as f64).collect();
        let b_times: Vec<f64> = (0..200).map(|i| 100.0 + (i * 5 % 3) as f64).collect();
        let (a, b) = (grouped("A", &a_times, &[]), grouped("B", &b_times, &[]));
        let e = time_ratio(&a, &b).unwrap();
        let p = cryptobench_stats::paired_ratio(&a_times, &b_times, 1).unwrap();
        let bootstrap = (p.ci95.1 - p.ci95.0) / 2.0 / p.ratio;
        assert!(
            e.relative_half_width() <= bootstrap * 2.0 + 0.005,
            "{e:?} against +-{bootstrap}"
        );
    }

    #[test]
    fn a_verdict_holds_what_earlier_runs_on_this_machine_measured() {
        // This run reads a / b = 2.12 throughout, clear of a 2x edge; an
        // earlier run read 1.93, on the other side of it.
        let a_times: Vec<f64> = (0..40).map(|i| 212.0 + (i % 3) as f64 * 0.1).collect();
        let b_times = vec![100.0; 40];
        let (mut a, mut b) = (grouped("A", &a_times, &[]), grouped("B", &b_times, &[]));
        let alone = time_ratio(&a, &b).unwrap();
        assert_eq!(alone.at_least(2.0, 0.0), Verdict::Holds);
        assert_eq!(alone.earlier, None);
        let earlier = |run: &str, time: f64, rounds: usize| EarlierSamples {
            run: run.into(),
            samples_ns: vec![time; rounds],
        };
        // r2 timed too few rounds to count and r3 only one of the two.
        a.earlier = vec![
            earlier("r1", 193.0, 20),
            earlier("r2", 300.0, 4),
            earlier("r3", 150.0, 20),
        ];
        b.earlier = vec![earlier("r1", 100.0, 20), earlier("r2", 100.0, 4)];
        let e = time_ratio(&a, &b).unwrap();
        assert_eq!(e.value, alone.value);
        assert_eq!(
            e.earlier.map(|x| (x.runs, x.own)),
            Some((1, (alone.lo, alone.hi)))
        );
        assert!((e.lo - 1.93).abs() < 1e-9 && e.hi == alone.hi, "{e:?}");
        assert_eq!(e.at_least(2.0, 0.0), Verdict::Inconclusive);
        // Inverted, this run's own interval inverts with the whole.
        let inv = e.inverse();
        assert!((inv.hi - 1.0 / 1.93).abs() < 1e-9);
        let own = inv.earlier.unwrap().own;
        assert!((own.0 - 1.0 / alone.hi).abs() < 1e-12 && (own.1 - 1.0 / alone.lo).abs() < 1e-12);
        // An earlier run that agrees leaves the verdict alone.
        a.earlier = vec![earlier("r4", 215.0, 20)];
        b.earlier = vec![earlier("r4", 100.0, 20)];
        let agreed = time_ratio(&a, &b).unwrap();
        assert_eq!(agreed.at_least(2.0, 0.0), Verdict::Holds);
        assert!(agreed.hi >= 2.15 - 1e-9, "{agreed:?}");
    }

    #[test]
    fn processes_that_agree_leave_the_interval_alone() {
        let processes: Vec<u8> = (0..40).map(|i| (i % 2) as u8).collect();
        let a_times: Vec<f64> = (0..40).map(|i| 200.0 + (i % 7) as f64).collect();
        let b_times: Vec<f64> = (0..40).map(|i| 100.0 + (i % 3) as f64).collect();
        let tagged = time_ratio(
            &grouped("A", &a_times, &processes),
            &grouped("B", &b_times, &processes),
        )
        .expect("paired");
        let plain =
            time_ratio(&grouped("A", &a_times, &[]), &grouped("B", &b_times, &[])).expect("paired");
        let width = |e: &Estimate| e.hi - e.lo;
        assert!(
            width(&tagged) <= width(&plain) * 1.5,
            "{tagged:?} {plain:?}"
        );
    }
}
