//! `argon2 tune`: parameters for a target time, chosen as RFC 9106 section 4
//! recommends, measured here.
//!
//! RFC 9106 section 4: fix the variant, the lanes and the largest memory the
//! service can spare; then take the largest number of passes `t` whose time
//! stays within the target; if even `t = 1` is too slow, lower the memory.
//! Because `t` is a whole number, that choice can land well below the target
//! (at 1 GiB, `t = 2` may take 60% of it). So the search goes one step
//! further unless `--strict` is given: it takes `t + 1` passes and lowers the
//! memory until the time fills the target, as long as at least half the
//! budget remains; both choices are printed.
//!
//! The search is written against a timing function so it can be tested with
//! a model of the machine instead of the clock ([`search`]).

use crate::engines::HashError;
use crate::memory::MemoryShortfall;
use crate::params::Params;
use std::time::Duration;

/// Why a search found no setting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TuneError {
    /// Hashing at a point failed.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// A point needs more memory than this machine can spare.
    #[error(transparent)]
    Memory(#[from] MemoryShortfall),
    /// Even the smallest memory with one pass is slower than the target.
    #[error("even {m_kib} KiB with one pass takes {ms:.0} ms, over the {target_ms:.0} ms target")]
    TargetTooShort {
        /// The smallest memory tried, KiB.
        m_kib: u32,
        /// Its time, milliseconds.
        ms: f64,
        /// The target, milliseconds.
        target_ms: f64,
    },
    /// No setting on the memory ladder landed within +-10% of the target.
    #[error("no setting on the memory ladder landed within +-10% of {target_ms:.0} ms in {tried} trials")]
    OffLadder {
        /// The target, milliseconds.
        target_ms: f64,
        /// Points measured.
        tried: usize,
    },
    /// This target's share of the short tune's wall-clock budget ran out
    /// before it found a setting.
    #[error("the short tune's {budget_s} s budget was spent up to this target's share (the first {until_s:.1} s) before it found a setting")]
    BudgetSpent {
        /// The whole budget, seconds.
        budget_s: u64,
        /// Seconds into the budget after which this target starts no point.
        until_s: f64,
    },
    /// No library backend admitted by `--backend` can take the point.
    #[error("no Argon2 library backend is available for the short tune")]
    NoBackend,
    /// A hash timed in a fresh process could not be timed.
    #[error("{0}")]
    Process(String),
    /// The memory budget or the base point is not valid Argon2.
    #[error("{0}")]
    InvalidBase(String),
}

/// What to tune for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// Variant, lanes, tag length and version to use; `m_kib` is the budget.
    pub base: Params,
    /// The target time of one hash.
    pub target: Duration,
    /// Keep the RFC's choice even when it falls short of the target.
    pub strict: bool,
}

/// One measured candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trial {
    /// Parameters tried.
    pub params: Params,
    /// Median time of one hash.
    pub time: Duration,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Largest t at the largest memory within the target (RFC 9106 section 4).
    pub rfc: Trial,
    /// The parameters recommended (the RFC's, or t + 1 at lower memory).
    pub chosen: Trial,
    /// Every trial, in order.
    pub trials: Vec<Trial>,
}

/// Smallest fraction of the memory budget the filling step may go down to.
const FILL_MIN_MEMORY: f64 = 0.5;
/// The filling step aims a little under the target so noise stays inside it.
const FILL_AIM: f64 = 0.97;
/// A choice within this fraction of the target needs no filling.
const GOOD_ENOUGH: f64 = 0.9;

/// Memory rounded down to whole multiples of 4 x lanes KiB (the blocks that
/// are actually used) and at least the 8 KiB per lane minimum.
fn round_memory(kib: f64, lanes: u32) -> u32 {
    let unit = 4 * lanes.max(1);
    let floor_kib = 8 * lanes.max(1);
    let kib = kib.clamp(0.0, f64::from(u32::MAX)) as u32;
    ((kib / unit) * unit).max(floor_kib)
}

