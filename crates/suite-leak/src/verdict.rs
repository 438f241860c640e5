//! The verdict of one screen and the measurement that stores it.
//!
//! - **leak**: some test's |t| is above [`THRESHOLD`] (10, far beyond
//!   chance for any of the seven tests: dudect's and tlsfuzzer's "definitely
//!   not constant time" line).
//! - **no leak found**: no |t| above it, and the run could have seen a
//!   small effect: the effect it finds in 9 runs of 10
//!   ([`cryptobench_stats::welch::detectable_effect`]) is at most
//!   [`INCONCLUSIVE_SHARE`] of the operation's own time.
//! - **inconclusive**: no |t| above it, but only a larger effect would
//!   have been found; more measurements (`--measurements`, `--time`) or a
//!   quieter machine narrow it.

use crate::case::{LeakInfo, CLASSES};
use crate::measure::Sampled;
use cryptobench_core::{CaseStatus, CheckResult, Measurement};
use cryptobench_stats::welch::{self, Screen};

/// |t| above which a screen says "leak".
pub const THRESHOLD: f64 = 10.0;
/// Largest detectable effect, as a share of the operation, that still
/// lets a clean screen say "no leak found" (5%).
pub const INCONCLUSIVE_SHARE: f64 = 0.05;
/// The test whose mean difference is reported as the effect and whose
/// standard error sets the detectable effect: cropped at the 99th
/// percentile, so a few interrupts do not decide either, while a shift of
/// the whole distribution passes nearly whole.
pub const EFFECT_TEST_PERCENTILE: f64 = 99.0;
/// Measurements kept per stored sample: each stored sample is the median
/// of this many consecutive measurements (the raw ones are not stored).
pub const STORED_CHUNK: usize = 1000;

/// What a screen found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Some |t| above the threshold.
    Leak,
    /// Clean, with the power to see an effect of the stated size.
    NoLeakFound,
    /// Clean, but only a large effect would have shown.
    Inconclusive,
}

impl Verdict {
    /// Name in results.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Leak => "leak",
            Verdict::NoLeakFound => "no leak found",
            Verdict::Inconclusive => "inconclusive",
        }
    }
    /// The verdict by its stored name.
    pub fn from_name(name: &str) -> Option<Self> {
        [Verdict::Leak, Verdict::NoLeakFound, Verdict::Inconclusive]
            .into_iter()
            .find(|v| v.name() == name)
    }
}

/// One screen's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The verdict.
    pub verdict: Verdict,
    /// Every test's t.
    pub screen: Screen,
    /// Largest |t|.
    pub max_t: f64,
    /// Class 1's mean minus class 0's, ns per call (cropped test).
    pub effect_ns: f64,
    /// The effect found in 9 runs of 10 with these measurements, ns.
    pub detectable_ns: f64,
    /// The operation's median time, ns per call (both classes).
    pub operation_ns: f64,
    /// Measurements of both classes.
    pub measurements: usize,
}

impl Finding {
    /// The detectable effect as a share of the operation.
    pub fn detectable_share(&self) -> f64 {
        self.detectable_ns / self.operation_ns
    }
    /// One line: verdict, |t|, effect beside the operation, power.
    pub fn line(&self) -> String {
        let power = format!(
            "an effect over {} ({:.1}% of the operation) would have been found with {} measurements",
            ns(self.detectable_ns),
            self.detectable_share() * 100.0,
            self.measurements
        );
        format!(
            "{}: max |t| {:.1} (threshold {THRESHOLD}), effect {} on an operation of {}; {power}",
            self.verdict.name(),
            self.max_t,
            ns(self.effect_ns),
            ns(self.operation_ns),
        )
    }
}

/// A time for a line: ns below 10 us, else us.
pub fn ns(x: f64) -> String {
    if !x.is_finite() {
        "?".into()
    } else if x.abs() < 10_000.0 {
        format!("{x:.1} ns")
    } else {
        format!("{:.2} us", x / 1000.0)
    }
}

