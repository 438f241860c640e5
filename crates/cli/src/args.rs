//! The command line (clap derive). Suite-specific options are defined by
//! each suite crate and only referenced here.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// A cryptographic performance lab: every primitive verified before it is
/// timed, honest statistics, a history of runs, comparisons and reports.
#[derive(Debug, Parser)]
#[command(name = "cryptobench", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// `--seed`: a whole number, with the accepted range when it is not.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "'{text}' is not a whole number (accepted: 0 to {})",
            u64::MAX
        )
    })
}

/// The help heading of the options that shape a measurement.
const MEASUREMENT: &str = "Measurement options";

/// Options common to every command.
#[derive(Debug, Clone, Args)]
pub struct Global {
    /// Smoke run: small grids, short samples.
    #[arg(help_heading = MEASUREMENT, long, global = true, conflicts_with = "full")]
    pub quick: bool,
    /// The seeds' complete grids and longer sampling.
    #[arg(help_heading = MEASUREMENT, long, global = true)]
    pub full: bool,
    /// Sampling time per case (e.g. 500ms, 2s).
    #[arg(
        help_heading = MEASUREMENT,
        long,
        global = true,
        value_name = "DURATION",
        allow_hyphen_values = true
    )]
    pub time: Option<String>,
    /// Stop sampling a case once its median's 95% interval is within this
    /// many percent (default 1); slow cases stop at their time budget.
    #[arg(help_heading = MEASUREMENT, long, global = true, value_name = "PCT", allow_hyphen_values = true)]
    pub precision: Option<String>,
    /// Samples per case (at least 3).
    #[arg(help_heading = MEASUREMENT, long, global = true, value_name = "N", allow_hyphen_values = true)]
    pub samples: Option<String>,
    /// Shortest sample after calibration (default 100us, 2ms with --quick,
    /// 20ms with --full; 2ms at least for a multi-core case).
    #[arg(
        help_heading = MEASUREMENT,
        long,
        global = true,
        value_name = "DURATION",
        allow_hyphen_values = true
    )]
    pub min_sample: Option<String>,
    /// Results database (default $XDG_DATA_HOME/cryptobench/results.db).
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not store this run.
    #[arg(long, global = true)]
    pub no_db: bool,
    /// Export the run: FORMAT:PATH with FORMAT json, csv or md; PATH `-` is stdout. Repeatable.
    #[arg(
        short = 'o',
        long = "output",
        global = true,
        value_name = "FORMAT:PATH"
    )]
    pub outputs: Vec<String>,
    /// Console format: table, json, csv or md.
    #[arg(long, global = true, default_value = "table")]
    pub format: String,
    /// No progress bar and no tables (exports and exit code only).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// More detail (checks per case, warnings).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Terminal tables at full width (default: fit COLUMNS or the terminal, 100 when piped).
    #[arg(long, global = true)]
    pub wide: bool,
    /// Only these backends (comma-separated, e.g. openssl,rustcrypto).
    #[arg(help_heading = MEASUREMENT, long, global = true, value_name = "LIST")]
    pub backend: Option<String>,
    /// Reproducible randomness (for tests).
    #[arg(help_heading = MEASUREMENT, long, global = true, value_name = "N", allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Run each case on N threads at once (multi-thread runner).
    #[arg(help_heading = MEASUREMENT, long, global = true, value_name = "N", allow_hyphen_values = true)]
    pub threads: Option<String>,
    /// Replace an existing file that cryptobench did not write (never a
    /// database).
    #[arg(long, global = true)]
    pub force: bool,
    /// Largest file or stdin input any command reads (default 64MiB).
    #[arg(long, global = true, value_name = "SIZE", allow_hyphen_values = true)]
    pub max_input: Option<String>,
    /// Runtimes twin every native cell, not only the headline ones (set by
    /// `paper`: a seed's table is reproduced whole in each runtime).
    #[arg(skip)]
    pub twin_every_cell: bool,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the suites (default: all), print a summary, store the run and export JSON.
    Run(RunArgs),
    /// What this machine offers: suites, backends (with versions and availability), primitives.
    List(ListArgs),
    /// Hash suite: SHA-2, SHA-3, BLAKE2b.
    Hash(cryptobench_suite_hash::cli::HashArgs),
    /// Cipher suite: every OpenSSL cipher, libmcrypt, RustCrypto.
    Cipher(cryptobench_suite_cipher::cli::CipherArgs),
    /// AEAD suite: AES-GCM, CCM, OCB, GCM-SIV, ChaCha20-Poly1305, AEGIS.
    Aead(cryptobench_suite_aead::cli::AeadArgs),
    /// ECC suite: key generation on every named curve, ECDH, ECDSA/EdDSA.
    Ecc(cryptobench_suite_ecc::cli::EccArgs),
    /// Argon2 suite: grids, `hash`, `verify`, `tune`.
    Argon2(cryptobench_suite_argon2::cli::Argon2Args),
    /// EC-ElGamal: keygen, encrypt, decrypt, bench.
    Elgamal(cryptobench_elgamal::cli::ElgamalArgs),
    /// Public key: ML-KEM, ML-DSA, SLH-DSA, hybrids, RSA, ECDH, signatures; keygen/encaps/decaps/derive/sign/verify files.
    Pubkey(cryptobench_suite_pubkey::cli::PubkeyArgs),
    /// TLS 1.3 handshakes measured (rustls, openssl s_server/s_time) beside the pubkey model.
    Tls(cryptobench_suite_tls::cli::TlsArgs),
    /// Timing-leak screen: two input classes interleaved, Welch's t, leak past |t| 10; controls and A/A in every run.
    Leak(cryptobench_suite_leak::cli::LeakArgs),
    /// List stored runs, newest first.
    Runs,
    /// Show a run as tables (`latest` is the newest `run` on this host).
    Show(ShowArgs),
    /// Export a stored run as json, csv or md.
    Export(ExportArgs),
    /// Compare runs case by case: two of one machine (drift removed), or
    /// several machines side by side with ratios to a baseline.
    Compare(CompareArgs),
    /// Store runs measured on other machines (their JSON files), keeping
    /// each run's id, host and fingerprint.
    Import(ImportArgs),
    /// The seed papers' experiments beside this machine's figures.
    Paper(PaperArgs),
    /// Write a stored run as one self-contained HTML page with charts.
    Report(ReportArgs),
    /// Advice from a stored run's verified measurements (default: the latest).
    Recommend(RecommendArgs),
    /// This machine's noise floor: the same workload twice, paired (an A/A test).
    Noise(NoiseArgs),
    /// Two builds side by side: each case of this build and of OTHER_BINARY
    /// timed in the same rounds, the paired ratio other/this with a verdict.
    Ab(AbArgs),
    /// Serves this build's cases to another build's `ab` (JSON lines on stdin/stdout).
    #[command(hide = true)]
    ServeCells,
}

