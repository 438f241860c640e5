//! One source for every piece of advice.
//!
//! The `run` summary lines (each suite's `headline()`) and `recommend` both
//! call these functions, so they can never name different winners for the
//! same run. Picking the fastest median flips from run to run when two
//! candidates are close, so a candidate whose time interval reaches within
//! [`TIE_MARGIN`] of the fastest one's is *tied* with it, and ties resolve
//! by a stated rule: security level, then standard and interop status, then
//! a fixed backend order. Speed decides only between candidates that are
//! clearly apart.

use crate::disturbance::CalmLevels;
use crate::model::{is_caution_label, CaseStatus, CheckOutcome, Measurement};
use crate::units::{format_ns, format_per_s, format_rate, format_size};
use crate::verdict::{speedup, time_ratio};

/// The parameter every runtime's case carries: the runtime's name. A
/// measurement with it was timed inside a language runtime (its runner's
/// clock), beside the native cell it wraps.
pub const RUNTIME_PARAM: &str = "runtime";

/// Whether a case's parameters mark it as a runtime's.
pub fn is_runtime_case(params: &std::collections::BTreeMap<String, String>) -> bool {
    params.contains_key(RUNTIME_PARAM)
}

/// Whether a measurement was timed inside a language runtime.
pub fn is_runtime(m: &Measurement) -> bool {
    is_runtime_case(&m.params)
}

/// Two candidates closer than this (relative time, on their intervals)
/// are tied: the rule decides, not the noise.
pub const TIE_MARGIN: f64 = 0.05;

/// The fewest rounds a case the advice decides on samples
/// ([`crate::CaseSpec::min_rounds`]). With the five or six rounds of a
/// paced quick run, the 95% interval of a median is its lowest round to its
/// highest: on 2026-11-28 one round where aws-lc-rs's X25519 derive met a
/// disturbed moment tied OpenSSL's with it (its four other rounds 22-27%
/// slower) in one quick run of five. Twenty rounds put that interval
/// between the 6th and the 15th.
pub const ADVICE_ROUNDS: usize = 20;

/// One piece of advice and the measurements it rests on.
#[derive(Debug, Clone)]
pub struct Advice<'a> {
    /// What the advice is about (`AEAD, bulk data`, `Curve, 128-bit`, ...).
    pub topic: String,
    /// The advice, one sentence or a few.
    pub text: String,
    /// The measurements it rests on.
    pub evidence: Vec<&'a Measurement>,
}

impl Advice<'_> {
    /// The one-line form printed by `run` (`topic: text`).
    pub fn line(&self) -> String {
        format!("{}: {}", self.topic, self.text)
    }
}

/// Backends in tie-break order: the widely deployed system libraries first.
const BACKEND_ORDER: [&str; 6] = [
    "openssl",
    "libsodium",
    "libargon2",
    "libaegis",
    "rustcrypto",
    "libmcrypt",
];

fn backend_rank(backend: &str) -> usize {
    BACKEND_ORDER
        .iter()
        .position(|b| *b == backend)
        .unwrap_or(BACKEND_ORDER.len())
}

/// Measured, every check passed, a library we call (not a peer or a
/// language runtime).
pub fn verified(m: &Measurement) -> bool {
    verified_anywhere(m) && !is_runtime(m)
}

/// Measured, every check passed, not a peer: a library we call or a
/// runtime's row (`recommend --runtime` chooses among these).
pub fn verified_anywhere(m: &Measurement) -> bool {
    m.status == CaseStatus::Measured
        && m.stats.as_ref().is_some_and(|s| s.median > 0.0)
        && m.checks.iter().all(|c| c.outcome != CheckOutcome::Fail)
        && !m.backend.starts_with("peer:")
}

/// A measurement's time interval around its median; the median for both
/// ends when no interval was recorded. For sums across cases measured in
/// different groups, where no paired ratio exists.
fn span(s: &crate::model::Summary) -> (f64, f64) {
    if s.ci95[0] > 0.0 && s.ci95[1] >= s.ci95[0] {
        (s.ci95[0].min(s.median), s.ci95[1].max(s.median))
    } else {
        (s.median, s.median)
    }
}

/// Verified and without any security warning.
pub fn recommendable(m: &Measurement) -> bool {
    verified(m) && !m.labels.iter().any(|l| is_caution_label(l))
}

