//! Report sections that stand beside the suites: the recommendations, the
//! comparison with a baseline, the peer ratios, the seed experiments
//! (`paper`) and the other hosts of a fleet. The binary computes the
//! outside ones (it knows the paper registry and the store); this module
//! only draws them.

use crate::charts::{self, PeerRatio};
use crate::html::{chart_html, collapsed, size_suffix, table_html, COMPARE_THRESHOLD};
use crate::recommend::Recommendation;
use crate::svg::escape;
use crate::tables;
use cryptobench_core::{CaseStatus, Chart, Run, Table};
use cryptobench_stats::Verdict;
use std::fmt::Write;

/// Most changes the comparison chart shows; the table below has them all.
const MAX_CHANGES_CHARTED: usize = 15;

/// One seed experiment as the report shows it.
#[derive(Debug, Clone)]
pub struct PaperSection {
    /// `paper` name (`aegis`, `ecc-keygen`, ...).
    pub name: String,
    /// Title and source document.
    pub title: String,
    /// Published figures beside this run's, with the verdict notes.
    pub tables: Vec<Table>,
}

/// Everything beyond the run itself that a report may show.
#[derive(Debug, Default)]
pub struct Extras<'a> {
    /// A run to compare with.
    pub baseline: Option<&'a Run>,
    /// `recommend`'s advice for this run.
    pub recommendations: Vec<Recommendation>,
    /// Seed experiments whose suites this run measured.
    pub papers: Vec<PaperSection>,
    /// Every host's run when this run is one host of a fleet (rank order).
    pub fleet: Vec<Run>,
    /// Runs of several machines side by side (this run among them), and
    /// the index of the one the others are compared with.
    pub machines: Vec<Run>,
    /// Index into `machines` of the baseline run.
    pub machines_baseline: usize,
}

impl Extras<'_> {
    /// Table-of-contents entries (anchor, text) for the sections present.
    pub fn contents(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !self.recommendations.is_empty() {
            out.push(("recommendations", "Recommendations".to_string()));
        }
        if !self.papers.is_empty() {
            out.push(("papers", "Seed experiments".to_string()));
        }
        if self.machines.len() > 1 {
            out.push(("machines", format!("{} machines", self.machines.len())));
        }
        if self.fleet.len() > 1 {
            out.push(("fleet", format!("Fleet of {} hosts", self.fleet.len())));
        }
        out
    }
}

/// The recommendations: topic and advice in view, the cases each rests
/// on one click away.
pub fn recommendations_section(recs: &[Recommendation]) -> String {
    if recs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"recommendations\">\n<h2>Recommendations</h2>\n<p class=\"sub\">Drawn from \
         this run's verified measurements only (a FAILED case or one with a security warning is \
         never recommended).</p>\n<div class=\"card recs\">\n",
    );
    for r in recs {
        // The answer in view; why, and what it rests on, one click away.
        let _ = write!(
            out,
            "<div class=\"rec\"><h3>{}</h3>\n<p><strong>{}</strong></p>\n",
            escape(&r.topic),
            escape(&crate::recommend_record::summary_line(&r.record)),
        );
        let _ = write!(
            out,
            "<details class=\"evidence\"><summary>Why, and the {} case(s) it rests on</summary>\
             <p class=\"note\">{}</p><ul>",
            r.evidence.len(),
            escape(&r.advice)
        );
        for e in &r.evidence {
            let _ = write!(out, "<li class=\"note\">{}</li>", escape(e));
        }
        out.push_str("</ul></details>");
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n</section>\n");
    out
}

/// Whether a paper's note states a verdict on a claim ("holds here", ...)
/// or that the seed's own figures contradict one.
fn is_verdict_note(note: &str) -> bool {
    use cryptobench_core::Verdict;
    [
        Verdict::Holds,
        Verdict::Differs,
        Verdict::Inconclusive,
        Verdict::NotMeasured,
    ]
    .iter()
    .any(|v| note.contains(v.as_str()))
        || note.contains("contradict")
}

