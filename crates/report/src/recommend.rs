//! `cryptobench recommend`: advice drawn from one stored run, and nothing
//! else. Every line names the measurements it rests on, so a reader can
//! check it with `cryptobench show`; a case that failed a check, was not
//! measured, or carries a security warning is never recommended (EC-ElGamal
//! is the one exception, and says so: the whole scheme is labelled
//! insecure, and the question there is only which execution mode to use).
//!
//! The AEAD, curve and Argon2id advice comes from
//! `cryptobench_core::advice`, the same functions the `run` summary lines
//! call, so the two never disagree; ties on the intervals resolve by the
//! rules stated there. This module adds the cipher to avoid, the
//! EC-ElGamal mode, and cites the evidence.

use crate::charts::{is_caution_label, is_peer, throughput_value};
use crate::recommend_record::{record, summary_line};
use cryptobench_core::advice::{self, Advice};
use cryptobench_core::model::MEMORY_PARAM;
use cryptobench_core::recommendation::Stance;
use cryptobench_core::units::{format_ns, format_ops, format_per_s, format_rate, format_size};
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
    /// The same advice as a typed record: what `--format json` prints and
    /// the one-line summary is rendered from.
    pub record: cryptobench_core::Recommendation,
}

impl Recommendation {
    fn new(topic: &str, advice: String, evidence: &[&Measurement], stance: Stance) -> Self {
        Recommendation {
            topic: topic.to_string(),
            record: record(topic, &advice, evidence, stance),
            evidence: evidence.iter().map(|m| cite(m)).collect(),
            advice,
        }
    }
}

/// Latency targets for Argon2id when the user names none.
pub const DEFAULT_ARGON2_TARGETS_NS: [f64; 3] = [250e6, 500e6, 1e9];

/// Measured, every check passed, and a library we call (not a peer or a
/// language runtime).
fn verified(m: &Measurement) -> bool {
    m.status == CaseStatus::Measured
        && m.stats.is_some()
        && m.checks.iter().all(|c| c.outcome != CheckOutcome::Fail)
        && !is_peer(m)
}

/// `suite/primitive/backend/op/size params: median [CI]`, for evidence.
fn cite(m: &Measurement) -> String {
    // An Argon2 case's size is memory x passes (its MiB/s), which read as
    // "hash 512 MiB" beside m = 128 MiB: its `m_kib` says the memory.
    let size = if m.input_bytes > 0 && !m.params.contains_key(MEMORY_PARAM) {
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
        Some(b) if m.input_bytes > 0 && crate::tables::counts_characters(m) => {
            format_per_s(b, "chars")
        }
        Some(b) if m.input_bytes > 0 => format_rate(b),
        _ => format_ops(throughput_value(m).unwrap_or(0.0)),
    }
}

/// Every recommendation `run` supports, in a fixed topic order.
pub fn recommend(run: &Run, argon2_targets_ns: &[f64]) -> Vec<Recommendation> {
    let ms = &run.measurements;
    let mut out = Vec::new();
    out.extend(aead(ms, run));
    out.extend(cipher_to_avoid(ms));
    out.extend(curves(ms, crate::compare::moment_floor(run)));
    out.extend(argon2(ms, argon2_targets_ns));
    out.extend(elgamal(ms));
    out.extend(advice::pq_key_share(ms).iter().map(from_advice));
    out
}

/// The advice `run` prints, with its evidence cited.
fn from_advice(a: &Advice) -> Recommendation {
    Recommendation::new(&a.topic, format!("{}.", a.text), &a.evidence, Stance::Use)
}

