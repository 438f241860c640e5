//! The cipher suite: every symmetric (non-AEAD) cipher of OpenSSL's default
//! and legacy providers, of libmcrypt and of RustCrypto, from 4 B to 20 MB,
//! encrypt / decrypt / round trip, each verified and labelled before it is
//! timed. It reproduces and extends seed 001 ("OpenSSL vs Mcrypt").
//!
//! # Design
//!
//! - One [`catalog::CipherDesc`] per cipher and backend, canonical names in
//!   OpenSSL's spelling, so labels, ranking and agreement see one shape.
//!   OpenSSL's list is asked of the library at run time
//!   ([`openssl_backend`]); libmcrypt is `dlopen`ed ([`mcrypt`]) so its
//!   absence makes one backend unavailable, not the build fail.
//! - One [`engine::Engine`] interface: key schedule once, fresh IV per batch,
//!   messages back to back ([`case`] states exactly what is timed).
//! - Correct before timed ([`checks`]): a round trip at every size, known
//!   answers with their source ([`vectors`]), byte-identical ciphertext
//!   across backends. Known answers and agreement are computed once per
//!   cipher and shared by its cases.
//!
//! # Seed 001's "broken" DES-CFB1 / DES-EDE3-CFB1
//!
//! The seed found these two decrypting to invalid text with OpenSSL 0.9.8y.
//! It was the library, not the caller: OpenSSL's DES CFB1 code took the byte
//! count it was given for a bit count, so only the first eighth of every
//! message was enciphered (OpenSSL RT2867, "des_ede3_cfb1 ignored 'size in
//! bits' flag", fixed in 1.1.0 and backported to 1.0.2 in 2017). The
//! caller's oddity, decrypting `$txt.'*'`, is harmless: the ciphertext is
//! base64 and PHP's lenient decoder drops the `*`, for every cipher alike,
//! and only the CFB1 DES ciphers failed. On the OpenSSL measured here both
//! pass the round trip at every size and agree with each other's
//! known-answer identities; the crate's tests also compare them with a CFB1
//! written here over RustCrypto's DES.
//!
//! # A warning the seed's code needs
//!
//! The seed's `encryptOpenssl` derives the IV from `md5($password)`: the
//! same IV for every message of a user, which makes CBC/CFB/OFB leak equal
//! prefixes and turns CTR/OFB into a reused keystream. Use a fresh random
//! IV per message (what every case here does) and an AEAD (see the aead
//! suite) when integrity matters: no cipher here authenticates.
#![deny(missing_docs)]

pub mod case;
pub mod catalog;
mod charts;
pub mod checks;
pub mod engine;
pub mod mcrypt;
pub mod openssl_backend;
mod paper;
mod paper_test7;
mod peers;
pub mod plan;
pub mod published;
pub mod registry;
pub mod rustcrypto;
mod summary;
pub mod vectors;

pub use case::Op;
use cryptobench_core::{
    BackendInfo, Error, Paper, PlannedCase, RunConfig, Suite, SuiteAction, SuiteProfile,
};
pub use plan::Options;

/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "symmetric ciphers (OpenSSL, libmcrypt, RustCrypto): encrypt, decrypt, round trip, 4 B to 20 MB";

/// The cipher suite, configured by its command-line options.
#[derive(Debug, Clone, Default)]
pub struct CipherSuite {
    /// What to run.
    pub options: Options,
}

impl CipherSuite {
    /// A suite with these options.
    pub fn new(options: Options) -> Self {
        Self { options }
    }
}

impl Suite for CipherSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new("cipher", ABOUT).views(
            summary::ranking,
            summary::headline,
            charts::charts,
        )
    }
    fn backends(&self) -> Vec<BackendInfo> {
        cryptobench_core::infos(registry::all())
    }
    fn primitives(&self) -> Vec<String> {
        registry::Registry::load(|_| true)
            .names()
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        plan::plan(&self.options, cfg)
    }
}

/// Seed experiments this suite reproduces.
pub fn papers() -> Vec<Box<dyn Paper>> {
    vec![Box::new(paper::OpensslVsMcrypt)]
}

/// Command-line interface of `cryptobench cipher`.
pub mod cli {
    use super::*;
    use cryptobench_core::units;

    /// Options of `cryptobench cipher`.
    #[derive(Debug, Clone, Default, clap::Args)]
    pub struct CipherArgs {
        /// Ciphers to run, comma-separated (names or OpenSSL aliases,
        /// case-insensitive), e.g. `aes-128-ctr,bf-cfb8,chacha20`.
        #[arg(long, value_name = "LIST")]
        pub ciphers: Option<String>,
        /// Every cipher of every backend (round trip; without --sizes the long tail at 16 KiB).
        #[arg(long)]
        pub all: bool,
        /// Only ciphers without a warning label (no ECB, 64-bit block,
        /// broken, legacy).
        #[arg(long)]
        pub secure_only: bool,
        /// Also time key and IV setup with every message (as one PHP
        /// `openssl_encrypt` call does).
        #[arg(long)]
        pub per_message_init: bool,
        /// Operations: encrypt, decrypt, roundtrip (comma-separated).
        #[arg(long, value_name = "LIST")]
        pub operations: Option<String>,
        /// Message sizes, e.g. `16,1KiB,20MB` (KiB = 1024, KB = 1000).
        #[arg(long, value_name = "LIST")]
        pub sizes: Option<String>,
        /// Leave out the `openssl speed` peer cases.
        #[arg(long, alias = "no-peer")]
        pub no_peers: bool,
        /// List the ciphers with their labels and backends, then exit.
        #[arg(long)]
        pub list: bool,
    }

    /// Turns the arguments into [`Options`] (usage errors name what is
    /// accepted).
    pub fn options(args: &CipherArgs) -> Result<Options, Error> {
        let operations = match &args.operations {
            None => None,
            Some(list) => {
                let names: Vec<&str> = Op::ALL.iter().map(|o| o.name()).collect();
                let picked = cryptobench_core::names::resolve_list("operation", list, &names)?;
                Some(
                    picked
                        .iter()
                        .filter_map(|p| Op::ALL.into_iter().find(|o| o.name() == *p))
                        .collect(),
                )
            }
        };
        let sizes = match &args.sizes {
            None => None,
            Some(list) => Some(
                units::parse_size_list_within(list, 1, units::MAX_MESSAGE_SIZE).map_err(|e| {
                    Error::usage(format!(
                        "--sizes: {e}; accepted: a comma-separated list like 16,1KiB,200KB,20MB"
                    ))
                })?,
            ),
        };
        Ok(Options {
            ciphers: args.ciphers.clone(),
            all: args.all,
            secure_only: args.secure_only,
            per_message_init: args.per_message_init,
            operations,
            sizes,
            peers: !args.no_peers,
            only: None,
            lenient: false,
        })
    }

    /// Runs `cryptobench cipher ...`.
    pub fn command(args: &CipherArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
        let options = options(args)?;
        if args.list {
            print!("{}", plan::listing(&options, cfg)?);
            return Ok(SuiteAction::Done(0));
        }
        // Resolve names now so a typo is a usage error before anything runs.
        plan::selected_names(&options, cfg, &plan::registry(cfg))?;
        Ok(SuiteAction::Bench(vec![Box::new(CipherSuite::new(
            options,
        ))]))
    }
}
