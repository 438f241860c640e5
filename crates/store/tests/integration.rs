//! One test binary for the crate's integration tests: each file below is
//! a module, so the test build links this crate once instead of once per file.
//! lock_wait.rs stays a binary of its own: the lock wait is one setting per process.

mod common;
mod export;
mod store;
