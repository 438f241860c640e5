//! The seams: [`Suite`] enumerates cases, a [`Case`] is one prepared
//! primitive that the engine times, [`RunConfig`] carries the user's common
//! options and [`Budget`] the sampling budget.
//!
//! A suite never times anything itself: it says what exists
//! ([`Suite::plan`]), builds each case lazily through a [`CaseFactory`] (so the
//! multi-thread runner can build one per thread), and lets every case run its
//! checks before the engine measures it. Adding a backend or algorithm means
//! one more [`PlannedCase`] in `plan`, not a new table elsewhere.

use crate::model::{BackendInfo, CheckResult, Measurement};
use crate::profile::SuiteProfile;
use crate::{CaseError, Error};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The default target of `--precision`: a 95% interval within +-1%.
pub const DEFAULT_PRECISION: f64 = 0.01;

/// How long and how often one case is sampled (DESIGN.md section 3.3).
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// A calibrated sample lasts at least this long (default 100 us;
    /// a multi-core case's, [`MULTI_CORE_MIN_SAMPLE`] at least).
    pub min_sample: Duration,
    /// Samples to take when the time allows (default 15, at least 15 unless slow).
    pub samples: usize,
    /// Time spent sampling one case when operations are fast.
    pub time_per_case: Duration,
    /// Warm-up before the first sample.
    pub warmup: Duration,
    /// Fewest samples accepted for slow operations (each a single call).
    pub min_slow_samples: usize,
    /// Fewest rounds a peer process (`openssl speed`, the argon2 CLI)
    /// samples, whatever the pace: the
    /// [`crate::verdict::FEWEST_DECIDING_ROUNDS`] its fidelity verdict
    /// needs (default and `--full`); a smoke run keeps three and leaves
    /// its fidelity undecided.
    pub peer_rounds: usize,
    /// Sampling stops once the 95% interval of the median (and of each
    /// paired ratio) is within this fraction of it (`--precision`, 0.01).
    pub precision: f64,
    /// The most a whole run may spend measuring, second tries of disturbed
    /// groups included (default 210 s, `--quick` 60 s, `--full` 40 min):
    /// a plan too large for it at `time_per_case` gets less time per case
    /// (down to a quarter), and second tries stop short of it. `None` (an
    /// explicit `--time`) paces nothing and bounds only the second tries'
    /// share.
    pub measuring_limit: Option<Duration>,
    /// Time ratios a paper's claims are decided against (a band's ends,
    /// a threshold; each edge's inverse counts too). A group member whose
    /// paired ratio to another member has an interval that still holds an
    /// edge keeps sampling, past its precision and up to
    /// [`EDGE_BUDGETS`] times its time per case: a ratio near an edge is
    /// decided by more rounds, not left to straddle it in one run and
    /// clear it in the next. Empty for runs that decide no claim.
    pub decision_edges: Vec<f64>,
}

/// Shortest sample of a case that keeps several cores busy: starting and
/// joining its threads costs microseconds a batch, which only a batch of
/// milliseconds makes negligible.
pub const MULTI_CORE_MIN_SAMPLE: Duration = Duration::from_millis(2);

/// Shortest sample of a case whose work varies per call by design
/// ([`CaseSpec::work_varies`]: ML-DSA signing rejects and retries). One
/// call's time is skewed to the right (ML-DSA-44's mean call took 1.42x
/// its median one here, ML-DSA-65's and -87's 1.30x), so a median of
/// single calls understates the cost per signature. A batch of 20 ms
/// (20-54 signatures here) averages the retries, and its median tracks
/// the mean call (docs/methodology.md). An operation slower than this
/// (RSA key generation) stays one call per sample, and says how imprecise
/// that left it.
pub const WORK_VARIES_MIN_SAMPLE: Duration = Duration::from_millis(20);

/// How many times its time per case a member may sample while one of its
/// paired ratios straddles a [`Budget::decision_edges`] edge.
pub const EDGE_BUDGETS: f64 = 4.0;

impl Budget {
    /// The shortest sample `spec` is calibrated to: `min_sample`, at
    /// least [`MULTI_CORE_MIN_SAMPLE`] for a multi-core case and
    /// [`WORK_VARIES_MIN_SAMPLE`] for one whose work varies per call.
    pub fn min_sample_for(&self, spec: &CaseSpec) -> Duration {
        let mut shortest = self.min_sample;
        if spec.cores_used() > 1 {
            shortest = shortest.max(MULTI_CORE_MIN_SAMPLE);
        }
        if spec.work_varies() {
            shortest = shortest.max(WORK_VARIES_MIN_SAMPLE);
        }
        shortest
    }

