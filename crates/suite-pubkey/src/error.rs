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
    /// An X25519/X448 peer share whose shared secret is all zeros, refused
    /// on every backend alike; the library's own refusal, when it made one.
    #[error("the peer's public key is a low-order point (RFC 7748 section 6.1){}",
        .0.as_ref().map(|l| format!(": {l}")).unwrap_or_default())]
    LowOrder(Option<String>),
}

/// An X25519/X448 shared secret, refused when all zeros: the peer's share
/// is a low-order point and the secret no secret (RFC 7748 section 6.1).
pub fn contributory(shared: Vec<u8>) -> Result<Vec<u8>, PkError> {
    if shared.iter().fold(0u8, |acc, b| acc | b) == 0 {
        Err(PkError::LowOrder(None))
    } else {
        Ok(shared)
    }
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