fn aead(ms: &[Measurement], run: &Run) -> Vec<Recommendation> {
    advice::aead(ms)
        .iter()
        .map(|a| {
            let mut rec = from_advice(a);
            let pick = a.evidence[0];
            let mut cautions = Vec::new();
            if a.topic.ends_with("bulk data")
                && (pick.primitive.contains("AES") || pick.primitive.contains("AEGIS"))
            {
                let aes_ni = run.machine.cpu_flags.iter().any(|f| f == "aes");
                cautions.push(format!(
                    "Its speed rests on AES instructions (this CPU {} them); on CPUs without \
                     them ChaCha20-Poly1305 is the safe, constant-time choice.",
                    if aes_ni { "has" } else { "lacks" },
                ));
            }
            if pick.primitive.starts_with("AEGIS") {
                cautions.push(
                    "AEGIS is a newer CFRG design with fewer implementations: where another \
                     party must decrypt, AES-256-GCM is the interoperable default."
                        .to_string(),
                );
            }
            for c in &cautions {
                rec.advice.push(' ');
                rec.advice.push_str(c);
            }
            rec.record.cautions = cautions;
            rec.record.details = vec![rec.advice.clone()];
            rec
        })
        .collect()
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
        let cases: Vec<&Measurement> = failed.iter().map(|m| **m).collect();
        let mut rec = Recommendation::new(
            "Cipher to avoid (failed)",
            format!(
                "Avoid {}: a known-answer or round-trip check failed here, so it was never timed.",
                names.join(", ")
            ),
            &cases,
            Stance::Avoid,
        );
        rec.evidence = failed
            .iter()
            .map(|m| format!("{}: {}", cite(m), m.reason.as_deref().unwrap_or("failed")))
            .collect();
        out.push(rec);
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
    // The yardstick: the fastest safe cipher, and among those tied with
    // it the backend order decides (OpenSSL's and RustCrypto's AES-128-CTR
    // took turns by 2% between identical runs).
    let safe: Vec<&Measurement> = at_size()
        .filter(|m| {
            !m.labels
                .iter()
                .any(|l| is_caution_label(l) && l != "legacy provider")
        })
        .filter(|m| throughput_value(m).is_some())
        .collect();
    let best_safe = advice::choose(&safe, |_| ()).map(|(pick, _)| pick);
    if let Some(w) = slowest_weak {
        let warnings = w.caution_labels();
        let mut advice = format!(
            "Avoid {} ({}): labelled {} and the slowest such cipher at {} ({})",
            w.primitive,
            w.backend,
            warnings.join(", "),
            format_size(size),
            rate(w)
        );
        let mut evidence = vec![w];
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
            evidence.push(b);
        }
        advice.push_str(
            ". No cipher of this suite authenticates: for new designs use an AEAD (above).",
        );
        out.push(Recommendation::new(
            "Cipher to avoid",
            advice,
            &evidence,
            Stance::Avoid,
        ));
    }
    out
}

fn curves(ms: &[Measurement], moment_floor: Option<f64>) -> Vec<Recommendation> {
    advice::curves(ms, moment_floor)
        .iter()
        .map(from_advice)
        .collect()
}

