//! The aead suite (not yet written: plans no cases).

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction};

/// The aead suite.
#[derive(Debug, Clone, Default)]
pub struct AeadSuite;

impl Suite for AeadSuite {
    fn name(&self) -> &'static str {
        "aead"
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

/// Command-line interface of `cryptobench aead`.
pub mod cli {
    use super::*;

    /// Options of `cryptobench aead`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct AeadArgs {}

    /// Runs `cryptobench aead ...`.
    pub fn command(_args: &AeadArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
        Ok(SuiteAction::Bench(vec![Box::new(AeadSuite)]))
    }
}