    /// The fewest rounds `spec` samples: the suite's
    /// [`CaseSpec::min_rounds`], and [`Budget::peer_rounds`] for a peer.
    pub fn fewest_rounds(&self, spec: &CaseSpec) -> usize {
        if crate::model::is_peer(&spec.backend) {
            spec.min_rounds.max(self.peer_rounds)
        } else {
            spec.min_rounds
        }
    }

    /// This budget with `spec`'s own shortest sample
    /// ([`Budget::min_sample_for`]), for calibrating that case.
    pub fn for_case(&self, spec: &CaseSpec) -> Self {
        Self {
            min_sample: self.min_sample_for(spec),
            ..self.clone()
        }
    }

    /// The default: 100 us samples (2 ms for multi-core cases), ~0.3 s
    /// per case after a 10 ms warm-up, at most 3 min 30 s of measuring in all:
    /// with building and checking (each runtime case prepared in two
    /// runner processes) and the Argon2 short tune, a default run took
    /// 263 and 264 s here in two runs on 2026-11-30 (245 and 252 s with
    /// 190 s of measuring, which left 657 and 664 of 740 cases within
    /// +-1% against 667 and 671).
    ///
    /// A default run's plan is paced down to a quarter of its time per
    /// case, so a case's interval is bought with rounds, not batch length:
    /// twenty times as many 100 us batches as 2 ms ones fit in that time,
    /// and on this project's noisy VM the rounds' spread grew far less
    /// than their number (docs/methodology.md, "Noise").
    pub fn standard() -> Self {
        Self {
            min_sample: Duration::from_micros(100),
            samples: 15,
            time_per_case: Duration::from_millis(300),
            // Rounds of four groups in flight interleave, so nothing a
            // long warm-up heats stays warm until a member's next round.
            // With 30 ms, calibration and warm-up took 46.6 s of a default
            // run's 204.4 s of measuring; with 10 ms, 39.5 s.
            warmup: Duration::from_millis(10),
            min_slow_samples: 3,
            peer_rounds: crate::verdict::FEWEST_DECIDING_ROUNDS,
            precision: DEFAULT_PRECISION,
            measuring_limit: Some(Duration::from_secs(210)),
            decision_edges: Vec::new(),
        }
    }
    /// `--quick`: smoke runs; 2 ms samples, 15 of them, ~50 ms per case.
    pub fn quick() -> Self {
        Self {
            min_sample: Duration::from_millis(2),
            samples: 15,
            time_per_case: Duration::from_millis(50),
            warmup: Duration::from_millis(5),
            min_slow_samples: 3,
            peer_rounds: 3,
            precision: DEFAULT_PRECISION,
            measuring_limit: Some(Duration::from_secs(60)),
            decision_edges: Vec::new(),
        }
    }
    /// `--full`: 20 ms samples, 30 of them, ~1 s per case, at most 40 min
    /// of measuring (with building and checking, within the hour).
    pub fn full() -> Self {
        Self {
            min_sample: Duration::from_millis(20),
            samples: 30,
            time_per_case: Duration::from_secs(1),
            warmup: Duration::from_millis(30),
            min_slow_samples: 5,
            peer_rounds: crate::verdict::FEWEST_DECIDING_ROUNDS,
            precision: DEFAULT_PRECISION,
            measuring_limit: Some(Duration::from_secs(40 * 60)),
            decision_edges: Vec::new(),
        }
    }
}

/// Options every suite sees, from the command line.
#[derive(Debug, Clone)]
pub struct RunConfig {
    /// Sampling budget.
    pub budget: Budget,
    /// `--quick` was given: suites shrink their default grids.
    pub quick: bool,
    /// `--full` was given: suites use the seeds' complete grids.
    pub full: bool,
    /// `--backend` filter (resolved names); `None` = all.
    pub backends: Option<Vec<String>>,
    /// `--seed`: reproducible randomness (tests only).
    pub seed: Option<u64>,
    /// `--verbose`.
    pub verbose: bool,
    /// `--threads N` for the multi-thread runner (1 = single thread).
    pub threads: u32,
    /// `--time` was given: the time per case is the user's, which a
    /// paper keeps rather than raising it ([`crate::paper::with_rounds`]).
    pub time_asked: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        Self {
            budget: Budget::standard(),
            quick: false,
            full: false,
            backends: None,
            seed: None,
            verbose: false,
            threads: 1,
            time_asked: false,
        }
    }
}

