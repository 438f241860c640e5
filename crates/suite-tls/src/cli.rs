//! `cryptobench tls`: options of the tls suite.

use crate::catalog::{resolve_certs, resolve_groups};
use crate::{Options, TlsSuite};
use cryptobench_core::{Error, RunConfig, SuiteAction};

/// Options of `cryptobench tls`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TlsArgs {
    /// Key-exchange groups, comma-separated (X25519, secp256r1,
    /// X25519MLKEM768, MLKEM768); default all (--quick: X25519, X25519MLKEM768).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub groups: Option<String>,
    /// Server certificates, comma-separated (ECDSA-P256, Ed25519, RSA-2048);
    /// default all (--quick: ECDSA-P256).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub certs: Option<String>,
    /// Also time resumed (PSK) handshakes (--full does).
    #[arg(long)]
    pub resumption: bool,
    /// Do not measure the `openssl s_time` peer.
    #[arg(long = "no-peers", alias = "no-peer")]
    pub no_peers: bool,
}

/// Turns the options into the suite to benchmark.
pub fn command(args: &TlsArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
    Ok(SuiteAction::Bench(vec![Box::new(suite_from(args)?)]))
}

/// The suite these options describe (names resolved: a typo is a usage
/// error before anything runs).
pub fn suite_from(args: &TlsArgs) -> Result<TlsSuite, Error> {
    let groups = args.groups.as_deref().map(resolve_groups).transpose()?;
    let certs = args.certs.as_deref().map(resolve_certs).transpose()?;
    Ok(TlsSuite {
        options: Options {
            groups,
            certs,
            resumption: args.resumption,
            no_peers: args.no_peers,
            alone: true,
        },
    })
}
