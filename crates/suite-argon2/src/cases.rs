//! The grid and its cases: which points exist, on which backends, and what
//! one timed operation is.
//!
//! One operation is one complete hash at the point's parameters, memory
//! allocation and release included (that is what a login costs; all four
//! backends allocate per call). For the CLI it is one whole process: spawn,
//! password on stdin, hash, hex on stdout, exit. Points above ~10 ms are
//! sampled one hash at a time (`fixed_iterations = 1`).

use crate::engines::{self, Cli, HashError, Hasher, Inputs, CLI, LIBARGON2, RUSTCRYPTO};
use crate::memory;
use crate::params::{Params, Variant};
use crate::vectors::{self, SplitMix};
use cryptobench_core::{
    BatchTime, Case, CaseError, CaseSpec, CheckOutcome, CheckResult, PlannedCase, RunConfig,
};
use cryptobench_engine::sample::clock::{Clock, MonotonicClock};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Suite name.
pub const SUITE: &str = "argon2";
/// The operation of a grid point.
pub const OP_HASH: &str = "hash";
/// The CLI's start-up cost: a hash at the smallest parameters.
pub const OP_STARTUP: &str = "startup";
/// Seed 000 section 2.2: every test used a 32-byte tag.
pub const TAG_LEN: usize = 32;
/// Issue 6: a 16-byte salt (libsodium's only salt size).
pub const SALT_LEN: usize = 16;
/// Random points per backend and variant in the agreement check.
const AGREEMENT_POINTS: usize = 4;
/// Operations slower than this are sampled one at a time.
const SLOW_NS: f64 = 10e6;

/// The parameter grid of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// (variant, iterations) cells.
    pub cells: Vec<(Variant, u32)>,
    /// Memory sizes, KiB.
    pub memory_kib: Vec<u32>,
    /// Lane counts.
    pub lanes: Vec<u32>,
    /// Worker threads; `None` = one per lane.
    pub threads: Option<u32>,
    /// Backends this grid runs on (`None`: all that `--backend` admits).
    pub backends: Option<Vec<String>>,
    /// Whether runtimes plan their twins beside this grid's cells.
    pub twinned: bool,
}

/// Seed 000's Table 9 (the argon2 CLI): Argon2d 1 pass, Argon2i 3 passes.
pub const TABLE_9_CELLS: [(Variant, u32); 2] = [(Variant::D, 1), (Variant::I, 3)];
/// Seed 000's Table 10 (PHP, i.e. libargon2): Argon2i 1, 3 and 6 passes.
pub const TABLE_10_CELLS: [(Variant, u32); 3] = [(Variant::I, 1), (Variant::I, 3), (Variant::I, 6)];
/// RFC 9106's two recommended settings are Argon2id at 1 and 3 passes.
pub const RFC_9106_CELLS: [(Variant, u32); 2] = [(Variant::Id, 1), (Variant::Id, 3)];
/// `--full`: every backend and runtime sweeps memory up to here (the
/// default grid's top); past it, only seed 000's own setup.
pub const FULL_SHARED_KIB: u32 = 64 << 10;
/// `--full`: seed 000's largest memory, 1 GiB.
pub const FULL_TOP_KIB: u32 = 1 << 20;