impl RunConfig {
    /// A quick configuration (tests, smoke runs).
    pub fn quick() -> Self {
        Self {
            budget: Budget::quick(),
            quick: true,
            ..Self::default()
        }
    }
    /// [`RunConfig::quick`] when a `--quick` flag is set, else the default.
    pub fn quick_if(quick: bool) -> Self {
        if quick {
            Self::quick()
        } else {
            Self::default()
        }
    }
    /// Whether the `--backend` filter admits `name` (case-insensitive).
    pub fn wants_backend(&self, name: &str) -> bool {
        match &self.backends {
            None => true,
            Some(list) => list
                .iter()
                .any(|b| crate::names::fold(b) == crate::names::fold(name)),
        }
    }
}

/// Whether a backend or algorithm can run here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// It can.
    Available,
    /// It cannot, and why ("needs AES-NI", "libmcrypt not installed").
    Unavailable(String),
}

impl Availability {
    /// A backend as the run's fingerprint lists it: name, version, and the
    /// reason it is unavailable, if it is.
    pub fn info(self, name: &str, version: String) -> crate::BackendInfo {
        crate::BackendInfo {
            name: name.into(),
            version,
            unavailable: match self {
                Availability::Available => None,
                Availability::Unavailable(reason) => Some(reason),
            },
        }
    }
}

/// What every backend of every family says about itself: the family traits
/// (`AeadBackend`, `CipherBackend`, `DigestBackend`, `EccBackend`) build on
/// it, so a suite lists its registry in the run's fingerprint with
/// [`infos`] and nothing suite-specific.
pub trait Library: Sync {
    /// Name on the command line and in results.
    fn name(&self) -> &'static str;
    /// The library's version string (empty when it is missing).
    fn version(&self) -> String;
    /// Whether the library can run here at all.
    fn availability(&self) -> Availability {
        Availability::Available
    }
    /// The library as the run's fingerprint lists it.
    fn info(&self) -> crate::BackendInfo {
        self.availability().info(self.name(), self.version())
    }
}

/// Every library of a registry as the run's fingerprint lists them.
pub fn infos<'a, L: Library + ?Sized + 'a>(
    registry: impl IntoIterator<Item = &'a &'a L>,
) -> Vec<crate::BackendInfo> {
    registry.into_iter().map(|l| l.info()).collect()
}

/// What one backend does with one algorithm, the same three answers in every
/// capability registry (AEAD, cipher, digest, key agreement, EC arithmetic).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offer {
    /// The library is not about this algorithm at all: no cell is planned.
    NotOffered,
    /// The library is about it but cannot run it here (reason shown as an
    /// unavailable cell: "needs AES-NI", "OpenSSL 3.2+").
    Unavailable(String),
    /// It runs.
    Runs,
}

impl Offer {
    /// `Runs` when `offered`, `NotOffered` otherwise.
    pub fn when(offered: bool) -> Self {
        if offered {
            Offer::Runs
        } else {
            Offer::NotOffered
        }
    }
}

/// What a case is, before it is built: everything a measurement records
/// except the numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseSpec {
    /// Suite name.
    pub suite: String,
    /// Canonical algorithm name.
    pub primitive: String,
    /// Backend name.
    pub backend: String,
    /// Backend version string.
    pub backend_version: String,
    /// Operation (`digest`, `encrypt`, ...).
    pub operation: String,
    /// Extra parameters.
    pub params: BTreeMap<String, String>,
    /// Bytes per operation (0 when not meaningful).
    pub input_bytes: u64,
    /// Security / context labels.
    pub labels: Vec<String>,
    /// Threads running the case at once (the engine's multi-thread runner).
    pub threads: u32,
    /// A rough guess of one operation's time (ns; 0 = unknown), which the
    /// dry run's estimate and the run's pacing cost a slow case by; a
    /// case timed as one process per sample (a peer) gives the process's.
    pub expected_ns: f64,
    /// The comparison group the suite puts this case in; `None` lets the
    /// engine group it with the cases of the same suite, operation, size
    /// and thread count (the backends and primitives compared at one size).
    pub group: Option<String>,
    /// How the engine cuts this case's group when it is larger than one
    /// group may be: `false` keeps each primitive's cases together (a
    /// primitive's backends pair up), `true` each backend's (a paper that
    /// compares primitives within a backend, GCM against CCM, pairs them).
    pub cut_by_backend: bool,
    /// Whether runtimes may plan their twins beside this native cell
    /// (`false`: a point measured for the library alone, such as the
    /// Argon2 short tune's choices or `--full`'s largest Argon2 points).
    pub twinned: bool,
    /// The fewest rounds this case samples, whatever the run's pace (0:
    /// the engine's own floor). For cases whose paired ratios an advice
    /// line decides on: a paced quick run gives a case five or six rounds,
    /// and the interval of a median of five reaches down to its one
    /// disturbed round.
    pub min_rounds: usize,
}

