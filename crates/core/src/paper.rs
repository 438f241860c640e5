//! The `paper` registry: each seed experiment as one [`Paper`].
//!
//! A paper names the suites (configured as the paper's experiment) that the
//! binary runs through the normal engine, then renders the published figures
//! from the seed beside this machine's, with a verdict line per conclusion.

use crate::model::Measurement;
use crate::profile::{no_view, PaperProfile, SuiteProfile};
use crate::suite::{Budget, RunConfig, Suite};
use crate::table::Table;
use crate::verdict::{Estimate, Verdict};
use crate::Error;
use std::time::Duration;

/// One experiment of a seed document.
pub trait Paper: Send + Sync {
    /// Its name, title and the seed's own counts.
    fn profile(&self) -> PaperProfile;
    /// The suites to run, configured for this experiment.
    fn suites(&self, cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error>;
    /// Published table(s) beside this machine's, with conclusions as notes
    /// ("holds here" / "differs here: ...").
    fn render(&self, measurements: &[Measurement]) -> Vec<Table>;
    /// Name on the command line (`openssl-vs-mcrypt`, `aegis`, ...), from
    /// the profile.
    fn name(&self) -> &'static str {
        self.profile().name
    }
    /// Title of the experiment and its source document, from the profile.
    fn title(&self) -> &'static str {
        self.profile().title
    }
    /// The seed's own counts for `--method seed`, from the profile.
    fn seed_counts(&self) -> Option<crate::paper_method::SeedCounts> {
        self.profile().seed_counts
    }
    /// The sampling budget of this paper's run (default: the run's own).
    /// A paper whose claims sit near a band edge asks for more rounds, so
    /// the intervals of its ratios can clear the edge instead of
    /// straddling it one run and not the next.
    fn budget(&self, cfg: &RunConfig) -> Budget {
        cfg.budget.clone()
    }
}

/// The run's budget with at least `min_time` per case and `min_rounds`
/// samples for slow operations: more rounds for the ratios a paper's
/// claims rest on. A time per case asked for by name (`--time`) is kept:
/// the user chose a shorter run, and wider intervals say what it cost.
pub fn with_rounds(cfg: &RunConfig, min_time: Duration, min_rounds: usize) -> Budget {
    let budget = &cfg.budget;
    Budget {
        time_per_case: if cfg.time_asked {
            budget.time_per_case
        } else {
            budget.time_per_case.max(min_time)
        },
        min_slow_samples: budget.min_slow_samples.max(min_rounds),
        ..budget.clone()
    }
}

/// `inner` with the cases a paper compares put in named comparison groups
/// (`group_of` names a case's group, `None` leaves it in the default one),
/// so each ratio a claim rests on is a median of per-round ratios of one
/// group, not a quotient of medians the engine took in different chunks of
/// a large default group (at 20 MB a group holds at most four members).
/// A group too large for one is cut by backend, so what a claim compares
/// within a backend (and within each runtime twin) stays in one group.
pub fn with_groups(
    inner: Box<dyn Suite>,
    group_of: fn(&crate::CaseSpec) -> Option<String>,
) -> Box<dyn Suite> {
    Box::new(Grouped { inner, group_of })
}

struct Grouped {
    inner: Box<dyn Suite>,
    group_of: fn(&crate::CaseSpec) -> Option<String>,
}