impl Grid {
    /// Every variant with every iteration count.
    pub fn cross(
        variants: &[Variant],
        iterations: &[u32],
        memory_kib: Vec<u32>,
        lanes: Vec<u32>,
    ) -> Self {
        let cells = variants
            .iter()
            .flat_map(|v| iterations.iter().map(move |t| (*v, *t)))
            .collect();
        Self::of(cells, memory_kib, lanes)
    }
    /// These cells at these sizes and lane counts, one thread per lane, on
    /// every backend, with runtime twins.
    pub fn of(cells: Vec<(Variant, u32)>, memory_kib: Vec<u32>, lanes: Vec<u32>) -> Self {
        Self {
            cells,
            memory_kib,
            lanes,
            threads: None,
            backends: None,
            twinned: true,
        }
    }
    /// This grid on `backend` only.
    pub fn on(self, backend: &str) -> Self {
        Self {
            backends: Some(vec![backend.to_string()]),
            ..self
        }
    }
    /// This grid with no runtime twins beside its cells
    /// ([`CaseSpec::without_twins`] on every case).
    pub fn without_twins(self) -> Self {
        Self {
            twinned: false,
            ..self
        }
    }
    /// `--quick`: a few small points, seconds in all.
    pub fn quick() -> Self {
        let cells = vec![(Variant::D, 1), (Variant::I, 3), (Variant::Id, 1)];
        Self::of(cells, vec![8 << 10, 16 << 10], vec![1, 2])
    }
    /// The default: seed Table 9's cells (Argon2d 1 pass, Argon2i 3 passes)
    /// plus Argon2id at 3 passes, at 16 and 64 MiB (RFC 9106's second
    /// recommended setting is 64 MiB, t = 3), 1 and 2 lanes, every backend
    /// and twin: under a minute. At 256 MiB one hash takes about a second,
    /// so the five calls a 95% interval needs cost more than the rest of
    /// the suite; the memory sweep (16 MiB to 1 GiB) is `--full`'s and
    /// `argon2 --memory`'s, and `argon2 tune` finds a setting for a target.
    pub fn standard() -> Self {
        let cells = vec![(Variant::D, 1), (Variant::I, 3), (Variant::Id, 3)];
        Self::of(cells, vec![16 << 10, 64 << 10], vec![1, 2])
    }
    /// `--full`'s shared sweep: seed 000's cells (Tables 9 and 10) and
    /// RFC 9106's, at 16 to 64 MiB and seed 000's 1 to 8 lanes, on every
    /// backend and runtime. [`Grid::full_beyond`] goes on to 1 GiB.
    pub fn full() -> Self {
        Self::of(
            Self::full_cells(),
            doubling(16 << 10, FULL_SHARED_KIB),
            vec![1, 2, 4, 8],
        )
    }
    /// Seed 000's and RFC 9106's cells, in that order, once each.
    pub fn full_cells() -> Vec<(Variant, u32)> {
        let mut cells: Vec<(Variant, u32)> = Vec::new();
        for c in TABLE_9_CELLS
            .iter()
            .chain(&TABLE_10_CELLS)
            .chain(&RFC_9106_CELLS)
        {
            if !cells.contains(c) {
                cells.push(*c);
            }
        }
        cells
    }
    /// `--full` past the shared sweep, 128 MiB to 1 GiB: seed 000's own
    /// setup (the CLI at Table 9's cells, libargon2, which PHP calls, at
    /// Table 10's) and libargon2 at RFC 9106's cells, without runtime twins.
    /// Every backend and twin at every such point would take hours (a
    /// 1 GiB, 6-pass hash takes seconds and needs five); `argon2 --memory
    /// 128MiB..1GiB --backend X` and `paper argon2 --full` measure more.
    pub fn full_beyond() -> Vec<Self> {
        let memory = doubling(FULL_SHARED_KIB * 2, FULL_TOP_KIB);
        let lanes = vec![1, 2, 4, 8];
        let mut libargon2 = TABLE_10_CELLS.to_vec();
        libargon2.extend(RFC_9106_CELLS);
        [
            Self::of(TABLE_9_CELLS.to_vec(), memory.clone(), lanes.clone()).on(CLI),
            Self::of(libargon2, memory, lanes).on(LIBARGON2),
        ]
        .into_iter()
        .map(Self::without_twins)
        .collect()
    }
    /// The grid `RunConfig` asks for when no grid flag was given.
    pub fn for_config(cfg: &RunConfig) -> Self {
        if cfg.full {
            Self::full()
        } else if cfg.quick {
            Self::quick()
        } else {
            Self::standard()
        }
    }
    /// Every grid a run plans when no grid flag was given: [`Grid::for_config`]
    /// and, with `--full`, [`Grid::full_beyond`].
    pub fn all_for_config(cfg: &RunConfig) -> Vec<Self> {
        let mut grids = vec![Self::for_config(cfg)];
        if cfg.full {
            grids.extend(Self::full_beyond());
        }
        grids
    }
    /// Every point, in plan order (memory outermost so a progress bar's ETA
    /// grows steadily).
    pub fn points(&self) -> Vec<Params> {
        let mut out = Vec::new();
        for &m in &self.memory_kib {
            for &(variant, t) in &self.cells {
                for &lanes in &self.lanes {
                    let mut p = Params::new(variant, m, t, lanes);
                    p.threads = self.threads.map_or(lanes, |n| n.min(lanes));
                    p.tag_len = TAG_LEN;
                    out.push(p);
                }
            }
        }
        out
    }
}