impl CaseSpec {
    /// A spec with no parameters, size 0, one thread.
    pub fn new(
        suite: &str,
        primitive: impl Into<String>,
        backend: impl Into<String>,
        backend_version: impl Into<String>,
        operation: impl Into<String>,
    ) -> Self {
        Self {
            suite: suite.to_string(),
            primitive: primitive.into(),
            backend: backend.into(),
            backend_version: backend_version.into(),
            operation: operation.into(),
            params: BTreeMap::new(),
            input_bytes: 0,
            labels: Vec::new(),
            threads: 1,
            expected_ns: 0.0,
            group: None,
            cut_by_backend: false,
            twinned: true,
            min_rounds: 0,
        }
    }
    /// Sets the fewest rounds the case samples ([`CaseSpec::min_rounds`]).
    pub fn min_rounds(mut self, rounds: usize) -> Self {
        self.min_rounds = rounds;
        self
    }
    /// Sets the bytes per operation.
    pub fn size(mut self, bytes: u64) -> Self {
        self.input_bytes = bytes;
        self
    }
    /// Adds a parameter.
    pub fn param(mut self, name: &str, value: impl ToString) -> Self {
        self.params.insert(name.to_string(), value.to_string());
        self
    }
    /// Adds a label.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.labels.push(label.into());
        self
    }
    /// Adds several labels.
    pub fn labels<I: IntoIterator<Item = S>, S: Into<String>>(mut self, labels: I) -> Self {
        self.labels.extend(labels.into_iter().map(Into::into));
        self
    }
    /// Sets the thread count.
    pub fn threads(mut self, n: u32) -> Self {
        self.threads = n.max(1);
        self
    }
    /// Whether one operation is memory-bound ([`crate::model::memory_bound`]).
    pub fn memory_bound(&self) -> bool {
        crate::model::memory_bound(&self.params)
    }
    /// Whether one call does a random amount of work by design
    /// ([`crate::model::LABEL_WORK_VARIES`]).
    pub fn work_varies(&self) -> bool {
        crate::model::work_varies(&self.labels)
    }
    /// Cores one timed operation keeps busy ([`crate::model::cores_used`]).
    pub fn cores_used(&self) -> u32 {
        crate::model::cores_used(&self.params, self.threads)
    }
    /// Puts the case in a named comparison group.
    pub fn group(mut self, key: impl Into<String>) -> Self {
        self.group = Some(key.into());
        self
    }
    /// Keeps runtimes from planning a twin beside this cell.
    pub fn without_twins(mut self) -> Self {
        self.twinned = false;
        self
    }
    /// Sets the expected time of one operation (ns): [`CaseSpec::expected_ns`].
    pub fn expect_ns(mut self, ns: f64) -> Self {
        self.expected_ns = ns;
        self
    }
    /// Puts this case in `native`'s comparison group, cut the same way
    /// ([`CaseSpec::cut_by_backend`]), so a runtime twin's ratio to the
    /// cell it wraps is paired.
    pub fn grouped_with(mut self, native: &CaseSpec) -> Self {
        self.group = native.group.clone();
        self.cut_by_backend = native.cut_by_backend;
        self
    }
    /// An empty measurement of this case, with the given status.
    pub fn measurement(&self, status: crate::CaseStatus, reason: Option<String>) -> Measurement {
        Measurement {
            suite: self.suite.clone(),
            primitive: self.primitive.clone(),
            backend: self.backend.clone(),
            backend_version: self.backend_version.clone(),
            operation: self.operation.clone(),
            params: self.params.clone(),
            input_bytes: self.input_bytes,
            threads: self.threads,
            iterations_per_sample: 0,
            samples_ns: Vec::new(),
            cpu_samples_ns: Vec::new(),
            samples_process: Vec::new(),
            stats: None,
            status,
            reason,
            checks: Vec::new(),
            labels: self.labels.clone(),
            warnings: Vec::new(),
            extra: BTreeMap::new(),
            group: self.group.clone(),
            paired: Vec::new(),
            machine_load: None,
            earlier: Vec::new(),
        }
    }
}

