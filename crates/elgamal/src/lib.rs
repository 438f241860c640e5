//! The elgamal suite (not yet written: plans no cases).

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction};

/// The elgamal suite.
#[derive(Debug, Clone, Default)]
pub struct ElgamalSuite;

impl Suite for ElgamalSuite {
    fn name(&self) -> &'static str {
        "elgamal"
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

/// Command-line interface of `cryptobench elgamal`.
pub mod cli {
    use super::*;

    /// Options of `cryptobench elgamal`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct ElgamalArgs {}

    /// Runs `cryptobench elgamal ...`.
    pub fn command(_args: &ElgamalArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
        Ok(SuiteAction::Bench(vec![Box::new(ElgamalSuite)]))
    }
}
