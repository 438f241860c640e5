//! Typed errors of the library crates.
//!
//! [`Error::Usage`] is what the binary turns into exit code 2: it always names
//! what was wrong, what is accepted and, where a near name exists, what the
//! user probably meant. Crypto failures are reported as [`CaseError`]s and stay
//! opaque: a failed tag check says "authentication failed", nothing more.

use std::error::Error as StdError;
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
    #[error("{flag}: {problem}")]
    InvalidValue {
        /// The flag as the user wrote it, e.g. `--time`.
        flag: String,
        /// What was wrong with its value (in the message already, so not
        /// an error `source` a report would print a second time).
        problem: ParseError,
    },
    /// A check failed: a result differs from the one it must equal (a known
    /// answer, a round trip, two backends' agreement); the command exits 1.
    #[error("check failed: {check}: {detail}")]
    CheckFailed {
        /// The check, as results name it (`round trip`, `encoding-table`).
        check: &'static str,
        /// What differed.
        detail: String,
    },
    /// A case could not be prepared or run outside the engine.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// Reading or writing a file, stream or the system's randomness failed.
    // The reason is in the message and not a `source`, so `{:#}` does
    // not print it twice.
    #[error("{what}: {reason}")]
    Io {
        /// What was being read or written.
        what: String,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// The results database or an export failed (locked, corrupt, unwritable);
    /// the store's own error is kept whole as the source.
    #[error(transparent)]
    Store(Box<dyn std::error::Error + Send + Sync>),
    /// A suite failed with its own typed error, which says everything and
    /// is kept whole as the source.
    #[error(transparent)]
    Suite(Box<dyn StdError + Send + Sync>),
    /// A step failed on input it must accept (a library call, a backend, a
    /// message between processes); `context` names the step or the backend.
    #[error("{context}: {source}")]
    Failed {
        /// The step or backend that failed (`EC_POINT_mul`, `openssl`).
        context: String,
        /// Why, as the failing library or step said it.
        source: Box<dyn StdError + Send + Sync>,
    },
    /// A message chunk could not be turned into a curve point or back.
    #[error("{0}")]
    Encoding(&'static str),
    /// The code named something its registry does not hold.
    #[error("{kind} {name} is not registered")]
    NotRegistered {
        /// What was looked up (`algorithm`, `arithmetic backend`).
        kind: &'static str,
        /// The name looked up.
        name: String,
    },
    /// A backend was asked for an algorithm it does not offer.
    #[error("{backend} has no {algorithm}")]
    NotOffered {
        /// The backend.
        backend: String,
        /// The algorithm asked for.
        algorithm: String,
    },
    /// A parallel executor failed: a worker thread panicked, or MPI refused
    /// an operation.
    #[error("{executor}: {reason}")]
    Executor {
        /// The executor (`threads`, `MPI`).
        executor: &'static str,
        /// What went wrong.
        reason: String,
    },
}

impl Error {
    /// Shorthand for a usage error.
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }
    /// `check` failed: `detail` says what differed.
    pub fn check_failed(check: &'static str, detail: impl Into<String>) -> Self {
        Error::CheckFailed {
            check,
            detail: detail.into(),
        }
    }
    /// `context` failed because of `source` (a typed error, or a library's
    /// message as text).
    pub fn failed(
        context: impl Into<String>,
        source: impl Into<Box<dyn StdError + Send + Sync>>,
    ) -> Self {
        Error::Failed {
            context: context.into(),
            source: source.into(),
        }
    }
    /// The MPI layer refused an operation.
    pub fn mpi(reason: impl Into<String>) -> Self {
        Error::Executor {
            executor: "MPI",
            reason: reason.into(),
        }
    }
    /// A flag whose value was refused by a [`crate::units`] parser.
    pub fn invalid_value(flag: impl Into<String>, source: ParseError) -> Self {
        Error::InvalidValue {
            flag: flag.into(),
            problem: source,
        }
    }
    /// An I/O failure while doing `what`.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            what: what.into(),
            reason: source,
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