/// `from`, `2 from`, `4 from`, ... up to `to` (KiB).
pub(crate) fn doubling(from: u32, to: u32) -> Vec<u32> {
    std::iter::successors(Some(from), |m| m.checked_mul(2))
        .take_while(|m| *m <= to)
        .collect()
}

/// Checks of one backend x variant, run once and shared by its cases.
type Family = Arc<OnceLock<Vec<CheckResult>>>;

/// `--quick` checks vectors up to this memory (KiB).
const QUICK_VECTOR_KIB: u32 = 4096;

fn family_checks(backend: &str, variant: Variant, seed: u64, quick: bool) -> Vec<CheckResult> {
    let Some(hasher) = engines::by_name(backend) else {
        return vec![CheckResult::fail(
            "backend",
            format!("unknown backend {backend}"),
        )];
    };
    let max_kib = if quick { QUICK_VECTOR_KIB } else { u32::MAX };
    let mut checks = vectors::known_answers_up_to(hasher.as_ref(), variant, max_kib);
    let reference_name = if backend == LIBARGON2 {
        RUSTCRYPTO
    } else {
        LIBARGON2
    };
    if let Some(reference) = engines::by_name(reference_name) {
        checks.push(vectors::agreement(
            hasher.as_ref(),
            reference.as_ref(),
            variant,
            AGREEMENT_POINTS,
            seed,
        ));
    }
    if !checks.iter().any(|c| c.outcome == CheckOutcome::Pass) {
        checks.push(CheckResult::fail(
            "coverage",
            "no known answer or agreement check could run on this backend",
        ));
    }
    checks
}

/// The fixed inputs of a timed point: a text password and salt so the CLI
/// can take the same ones.
fn point_inputs(seed: u64) -> Inputs {
    let mut rng = SplitMix::new(seed);
    Inputs {
        password: b"PSAEI_w_Gliwicach".to_vec(), // seed 000 section 2.2's password
        salt: rng.text(SALT_LEN),
        secret: Vec::new(),
        ad: Vec::new(),
    }
}

/// A guess of one hash's time, for the dry run, the run's pacing and
/// choosing single-shot sampling: about 1 ns per block byte for the first
/// touch of fresh memory (page faults, one lane at a time in effect), then
/// 1 ns per byte per pass over the lanes on as many cores. Without the
/// first touch the guess was 2-3x short for one pass on two lanes here
/// (768 MiB, t = 1, p = 2: 1.1 s against 0.4 s).
pub fn expected_ns(p: &Params, cores: u32) -> f64 {
    let parallel = p.threads.min(cores).max(1) as f64;
    p.memory_bytes() as f64 * (1.0 + f64::from(p.t) / parallel)
}

fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// The measured spec of a point on a backend.
pub fn spec(p: &Params, hasher: &dyn Hasher, operation: &str) -> CaseSpec {
    let mut s = CaseSpec::new(
        SUITE,
        p.variant.name(),
        hasher.name(),
        hasher.version(),
        operation,
    )
    .param("m_kib", p.m_kib)
    .param("t", p.t)
    .param("p", p.lanes)
    .param("threads", p.threads)
    .param("version", format!("0x{:x}", p.version.number()))
    .param("tag", p.tag_len)
    .size(p.memory_bytes() * u64::from(p.t))
    .expect_ns(expected_ns(p, cores()) + if hasher.name() == CLI { 1e6 } else { 0.0 });
    if p.threads > cores() {
        s = s.label(format!("{} threads on {} cores", p.threads, cores()));
    }
    s
}

