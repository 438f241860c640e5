//! Typed errors of the library crates.
//!
//! [`Error::Usage`] is what the binary turns into exit code 2: it always names
//! what was wrong, what is accepted and, where a near name exists, what the
//! user probably meant. Crypto failures are reported as [`CaseError`]s and stay
//! opaque: a failed tag check says "authentication failed", nothing more.

use thiserror::Error as ThisError;

use crate::units::ParseError;

/// An error a library crate returns to the binary.
#[derive(Debug, ThisError)]
pub enum Error {
    /// The user asked for something that does not exist or is malformed; the
    /// message names what was wrong and what is accepted.
    #[error("{0}")]
    Usage(String),
    /// A flag's size, count or duration did not parse or is out of range.
    #[error("{flag}: {source}")]
    InvalidValue {
        /// The flag as the user wrote it, e.g. `--time`.
        flag: String,
        /// What was wrong with its value.
        source: ParseError,
    },
    /// A check failed (known answer, round trip, tamper); the command exits 1.
    #[error("check failed: {0}")]
    CheckFailed(String),
    /// Reading or writing a file, stream or the system's randomness failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being read or written.
        what: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The results database or an export failed (locked, corrupt, unwritable);
    /// the store's own error is kept whole as the source.
    #[error(transparent)]
    Store(Box<dyn std::error::Error + Send + Sync>),
    /// Anything else (an external tool or a library misbehaving).
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
    /// A flag whose value was refused by a [`crate::units`] parser.
    pub fn invalid_value(flag: impl Into<String>, source: ParseError) -> Self {
        Error::InvalidValue {
            flag: flag.into(),
            source,
        }
    }
    /// An I/O failure while doing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            what: what.into(),
            source,
        }
    }
    /// True when the user's input is to blame (the binary exits 2).
    pub fn is_usage(&self) -> bool {
        matches!(self, Error::Usage(_) | Error::InvalidValue { .. })
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
