//! The HTML report: one self-contained page per run, read in a minute.
//!
//! Everything is inline (CSS in a `<style>` element, charts as `<svg>`), so
//! the file can be mailed, archived or opened offline and reads the same
//! anywhere; nothing needs JavaScript (the only interactive parts are native
//! `<details>` elements and SVG `<title>` tooltips). The first screen
//! answers: the run's verdict in a banner, the machine, the recommendations
//! (each with its evidence one click away) and, with a baseline, the largest
//! changes. Then one section per suite with its own charts; every long table
//! sits in a collapsed `<details>`, so the default view stays short while
//! every figure remains on the page.

use crate::charts::{self, is_caution_label, Group};
use crate::html_extra;
pub use crate::html_extra::{Extras, PaperSection};
use crate::svg::{escape, height_of, render as render_svg};
use crate::tables;
use cryptobench_core::units::{format_size, TimeUnit};
use cryptobench_core::{
    Align, CaseStatus, Chart, Error, Measurement, Run, RunStatus, Suite, Table,
};
use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Height (SVG units) of a suite's own charts shown before the rest are
/// collapsed: about one screen per suite keeps the page readable in a minute
/// (with the TLS section, 1,050 let a realistic report reach 15,796 px,
/// past the page's 15,000, while the advice still showed its reasoning).
const SUITE_CHARTS_IN_VIEW_PX: f64 = 1000.0;

/// Noise threshold of the baseline comparison (2 %, as `compare`'s default).
pub const COMPARE_THRESHOLD: f64 = 0.02;