/// The backends `grid` runs on, of those `--backend` admits.
fn hashers_of(grid: &Grid, cfg: &RunConfig) -> Vec<Box<dyn Hasher>> {
    engines::all()
        .into_iter()
        .filter(|h| cfg.wants_backend(h.name()))
        .filter(|h| {
            grid.backends
                .as_ref()
                .is_none_or(|b| b.iter().any(|n| n == h.name()))
        })
        .collect()
}

/// Plans every point of each grid on that grid's backends, and the CLI's
/// start-up once when a grid runs the CLI.
pub fn plan(grids: &[Grid], cfg: &RunConfig) -> Vec<PlannedCase> {
    let seed = vectors::fresh_seed(cfg.seed);
    let available = memory::available_bytes();
    let mut families: BTreeMap<(String, Variant), Family> = BTreeMap::new();
    let mut out = Vec::new();
    let inputs = point_inputs(seed);
    if let Some(cli) = grids
        .iter()
        .flat_map(|g| hashers_of(g, cfg))
        .find(|h| h.name() == CLI)
    {
        out.push(startup_case(cli.as_ref(), &inputs));
    }
    for grid in grids {
        plan_grid(
            grid,
            cfg,
            (seed, available),
            &inputs,
            &mut families,
            &mut out,
        );
    }
    out
}

fn plan_grid(
    grid: &Grid,
    cfg: &RunConfig,
    (seed, available): (u64, Option<u64>),
    inputs: &Inputs,
    families: &mut BTreeMap<(String, Variant), Family>,
    out: &mut Vec<PlannedCase>,
) {
    let hashers = hashers_of(grid, cfg);
    for params in grid.points() {
        for hasher in &hashers {
            let mut spec = spec(&params, hasher.as_ref(), OP_HASH);
            if !grid.twinned {
                spec = spec.without_twins();
            }
            if let Err(why) = hasher.available() {
                out.push(PlannedCase::unavailable(spec, why.to_string()));
                continue;
            }
            if let Err(why) = params.validate() {
                out.push(PlannedCase::skipped(spec, why.to_string()));
                continue;
            }
            if let Err(why) = hasher.supports(&params, inputs) {
                out.push(match why {
                    HashError::Unsupported(_) => PlannedCase::unavailable(spec, why.to_string()),
                    HashError::Skipped(reason) => PlannedCase::skipped(spec, reason),
                    other => PlannedCase::skipped(spec, other.to_string()),
                });
                continue;
            }
            if let Err(why) = memory::check(params.memory_bytes(), available) {
                out.push(PlannedCase::skipped(spec, why.to_string()));
                continue;
            }
            let family = families
                .entry((hasher.name().to_string(), params.variant))
                .or_default()
                .clone();
            out.push(ready(
                spec,
                hasher.name(),
                params,
                inputs.clone(),
                family,
                (seed, cfg.quick),
            ));
        }
    }
}

fn ready(
    spec: CaseSpec,
    backend: &'static str,
    params: Params,
    inputs: Inputs,
    family: Family,
    (seed, quick): (u64, bool),
) -> PlannedCase {
    PlannedCase::ready(spec, move || {
        let checks = family
            .get_or_init(|| family_checks(backend, params.variant, seed, quick))
            .clone();
        let case = if backend == CLI {
            HashCase::cli(params, inputs.clone(), checks)
        } else {
            HashCase::library(backend, params, inputs.clone(), checks)?
        };
        Ok(Box::new(case) as Box<dyn Case>)
    })
}

fn startup_case(hasher: &dyn Hasher, inputs: &Inputs) -> PlannedCase {
    // The smallest legal point: 8 KiB, one pass, one lane.
    let mut params = Params::new(Variant::Id, 8, 1, 1);
    params.tag_len = TAG_LEN;
    let spec = spec(&params, hasher, OP_STARTUP);
    if let Err(why) = hasher.available() {
        return PlannedCase::unavailable(spec, why.to_string());
    }
    let inputs = inputs.clone();
    PlannedCase::ready(spec, move || {
        let mut out = vec![0u8; params.tag_len];
        let mut reference = vec![0u8; params.tag_len];
        let ran = Cli.hash(&params, &inputs, &mut out);
        let check = match ran.and_then(|_| engines::RefLib.hash(&params, &inputs, &mut reference)) {
            Ok(()) => CheckResult::from_bool(
                "agree:peer:argon2-cli vs libargon2 (start-up point)",
                out == reference,
                format!("{} vs {}", hex::encode(&out), hex::encode(&reference)),
            ),
            Err(e) => CheckResult::fail("run", e.to_string()),
        };
        Ok(Box::new(HashCase::cli(params, inputs.clone(), vec![check])) as Box<dyn Case>)
    })
}

