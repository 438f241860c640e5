//! The argon2 suite (not yet written: plans no cases).

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction};

/// The argon2 suite.
#[derive(Debug, Clone, Default)]
pub struct Argon2Suite;

impl Suite for Argon2Suite {
    fn name(&self) -> &'static str {
        "argon2"
    }
    fn about(&self) -> &'static str {
        "not yet available"
    }
    fn backends(&self) -> Vec<BackendInfo> {
        Vec::new()
    }
    fn primitives(&self) -> Vec<String> {
        Vec::new()
    }
    fn plan(&self, _cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        Ok(Vec::new())
    }
}

/// Seed experiments this suite reproduces.
pub fn papers() -> Vec<Box<dyn Paper>> {
    Vec::new()
}

/// Command-line interface of `cryptobench argon2`.
pub mod cli {
    use super::*;

    /// Options of `cryptobench argon2`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct Argon2Args {}

    /// Runs `cryptobench argon2 ...`.
    pub fn command(_args: &Argon2Args, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
        Ok(SuiteAction::Bench(vec![Box::new(Argon2Suite)]))
    }
}
