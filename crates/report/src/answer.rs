//! The answer first: how sure a run is, said before what it found.
//!
//! A reader acts on the first lines they read. A quick run on a noisy
//! machine can still rank AES-GCM against ChaCha20 but cannot resolve a 5%
//! difference, and the advice reads the same either way; so the run
//! summary, `recommend` and `show` open with one statement of certainty:
//! quick or full, the share of cases within +-1%, the machine's noise
//! floor, and what that means for the differences a reader may act on.

use crate::compare::{moment_floor, NOISY_FLOOR};
use crate::precision::precision_reached;
use cryptobench_core::Run;

/// The precision a case must reach to count as precise here (+-1%).
pub const PRECISE: f64 = 0.01;

/// How sure a run's figures are.
#[derive(Debug, Clone, PartialEq)]
pub struct Certainty {
    /// True when the run was measured with `--quick`.
    pub quick: bool,
    /// Measured cases with a precision.
    pub measured: usize,
    /// Those within [`PRECISE`].
    pub precise: usize,
    /// The larger of the canary's floor and the moment floor (a fraction):
    /// how far the machine moved between moments of the run.
    pub noise_floor: Option<f64>,
}

impl Certainty {
    /// The certainty of `run`.
    pub fn of(run: &Run) -> Self {
        let reached = precision_reached(&run.measurements, PRECISE);
        let noise_floor = run
            .noise_floor()
            .into_iter()
            .chain(moment_floor(run))
            .reduce(f64::max);
        Certainty {
            quick: run.command.iter().any(|a| a == "--quick"),
            measured: reached.measured,
            precise: reached.within,
            noise_floor,
        }
    }

    /// The share of measured cases within +-1%, 0 to 1.
    pub fn precise_share(&self) -> f64 {
        if self.measured == 0 {
            0.0
        } else {
            self.precise as f64 / self.measured as f64
        }
    }

    /// True when the machine moved past [`NOISY_FLOOR`].
    pub fn noisy(&self) -> bool {
        self.noise_floor.is_some_and(|f| f > NOISY_FLOOR)
    }

    /// One sentence: what was measured, how precisely, on how calm a
    /// machine, and what differences the reader can act on.
    pub fn line(&self) -> String {
        let kind = if self.quick { "quick run" } else { "run" };
        let machine = match self.noise_floor {
            Some(_) if self.noisy() => "on a noisy machine",
            Some(_) => "on a calm machine",
            None => "(the machine's noise was not measured)",
        };
        let precise = if self.measured == 0 {
            "no case measured".to_string()
        } else {
            format!(
                "{:.0}% of {} cases within +-1%",
                self.precise_share() * 100.0,
                self.measured
            )
        };
        let meaning = match self.noise_floor {
            Some(f) => format!(
                "between runs, differences under {:.0}% are not resolved",
                (f * 100.0).max(1.0).ceil()
            ),
            None => "compare runs only through `cryptobench noise` first".to_string(),
        };
        format!("Certainty: {kind} {machine}; {precise}; {meaning}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn certainty(quick: bool, precise: usize, floor: Option<f64>) -> Certainty {
        Certainty {
            quick,
            measured: 100,
            precise,
            noise_floor: floor,
        }
    }

    #[test]
    fn a_quick_noisy_run_says_so_and_what_it_cannot_resolve() {
        let line = certainty(true, 12, Some(0.206)).line();
        assert!(
            line.starts_with("Certainty: quick run on a noisy machine"),
            "{line}"
        );
        assert!(line.contains("12% of 100 cases within +-1%"), "{line}");
        assert!(line.contains("differences under 21% are not"), "{line}");
    }

    #[test]
    fn a_calm_full_run_reads_calm() {
        let line = certainty(false, 95, Some(0.01)).line();
        assert!(
            line.starts_with("Certainty: run on a calm machine"),
            "{line}"
        );
        assert!(line.contains("differences under 1% are not"), "{line}");
    }

    #[test]
    fn an_unmeasured_floor_is_said_not_guessed() {
        let line = certainty(false, 0, None).line();
        assert!(line.contains("not measured"), "{line}");
    }
}
