//! How precise a run's measurements got, in one line.
//!
//! Every measurement carries the precision it reached (`stats.precision`,
//! the half-width of its median's 95% interval) and, past the target, an
//! "imprecise" warning. Hundreds of such warnings say little at a glance;
//! what a user needs after a run is how many cases met the target, how far
//! the rest got, and where they sit, so the fix (`--time`, a calmer hour,
//! fewer cases) can be chosen. The run's canary is not a case and is left
//! out.

use cryptobench_core::model::CANARY_SUITE;
use cryptobench_core::{CaseStatus, Measurement};
use cryptobench_stats::{quantile_sorted, sorted};
use std::collections::BTreeMap;

/// The suites named as furthest from the target, at most.
const SUITES_NAMED: usize = 3;

/// One suite's share of cases within the target.
#[derive(Debug, Clone, PartialEq)]
pub struct SuitePrecision {
    /// The suite.
    pub suite: String,
    /// Its measured cases with a precision.
    pub measured: usize,
    /// Those within the target.
    pub within: usize,
}

/// How precise a run's measured cases got against `target`.
#[derive(Debug, Clone, PartialEq)]
pub struct PrecisionReached {
    /// The target half-width (0.01 = +-1%).
    pub target: f64,
    /// Measured cases with a precision.
    pub measured: usize,
    /// Those within the target.
    pub within: usize,
    /// The median precision of all of them.
    pub median: Option<f64>,
    /// The precision nine in ten of them reached.
    pub p90: Option<f64>,
    /// Per suite, in name order.
    pub by_suite: Vec<SuitePrecision>,
}

/// How precise `measurements` got against `target`.
pub fn precision_reached(measurements: &[Measurement], target: f64) -> PrecisionReached {
    let mut all = Vec::new();
    let mut by_suite: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let reached = measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Measured && m.suite != CANARY_SUITE)
        .filter_map(|m| Some((m, m.stats.as_ref()?.precision?)));
    for (m, p) in reached {
        all.push(p);
        let entry = by_suite.entry(m.suite.as_str()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(p <= target);
    }
    let within = all.iter().filter(|&&p| p <= target).count();
    let all = sorted(&all);
    let at = |q: f64| (!all.is_empty()).then(|| quantile_sorted(&all, q));
    PrecisionReached {
        target,
        measured: all.len(),
        within,
        median: at(0.5),
        p90: at(0.9),
        by_suite: by_suite
            .into_iter()
            .map(|(suite, (measured, within))| SuitePrecision {
                suite: suite.to_string(),
                measured,
                within,
            })
            .collect(),
    }
}

impl PrecisionReached {
    /// The line `run` prints: `None` when no case has a precision.
    pub fn line(&self) -> Option<String> {
        let (median, p90) = (self.median?, self.p90?);
        let pct = |x: f64| format!("+-{:.1}%", x * 100.0);
        let mut s = format!(
            "precision: {} of {} cases ({:.0}%) within the target {}; median {}, 9 in 10 within {}",
            self.within,
            self.measured,
            100.0 * self.within as f64 / self.measured as f64,
            pct(self.target),
            pct(median),
            pct(p90),
        );
        if self.within < self.measured {
            // The suites with the smallest share within, so the user sees
            // where the time per case (`--time`) or `--suite` would help.
            let mut short: Vec<&SuitePrecision> = self
                .by_suite
                .iter()
                .filter(|x| x.within < x.measured)
                .collect();
            short.sort_by(|a, b| {
                let share = |x: &SuitePrecision| x.within as f64 / x.measured as f64;
                share(a).total_cmp(&share(b)).then(a.suite.cmp(&b.suite))
            });
            let named: Vec<String> = short
                .iter()
                .take(SUITES_NAMED)
                .map(|x| format!("{} {} of {}", x.suite, x.within, x.measured))
                .collect();
            s.push_str(&format!(
                "; fewest within: {}; the others say how precise they got (--time gives every case more)",
                named.join(", ")
            ));
        }
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn case(suite: &str, precision: Option<f64>, status: CaseStatus) -> Measurement {
        let mut m = CaseSpec::new(suite, "P", "b", "1", "op").measurement(status, None);
        m.stats = Some(Summary {
            precision,
            ..Summary::default()
        });
        m
    }

    #[test]
    fn counts_measured_cases_by_suite_and_names_the_furthest_from_the_target() {
        let ms = vec![
            case("hash", Some(0.005), CaseStatus::Measured),
            case("hash", Some(0.02), CaseStatus::Measured),
            case("argon2", Some(0.05), CaseStatus::Measured),
            case("argon2", Some(0.04), CaseStatus::Measured),
            case("cipher", Some(0.01), CaseStatus::Measured),
            // Neither the canary, nor a failed case, nor one without stats counts.
            case(CANARY_SUITE, Some(0.5), CaseStatus::Measured),
            case("cipher", Some(0.5), CaseStatus::Failed),
            case("cipher", None, CaseStatus::Measured),
        ];
        let r = precision_reached(&ms, 0.01);
        assert_eq!((r.measured, r.within), (5, 2));
        assert_eq!(r.median, Some(0.02));
        let line = r.line().unwrap();
        assert!(
            line.starts_with(
                "precision: 2 of 5 cases (40%) within the target +-1.0%; median +-2.0%"
            ),
            "{line}"
        );
        assert!(
            line.contains("fewest within: argon2 0 of 2, hash 1 of 2;"),
            "{line}"
        );
        assert!(!line.contains("cipher 1 of 1"), "{line}");
    }

    #[test]
    fn a_run_that_met_its_target_says_only_that() {
        let ms = vec![case("hash", Some(0.004), CaseStatus::Measured)];
        let line = precision_reached(&ms, 0.01).line().unwrap();
        assert_eq!(
            line,
            "precision: 1 of 1 cases (100%) within the target +-1.0%; median +-0.4%, 9 in 10 within +-0.4%"
        );
        assert_eq!(precision_reached(&[], 0.01).line(), None);
    }
}