/// `a` is tied with `best` (same work): its time is not clearly above.
pub fn tied(a: &Measurement, best: &Measurement) -> bool {
    time_ratio(a, best).is_some_and(|r| r.lo <= 1.0 + TIE_MARGIN)
}

/// `a` is tied with `best` on their fastest rounds ([`weight`]): the
/// interval of `a`'s does not start clearly above that of `best`'s. For
/// choices between cases timed at different moments: a multi-core case
/// timed while the host lent a core elsewhere has a median interval of
/// +-20% one run and +-4% the next, while its fastest rounds stay put.
pub fn tied_on_fastest_rounds(a: &Measurement, best: &Measurement) -> bool {
    match (weight(a), weight(best)) {
        (Some((_, lo, _)), Some((_, _, hi))) => lo <= hi * (1.0 + TIE_MARGIN),
        _ => false,
    }
}

/// The ratio of `a`'s time to `b`'s as measured side by side (the paired
/// ratio of one group's rounds), when they were.
fn paired_time_ratio(a: &Measurement, b: &Measurement) -> Option<crate::verdict::Estimate> {
    time_ratio(a, b).filter(|r| r.paired)
}

/// `a` is tied with `best`, judged side by side where it can be: on their
/// paired ratio when they were timed in the same rounds, else on their
/// fastest rounds ([`tied_on_fastest_rounds`]). A quick run gives a
/// public-key case five or six rounds, whose fastest-round intervals on a
/// busy host are wide: they tied OpenSSL's P-521 derive with aws-lc-rs's in
/// one run of two, while every round of both runs had OpenSSL 26-49%
/// slower.
///
/// One round alone does not make a tie: with the five rounds a quick run
/// gives, the interval of the median reaches down to the lowest round, and
/// one round where the faster backend met a disturbed moment tied
/// OpenSSL's X25519 derive with aws-lc-rs's (every other round 8-31%
/// slower) in two quick runs of five.
pub fn tied_side_by_side(a: &Measurement, best: &Measurement) -> bool {
    match paired_time_ratio(a, best) {
        Some(r) if timed_together(a, best) => {
            let ratios = cryptobench_stats::round_ratios(&a.samples_ns, &best.samples_ns);
            tied_in_rounds(r.lo, &ratios, TIE_MARGIN)
        }
        Some(r) => r.lo <= 1.0 + TIE_MARGIN,
        None => tied_on_fastest_rounds(a, best),
    }
}

/// Whether `a` and `b` were timed in the rounds of one group.
fn timed_together(a: &Measurement, b: &Measurement) -> bool {
    a.group.is_some() && a.group == b.group
}

/// The tie rule for ratios timed round by round (the slower over the
/// faster): the lower end `lo` of their median's 95% interval reaches
/// `margin` ([`TIE_MARGIN`] for backends and algorithms), and at least two
/// rounds lie within it.
fn tied_in_rounds(lo: f64, ratios: &[f64], margin: f64) -> bool {
    let edge = 1.0 + margin;
    lo <= edge && ratios.iter().filter(|r| **r <= edge).count() >= 2
}

/// A case's time per operation at its fastest rounds ([`weight`]).
pub fn fastest_rounds_time(m: &Measurement) -> Option<f64> {
    weight(m).map(|(value, _, _)| value)
}

/// The candidate the rule picks, and every candidate tied with the
/// fastest. `rule` orders candidates (smaller is preferred); the backend
/// order and the names break what the rule leaves equal, so the choice is
/// the same for the same set of tied candidates whatever their medians.
pub fn choose<'a, K: Ord>(
    candidates: &[&'a Measurement],
    rule: impl Fn(&Measurement) -> K,
) -> Option<(&'a Measurement, Vec<&'a Measurement>)> {
    let fastest = candidates.iter().copied().min_by(|a, b| a.cmp_median(b))?;
    ranked(candidates, fastest, tied, rule)
}

