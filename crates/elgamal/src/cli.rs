//! `cryptobench elgamal [keygen | encrypt | decrypt | bench]`.
//!
//! Without a subcommand (or with `bench`) it is the benchmark. The other
//! subcommands do their work here: files in, files out, and every problem
//! with the input is an [`Error::Usage`] (exit 2) that says what was wrong.
//!
//! Two of the spellings collide with the binary's global flags:
//! `-o` (global export target) and `--threads` (global thread count). The
//! binary can hand them over with [`ElgamalArgs::adopt_globals`]; without
//! that, `keygen` takes its output as `--out PATH` (or a positional path)
//! and `bench` its thread list as `--workers LIST`.

use crate::arith::{self, Backend};
use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::executor::{Executor, ExecutorSpec, Serial, Threads, MAX_WORKERS};
use crate::format::{CiphertextFile, KeyFile};
use crate::keys::RngSource;
use crate::scheme;
use crate::suite::{ElgamalSuite, Grid};
use cryptobench_core::{names, units, Error, RunConfig, SuiteAction};
use cryptobench_store::output::{self, Access, OutputError, Outputs};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `cryptobench elgamal`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ElgamalArgs {
    /// keygen, encrypt, decrypt or bench (default: bench).
    #[command(subcommand)]
    pub command: Option<ElgamalCommand>,
    /// Benchmark options when no subcommand is given.
    #[command(flatten)]
    pub bench: BenchArgs,
}

/// The subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum ElgamalCommand {
    /// Generate a key pair: secret key file, and optionally the public one.
    Keygen(KeygenArgs),
    /// Encrypt standard input with a (public) key file; ciphertext JSON to standard output.
    Encrypt(EncryptArgs),
    /// Decrypt a ciphertext JSON from standard input with a secret key file.
    Decrypt(DecryptArgs),
    /// Benchmark (the default).
    Bench(BenchArgs),
}

/// `elgamal keygen`.
#[derive(Debug, Clone, clap::Args)]
pub struct KeygenArgs {
    /// Curve: P-256, secp256k1 or toy64 (toy64 is breakable).
    #[arg(long, default_value = "P-256")]
    pub curve: String,
    /// Secret key file to write.
    #[arg(long = "out", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Secret key file to write (same as --out).
    #[arg(value_name = "KEY_FILE")]
    pub path: Option<PathBuf>,
    /// Also write the public key here.
    #[arg(long, value_name = "PATH")]
    pub public: Option<PathBuf>,
    /// Replace an existing key file (the binary's global `--force`).
    #[arg(skip)]
    pub force: bool,
}

/// `elgamal encrypt`.
#[derive(Debug, Clone, clap::Args)]
pub struct EncryptArgs {
    /// Public (or secret) key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// char (one byte per point, as seed 002) or packed.
    #[arg(long, default_value = "char")]
    pub encoding: String,
    /// Worker threads (1 = serial).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    pub workers: String,
    /// Arithmetic backend (default: the fastest for the curve).
    #[arg(long)]
    pub arith: Option<String>,
}

/// `elgamal decrypt`.
#[derive(Debug, Clone, clap::Args)]
pub struct DecryptArgs {
    /// Secret key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// Worker threads (1 = serial).
    #[arg(long, default_value = "1", allow_hyphen_values = true)]
    pub workers: String,
    /// Arithmetic backend (default: the fastest for the curve).
    #[arg(long)]
    pub arith: Option<String>,
}

/// `elgamal bench` (and `elgamal` alone).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct BenchArgs {
    /// Curves (comma-separated): toy64, P-256, secp256k1.
    #[arg(long, value_name = "LIST")]
    pub curve: Option<String>,
    /// Encodings: char, packed.
    #[arg(long, value_name = "LIST")]
    pub encoding: Option<String>,
    /// Message lengths in characters (1024, 4KiB, ...; at most 1MiB).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub lengths: Option<String>,
    /// Executors: serial, threads, mpi, hybrid (the last two under mpirun).
    #[arg(long, value_name = "LIST")]
    pub mode: Option<String>,
    /// Thread counts for mode `threads` (1 to 1000), e.g. 2,4,10,100,1000.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub workers: Option<String>,
    /// Arithmetic backends: openssl, rustcrypto, native (default: fastest per curve).
    #[arg(long, value_name = "LIST")]
    pub arith: Option<String>,
}