/// Time of one batch when a case times itself (external peers, PHP).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BatchTime {
    /// Operations actually performed.
    pub iters: u64,
    /// Wall-clock time of the batch, ns.
    pub wall_ns: f64,
    /// CPU time of the batch, ns, where known.
    pub cpu_ns: Option<f64>,
    /// Which of the case's processes timed the batch (0 or 1), for a case
    /// timed in two processes in turn (a runtime's two runners).
    pub process: Option<u8>,
}

/// One prepared case: keys, buffers and contexts are built when the case is
/// made; [`Case::run_batch`] is the timed region.
pub trait Case: Send {
    /// Checks to run before timing (known answers, round trip, tamper).
    /// Any `Fail` means the case is reported FAILED and never timed.
    fn checks(&mut self) -> Vec<CheckResult> {
        Vec::new()
    }
    /// Untimed preparation for the next batch of `iters` operations
    /// (fresh nonces, fresh inputs).
    fn prepare_batch(&mut self, _iters: u64) -> Result<(), CaseError> {
        Ok(())
    }
    /// Performs `iters` operations; the engine times this call. Use
    /// `std::hint::black_box` on outputs so nothing is optimised away.
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError>;
    /// Cases that time themselves (an external process, the PHP runner)
    /// return `Some`; the engine then uses the reported time instead.
    fn time_batch(&mut self, _iters: u64) -> Option<Result<BatchTime, CaseError>> {
        None
    }
    /// `Some(n)`: every sample is exactly `n` operations, no calibration
    /// (slow operations, external tools with their own loop).
    fn fixed_iterations(&self) -> Option<u64> {
        None
    }
    /// True when every batch is independent of the ones before it (a fresh
    /// external process that warms up inside its own timed loop): the
    /// calibration batch is then kept as the first sample instead of being
    /// thrown away as warm-up. `openssl speed` takes a second per batch.
    fn calibration_is_a_sample(&self) -> bool {
        false
    }
    /// True when where its memory lands in this process cannot change its
    /// time: its batches run in another process (a runtime's runner, a
    /// peer tool), or it models an operation (tests). The engine then
    /// builds it once, never several times to choose a placement
    /// (`engine::placement`).
    fn placement_free(&self) -> bool {
        false
    }
    /// Numbers the case found while it was checked and timed (bytes a
    /// handshake put on the wire, a peer's own counts), kept in the
    /// measurement's `extra` when it is finished.
    fn extra(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
}

/// Builds a fresh case; called once per thread.
pub type CaseFactory = Arc<dyn Fn() -> Result<Box<dyn Case>, CaseError> + Send + Sync>;

/// How a planned case comes into being.
#[derive(Clone)]
pub enum Setup {
    /// Build it with this factory.
    Ready(CaseFactory),
    /// It cannot run with these parameters (reason shown).
    Skipped(String),
    /// Its backend or algorithm is missing here (reason shown).
    Unavailable(String),
}

/// A case as a suite plans it.
#[derive(Clone)]
pub struct PlannedCase {
    /// What it is.
    pub spec: CaseSpec,
    /// How to build it.
    pub setup: Setup,
}

impl PlannedCase {
    /// A runnable case.
    pub fn ready<F>(spec: CaseSpec, factory: F) -> Self
    where
        F: Fn() -> Result<Box<dyn Case>, CaseError> + Send + Sync + 'static,
    {
        Self {
            spec,
            setup: Setup::Ready(Arc::new(factory)),
        }
    }
    /// A case skipped for a reason.
    pub fn skipped(spec: CaseSpec, reason: impl Into<String>) -> Self {
        Self {
            spec,
            setup: Setup::Skipped(reason.into()),
        }
    }
    /// A case whose backend is unavailable.
    pub fn unavailable(spec: CaseSpec, reason: impl Into<String>) -> Self {
        Self {
            spec,
            setup: Setup::Unavailable(reason.into()),
        }
    }
}

/// A family of cases with its own checks and summary tables.
pub trait Suite: Send + Sync {
    /// Its name, description and views of the finished measurements; a
    /// suite wrapping another returns the inner suite's.
    fn profile(&self) -> SuiteProfile;
    /// The libraries this suite can use, with versions and availability.
    fn backends(&self) -> Vec<BackendInfo>;
    /// Canonical primitive names it offers here.
    fn primitives(&self) -> Vec<String>;
    /// The cases to run for this configuration. Unknown names in the suite's
    /// own options are reported here as [`Error::Usage`].
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error>;
    /// Name on the command line (`hash`, `cipher`, ...), from the profile.
    fn name(&self) -> &'static str {
        self.profile().name
    }
    /// One line for `list` and `--help`, from the profile.
    fn about(&self) -> &'static str {
        self.profile().about
    }
    /// Suite-specific tables over the finished measurements (seed-shaped
    /// tables, rankings). The generic per-case table is drawn anyway.
    fn summarize(&self, measurements: &[Measurement]) -> Vec<crate::table::Table> {
        (self.profile().tables)(measurements)
    }
    /// A few lines for the one-screen summary of `cryptobench run` (the
    /// fastest verified choice, the winners), each citing its measurement.
    fn headline(&self, measurements: &[Measurement]) -> Vec<String> {
        (self.profile().headline)(measurements)
    }
    /// Suite-specific charts for the HTML report (seed-shaped figures).
    fn charts(&self, measurements: &[Measurement]) -> Vec<crate::chart::Chart> {
        (self.profile().charts)(measurements)
    }
}