/// [`choose`] side by side ([`tied_side_by_side`]): the backends of one
/// operation by their paired ratios, candidates from different groups by
/// fastest rounds ([`weight`]), as a disturbed moment moves those one at a
/// time. On medians, one quick run of three found Ed25519 verify of aws-lc-rs
/// tied with RustCrypto's (a median interval of +-17%).
pub fn choose_side_by_side<'a, K: Ord>(
    candidates: &[&'a Measurement],
    rule: impl Fn(&Measurement) -> K,
) -> Option<(&'a Measurement, Vec<&'a Measurement>)> {
    let time = |m: &Measurement| fastest_rounds_time(m).unwrap_or(f64::INFINITY);
    let (first, rest) = candidates.split_first()?;
    let fastest = rest.iter().copied().fold(*first, |best, m| {
        let faster = match paired_time_ratio(m, best) {
            Some(r) => r.value < 1.0,
            None => time(m) < time(best),
        };
        if faster {
            m
        } else {
            best
        }
    });
    ranked(candidates, fastest, tied_side_by_side, rule)
}

/// The candidates `is_tied` ties with `fastest`, ordered by `rule`, the
/// backend order and the names; the first is the pick.
fn ranked<'a, K: Ord>(
    candidates: &[&'a Measurement],
    fastest: &'a Measurement,
    is_tied: fn(&Measurement, &Measurement) -> bool,
    rule: impl Fn(&Measurement) -> K,
) -> Option<(&'a Measurement, Vec<&'a Measurement>)> {
    let mut ties: Vec<&Measurement> = candidates
        .iter()
        .copied()
        .filter(|m| m.case_key() == fastest.case_key() || is_tied(m, fastest))
        .collect();
    ties.sort_by(|a, b| {
        (rule(a), backend_rank(&a.backend), &a.backend, &a.primitive).cmp(&(
            rule(b),
            backend_rank(&b.backend),
            &b.backend,
            &b.primitive,
        ))
    });
    Some((ties[0], ties))
}

/// Key length in bits an AEAD name carries (ChaCha20 and XChaCha20: 256).
fn aead_key_bits(name: &str) -> u32 {
    if name.contains("ChaCha20") {
        return 256;
    }
    name.split('-')
        .filter_map(|p| p.trim_end_matches('L').parse::<u32>().ok())
        .next()
        .unwrap_or(0)
}

/// Standard and interop status of an AEAD, 0 = most widely specified.
fn aead_standing(name: &str) -> u32 {
    if name.ends_with("-GCM") {
        0 // NIST SP 800-38D, TLS 1.2/1.3
    } else if name == "ChaCha20-Poly1305" {
        1 // RFC 8439, TLS 1.3
    } else if name.ends_with("-GCM-SIV") || name.ends_with("-CCM") {
        2 // RFC 8452; NIST SP 800-38C
    } else if name.ends_with("-OCB") || name.starts_with("XChaCha20") {
        3 // RFC 7253; draft
    } else if name.starts_with("AEGIS") {
        4 // CFRG draft, few implementations
    } else {
        5
    }
}

/// The AEAD tie-break rule: higher key length, then standard status.
fn aead_rule(m: &Measurement) -> (std::cmp::Reverse<u32>, u32) {
    (
        std::cmp::Reverse(aead_key_bits(&m.primitive)),
        aead_standing(&m.primitive),
    )
}

const AEAD_RULE: &str = "ties broken by key length, standard status, backend";

fn names(ms: &[&Measurement]) -> String {
    ms.iter()
        .map(|m| format!("{} ({})", m.primitive, m.backend))
        .collect::<Vec<_>>()
        .join(", ")
}

fn bytes_rate(m: &Measurement) -> String {
    match m.stats.as_ref() {
        Some(s) if m.input_bytes > 0 && s.median > 0.0 => {
            format_rate(m.input_bytes as f64 * 1e9 / s.median)
        }
        _ => "-".into(),
    }
}

