//! The versioned result model (schema `cryptobench/1`).
//!
//! A [`Run`] is what one command measured; it owns its [`Measurement`]s and
//! the [`Fingerprint`] of the machine. Every field is serialised with serde so
//! that the JSON export, the SQLite store and the reports read the same thing.
//! Times are nanoseconds per operation unless a name says otherwise; rates are
//! per second. docs/results-format.md documents each field for users.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Schema identifier written into every run; bump on incompatible change.
pub const SCHEMA: &str = "cryptobench/1";

/// Suite name of the canary's measurement in a run (the machine's speed
/// through the run; see the engine's `canary` module).
pub const CANARY_SUITE: &str = "noise";
/// Primitive name of the canary's measurement.
pub const CANARY_PRIMITIVE: &str = "canary";
/// `Measurement::extra` key of a run's noise floor (a fraction).
pub const NOISE_FLOOR_KEY: &str = "noise_floor";
/// `PairedRatio::other` of a case's ratio to the canary.
pub const CANARY_PAIRED_KEY: &str = "canary";
/// `Measurement::extra` key of the noise floor of the canary run on every
/// core at once (a fraction): how far the machine's capacity for
/// multi-core work moved between moments.
pub const PARALLEL_NOISE_FLOOR_KEY: &str = "parallel_noise_floor";
/// `Measurement::extra` key of how far a case's instances, built several
/// times to choose where its memory lands, ran apart: the median
/// instance's trial time over the fastest's, less one.
pub const PLACEMENT_SPREAD_KEY: &str = "placement_spread";
/// The `params` key through which a case says how many threads one of its
/// operations runs on (Argon2's lanes, a threads executor's workers).
pub const THREADS_PARAM: &str = "threads";

/// The `params` key through which a case says how much memory one of its
/// operations fills, KiB (Argon2's `m`).
pub const MEMORY_PARAM: &str = "m_kib";
/// Memory per operation from which a case counts as memory-bound: its
/// time then follows the machine's page faults and memory bandwidth,
/// which the canary (in L1) never sees.
pub const MEMORY_BOUND_KIB: u64 = 1024;

/// Whether one operation of a case with these `params` fills at least
/// [`MEMORY_BOUND_KIB`].
pub fn memory_bound(params: &BTreeMap<String, String>) -> bool {
    params
        .get(MEMORY_PARAM)
        .and_then(|m| m.parse::<u64>().ok())
        .is_some_and(|m| m >= MEMORY_BOUND_KIB)
}

/// Cores one timed operation keeps busy: the engine's threads times the
/// threads each operation starts itself.
pub fn cores_used(params: &BTreeMap<String, String>, threads: u32) -> u32 {
    let own = params
        .get(THREADS_PARAM)
        .and_then(|t| t.parse::<u32>().ok())
        .unwrap_or(1);
    own.max(1).saturating_mul(threads.max(1))
}

/// State of a run as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// Still being measured (or the process died without a word).
    Running,
    /// Every planned case was attempted.
    Complete,
    /// Stopped by Ctrl-C or a crash; what was measured is kept.
    Interrupted,
    /// A check failed in at least one case.
    Failed,
}

impl RunStatus {
    /// Lower-case name as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }
    /// Parses the stored name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "running" => RunStatus::Running,
            "complete" => RunStatus::Complete,
            "interrupted" => RunStatus::Interrupted,
            "failed" => RunStatus::Failed,
            _ => return None,
        })
    }
}

/// One benchmark run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Unique id, sortable by time (e.g. `20261122-031502-4f2a`).
    pub id: String,
    /// RFC 3339 UTC.
    pub started_at: String,
    /// RFC 3339 UTC; `None` while running or when the process died.
    pub finished_at: Option<String>,
    /// See [`RunStatus`].
    pub status: RunStatus,
    /// The command line as typed.
    pub command: Vec<String>,
    /// Where it ran.
    pub machine: Fingerprint,
    /// A fleet id when this run is one host of a fleet run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<String>,
    /// Every case, in the order it finished.
    pub measurements: Vec<Measurement>,
}

