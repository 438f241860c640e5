//! Command-line interface of `cryptobench argon2`.
//!
//! Without a subcommand it benchmarks the grid (flags below narrow or widen
//! it). `hash` prints a PHC string byte-identical to the reference CLI's
//! `argon2 SALT -id -t 3 -k 65536 -p 4 -l 32 -e`, `verify` checks one, and
//! `tune` picks parameters for a target time ([`crate::tune`]). Passwords are
//! read from stdin, all of it, as the reference CLI does (no newline is
//! stripped: `echo -n` matters).

use crate::cases::{self, Grid};
use crate::engines::{self, Hasher, Inputs};
use crate::params::{self, Params, Variant, Version};
use crate::tune::TuneError;
use crate::vectors::SplitMix;
use crate::{landing, limits, memory, phc, tune, Argon2Suite};
use cryptobench_core::{units, Error, RunConfig, SuiteAction};
use cryptobench_engine::sample::clock::{Clock, MonotonicClock};
use std::io::Read;
use std::time::Duration;

/// Options of `cryptobench argon2`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Argon2Args {
    /// hash | verify | tune; without one, the benchmark runs.
    #[command(subcommand)]
    pub action: Option<Argon2Command>,
    /// Variants to measure: i, d, id (comma-separated) or all.
    #[arg(long, value_name = "LIST")]
    pub variants: Option<String>,
    /// Memory sizes: a list (16MiB,64MiB) or a doubling range (16MiB..1GiB).
    #[arg(long, value_name = "SIZES", allow_hyphen_values = true)]
    pub memory: Option<String>,
    /// Lane counts (1 to 255): a list (1,2,4,8) or a doubling range (1..8).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub lanes: Option<String>,
    /// Worker threads per hash (1 to 255, at most the lanes); one per lane
    /// unless given. The global `--threads N` (N > 1) means the same here.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = ranged::<u32>(1, limits::MAX_LANES as i64))]
    pub workers: Option<u32>,
    /// Passes (1 to 1000): a list (1,3,6) or a range counting up (1..3).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub iterations: Option<String>,
}

/// The subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum Argon2Command {
    /// Hash the password on stdin; print the PHC string (or the hex tag).
    Hash(HashArgs),
    /// Check the password on stdin against a PHC string (exit 0 = match, 1 = no
    /// match, 2 = bad input or over a cap, 3 = the hash could not be computed).
    Verify(VerifyArgs),
    /// Choose parameters for a target time on this machine (RFC 9106 section 4).
    Tune(TuneArgs),
}

/// `argon2 hash`.
#[derive(Debug, Clone, clap::Args)]
pub struct HashArgs {
    /// i, d or id.
    #[arg(long, default_value = "id")]
    pub variant: String,
    /// Memory (e.g. 64MiB, 65536KiB).
    #[arg(long, default_value = "64MiB", allow_hyphen_values = true)]
    pub memory: String,
    /// Passes over memory (t), 1 to 1000.
    #[arg(long, short = 't', default_value_t = 3, allow_hyphen_values = true, value_parser = ranged::<u32>(1, limits::MAX_PASSES as i64))]
    pub iterations: u32,
    /// Lanes (p), 1 to 255.
    #[arg(long, short = 'p', default_value_t = 4, allow_hyphen_values = true, value_parser = ranged::<u32>(1, limits::MAX_LANES as i64))]
    pub lanes: u32,
    /// Tag length in bytes, 4 to 1024.
    #[arg(long, short = 'l', default_value_t = 32, allow_hyphen_values = true, value_parser = ranged::<usize>(4, MAX_TAG_LEN as i64))]
    pub length: usize,
    /// Salt as text (at least 8 bytes); a random 16-byte salt when absent.
    #[arg(long)]
    pub salt: Option<String>,
    /// Algorithm version: 13 (RFC 9106) or 10.
    #[arg(long = "argon2-version", default_value = "13")]
    pub argon2_version: String,
    /// Print the tag in hex instead of the PHC string.
    #[arg(long)]
    pub raw: bool,
    /// Refuse a hash needing more memory than this.
    #[arg(long, value_name = "SIZE", default_value = limits::DEFAULT_MAX_MEMORY, allow_hyphen_values = true)]
    pub max_memory: String,
    /// Refuse a hash estimated to take longer than this (see `verify`).
    #[arg(long, value_name = "DURATION", default_value = limits::DEFAULT_MAX_TIME, allow_hyphen_values = true)]
    pub max_time: String,
    /// Also print how long the hash took, on stderr (`hash took 298.4 ms`).
    #[arg(long = "print-time")]
    pub took: bool,
}

