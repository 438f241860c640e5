//! The `tls` suite: measured TLS 1.3 handshakes beside the pubkey suite's
//! model of them.
//!
//! The pubkey suite predicts what a handshake costs a server from
//! primitive times (key share + CertificateVerify signature); this suite
//! measures real handshakes, with their framing, key schedule, transcript
//! hashing, certificate handling, record encryption and allocation, and
//! puts the two side by side:
//!
//! - [`catalog`]: the groups and certificates, with the model's and
//!   OpenSSL's names for them; [`provider`]: rustls over aws-lc-rs and
//!   ring, one struct each; [`certs`]: the certificates, made once.
//! - [`exchange`]: a client and a server in one thread over two buffers,
//!   each side's steps timed apart; [`checks`]: what every row must show
//!   before it is timed; [`parts`]: the stand-ins of the measured
//!   breakdown (a null key share, a null signature).
//! - [`case`]: the rustls cases; [`model`]: the model's operations timed
//!   in the same comparison group, so measured / predicted is paired;
//!   [`peer`] and [`peer_case`]: `openssl s_server` with `s_time` against it.
//! - [`plan`]: which cases a run holds; [`rows`]: the typed rows the
//!   tables, advice and charts render; [`summary`]; [`cli`].
#![deny(missing_docs)]

pub mod case;
pub mod catalog;
pub mod certs;
pub mod checks;
pub mod cli;
pub mod error;
pub mod exchange;
pub mod model;
pub mod parts;
pub mod peer;
pub mod peer_case;
pub mod plan;
pub mod provider;
pub mod rows;
pub mod summary;

use catalog::{Cert, Group};
use cryptobench_core::{BackendInfo, Error, PlannedCase, RunConfig, Suite, SuiteProfile};

/// Suite name on the command line and in results.
pub const SUITE: &str = "tls";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "TLS 1.3 handshakes: rustls (aws-lc-rs, ring) in memory and OpenSSL s_server/s_time, X25519, secp256r1, X25519MLKEM768, MLKEM768 x ECDSA, Ed25519, RSA certificates, beside the pubkey suite's model";
/// The `openssl s_time` peer's backend name.
pub const S_TIME: &str = "peer:openssl-s_time";

/// Options of one benchmark (from `cryptobench tls` flags).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Groups to run; `None` = the default grid's.
    pub groups: Option<Vec<&'static Group>>,
    /// Certificates to run; `None` = the default grid's.
    pub certs: Option<Vec<&'static Cert>>,
    /// Also time resumed handshakes (`--full` does).
    pub resumption: bool,
    /// Leave out the `openssl s_time` peer.
    pub no_peers: bool,
    /// The suite runs alone (`cryptobench tls`): its default grid holds
    /// every certificate; inside `run` the default keeps ECDSA P-256 only.
    pub alone: bool,
}

/// The tls suite.
#[derive(Debug, Clone, Default)]
pub struct TlsSuite {
    /// What to run.
    pub options: Options,
}

impl Suite for TlsSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(
            summary::tables,
            summary::headline,
            cryptobench_core::profile::no_view,
        )
    }

    fn backends(&self) -> Vec<BackendInfo> {
        let mut out: Vec<BackendInfo> = provider::all().iter().map(|p| p.info()).collect();
        for (name, alg) in [
            (model::MODEL_BACKEND, "X25519"),
            (model::ML_DSA_BACKEND, "ML-DSA-65"),
        ] {
            let version = cryptobench_suite_pubkey::algorithms::by_name(alg)
                .and_then(|a| {
                    cryptobench_suite_pubkey::entries(a)
                        .into_iter()
                        .find(|(b, _, _)| *b == name)
                })
                .map(|(_, v, _)| v)
                .unwrap_or_default();
            out.push(BackendInfo {
                name: name.into(),
                version,
                unavailable: None,
            });
        }
        let openssl = cryptobench_engine::build::peers::openssl_cli_version();
        out.push(BackendInfo {
            name: S_TIME.into(),
            version: openssl.clone().unwrap_or_default(),
            unavailable: openssl.err().map(|e| e.to_string()),
        });
        out
    }

    fn primitives(&self) -> Vec<String> {
        catalog::GROUPS.iter().map(|g| g.name.to_string()).collect()
    }

    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        Ok(plan::plan(&self.options, cfg))
    }
}