/// `cryptobench ab`.
#[derive(Debug, Clone, Args)]
pub struct AbArgs {
    /// The other build's cryptobench binary (e.g. the base commit's
    /// target/release/cryptobench); ratios are other/this.
    #[arg(value_name = "OTHER_BINARY")]
    pub other: PathBuf,
    /// Suites, comma-separated (default hash,cipher,aead; also ecc, argon2).
    #[arg(long, value_name = "LIST")]
    pub suite: Option<String>,
    /// Only primitives whose name contains this text (case-insensitive).
    #[arg(long, visible_alias = "primitive", value_name = "TEXT")]
    pub algorithm: Option<String>,
    /// Only these input sizes, comma-separated (e.g. 1KiB,16KiB).
    #[arg(long, value_name = "LIST")]
    pub size: Option<String>,
    #[command(flatten)]
    pub verdict: VerdictArgs,
}

/// `cryptobench noise`.
#[derive(Debug, Clone, Args)]
pub struct NoiseArgs {
    /// How long to measure (default 15s; accepted 1s to 10min).
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub duration: Option<String>,
}

/// `cryptobench recommend`.
#[derive(Debug, Clone, Args)]
pub struct RecommendArgs {
    /// Run: id, unique prefix, `latest[~N]` (the default), `latest-paper`,
    /// `latest-any`, or a run's JSON file.
    pub run: Option<String>,
    /// Argon2id latency targets, comma-separated (default 250ms,500ms,1s).
    #[arg(long, value_name = "LIST")]
    pub target: Option<String>,
    /// Choose among one language runtime's rows only (e.g. python, node, go,
    /// java, php): the best verified choice that runtime offers.
    #[arg(long, value_name = "NAME")]
    pub runtime: Option<String>,
    /// Under each line, the reasoning, the cautions and the measurements it
    /// rests on.
    #[arg(long)]
    pub explain: bool,
}