fn argon2(ms: &[Measurement], targets_ns: &[f64]) -> Vec<Recommendation> {
    advice::argon2(ms, targets_ns)
        .iter()
        .map(from_advice)
        .collect()
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
    // Judged by fastest rounds, as the curve advice is: the threads mode,
    // two workers on a 2-core VM, had a median interval of +-18% in one
    // quick run of three (the second core lent elsewhere) and +-4% in the
    // others; on medians that one run called it tied with serial.
    let per_byte =
        |m: &&Measurement| advice::fastest_rounds_time(m).map(|t| t / m.input_bytes.max(1) as f64);
    let Some(best) = cases
        .iter()
        .copied()
        .filter(|m| m.operation == "encrypt")
        .filter_map(|m| Some((per_byte(&m)?, m)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, m)| m)
    else {
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
    // Workers cost threads or ranks: a parallel mode is advised only when
    // it is clearly faster than serial (past the tie margin), or the advice
    // flips with the machine's load. Clearly faster in the same rounds (the
    // paired ratio) or at its fastest rounds, where the host lent the
    // second core for part of the case: in three quick-run pairs on a busy
    // host each view alone tied threads with serial in one run of two
    // (one lucky serial round; two rounds of threads at 1.7-2x), while
    // together they named threads in all six runs.
    // Never a mode clearly slower than serial in the same rounds, whatever
    // its fastest rounds: a few rounds with both cores free can make its
    // fastest rounds beat serial's while most of its rounds lose.
    let best = match serial {
        Some(s) if s.case_key() != best.case_key() => {
            let faster_together = !advice::tied_side_by_side(s, best);
            let faster_at_best = !advice::tied_on_fastest_rounds(s, best);
            let slower_together = !advice::tied_side_by_side(best, s);
            if faster_together || (faster_at_best && !slower_together) {
                best
            } else {
                s
            }
        }
        _ => best,
    };
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
    let mut evidence = vec![best];
    // The speedup of the same rounds where the two shared them: medians
    // of one busy run put threads at 0.83x serial while their rounds,
    // side by side, had threads 1.13x as fast.
    if let Some(s) = serial.filter(|s| s.case_key() != best.case_key()) {
        if let Some(r) = cryptobench_core::verdict::speedup(best, s) {
            advice.push_str(&format!(", {:.2}x serial", r.value));
            evidence.push(s);
        }
    }
    // A parallel mode timed while the host had lent a core elsewhere is
    // slow for the machine's sake: it cannot show serial to be as fast.
    let shared: Vec<f64> = cases
        .iter()
        .filter(|m| m.param("mode") != Some("serial") && m.primitive == best.primitive)
        .filter_map(|m| m.machine_load.as_ref()?.cores_shared())
        .collect();
    if best.param("mode") == Some("serial") && !shared.is_empty() {
        let worst = shared.iter().copied().fold(f64::NAN, f64::max);
        advice.push_str(&format!(
            "; the parallel modes were timed with their cores shared (the canary on their cores took up to {worst:.2}x its time on one core), so this run cannot tell whether they are faster here"
        ));
    }
    advice.push('.');
    vec![Recommendation::new(
        "EC-ElGamal mode",
        advice,
        &evidence,
        Stance::Use,
    )]
}

/// The recommendations as a table of typed columns (for CSV and
/// Markdown): one row per record, numbers as numbers.
pub fn recommendation_table(run: &Run, recs: &[Recommendation]) -> Table {
    let mut t = Table::new(
        format!("Recommendations from run {}", run.id),
        [
            "topic",
            "title",
            "stance",
            "primitive",
            "backend",
            "params",
            "metric",
            "unit",
            "value",
            "against",
            "ratio",
            "ci_low",
            "ci_high",
            "paired",
            "confidence",
            "evidence",
        ],
    );
    for r in recs {
        let rec = &r.record;
        let choice = rec.choice.as_ref();
        let cmp = rec.comparison.as_ref();
        let num = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v}"));
        let unit = rec
            .metric
            .as_ref()
            .map_or(String::new(), |m| format!("{:?}", m.unit));
        t.row([
            rec.topic.clone(),
            rec.title.clone(),
            format!("{:?}", rec.stance).to_lowercase(),
            choice.map_or(String::new(), |c| c.primitive.clone()),
            choice.map_or(String::new(), |c| c.backend.clone()),
            choice.map_or(String::new(), |c| {
                c.params
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
            rec.metric
                .as_ref()
                .map_or(String::new(), |m| m.name.clone()),
            unit,
            num(rec.metric.as_ref().map(|m| m.value)),
            cmp.and_then(|c| c.against.as_ref())
                .map_or(String::new(), |a| a.label()),
            num(cmp.map(|c| c.ratio)),
            num(cmp.map(|c| c.ci_low)),
            num(cmp.map(|c| c.ci_high)),
            cmp.map_or(String::new(), |c| c.paired.to_string()),
            rec.confidence.word().to_string(),
            rec.evidence.join(" "),
        ]);
    }
    if recs.is_empty() {
        t.note(nothing_to_recommend(run));
    }
    t
}

fn nothing_to_recommend(run: &Run) -> String {
    format!(
        "run {} holds no verified measurement of the suites recommend reads \
         (aead, cipher, ecc, pubkey, argon2, elgamal): run `cryptobench run` first",
        run.id
    )
}

/// The recommendations for a terminal, fitted to its width: how sure the
/// run is, then one line per topic; with `explain`, the reasoning, the
/// cautions and the measurements under each.
pub fn render_text(run: &Run, recs: &[Recommendation], explain: bool) -> String {
    use crate::text::paragraph;
    let mut s = paragraph(&crate::answer::Certainty::of(run).line(), "", "  ");
    s.push_str(&paragraph(
        &format!(
            "Recommendations from run {} ({})",
            run.id,
            run.status.as_str()
        ),
        "",
        "  ",
    ));
    if recs.is_empty() {
        s.push_str(&paragraph(&nothing_to_recommend(run), "", ""));
    }
    for r in recs {
        s.push_str(&paragraph(&summary_line(&r.record), "  ", "      "));
        if explain {
            s.push_str(&paragraph(&r.advice, "      why: ", "           "));
            for e in &r.evidence {
                s.push_str(&paragraph(e, "      rests on: ", "                "));
            }
        }
    }
    if !explain && !recs.is_empty() {
        s.push_str(
            "(`recommend --explain` gives the reasoning and the measurements of each line)\n",
        );
    }
    s
}

#[cfg(test)]
#[path = "recommend_tests.rs"]
mod tests;
