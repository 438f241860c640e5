//! `cryptobench leak`: its options and the screen they describe.
//!
//! `--quick`, `--full`, `--time`, `--backend` and `--seed` are the global
//! flags every measuring command takes; `--algorithms` and
//! `--measurements` are the screen's own.

use crate::measure::Budget;
use crate::plan::{self, Options};
use cryptobench_core::{Error, RunConfig};
use std::time::Duration;

/// Options of `cryptobench leak`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LeakArgs {
    /// Algorithms to screen, comma-separated (AEAD names such as
    /// AES-128-GCM, ChaCha20-Poly1305, AEGIS-128L; X25519, ML-KEM-768,
    /// Ed25519, RSA-2048-PKCS1); default AES-128-GCM, ChaCha20-Poly1305,
    /// AEGIS-128L and the four public-key ones (--full: every default
    /// AEAD). The controls and the A/A case run always.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub algorithms: Option<String>,
    /// Measurements per case, both classes together (1000 to 100000000);
    /// default 200000 (--quick), 1000000, 5000000 (--full). A case stops
    /// at this count or its --time, whichever comes first.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub measurements: Option<String>,
}

/// Fewest measurements `--measurements` accepts.
pub const MIN_MEASUREMENTS: u64 = 1000;
/// Most measurements `--measurements` accepts.
pub const MAX_MEASUREMENTS: u64 = 100_000_000;

/// One screen: its cases' options, each case's budget and the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Screen {
    /// What runs.
    pub options: Options,
    /// Each case's budget.
    pub budget: Budget,
    /// The seed the random orders are drawn from.
    pub seed: u64,
}

/// Each case's budget: 2 s or 200k measurements with `--quick`, 8 s or
/// 1M by default, 30 s or 5M with `--full`; `--time` sets the time per
/// case and `--measurements` the count.
pub fn budget(cfg: &RunConfig, measurements: Option<u64>) -> Budget {
    let (time, count) = if cfg.quick {
        (Duration::from_secs(2), 200_000)
    } else if cfg.full {
        (Duration::from_secs(30), 5_000_000)
    } else {
        (Duration::from_secs(8), 1_000_000)
    };
    Budget {
        measurements: measurements.map_or(count, |n| n as usize),
        time: if cfg.time_asked {
            cfg.budget.time_per_case
        } else {
            time
        },
    }
}

/// The screen these options and global flags describe; a misspelt name or
/// a count out of range is a usage error before anything runs.
pub fn screen(args: &LeakArgs, cfg: &RunConfig) -> Result<Screen, Error> {
    let algorithms = args
        .algorithms
        .as_deref()
        .map(plan::resolve_algorithms)
        .transpose()?;
    let measurements = args
        .measurements
        .as_deref()
        .map(|t| {
            cryptobench_core::units::parse_count(t, MIN_MEASUREMENTS, MAX_MEASUREMENTS)
                .map_err(|e| Error::invalid_value("--measurements", e))
        })
        .transpose()?;
    let seed = cfg.seed.unwrap_or_else(fresh_seed);
    Ok(Screen {
        options: Options {
            algorithms,
            backends: cfg.backends.clone(),
            full: cfg.full,
        },
        budget: budget(cfg, measurements),
        seed,
    })
}

/// A seed from the clock: a fresh order each run unless `--seed` fixes it.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
