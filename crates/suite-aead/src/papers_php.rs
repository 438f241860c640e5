//! The seeds' own runtime beside the native figures: both seeds measured
//! from PHP, so when a run has php measurements each paper shows them and
//! judges each claim on them too. A cell PHP could not do carries its
//! reason ([`NoPhpFigure`]) into the table instead of a number.

use super::SUITE;
use cryptobench_core::paper::{show_ratio, verdict_line};
use cryptobench_core::verdict::speedup;
use cryptobench_core::{CaseStatus, Estimate, Measurement, Verdict};

/// The php backend's name in measurements.
pub(super) const PHP: &str = "php";

/// The PHP functions seed 003 timed (`sodium_crypto_aead_*_encrypt`).
pub(super) const SODIUM_API: &str = "sodium_crypto_aead_";

/// The PHP function seed 004 timed.
pub(super) const OPENSSL_API: &str = "openssl_encrypt";

/// Why a table has no PHP figure where it would stand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum NoPhpFigure {
    /// The php backend planned or ran the cell and said why it has no
    /// figure ("unavailable: AEGIS needs PHP 8.4 ...").
    #[error("{status}: {reason}")]
    NotRun {
        /// The cell's status.
        status: &'static str,
        /// The php backend's reason.
        reason: String,
    },
    /// The run has no php cell for it.
    #[error("not measured")]
    NotMeasured,
    /// Measured, but without the statistics the figure is drawn from.
    #[error("no statistics")]
    NoStatistics,
}

/// Whether the run measured (or tried to measure) anything from PHP.
pub(super) fn has_php(ms: &[Measurement]) -> bool {
    ms.iter().any(|m| m.suite == SUITE && m.backend == PHP)
}

/// The php measurement of `alg` through a PHP function whose name starts
/// with `api`, at `op` and `size`; else why there is none (as the php
/// backend planned or ran it).
pub(super) fn php_cell<'a>(
    ms: &'a [Measurement],
    alg: &str,
    api: &str,
    op: &str,
    size: u64,
) -> Result<&'a Measurement, NoPhpFigure> {
    let php: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == SUITE && m.backend == PHP && m.primitive == alg)
        .filter(|m| m.param("api").is_some_and(|a| a.starts_with(api)))
        .collect();
    let here = |m: &&&Measurement| m.operation == op && m.input_bytes == size;
    if let Some(m) = php
        .iter()
        .filter(here)
        .find(|m| m.status == CaseStatus::Measured)
    {
        return Ok(m);
    }
    // PHP's unavailable cells are planned once per algorithm and function.
    let why = php
        .iter()
        .find(here)
        .or_else(|| php.iter().find(|m| m.status == CaseStatus::Unavailable))
        .map(|m| NoPhpFigure::NotRun {
            status: m.status.as_str(),
            reason: m.reason.as_deref().unwrap_or("no reason given").to_string(),
        });
    Err(why.unwrap_or(NoPhpFigure::NotMeasured))
}

/// A figure drawn from a php cell (`rate`, `ops`), or why there is none.
pub(super) fn php_figure(
    cell: Result<&Measurement, NoPhpFigure>,
    figure: fn(&Measurement) -> Option<f64>,
) -> Result<f64, NoPhpFigure> {
    cell.and_then(|m| figure(m).ok_or(NoPhpFigure::NoStatistics))
}

/// A PHP figure as shown, or why there is none.
/// A table cell: the figure, or only the status when the cell did not run
/// (its reason, a sentence, is in the verdict lines under the table; in
/// the cell it made the table 170 columns wide).
pub(super) fn show_php(r: &Result<f64, NoPhpFigure>, shown: impl Fn(f64) -> String) -> String {
    match r {
        Ok(x) => shown(*x),
        Err(NoPhpFigure::NotRun { status, .. }) => status.to_string(),
        Err(why) => why.to_string(),
    }
}

/// PHP sodium's (20 MB GB/s, 1 KB ops/s) for `alg`, as seed 003 measured.
pub(super) fn php_sodium_figures(
    ms: &[Measurement],
    alg: &str,
) -> (Result<f64, NoPhpFigure>, Result<f64, NoPhpFigure>) {
    let at = |size: u64, figure| php_figure(php_cell(ms, alg, SODIUM_API, "encrypt", size), figure);
    (
        at(crate::SEED003_RATE_BYTES, crate::summary::rate),
        at(crate::SEED003_OPS_BYTES, crate::summary::ops),
    )
}

/// How much faster `a` runs than `b` through the PHP functions named by
/// `api`, at `op` and `size`; or why there is no such figure.
pub(super) fn php_speedup(
    ms: &[Measurement],
    api: &str,
    op: &str,
    (a, b): (&str, &str),
    size: u64,
) -> Result<Estimate, NoPhpFigure> {
    let at = |alg: &str| php_cell(ms, alg, api, op, size);
    let (x, y) = (at(a)?, at(b)?);
    speedup(x, y).ok_or(NoPhpFigure::NoStatistics)
}

/// A claim's verdict line on a PHP figure, or why there is none.
pub(super) fn judge_php(
    claim: &str,
    est: Result<Estimate, NoPhpFigure>,
    decide: impl Fn(&Estimate) -> Verdict,
) -> String {
    let claim = format!("{claim}, in PHP");
    match est {
        Ok(e) => verdict_line(&claim, decide(&e), &show_ratio(&e)),
        Err(why) => format!("{claim}: {why}"),
    }
}

/// What PHP adds to each `openssl_encrypt` call over this machine's
/// OpenSSL doing the same (seed 004's `op`), for GCM and for CCM, beside
/// `php_ratio` (PHP's GCM / CCM, as its verdict read it) and OpenSSL's;
/// `None` unless all four were measured and PHP is the slower on both. A
/// fixed cost per call (chiefly the fresh output string `openssl_encrypt`
/// returns, its pages faulted in each call) adds the same to GCM and CCM,
/// so it pulls PHP's ratio toward 1, by as much as that cost is at the
/// moment: the reason PHP's verdict can land on either side of the band's
/// 2x edge from one run to the next.
pub(super) fn php_call_overhead(
    ms: &[Measurement],
    op: &str,
    php_ratio: &Estimate,
) -> Option<String> {
    let (native_gcm, native_ccm) = super::gcm_ccm_cases(ms, "openssl", op)?;
    let added = |alg: &str, native: &Measurement| {
        let php = php_cell(ms, alg, OPENSSL_API, op, super::SEED004_BYTES).ok()?;
        Some(php.median_ns()? - native.median_ns()?)
    };
    let added_gcm = added("AES-256-GCM", native_gcm)?;
    let added_ccm = added("AES-256-CCM", native_ccm)?;
    if added_gcm <= 0.0 || added_ccm <= 0.0 {
        return None;
    }
    let native_ratio = speedup(native_gcm, native_ccm)?;
    Some(format!(
        "PHP adds {:.1} ms to each {op} call with GCM and {:.1} ms with CCM over OpenSSL's own (chiefly the fresh output string it returns): a cost both share, which pulls PHP's GCM / CCM to {:.2}x from OpenSSL's {:.2}x and moves with what it costs at the moment",
        added_gcm / 1e6,
        added_ccm / 1e6,
        php_ratio.value,
        native_ratio.value,
    ))
}
