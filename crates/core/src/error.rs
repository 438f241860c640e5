//! Typed errors of the library crates.
//!
//! [`Error::Usage`] is what the binary turns into exit code 2: it always names
//! what was wrong, what is accepted and, where a near name exists, what the
//! user probably meant. Crypto failures are reported as [`CaseError`]s and stay
//! opaque: a failed tag check says "authentication failed", nothing more.

use thiserror::Error as ThisError;

/// An error a library crate returns to the binary.
#[derive(Debug, ThisError)]
pub enum Error {
    /// The user asked for something that does not exist or is malformed.
    #[error("{0}")]
    Usage(String),
    /// A check failed (known answer, round trip, tamper); the command exits 1.
    #[error("check failed: {0}")]
    CheckFailed(String),
    /// Anything else (I/O, database, an external tool misbehaving).
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// Shorthand for a usage error.
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }
    /// Shorthand for an "other" error.
    pub fn other(msg: impl Into<String>) -> Self {
        Error::Other(msg.into())
    }
}

/// Why a single case could not be prepared or run.
#[derive(Debug, Clone, ThisError, PartialEq, Eq)]
pub enum CaseError {
    /// The case cannot run here (missing library, CPU feature, size rule).
    #[error("skipped: {0}")]
    Skipped(String),
    /// The backend or algorithm is missing on this machine (found out only
    /// when the case is built, e.g. inside an external runtime).
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The primitive misbehaved (wrong output, rejected valid input).
    #[error("{0}")]
    Failed(String),
}