/// Runs the search; `measure` returns the median time of one hash at a
/// point (or why it could not run).
pub fn search(
    req: &Request,
    measure: &mut dyn FnMut(&Params) -> Result<Duration, TuneError>,
) -> Result<Outcome, TuneError> {
    let mut s = Searcher {
        req,
        measure,
        trials: Vec::new(),
    };
    let base = Params { t: 1, ..req.base };
    let first = s.run(base)?;

    // t = 1 too slow at the budget: lower the memory until it fits.
    if s.secs(&first) > s.target() {
        let floor = round_memory(0.0, base.lanes);
        let Some(best) = s.fill_memory(first, floor)? else {
            let slowest = s.trials.last().copied().unwrap_or(first);
            return Err(TuneError::TargetTooShort {
                m_kib: slowest.params.m_kib,
                ms: s.secs(&slowest) * 1e3,
                target_ms: s.target() * 1e3,
            });
        };
        return Ok(Outcome {
            rfc: best,
            chosen: best,
            trials: s.trials,
        });
    }

    // Largest t at the full budget: start from the linear estimate, then step.
    let estimate = ((s.target() / s.secs(&first)).floor() as u32).max(1);
    let mut best = s.run(Params {
        t: estimate,
        ..base
    })?;
    while s.secs(&best) > s.target() && best.params.t > 1 {
        best = s.run(Params {
            t: best.params.t - 1,
            ..base
        })?;
    }
    let over = loop {
        let next = s.run(Params {
            t: best.params.t + 1,
            ..base
        })?;
        if s.secs(&next) > s.target() {
            break next;
        }
        best = next;
    };
    let rfc = best;
    if req.strict || s.secs(&rfc) >= GOOD_ENOUGH * s.target() {
        return Ok(Outcome {
            rfc,
            chosen: rfc,
            trials: s.trials,
        });
    }

    // Fill the target: t + 1 passes on less memory.
    let floor = round_memory(FILL_MIN_MEMORY * f64::from(base.m_kib), base.lanes);
    let chosen = match s.fill_memory(over, floor)? {
        Some(filled) if filled.time > rfc.time => filled,
        _ => rfc,
    };
    Ok(Outcome {
        rfc,
        chosen,
        trials: s.trials,
    })
}

/// The search's state: the request, the clock and what was tried.
struct Searcher<'a> {
    req: &'a Request,
    measure: &'a mut dyn FnMut(&Params) -> Result<Duration, TuneError>,
    trials: Vec<Trial>,
}

impl Searcher<'_> {
    fn target(&self) -> f64 {
        self.req.target.as_secs_f64()
    }
    fn secs(&self, t: &Trial) -> f64 {
        t.time.as_secs_f64()
    }
    /// Measures a point once per search.
    fn run(&mut self, params: Params) -> Result<Trial, TuneError> {
        if let Some(t) = self.trials.iter().find(|t| t.params == params) {
            return Ok(*t);
        }
        let time = (self.measure)(&params)?;
        let trial = Trial { params, time };
        self.trials.push(trial);
        Ok(trial)
    }
    /// Scales the memory of `start` (same t) towards the target, between
    /// `floor` and the budget, until a time lands in [90%, 100%] of it;
    /// returns the slowest trial within the target.
    fn fill_memory(&mut self, start: Trial, floor: u32) -> Result<Option<Trial>, TuneError> {
        let target = self.target();
        let within = |t: &Trial| t.time.as_secs_f64() <= target;
        let mut best = within(&start).then_some(start);
        let mut current = start;
        for _ in 0..8 {
            let secs = self.secs(&current);
            if within(&current) && secs >= GOOD_ENOUGH * target {
                break;
            }
            // Time per KiB from the trials at this t and lanes and within a
            // factor of two of this memory (their median shrugs off one noisy
            // measurement; far sizes differ in cache behaviour), then the
            // memory for the aim.
            let near = |m: u32| {
                let (a, b) = (f64::from(m), f64::from(current.params.m_kib));
                a <= 2.0 * b && b <= 2.0 * a
            };
            let mut rates: Vec<f64> = self
                .trials
                .iter()
                .filter(|t| {
                    t.params.t == current.params.t
                        && t.params.lanes == current.params.lanes
                        && near(t.params.m_kib)
                })
                .map(|t| t.time.as_secs_f64() / f64::from(t.params.m_kib))
                .collect();
            rates.sort_by(f64::total_cmp);
            // With fewer than three neighbours a "median" is one of two points
            // and can keep proposing the memory just measured; the latest
            // trial is then the best guide.
            let own = secs / f64::from(current.params.m_kib);
            let rate = if rates.len() < 3 {
                own
            } else {
                rates.get(rates.len() / 2).copied().unwrap_or(own)
            };
            let scaled = target * FILL_AIM / rate.max(1e-15);
            let m_kib = round_memory(scaled, current.params.lanes)
                .clamp(floor, self.req.base.m_kib.max(floor));
            if self.trials.iter().any(|t| {
                t.params
                    == Params {
                        m_kib,
                        ..current.params
                    }
            }) {
                break;
            }
            current = self.run(Params {
                m_kib,
                ..current.params
            })?;
            if within(&current) && best.is_none_or(|b| current.time > b.time) {
                best = Some(current);
            }
        }
        Ok(best)
    }
}

