//! `cryptobench recommend`: advice drawn from one stored run, and nothing
//! else. Every line names the measurements it rests on, so a reader can
//! check it with `cryptobench show`; a case that failed a check, was not
//! measured, or carries a security warning is never recommended (EC-ElGamal
//! is the one exception, and says so: the whole scheme is labelled
//! insecure, and the question there is only which execution mode to use).
//!
//! The rules are plain and few on purpose: fastest verified AEAD for bulk
//! data and for small messages, the cipher to avoid, one curve per security
//! level from today's short list (X25519/Ed25519 or P-256, P-384, P-521 or
//! X448/Ed448) with the band's fastest curve beside it (seed 000, Table 11),
//! Argon2id parameters per latency target from the measured grid, and the
//! EC-ElGamal mode with the best throughput.

use crate::charts::{is_caution_label, is_peer, throughput_value};
use cryptobench_core::units::{format_ns, format_rate, format_size};
use cryptobench_core::{CaseStatus, CheckOutcome, Measurement, Run, Table};

/// One piece of advice and the measurements behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct Recommendation {
    /// What the advice is about (`AEAD`, `Curve, 128-bit`, ...).
    pub topic: String,
    /// The advice, one sentence.
    pub advice: String,
    /// The measurements it rests on, one per line.
    pub evidence: Vec<String>,
}

/// Latency targets for Argon2id when the user names none.
pub const DEFAULT_ARGON2_TARGETS_NS: [f64; 3] = [250e6, 500e6, 1e9];

/// Measured, every check passed, and a library we call (not a peer or PHP).
fn verified(m: &Measurement) -> bool {
    m.status == CaseStatus::Measured
        && m.stats.is_some()
        && m.checks.iter().all(|c| c.outcome != CheckOutcome::Fail)
        && !is_peer(&m.backend)
}

/// Verified and without any security warning.
fn recommendable(m: &Measurement) -> bool {
    verified(m) && !m.labels.iter().any(|l| is_caution_label(l))
}

/// `suite/primitive/backend/op/size params: median [CI]`, for evidence.
fn cite(m: &Measurement) -> String {
    let size = if m.input_bytes > 0 {
        format!(" {}", format_size(m.input_bytes))
    } else {
        String::new()
    };
    let params = crate::tables::params(m);
    let params = if params.is_empty() {
        String::new()
    } else {
        format!(" [{params}]")
    };
    let timing = m.stats.as_ref().map_or(String::new(), |s| {
        format!(
            ": median {} (95% CI {} to {})",
            format_ns(s.median),
            format_ns(s.ci95[0]),
            format_ns(s.ci95[1])
        )
    });
    format!(
        "{} {} {} {}{size}{params}{timing}",
        m.suite, m.primitive, m.backend, m.operation
    )
}

fn rate(m: &Measurement) -> String {
    match m.stats.as_ref().and_then(|s| s.bytes_per_s) {
        Some(b) if m.input_bytes > 0 => format_rate(b),
        _ => format!("{:.0} op/s", throughput_value(m).unwrap_or(0.0)),
    }
}

fn fastest<'a>(ms: impl Iterator<Item = &'a Measurement>) -> Option<&'a Measurement> {
    ms.filter_map(|m| throughput_value(m).map(|v| (v, m)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, m)| m)
}

/// Every recommendation `run` supports, in a fixed topic order.
pub fn recommend(run: &Run, argon2_targets_ns: &[f64]) -> Vec<Recommendation> {
    let ms = &run.measurements;
    let mut out = Vec::new();
    out.extend(aead(ms, run));
    out.extend(cipher_to_avoid(ms));
    out.extend(curves(ms));
    out.extend(argon2(ms, argon2_targets_ns));
    out.extend(elgamal(ms));
    out
}