/// `argon2 verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// The PHC string, e.g. '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$...'.
    #[arg(allow_hyphen_values = true)]
    pub phc: String,
    /// Refuse a string whose m is larger than this (it is untrusted input).
    #[arg(long, value_name = "SIZE", default_value = limits::DEFAULT_MAX_MEMORY, allow_hyphen_values = true)]
    pub max_memory: String,
    /// Refuse a string whose estimated time (m x t at 500 MB/s per thread,
    /// threads up to the cores) is longer than this, before hashing.
    #[arg(long, value_name = "DURATION", default_value = limits::DEFAULT_MAX_TIME, allow_hyphen_values = true)]
    pub max_time: String,
}

/// `argon2 tune`.
#[derive(Debug, Clone, clap::Args)]
pub struct TuneArgs {
    /// Target time of one hash (1ms to 1h).
    #[arg(long, default_value = "500ms", allow_hyphen_values = true)]
    pub target: String,
    /// Largest memory one hash may use (also bounds the published profiles timed).
    #[arg(long, default_value = "1GiB", allow_hyphen_values = true)]
    pub max_memory: String,
    /// i, d or id.
    #[arg(long, default_value = "id")]
    pub variant: String,
    /// Lanes: a number from 1 to 255, or auto (one per core).
    #[arg(long, default_value = "auto", allow_hyphen_values = true)]
    pub lanes: String,
    /// Keep RFC 9106's choice (largest t at full memory) even below the target.
    #[arg(long)]
    pub strict: bool,
    /// Runs per measurement (median; 3 to 100).
    #[arg(long, default_value_t = 5, allow_hyphen_values = true, value_parser = ranged::<usize>(3, MAX_TUNE_RUNS as i64))]
    pub runs: usize,
    /// Do not measure the published profiles.
    #[arg(long)]
    pub no_profiles: bool,
}

/// The longest tag `hash` writes: 1 KiB (RFC 9106 allows 2^32 - 1 bytes,
/// which no use needs).
pub const MAX_TAG_LEN: usize = 1024;
/// The shortest `tune --target`: below a millisecond no Argon2 point that
/// RFC 9106 admits is meaningful.
const MIN_TUNE_TARGET: Duration = Duration::from_millis(1);
/// The most runs per `tune` measurement.
pub const MAX_TUNE_RUNS: usize = 100;
/// Exit code of `verify` when hashing itself failed (neither a match, 0,
/// nor a mismatch, 1, nor bad input, 2).
pub const EXIT_VERIFY_INTERNAL: u8 = 3;

/// A clap parser for a whole number in `min..=max` that reads negative
/// numbers too, so `-1` is reported as out of the accepted range.
fn ranged<T>(min: i64, max: i64) -> clap::builder::RangedI64ValueParser<T>
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
    <T as TryFrom<i64>>::Error: Send + Sync + 'static + std::error::Error + ToString,
{
    clap::builder::RangedI64ValueParser::<T>::new().range(min..=max)
}

/// Runs `cryptobench argon2 ...`.
pub fn command(args: &Argon2Args, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    match &args.action {
        None => {
            // No grid flag: the run's own grids (`--full`'s reach past its
            // shared sweep included). Flags that happen to name the
            // default grid still mean that grid alone.
            let grid = names_a_grid(args, cfg)
                .then(|| grid(args, cfg))
                .transpose()?;
            Ok(SuiteAction::Bench(vec![Box::new(Argon2Suite { grid })]))
        }
        Some(Argon2Command::Hash(h)) => {
            let password = read_password()?;
            println!("{}", hash(h, cfg, &password)?);
            Ok(SuiteAction::Done(0))
        }
        Some(Argon2Command::Verify(v)) => {
            let caps = limits::Caps::parse(&v.max_memory, &v.max_time)?;
            let parsed = phc::parse(&v.phc)?;
            caps.check(&parsed.params, limits::cores())?;
            let password = read_password()?;
            match verify_parsed(&parsed, cfg, &password) {
                Ok(true) => {
                    println!("verification ok");
                    Ok(SuiteAction::Done(0))
                }
                Ok(false) => {
                    println!("verification failed: the password does not match");
                    Ok(SuiteAction::Done(1))
                }
                Err(why @ (Error::Suite(_) | Error::Failed { .. })) => {
                    eprintln!(
                        "error: internal failure, the hash could not be computed: {why} (exit {EXIT_VERIFY_INTERNAL})"
                    );
                    Ok(SuiteAction::Done(EXIT_VERIFY_INTERNAL))
                }
                Err(e) => Err(e),
            }
        }
        Some(Argon2Command::Tune(t)) => run_tune(t, cfg),
    }
}