/// A profile someone published, to be measured here for comparison.
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    /// Name.
    pub name: &'static str,
    /// Where it is published.
    pub source: &'static str,
    /// Parameters.
    pub params: Params,
}

const fn profile(
    name: &'static str,
    source: &'static str,
    m_kib: u32,
    t: u32,
    lanes: u32,
) -> Profile {
    Profile {
        name,
        source,
        params: Params {
            variant: crate::params::Variant::Id,
            version: crate::params::Version::V13,
            m_kib,
            t,
            lanes,
            threads: lanes,
            tag_len: 32,
        },
    }
}

/// RFC 9106 section 4's two recommendations, OWASP's Argon2id rows and
/// libsodium's three named limits (all Argon2id).
pub const PROFILES: &[Profile] = &[
    profile(
        "RFC 9106 first recommendation",
        "RFC 9106 section 4",
        2 << 20,
        1,
        4,
    ),
    profile(
        "RFC 9106 second recommendation",
        "RFC 9106 section 4",
        64 << 10,
        3,
        4,
    ),
    profile(
        "OWASP m=46 MiB, t=1",
        "OWASP Password Storage Cheat Sheet",
        47104,
        1,
        1,
    ),
    profile(
        "OWASP m=19 MiB, t=2",
        "OWASP Password Storage Cheat Sheet",
        19456,
        2,
        1,
    ),
    profile(
        "OWASP m=12 MiB, t=3",
        "OWASP Password Storage Cheat Sheet",
        12288,
        3,
        1,
    ),
    profile(
        "OWASP m=9 MiB, t=4",
        "OWASP Password Storage Cheat Sheet",
        9216,
        4,
        1,
    ),
    profile(
        "OWASP m=7 MiB, t=5",
        "OWASP Password Storage Cheat Sheet",
        7168,
        5,
        1,
    ),
    profile(
        "libsodium interactive",
        "libsodium crypto_pwhash_argon2id_*_INTERACTIVE",
        64 << 10,
        2,
        1,
    ),
    profile(
        "libsodium moderate",
        "libsodium crypto_pwhash_argon2id_*_MODERATE",
        256 << 10,
        3,
        1,
    ),
    profile(
        "libsodium sensitive",
        "libsodium crypto_pwhash_argon2id_*_SENSITIVE",
        1 << 20,
        4,
        1,
    ),
];