impl ElgamalArgs {
    /// Takes over the global `-o PATH` (as keygen's output) and a global
    /// `--threads LIST` (as the bench's thread list), clearing them so the
    /// binary does not read them as export targets or a runner count.
    pub fn adopt_globals(&mut self, outputs: &mut Vec<String>, threads: &mut Option<String>) {
        if let Some(ElgamalCommand::Keygen(k)) = &mut self.command {
            if k.out.is_none() && k.path.is_none() && outputs.len() == 1 {
                k.out = outputs.pop().map(PathBuf::from);
            }
        }
        let bench = match &mut self.command {
            None => Some(&mut self.bench),
            Some(ElgamalCommand::Bench(b)) => Some(b),
            _ => None,
        };
        if let Some(b) = bench {
            if b.workers.is_none() {
                b.workers = threads.take();
            }
        }
    }
}

/// Runs `cryptobench elgamal ...`.
pub fn command(args: &ElgamalArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    match &args.command {
        None => bench(&args.bench, cfg),
        Some(ElgamalCommand::Bench(b)) => bench(b, cfg),
        Some(ElgamalCommand::Keygen(k)) => keygen(k, cfg),
        Some(ElgamalCommand::Encrypt(e)) => encrypt(e, cfg),
        Some(ElgamalCommand::Decrypt(d)) => decrypt(d),
    }
}

/// The grid the bench flags describe.
pub fn grid(b: &BenchArgs, cfg: &RunConfig) -> Result<Grid, Error> {
    let curves = parse_list(&b.curve, Curve::parse)?;
    let encodings = parse_list(&b.encoding, Encoding::parse)?;
    let ariths = parse_list(&b.arith, arith::parse)?;
    let lengths = parse_list(&b.lengths, |s| {
        units::parse_size_within(s, 1, MAX_LENGTH)
            .map(|v| v as usize)
            .map_err(|e| Error::usage(format!("--lengths: {e}")))
    })?;
    let workers = parse_list(&b.workers, parse_workers)?;
    let executors = match (&b.mode, &workers) {
        (None, None) => None,
        (mode, workers) => {
            let modes = match mode {
                // mpi and hybrid are taken by the MPI path before this; they
                // are named so the accepted list is complete.
                Some(m) => names::resolve_list("mode", m, &ALL_MODES)?
                    .into_iter()
                    .filter(|m| ExecutorSpec::MODES.contains(m))
                    .collect(),
                None => ExecutorSpec::MODES.to_vec(),
            };
            let counts = workers
                .clone()
                .unwrap_or_else(|| vec![(cfg.threads as usize).max(2)]);
            let mut v = Vec::new();
            for m in modes {
                if m == "serial" {
                    v.push(ExecutorSpec::Serial);
                } else {
                    v.extend(counts.iter().map(|&n| ExecutorSpec::Threads(n)));
                }
            }
            Some(v)
        }
    };
    Ok(Grid {
        curves,
        encodings,
        lengths,
        executors,
        ariths,
        peer: None,
    })
}

/// Every `--mode` value, the local ones and those of the MPI path.
const ALL_MODES: [&str; 4] = ["serial", "threads", "mpi", "hybrid"];

/// The longest message `--lengths` accepts: 1 MiB characters, 16 times the
/// seed's longest, already minutes per sample with one point per character.
pub const MAX_LENGTH: u64 = 1 << 20;

/// Each item of a comma-separated flag through `parse`; `None` when the
/// flag was not given.
fn parse_list<T>(
    flag: &Option<String>,
    parse: impl Fn(&str) -> Result<T, Error>,
) -> Result<Option<Vec<T>>, Error> {
    flag.as_deref()
        .map(|list| split_list(list).map(&parse).collect())
        .transpose()
}

fn split_list(list: &str) -> impl Iterator<Item = &str> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty())
}

fn parse_workers(s: &str) -> Result<usize, Error> {
    units::parse_count(s, 1, MAX_WORKERS as u64)
        .map(|n| n as usize)
        .map_err(|e| Error::usage(format!("--workers: {e}")))
}

fn bench(b: &BenchArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let grid = grid(b, cfg)?;
    Ok(SuiteAction::Bench(vec![Box::new(ElgamalSuite::new(grid))]))
}

fn rng(cfg: &RunConfig) -> RngSource {
    cfg.seed.map_or(RngSource::Os, RngSource::Seeded)
}

fn executor(workers: usize) -> Result<Box<dyn Executor>, Error> {
    if workers <= 1 {
        Ok(Box::new(Serial))
    } else {
        Ok(Box::new(Threads::new(workers)?))
    }
}

fn read_file(path: &Path, what: &str) -> Result<String, Error> {
    cryptobench_core::input::read_file_to_string(what, path)
}