impl Suite for Grouped {
    /// The inner suite's tables; no headline or charts of its own.
    fn profile(&self) -> SuiteProfile {
        SuiteProfile {
            headline: no_view,
            charts: no_view,
            ..self.inner.profile()
        }
    }
    fn backends(&self) -> Vec<crate::BackendInfo> {
        self.inner.backends()
    }
    fn primitives(&self) -> Vec<String> {
        self.inner.primitives()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<crate::PlannedCase>, Error> {
        let mut planned = self.inner.plan(cfg)?;
        for c in &mut planned {
            if let Some(g) = (self.group_of)(&c.spec) {
                c.spec.group = Some(g);
                c.spec.cut_by_backend = true;
            }
        }
        Ok(planned)
    }
}

/// Fidelity band: ours / peer within it is "the same work at the same
/// speed". Below, we are slower than the peer; above, we measured something
/// faster than the peer's identical calls, which means the two sides do not
/// do the same work (a faster run of the same EVP calls is not a success).
pub const FIDELITY_BAND: (f64, f64) = (0.97, 1.03);

/// The two-sided fidelity verdict on `ours / peer` (throughput ratio,
/// above 1: ours is faster), decided on the interval, with its words.
pub fn fidelity(ratio: Option<Estimate>) -> (Verdict, String) {
    let Some(r) = ratio else {
        return (Verdict::NotMeasured, "not measured".into());
    };
    let (lo, hi) = FIDELITY_BAND;
    let shown = format!(
        "{:.3} (95% {:.3}-{:.3}{})",
        r.value,
        r.lo,
        r.hi,
        show_basis(&r, 3)
    );
    match r.within(lo, hi, 0.0) {
        Verdict::Holds => (Verdict::Holds, format!("met: {shown}")),
        Verdict::Differs if r.hi < lo => (
            Verdict::Differs,
            format!("slower than the peer: {shown}, below {lo}"),
        ),
        Verdict::Differs => (
            Verdict::Differs,
            format!("not the same work: {shown}, above {hi}"),
        ),
        Verdict::Inconclusive if r.too_few_rounds() => {
            (Verdict::Inconclusive, format!("inconclusive: {shown}"))
        }
        Verdict::Inconclusive => (
            Verdict::Inconclusive,
            format!("inconclusive: {shown} straddles {lo}-{hi}"),
        ),
        Verdict::NotMeasured => (Verdict::NotMeasured, "not measured".into()),
    }
}

/// A claim's verdict line: `claim: holds here (detail)`.
pub fn verdict_line(claim: &str, verdict: Verdict, detail: &str) -> String {
    if detail.is_empty() {
        format!("{claim}: {verdict}")
    } else {
        format!("{claim}: {verdict} ({detail})")
    }
}

/// `1.65x (95% 1.60-1.70)`; when earlier runs widened the interval,
/// `1.65x (95% 1.58-1.74 with the 4 earlier runs here; this run
/// 1.60-1.70)`, and when they did not, `1.65x (95% 1.60-1.70, the 4
/// earlier runs here within it)`. On too few rounds to decide, it says so.
pub fn show_ratio(r: &Estimate) -> String {
    format!(
        "{:.2}x (95% {:.2}-{:.2}{})",
        r.value,
        r.lo,
        r.hi,
        show_basis(r, 2)
    )
}

/// What `r`'s interval rests on, after its ends: the earlier runs it holds
/// ([`show_earlier`]) and, below [`crate::verdict::FEWEST_DECIDING_ROUNDS`],
/// the rounds that left its verdict inconclusive.
fn show_basis(r: &Estimate, digits: usize) -> String {
    let earlier = show_earlier(r, digits);
    match r.rounds.filter(|_| r.too_few_rounds()) {
        Some(n) => format!(
            "{earlier}, on {n} round(s), fewer than the {} that decide",
            crate::verdict::FEWEST_DECIDING_ROUNDS
        ),
        None => earlier,
    }
}

/// The earlier runs `r`'s interval holds, with `digits` decimals: this
/// run's own interval when they widened it.
fn show_earlier(r: &Estimate, digits: usize) -> String {
    let Some(e) = r.earlier else {
        return String::new();
    };
    let runs = match e.runs {
        1 => "the earlier run".to_string(),
        n => format!("the {n} earlier runs"),
    };
    if e.own == (r.lo, r.hi) {
        format!(", {runs} here within it")
    } else {
        format!(
            " with {runs} here; this run {:.digits$}-{:.digits$}",
            e.own.0, e.own.1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_widened_by_earlier_runs_says_so() {
        let alone = Estimate::paired(2.12, 2.06, 2.20);
        assert_eq!(show_ratio(&alone), "2.12x (95% 2.06-2.20)");
        let widened = Estimate {
            lo: 1.93,
            earlier: Some(crate::verdict::EarlierRuns {
                runs: 2,
                own: (2.06, 2.20),
            }),
            ..alone
        };
        assert_eq!(
            show_ratio(&widened),
            "2.12x (95% 1.93-2.20 with the 2 earlier runs here; this run 2.06-2.20)"
        );
        let agreed = Estimate {
            earlier: Some(crate::verdict::EarlierRuns {
                runs: 1,
                own: (2.06, 2.20),
            }),
            ..alone
        };
        assert_eq!(
            show_ratio(&agreed),
            "2.12x (95% 2.06-2.20, the earlier run here within it)"
        );
    }

    #[test]
    fn fidelity_is_two_sided() {
        assert_eq!(
            fidelity(Some(Estimate::paired(0.99, 0.98, 1.0))).0,
            Verdict::Holds
        );
        let (v, words) = fidelity(Some(Estimate::paired(1.44, 1.40, 1.48)));
        assert_eq!(v, Verdict::Differs);
        assert!(words.starts_with("not the same work"), "{words}");
        let (v, words) = fidelity(Some(Estimate::paired(0.90, 0.88, 0.92)));
        assert_eq!(v, Verdict::Differs);
        assert!(words.starts_with("slower than the peer"), "{words}");
        // 0.931 on a noisy moment whose interval reaches the band.
        let (v, words) = fidelity(Some(Estimate::paired(0.931, 0.85, 1.01)));
        assert_eq!(v, Verdict::Inconclusive);
        assert!(words.starts_with("inconclusive"), "{words}");
        assert_eq!(fidelity(None).0, Verdict::NotMeasured);
    }

    #[test]
    fn fidelity_on_three_rounds_decides_nothing() {
        // Three one-second peer processes: the interval of their median
        // covers it three times in four, not 95%.
        let few = Estimate::paired(0.62, 0.61, 0.86).on_rounds(3);
        let (v, words) = fidelity(Some(few));
        assert_eq!(v, Verdict::Inconclusive);
        assert!(words.contains("on 3 round(s), fewer than the 5"), "{words}");
        let enough = few.on_rounds(5);
        assert_eq!(fidelity(Some(enough)).0, Verdict::Differs);
        // A paper's ratio says why too: its interval alone would decide.
        assert_eq!(
            show_ratio(&Estimate::paired(2.5, 2.4, 2.6).on_rounds(3)),
            "2.50x (95% 2.40-2.60, on 3 round(s), fewer than the 5 that decide)"
        );
        assert_eq!(
            show_ratio(&Estimate::paired(2.5, 2.4, 2.6).on_rounds(5)),
            "2.50x (95% 2.40-2.60)"
        );
    }

    #[test]
    fn a_paper_raises_the_time_per_case_unless_the_user_named_one() {
        let second = Duration::from_secs(1);
        let quick = RunConfig::quick();
        let raised = with_rounds(&quick, second, 10);
        assert_eq!(raised.time_per_case, second);
        assert_eq!(raised.min_slow_samples, 10);
        let mut asked = RunConfig::quick();
        asked.budget.time_per_case = Duration::from_millis(20);
        asked.time_asked = true;
        let kept = with_rounds(&asked, second, 10);
        assert_eq!(kept.time_per_case, Duration::from_millis(20));
        assert_eq!(kept.min_slow_samples, 10, "the floor of rounds stays");
    }
}
