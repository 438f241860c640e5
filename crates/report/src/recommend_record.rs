//! A piece of advice as a typed record ([`cryptobench_core::Recommendation`])
//! and its one-line form.
//!
//! The advice functions decide and explain in prose; the record keeps what
//! a program or a hurried reader needs: what to use with typed parameters,
//! the figure it was judged by, and one ratio with one interval against the
//! runner-up, computed from the same two measurements the evidence cites.
//! The one-line summary is rendered from the record alone, so it quotes one
//! number per claim; the prose moves under `recommend --explain`.

use cryptobench_core::recommendation::{
    Choice, Comparison, Confidence, MetricUnit, ParamValue, RatioKind, Recommendation, Stance,
};
use cryptobench_core::units::{format_ns, format_ops, format_rate, format_size};
use cryptobench_core::{verdict, Measurement};

/// The stable identifier of a topic: `AEAD, bulk data` -> `aead.bulk_data`.
pub fn topic_id(title: &str) -> String {
    let mut parts = title.splitn(2, ',').map(|p| {
        p.trim()
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect::<String>()
            .trim_matches('_')
            .to_string()
    });
    let head = parts.next().unwrap_or_default();
    match parts.next() {
        Some(tail) if !tail.is_empty() => format!("{head}.{tail}"),
        _ => head,
    }
}

/// The parameters of a measurement that belong to the answer, typed.
fn choice_of(m: &Measurement) -> Choice {
    let mut choice = Choice::of(m);
    for (name, value) in &m.params {
        choice = choice.param(name.clone(), ParamValue::parse(value));
    }
    if m.input_bytes > 0 {
        choice = choice.param("input_bytes", ParamValue::Int(m.input_bytes as i64));
    }
    choice
}

/// The figure a choice is judged by: throughput for sized work, time per
/// operation otherwise.
fn metric_of(m: &Measurement) -> Option<(String, MetricUnit, f64)> {
    let stats = m.stats.as_ref()?;
    // Small messages are counted, not weighed: msg/s is what a server
    // handling them needs.
    if m.input_bytes > 0 && m.input_bytes <= 4096 && stats.median > 0.0 {
        return Some((
            format!("messages of {} per second", format_size(m.input_bytes)),
            MetricUnit::OpsPerS,
            1e9 / stats.median,
        ));
    }
    match stats.bytes_per_s {
        Some(b) if m.input_bytes > 0 && !m.memory_bound() => Some((
            format!("throughput at {}", format_size(m.input_bytes)),
            MetricUnit::BytesPerS,
            b,
        )),
        _ => Some(("median time".into(), MetricUnit::Ns, stats.median)),
    }
}

/// The record of one piece of advice: `evidence[0]` is the choice, the
/// first other measurement of a different primitive or backend (when any)
/// the alternative its one ratio is against.
pub fn record(
    title: &str,
    prose: &str,
    evidence: &[&Measurement],
    stance: Stance,
) -> Recommendation {
    let id = topic_id(title);
    let Some(pick) = evidence.first() else {
        return Recommendation::not_measured(id, title, prose);
    };
    let mut rec = Recommendation::to_use(
        id,
        title,
        choice_of(pick),
        "fastest on the 95% intervals; ties broken by the rule in the details",
    );
    if stance == Stance::Avoid {
        rec = rec.avoid();
    }
    if let Some((name, unit, value)) = metric_of(pick) {
        rec = rec.metric(name, unit, value);
    }
    for m in evidence {
        rec = rec.rests_on(m);
    }
    // The named alternative: another primitive first (the question is
    // which primitive), else the same primitive from another library.
    let same_work =
        |o: &&&Measurement| o.operation == pick.operation && o.input_bytes == pick.input_bytes;
    let other = evidence
        .iter()
        .skip(1)
        .filter(same_work)
        .find(|o| o.primitive != pick.primitive)
        .or_else(|| {
            evidence
                .iter()
                .skip(1)
                .filter(same_work)
                .find(|o| o.backend != pick.backend)
        });
    // Argon2 points differ in their parameters on purpose: a ratio between
    // two of them answers no question; the time per hash is the answer.
    let other = other.filter(|_| !pick.memory_bound());
    if let Some(other) = other {
        // What to use is said as a speedup over the alternative; what to
        // avoid as how many times the alternative's time it takes.
        let (estimate, kind) = match stance {
            Stance::Use => (verdict::speedup(pick, other), RatioKind::Speedup),
            Stance::Avoid => (verdict::speedup(other, pick), RatioKind::TimeRatio),
        };
        if let Some(e) = estimate {
            let against = Choice::of(other);
            // Intervals that reach past 1 cannot tell the two apart.
            rec = rec.confidence(if e.lo > 1.0 || e.hi < 1.0 {
                Confidence::Decided
            } else {
                Confidence::Tie {
                    with: vec![against.clone()],
                }
            });
            rec = rec.comparison(Comparison {
                against: Some(against),
                kind,
                ratio: e.value,
                ci_low: e.lo,
                ci_high: e.hi,
                paired: e.paired,
            });
        }
    }
    rec.detail(prose)
}