/// Judges the measurements of one screen.
pub fn judge(sampled: &Sampled) -> Finding {
    let [a, b] = &sampled.classes;
    let screen = welch::screen(a, b);
    let max_t = screen.max_abs_t();
    let pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    let operation_ns = cryptobench_stats::median(&pooled);
    let effect = screen.test(&welch::cropped_name(EFFECT_TEST_PERCENTILE));
    let effect_ns = effect.map_or(f64::NAN, |w| w.mean_b - w.mean_a);
    let detectable_ns = effect.map_or(f64::INFINITY, |w| welch::detectable_effect(w.se, THRESHOLD));
    let verdict = if max_t > THRESHOLD {
        Verdict::Leak
    } else if detectable_ns <= INCONCLUSIVE_SHARE * operation_ns {
        Verdict::NoLeakFound
    } else {
        Verdict::Inconclusive
    };
    Finding {
        verdict,
        screen,
        max_t,
        effect_ns,
        detectable_ns,
        operation_ns,
        measurements: sampled.total(),
    }
}

/// Name of a test in a measurement's `extra` (`t raw`, `t cropped p50`).
pub fn t_key(test: &str) -> String {
    format!("t {test}")
}

/// The stored measurement of a finished screen: samples are medians of
/// consecutive chunks of measurements (both classes), the figures in
/// `extra`, the verdict and classes in `params`.
pub fn measurement(
    info: &LeakInfo,
    sampled: &Sampled,
    finding: &Finding,
    checks: Vec<CheckResult>,
) -> Measurement {
    let mut m = base(info).measurement(CaseStatus::Measured, None);
    m.checks = checks;
    m.iterations_per_sample = u64::from(sampled.calls);
    let mut merged: Vec<(usize, f64)> = Vec::new();
    for (class, xs) in sampled.classes.iter().enumerate() {
        merged.extend(xs.iter().map(|x| (class, *x)));
    }
    m.samples_ns = merged
        .chunks(STORED_CHUNK)
        .map(|c| cryptobench_stats::median(&c.iter().map(|p| p.1).collect::<Vec<_>>()))
        .collect();
    if !m.samples_ns.is_empty() {
        let mut summary =
            cryptobench_engine::sample::sampling::summarize(&m.samples_ns, m.input_bytes, 1);
        summary.precision = Some(cryptobench_engine::sample::sampling::reported_precision(
            &m.samples_ns,
        ));
        m.stats = Some(summary);
    }
    m.params
        .insert("verdict".into(), finding.verdict.name().into());
    for t in &finding.screen.tests {
        if let Some(w) = t.welch {
            m.extra.insert(t_key(&t.name), w.t);
        }
    }
    let figures = [
        ("max |t|", finding.max_t),
        ("threshold", THRESHOLD),
        ("effect ns", finding.effect_ns),
        ("detectable ns", finding.detectable_ns),
        ("operation ns", finding.operation_ns),
        ("measurements", finding.measurements as f64),
        ("measurements class 0", sampled.classes[0].len() as f64),
        ("measurements class 1", sampled.classes[1].len() as f64),
        ("seconds", sampled.elapsed.as_secs_f64()),
    ];
    for (k, v) in figures {
        if v.is_finite() {
            m.extra.insert(k.into(), v);
        }
    }
    if finding.verdict == Verdict::Leak && info.role == crate::case::Role::Library {
        m.warnings.push(format!(
            "timing leak: max |t| {:.1} > {THRESHOLD} between {} and {}",
            finding.max_t, info.classes[0], info.classes[1]
        ));
    }
    m
}

/// The case's spec with what the screen adds to every measurement.
pub fn base(info: &LeakInfo) -> cryptobench_core::CaseSpec {
    let mut spec = info.spec.clone();
    for (i, c) in info.classes.iter().enumerate().take(CLASSES) {
        spec = spec.param(&format!("class {i}"), c);
    }
    spec.param("probes", &info.probes)
        .param("role", info.role.name())
}