impl Run {
    /// A complete run of `measurements` under `id`: the current schema, no
    /// times, command or fleet, an unnamed machine. Callers that know more
    /// set it with struct update syntax (`Run { status, ..Run::new(id, ms) }`).
    pub fn new(id: impl Into<String>, measurements: Vec<Measurement>) -> Run {
        Run {
            schema: SCHEMA.into(),
            id: id.into(),
            started_at: String::new(),
            finished_at: None,
            status: RunStatus::Complete,
            command: Vec::new(),
            machine: Fingerprint::default(),
            fleet: None,
            measurements,
        }
    }
    /// The noise floor this run's canary measured (a fraction), if any.
    pub fn noise_floor(&self) -> Option<f64> {
        self.canary_extra(NOISE_FLOOR_KEY)
    }
    /// The noise floor of the canary run on every core at once (a
    /// fraction), when the run had multi-core cases.
    pub fn parallel_noise_floor(&self) -> Option<f64> {
        self.canary_extra(PARALLEL_NOISE_FLOOR_KEY)
    }
    fn canary_extra(&self, key: &str) -> Option<f64> {
        self.canary().and_then(|m| m.extra.get(key).copied())
    }
    /// The canary's measurement, when the run timed one.
    pub fn canary(&self) -> Option<&Measurement> {
        self.measurements
            .iter()
            .find(|m| m.is_canary() && m.status == CaseStatus::Measured)
    }
    /// True when any measurement carries a failed check.
    pub fn has_failures(&self) -> bool {
        self.measurements
            .iter()
            .any(|m| m.status == CaseStatus::Failed)
    }
}

/// What became of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseStatus {
    /// Checks passed and it was timed.
    Measured,
    /// A check failed: never timed, reason in `reason` and `checks`.
    Failed,
    /// The case cannot run here with these parameters (size rule, memory).
    Skipped,
    /// The backend or algorithm is missing on this machine.
    Unavailable,
}

impl CaseStatus {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            CaseStatus::Measured => "measured",
            CaseStatus::Failed => "FAILED",
            CaseStatus::Skipped => "skipped",
            CaseStatus::Unavailable => "unavailable",
        }
    }
}

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckOutcome {
    /// The check passed.
    Pass,
    /// The check failed: the case is not timed.
    Fail,
    /// The check does not apply (no vector for this key size, ...).
    Skipped,
}

/// A named check and what it found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Short name, e.g. `kat:FIPS 180-4 "abc"`, `roundtrip`, `tamper`.
    pub name: String,
    /// Pass, fail or skipped.
    pub outcome: CheckOutcome,
    /// Human detail: counts, the mismatch, the source of a vector.
    pub detail: String,
}

impl CheckResult {
    /// A passed check.
    pub fn pass(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            outcome: CheckOutcome::Pass,
            detail: detail.into(),
        }
    }
    /// A failed check.
    pub fn fail(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            outcome: CheckOutcome::Fail,
            detail: detail.into(),
        }
    }
    /// A check that does not apply.
    pub fn skipped(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            outcome: CheckOutcome::Skipped,
            detail: detail.into(),
        }
    }
    /// Pass when `ok`, else fail, with the same detail.
    pub fn from_bool(name: impl Into<String>, ok: bool, detail: impl Into<String>) -> Self {
        if ok {
            Self::pass(name, detail)
        } else {
            Self::fail(name, detail)
        }
    }
}

/// Summary statistics of one measurement; times in ns per operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Summary {
    /// Median time per operation.
    pub median: f64,
    /// 95% bootstrap confidence interval of the median.
    pub ci95: [f64; 2],
    /// First quartile.
    pub p25: f64,
    /// Third quartile.
    pub p75: f64,
    /// Fastest sample.
    pub min: f64,
    /// Slowest sample.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1).
    pub stddev: f64,
    /// Median absolute deviation (unscaled).
    pub mad: f64,
    /// Operations per second at the median (all threads together).
    pub ops_per_s: f64,
    /// Bytes per second at the median, when the operation has an input size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_per_s: Option<f64>,
    /// CPU cycles per byte from the TSC, when available.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles_per_byte: Option<f64>,
    /// Indices of samples whose modified Z-score exceeds 3.5.
    #[serde(default)]
    pub outliers: Vec<usize>,
    /// Half-width of the median's 95% interval relative to the median
    /// (0.01 = +-1%): the precision this measurement reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
}