/// The seed experiments: published tables beside this machine's.
pub fn papers_section(papers: &[PaperSection]) -> String {
    if papers.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"papers\">\n<h2>Seed experiments</h2>\n<p class=\"sub\">Each published \
         table beside this run's figures, with one line per conclusion of the paper: \
         “holds here” or “differs here”. `cryptobench paper NAME` runs an experiment's \
         complete grid.</p>\n",
    );
    for p in papers {
        let _ = write!(
            out,
            "<div class=\"card\" id=\"paper-{}\">\n<h3>{} <code>{}</code></h3>\n",
            escape(&p.name),
            escape(&p.title),
            escape(&p.name)
        );
        // The verdicts in view; the other notes (method, corrections of the
        // seeds' typos) stay with the figures, collapsed, so a reader sees
        // what held before how it was measured.
        let drawn: Vec<&Table> = p.tables.iter().filter(|t| !t.rows.is_empty()).collect();
        let mut other_notes = String::new();
        for t in &drawn {
            for n in &t.notes {
                let line = format!("<p class=\"note\">{}</p>\n", escape(n));
                if is_verdict_note(n) {
                    out.push_str(&line);
                } else {
                    other_notes.push_str(&line);
                }
            }
        }
        let body: String = std::iter::once(other_notes)
            .chain(drawn.iter().map(|t| {
                let mut bare = (*t).clone();
                bare.notes.clear();
                table_html(&bare)
            }))
            .collect();
        out.push_str(&collapsed(
            &format!("Method notes and figures ({} table(s))", drawn.len()),
            &body,
        ));
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
    out
}

/// Runs of several machines side by side: a line per machine with its
/// overall ratio in view, every case in a collapsed table.
pub fn machines_section(runs: &[Run], baseline: usize) -> String {
    if runs.len() < 2 {
        return String::new();
    }
    let m = crate::machines::compare_machines(runs, baseline, COMPARE_THRESHOLD);
    let mut out = format!(
        "<section id=\"machines\">\n<h2>{} machines side by side</h2>\n<p class=\"sub\">Each case's \
         median time on every machine that measured it, as a ratio to the baseline {} (run {}); \
         lower is faster.</p>\n<div class=\"card\">\n",
        runs.len(),
        escape(&m.label(baseline)),
        escape(&runs[baseline].id)
    );
    for note in crate::machines::machines_notes(&m) {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(&note));
    }
    let mut table = crate::machines::machines_table(&m);
    table.notes.clear();
    out.push_str(&collapsed(
        &format!("Every shared case ({} case(s))", m.cases.len()),
        &table_html(&table),
    ));
    out.push_str("</div>\n</section>\n");
    out
}

/// Every host of the fleet side by side (median time and ratio to rank 0).
pub fn fleet_section(runs: &[Run]) -> String {
    if runs.len() < 2 {
        return String::new();
    }
    format!(
        "<section id=\"fleet\">\n<h2>Fleet of {} hosts</h2>\n<p class=\"sub\">The same suites run at \
         once on every host (one MPI rank per host); each host's run is stored on its own \
         (`cryptobench report RUN` draws any of them).</p>\n<div class=\"card\">{}</div>\n</section>\n",
        runs.len(),
        collapsed(
            "Median time per host and ratio to rank 0",
            &table_html(&tables::fleet_table(runs))
        )
    )
}

/// Each outside reference beside its matching native case; peers without
/// one are counted in a note, not listed.
pub fn peer_section(ratios: &[PeerRatio<'_>]) -> String {
    let matched: Vec<&PeerRatio> = ratios.iter().filter(|r| r.ratio.is_some()).collect();
    if matched.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"peer-ratios\">\n<h2>Peer ratios</h2>\n<p class=\"sub\">Each outside reference \
         (<code>openssl speed</code>, the argon2 command-line tool, a language runtime) beside the matching \
         native case: same suite, primitive, operation and size. “ours / peer” above 1 means the library \
         called here is faster than the peer; “runtime / native” below 1 is the price of the runtime \
         (runtimes are drawn in the runtime overhead section; every pair is in the table).</p>\n<div class=\"card\">",
    );
    let owned: Vec<PeerRatio> = matched.iter().map(|r| (*r).clone()).collect();
    if let Some(c) = charts::peer_ratio_chart(&owned) {
        out.push_str(&chart_html(&c));
    }
    let unmatched = ratios.len() - matched.len();
    if unmatched > 0 {
        let _ = write!(
            out,
            "<p class=\"note\" id=\"unmatched-peers\">{unmatched} peer case(s) had no measured native \
             counterpart (or were not measured themselves) and are left out.</p>"
        );
    }
    let mut table = String::from(
        "<div class=\"table-wrap\"><table class=\"peers\"><thead><tr><th>suite</th><th>primitive</th><th>op</th><th class=\"num\">size</th>\
         <th>peer</th><th class=\"num\">peer throughput</th><th>native</th><th class=\"num\">native throughput</th>\
         <th>ratio</th><th class=\"num\">value</th></tr></thead><tbody>\n",
    );
    for r in &matched {
        let p = r.peer;
        let class = if p.status == CaseStatus::Failed {
            "failed"
        } else {
            "num"
        };
        let _ = writeln!(
            table,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"{class}\">{}</td></tr>",
            escape(&p.suite),
            escape(&p.primitive),
            escape(&p.operation),
            escape(&tables::size(p)),
            escape(&p.backend),
            escape(&tables::throughput(p)),
            escape(r.native.map(|n| n.backend.as_str()).unwrap_or("-")),
            escape(&r.native.map(tables::throughput).unwrap_or_default()),
            escape(r.meaning),
            r.ratio.map(|v| format!("{v:.3}")).unwrap_or_default()
        );
    }
    table.push_str("</tbody></table></div>\n");
    out.push_str(&collapsed(
        &format!("The {} matched pair(s) in figures", matched.len()),
        &table,
    ));
    out.push_str("</div>\n</section>\n");
    out
}

