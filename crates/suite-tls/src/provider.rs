//! The backends: rustls over each crypto provider it ships, one struct per
//! provider and one line in [`all`].
//!
//! A provider offers a group when its own list of key-exchange groups has
//! it (ring has no ML-KEM, so its X25519MLKEM768 and MLKEM768 cells are
//! not planned); every handshake of a row uses that one group on both
//! sides and one cipher suite, TLS_AES_256_GCM_SHA384 (what both rustls
//! and OpenSSL put first by default), so rows differ only in what they
//! name.

use crate::catalog::Group;
use crate::error::TlsError;
use cryptobench_core::{Library, Offer};
use rustls::crypto::{CryptoProvider, SupportedKxGroup};
use rustls::server::ProducesTickets;
use rustls::SupportedCipherSuite;
use std::sync::Arc;

/// A rustls crypto provider as a backend of the suite.
pub trait Provider: Library {
    /// The provider's whole key-exchange list.
    fn kx_groups(&self) -> &'static [&'static dyn SupportedKxGroup];
    /// The provider with its defaults.
    fn base(&self) -> CryptoProvider;
    /// The cipher suite every row negotiates.
    fn cipher_suite(&self) -> SupportedCipherSuite;
    /// A stateless session-ticket encrypter, for resumed handshakes.
    fn ticketer(&self) -> Result<Arc<dyn ProducesTickets>, TlsError>;

    /// The provider's implementation of `group`, if it has one.
    fn kx_group(&self, group: &Group) -> Option<&'static dyn SupportedKxGroup> {
        self.kx_groups()
            .iter()
            .copied()
            .find(|g| g.name() == group.code)
    }
    /// Whether cells of `group` are planned on this provider.
    fn offer(&self, group: &Group) -> Offer {
        Offer::when(self.kx_group(group).is_some())
    }
    /// The provider limited to `kx` and the row's cipher suite.
    fn with_groups(&self, kx: Vec<&'static dyn SupportedKxGroup>) -> Arc<CryptoProvider> {
        Arc::new(CryptoProvider {
            kx_groups: kx,
            cipher_suites: vec![self.cipher_suite()],
            ..self.base()
        })
    }
}

/// The version line both providers share the first half of.
const RUSTLS: &str = "rustls 0.23";

/// The aws-lc-rs provider's backend name.
pub const AWS_LC_RS: &str = "rustls/aws-lc-rs";

/// rustls with aws-lc-rs, the library the pubkey suite's model is timed on.
pub struct AwsLcRs;

impl Library for AwsLcRs {
    fn name(&self) -> &'static str {
        AWS_LC_RS
    }
    fn version(&self) -> String {
        format!("{RUSTLS}, aws-lc-rs 1.19 (AWS-LC)")
    }
}

impl Provider for AwsLcRs {
    fn kx_groups(&self) -> &'static [&'static dyn SupportedKxGroup] {
        rustls::crypto::aws_lc_rs::ALL_KX_GROUPS
    }
    fn base(&self) -> CryptoProvider {
        rustls::crypto::aws_lc_rs::default_provider()
    }
    fn cipher_suite(&self) -> SupportedCipherSuite {
        rustls::crypto::aws_lc_rs::cipher_suite::TLS13_AES_256_GCM_SHA384
    }
    fn ticketer(&self) -> Result<Arc<dyn ProducesTickets>, TlsError> {
        rustls::crypto::aws_lc_rs::Ticketer::new().map_err(TlsError::rustls("ticketer"))
    }
}

/// rustls with ring (no ML-KEM).
pub struct Ring;

impl Library for Ring {
    fn name(&self) -> &'static str {
        "rustls/ring"
    }
    fn version(&self) -> String {
        format!("{RUSTLS}, ring 0.17")
    }
}

impl Provider for Ring {
    fn kx_groups(&self) -> &'static [&'static dyn SupportedKxGroup] {
        rustls::crypto::ring::ALL_KX_GROUPS
    }
    fn base(&self) -> CryptoProvider {
        rustls::crypto::ring::default_provider()
    }
    fn cipher_suite(&self) -> SupportedCipherSuite {
        rustls::crypto::ring::cipher_suite::TLS13_AES_256_GCM_SHA384
    }
    fn ticketer(&self) -> Result<Arc<dyn ProducesTickets>, TlsError> {
        rustls::crypto::ring::Ticketer::new().map_err(TlsError::rustls("ticketer"))
    }
}

/// The registry, in report order: aws-lc-rs first (the model's library).
pub fn all() -> [&'static dyn Provider; 2] {
    [&AwsLcRs, &Ring]
}

/// The provider named `name` (case as registered).
pub fn by_name(name: &str) -> Option<&'static dyn Provider> {
    all().into_iter().find(|p| p.name() == name)
}