/// One case: a primitive x backend x parameters x size x operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Suite name (`hash`, `cipher`, ...).
    pub suite: String,
    /// Algorithm name, canonical (`SHA-256`, `AES-128-CTR`, `P-256`).
    pub primitive: String,
    /// Backend name (`openssl`, `rustcrypto`, `peer:openssl-speed`).
    pub backend: String,
    /// The library's own version string.
    pub backend_version: String,
    /// `digest`, `encrypt`, `decrypt`, `roundtrip`, `keygen`, ...
    pub operation: String,
    /// Extra parameters (memory, lanes, tag length, aad, threads, ...).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// Bytes processed by one operation (0 when not meaningful).
    pub input_bytes: u64,
    /// Worker threads running the case at once.
    #[serde(default = "one")]
    pub threads: u32,
    /// Operations in one timed sample (per thread).
    pub iterations_per_sample: u64,
    /// Time per operation of each sample, ns (raw, never filtered).
    pub samples_ns: Vec<f64>,
    /// CPU time per operation of each sample, ns, where recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu_samples_ns: Vec<f64>,
    /// The process that timed each sample (0 or 1), for a case timed in
    /// two processes in turn (a runtime's two runners); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples_process: Vec<u8>,
    /// Statistics over `samples_ns`; `None` when nothing was timed.
    pub stats: Option<Summary>,
    /// Measured, failed, skipped or unavailable.
    pub status: CaseStatus,
    /// Why it failed, was skipped, or is unavailable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every check that ran before timing.
    pub checks: Vec<CheckResult>,
    /// Security and context labels (`insecure: ECB`, `64-bit block (Sweet32)`).
    #[serde(default)]
    pub labels: Vec<String>,
    /// Measurement warnings (outliers, few samples, noisy).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Free-form numbers a suite wants kept (per-thread ops/s, efficiency).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, f64>,
    /// The comparison group this case was measured in (DESIGN.md section
    /// 3.7): every member's `samples_ns[i]` was taken in round `i` of the
    /// group, so any two members' ratio is estimated round by round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Paired ratios to references outside the stored members (the canary).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paired: Vec<PairedRatio>,
    /// How busy the machine was while this case was sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_load: Option<MachineLoad>,
    /// This case's samples in earlier runs on this machine, in the same
    /// group: `paper` attaches them from the history before it judges, so
    /// a ratio's verdict holds what each of those runs measured too (a
    /// shared machine moves a ratio between runs by more than one run's
    /// rounds show). Never stored.
    #[serde(skip)]
    pub earlier: Vec<EarlierSamples>,
}

/// One earlier run's samples of a case ([`Measurement::earlier`]).
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierSamples {
    /// The earlier run's id.
    pub run: String,
    /// Its `samples_ns`, in round order.
    pub samples_ns: Vec<f64>,
}

/// A time ratio measured in rounds together with another case: each round
/// times one batch of every member of the group in a random order, so a
/// drift of the machine lands on both sides of every per-round ratio.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRatio {
    /// [`Measurement::case_key`] of the other member.
    pub other: String,
    /// Median over rounds of (this case's time / the other's time).
    pub ratio: f64,
    /// 95% bootstrap interval of that median.
    pub ci95: [f64; 2],
    /// Rounds the ratio rests on.
    pub rounds: usize,
}

/// The machine's state while a case was sampled, read from /proc.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct MachineLoad {
    /// 1-minute load average at the end of the case.
    pub load1: f64,
    /// Share of the machine's CPU time that other processes used (0..1);
    /// the processes cryptobench started count as its own.
    pub other_cpu: f64,
    /// Share of CPU time the hypervisor stole (0..1).
    pub steal: f64,
    /// The canary's time per operation around this case, ns, when sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canary_ns: Option<f64>,
    /// The canary's time around this case's first measurement, when that
    /// one was disturbed and this second one, taken at the end of the run,
    /// replaced it as the faster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_canary_ns: Option<f64>,
    /// The canary's time per operation when run on as many cores at once
    /// as this case uses (first start to last end), ns: the speed for
    /// multi-core work, which the one-core canary cannot see (a host that
    /// lends the second core elsewhere). Only for multi-core cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_canary_ns: Option<f64>,
    /// The fastest memory probe of the rounds this case was sampled in
    /// (fresh pages faulted in and filled, ns): the machine's speed for
    /// memory-bound work, which moved by 10-20% between two runs here
    /// while the canary stayed within 0.1%. Only for memory-bound cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_probe_ns: Option<f64>,
}

/// How much slower the canary on several cores at once may run than on
/// one before a multi-core case counts as measured with its cores shared:
/// the two stay within 5-10% of each other when every core is free.
pub const SHARED_CORES: f64 = 1.25;

/// Other processes' share of CPU time past which the machine was busy.
pub const BUSY_OTHER_CPU: f64 = 0.25;
/// Steal share past which the machine was busy.
pub const BUSY_STEAL: f64 = 0.05;