/// Whether a flag shapes the grid: `--variants`, `--iterations`,
/// `--memory`, `--lanes`, `--workers`, or the global `--threads` above 1.
fn names_a_grid(args: &Argon2Args, cfg: &RunConfig) -> bool {
    args.variants.is_some()
        || args.iterations.is_some()
        || args.memory.is_some()
        || args.lanes.is_some()
        || args.workers.is_some()
        || cfg.threads > 1
}

/// The benchmark grid: the run's default (`--quick` / `--full`) with the
/// dimensions the flags name replaced.
pub fn grid(args: &Argon2Args, cfg: &RunConfig) -> Result<Grid, Error> {
    let mut grid = Grid::for_config(cfg);
    let variants = args
        .variants
        .as_deref()
        .map(Variant::parse_list)
        .transpose()?;
    let iterations = args
        .iterations
        .as_deref()
        .map(|s| params::parse_count_list("--iterations", s, false, limits::MAX_PASSES))
        .transpose()?;
    match (variants, iterations) {
        (None, None) => {}
        (Some(vs), None) => {
            let mut cells: Vec<(Variant, u32)> = grid
                .cells
                .iter()
                .copied()
                .filter(|(v, _)| vs.contains(v))
                .collect();
            for v in vs {
                if !cells.iter().any(|(c, _)| *c == v) {
                    cells.push((v, 3));
                }
            }
            grid.cells = cells;
        }
        (vs, Some(ts)) => {
            let vs = vs.unwrap_or_else(|| {
                let mut seen: Vec<Variant> = Vec::new();
                for (v, _) in &grid.cells {
                    if !seen.contains(v) {
                        seen.push(*v);
                    }
                }
                seen
            });
            grid.cells = Grid::cross(&vs, &ts, Vec::new(), Vec::new()).cells;
        }
    }
    if let Some(m) = &args.memory {
        grid.memory_kib = params::parse_memory_list(m)?;
    }
    if let Some(l) = &args.lanes {
        grid.lanes = params::parse_count_list("--lanes", l, true, limits::MAX_LANES)?;
    }
    // The global --threads runs copies of a case at once elsewhere; for
    // Argon2 the seed's "threads" are the workers filling one hash's lanes.
    let global = (cfg.threads > 1).then_some(cfg.threads);
    if let Some(n) = args.workers.or(global) {
        if n == 0 || n > limits::MAX_LANES {
            return Err(Error::usage(format!(
                "--workers (or --threads): {n} is out of range (accepted: 1 to {})",
                limits::MAX_LANES
            )));
        }
        grid.threads = Some(n);
    }
    Ok(grid)
}

fn read_password() -> Result<Vec<u8>, Error> {
    cryptobench_core::input::read_bounded("the password on stdin", std::io::stdin().lock())
}

/// The library that computes `hash` / `verify` / `tune`: the first of
/// libargon2, RustCrypto, libsodium that `--backend` admits, that is present
/// and takes the point.
fn pick_hasher(
    cfg: &RunConfig,
    params: &Params,
    inputs: &Inputs,
) -> Result<Box<dyn Hasher>, Error> {
    let mut reasons = Vec::new();
    for h in engines::all() {
        if h.name() == engines::CLI || !cfg.wants_backend(h.name()) {
            continue;
        }
        match h.available().and_then(|_| h.supports(params, inputs)) {
            Ok(()) => return Ok(h),
            Err(why) => reasons.push(format!("{}: {why}", h.name())),
        }
    }
    Err(Error::usage(format!(
        "no library backend can compute this hash ({}); accepted backends: libargon2, rustcrypto, libsodium",
        if reasons.is_empty() { "none selected".to_string() } else { reasons.join("; ") }
    )))
}

fn guard_memory(params: &Params) -> Result<(), Error> {
    memory::check(params.memory_bytes(), memory::available_bytes())
        .map_err(|why| Error::failed(params.label(), why))
}

