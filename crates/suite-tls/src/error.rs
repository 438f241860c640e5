//! Typed errors of the tls suite.
//!
//! A handshake that fails says which step failed and rustls' own reason;
//! the peer's errors say what the `openssl` process did (and, when it is
//! missing, how to install it).

use thiserror::Error;

/// The command that installs the `openssl` program the peer needs.
pub const INSTALL_OPENSSL: &str = "apt-get install openssl";

/// What can go wrong in the suite.
#[derive(Debug, Error)]
pub enum TlsError {
    /// rustls refused a configuration or failed a handshake step.
    #[error("{step}: {source}")]
    Rustls {
        /// The step (`server config`, `client reads the server flight`).
        step: &'static str,
        /// rustls' reason.
        source: rustls::Error,
    },
    /// Moving bytes between the two in-memory endpoints failed.
    #[error("{step}: {source}")]
    Io {
        /// The step.
        step: &'static str,
        /// The reason.
        source: std::io::Error,
    },
    /// A certificate or key could not be made (rcgen).
    #[error("making the {what} certificate: {source}")]
    Certificate {
        /// The certificate.
        what: &'static str,
        /// rcgen's reason.
        source: rcgen::Error,
    },
    /// A handshake ended otherwise than asked (group, scheme, kind).
    #[error("{0}")]
    Mismatch(String),
    /// The provider does not offer this group.
    #[error("{provider} offers no {group}")]
    NotOffered {
        /// The provider.
        provider: &'static str,
        /// The group.
        group: &'static str,
    },
    /// The `openssl` program is not installed.
    #[error("the openssl program is missing ({0}); install it: {INSTALL_OPENSSL}")]
    OpensslMissing(String),
    /// The peer server was asked to listen on another address than 127.0.0.1.
    #[error("s_server listens on 127.0.0.1 only; refused {0}")]
    NotLoopback(std::net::IpAddr),
    /// An `openssl` process failed or answered unexpectedly.
    #[error("{what}: {detail}")]
    Peer {
        /// The process or step (`s_server`, `s_time`).
        what: &'static str,
        /// What happened, with its output's last lines.
        detail: String,
    },
}

impl TlsError {
    /// A rustls failure at `step`.
    pub fn rustls(step: &'static str) -> impl FnOnce(rustls::Error) -> Self {
        move |source| TlsError::Rustls { step, source }
    }
    /// An I/O failure at `step`.
    pub fn io(step: &'static str) -> impl FnOnce(std::io::Error) -> Self {
        move |source| TlsError::Io { step, source }
    }
    /// A peer failure.
    pub fn peer(what: &'static str, detail: impl Into<String>) -> Self {
        TlsError::Peer {
            what,
            detail: detail.into(),
        }
    }
}

impl From<TlsError> for cryptobench_core::CaseError {
    fn from(e: TlsError) -> Self {
        match e {
            TlsError::OpensslMissing(_) | TlsError::NotOffered { .. } => {
                cryptobench_core::CaseError::Unavailable(e.to_string())
            }
            other => cryptobench_core::CaseError::Failed(other.to_string()),
        }
    }
}