/// `cryptobench run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Suites to run, comma-separated (default: all).
    #[arg(long, value_name = "LIST")]
    pub suite: Option<String>,
    /// Where to write the HTML report.
    #[arg(long, value_name = "PATH", default_value = "cryptobench-report.html")]
    pub report: std::path::PathBuf,
    /// Do not write the HTML report.
    #[arg(long)]
    pub no_report: bool,
    /// Under `mpirun` (one rank per host): every host runs the suites at
    /// once; rank 0 stores each host's run as one fleet and compares them.
    #[arg(long)]
    pub fleet: bool,
    /// List what would run (cases per suite, a lower bound of the time)
    /// without building or timing anything.
    #[arg(long, conflicts_with = "fleet")]
    pub dry_run: bool,
}

/// `cryptobench list`.
#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// suites, backends or primitives (default: all three).
    pub what: Option<String>,
}

/// Which cases of a stored run `show` and `compare` print.
#[derive(Debug, Clone, Default, Args)]
pub struct CaseFilter {
    /// Only these suites (comma-separated, e.g. aead,hash).
    #[arg(long, value_name = "LIST")]
    pub suite: Option<String>,
    /// Only primitives whose name contains this text (case-insensitive,
    /// e.g. GCM); `--backend LIST` filters backends.
    #[arg(long, visible_alias = "primitive", value_name = "TEXT")]
    pub algorithm: Option<String>,
}

/// `cryptobench show`.
#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// Run: id, unique prefix, `latest[~N]`, `latest-paper`, `latest-any`,
    /// or a run's JSON file.
    pub run: String,
    #[command(flatten)]
    pub filter: CaseFilter,
    /// Every case's table, not only the answer and one line per suite.
    #[arg(long)]
    pub all: bool,
}

/// `cryptobench import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// Run files (what `export --format json` and `runs/RUN.json` hold).
    #[arg(required = true, value_name = "RUN.json")]
    pub files: Vec<PathBuf>,
}

/// `cryptobench export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// Run: id, unique prefix, `latest[~N]`, `latest-paper`, `latest-any`,
    /// or a run's JSON file.
    pub run: String,
    /// Where to write (default stdout).
    #[arg(long = "to", value_name = "PATH")]
    pub to: Option<PathBuf>,
}

/// How `compare` and `ab` decide and gate: one set of options, one rule.
#[derive(Debug, Clone, Args)]
pub struct VerdictArgs {
    /// Threshold in percent (default 2): a case is unchanged only when its
    /// interval (between runs, widened by their noise floors) lies within it.
    #[arg(
        long,
        value_name = "PCT",
        default_value = "2",
        allow_hyphen_values = true
    )]
    pub threshold: String,
    /// A CI gate: exit 1 when any case is slower by more than PCT percent,
    /// or its interval leaves such a slowdown open; exit 0 only when every
    /// case is shown not to regress past PCT.
    #[arg(long, value_name = "PCT", allow_hyphen_values = true)]
    pub fail_on_regression: Option<String>,
    /// With --fail-on-regression: fail only on cases shown slower past
    /// PCT, not on those that could not be decided.
    #[arg(long, requires = "fail_on_regression")]
    pub allow_inconclusive: bool,
}

/// `cryptobench compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The runs (ids, `latest[~N]`, or JSON files): the first is the
    /// baseline unless `--baseline` names one.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// The run the others are compared with (listed or not).
    #[arg(long, value_name = "RUN")]
    pub baseline: Option<String>,
    #[command(flatten)]
    pub filter: CaseFilter,
    #[command(flatten)]
    pub verdict: VerdictArgs,
}

/// `cryptobench paper`.
#[derive(Debug, Clone, Args)]
pub struct PaperArgs {
    /// Experiment name (omit to list them).
    pub name: Option<String>,
    /// `ours` (adaptive precision, paired groups, medians; the default) or
    /// `seed` (the seed's own counts and arithmetic means; may run long,
    /// `--quick` divides the counts by 10)
    #[arg(long, value_name = "METHOD")]
    pub method: Option<String>,
}

/// `cryptobench report`.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// The run the page describes (id, unique prefix, `latest[~N]`, or a
    /// JSON file), then runs of other machines to put side by side.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// Where to write the page (default cryptobench-report.html); `-o FILE` works too.
    #[arg(long = "out", value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The run to compare against (ratios with confidence intervals); with
    /// runs of other machines, the one their ratios are to.
    #[arg(long, value_name = "RUN")]
    pub baseline: Option<String>,
}

