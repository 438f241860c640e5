//! Typed errors of the leak screen.

use thiserror::Error;

/// What can go wrong while a case is built or screened.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum LeakError {
    /// The backend or algorithm is missing here (the reason says why).
    #[error("{0}")]
    Unavailable(String),
    /// A check of the classes failed (a valid input rejected, an invalid
    /// one accepted) or an operation failed while it was timed.
    #[error("{0}")]
    Failed(String),
}

impl LeakError {
    /// A failure with the operation's own reason.
    pub fn failed(what: &str, reason: impl std::fmt::Display) -> Self {
        LeakError::Failed(format!("{what}: {reason}"))
    }
}
