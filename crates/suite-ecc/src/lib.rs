//! The ecc suite (not yet written: plans no cases).

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction};

/// The ecc suite.
#[derive(Debug, Clone, Default)]
pub struct EccSuite;

impl Suite for EccSuite {
    fn name(&self) -> &'static str {
        "ecc"
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

/// Command-line interface of `cryptobench ecc`.
pub mod cli {
    use super::*;

    /// Options of `cryptobench ecc`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct EccArgs {}

    /// Runs `cryptobench ecc ...`.
    pub fn command(_args: &EccArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
        Ok(SuiteAction::Bench(vec![Box::new(EccSuite)]))
    }
}
