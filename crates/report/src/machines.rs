//! Runs from several machines side by side, each case's time as a ratio to
//! one chosen baseline run.
//!
//! Two runs of one machine are compared by their fastest rounds with the
//! machine's drift divided out (see [`crate::compare`]); between machines
//! the typical speed is the very difference asked about, so here the ratio
//! is the raw ratio of medians, with its bootstrap interval. A case appears when the baseline and at least one
//! other run measured it; each run that did gives one row, so the machine
//! column and the parameters tell every row apart.

use crate::tables::{case_headers, size, variants};
use cryptobench_core::units::TimeUnit;
use cryptobench_core::verdict::seed_of;
use cryptobench_core::{CaseStatus, Measurement, Run, Table};
use cryptobench_stats::{compare, compare_medians_only, Comparison, Verdict};

/// One run's row of a case.
#[derive(Debug, Clone)]
pub struct MachineRow<'a> {
    /// Index of the run in [`Machines::runs`].
    pub run: usize,
    /// Its measurement of the case.
    pub measurement: &'a Measurement,
    /// Time ratio to the baseline run's (lower is faster); `None` for the
    /// baseline itself.
    pub ratio: Option<Comparison>,
}

/// One case measured by the baseline and at least one other run.
#[derive(Debug, Clone)]
pub struct MachineCase<'a> {
    /// The case key.
    pub key: String,
    /// The baseline's row first, then the other runs in the order given.
    pub rows: Vec<MachineRow<'a>>,
}

/// Several runs side by side.
#[derive(Debug, Clone)]
pub struct Machines<'a> {
    /// The runs, in the order given.
    pub runs: &'a [Run],
    /// Index of the baseline run.
    pub baseline: usize,
    /// The shared cases, in the baseline's order.
    pub cases: Vec<MachineCase<'a>>,
    /// A ratio this far from 1 (a fraction) counts as a change.
    pub threshold: f64,
}

/// The candidate's median over the baseline's with its bootstrap interval,
/// widened by `spread` (the larger noise floor of the two runs) and decided
/// against `threshold` ([`Comparison::decided`]); inconclusive without
/// samples to give an interval.
fn median_ratio(b: &Measurement, c: &Measurement, threshold: f64, spread: f64) -> Comparison {
    if b.samples_ns.len() < 2 || c.samples_ns.len() < 2 {
        let nan = f64::NAN;
        let mut cmp = compare_medians_only(
            b.median_ns().unwrap_or(nan),
            c.median_ns().unwrap_or(nan),
            threshold,
        )
        .decided(spread, threshold);
        cmp.verdict = Verdict::Inconclusive;
        cmp.detectable = f64::INFINITY;
        return cmp;
    }
    compare(
        &b.samples_ns,
        &c.samples_ns,
        threshold,
        seed_of(&c.case_key()),
    )
    .decided(spread, threshold)
}

fn measured(m: &Measurement) -> bool {
    m.status == CaseStatus::Measured && !m.is_canary()
}

/// Pairs every run's cases with the baseline's (`baseline` indexes `runs`).
pub fn compare_machines(runs: &[Run], baseline: usize, threshold: f64) -> Machines<'_> {
    let mut cases = Vec::new();
    if let Some(base) = runs.get(baseline) {
        for b in base.measurements.iter().filter(|m| measured(m)) {
            let key = b.case_key();
            let mut rows = vec![MachineRow {
                run: baseline,
                measurement: b,
                ratio: None,
            }];
            for (i, run) in runs.iter().enumerate().filter(|(i, _)| *i != baseline) {
                if let Some(c) = run
                    .measurements
                    .iter()
                    .find(|m| measured(m) && m.case_key() == key)
                {
                    let spread = [base.noise_floor(), run.noise_floor()]
                        .into_iter()
                        .flatten()
                        .fold(0.0, f64::max);
                    rows.push(MachineRow {
                        run: i,
                        measurement: c,
                        ratio: Some(median_ratio(b, c, threshold, spread)),
                    });
                }
            }
            if rows.len() > 1 {
                cases.push(MachineCase { key, rows });
            }
        }
    }
    Machines {
        runs,
        baseline,
        cases,
        threshold,
    }
}

