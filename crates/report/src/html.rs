//! The HTML report: one self-contained page per run.
//!
//! Everything is inline (CSS in a `<style>` element, charts as `<svg>`), so
//! the file can be mailed, archived or opened offline and reads the same
//! anywhere; nothing needs JavaScript (the only interactive parts are native
//! `<details>` elements and SVG `<title>` tooltips). The page starts with
//! the run's state (an empty, interrupted or failed run says so in a banner)
//! and the machine it ran on, then one section per suite: the suite's own
//! charts and tables, then a throughput ranking per operation and size with
//! the table of its cases under it, then the peer ratios and, with a
//! baseline, the run-to-run comparison.

use crate::charts::{self, is_caution_label, Group, PeerRatio};
use crate::html_extra;
pub use crate::html_extra::{Extras, PaperSection};
use crate::svg::{escape, render as render_svg};
use crate::tables;
use cryptobench_core::units::{format_ns, format_size};
use cryptobench_core::{
    Align, CaseStatus, Chart, Error, Measurement, Run, RunStatus, Suite, Table,
};
use cryptobench_stats::Verdict;
use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Noise threshold of the baseline comparison (2 %, as `compare`'s default).
pub const COMPARE_THRESHOLD: f64 = 0.02;

const CSS: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; line-height: 1.45; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-top: 8px; border-top: 2px solid #d8dde6; }
h3 { font-size: 16px; margin: 24px 0 6px; }
.sub { color: #5a6475; margin: 0 0 16px; }
.banner { padding: 10px 14px; border-radius: 6px; margin: 12px 0; font-weight: 600; }
.banner.ok { background: #e3f4e8; border: 1px solid #9fd3ae; }
.banner.warn { background: #fff4d6; border: 1px solid #e8c65a; }
.banner.bad { background: #fde4e4; border: 1px solid #e89a9a; color: #9b1111; }
.card { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 14px 16px; margin: 14px 0; overflow-x: auto; }
.card > h3:first-child { margin-top: 0; }
.chart-box svg { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; width: 100%; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e6e9ef; text-align: left; vertical-align: top; }
th { background: #eef1f5; font-weight: 600; }
table.cases td:first-child, table.cases td:nth-child(2), td.ok-status { white-space: nowrap; }
td.params { max-width: 240px; font-size: 12px; color: #3b4452; overflow-wrap: break-word; min-width: 140px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafbfc; }
.failed, td.failed { color: #c01616; font-weight: 700; }
tr.row-failed td { background: #fdeeee; }
.skipped { color: #6b7280; }
.ok-status { color: #16794a; }
.label { display: inline-block; font-size: 11px; padding: 0 6px; margin: 1px 2px 1px 0; border-radius: 9px; background: #e8ecf2; color: #333; }
.label.caution { background: #ffe0c2; color: #8a3b00; font-weight: 600; }
.note { color: #5a6475; font-size: 13px; margin: 4px 0; }
dl.machine { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; font-size: 14px; }
dl.machine dt { font-weight: 600; color: #3b4452; }
dl.machine dd { margin: 0; word-break: break-word; }
nav ul { margin: 4px 0; padding-left: 20px; columns: 2; }
.verdict-slower { color: #c01616; font-weight: 700; }
.verdict-faster { color: #16794a; font-weight: 700; }
footer { color: #8a93a3; font-size: 12px; margin-top: 40px; }
"#;

/// Renders the whole report of `run`. `suites` provide their own charts
/// and tables for the measurements of their name (any subset, even none);
/// `baseline` adds the comparison section.
pub fn render_html(run: &Run, suites: &[Box<dyn Suite>], baseline: Option<&Run>) -> String {
    render_html_with(
        run,
        suites,
        &Extras {
            baseline,
            ..Extras::default()
        },
    )
}

/// [`render_html`] with the sections that come from outside the run:
/// recommendations, seed experiments, the other hosts of a fleet.
pub fn render_html_with(run: &Run, suites: &[Box<dyn Suite>], extras: &Extras<'_>) -> String {
    let baseline = extras.baseline;
    let mut page = String::with_capacity(64 * 1024);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"cryptobench\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>cryptobench report {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n",
        escape(&run.id)
    );
    let _ = write!(
        page,
        "<h1>cryptobench report</h1>\n<p class=\"sub\">run <strong>{}</strong> · status <strong>{}</strong> · started {}{}{}</p>\n",
        escape(&run.id),
        escape(run.status.as_str()),
        escape(&run.started_at),
        run.finished_at
            .as_ref()
            .map(|t| format!(" · finished {}", escape(t)))
            .unwrap_or_default(),
        if run.command.is_empty() {
            String::new()
        } else {
            format!(" · <code>{}</code>", escape(&run.command.join(" ")))
        }
    );
    page.push_str(&banners(run));

    let suite_names = suites_in(run, suites);
    let ratios = charts::peer_ratios(&run.measurements);
    page.push_str("<nav class=\"card\"><strong>Contents</strong><ul>\n<li><a href=\"#machine\">Machine</a></li>\n");
    let contents = extras.contents();
    for (anchor, text) in contents.iter().filter(|(a, _)| *a == "recommendations") {
        let _ = writeln!(page, "<li><a href=\"#{anchor}\">{}</a></li>", escape(text));
    }
    for s in &suite_names {
        let _ = writeln!(
            page,
            "<li><a href=\"#suite-{0}\">Suite {0}</a></li>",
            escape(s)
        );
    }
    if !ratios.is_empty() {
        page.push_str("<li><a href=\"#peer-ratios\">Peer ratios</a></li>\n");
    }
    for (anchor, text) in contents.iter().filter(|(a, _)| *a != "recommendations") {
        let _ = writeln!(page, "<li><a href=\"#{anchor}\">{}</a></li>", escape(text));
    }
    if baseline.is_some() {
        page.push_str("<li><a href=\"#comparison\">Comparison with the baseline</a></li>\n");
    }
    page.push_str("</ul></nav>\n");

    page.push_str(&machine(run));
    page.push_str(&html_extra::recommendations_section(
        &extras.recommendations,
    ));
    for s in &suite_names {
        let own = suites.iter().find(|x| x.name() == s.as_str());
        page.push_str(&suite_section(s, own.map(|b| b.as_ref()), run));
    }
    if !ratios.is_empty() {
        page.push_str(&peer_section(&ratios));
    }
    page.push_str(&html_extra::papers_section(&extras.papers));
    page.push_str(&html_extra::fleet_section(&extras.fleet));
    if let Some(b) = baseline {
        page.push_str(&comparison_section(b, run));
    }
    let version = if run.machine.tool_version.is_empty() {
        String::new()
    } else {
        format!(
            " {} ({})",
            escape(&run.machine.tool_version),
            escape(&run.machine.git_revision)
        )
    };
    let _ = write!(
        page,
        "<footer>Written by cryptobench{version}. Medians of raw samples with 95% bootstrap \
         confidence intervals; a case is timed only after its checks pass.</footer>\n\
         </main>\n</body>\n</html>\n"
    );
    page
}

/// Renders the report and writes it to `path`: what `report` and `run`
/// call. A path that cannot be written is a usage error naming it.
pub fn write_html(
    path: &Path,
    run: &Run,
    suites: &[Box<dyn Suite>],
    baseline: Option<&Run>,
) -> Result<(), Error> {
    write_html_with(
        path,
        run,
        suites,
        &Extras {
            baseline,
            ..Extras::default()
        },
    )
}

/// [`write_html`] with the outside sections of [`render_html_with`].
pub fn write_html_with(
    path: &Path,
    run: &Run,
    suites: &[Box<dyn Suite>],
    extras: &Extras<'_>,
) -> Result<(), Error> {
    std::fs::write(path, render_html_with(run, suites, extras)).map_err(|e| {
        Error::usage(format!(
            "cannot write the report to {}: {e} (choose a writable path with -o FILE)",
            path.display()
        ))
    })
}

/// The run's state in words: empty, still running, interrupted, failed.
fn banners(run: &Run) -> String {
    let mut out = String::new();
    let n = run.measurements.len();
    let count = |s: CaseStatus| run.measurements.iter().filter(|m| m.status == s).count();
    let (measured, failed) = (count(CaseStatus::Measured), count(CaseStatus::Failed));
    let (skipped, unavailable) = (count(CaseStatus::Skipped), count(CaseStatus::Unavailable));
    if n == 0 {
        out.push_str(
            "<div class=\"banner warn\" id=\"empty-run\">This run has no measurements: \
             nothing was measured, so there is nothing to chart.</div>\n",
        );
    }
    match run.status {
        RunStatus::Interrupted => out.push_str(
            "<div class=\"banner warn\" id=\"interrupted-run\">This run was interrupted before \
             every case was attempted; the figures below are the cases that finished.</div>\n",
        ),
        RunStatus::Running => out.push_str(
            "<div class=\"banner warn\" id=\"running-run\">This run never finished (it is still \
             running, or the process died); the figures below are the cases that finished.</div>\n",
        ),
        _ => {}
    }
    if failed > 0 || run.status == RunStatus::Failed {
        let _ = write!(
            out,
            "<div class=\"banner bad\" id=\"failed-run\">{failed} case(s) FAILED their checks and \
             were not timed:<ul>"
        );
        for m in run
            .measurements
            .iter()
            .filter(|m| m.status == CaseStatus::Failed)
        {
            let _ = write!(
                out,
                "<li class=\"failed\">{} {} {} {}{}: {}</li>",
                escape(&m.suite),
                escape(&m.primitive),
                escape(&m.backend),
                escape(&m.operation),
                size_suffix(m.input_bytes),
                escape(m.reason.as_deref().unwrap_or("no reason recorded"))
            );
        }
        out.push_str("</ul></div>\n");
    } else if n > 0 && run.status == RunStatus::Complete {
        out.push_str(
            "<div class=\"banner ok\">Every measured case passed its checks before it was timed.</div>\n",
        );
    }
    if n > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{n} case(s): {measured} measured, {failed} failed, {skipped} skipped, \
             {unavailable} unavailable here.</p>"
        );
    }
    out
}

fn size_suffix(bytes: u64) -> String {
    if bytes > 0 {
        format!(" ({})", format_size(bytes))
    } else {
        String::new()
    }
}

/// Suites in the order the registry knows them, then any other suite the
/// run holds (a run stored by another build).
fn suites_in(run: &Run, suites: &[Box<dyn Suite>]) -> Vec<String> {
    let present = |n: &str| run.measurements.iter().any(|m| m.suite == n);
    let mut out: Vec<String> = suites
        .iter()
        .map(|s| s.name().to_string())
        .filter(|n| present(n))
        .collect();
    for m in &run.measurements {
        if !out.contains(&m.suite) {
            out.push(m.suite.clone());
        }
    }
    out
}

/// The machine fingerprint as a definition list.
fn machine(run: &Run) -> String {
    let f = &run.machine;
    let or_na = |s: &str| {
        if s.trim().is_empty() {
            "n/a".to_string()
        } else {
            s.to_string()
        }
    };
    let mut rows: Vec<(&str, String)> = vec![
        ("host", f.hostname.clone()),
        (
            "CPU",
            format!("{} ({} logical cores)", f.cpu_model, f.cores),
        ),
        (
            "CPU flags",
            if f.cpu_flags_missing.is_empty() {
                or_na(&f.cpu_flags.join(" "))
            } else {
                format!(
                    "{} (missing: {})",
                    f.cpu_flags.join(" "),
                    f.cpu_flags_missing.join(" ")
                )
            },
        ),
        (
            "TSC",
            f.tsc_hz
                .map(|h| format!("{:.3} GHz", h / 1e9))
                .unwrap_or_else(|| "n/a".into()),
        ),
        (
            "OS",
            format!("{}; kernel {}", or_na(&f.os), or_na(&f.kernel)),
        ),
        (
            "governor",
            f.governor.clone().unwrap_or_else(|| "n/a".into()),
        ),
        (
            "memory",
            if f.memory_bytes > 0 {
                format!("{:.1} GiB", f.memory_bytes as f64 / (1u64 << 30) as f64)
            } else {
                "n/a".into()
            },
        ),
        (
            "cryptobench",
            format!("{} ({})", or_na(&f.tool_version), or_na(&f.git_revision)),
        ),
    ];
    for b in &f.backends {
        rows.push((
            "backend",
            format!(
                "{} = {}{}",
                b.name,
                b.version,
                b.unavailable
                    .as_ref()
                    .map(|r| format!(" (unavailable: {r})"))
                    .unwrap_or_default()
            ),
        ));
    }
    let mut out = String::from(
        "<section id=\"machine\" class=\"card\"><h3 style=\"margin-top:0\">Machine</h3><dl class=\"machine\">\n",
    );
    for (k, v) in rows {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(&v));
    }
    out.push_str("</dl></section>\n");
    out
}

/// A chart in its card, with its notes.
pub fn chart_html(chart: &Chart) -> String {
    let mut out = String::from("<div class=\"chart-box\">");
    out.push_str(&render_svg(chart));
    for n in &chart.notes {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(n));
    }
    out.push_str("</div>\n");
    out
}

/// A [`Table`] as HTML; cells that start with `FAILED` are red.
pub fn table_html(t: &Table) -> String {
    let mut out = String::new();
    if !t.title.is_empty() {
        let _ = writeln!(out, "<h3>{}</h3>", escape(&t.title));
    }
    out.push_str("<table><thead><tr>");
    let num = |i: usize| t.align.get(i) == Some(&Align::Right);
    for (i, h) in t.headers.iter().enumerate() {
        let _ = write!(
            out,
            "<th{}>{}</th>",
            if num(i) { " class=\"num\"" } else { "" },
            escape(h)
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &t.rows {
        let failed = row.iter().any(|c| c.starts_with("FAILED"));
        out.push_str(if failed {
            "<tr class=\"row-failed\">"
        } else {
            "<tr>"
        });
        for (i, c) in row.iter().enumerate() {
            let mut classes = Vec::new();
            if num(i) {
                classes.push("num");
            }
            if c.starts_with("FAILED") {
                classes.push("failed");
            }
            let _ = write!(
                out,
                "<td{}>{}</td>",
                if classes.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", classes.join(" "))
                },
                escape(c)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
    for n in &t.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(n));
    }
    out
}

/// Runs a suite's own drawing code; a panic there costs its section a
/// note, never the report.
fn guarded<T>(f: impl FnOnce() -> Vec<T>) -> Result<Vec<T>, ()> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| ())
}

fn suite_section(name: &str, suite: Option<&dyn Suite>, run: &Run) -> String {
    let mine: Vec<&Measurement> = run
        .measurements
        .iter()
        .filter(|m| m.suite == name)
        .collect();
    let mut out = format!(
        "<section id=\"suite-{0}\" class=\"suite\">\n<h2>Suite {0}</h2>\n",
        escape(name)
    );
    if let Some(s) = suite {
        let _ = writeln!(out, "<p class=\"sub\">{}</p>", escape(s.about()));
        let owned: Vec<Measurement> = mine.iter().map(|m| (*m).clone()).collect();
        match guarded(|| s.charts(&owned)) {
            Ok(cs) => {
                for c in cs {
                    let _ = write!(out, "<div class=\"card\">{}</div>", chart_html(&c));
                }
            }
            Err(()) => out.push_str(
                "<p class=\"note failed\">This suite's own charts could not be drawn from these measurements.</p>\n",
            ),
        }
        match guarded(|| s.summarize(&owned)) {
            Ok(ts) if !ts.is_empty() => {
                out.push_str("<div class=\"card\">");
                for t in ts {
                    out.push_str(&table_html(&t));
                }
                out.push_str("</div>\n");
            }
            Ok(_) => {}
            Err(()) => out.push_str(
                "<p class=\"note failed\">This suite's own tables could not be drawn from these measurements.</p>\n",
            ),
        }
    }
    out.push_str("<h3>Throughput by operation and size</h3>\n");
    for g in charts::throughput_groups(name, &mine) {
        out.push_str(&group_html(&g));
    }
    out.push_str("</section>\n");
    out
}

/// One ranking chart (or why there is none) and the table of its cases.
fn group_html(g: &Group<'_>) -> String {
    let mut out = String::from("<div class=\"card group\">");
    match &g.chart {
        Some(c) => out.push_str(&chart_html(c)),
        None => {
            let _ = write!(
                out,
                "<h3 style=\"margin-top:0\">{}{}</h3><p class=\"note\">No case of this operation was measured; the table says why.</p>",
                escape(&g.operation),
                size_suffix(g.input_bytes)
            );
        }
    }
    out.push_str(&cases_table(&g.measurements));
    out.push_str("</div>\n");
    out
}

/// The cases under a chart: figures, status (FAILED in red with the
/// reason, skipped and unavailable with theirs) and labels.
pub fn cases_table(ms: &[&Measurement]) -> String {
    let mut out = String::from(
        "<table class=\"cases\"><thead><tr><th>primitive</th><th>backend</th><th>params</th>\
         <th class=\"num\">threads</th><th class=\"num\">median</th><th class=\"num\">95% CI</th>\
         <th class=\"num\">throughput</th><th class=\"num\">cyc/B</th><th>status</th><th>labels</th></tr></thead><tbody>\n",
    );
    for m in ms {
        let (median, ci, cpb) = match &m.stats {
            Some(s) if m.status == CaseStatus::Measured => (
                format_ns(s.median),
                format!("{} .. {}", format_ns(s.ci95[0]), format_ns(s.ci95[1])),
                s.cycles_per_byte
                    .map(|c| format!("{c:.2}"))
                    .unwrap_or_default(),
            ),
            _ => Default::default(),
        };
        let (row_class, status_class) = match m.status {
            CaseStatus::Measured => ("", "ok-status"),
            CaseStatus::Failed => (" class=\"row-failed\"", "failed"),
            CaseStatus::Skipped | CaseStatus::Unavailable => ("", "skipped"),
        };
        let mut status = escape(&tables::status(m));
        if m.status == CaseStatus::Failed {
            let failing: Vec<String> = m
                .checks
                .iter()
                .filter(|c| c.outcome == cryptobench_core::CheckOutcome::Fail)
                .map(|c| format!("{}: {}", c.name, c.detail))
                .collect();
            if !failing.is_empty() {
                let _ = write!(status, "<br>check {}", escape(&failing.join("; ")));
            }
        } else if !m.warnings.is_empty() {
            status = format!(
                "<span title=\"{}\">{status}</span>",
                escape(&m.warnings.join("\n"))
            );
        }
        let labels: String = m
            .labels
            .iter()
            .map(|l| {
                format!(
                    "<span class=\"label{}\">{}</span>",
                    if is_caution_label(l) { " caution" } else { "" },
                    escape(l)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<tr{row_class}><td>{}</td><td>{}</td><td class=\"params\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"{status_class}\">{status}</td><td>{labels}</td></tr>",
            escape(&m.primitive),
            escape(&m.backend),
            escape(&tables::params(m)),
            m.threads,
            escape(&median),
            escape(&ci),
            escape(&tables::throughput(m)),
            escape(&cpb),
        );
    }
    out.push_str("</tbody></table>\n");
    out
}

fn peer_section(ratios: &[PeerRatio<'_>]) -> String {
    let mut out = String::from(
        "<section id=\"peer-ratios\">\n<h2>Peer ratios</h2>\n<p class=\"sub\">Each outside reference \
         (<code>openssl speed</code>, the argon2 command-line tool, PHP) beside the matching native \
         case: same suite, primitive, operation and size. “ours / peer” above 1 means the library \
         called here is faster than the peer; “PHP / native” below 1 is the price of PHP.</p>\n<div class=\"card\">",
    );
    if let Some(c) = charts::peer_ratio_chart(ratios) {
        out.push_str(&chart_html(&c));
    }
    out.push_str(
        "<table class=\"peers\"><thead><tr><th>suite</th><th>primitive</th><th>op</th><th class=\"num\">size</th>\
         <th>peer</th><th class=\"num\">peer throughput</th><th>native</th><th class=\"num\">native throughput</th>\
         <th>ratio</th><th class=\"num\">value</th></tr></thead><tbody>\n",
    );
    for r in ratios {
        let p = r.peer;
        let (value, class) = match (r.ratio, &r.missing) {
            (Some(v), _) => (format!("{v:.3}"), "num"),
            (None, Some(why)) => (why.clone(), "skipped"),
            (None, None) => (String::new(), "num"),
        };
        let class = if p.status == CaseStatus::Failed {
            "failed"
        } else {
            class
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td>{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"{class}\">{}</td></tr>",
            escape(&p.suite),
            escape(&p.primitive),
            escape(&p.operation),
            if p.input_bytes > 0 {
                format_size(p.input_bytes)
            } else {
                "-".into()
            },
            escape(&p.backend),
            escape(&tables::throughput(p)),
            escape(r.native.map(|n| n.backend.as_str()).unwrap_or("-")),
            escape(&r.native.map(tables::throughput).unwrap_or_default()),
            escape(r.meaning),
            escape(&value)
        );
    }
    out.push_str("</tbody></table></div>\n</section>\n");
    out
}

fn comparison_section(baseline: &Run, run: &Run) -> String {
    let cmp = tables::compare_full(baseline, run, COMPARE_THRESHOLD);
    let cases = &cmp.cases;
    let mut out = format!(
        "<section id=\"comparison\">\n<h2>Comparison with the baseline</h2>\n<p class=\"sub\">Baseline \
         <strong>{}</strong> ({}) against this run <strong>{}</strong>. Ratio = this run's time / the \
         baseline's (lower is faster), with its 95% confidence interval; a case counts as changed only \
         when the interval clears the ±{:.0}% noise threshold.</p>\n<div class=\"card\">",
        escape(&baseline.id),
        escape(&baseline.started_at),
        escape(&run.id),
        COMPARE_THRESHOLD * 100.0
    );
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
        let _ = write!(
            out,
            "<p><strong>{changed}</strong> changed, <strong>{}</strong> unchanged of {} case(s).</p>",
            cases.len() - changed,
            cases.len()
        );
        let mut chart = Chart::new(
            cryptobench_core::ChartKind::Bar,
            "Time ratio, this run / baseline (1 = unchanged, shorter is faster)",
            "",
            "time ratio",
        );
        let mut series = cryptobench_core::Series {
            name: "time ratio".into(),
            points: Vec::new(),
        };
        for (i, c) in cases.iter().take(charts::MAX_CATEGORIES).enumerate() {
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
    out.push_str(&html);
    out.push_str("</div>\n</section>\n");
    out
}

#[cfg(test)]
#[path = "html_tests.rs"]
mod tests;
