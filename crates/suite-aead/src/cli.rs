//! Command-line interface of `cryptobench aead`: the benchmark flags and
//! the `verify` subcommand.
//!
//! `aead verify --vectors FILE.json` runs any Wycheproof-format AEAD file on
//! every backend implementing its `algorithm`, prints pass / fail / skipped
//! per algorithm x backend, and exits 1 on any failure. A file it cannot
//! read or parse is a usage error (exit 2) that says why.

use crate::algorithms::{self, Algorithm};
use crate::backend;
use crate::case::{NonceMode, Operation};
use crate::checks;
use crate::vectors;
use crate::{AeadSuite, Options};
use cryptobench_core::Offer;
use cryptobench_core::{names, units, Error, RunConfig, SuiteAction};
use std::path::PathBuf;

/// Options of `cryptobench aead`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct AeadArgs {
    /// A subcommand; none runs the benchmark.
    #[command(subcommand)]
    pub command: Option<AeadCommand>,
    /// Algorithms, comma-separated (default: all but the AEGIS X2/X4 extras;
    /// libsodium names such as aes256gcm, aegis128l are accepted).
    #[arg(long, value_name = "LIST")]
    pub algorithms: Option<String>,
    /// Message sizes, comma-separated (16, 1KB, 16KiB, 20MB).
    #[arg(long, value_name = "SIZES", allow_hyphen_values = true)]
    pub sizes: Option<String>,
    /// Associated data per message (13 gives `openssl speed -aead` conditions).
    #[arg(
        long,
        value_name = "BYTES",
        default_value = "0",
        allow_hyphen_values = true
    )]
    pub aad: String,
    /// How each message's nonce is made (outside the timed region).
    #[arg(long, value_enum, default_value = "counter")]
    pub nonce: NonceMode,
    /// Run the key schedule inside every operation.
    #[arg(long)]
    pub per_message_init: bool,
    /// Tag length in bytes for every algorithm that allows it.
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub tag_length: Option<String>,
    /// Operations, comma-separated: encrypt, decrypt, roundtrip.
    #[arg(long, value_name = "LIST")]
    pub operations: Option<String>,
    /// Leave out the `openssl speed` peer measurements.
    #[arg(long, alias = "no-peer")]
    pub no_peers: bool,
}

/// Subcommands of `cryptobench aead`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AeadCommand {
    /// Run a Wycheproof-format AEAD vector file on every backend.
    Verify {
        /// The JSON file (Wycheproof AEAD schema).
        #[arg(long, value_name = "FILE.json")]
        vectors: PathBuf,
    },
}

impl AeadArgs {
    /// Turns the flags into suite options; bad values are usage errors.
    pub fn options(&self) -> Result<Options, Error> {
        let algorithms = match &self.algorithms {
            Some(list) => Some(algorithms::resolve_list(list)?),
            None => None,
        };
        let sizes = match &self.sizes {
            Some(text) => Some(
                units::parse_size_list_within(text, 0, units::MAX_MESSAGE_SIZE).map_err(|e| {
                    Error::usage(format!("--sizes: {e}; accepted: e.g. 16,1KB,16KiB,20MB"))
                })?,
            ),
            None => None,
        };
        let aad = units::parse_size_within(&self.aad, 0, units::MAX_AAD_SIZE).map_err(|e| {
            Error::usage(format!(
                "--aad: {e}; accepted: a byte count such as 0, 13, 1KiB"
            ))
        })?;
        let tag_len = match &self.tag_length {
            Some(t) => Some(parse_tag_length(t)?),
            None => None,
        };
        let operations = match &self.operations {
            Some(list) => {
                let names: Vec<&str> = Operation::ALL.iter().map(|o| o.name()).collect();
                let picked = names::resolve_list("operation", list, &names)?;
                Some(
                    Operation::ALL
                        .iter()
                        .copied()
                        .filter(|o| picked.contains(&o.name()))
                        .collect(),
                )
            }
            None => None,
        };
        Ok(Options {
            algorithms,
            sizes,
            operations,
            aad: usize::try_from(aad).map_err(|_| Error::usage("--aad: too large"))?,
            nonce: self.nonce,
            per_message_init: self.per_message_init,
            tag_len,
            no_peers: self.no_peers,
        })
    }
}

fn parse_tag_length(text: &str) -> Result<usize, Error> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=32).contains(&n) => Ok(n),
        _ => Err(Error::usage(format!(
            "--tag-length: '{text}' is not a tag length; accepted: bytes from 1 to 32 (e.g. 16; CCM 4..16 even; AEGIS 16 or 32)"
        ))),
    }
}