/// `argon2 hash`: the PHC string (or hex tag with `--raw`).
pub fn hash(args: &HashArgs, cfg: &RunConfig, password: &[u8]) -> Result<String, Error> {
    let params = Params {
        variant: Variant::parse(&args.variant)?,
        version: Version::parse(&args.argon2_version)?,
        m_kib: params::parse_memory_kib(&args.memory)?,
        t: args.iterations,
        lanes: args.lanes,
        threads: args.lanes,
        tag_len: args.length,
    };
    params.validate()?;
    limits::Caps::parse(&args.max_memory, &args.max_time)?.check(&params, limits::cores())?;
    let salt = match &args.salt {
        Some(s) => s.as_bytes().to_vec(),
        None => random_salt(cfg),
    };
    params::validate_salt(&salt)?;
    guard_memory(&params)?;
    let inputs = Inputs {
        password: password.to_vec(),
        salt,
        ..Inputs::default()
    };
    let hasher = pick_hasher(cfg, &params, &inputs)?;
    let mut tag = vec![0u8; params.tag_len];
    let started = std::time::Instant::now();
    hasher
        .hash(&params, &inputs, &mut tag)
        .map_err(|e| Error::Suite(Box::new(e)))?;
    if args.took {
        eprintln!("{HASH_TOOK}{:.1} ms", started.elapsed().as_secs_f64() * 1e3);
    }
    Ok(if args.raw {
        hex::encode(&tag)
    } else {
        phc::encode(&params, &inputs.salt, &tag)
    })
}

fn random_salt(cfg: &RunConfig) -> Vec<u8> {
    let mut salt = vec![0u8; cases::SALT_LEN];
    let from_os = cfg.seed.is_none()
        && std::fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut salt))
            .is_ok();
    if !from_os {
        salt = SplitMix::new(crate::vectors::fresh_seed(cfg.seed)).bytes(cases::SALT_LEN);
    }
    salt
}

/// `argon2 verify`: whether the password matches the PHC string, under the
/// default caps of [`limits`].
pub fn verify(text: &str, cfg: &RunConfig, password: &[u8]) -> Result<bool, Error> {
    let parsed = phc::parse(text)?;
    limits::Caps::parse(limits::DEFAULT_MAX_MEMORY, limits::DEFAULT_MAX_TIME)?
        .check(&parsed.params, limits::cores())?;
    verify_parsed(&parsed, cfg, password)
}

/// Whether the password matches an already parsed and capped PHC string.
fn verify_parsed(parsed: &phc::Phc, cfg: &RunConfig, password: &[u8]) -> Result<bool, Error> {
    guard_memory(&parsed.params)?;
    let inputs = Inputs {
        password: password.to_vec(),
        salt: parsed.salt.clone(),
        ..Inputs::default()
    };
    let hasher = pick_hasher(cfg, &parsed.params, &inputs)?;
    let mut tag = vec![0u8; parsed.params.tag_len];
    hasher
        .hash(&parsed.params, &inputs, &mut tag)
        .map_err(|e| Error::Suite(Box::new(e)))?;
    Ok(phc::tags_equal(&tag, &parsed.tag))
}