fn aead(ms: &[Measurement], run: &Run) -> Vec<Recommendation> {
    let enc: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == "aead" && m.operation == "encrypt" && recommendable(m))
        .collect();
    let mut sizes: Vec<u64> = enc.iter().map(|m| m.input_bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let (Some(&bulk), Some(&small)) = (
        sizes.last(),
        sizes.iter().find(|&&s| s >= 1000).or(sizes.first()),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let at = |size: u64| enc.iter().copied().filter(move |m| m.input_bytes == size);
    if let Some(best) = fastest(at(bulk)) {
        let mut evidence = vec![cite(best)];
        let mut advice = format!(
            "Use {} ({}) for bulk data: {} at {}, the fastest verified AEAD here",
            best.primitive,
            best.backend,
            rate(best),
            format_size(bulk)
        );
        let gcm = fastest(at(bulk).filter(|m| m.primitive == "AES-256-GCM"));
        if let (Some(g), Some(b), Some(gv)) =
            (gcm, throughput_value(best), gcm.and_then(throughput_value))
        {
            if g.case_key() != best.case_key() {
                advice.push_str(&format!(
                    ", {:.2}x the best AES-256-GCM ({}, {})",
                    b / gv,
                    g.backend,
                    rate(g)
                ));
                evidence.push(cite(g));
            }
        }
        advice.push('.');
        let needs_aes = best.primitive.contains("AES") || best.primitive.contains("AEGIS");
        if needs_aes {
            let aes_ni = run.machine.cpu_flags.iter().any(|f| f == "aes");
            let chacha = fastest(at(bulk).filter(|m| m.primitive.contains("ChaCha20")));
            advice.push_str(&format!(
                " Its speed rests on AES instructions (this CPU {} them); on CPUs without them \
                 ChaCha20-Poly1305{} is the safe, constant-time choice.",
                if aes_ni { "has" } else { "lacks" },
                chacha.map_or(String::new(), |c| format!(" ({} here)", rate(c)))
            ));
            if let Some(c) = chacha {
                evidence.push(cite(c));
            }
        }
        if best.primitive.starts_with("AEGIS") {
            advice.push_str(
                " AEGIS is a newer CFRG design with fewer implementations: where another \
                 party must decrypt, AES-256-GCM is the interoperable default.",
            );
        }
        out.push(Recommendation {
            topic: "AEAD, bulk data".into(),
            advice,
            evidence,
        });
    }
    if small != bulk {
        if let Some(best) = fastest(at(small)) {
            out.push(Recommendation {
                topic: "AEAD, small messages".into(),
                advice: format!(
                    "For {} messages, {} ({}) seals the most per second: {:.0} messages/s.",
                    format_size(small),
                    best.primitive,
                    best.backend,
                    best.stats.as_ref().map_or(0.0, |s| s.ops_per_s)
                ),
                evidence: vec![cite(best)],
            });
        }
    }
    out
}

fn cipher_to_avoid(ms: &[Measurement]) -> Vec<Recommendation> {
    let ciphers: Vec<&Measurement> = ms.iter().filter(|m| m.suite == "cipher").collect();
    let mut out = Vec::new();
    let failed: Vec<&&Measurement> = ciphers
        .iter()
        .filter(|m| m.status == CaseStatus::Failed)
        .collect();
    if !failed.is_empty() {
        let mut names: Vec<String> = failed
            .iter()
            .map(|m| format!("{} ({})", m.primitive, m.backend))
            .collect();
        names.dedup();
        out.push(Recommendation {
            topic: "Cipher to avoid (failed)".into(),
            advice: format!(
                "Avoid {}: a known-answer or round-trip check failed here, so it was never timed.",
                names.join(", ")
            ),
            evidence: failed
                .iter()
                .map(|m| format!("{}: {}", cite(m), m.reason.as_deref().unwrap_or("failed")))
                .collect(),
        });
    }
    let enc: Vec<&Measurement> = ciphers
        .iter()
        .copied()
        .filter(|m| m.operation == "encrypt" && verified(m))
        .collect();
    let mut sizes: Vec<u64> = enc.iter().map(|m| m.input_bytes).collect();
    sizes.sort_unstable();
    let Some(&size) = sizes.last() else {
        return out;
    };
    let at_size = || enc.iter().copied().filter(|m| m.input_bytes == size);
    let weak = at_size().filter(|m| {
        m.labels
            .iter()
            .any(|l| is_caution_label(l) && l != "legacy provider")
    });
    let slowest_weak = weak
        .filter_map(|m| throughput_value(m).map(|v| (v, m)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, m)| m);
    let best_safe = fastest(at_size().filter(|m| {
        !m.labels
            .iter()
            .any(|l| is_caution_label(l) && l != "legacy provider")
    }));
    if let Some(w) = slowest_weak {
        let warnings: Vec<&str> = w
            .labels
            .iter()
            .filter(|l| is_caution_label(l))
            .map(String::as_str)
            .collect();
        let mut advice = format!(
            "Avoid {} ({}): labelled {} and the slowest such cipher at {} ({})",
            w.primitive,
            w.backend,
            warnings.join(", "),
            format_size(size),
            rate(w)
        );
        let mut evidence = vec![cite(w)];
        if let (Some(b), Some(bv), Some(wv)) = (
            best_safe,
            best_safe.and_then(throughput_value),
            throughput_value(w),
        ) {
            advice.push_str(&format!(
                ", {:.1}x slower than {} ({}, {})",
                bv / wv,
                b.primitive,
                b.backend,
                rate(b)
            ));
            evidence.push(cite(b));
        }
        advice.push_str(
            ". No cipher of this suite authenticates: for new designs use an AEAD (above).",
        );
        out.push(Recommendation {
            topic: "Cipher to avoid".into(),
            advice,
            evidence,
        });
    }
    out
}

/// Today's short list per security level, in order of preference.
const CURVE_LEVELS: [(&str, u32, &[&str]); 3] = [
    (
        "128-bit",
        128,
        &["X25519", "ED25519", "prime256v1", "P-256"],
    ),
    ("192-bit", 192, &["secp384r1", "P-384"]),
    ("256-bit", 256, &["X448", "ED448", "secp521r1", "P-521"]),
];

fn security_band(m: &Measurement) -> Option<u32> {
    let bits: u32 = m.param("security_bits")?.parse().ok()?;
    match bits {
        // At least the level, short of the next one (X25519 counts 126).
        126..=191 => Some(128),
        192..=223 => Some(192),
        224.. => Some(256),
        _ => None,
    }
}

fn curves(ms: &[Measurement]) -> Vec<Recommendation> {
    let keygen: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == "ecc" && m.operation == "keygen" && verified(m))
        .collect();
    let mut out = Vec::new();
    for (level, band, names) in CURVE_LEVELS {
        let listed: Vec<&Measurement> = keygen
            .iter()
            .copied()
            .filter(|m| {
                names.iter().any(|n| m.primitive.eq_ignore_ascii_case(n))
                    && !m.labels.iter().any(|l| is_caution_label(l))
            })
            .collect();
        let Some(pick) = fastest(listed.iter().copied()) else {
            continue;
        };
        let time = |m: &Measurement| m.stats.as_ref().map_or("-".into(), |s| format_ns(s.median));
        let mut advice = format!(
            "{level} security: {} ({}), key generation {}",
            pick.primitive,
            pick.backend,
            time(pick)
        );
        let mut evidence = vec![cite(pick)];
        // The other curves of the short list, each at its fastest backend.
        let mut others: Vec<&Measurement> = Vec::new();
        for m in &listed {
            if m.primitive == pick.primitive {
                continue;
            }
            match others.iter_mut().find(|o| o.primitive == m.primitive) {
                Some(o) if m.median_ns() < o.median_ns() => *o = m,
                Some(_) => {}
                None => others.push(m),
            }
        }
        if !others.is_empty() {
            let also: Vec<String> = others
                .iter()
                .map(|o| format!("{} ({}, {})", o.primitive, o.backend, time(o)))
                .collect();
            advice.push_str(&format!("; also on today's list: {}", also.join(", ")));
            evidence.extend(others.iter().map(|o| cite(o)));
        }
        let band_best = fastest(
            keygen
                .iter()
                .copied()
                .filter(|m| security_band(m) == Some(band)),
        );
        if let Some(b) = band_best.filter(|b| b.primitive != pick.primitive) {
            let listed_too = names.iter().any(|n| b.primitive.eq_ignore_ascii_case(n));
            advice.push_str(&format!(
                "; the band's fastest is {} ({}, {}){}",
                b.primitive,
                b.backend,
                b.stats.as_ref().map_or("-".into(), |s| format_ns(s.median)),
                if listed_too {
                    String::new()
                } else {
                    " but it is not on today's short list (less reviewed, less supported)".into()
                }
            ));
            evidence.push(cite(b));
        }
        advice.push('.');
        out.push(Recommendation {
            topic: format!("Curve, {level}"),
            advice,
            evidence,
        });
    }
    out
}

