//! The screen's table and `run`-style headline lines, read back from the
//! stored measurements (so `show` and `export` draw the same table later).

use crate::verdict::{ns, INCONCLUSIVE_SHARE, THRESHOLD};
use cryptobench_core::{CaseStatus, Measurement, Table};

fn extra(m: &Measurement, key: &str) -> Option<f64> {
    m.extra.get(key).copied()
}

fn param<'a>(m: &'a Measurement, key: &str) -> &'a str {
    m.params.get(key).map_or("", String::as_str)
}

/// The verdict table.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    let mine: Vec<&Measurement> = ms.iter().filter(|m| m.suite == crate::SUITE).collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        format!(
            "leak: timing-leak screen, two classes interleaved at random; leak when max |t| > {THRESHOLD}, \
             no leak found when the effect found in 9 runs of 10 is at most {:.0}% of the operation",
            INCONCLUSIVE_SHARE * 100.0
        ),
        [
            "role", "primitive", "backend", "operation", "class 0 vs class 1", "verdict",
            "max |t|", "effect", "operation time", "found above", "measurements",
        ],
    )
    .right(&[6, 7, 8, 9, 10]);
    for m in mine {
        let verdict = match m.status {
            CaseStatus::Measured => param(m, "verdict").to_string(),
            other => format!("{}: {}", other.as_str(), m.reason.as_deref().unwrap_or("")),
        };
        let share = match (extra(m, "detectable ns"), extra(m, "operation ns")) {
            (Some(d), Some(o)) if o > 0.0 => format!("{} ({:.1}%)", ns(d), d / o * 100.0),
            _ => "-".into(),
        };
        let fig = |k: &str, f: fn(f64) -> String| extra(m, k).map_or("-".into(), f);
        t.row([
            param(m, "role").to_string(),
            m.primitive.clone(),
            m.backend.clone(),
            m.operation.clone(),
            format!("{} vs {}", param(m, "class 0"), param(m, "class 1")),
            verdict,
            fig("max |t|", |x| format!("{x:.1}")),
            fig("effect ns", ns),
            fig("operation ns", ns),
            share,
            fig("measurements", |x| format!("{x:.0}")),
        ]);
    }
    t.note(
        "effect: class 1's mean minus class 0's, cropped at the 99th percentile; found above: \
         the effect these measurements find in 9 runs of 10 ((threshold + 1.28) standard errors)",
    );
    vec![t]
}

/// The controls' and the A/A case's outcome, one line each, then a count
/// of the library cases by verdict.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    let mine: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == crate::SUITE && m.status == CaseStatus::Measured)
        .collect();
    let mut out = Vec::new();
    for m in &mine {
        let role = param(m, "role");
        if role == "library" {
            continue;
        }
        out.push(format!(
            "leak {role} {} {}: {} (max |t| {:.1}; {})",
            m.primitive,
            m.backend,
            param(m, "verdict"),
            extra(m, "max |t|").unwrap_or(f64::NAN),
            param(m, "probes")
        ));
    }
    let library: Vec<&&Measurement> = mine
        .iter()
        .filter(|m| param(m, "role") == "library")
        .collect();
    if !library.is_empty() {
        let count = |v: &str| library.iter().filter(|m| param(m, "verdict") == v).count();
        out.push(format!(
            "leak library cases: {} leak, {} no leak found, {} inconclusive",
            count("leak"),
            count("no leak found"),
            count("inconclusive")
        ));
    }
    out
}