/// AEAD advice: the bulk-data choice at the largest size measured and the
/// small-message choice at the smallest size of at least 1000 bytes.
/// Only authenticated ciphers are candidates.
pub fn aead(ms: &[Measurement]) -> Vec<Advice<'_>> {
    let enc: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == "aead" && m.operation == "encrypt" && recommendable(m))
        .collect();
    let mut sizes: Vec<u64> = enc.iter().map(|m| m.input_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut out = Vec::new();
    let at = |size: u64| -> Vec<&Measurement> {
        enc.iter()
            .copied()
            .filter(|m| m.input_bytes == size)
            .collect()
    };
    if let Some(&bulk) = sizes.last() {
        let cands = at(bulk);
        if let Some((pick, ties)) = choose_side_by_side(&cands, aead_rule) {
            let mut text = format!(
                "Use {} ({}) for bulk data, {} at {}",
                pick.primitive,
                pick.backend,
                bytes_rate(pick),
                format_size(bulk)
            );
            let mut evidence = vec![pick];
            // The yardstick is OpenSSL's AES-256-GCM, the one most readers
            // run, whenever it was measured: the fastest of several GCMs
            // within a few percent of each other changes with the noise,
            // and the advice line with it.
            let gcms: Vec<&Measurement> = cands
                .iter()
                .copied()
                .filter(|m| m.primitive == "AES-256-GCM")
                .collect();
            let gcm = gcms
                .iter()
                .copied()
                .find(|m| m.backend == "openssl")
                .or_else(|| choose(&gcms, |_| 0).map(|(g, _)| g));
            if let Some(g) = gcm.filter(|g| g.primitive != pick.primitive) {
                if let Some(s) = speedup(pick, g) {
                    text.push_str(&format!(
                        ", {:.2}x AES-256-GCM ({}; 95% interval {:.2}-{:.2})",
                        s.value, g.backend, s.lo, s.hi
                    ));
                }
                evidence.push(g);
            }
            push_ties(&mut text, &mut evidence, pick, &ties, AEAD_RULE);
            out.push(Advice {
                topic: "AEAD, bulk data".into(),
                text,
                evidence,
            });
        }
    }
    let small = sizes
        .iter()
        .copied()
        .find(|&s| s >= 1000)
        .or(sizes.first().copied());
    if let Some(small) = small.filter(|s| Some(s) != sizes.last()) {
        if let Some((pick, ties)) = choose_side_by_side(&at(small), aead_rule) {
            let per_s = pick.median_ns().map_or(0.0, |t| 1e9 / t);
            let mut text = format!(
                "Use {} ({}) for {} messages, {}",
                pick.primitive,
                pick.backend,
                format_size(small),
                format_per_s(per_s, "msg")
            );
            let mut evidence = vec![pick];
            push_ties(&mut text, &mut evidence, pick, &ties, AEAD_RULE);
            out.push(Advice {
                topic: "AEAD, small messages".into(),
                text,
                evidence,
            });
        }
    }
    out
}

fn push_ties<'a>(
    text: &mut String,
    evidence: &mut Vec<&'a Measurement>,
    pick: &Measurement,
    ties: &[&'a Measurement],
    rule: &str,
) {
    let others: Vec<&Measurement> = ties
        .iter()
        .copied()
        .filter(|m| m.case_key() != pick.case_key())
        .collect();
    if !others.is_empty() {
        text.push_str(&format!(
            "; tied within {:.0}% on the intervals with {} ({rule})",
            TIE_MARGIN * 100.0,
            names(&others)
        ));
        evidence.extend(others);
    }
}

/// A grid whose largest point takes less than this share of a target
/// stops short of it: the advice says so instead of pretending.
const GRID_SHORT_SHARE: f64 = 0.25;

fn num(m: &Measurement, k: &str) -> u64 {
    m.param(k).and_then(|v| v.parse().ok()).unwrap_or(0)
}

/// An Argon2 point's setting as the advice names it.
fn setting_of(m: &Measurement) -> String {
    format!(
        "m = {} MiB, t = {}, p = {} ({})",
        num(m, "m_kib") / 1024,
        num(m, "t"),
        num(m, "p"),
        m.backend
    )
}