impl Machines<'_> {
    /// How each run is named in the machine column: its host, and the run
    /// id beside it when two runs share a host.
    pub fn label(&self, run: usize) -> String {
        let r = &self.runs[run];
        let host = if r.machine.hostname.is_empty() {
            "unknown host"
        } else {
            r.machine.hostname.as_str()
        };
        let shared = self
            .runs
            .iter()
            .filter(|o| o.machine.hostname == r.machine.hostname)
            .count()
            > 1;
        if shared {
            format!("{host} ({})", r.id)
        } else {
            host.to_string()
        }
    }

    /// Each other run's geometric mean time ratio to the baseline over the
    /// cases it shares with it, and how many cases that is.
    pub fn overall(&self) -> Vec<(usize, f64, usize)> {
        (0..self.runs.len())
            .filter(|i| *i != self.baseline)
            .filter_map(|i| {
                let logs: Vec<f64> = self
                    .cases
                    .iter()
                    .flat_map(|c| c.rows.iter())
                    .filter(|r| r.run == i)
                    .filter_map(|r| r.ratio.as_ref().map(|c| c.ratio))
                    .filter(|x| x.is_finite() && *x > 0.0)
                    .map(f64::ln)
                    .collect();
                (!logs.is_empty()).then(|| {
                    let mean = logs.iter().sum::<f64>() / logs.len() as f64;
                    (i, mean.exp(), logs.len())
                })
            })
            .collect()
    }
}

/// The machines as one table: a row per case and run, its machine, median
/// time (one unit for the column) and ratio to the baseline.
pub fn machines_table(m: &Machines<'_>) -> Table {
    let unit = TimeUnit::for_column(
        m.cases
            .iter()
            .flat_map(|c| c.rows.iter())
            .filter_map(|r| r.measurement.median_ns()),
    );
    let median = format!("median ({})", unit.symbol());
    let mut t = Table::new(
        format!(
            "Machines side by side: time ratio to the baseline {} (run {}), lower is faster",
            m.label(m.baseline),
            m.runs[m.baseline].id
        ),
        case_headers(&[
            "machine",
            &median,
            "ratio",
            "95% CI",
            "widened CI",
            "detectable",
            "verdict",
        ]),
    )
    .right(&[4, 7, 8, 9, 10, 11]);
    let firsts: Vec<&Measurement> = m.cases.iter().map(|c| c.rows[0].measurement).collect();
    for (case, variant) in m.cases.iter().zip(variants(&firsts)) {
        for row in &case.rows {
            let ms = row.measurement;
            let [ratio, ci, widened, detectable, verdict] = match &row.ratio {
                None => [
                    "baseline".to_string(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ],
                Some(c) => [
                    format!("{:.3}", c.ratio),
                    format!("{:.3} .. {:.3}", c.ci95.0, c.ci95.1),
                    format!("{:.3} .. {:.3}", c.widened.0, c.widened.1),
                    crate::compare::percent_or_none(c.detectable),
                    verdict_word(c.verdict).to_string(),
                ],
            };
            t.row([
                ms.suite.clone(),
                ms.primitive.clone(),
                ms.backend.clone(),
                ms.operation.clone(),
                size(ms),
                variant.clone(),
                m.label(row.run),
                ms.median_ns()
                    .map(|v| unit.format_bare(v))
                    .unwrap_or_default(),
                ratio,
                ci,
                widened,
                detectable,
                verdict,
            ]);
        }
    }
    for note in machines_notes(m) {
        t.note(note);
    }
    t
}

/// Between machines "faster" and "slower" describe the machine, not a
/// change of code.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Faster => "faster",
        Verdict::Slower => "slower",
        Verdict::Unchanged => "same",
        Verdict::Inconclusive => "inconclusive",
    }
}

