//! The `leak` screen: does an operation's time depend on its input?
//!
//! Each case runs one operation on two classes of inputs (fixed vs
//! random, valid vs invalid, as the case defines) interleaved in a fresh
//! random order within one process, times every measurement on the
//! engine's clock, and runs Welch's t-test on the raw, cropped and
//! centred-squared measurements (`cryptobench_stats::welch`). The
//! verdict says "leak", "no leak found" with the effect the run would
//! have found, or "inconclusive".
//!
//! - [`case`]: what a case is (its classes, what they probe, its role);
//!   [`measure`]: the interleaved loop; [`verdict`]: the tests, the
//!   verdict and the stored measurement; [`run`]: a plan screened case by
//!   case.
//! - [`controls`]: the early-exit and constant-time comparisons and the
//!   A/A case, in every run; [`aead`] and [`pubkey`]: the other suites'
//!   backends, reused; [`rsa_decrypt`]: PKCS#1 v1.5 decryption on the
//!   libraries' own calls.
//! - [`plan`]: which cases a run holds; [`summary`]: the table; [`cli`].
//!
//! The engine's grouped rounds time many cases against each other for
//! speed; a screen needs the opposite, one case's two classes against
//! each other, so it has its own loop and stores its findings as
//! ordinary measurements of the `leak` suite. `run` plans none of them:
//! a screen runs when asked for (`cryptobench leak`).
#![deny(missing_docs)]

pub mod aead;
pub mod case;
pub mod cli;
pub mod controls;
pub mod error;
pub mod measure;
pub mod plan;
#[cfg(feature = "planted")]
pub mod planted;
pub mod pubkey;
pub mod rsa_decrypt;
pub mod run;
pub mod summary;
pub mod verdict;

use cryptobench_core::{BackendInfo, Error, PlannedCase, RunConfig, Suite, SuiteProfile};

/// Suite name on the command line and in results.
pub const SUITE: &str = "leak";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "Timing-leak screen: two input classes interleaved at random, Welch's t raw, cropped and second order, leak past |t| 10; controls and an A/A case in every run";

/// The leak suite: its views of stored screens. Screens are run by
/// `cryptobench leak` ([`cli::screen`]), not by the engine.
#[derive(Debug, Clone, Default)]
pub struct LeakSuite;

impl Suite for LeakSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(
            summary::tables,
            summary::headline,
            cryptobench_core::profile::no_view,
        )
    }

    fn backends(&self) -> Vec<BackendInfo> {
        plan::backends()
    }

    fn primitives(&self) -> Vec<String> {
        plan::algorithm_names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    fn plan(&self, _cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        Ok(Vec::new())
    }
}