/// The record's figure as a reader says it (`11.2 GB/s`, `39.2 us`).
pub fn metric_text(rec: &Recommendation) -> Option<String> {
    let m = rec.metric.as_ref()?;
    Some(match m.unit {
        MetricUnit::BytesPerS => format_rate(m.value),
        MetricUnit::OpsPerS => format_ops(m.value),
        MetricUnit::Ns => format_ns(m.value),
        MetricUnit::CharsPerS => format!("{:.0} chars/s", m.value),
    })
}

/// A ratio to three significant figures: `1.66`, `12.4`, `689`.
fn ratio_text(r: f64) -> String {
    match r.abs() {
        a if a >= 100.0 => format!("{r:.0}"),
        a if a >= 10.0 => format!("{r:.1}"),
        _ => format!("{r:.2}"),
    }
}

/// `AEAD, bulk data: AEGIS-128L (libsodium) 11.2 GB/s, 3.70x AES-256-GCM
/// (openssl) [3.10-5.00]`: the record in one line, one ratio, its interval.
pub fn summary_line(rec: &Recommendation) -> String {
    let Some(choice) = &rec.choice else {
        let why = match &rec.confidence {
            Confidence::NotMeasured { reason } => reason.as_str(),
            _ => "not measured",
        };
        return format!("{}: not answered by this run ({why})", rec.title);
    };
    let verb = match rec.stance {
        Stance::Use => "",
        Stance::Avoid => "avoid ",
    };
    let mut line = format!("{}: {verb}{}", rec.title, choice.label());
    let params: Vec<String> = ["m_kib", "t", "p", "mode"]
        .iter()
        .filter_map(|k| choice.params.get(*k).map(|v| format!("{k}={v}")))
        .collect();
    if !params.is_empty() {
        line.push_str(&format!(" [{}]", params.join(", ")));
    }
    if let Some(metric) = metric_text(rec) {
        line.push_str(&format!(" {metric}"));
    }
    if let Some(c) = &rec.comparison {
        let against = c
            .against
            .as_ref()
            .map_or("the target".into(), Choice::label);
        let word = match c.kind {
            RatioKind::Speedup => "the speed of",
            RatioKind::TimeRatio => "the time of",
            RatioKind::OfTarget => "of",
        };
        line.push_str(&format!(
            ", {}x {word} {against} [{}-{}{}]",
            ratio_text(c.ratio),
            ratio_text(c.ci_low),
            ratio_text(c.ci_high),
            if c.paired { ", paired" } else { "" }
        ));
    }
    if let Confidence::Tie { .. } = rec.confidence {
        line.push_str(" (a tie: the rule chose)");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_ids_are_stable_slugs() {
        assert_eq!(topic_id("AEAD, bulk data"), "aead.bulk_data");
        assert_eq!(topic_id("Curve, 128-bit"), "curve.128_bit");
        assert_eq!(topic_id("EC-ElGamal mode"), "ec_elgamal_mode");
    }

    #[test]
    fn an_empty_record_says_why_in_its_line() {
        let rec = record("AEAD, bulk data", "no AEAD was measured", &[], Stance::Use);
        assert_eq!(
            summary_line(&rec),
            "AEAD, bulk data: not answered by this run (no AEAD was measured)"
        );
    }
}
