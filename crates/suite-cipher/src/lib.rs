//! The cipher suite (not yet written: plans no cases).

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction};

/// The cipher suite.
#[derive(Debug, Clone, Default)]
pub struct CipherSuite;

impl Suite for CipherSuite {
    fn name(&self) -> &'static str {
        "cipher"
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

/// Command-line interface of `cryptobench cipher`.
pub mod cli {
    use super::*;

    /// Options of `cryptobench cipher`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct CipherArgs {}

    /// Runs `cryptobench cipher ...`.
    pub fn command(_args: &CipherArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
        Ok(SuiteAction::Bench(vec![Box::new(CipherSuite)]))
    }
}