/// Size of a change in either direction: 2x slower and 2x faster weigh
/// the same.
fn change_size(ratio: f64) -> f64 {
    if ratio.is_finite() && ratio > 0.0 {
        ratio.ln().abs()
    } else {
        0.0
    }
}

/// The run against its baseline, largest changes first.
pub fn comparison_section(baseline: &Run, run: &Run) -> String {
    let mut cmp = tables::compare_full(baseline, run, COMPARE_THRESHOLD);
    cmp.cases.sort_by(|a, b| {
        change_size(b.comparison.ratio).total_cmp(&change_size(a.comparison.ratio))
    });
    let mut out = format!(
        "<section id=\"comparison\">\n<h2>Comparison with the baseline</h2>\n<p class=\"sub\">Baseline \
         <strong>{}</strong> ({}) against this run <strong>{}</strong>. Ratio = this run's fastest round / the \
         baseline's with the machine's drift removed (lower is faster; noise only adds time, so the \
         fastest rounds are what a code change moves), with its 95% confidence interval, widened by the \
         runs' noise floors; a case is unchanged only when the widened interval lies inside ±{:.0}% (the \
         threshold), changed when it lies wholly outside, else inconclusive. Largest changes first.</p>\n<div class=\"card\">",
        escape(&baseline.id),
        escape(&baseline.started_at),
        escape(&run.id),
        cmp.threshold * 100.0
    );
    let cases = &cmp.cases;
    if cases.is_empty() {
        out.push_str(
            "<p class=\"note\" id=\"no-common-cases\">The two runs have no measured case in common, \
             so there is nothing to compare.</p>",
        );
    } else {
        let changed = cases
            .iter()
            .filter(|c| matches!(c.comparison.verdict, Verdict::Faster | Verdict::Slower))
            .count();
        let unchanged = cases
            .iter()
            .filter(|c| c.comparison.verdict == Verdict::Unchanged)
            .count();
        let _ = write!(
            out,
            "<p><strong>{changed}</strong> changed, <strong>{unchanged}</strong> unchanged, <strong>{}</strong> inconclusive of {} case(s).</p>",
            cases.len() - changed - unchanged,
            cases.len()
        );
        for note in tables::comparison_notes(&cmp).iter().take(2) {
            let _ = write!(out, "<p class=\"note\">{}</p>", escape(note));
        }
        let mut chart = Chart::bars("Time ratio, this run / baseline: the largest changes (1 = unchanged, shorter is faster)", "time ratio");
        let mut series = cryptobench_core::Series {
            name: "time ratio".into(),
            points: Vec::new(),
        };
        for (i, c) in cases.iter().take(MAX_CHANGES_CHARTED).enumerate() {
            let m = &c.candidate;
            chart.categories.push(format!(
                "{} {} {} {}{}",
                m.suite,
                m.primitive,
                m.backend,
                m.operation,
                size_suffix(m.input_bytes)
            ));
            series.points.push((i as f64, c.comparison.ratio));
            if c.comparison.verdict == Verdict::Faster {
                chart.marked.push(i);
            }
        }
        chart.series.push(series);
        if !chart.marked.is_empty() {
            chart.notes.push("Shaded rows got faster.".into());
        }
        if cases.len() > MAX_CHANGES_CHARTED {
            chart.notes.push(format!(
                "{} smaller changes are only in the table.",
                cases.len() - MAX_CHANGES_CHARTED
            ));
        }
        out.push_str(&chart_html(&chart));
    }
    let table = tables::comparison_table(&cmp, baseline, run);
    // Verdict cells are whole cells, so a plain replacement colours them.
    let html = table_html(&table)
        .replace(
            "<td>SLOWER</td>",
            "<td class=\"verdict-slower\">SLOWER</td>",
        )
        .replace(
            "<td>faster</td>",
            "<td class=\"verdict-faster\">faster</td>",
        );
    out.push_str(&collapsed(
        &format!("Every compared case ({})", cases.len()),
        &html,
    ));
    out.push_str("</div>\n</section>\n");
    out
}