fn argon2(ms: &[Measurement], targets_ns: &[f64]) -> Vec<Recommendation> {
    let points: Vec<&Measurement> = ms
        .iter()
        .filter(|m| {
            m.suite == "argon2"
                && m.primitive == "Argon2id"
                && m.operation == "hash"
                && recommendable(m)
        })
        .collect();
    if points.is_empty() {
        return Vec::new();
    }
    let num =
        |m: &Measurement, k: &str| m.param(k).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    let mut out = Vec::new();
    for &target in targets_ns {
        let fitting = points
            .iter()
            .copied()
            .filter(|m| m.median_ns().is_some_and(|t| t <= target));
        // RFC 9106 section 4: as much memory as the budget allows, then
        // passes; fewer lanes break ties (they need fewer cores).
        let pick = fitting.max_by_key(|m| (num(m, "m_kib"), num(m, "t"), u64::MAX - num(m, "p")));
        let (advice, evidence) = match pick {
            Some(m) => (
                format!(
                    "For about {} per hash: Argon2id m = {} MiB, t = {}, p = {} ({}): {}, the most \
                     memory among the measured points within the target (`cryptobench argon2 tune \
                     --target {}` refines it).{}",
                    format_ns(target),
                    num(m, "m_kib") / 1024,
                    num(m, "t"),
                    num(m, "p"),
                    m.backend,
                    m.median_ns().map_or("-".into(), format_ns),
                    format_ns(target).replace(' ', ""),
                    if m.median_ns().is_some_and(|t| t < target / 4.0) {
                        " It takes far less than the target: this run measured no larger point, \
                         so more memory would fit."
                    } else {
                        ""
                    }
                ),
                vec![cite(m)],
            ),
            None => {
                let quickest = points
                    .iter()
                    .copied()
                    .filter_map(|m| m.median_ns().map(|t| (t, m)))
                    .min_by(|a, b| a.0.total_cmp(&b.0));
                (
                    format!(
                        "No measured Argon2id point fits {}; the cheapest took {}: run \
                         `cryptobench argon2 tune --target {}`.",
                        format_ns(target),
                        quickest.map_or("-".into(), |(t, _)| format_ns(t)),
                        format_ns(target).replace(' ', "")
                    ),
                    quickest.map(|(_, m)| cite(m)).into_iter().collect(),
                )
            }
        };
        out.push(Recommendation {
            topic: format!("Argon2id, {}", format_ns(target)),
            advice,
            evidence,
        });
    }
    out
}

