//! Typed errors of the pubkey suite.
//!
//! Crypto failures stay opaque ("decapsulation failed"); malformed keys and
//! files say what was wrong and what is accepted, since they come from users.

use thiserror::Error;

/// What can go wrong in a backend or a key file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PkError {
    /// The backend does not offer this parameter set here.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// A key, ciphertext or signature has the wrong length or encoding.
    #[error("{0}")]
    Encoding(String),
    /// The library reported a failure (opaque on purpose).
    #[error("{0}")]
    Crypto(String),
}

impl PkError {
    /// A library failure with context.
    pub fn crypto(what: impl std::fmt::Display) -> Self {
        PkError::Crypto(what.to_string())
    }
    /// The reason alone: an unavailable one without its prefix (for a
    /// plan's "unavailable" cell), any other as displayed.
    pub fn into_reason(self) -> String {
        match self {
            PkError::Unavailable(why) => why,
            other => other.to_string(),
        }
    }
    /// An encoding failure with context.
    pub fn encoding(what: impl std::fmt::Display) -> Self {
        PkError::Encoding(what.to_string())
    }
}

/// Checks an encoded value's length.
pub fn expect_len(what: &str, bytes: &[u8], want: usize) -> Result<(), PkError> {
    if bytes.len() == want {
        Ok(())
    } else {
        Err(PkError::Encoding(format!(
            "{what} has {} bytes; expected {want}",
            bytes.len()
        )))
    }
}