/// A timed argon2 case (a grid point, or the CLI's start-up): everything
/// but how one hash is made is the same for the libraries and the CLI.
struct HashCase {
    params: Params,
    inputs: Inputs,
    checks: Vec<CheckResult>,
    runner: Runner,
}

/// How one hash of a [`HashCase`] is made.
enum Runner {
    /// A library call in this process.
    Library(LibraryHash),
    /// One whole `argon2` process.
    Cli,
}

/// A library hasher with its output buffer.
struct LibraryHash {
    hasher: Box<dyn Hasher>,
    out: Vec<u8>,
    /// RustCrypto's worker pool, built outside the timed region.
    pool: Option<rayon::ThreadPool>,
}

impl HashCase {
    fn library(
        backend: &str,
        params: Params,
        inputs: Inputs,
        checks: Vec<CheckResult>,
    ) -> Result<Self, CaseError> {
        let hasher = engines::by_name(backend)
            .ok_or_else(|| CaseError::Failed(format!("unknown backend {backend}")))?;
        let pool = if backend == RUSTCRYPTO {
            engines::rustcrypto_pool(&params).map_err(|e| CaseError::Failed(e.to_string()))?
        } else {
            None
        };
        let runner = Runner::Library(LibraryHash {
            hasher,
            out: vec![0; params.tag_len],
            pool,
        });
        Ok(Self {
            params,
            inputs,
            checks,
            runner,
        })
    }
    fn cli(params: Params, inputs: Inputs, checks: Vec<CheckResult>) -> Self {
        Self {
            params,
            inputs,
            checks,
            runner: Runner::Cli,
        }
    }
    fn hash_once(&mut self) -> Result<(), CaseError> {
        let (params, inputs) = (&self.params, std::hint::black_box(&self.inputs));
        match &mut self.runner {
            Runner::Library(lib) => {
                let result = if lib.hasher.name() == RUSTCRYPTO {
                    engines::rustcrypto_hash_on(lib.pool.as_ref(), params, inputs, &mut lib.out)
                } else {
                    lib.hasher.hash(params, inputs, &mut lib.out)
                };
                result.map_err(|e| CaseError::Failed(e.to_string()))?;
                std::hint::black_box(&lib.out);
            }
            Runner::Cli => {
                let tag = Cli::run(params, inputs).map_err(|e| CaseError::Failed(e.to_string()))?;
                if tag.len() != params.tag_len {
                    return Err(CaseError::Failed(format!(
                        "argon2 printed a {}-byte tag",
                        tag.len()
                    )));
                }
            }
        }
        Ok(())
    }
}

impl Case for HashCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.clone()
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            self.hash_once()?;
        }
        Ok(())
    }
    fn placement_free(&self) -> bool {
        matches!(self.runner, Runner::Cli)
    }
    /// The CLI is timed from outside as whole processes: this process's CPU
    /// time says nothing of a child's, so only wall time is reported.
    fn time_batch(&mut self, iters: u64) -> Option<Result<BatchTime, CaseError>> {
        if !matches!(self.runner, Runner::Cli) {
            return None;
        }
        let clock = MonotonicClock;
        let start = clock.now_ns();
        for _ in 0..iters {
            if let Err(e) = self.hash_once() {
                return Some(Err(e));
            }
        }
        Some(Ok(BatchTime {
            iters,
            wall_ns: clock.now_ns().saturating_sub(start) as f64,
            cpu_ns: None,
            process: None,
        }))
    }
    fn fixed_iterations(&self) -> Option<u64> {
        (expected_ns(&self.params, cores()) > SLOW_NS).then_some(1)
    }
}