/// The measurement options, as typed.
const MEASUREMENT_FLAGS: [&str; 9] = [
    "--quick",
    "--precision",
    "--full",
    "--time",
    "--samples",
    "--min-sample",
    "--threads",
    "--backend",
    "--seed",
];

/// The commands that measure.
const MEASURING: &str =
    "run, hash, cipher, aead, ecc, argon2, elgamal, pubkey, tls, leak, paper and ab";

impl Global {
    /// The global options given on the command line (a `--format` of
    /// `table`, the default, counts as not given).
    pub fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--quick", self.quick),
            ("--full", self.full),
            ("--precision", self.precision.is_some()),
            ("--time", self.time.is_some()),
            ("--samples", self.samples.is_some()),
            ("--min-sample", self.min_sample.is_some()),
            ("--threads", self.threads.is_some()),
            ("--backend", self.backend.is_some()),
            ("--seed", self.seed.is_some()),
            ("--db", self.db.is_some()),
            ("--no-db", self.no_db),
            ("-o", !self.outputs.is_empty()),
            ("--format", !self.format.eq_ignore_ascii_case("table")),
            ("--force", self.force),
        ];
        flags.into_iter().filter(|f| f.1).map(|f| f.0).collect()
    }
}

impl Command {
    /// The command as typed, subcommand included (`argon2 verify`).
    pub fn name(&self) -> &'static str {
        use cryptobench_elgamal::cli::ElgamalCommand as E;
        use cryptobench_suite_argon2::cli::Argon2Command as A;
        match self {
            Command::Run(_) => "run",
            Command::List(_) => "list",
            Command::Hash(_) => "hash",
            Command::Cipher(_) => "cipher",
            Command::Aead(a) if a.command.is_some() => "aead verify",
            Command::Aead(_) => "aead",
            Command::Ecc(_) => "ecc",
            Command::Argon2(a) => match &a.action {
                Some(A::Hash(_)) => "argon2 hash",
                Some(A::Verify(_)) => "argon2 verify",
                Some(A::Tune(_)) => "argon2 tune",
                None => "argon2",
            },
            Command::Elgamal(a) => match &a.command {
                Some(E::Keygen(_)) => "elgamal keygen",
                Some(E::Encrypt(_)) => "elgamal encrypt",
                Some(E::Decrypt(_)) => "elgamal decrypt",
                Some(E::Bench(_)) | None => "elgamal",
            },
            Command::Pubkey(a) => a.name(),
            Command::Tls(_) => "tls",
            Command::Leak(_) => "leak",
            Command::Runs => "runs",
            Command::Show(_) => "show",
            Command::Export(_) => "export",
            Command::Compare(_) => "compare",
            Command::Import(_) => "import",
            Command::Paper(_) => "paper",
            Command::Report(_) => "report",
            Command::Recommend(_) => "recommend",
            Command::Noise(_) => "noise",
            Command::Ab(_) => "ab",
            Command::ServeCells => "serve-cells",
        }
    }

    /// The global options this command reads; any other is refused.
    fn accepts(&self) -> &'static [&'static str] {
        accepted_globals(self.name())
    }

    /// A usage error naming the first global option this command would
    /// silently ignore, what kind of option it is and who takes it.
    pub fn reject_unused(&self, g: &Global) -> Result<(), String> {
        let accepted = self.accepts();
        let Some(flag) = g.given().into_iter().find(|f| !accepted.contains(f)) else {
            return Ok(());
        };
        let cmd = self.name();
        let why = if flag == "--threads" && accepted.contains(&"--quick") {
            format!("`{cmd}` times each case on one thread in each build")
        } else if MEASUREMENT_FLAGS.contains(&flag) {
            format!("{flag} is a measurement option; `{cmd}` does not measure (measurement options apply to {MEASURING})")
        } else {
            match flag {
                "--db" | "--no-db" => format!(
                    "{flag} chooses where runs are stored; `{cmd}` neither reads nor stores runs"
                ),
                "-o" => format!(
                    "-o exports the run a command measures; `{cmd}` writes no export \
                     (a stored run: `cryptobench export RUN --format json --to FILE`)"
                ),
                "--format" => format!(
                    "--format {} is not used by `{cmd}`, which prints no table (--format applies to \
                     the measuring commands, list, runs, show, compare, export, recommend and noise)",
                    g.format
                ),
                _ => format!(
                    "--force lets an output replace a file cryptobench did not write; `{cmd}` writes no file"
                ),
            }
        };
        Err(format!("{why}; drop {flag}"))
    }
}