/// Median time of `runs` hashes at `params`, on the engine's clock.
fn time_point(
    hasher: &dyn Hasher,
    params: &Params,
    inputs: &Inputs,
    runs: usize,
) -> Result<Duration, TuneError> {
    memory::check(params.memory_bytes(), memory::available_bytes())?;
    let clock = MonotonicClock;
    let mut out = vec![0u8; params.tag_len];
    let mut times_ns = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = clock.now_ns();
        hasher.hash(params, inputs, &mut out)?;
        times_ns.push(clock.now_ns().saturating_sub(start) as f64);
        std::hint::black_box(&out);
    }
    let median = cryptobench_stats::median(&times_ns);
    Ok(Duration::from_nanos(if median.is_finite() {
        median as u64
    } else {
        0
    }))
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn run_tune(args: &TuneArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let target = units::parse_duration_within(&args.target, MIN_TUNE_TARGET, units::MAX_DURATION)
        .map_err(|e| Error::usage(format!("--target: {e}")))?;
    let cores = limits::cores();
    let lanes = if names_auto(&args.lanes) {
        cores.min(limits::MAX_LANES)
    } else {
        units::parse_count(&args.lanes, 1, u64::from(limits::MAX_LANES))
            .map_err(|e| Error::usage(format!("--lanes: {e}, or auto")))? as u32
    };
    let mut budget = params::parse_memory_kib(&args.max_memory)?;
    let max_memory_kib = budget;
    if !(3..=MAX_TUNE_RUNS).contains(&args.runs) {
        return Err(Error::usage(format!(
            "--runs must be at least 3 (a median of three or more) and at most {MAX_TUNE_RUNS}, {} was given",
            args.runs
        )));
    }
    let variant = Variant::parse(&args.variant)?;
    let base = Params {
        threads: lanes,
        ..Params::new(variant, budget, 1, lanes)
    };
    base.validate()?;
    let mut notes = Vec::new();
    if let Some(avail) = memory::available_bytes() {
        let usable_kib =
            (avail.saturating_sub(memory::margin(avail)) / 1024).min(u64::from(u32::MAX)) as u32;
        if usable_kib < budget {
            notes.push(format!(
                "memory budget lowered from {} to {} (what this machine has free)",
                units::format_size(u64::from(budget) * 1024),
                units::format_size(u64::from(usable_kib) * 1024)
            ));
            budget = usable_kib;
        }
    }
    let base = Params {
        m_kib: budget,
        ..base
    };
    base.validate()?;
    let inputs = Inputs {
        password: b"correct horse battery staple".to_vec(),
        salt: SplitMix::new(crate::vectors::fresh_seed(cfg.seed)).text(cases::SALT_LEN),
        ..Inputs::default()
    };
    let hasher = pick_hasher(cfg, &base, &inputs)?;
    println!(
        "tuning {} with {lanes} lanes ({cores} cores), memory budget {}, target {} on {}",
        variant.name(),
        units::format_size(base.memory_bytes()),
        ms(target),
        hasher.version()
    );
    for n in &notes {
        println!("  note: {n}");
    }
    let request = tune::Request {
        base,
        target,
        strict: args.strict,
    };
    let mut measure = |p: &Params| {
        let d = time_point(hasher.as_ref(), p, &inputs, args.runs)?;
        println!("  tried {:<40} {:>10}", phc::prefix(p), ms(d));
        Ok(d)
    };
    let start = match tune::search(&request, &mut measure) {
        Ok(outcome) => {
            print_search(&outcome, &base);
            outcome.chosen.params
        }
        // A point timed in a slow moment can end the search early; one
        // pass at the smallest memory it reached is where landing starts,
        // and landing says whether the machine can hold any setting.
        Err(TuneError::TargetTooShort {
            m_kib, ms: took, ..
        }) if m_kib > 8 * lanes => {
            println!("\nthe search ended at m = {m_kib} KiB, one pass, at {took:.0} ms; landing from there");
            Params {
                m_kib,
                t: 1,
                ..base
            }
        }
        Err(e) => return Err(Error::Suite(Box::new(e))),
    };
    let landing = land_in_use(&start, target, base.m_kib, hasher.name())?;
    let code = match landing.landed_params() {
        Some(step) => {
            println!("chosen: {}", phc::prefix(&step.params));
            println!(
                "  measured {} in use (median of {} `argon2 hash` processes), {:+.1}% of the target",
                ms(step.median),
                step.times.len(),
                step.off_by(target) * 100.0
            );
            0
        }
        None => {
            let (lo, hi) = spread_of(&landing.steps);
            println!(
                "could not tune on this machine: no setting's median landed within +-{:.0}% of {} in {} tries, or one setting's hashes scattered wider than that; its hashes took {} to {} (the spread, not a parameter set)",
                landing::BAND * 100.0,
                ms(target),
                landing.steps.len(),
                ms(lo),
                ms(hi)
            );
            1
        }
    };
    if !args.no_profiles {
        print_profiles(hasher.as_ref(), &inputs, target, args.runs, max_memory_kib);
    }
    Ok(SuiteAction::Done(code))
}

/// The search's RFC 9106 choice and, when it differs, the filled one.
fn print_search(outcome: &tune::Outcome, base: &Params) {
    println!();
    let how = if outcome.rfc.params.m_kib < base.m_kib {
        "one pass on the most memory within the target"
    } else {
        "largest t at the full memory budget"
    };
    println!(
        "RFC 9106 section 4 choice ({how}): {}  {}",
        phc::prefix(&outcome.rfc.params),
        ms(outcome.rfc.time)
    );
    if outcome.chosen != outcome.rfc {
        println!(
            "searched: {} (t + 1 passes on less memory fills the target; --strict keeps the RFC choice)",
            phc::prefix(&outcome.chosen.params)
        );
    }
}

/// The text `argon2 hash --print-time` puts before its time in milliseconds.
const HASH_TOOK: &str = "hash took ";
/// Processes timed per landing step.
const LANDING_RUNS: usize = 5;