fn arith_for(curve: Curve, name: &Option<String>) -> Result<Backend, Error> {
    match name {
        Some(a) => {
            let backend = arith::parse(a)?;
            match arith::backend::unsupported_reason(backend, curve) {
                Some(r) => Err(Error::usage(r)),
                None => Ok(backend),
            }
        }
        None => Ok(arith::default_for(curve)),
    }
}

fn keygen(k: &KeygenArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let curve = Curve::parse(&k.curve)?;
    let path = k.out.as_ref().or(k.path.as_ref()).ok_or_else(|| {
        Error::usage("keygen needs where to write the secret key: -o PATH (or --out PATH)")
    })?;
    // Both files are checked before either is written: a refused public
    // key path must not leave a fresh secret key behind, nor the reverse.
    let outputs = Outputs::new(k.force, None);
    let usage = |e: OutputError| Error::usage(e.to_string());
    if let Some(public) = &k.public {
        output::distinct([("--out", path.as_path()), ("--public", public.as_path())])
            .map_err(usage)?;
        outputs.check(public, Access::Public).map_err(usage)?;
    }
    outputs.check(path, Access::Secret).map_err(usage)?;
    let keys = scheme::open(curve, arith::default_for(curve), None, rng(cfg))?;
    let material = keys.material();
    let secret = KeyFile::from_material(material).to_json();
    outputs
        .write(path, secret.as_bytes(), Access::Secret)
        .map_err(usage)?;
    if let Some(public) = &k.public {
        let text = KeyFile::from_material(&material.public_only()).to_json();
        outputs
            .write(public, text.as_bytes(), Access::Public)
            .map_err(usage)?;
    }
    if curve.is_toy() {
        eprintln!("warning: {}", crate::curve::TOY64_LABEL);
    }
    Ok(SuiteAction::Done(0))
}

fn read_stdin() -> Result<Vec<u8>, Error> {
    cryptobench_core::input::read_bounded("standard input", std::io::stdin().lock())
}

fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|_| out.flush())
        .map_err(|e| Error::io("writing standard output", e))
}

/// Encrypts `plain` under the key file text; the ciphertext file text.
pub fn encrypt_text(
    key_text: &str,
    plain: &[u8],
    encoding: &str,
    workers: usize,
    arith: &Option<String>,
    rng: RngSource,
) -> Result<String, Error> {
    let material = KeyFile::parse(key_text)?;
    let encoding = Encoding::parse(encoding)?;
    let kind = arith_for(material.curve, arith)?;
    let keys = scheme::open(material.curve, kind, Some(&material), rng)?;
    let raw = keys.encrypt_raw(plain, encoding, executor(workers)?.as_ref(), rng)?;
    Ok(CiphertextFile::from_raw(&raw).to_json())
}

/// Decrypts the ciphertext file text with the key file text.
pub fn decrypt_text(
    key_text: &str,
    ct_text: &str,
    workers: usize,
    arith: &Option<String>,
) -> Result<Vec<u8>, Error> {
    let material = KeyFile::parse(key_text)?;
    if material.secret.is_none() {
        return Err(Error::usage(
            "this key file holds only a public key; decrypting needs the secret key file \
             written by `elgamal keygen`",
        ));
    }
    let raw = CiphertextFile::parse(ct_text)?;
    if raw.curve != material.curve {
        return Err(Error::usage(format!(
            "ciphertext is for {}, but the key is for {}",
            raw.curve, material.curve
        )));
    }
    let kind = arith_for(material.curve, arith)?;
    let keys = scheme::open(material.curve, kind, Some(&material), RngSource::Os)?;
    keys.decrypt_raw(&raw, executor(workers)?.as_ref())
}

fn encrypt(e: &EncryptArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let workers = parse_workers(&e.workers)?;
    let key = read_file(&e.key, "key file")?;
    let plain = read_stdin()?;
    let text = encrypt_text(&key, &plain, &e.encoding, workers, &e.arith, rng(cfg))?;
    write_stdout(text.as_bytes())?;
    Ok(SuiteAction::Done(0))
}

fn decrypt(d: &DecryptArgs) -> Result<SuiteAction, Error> {
    let workers = parse_workers(&d.workers)?;
    let key = read_file(&d.key, "key file")?;
    let ct = read_stdin()?;
    let ct =
        String::from_utf8(ct).map_err(|_| Error::usage("ciphertext file is not UTF-8 JSON"))?;
    let plain = decrypt_text(&key, &ct, workers, &d.arith)?;
    write_stdout(&plain)?;
    Ok(SuiteAction::Done(0))
}