/// Argon2id advice per latency target: the measured point with the most
/// memory, then passes, then fewest lanes (RFC 9106 section 4) whose whole
/// interval fits the target; the backend order breaks ties. When even the
/// grid's largest point is far under the target, the advice says where the
/// grid stops and points to `cryptobench argon2 tune`. A point the run's
/// short tune chose for the target ([`TUNED_FOR_NS`]) answers it while the
/// tune's time of it at calm speed ([`TUNE_CALM_TIME`]) and as timed
/// ([`TUNE_AS_TIMED`], when labelled) meet [`TUNE_KEEP_TOLERANCE`]
/// ([`still_answers`]); the line quotes those shares and the run's own.
/// A point without that label (an older run's) is judged by the run's
/// median, at the run's calm speed
/// when its canary shows it was timed in a disturbed moment
/// ([`CalmLevels::slowdown`]); otherwise the line says how far it landed,
/// and it still answers when it lands nearer the target than the grid's
/// pick (the grid's largest fitting point, often a tenth of a long
/// target), else the grid answers.
pub fn argon2<'a>(ms: &'a [Measurement], targets_ns: &[f64]) -> Vec<Advice<'a>> {
    let points: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == "argon2" && m.primitive == "Argon2id" && m.operation == "hash")
        .filter(|m| recommendable(m))
        .collect();
    if points.is_empty() {
        return Vec::new();
    }
    let upper = |m: &Measurement| {
        m.stats
            .as_ref()
            .map_or(f64::MAX, |s| s.ci95[1].max(s.median))
    };
    let grid_max_kib = points.iter().map(|m| num(m, "m_kib")).max().unwrap_or(0);
    let calm = CalmLevels::of(ms);
    let mut out = Vec::new();
    for &target in targets_ns {
        let shown = format_ns(target);
        let flag = shown.replace(' ', "");
        let tuned = points
            .iter()
            .copied()
            .find(|m| num(m, TUNED_FOR_NS) == target as u64 && target >= 1.0);
        let pick = points
            .iter()
            .copied()
            .filter(|m| upper(m) <= target)
            .min_by_key(|m| {
                (
                    std::cmp::Reverse(num(m, "m_kib")),
                    std::cmp::Reverse(num(m, "t")),
                    num(m, "p"),
                    backend_rank(&m.backend),
                    m.backend.clone(),
                )
            });
        let mut missed = String::new();
        if let Some(m) = tuned {
            let took = m.median_ns().unwrap_or(0.0);
            let share = took / target;
            let setting = setting_of(m);
            let holds = |share: f64| (share - 1.0).abs() <= TUNE_KEEP_TOLERANCE;
            let origin = m
                .labels
                .iter()
                .find_map(|l| l.strip_prefix(TUNE_KEPT_FROM))
                .map_or("tuned in this run".to_string(), |run| {
                    format!(
                        "kept from run {run}: still within {:.0}%",
                        TUNE_KEEP_TOLERANCE * 100.0
                    )
                });
            // The tune's own judgement, at calm speed, decides: judged
            // again by the run's median (8-44% over the target in five
            // quick runs here, the setting the same), the 1 s line fell
            // back to the grid in one of them.
            // With its time as timed beside it, the two bound what the
            // hash takes undisturbed ([`still_answers`]).
            let share_of = |d: std::time::Duration| d.as_secs_f64() * 1e9 / target;
            let tuned_share = calm_time_of(m).map(share_of);
            let timed_share = as_timed_of(m).map(share_of);
            let answers = |calm: f64| still_answers(calm, timed_share.unwrap_or(calm));
            if let Some(calm_share) = tuned_share.filter(|&s| answers(s)) {
                let as_timed = timed_share.map_or(String::new(), |t| {
                    format!(" and {:.0}% as timed there", t * 100.0)
                });
                out.push(Advice {
                    topic: format!("Argon2id, {shown}"),
                    text: format!(
                        "{setting}, {} per hash ({:.0}% of the target in this run, {:.0}% at the \
                         machine's calm speed in the short tune{as_timed}, {origin})",
                        format_ns(took),
                        share * 100.0,
                        calm_share * 100.0
                    ),
                    evidence: vec![m],
                });
                continue;
            }
            // A hash timed too slow while the machine ran slow (its canary
            // past `DISTURBED`) is judged at the run's calm speed:
            // disturbance only adds time, and falling back to the grid on
            // such a moment made the advice flip between identical runs.
            let slowed = calm.slowdown(m).filter(|_| !holds(share) && share > 1.0);
            let calm_share = share / slowed.unwrap_or(1.0);
            if holds(calm_share) {
                let moment = slowed.map_or(String::new(), |f| {
                    format!(
                        ", timed while the machine ran {:.0}% slower than calm: {:.0}% at calm speed",
                        (f - 1.0) * 100.0,
                        calm_share * 100.0
                    )
                });
                out.push(Advice {
                    topic: format!("Argon2id, {shown}"),
                    text: format!(
                        "{setting}, {} per hash ({:.0}% of the target{moment}, {origin})",
                        format_ns(took),
                        share * 100.0
                    ),
                    evidence: vec![m],
                });
                continue;
            }
            let why = format!(
                "{:.0}% of the target: outside +-{:.0}%, the machine's speed changed between the tune and the measurement",
                share * 100.0,
                TUNE_KEEP_TOLERANCE * 100.0
            );
            // A missed setting still answers when it lands nearer the
            // target than the grid's pick: the grid's largest fitting
            // point is often a tenth of it, and switching to it on one
            // slow measurement made the advice flip between identical runs.
            let off = |ns: f64| (ns / target).ln().abs();
            // At least as near: the grid's pick is often the tuned point
            // itself (timed under the target, it fits), and naming the same
            // setting as a fallback made the line differ for nothing.
            let nearer = pick.is_none_or(|g| off(took) <= off(g.median_ns().unwrap_or(0.0)));
            if took > 0.0 && nearer {
                out.push(Advice {
                    topic: format!("Argon2id, {shown}"),
                    text: format!(
                        "{setting}, {} per hash ({why}; still nearer the target than any grid point; \
                         `cryptobench argon2 tune --target {flag}` refines it)",
                        format_ns(took)
                    ),
                    evidence: vec![m],
                });
                continue;
            }
            missed = format!(
                " (the run's short tune chose {setting}, which took {} here, {why})",
                format_ns(took)
            );
        }
        let advice = match pick {
            Some(m) => {
                let took = m.median_ns().unwrap_or(0.0);
                let mut text = format!("{}, {} per hash", setting_of(m), format_ns(took));
                if num(m, "m_kib") == grid_max_kib && took < target * GRID_SHORT_SHARE {
                    text.push_str(&format!(
                        "; the measured grid stops at {} MiB, far below what {shown} allows: \
                         run `cryptobench argon2 tune --target {flag}` for the setting that fills it",
                        grid_max_kib / 1024
                    ));
                } else {
                    text.push_str(&format!(
                        "; `cryptobench argon2 tune --target {flag}` refines it"
                    ));
                }
                text.push_str(&missed);
                Advice {
                    topic: format!("Argon2id, {shown}"),
                    text,
                    evidence: vec![m],
                }
            }
            None => {
                let quickest = points
                    .iter()
                    .copied()
                    .min_by(|a, b| upper(a).total_cmp(&upper(b)));
                Advice {
                    topic: format!("Argon2id, {shown}"),
                    text: format!(
                        "no measured point fits {shown} (the cheapest took {}): run \
                         `cryptobench argon2 tune --target {flag}`",
                        quickest
                            .and_then(|m| m.median_ns())
                            .map_or("-".into(), format_ns)
                    ) + &missed,
                    evidence: quickest.into_iter().collect(),
                }
            }
        };
        out.push(advice);
    }
    out
}

/// What a case weighs where cases of different groups are added or set
/// side by side: its fastest round with that round's 95% interval when the
/// rounds were kept, else its median and interval. With no paired ratio
/// to join them, a disturbed moment moves one case's median alone (noise
/// only adds time): on medians the Curve448 sum came out 769 us in one
/// quick run against 631-641 us in eleven others and tied with P-521's
/// 762 us, so the 256-bit curve line flipped. Its fastest rounds did not
/// move.
fn weight(m: &Measurement) -> Option<(f64, f64, f64)> {
    if let Some(f) = m.fastest().filter(|f| f.value > 0.0) {
        return Some((f.value, f.ci95.0, f.ci95.1));
    }
    let s = m.stats.as_ref()?;
    let (lo, hi) = span(s);
    Some((s.median, lo, hi))
}

#[path = "advice_curves.rs"]
mod curve_advice;
#[path = "advice_key_share.rs"]
mod key_share;
#[path = "advice_tune.rs"]
mod tune;
pub use curve_advice::{curve_level_of, curves, CURVE_LEVELS};
pub use key_share::{pq_key_share, KEY_SHARE_PARTNER};
pub use tune::*;

#[cfg(test)]
#[path = "advice_tests.rs"]
mod tests;