/// What a suite's own subcommand asks the binary to do next.
pub enum SuiteAction {
    /// Benchmark these suites through the engine (store, print, export).
    Bench(Vec<Box<dyn Suite>>),
    /// The command did its work itself (e.g. `argon2 hash`); exit with this code.
    Done(u8),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_whose_work_varies_averages_many_calls_per_sample() {
        let budget = Budget::standard();
        let varies = CaseSpec::new("pubkey", "ML-DSA-44", "b", "1", "sign")
            .labels(Some(crate::model::LABEL_WORK_VARIES));
        assert!(varies.work_varies());
        assert_eq!(budget.min_sample_for(&varies), WORK_VARIES_MIN_SAMPLE);
        // A budget with longer samples keeps its own.
        let full = Budget::full();
        assert!(full.min_sample >= WORK_VARIES_MIN_SAMPLE);
        assert_eq!(full.min_sample_for(&varies), full.min_sample);
    }

    #[test]
    fn a_peer_samples_the_rounds_a_verdict_needs_except_in_a_smoke_run() {
        let peer = CaseSpec::new(
            "hash",
            "SHA-256",
            crate::model::OPENSSL_SPEED,
            "3",
            "digest",
        );
        let ours = CaseSpec::new("hash", "SHA-256", "openssl", "3", "digest");
        let deciding = crate::verdict::FEWEST_DECIDING_ROUNDS;
        assert_eq!(Budget::standard().fewest_rounds(&peer), deciding);
        assert_eq!(Budget::full().fewest_rounds(&peer), deciding);
        assert!(Budget::quick().fewest_rounds(&peer) < deciding);
        assert_eq!(Budget::standard().fewest_rounds(&ours), 0);
        // A suite's own floor still counts, for peers too.
        let advised = peer.min_rounds(20);
        assert_eq!(Budget::standard().fewest_rounds(&advised), 20);
    }

    #[test]
    fn a_multi_core_case_samples_for_milliseconds_whatever_the_budget() {
        let budget = Budget::standard();
        let one = CaseSpec::new("s", "p", "b", "1", "op");
        let two = one.clone().threads(2);
        let lanes = one.clone().param(crate::model::THREADS_PARAM, 4);
        assert_eq!(budget.min_sample_for(&one), budget.min_sample);
        assert_eq!(budget.min_sample_for(&two), MULTI_CORE_MIN_SAMPLE);
        assert_eq!(budget.min_sample_for(&lanes), MULTI_CORE_MIN_SAMPLE);
        // A longer sample than the floor stays as asked.
        assert_eq!(
            Budget::full().min_sample_for(&two),
            Budget::full().min_sample
        );
    }
}