impl MachineLoad {
    /// Whether other processes or the hypervisor took more than
    /// [`BUSY_OTHER_CPU`] or [`BUSY_STEAL`] of the CPU time meanwhile.
    pub fn busy(&self) -> bool {
        self.other_cpu > BUSY_OTHER_CPU || self.steal > BUSY_STEAL
    }
    /// The multi-core canary's time over the one-core canary's when past
    /// [`SHARED_CORES`]: the case's cores were not all its own (a host
    /// lending a core elsewhere shows no steal time in the guest).
    pub fn cores_shared(&self) -> Option<f64> {
        let ratio = self.parallel_canary_ns? / self.canary_ns?;
        (ratio.is_finite() && ratio > SHARED_CORES).then_some(ratio)
    }
}

fn one() -> u32 {
    1
}

impl Measurement {
    /// The case's labels that warn about security ([`is_caution_label`]).
    pub fn caution_labels(&self) -> Vec<&str> {
        self.labels
            .iter()
            .map(String::as_str)
            .filter(|l| is_caution_label(l))
            .collect()
    }
    /// True for the canary's own measurement.
    pub fn is_canary(&self) -> bool {
        self.suite == CANARY_SUITE && self.primitive == CANARY_PRIMITIVE
    }
    /// Whether one operation fills enough memory to be memory-bound
    /// ([`memory_bound`]).
    pub fn memory_bound(&self) -> bool {
        memory_bound(&self.params)
    }
    /// Cores one timed operation keeps busy ([`cores_used`]).
    pub fn cores_used(&self) -> u32 {
        cores_used(&self.params, self.threads)
    }
    /// The case's time relative to the canary in the same rounds.
    pub fn canary_ratio(&self) -> Option<&PairedRatio> {
        self.paired.iter().find(|p| p.other == CANARY_PAIRED_KEY)
    }
    /// A stable key identifying the case across runs (for `compare`).
    pub fn case_key(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(
            "{}/{}/{}/{}/{}B/t{}/{}",
            self.suite,
            self.primitive,
            self.backend,
            self.operation,
            self.input_bytes,
            self.threads,
            params.join(",")
        )
    }
    /// Median ns per operation, when measured.
    pub fn median_ns(&self) -> Option<f64> {
        self.stats.as_ref().map(|s| s.median)
    }
    /// The fastest round (ns per operation) with its 95% interval, when
    /// rounds were kept: what `compare` and the curve advice judge by.
    pub fn fastest(&self) -> Option<cryptobench_stats::Fastest> {
        cryptobench_stats::Fastest::of(&self.samples_ns)
    }
    /// How far its instances ran apart where it was built several times to
    /// choose its placement ([`PLACEMENT_SPREAD_KEY`]).
    pub fn placement_spread(&self) -> Option<f64> {
        self.extra.get(PLACEMENT_SPREAD_KEY).copied()
    }
    /// The fastest round timed in the case's second process over the
    /// fastest in its first ([`Measurement::samples_process`]), when each
    /// timed at least three: how far a fresh process alone moves the case.
    pub fn restart_ratio(&self) -> Option<f64> {
        if self.samples_process.len() != self.samples_ns.len() {
            return None;
        }
        let fastest_in = |process: u8| {
            let xs: Vec<f64> = self
                .samples_ns
                .iter()
                .zip(&self.samples_process)
                .filter(|(_, p)| **p == process)
                .map(|(x, _)| *x)
                .collect();
            (xs.len() >= 3)
                .then(|| cryptobench_stats::Fastest::of(&xs))
                .flatten()
                .map(|f| f.value)
        };
        let (first, second) = (fastest_in(0)?, fastest_in(1)?);
        Some(second / first).filter(|r| r.is_finite() && *r > 0.0)
    }
    /// Whether the case's work per call is random by design
    /// ([`LABEL_WORK_VARIES`]).
    pub fn work_varies(&self) -> bool {
        work_varies(&self.labels)
    }
    /// Orders by median time, fastest first; cases without one come last.
    pub fn cmp_median(&self, other: &Self) -> std::cmp::Ordering {
        let time = |m: &Self| m.median_ns().unwrap_or(f64::INFINITY);
        time(self).total_cmp(&time(other))
    }
    /// Parameter value by name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }
}

/// A library as cryptobench sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendInfo {
    /// Short name used on the command line.
    pub name: String,
    /// The library's own version string (e.g. `OpenSSL 3.0.19 27 Jan 2026`).
    pub version: String,
    /// `None` when available, else the reason it is not.
    pub unavailable: Option<String>,
}