/// The chosen parameters hashed as a service would hash them, each time
/// by `argon2 hash` in a fresh process with `backend`, refined until their
/// median lands ([`landing::land`]); every step is printed.
fn land_in_use(
    start: &Params,
    target: Duration,
    max_m_kib: u32,
    backend: &str,
) -> Result<landing::Landing, Error> {
    let mut measure = |p: &Params| {
        let times = (0..LANDING_RUNS)
            .map(|_| hash_in_fresh_process(p, backend))
            .collect::<Result<Vec<_>, _>>()?;
        let median = tune::median(times.clone());
        println!(
            "  in use {:<38} {:>10} (median of {LANDING_RUNS} processes)",
            phc::prefix(p),
            ms(median)
        );
        Ok(times)
    };
    landing::land(*start, target, max_m_kib, &mut measure).map_err(|e| Error::Suite(Box::new(e)))
}

/// The time one `argon2 hash --print-time` of this binary reports for `p`.
fn hash_in_fresh_process(p: &Params, backend: &str) -> Result<Duration, TuneError> {
    use std::io::Write;
    let exe = std::env::current_exe()
        .map_err(|e| TuneError::Process(format!("cannot find this program: {e}")))?;
    let memory = format!("{}KiB", p.m_kib);
    let version = if p.version == Version::V13 {
        "13"
    } else {
        "10"
    };
    let variant = match p.variant {
        Variant::D => "d",
        Variant::I => "i",
        Variant::Id => "id",
    };
    let mut child = std::process::Command::new(exe)
        .args([
            "--backend",
            backend,
            "argon2",
            "hash",
            "--print-time",
            "--raw",
        ])
        .args(["--variant", variant, "--argon2-version", version])
        .args([
            "--memory",
            &memory,
            "--max-memory",
            &memory,
            "--max-time",
            "60m",
        ])
        .args(["-t", &p.t.to_string(), "-p", &p.lanes.to_string()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| TuneError::Process(format!("cannot start `argon2 hash`: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"correct horse battery staple");
    }
    let out = child
        .wait_with_output()
        .map_err(|e| TuneError::Process(format!("`argon2 hash` did not finish: {e}")))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix(HASH_TOOK)?
                .strip_suffix(" ms")?
                .parse::<f64>()
                .ok()
        })
        .filter(|v| out.status.success() && v.is_finite() && *v >= 0.0)
        .map(|v| Duration::from_secs_f64(v / 1e3))
        .ok_or_else(|| {
            TuneError::Process(format!(
                "`argon2 hash` gave no time ({}): {}",
                out.status,
                stderr.trim()
            ))
        })
}

/// The fastest and slowest hash over every landing step.
fn spread_of(steps: &[landing::Step]) -> (Duration, Duration) {
    let all = steps.iter().map(landing::Step::range);
    let lo = all.clone().map(|r| r.0).min().unwrap_or_default();
    let hi = all.map(|r| r.1).max().unwrap_or_default();
    (lo, hi)
}

fn names_auto(s: &str) -> bool {
    cryptobench_core::names::fold(s) == "auto"
}

fn print_profiles(
    hasher: &dyn Hasher,
    inputs: &Inputs,
    target: Duration,
    runs: usize,
    max_memory_kib: u32,
) {
    println!();
    println!("published profiles on this machine ({}):", hasher.name());
    println!(
        "  {:<32} {:<34} {:>10} {:>9}  source",
        "profile", "PHC prefix", "time", "target"
    );
    for p in tune::PROFILES {
        let prefix = phc::prefix(&p.params);
        // One run for profiles slower than 2 s, so tune stays under a minute.
        let cost = cases::expected_ns(&p.params, 2) * 1e-9;
        let n = if cost > 2.0 { 1 } else { runs };
        if p.params.m_kib > max_memory_kib {
            println!(
                "  {:<32} {:<34} skipped: needs {}, over --max-memory {}",
                p.name,
                prefix,
                units::format_size(p.params.memory_bytes()),
                units::format_size(u64::from(max_memory_kib) * 1024)
            );
            continue;
        }
        match time_point(hasher, &p.params, inputs, n) {
            Ok(d) => println!(
                "  {:<32} {:<34} {:>10} {:>8.0}%  {}{}",
                p.name,
                prefix,
                ms(d),
                d.as_secs_f64() / target.as_secs_f64() * 100.0,
                p.source,
                if n == 1 { " (1 run)" } else { "" }
            ),
            Err(why) => println!("  {:<32} {:<34} skipped: {why}", p.name, prefix),
        }
    }
}
