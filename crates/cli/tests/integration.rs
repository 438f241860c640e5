//! One test binary for the crate's integration tests: each file below is
//! a module, so the test build links this crate once instead of once per file.

mod ab;
mod across;
mod advice;
mod cli;
mod common;
mod crypto_inputs;
mod gate;
mod hostile;
mod leak;
mod mpi;
mod noise;
mod paper;
mod php_filters;
mod report_browser;
mod runtime;
mod safety;