/// Where and how a run was made (DESIGN.md section 3.7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Fingerprint {
    /// Host name.
    pub hostname: String,
    /// CPU model string.
    pub cpu_model: String,
    /// Logical CPUs.
    pub cores: u32,
    /// Relevant CPU flags present (aes, pclmulqdq, avx2, ...).
    pub cpu_flags: Vec<String>,
    /// Relevant flags absent.
    #[serde(default)]
    pub cpu_flags_missing: Vec<String>,
    /// TSC frequency in Hz when an invariant TSC exists.
    pub tsc_hz: Option<f64>,
    /// Operating system and kernel.
    pub os: String,
    /// Kernel release.
    pub kernel: String,
    /// cpufreq governor when readable.
    pub governor: Option<String>,
    /// The process's address-space layout: "fixed" (randomisation off, so
    /// two runs place code and buffers alike) or "randomized"; absent in
    /// runs stored before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_layout: Option<String>,
    /// Where one-core measurements ran: "cpu N" (the measuring thread and
    /// what it started kept to one core, multi-core cases widened) or
    /// "all cpus"; absent in runs stored before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measuring_cpu: Option<String>,
    /// Total memory in bytes.
    pub memory_bytes: u64,
    /// Every backend's name and version.
    pub backends: Vec<BackendInfo>,
    /// cryptobench version.
    pub tool_version: String,
    /// git revision the binary was built from.
    pub git_revision: String,
}

impl Fingerprint {
    /// Whether `other` was taken on this machine: the same host name, CPU
    /// model and logical CPUs (a rebuilt binary or an upgraded library is
    /// still the same machine; each measurement carries its backend's
    /// version).
    pub fn same_machine(&self, other: &Fingerprint) -> bool {
        self.hostname == other.hostname
            && self.cpu_model == other.cpu_model
            && self.cores == other.cores
    }
}

/// The label of a case whose work per call is random by design (ML-DSA
/// signing's rejections, RSA's prime search): its fastest round is a
/// lucky batch rather than the code's speed, and `compare` judges it by
/// its median.
pub const LABEL_WORK_VARIES: &str = "work varies per call";

/// Whether `labels` say one call's work is random by design.
pub fn work_varies(labels: &[String]) -> bool {
    labels.iter().any(|l| l == LABEL_WORK_VARIES)
}

/// [`Fingerprint::address_layout`] of a run whose process had address
/// randomisation off; anything else ("randomized", absent) is not fixed.
pub const LAYOUT_FIXED: &str = "fixed";
/// [`Fingerprint::address_layout`] of a run with a random layout.
pub const LAYOUT_RANDOMIZED: &str = "randomized";

/// Backend-name prefix of a peer: an outside program (`openssl speed`, the
/// `argon2` CLI) measured in the same run as a reference, not a library the
/// suites call.
pub const PEER_PREFIX: &str = "peer:";

/// Backend name of every `openssl speed` measurement.
pub const OPENSSL_SPEED: &str = "peer:openssl-speed";

/// Whether `backend` names a peer (see [`PEER_PREFIX`]).
pub fn is_peer(backend: &str) -> bool {
    backend.starts_with(PEER_PREFIX)
}

/// Whether a label warns about security: such results are marked in the
/// report, never recommended, and left out of PHP's default grid.
pub fn is_caution_label(label: &str) -> bool {
    let l = label.to_ascii_lowercase();
    [
        "insecure",
        "ecb",
        "sweet32",
        "64-bit block",
        "weak",
        "broken",
        "deprecated",
        "legacy",
        "unsafe",
        "not secure",
    ]
    .iter()
    .any(|w| l.contains(w))
}

#[cfg(test)]
mod tests {
    use super::is_caution_label;

    #[test]
    fn security_warnings_are_cautions_and_context_is_not() {
        for l in [
            "ECB mode",
            "64-bit block (Sweet32)",
            "broken",
            "legacy provider",
        ] {
            assert!(is_caution_label(l), "{l}");
        }
        for l in ["AEAD", "cofactor > 1", "not for new designs"] {
            assert!(!is_caution_label(l), "{l}");
        }
    }

    #[test]
    fn the_restart_ratio_needs_three_rounds_in_each_process() {
        let mut m = crate::CaseSpec::new("hash", "SHA-256", "python", "3", "digest")
            .measurement(crate::CaseStatus::Measured, None);
        m.samples_ns = vec![100.0, 110.0, 101.0, 111.0, 102.0, 112.0];
        m.samples_process = vec![0, 1, 0, 1, 0, 1];
        let r = m.restart_ratio().expect("three rounds each");
        assert!((r - 1.1).abs() < 0.01, "{r}");
        m.samples_process = vec![0, 1, 0, 1, 0, 0];
        assert_eq!(m.restart_ratio(), None, "two rounds in the second");
        m.samples_process = vec![0, 1, 0];
        assert_eq!(m.restart_ratio(), None, "tags must cover every sample");
        m.samples_process.clear();
        assert_eq!(m.restart_ratio(), None);
    }
}