/// Runs `cryptobench aead ...`.
pub fn command(args: &AeadArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    match &args.command {
        Some(AeadCommand::Verify { vectors }) => verify(vectors, cfg).map(SuiteAction::Done),
        None => Ok(SuiteAction::Bench(vec![Box::new(AeadSuite::new(
            args.options()?,
        ))])),
    }
}

/// One row of `aead verify`'s output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyRow {
    /// Algorithm name.
    pub algorithm: &'static str,
    /// Backend name.
    pub backend: &'static str,
    /// `pass`, `FAIL` or `skipped`.
    pub verdict: &'static str,
    /// Counts and reasons.
    pub detail: String,
}

/// Runs a parsed file on every backend of every matching algorithm.
pub fn verify_file(file: &vectors::VectorFile, cfg: &RunConfig) -> Result<Vec<VerifyRow>, Error> {
    let algs: Vec<&'static Algorithm> = algorithms::by_wycheproof_field(&file.algorithm);
    if algs.is_empty() {
        let known = [
            "AES-GCM",
            "AES-CCM",
            "AES-GCM-SIV",
            "AEAD-AES-SIV-CMAC",
            "AES-OCB",
            "CHACHA20-POLY1305",
            "XCHACHA20-POLY1305",
            "AEGIS128L",
            "AEGIS256",
        ];
        return Err(names::unknown(
            "Wycheproof AEAD algorithm",
            &file.algorithm,
            &known,
        ));
    }
    let mut rows = Vec::new();
    for alg in algs {
        if !file.groups.iter().any(|g| g.key_bits == alg.key_len * 8) {
            continue;
        }
        for &backend in backend::all() {
            if !cfg.wants_backend(backend.name()) {
                continue;
            }
            match backend.offers(alg) {
                Offer::NotOffered => continue,
                Offer::Unavailable(reason) => rows.push(VerifyRow {
                    algorithm: alg.name,
                    backend: backend.name(),
                    verdict: "skipped",
                    detail: format!("unavailable: {reason}"),
                }),
                Offer::Runs => {
                    let report = vectors::run(file, alg, backend);
                    let check = checks::report_check("verify", &report);
                    rows.push(VerifyRow {
                        algorithm: alg.name,
                        backend: backend.name(),
                        verdict: match check.outcome {
                            cryptobench_core::CheckOutcome::Pass => "pass",
                            cryptobench_core::CheckOutcome::Fail => "FAIL",
                            cryptobench_core::CheckOutcome::Skipped => "skipped",
                        },
                        detail: check.detail,
                    });
                }
            }
        }
    }
    Ok(rows)
}

/// `aead verify --vectors FILE`: prints one line per algorithm x backend;
/// returns the exit code (1 on any failure), or a usage error when nothing
/// was verified.
pub fn verify(path: &std::path::Path, cfg: &RunConfig) -> Result<u8, Error> {
    let text = cryptobench_core::input::read_file_to_string("--vectors", path)?;
    let file = vectors::parse(&path.display().to_string(), &text)
        .map_err(|e| Error::Usage(e.to_string()))?;
    let rows = verify_file(&file, cfg)?;
    println!(
        "{}: {} tests, algorithm {}",
        path.display(),
        file.len(),
        file.algorithm
    );
    let width = rows.iter().map(|r| r.algorithm.len()).max().unwrap_or(0);
    for r in &rows {
        println!(
            "  {:<width$}  {:<10}  {:<7}  {}",
            r.algorithm, r.backend, r.verdict, r.detail
        );
    }
    let failed = rows.iter().filter(|r| r.verdict == "FAIL").count();
    if failed > 0 {
        println!("FAILED: {failed} backend(s) disagree with the vectors");
        return Ok(1);
    }
    if !rows.iter().any(|r| r.verdict == "pass") {
        return Err(Error::usage(nothing_verified(&file, &rows, cfg)));
    }
    Ok(0)
}

/// Why `aead verify` verified nothing: no backend chosen here implements
/// a key size of the file, or every one skipped it.
fn nothing_verified(file: &vectors::VectorFile, rows: &[VerifyRow], cfg: &RunConfig) -> String {
    if rows.is_empty() {
        let mut sizes: Vec<usize> = file.groups.iter().map(|g| g.key_bits).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let sizes: Vec<String> = sizes.iter().map(|b| format!("{b}-bit")).collect();
        let chosen = match &cfg.backends {
            Some(b) => format!(" among --backend {}", b.join(",")),
            None => String::new(),
        };
        return format!(
            "nothing verified: no backend here{chosen} implements {} with a key size of this file ({})",
            file.algorithm,
            sizes.join(", ")
        );
    }
    let reasons: Vec<String> = rows
        .iter()
        .map(|r| format!("{} on {}: {}", r.algorithm, r.backend, r.detail))
        .collect();
    format!(
        "nothing verified: every backend skipped the file ({})",
        reasons.join("; ")
    )
}
