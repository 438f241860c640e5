//! Report sections that come from outside the run's suites: the
//! recommendations, the seed experiments (`paper`) and the other hosts of a
//! fleet. The binary computes them (it knows the paper registry and the
//! store); this module only draws them.

use crate::html::table_html;
use crate::recommend::Recommendation;
use crate::svg::escape;
use crate::tables;
use cryptobench_core::{Run, Table};
use std::fmt::Write;

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
        if self.fleet.len() > 1 {
            out.push(("fleet", format!("Fleet of {} hosts", self.fleet.len())));
        }
        out
    }
}

/// The recommendations: topic, advice, and the cases each rests on.
pub fn recommendations_section(recs: &[Recommendation]) -> String {
    if recs.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"recommendations\">\n<h2>Recommendations</h2>\n<p class=\"sub\">Drawn from \
         this run's verified measurements only (a FAILED case or one with a security warning is \
         never recommended); each line names the cases it rests on.</p>\n<div class=\"card\">\n",
    );
    for r in recs {
        let _ = write!(
            out,
            "<h3>{}</h3>\n<p>{}</p>\n<ul class=\"evidence\">",
            escape(&r.topic),
            escape(&r.advice)
        );
        for e in &r.evidence {
            let _ = write!(out, "<li class=\"note\">{}</li>", escape(e));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</div>\n</section>\n");
    out
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
        for t in &p.tables {
            out.push_str(&table_html(t));
        }
        out.push_str("</div>\n");
    }
    out.push_str("</section>\n");
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
        table_html(&tables::fleet_table(runs))
    )
}