/// One line per machine (its processor) and the overall ratios.
pub fn machines_notes(m: &Machines<'_>) -> Vec<String> {
    let mut notes: Vec<String> = (0..m.runs.len())
        .map(|i| {
            let f = &m.runs[i].machine;
            format!(
                "{}{}: run {}, {} ({} cores), {}",
                m.label(i),
                if i == m.baseline { " (baseline)" } else { "" },
                m.runs[i].id,
                if f.cpu_model.is_empty() {
                    "unknown CPU"
                } else {
                    &f.cpu_model
                },
                f.cores,
                f.kernel
            )
        })
        .collect();
    for (i, ratio, n) in m.overall() {
        notes.push(format!(
            "{} takes {ratio:.3} times the baseline's time overall (geometric mean over {n} shared case(s))",
            m.label(i)
        ));
    }
    if m.cases.is_empty() {
        notes.push("the baseline shares no measured case with the other runs".into());
    }
    notes.push(format!(
        "ratios are raw time ratios (no drift is removed between machines); each ratio's 95% interval is widened by the larger noise floor of the two runs (in quadrature, on the log scale): the same when the widened interval lies inside 1 +- {:.1}%, faster or slower when it lies wholly outside, else inconclusive",
        m.threshold * 100.0
    ));
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Fingerprint, Summary};

    fn case(primitive: &str, ns: f64) -> Measurement {
        let mut m = CaseSpec::new("hash", primitive, "openssl", "OpenSSL 3", "digest")
            .size(1024)
            .measurement(CaseStatus::Measured, None);
        m.samples_ns = (0..9).map(|i| ns + i as f64 * ns * 1e-4).collect();
        m.stats = Some(Summary {
            median: ns + 4.0 * ns * 1e-4,
            ..Default::default()
        });
        m
    }

    fn run(id: &str, host: &str, ms: Vec<Measurement>) -> Run {
        Run {
            machine: Fingerprint {
                hostname: host.into(),
                ..Fingerprint::default()
            },
            ..Run::new(id, ms)
        }
    }

    #[test]
    fn every_run_gets_a_row_with_its_machine_and_ratio_to_the_baseline() {
        let runs = vec![
            run(
                "a",
                "alpha",
                vec![case("SHA-256", 1000.0), case("SHA-512", 2000.0)],
            ),
            run("b", "beta", vec![case("SHA-256", 2000.0)]),
        ];
        let m = compare_machines(&runs, 0, 0.02);
        assert_eq!(m.cases.len(), 1, "SHA-512 only ran on alpha");
        let t = machines_table(&m);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0][6], "alpha");
        assert_eq!(t.rows[0][8], "baseline");
        assert_eq!(t.rows[1][6], "beta");
        assert_eq!(t.rows[1][8], "2.000");
        assert_eq!(t.rows[1][12], "slower");
        assert!(t.notes.iter().any(|n| n.contains("beta takes 2.000 times")));
        // The other way round: beta as the baseline, alpha half its time.
        let m = compare_machines(&runs, 1, 0.02);
        let t = machines_table(&m);
        assert_eq!(
            (t.rows[0][6].as_str(), t.rows[1][8].as_str()),
            ("beta", "0.500")
        );
        assert_eq!(t.rows[1][12], "faster");
    }

    #[test]
    fn runs_of_one_host_are_told_apart_by_id() {
        let runs = vec![
            run("a", "alpha", vec![case("SHA-256", 1000.0)]),
            run("b", "alpha", vec![case("SHA-256", 1000.0)]),
        ];
        let m = compare_machines(&runs, 0, 0.02);
        assert_eq!(m.label(1), "alpha (b)");
        assert_eq!(machines_table(&m).rows[1][12], "same");
    }
}