/// Median of a set of durations.
pub fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    match times.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::params::Variant;

    /// A model machine: `ns_per_kib_pass` per KiB per pass on `cores` cores,
    /// plus a fixed cost.
    pub(crate) fn machine(
        ns_per_kib_pass: f64,
        cores: u32,
    ) -> impl FnMut(&Params) -> Result<Duration, TuneError> {
        move |p: &Params| {
            let parallel = f64::from(p.lanes.min(cores));
            let ns = 50_000.0 + f64::from(p.m_kib) * f64::from(p.t) * ns_per_kib_pass / parallel;
            Ok(Duration::from_nanos(ns as u64))
        }
    }

    fn request(m_kib: u32, lanes: u32, target_ms: u64, strict: bool) -> Request {
        Request {
            base: Params::new(Variant::Id, m_kib, 1, lanes),
            target: Duration::from_millis(target_ms),
            strict,
        }
    }

    #[test]
    fn largest_t_within_target_at_full_memory() {
        // 1 GiB at 100 ns/KiB/pass on 2 lanes: ~52 ms per pass, 500 ms target.
        let out = search(&request(1 << 20, 2, 500, true), &mut machine(100.0, 2)).unwrap();
        assert_eq!(out.rfc.params.m_kib, 1 << 20);
        assert_eq!(out.rfc.params.t, 9);
        assert!(out.rfc.time <= Duration::from_millis(500));
        // t + 1 must have been measured and found too slow.
        assert!(out
            .trials
            .iter()
            .any(|t| t.params.t == 10 && t.time > Duration::from_millis(500)));
        assert_eq!(out.chosen, out.rfc);
    }

    #[test]
    fn memory_is_lowered_when_one_pass_is_too_slow() {
        // 1 GiB, one lane, 1000 ns/KiB: one pass takes ~1.07 s.
        let out = search(&request(1 << 20, 1, 500, false), &mut machine(1000.0, 2)).unwrap();
        assert_eq!(out.chosen.params.t, 1);
        assert!(out.chosen.params.m_kib < 1 << 20);
        let ratio = out.chosen.time.as_secs_f64() / 0.5;
        assert!((0.9..=1.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn short_choices_are_filled_with_t_plus_one_on_less_memory() {
        // ~210 ms per pass at 1 GiB: the RFC choice is t = 2 at ~420 ms (84%).
        let mut m = machine(400.0, 2);
        let strict = search(&request(1 << 20, 2, 500, true), &mut m).unwrap();
        assert_eq!((strict.rfc.params.t, strict.chosen.params.t), (2, 2));
        let out = search(&request(1 << 20, 2, 500, false), &mut m).unwrap();
        assert_eq!(out.rfc, strict.rfc);
        assert_eq!(out.chosen.params.t, 3);
        assert!(out.chosen.params.m_kib >= 1 << 19 && out.chosen.params.m_kib < 1 << 20);
        let ratio = out.chosen.time.as_secs_f64() / 0.5;
        assert!((0.9..=1.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn superlinear_memory_cost_still_lands_in_the_band() {
        // Larger memory costs more per KiB (cache and TLB misses): the first
        // proportional guess undershoots and must be refined.
        let mut m = |p: &Params| -> Result<Duration, TuneError> {
            let kib = f64::from(p.m_kib);
            let ns = 400.0 * kib.powf(1.2) * f64::from(p.t) / f64::from(p.lanes.min(2));
            Ok(Duration::from_nanos(ns as u64))
        };
        let out = search(&request(1 << 20, 2, 500, false), &mut m).unwrap();
        let ratio = out.chosen.time.as_secs_f64() / 0.5;
        assert!(
            (0.9..=1.0).contains(&ratio),
            "{ratio} after {:?}",
            out.trials
        );
        assert_eq!(out.chosen.params.t, 1);
    }

    #[test]
    fn a_first_estimate_short_of_the_band_is_refined() {
        // One pass on 1 GiB takes 914 ms, but time per KiB falls with less
        // memory (cache, page faults): the linear estimate lands at ~85%.
        let mut measure = |p: &Params| -> Result<Duration, TuneError> {
            let m = f64::from(p.m_kib);
            let per_kib = 7.0e-7 + 1.7e-7 * (m / 1_048_576.0);
            Ok(Duration::from_secs_f64(m * per_kib * f64::from(p.t)))
        };
        let out = search(&request(1_048_576, 2, 500, false), &mut measure).unwrap();
        let ratio = out.chosen.time.as_secs_f64() / 0.5;
        assert!((0.9..=1.0).contains(&ratio), "{ratio}: {:?}", out.trials);
    }

    #[test]
    fn impossible_targets_are_reported() {
        let e = search(&request(64, 8, 1, false), &mut machine(1e6, 2)).unwrap_err();
        assert!(e.to_string().contains("over the 1 ms target"), "{e}");
        let boom = TuneError::Hash(HashError::Failed("boom".into()));
        let e = search(&request(1024, 1, 500, false), &mut |_: &Params| {
            Err(boom.clone())
        });
        assert_eq!(e.unwrap_err(), boom);
    }

    #[test]
    fn medians() {
        let ms = Duration::from_millis;
        assert_eq!(median(vec![ms(3), ms(1), ms(2)]), ms(2));
        assert_eq!(
            median(vec![ms(4), ms(1), ms(2), ms(3)]),
            Duration::from_micros(2500)
        );
    }
}