/// The global options whose use a command checks (the rest, such as
/// `--quiet` and `--wide`, every command takes).
const CHECKED: [&str; 14] = [
    "--quick",
    "--full",
    "--precision",
    "--time",
    "--samples",
    "--min-sample",
    "--threads",
    "--backend",
    "--seed",
    "--db",
    "--no-db",
    "-o",
    "--format",
    "--force",
];

/// The command line definition, its help fitted to the subcommand named
/// in `argv`: `compare --help` offers no `--quick`, and `--backend`, a
/// filter there, is listed among its own options. Only one subcommand's
/// help is ever shown, so the global options are fitted where they are
/// defined; hidden options still parse (and are refused with a reason).
pub fn command(argv: &[std::ffi::OsString]) -> clap::Command {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let words: Vec<&str> = argv.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let Some(at) = words.iter().position(|w| cmd.find_subcommand(w).is_some()) else {
        return cmd;
    };
    let top = words[at];
    let nested = cmd.find_subcommand(top).and_then(|sub| {
        words[at + 1..]
            .iter()
            .find(|w| sub.find_subcommand(w).is_some())
    });
    let name = match nested {
        Some(&"bench") if top == "elgamal" => top.to_string(),
        Some(n) => format!("{top} {n}"),
        None => top.to_string(),
    };
    fit_help(cmd, &name)
}

/// Hides the checked global options `name` does not read.
fn fit_help(mut cmd: clap::Command, name: &str) -> clap::Command {
    let accepted = accepted_globals(name);
    let measures = accepted.contains(&"--quick");
    let flags: Vec<(clap::Id, String)> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .filter_map(|a| {
            let flag = match (a.get_long(), a.get_short()) {
                (_, Some(short)) => format!("-{short}"),
                (Some(long), None) => format!("--{long}"),
                _ => return None,
            };
            Some((a.get_id().clone(), flag))
        })
        .filter(|(_, flag)| CHECKED.contains(&flag.as_str()))
        .collect();
    for (id, flag) in flags {
        let hide = !accepted.contains(&flag.as_str());
        // Outside the measuring commands an accepted option (the filter
        // `--backend`) is one of the command's own.
        let own = !hide && !measures;
        cmd = cmd.mut_arg(id, |a| {
            let a = a.hide(hide);
            if own {
                a.help_heading(None::<&str>)
            } else {
                a
            }
        });
    }
    cmd
}

/// The global options a command (as typed: `argon2 verify`) reads.
pub fn accepted_globals(name: &str) -> &'static [&'static str] {
    // A benchmark command reads every checked option.
    const BENCH: &[&str] = &CHECKED;
    match name {
        "run" | "hash" | "cipher" | "aead" | "ecc" | "argon2" | "elgamal" | "pubkey" | "tls"
        | "paper" => BENCH,
        "pubkey keygen" | "pubkey encaps" | "pubkey sign" => &["--backend", "-o", "--force"],
        "pubkey decaps" | "pubkey derive" | "pubkey verify" => &["--backend"],
        "argon2 hash" | "argon2 tune" => &["--backend", "--seed"],
        // One case at a time on one thread, no precision target: a screen
        // stops at its count of measurements or its time.
        "leak" => &[
            "--quick",
            "--full",
            "--time",
            "--backend",
            "--seed",
            "--db",
            "--no-db",
            "-o",
            "--format",
            "--force",
        ],
        "argon2 verify" | "aead verify" => &["--backend"],
        "elgamal keygen" => &["--seed", "-o", "--force"],
        "elgamal encrypt" => &["--seed"],
        "show" | "compare" => &["--db", "--format", "--backend"],
        "export" => &["--db", "--format", "--force"],
        "report" => &["--db", "-o", "--force"],
        "recommend" | "runs" => &["--db", "--format"],
        "import" => &["--db"],
        "noise" | "list" => &["--format"],
        // Every measurement option but --threads: both builds' cases run on one thread.
        "ab" => &[
            "--quick",
            "--full",
            "--precision",
            "--time",
            "--samples",
            "--min-sample",
            "--backend",
            "--seed",
            "--db",
            "--no-db",
            "-o",
            "--format",
            "--force",
        ],
        _ => &[],
    }
}
