//! One test binary for the crate's integration tests: each file below is
//! a module, so the test build links this crate once instead of once per file.
//! interrupt.rs stays a binary of its own: it raises the process-wide stop.

mod common;
mod php;
mod php_heap;
mod process;
mod runners;