const CSS: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; line-height: 1.45; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 28px 60px; }
nav.top { position: sticky; top: 0; z-index: 10; background: #1d2330; box-shadow: 0 1px 4px rgba(0,0,0,.25); }
nav.top ul { list-style: none; margin: 0 auto; max-width: 1180px; padding: 7px 28px; display: flex; flex-wrap: wrap; gap: 2px 18px; font-size: 13px; }
nav.top a { color: #d6e4ff; text-decoration: none; white-space: nowrap; }
nav.top a:hover { text-decoration: underline; }
section, .card[id] { scroll-margin-top: 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 30px 0 8px; padding-top: 8px; border-top: 2px solid #d8dde6; }
h3 { font-size: 16px; margin: 18px 0 6px; }
.sub { color: #5a6475; margin: 0 0 12px; }
.banner { padding: 10px 14px; border-radius: 6px; margin: 10px 0; font-weight: 600; }
.banner.ok { background: #e3f4e8; border: 1px solid #9fd3ae; }
.banner.warn { background: #fff4d6; border: 1px solid #e8c65a; }
.banner.bad { background: #fde4e4; border: 1px solid #e89a9a; color: #9b1111; }
.card { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 14px 16px; margin: 12px 0; min-width: 0; }
.card > h3:first-child { margin-top: 0; }
.table-wrap { max-width: 100%; overflow-x: auto; }
.chart-box svg { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; width: 100%; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e6e9ef; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #eef1f5; font-weight: 600; }
td.params { font-size: 12px; color: #3b4452; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafbfc; }
.failed, td.failed { color: #c01616; font-weight: 700; }
tr.row-failed td { background: #fdeeee; }
.skipped { color: #6b7280; }
.ok-status { color: #16794a; }
.label { display: inline-block; font-size: 11px; padding: 0 6px; margin: 1px 2px 1px 0; border-radius: 9px; background: #e8ecf2; color: #333; }
.label.caution { background: #ffe0c2; color: #8a3b00; font-weight: 600; }
.note { color: #5a6475; font-size: 13px; margin: 4px 0; }
details.more { margin: 10px 0; }
details.more > summary { cursor: pointer; color: #0b5cad; font-weight: 600; padding: 4px 0; }
details.evidence > summary { cursor: pointer; color: #0b5cad; font-size: 13px; }
.recs { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 10px 18px; }
.rec p { margin: 2px 0; }
.glance { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 0 14px; }
@media (max-width: 900px) { .glance { grid-template-columns: minmax(0, 1fr); } }
dl.machine { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 0; font-size: 14px; }
dl.machine dt { font-weight: 600; color: #3b4452; }
dl.machine dd { margin: 0; overflow-wrap: anywhere; }
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
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"cryptobench\">\n\
         <title>cryptobench report {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        escape(&run.id)
    );

    let suite_names = suites_in(run, suites);
    let ratios = charts::peer_ratios(&run.measurements);
    let matched = ratios.iter().filter(|r| r.ratio.is_some()).count();
    // The sticky navigation: every section, in page order.
    let mut nav: Vec<(String, String)> = vec![("summary".into(), "Summary".into())];
    let contents = extras.contents();
    for (anchor, text) in contents.iter().filter(|(a, _)| *a == "recommendations") {
        nav.push((anchor.to_string(), text.clone()));
    }
    if baseline.is_some() {
        nav.push(("comparison".into(), "Comparison with the baseline".into()));
    }
    for (anchor, text) in contents.iter().filter(|(a, _)| *a == "machines") {
        nav.push((anchor.to_string(), text.clone()));
    }
    for s in &suite_names {
        nav.push((format!("suite-{s}"), format!("Suite {s}")));
    }
    if matched > 0 {
        nav.push(("peer-ratios".into(), "Peer ratios".into()));
    }
    for (anchor, text) in contents
        .iter()
        .filter(|(a, _)| !["recommendations", "machines"].contains(a))
    {
        nav.push((anchor.to_string(), text.clone()));
    }
    page.push_str("<nav class=\"top\" aria-label=\"Contents\"><ul>\n");
    for (anchor, text) in &nav {
        let _ = writeln!(
            page,
            "<li><a href=\"#{}\">{}</a></li>",
            escape(anchor),
            escape(text)
        );
    }
    page.push_str("</ul></nav>\n<main>\n");

    let _ = write!(
        page,
        "<section id=\"summary\">\n<h1>cryptobench report</h1>\n<p class=\"sub\">run <strong>{}</strong> · status <strong>{}</strong> · started {}{}{}</p>\n",
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
    page.push_str("<div class=\"glance\">\n");
    page.push_str(&machine(run));
    page.push_str(&suites_at_a_glance(run, &suite_names));
    page.push_str("</div>\n</section>\n");
    page.push_str(&html_extra::recommendations_section(
        &extras.recommendations,
    ));
    if let Some(b) = baseline {
        page.push_str(&html_extra::comparison_section(b, run));
    }
    page.push_str(&html_extra::machines_section(
        &extras.machines,
        extras.machines_baseline,
    ));
    for s in &suite_names {
        let own = suites.iter().find(|x| x.name() == s.as_str());
        page.push_str(&suite_section(s, own.map(|b| b.as_ref()), run));
    }
    page.push_str(&crate::overhead::overhead_section(&run.measurements));
    page.push_str(&html_extra::peer_section(&ratios));
    page.push_str(&html_extra::papers_section(&extras.papers));
    page.push_str(&html_extra::fleet_section(&extras.fleet));
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
    if measured > 0 {
        // How sure the figures are sits beside the checks: a green banner
        // alone reads as "precise", which a quick run on a noisy host is not.
        let certainty = crate::answer::Certainty::of(run);
        let _ = writeln!(
            out,
            "<div class=\"banner {}\" id=\"certainty\">{}</div>",
            if certainty.noisy() || certainty.precise_share() < 0.5 {
                "warn"
            } else {
                "ok"
            },
            escape(&certainty.line())
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

pub(crate) fn size_suffix(bytes: u64) -> String {
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

/// The machine in a few lines; flags and backend versions one click away.
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
            "OS",
            format!("{}; kernel {}", or_na(&f.os), or_na(&f.kernel)),
        ),
        (
            "cryptobench",
            format!("{} ({})", or_na(&f.tool_version), or_na(&f.git_revision)),
        ),
    ];
    let mut more: Vec<(&str, String)> = vec![
        (
            "TSC",
            f.tsc_hz
                .map(|h| format!("{:.3} GHz", h / 1e9))
                .unwrap_or_else(|| "n/a".into()),
        ),
        (
            "governor",
            f.governor.clone().unwrap_or_else(|| "n/a".into()),
        ),
        (
            "address layout",
            f.address_layout.clone().unwrap_or_else(|| "n/a".into()),
        ),
        (
            "one-core cases on",
            f.measuring_cpu.clone().unwrap_or_else(|| "n/a".into()),
        ),
        (
            "memory",
            if f.memory_bytes > 0 {
                format!("{:.1} GiB", f.memory_bytes as f64 / (1u64 << 30) as f64)
            } else {
                "n/a".into()
            },
        ),
    ];
    for b in &f.backends {
        more.push((
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
    let dl = |rows: &mut Vec<(&str, String)>| {
        let mut out = String::from("<dl class=\"machine\">\n");
        for (k, v) in rows.drain(..) {
            let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(&v));
        }
        out.push_str("</dl>\n");
        out
    };
    format!(
        "<div id=\"machine\" class=\"card\"><h3>Machine</h3>{}<details class=\"more\">\
         <summary>Clock, memory and {} backend version(s)</summary>{}</details></div>\n",
        dl(&mut rows),
        f.backends.len(),
        dl(&mut more)
    )
}

/// One line per suite: how many cases were measured, failed or left out,
/// linking to its section.
fn suites_at_a_glance(run: &Run, names: &[String]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<div class=\"card\" id=\"suites-at-a-glance\"><h3>Suites</h3><table><thead><tr><th>suite</th>\
         <th class=\"num\">measured</th><th class=\"num\">failed</th><th class=\"num\">not run here</th></tr></thead><tbody>\n",
    );
    for name in names {
        let count = |st: &[CaseStatus]| {
            run.measurements
                .iter()
                .filter(|m| &m.suite == name && st.contains(&m.status))
                .count()
        };
        let failed = count(&[CaseStatus::Failed]);
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#suite-{0}\">{0}</a></td><td class=\"num\">{1}</td><td class=\"num{2}\">{3}</td>\
             <td class=\"num\">{4}</td></tr>",
            escape(name),
            count(&[CaseStatus::Measured]),
            if failed > 0 { " failed" } else { "" },
            failed,
            count(&[CaseStatus::Skipped, CaseStatus::Unavailable]),
        );
    }
    out.push_str("</tbody></table></div>\n");
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

/// A [`Table`] as HTML; cells that start with `FAILED` are red. A table
/// without rows is not drawn at all (an empty grid says nothing).
pub fn table_html(t: &Table) -> String {
    if t.rows.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    if !t.title.is_empty() {
        let _ = writeln!(out, "<h3>{}</h3>", escape(&t.title));
    }
    out.push_str("<div class=\"table-wrap\"><table><thead><tr>");
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
            // Long numeric cells (a figure with its interval, lists) may
            // wrap at their spaces; short ones never. A table of many such
            // columns (the TLS handshakes) fits its card only so.
            if num(i) && c.chars().count() <= 14 {
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
    out.push_str("</tbody></table></div>\n");
    for n in &t.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(n));
    }
    out
}

/// Content behind a collapsed `<details>`: on the page, out of the way.
pub(crate) fn collapsed(summary: &str, body: &str) -> String {
    if body.trim().is_empty() {
        return String::new();
    }
    format!(
        "<details class=\"more\"><summary>{}</summary>\n{body}</details>\n",
        escape(summary)
    )
}

/// Runs a suite's own drawing code; a panic there costs its section a
/// note, never the report.
fn guarded<T>(f: impl FnOnce() -> Vec<T>) -> Result<Vec<T>, ()> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| ())
}

/// One suite: its own charts in view; its tables and the generic ranking
/// of every case collapsed under them. A suite without charts of its own
/// shows the rankings instead.
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
    let mut own_charts = 0;
    if let Some(s) = suite {
        let _ = writeln!(out, "<p class=\"sub\">{}</p>", escape(s.about()));
        let owned: Vec<Measurement> = mine.iter().map(|m| (*m).clone()).collect();
        match guarded(|| s.charts(&owned)) {
            Ok(mut cs) => {
                own_charts = cs.len();
                let shared = take_shared_notes(&mut cs);
                // The suite's first charts in view, up to a height budget;
                // the others one click away.
                let (mut shown, mut used) = (String::new(), 0.0);
                let mut more = String::new();
                for c in &cs {
                    let box_html = format!("<div class=\"card\">{}</div>", chart_html(c));
                    let h = height_of(&box_html);
                    if shown.is_empty() || used + h <= SUITE_CHARTS_IN_VIEW_PX {
                        used += h;
                        shown.push_str(&box_html);
                    } else {
                        more.push_str(&box_html);
                    }
                }
                out.push_str(&shown);
                for n in &shared {
                    let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(n));
                }
                let hidden = cs.len() - shown.matches("<svg").count();
                out.push_str(&collapsed(&format!("{hidden} more chart(s)"), &more));
            }
            Err(()) => out.push_str(
                "<p class=\"note failed\">This suite's own charts could not be drawn from these measurements.</p>\n",
            ),
        }
        match guarded(|| s.summarize(&owned)) {
            Ok(ts) => {
                let body: String = ts.iter().map(table_html).collect();
                let drawn = ts.iter().filter(|t| !t.rows.is_empty()).count();
                if drawn > 0 {
                    out.push_str(&collapsed(
                        &format!("Summary tables of this suite ({drawn})"),
                        &format!("<div class=\"card\">{body}</div>\n"),
                    ));
                }
            }
            Err(()) => out.push_str(
                "<p class=\"note failed\">This suite's own tables could not be drawn from these measurements.</p>\n",
            ),
        }
    }
    let groups = charts::throughput_groups(name, &mine);
    if own_charts == 0 {
        // No charts of its own: the rankings stand in, within the same budget.
        let (mut used, mut more) = (0.0, String::new());
        for g in &groups {
            let html = group_html(g, true);
            let h = height_of(&html);
            if used == 0.0 || used + h <= SUITE_CHARTS_IN_VIEW_PX {
                used += h.max(1.0);
                out.push_str(&html);
            } else {
                more.push_str(&html);
            }
        }
        out.push_str(&collapsed("More rankings of this suite", &more));
    } else {
        let body: String = groups.iter().map(|g| group_html(g, false)).collect();
        out.push_str(&collapsed(
            &format!(
                "Every case ranked by throughput, per operation and size ({} case(s))",
                mine.len()
            ),
            &body,
        ));
    }
    out.push_str("</section>\n");
    out
}

/// Removes the notes that more than one of a suite's charts carry and
/// returns them in first-seen order: said once under the charts, not once
/// per chart (a suite's charts often share their method and label notes).
fn take_shared_notes(charts: &mut [Chart]) -> Vec<String> {
    let mut shared: Vec<String> = Vec::new();
    for (i, c) in charts.iter().enumerate() {
        for n in &c.notes {
            let elsewhere = charts[i + 1..].iter().any(|o| o.notes.contains(n));
            if elsewhere && !shared.contains(n) {
                shared.push(n.clone());
            }
        }
    }
    for c in charts.iter_mut() {
        c.notes.retain(|n| !shared.contains(n));
    }
    shared
}

/// One ranking chart (or why there is none) and the table of its cases,
/// the table collapsed when the chart is in view.
fn group_html(g: &Group<'_>, table_collapsed: bool) -> String {
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
    let table = cases_table(&g.measurements);
    if table_collapsed && g.chart.is_some() {
        out.push_str(&collapsed(
            &format!("The {} case(s) of this chart", g.measurements.len()),
            &table,
        ));
    } else {
        out.push_str(&table);
    }
    out.push_str("</div>\n");
    out
}

/// The cases under a chart: figures, status (FAILED in red with the
/// reason, skipped and unavailable with theirs) and labels. Times share
/// one unit per table, named in the header.
pub fn cases_table(ms: &[&Measurement]) -> String {
    let unit = TimeUnit::for_column(
        ms.iter()
            .filter(|m| m.status == CaseStatus::Measured)
            .filter_map(|m| m.stats.as_ref().map(|s| s.median)),
    );
    let mut out = format!(
        "<div class=\"table-wrap\"><table class=\"cases\"><thead><tr><th>primitive</th><th>backend</th><th>params</th>\
         <th class=\"num\">threads</th><th class=\"num\">median ({u})</th><th class=\"num\">95% CI ({u})</th>\
         <th class=\"num\">throughput</th><th class=\"num\">cyc/B</th><th>status</th><th>labels</th></tr></thead><tbody>\n",
        u = unit.symbol()
    );
    for m in ms {
        let (median, ci, cpb) = match &m.stats {
            Some(s) if m.status == CaseStatus::Measured => (
                unit.format_bare(s.median),
                format!(
                    "{} .. {}",
                    unit.format_bare(s.ci95[0]),
                    unit.format_bare(s.ci95[1])
                ),
                tables::cycles_per_byte(m),
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
    out.push_str("</tbody></table></div>\n");
    out
}

#[cfg(test)]
#[path = "html_tests.rs"]
mod tests;
