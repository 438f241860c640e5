//! One test binary for the crate's integration tests: each file below is
//! a module, so the test build links this crate once instead of once per file.

mod correctness;
mod plan;
