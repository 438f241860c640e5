//! The argon2 suite: Argon2d, Argon2i and Argon2id over memory x lanes x
//! passes, on four implementations measured side by side.
//!
//! It reproduces the second half of seed 000 (Tables 9 and 10: Argon2 time
//! by threads, memory and iterations, from the console and from a library)
//! and widens it: the reference C library (libargon2, called through FFI as
//! PHP does), libsodium's `crypto_pwhash`, RustCrypto's pure-Rust `argon2`
//! (with its `parallel` feature, which fills lanes on rayon threads), and the
//! reference `argon2` CLI timed from outside as a whole process, which is
//! what the seed's "console level" measured.
//!
//! Nothing is timed before it is shown correct: RFC 9106's test vectors and
//! the reference implementation's version 0x10 vectors run on every backend
//! that can take their inputs, and random points must agree bit for bit with
//! the reference library ([`vectors`]). Points that need more memory than the
//! machine has are skipped with the figures ([`memory`]).
//!
//! What is timed: one complete hash at the point's parameters, allocating
//! and releasing its memory (every backend allocates per call, as a login
//! does; the libraries timed in this process map it fresh, as libsodium
//! does itself, so a hash never meets pages another case left behind);
//! for the CLI, one whole process. Grids: `--quick` (a few 8-16 MiB
//! points, seconds), the default (seed Table 9's cells plus Argon2id t = 3 at
//! 16/64 MiB and 1-2 lanes, under a minute), `--full` (seed 000's and
//! RFC 9106's cells at 16-64 MiB on every backend and runtime, then seed
//! 000's own setup to 1 GiB, which fits the hour); `--variants`, `--memory`,
//! `--lanes`, `--iterations`, `--workers` replace single dimensions
//! ([`cases::Grid`]).
//!
//! Two choices worth knowing: libargon2 is opened with `dlopen` rather than
//! linked, because the statically linked libsodium exports a symbol of the
//! same name (`argon2_ctx`) with a different context layout; and RustCrypto is
//! built with `parallel` (lanes filled on rayon threads). The sequential
//! build is what `--workers 1` runs, so both stay measurable in one binary;
//! the `targets` example compares them.
//!
//! Besides the benchmark, `cryptobench argon2` offers `hash` (PHC strings
//! identical to the reference CLI's), `verify` and `tune` (RFC 9106 section 4's
//! parameter choice for a target time), see [`cli`].
#![deny(missing_docs)]

pub mod calm;
pub mod cases;
mod charts;
pub mod cli;
pub mod engines;
pub mod landing;
pub mod limits;
pub mod memory;
pub mod params;
pub mod phc;
pub mod report;
pub mod seed;
pub mod short_tune;
pub mod tune;
pub mod vectors;

use cryptobench_core::{BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteProfile};

/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "Argon2i/d/id password hashing: libargon2, libsodium, RustCrypto and the argon2 CLI over memory x lanes x passes";

/// The argon2 suite; `grid: None` takes the grid from the run's
/// `--quick` / `--full` flags.
#[derive(Debug, Clone, Default)]
pub struct Argon2Suite {
    /// The points to measure.
    pub grid: Option<cases::Grid>,
}

impl Suite for Argon2Suite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(cases::SUITE, ABOUT).views(
            report::summarize,
            report::headline,
            charts::charts,
        )
    }
    fn backends(&self) -> Vec<BackendInfo> {
        engines::all()
            .iter()
            .map(|h| BackendInfo {
                name: h.name().to_string(),
                version: h.version(),
                unavailable: h.available().err().map(|e| e.to_string()),
            })
            .collect()
    }
    fn primitives(&self) -> Vec<String> {
        params::Variant::ALL
            .iter()
            .map(|v| v.name().to_string())
            .collect()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let grids = match &self.grid {
            Some(grid) => vec![grid.clone()],
            None => cases::Grid::all_for_config(cfg),
        };
        Ok(cases::plan(&grids, cfg))
    }
}

/// Seed experiments this suite reproduces: `argon2` (seed 000, Tables 9 and 10).
pub fn papers() -> Vec<Box<dyn Paper>> {
    vec![Box::new(report::SeedPaper)]
}