fn elgamal(ms: &[Measurement]) -> Vec<Recommendation> {
    // The scheme label is on every case (that is the point of the caveat);
    // a breakable curve (toy64) is still excluded.
    let cases: Vec<&Measurement> = ms
        .iter()
        .filter(|m| {
            m.suite == "elgamal"
                && verified(m)
                && m.param("security") != Some("breakable")
                && m.param("mode").is_some()
        })
        .collect();
    let Some(best) = fastest(cases.iter().copied().filter(|m| m.operation == "encrypt")) else {
        return Vec::new();
    };
    let serial = cases.iter().copied().find(|m| {
        m.operation == best.operation
            && m.primitive == best.primitive
            && m.backend == best.backend
            && m.input_bytes == best.input_bytes
            && m.param("encoding") == best.param("encoding")
            && m.param("mode") == Some("serial")
    });
    let workers = |m: &Measurement| {
        let t: u64 = m.param("threads").and_then(|v| v.parse().ok()).unwrap_or(1);
        let r: u64 = m.param("ranks").and_then(|v| v.parse().ok()).unwrap_or(1);
        t * r
    };
    let mut advice = format!(
        "If you run seed 002's EC-ElGamal (insecure as labelled: for reproducing the paper only), \
         use mode {} with {} worker(s) and {} encoding on {}: {} characters/s",
        best.param("mode").unwrap_or("?"),
        workers(best),
        best.param("encoding").unwrap_or("?"),
        best.primitive,
        throughput_value(best).map_or("-".into(), |v| format!("{v:.0}"))
    );
    let mut evidence = vec![cite(best)];
    if let (Some(s), Some(bv)) = (serial, throughput_value(best)) {
        if s.case_key() != best.case_key() {
            if let Some(sv) = throughput_value(s) {
                advice.push_str(&format!(", {:.2}x serial", bv / sv));
                evidence.push(cite(s));
            }
        }
    }
    advice.push('.');
    vec![Recommendation {
        topic: "EC-ElGamal mode".into(),
        advice,
        evidence,
    }]
}

/// The recommendations as a table (topic, advice, evidence).
pub fn recommendation_table(run: &Run, recs: &[Recommendation]) -> Table {
    let mut t = Table::new(
        format!("Recommendations from run {}", run.id),
        ["topic", "advice", "rests on"],
    );
    for r in recs {
        t.row([r.topic.clone(), r.advice.clone(), r.evidence.join("\n")]);
    }
    if recs.is_empty() {
        t.note(format!(
            "run {} holds no verified measurement of the suites recommend reads \
             (aead, cipher, ecc, argon2, elgamal): run `cryptobench run` first",
            run.id
        ));
    }
    t
}

/// The recommendations for a terminal: topic, advice, then the evidence
/// indented under it.
pub fn render_text(run: &Run, recs: &[Recommendation]) -> String {
    let mut s = format!(
        "Recommendations from run {} ({})\n",
        run.id,
        run.status.as_str()
    );
    if recs.is_empty() {
        s.push_str(&recommendation_table(run, recs).notes.join("\n"));
        s.push('\n');
    }
    for r in recs {
        s.push_str(&format!("\n{}\n  {}\n", r.topic, r.advice));
        for e in &r.evidence {
            s.push_str(&format!("    rests on: {e}\n"));
        }
    }
    s
}

#[cfg(test)]
#[path = "recommend_tests.rs"]
mod tests;
