//! Command-line interface of `cryptobench ecc`.
//!
//! Every name the user types (curves, families, operations, APIs) is
//! resolved here, before anything runs, so a typo exits 2 with "did you
//! mean" instead of running a different experiment.

use crate::curves::{self, Family};
use crate::ops::Op;
use crate::ossl::Api;
use crate::EccSuite;
use cryptobench_core::{names, units, Error, RunConfig, SuiteAction, Table};

/// The most keys per timed sample: 10,000, a hundred times the seed's batch;
/// on the slowest binary curves one sample is then already minutes.
pub const MAX_KEYS: u64 = 10_000;

/// Options of `cryptobench ecc`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EccArgs {
    /// Curves to measure, comma-separated (case-insensitive; NIST aliases
    /// such as P-256 / secp256r1 / prime256v1 accepted). Default: all.
    #[arg(long, value_name = "LIST")]
    pub curves: Option<String>,
    /// Families to measure: Brainpool, Prime, C2pnb, C2tnb, Secp, Sect,
    /// Edwards/Montgomery, Other. Default: all.
    #[arg(long, value_name = "LIST")]
    pub families: Option<String>,
    /// Operations: keygen (default, as the seed), ecdh, sign, verify.
    #[arg(long, value_name = "LIST")]
    pub operations: Option<String>,
    /// Keys per timed sample (default: calibrated; the seed timed 100 keys per curve).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub keys: Option<String>,
    /// OpenSSL key-generation APIs: ec_key, evp (default: EC_KEY on every
    /// curve, EVP as well on the NIST curves, secp256k1, brainpoolP256r1 and
    /// sect571r1; EVP on every curve with --full).
    #[arg(long, value_name = "LIST")]
    pub api: Option<String>,
    /// Print the curve catalogue (families, key length, order, cofactor,
    /// security level, labels) and exit.
    #[arg(long = "list", alias = "list-curves")]
    pub list_curves: bool,
}

impl EccArgs {
    /// The suite these options describe, or a usage error.
    pub fn suite(&self) -> Result<EccSuite, Error> {
        let keys = self
            .keys
            .as_deref()
            .map(|text| {
                units::parse_count(text, 1, MAX_KEYS).map_err(|e| {
                    Error::usage(format!(
                        "--keys: {e}; it is the number of keys generated per timed sample (the seed used 100)"
                    ))
                })
            })
            .transpose()?;
        let curves = match &self.curves {
            Some(list) => Some(
                curves::resolve_list(list)?
                    .into_iter()
                    .map(|c| c.name.clone())
                    .collect(),
            ),
            None => None,
        };
        let families = self
            .families
            .as_deref()
            .map(Family::resolve_list)
            .transpose()?;
        let operations = match &self.operations {
            Some(list) => Op::resolve_list(list)?,
            None => vec![Op::Keygen],
        };
        let apis = self.api.as_deref().map(resolve_apis).transpose()?;
        // The command is the seed's experiment: every curve unless named.
        Ok(EccSuite {
            curves,
            families,
            operations,
            keys,
            apis,
            every_curve: true,
        })
    }
}

fn resolve_apis(list: &str) -> Result<Vec<Api>, Error> {
    let accepted = ["EC_KEY", "EVP"];
    Ok(names::resolve_list("OpenSSL API", list, &accepted)?
        .into_iter()
        .map(|n| if n == "EVP" { Api::Evp } else { Api::EcKey })
        .collect())
}

/// The curve catalogue as a table (`--list`).
pub fn catalogue_table() -> Table {
    let mut t = Table::new(
        "Curves of this OpenSSL, plus the Edwards/Montgomery curves",
        [
            "Curve",
            "Family",
            "Key bits",
            "Order bits",
            "Cofactor",
            "Security bits",
            "Labels",
            "Description",
        ],
    )
    .right(&[2, 3, 4, 5]);
    for c in curves::catalogue() {
        let mut labels = c.labels().join("; ");
        if let Some(why) = &c.unsupported {
            labels = format!("{why}; {labels}");
        }
        t.row([
            c.display(),
            c.family.name().to_string(),
            c.key_bits.to_string(),
            c.order_bits.to_string(),
            c.cofactor.to_string(),
            c.security_bits().to_string(),
            labels,
            c.comment.clone(),
        ]);
    }
    let named = curves::catalogue().len() - 4;
    t.note(format!(
        "{named} named curves from EC_get_builtin_curves ({}), plus X25519, X448, Ed25519, Ed448.",
        cryptobench_suite_common::openssl_lib::version()
    ));
    t.note("Security bits = order bits / 2 (Pollard rho); key bits = field degree, the seed's key length.");
    t
}

/// Runs `cryptobench ecc ...`.
pub fn command(args: &EccArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let suite = args.suite()?;
    if args.list_curves {
        print!("{}", crate::summary::render_text(&catalogue_table()));
        return Ok(SuiteAction::Done(0));
    }
    Ok(SuiteAction::Bench(vec![Box::new(suite)]))
}
