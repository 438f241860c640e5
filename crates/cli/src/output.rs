//! Printing a run on the console in the chosen `--format`, and what a
//! closed stdout means: every print here returns its error (`outln!`), and
//! `main` ends quietly when that error is a broken pipe, so
//! `cryptobench runs | head -1` prints no message and no backtrace.

use crate::args::Global;
use crate::formats;
use anyhow::Result;
use cryptobench_core::{CaseStatus, Error, Run, Suite};
use cryptobench_report::{tables, text};
use std::io::{IsTerminal, Write};

/// `println!` that returns the write error instead of panicking on it.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// Whether an error is stdout's reader having gone away.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let broken = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
    e.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(broken)
            || matches!(cause.downcast_ref::<Error>(), Some(Error::Io { reason, .. }) if broken(reason))
    })
}

/// The suites' own commands (`argon2 hash`, `aead verify`, ...) print with
/// `println!`, which panics when stdout is a closed pipe; that panic ends
/// the process quietly with exit 0 instead of a message and a backtrace.
/// Any other panic is reported as before.
pub fn quiet_on_closed_stdout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info.payload_as_str().unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(0);
        }
        previous(info);
    }));
}

/// Console formats.
pub const FORMATS: [&str; 4] = ["table", "json", "csv", "md"];

/// Validates `--format`.
pub fn console_format(g: &Global) -> Result<&'static str> {
    Ok(cryptobench_core::names::resolve(
        "format", &g.format, &FORMATS,
    )?)
}

/// How much of a run to print as tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Every case and every suite table, then the headlines.
    Full,
    /// The one-screen summary of `run`: header, headlines, failures.
    Summary,
    /// `show` without `--all`: the answer, then one digest line per suite.
    Digest,
}

fn print_headlines(out: &mut impl Write, run: &Run, suites: &[Box<dyn Suite>]) -> Result<()> {
    use cryptobench_report::recommend::{recommend, DEFAULT_ARGON2_TARGETS_NS};
    let recs = recommend(run, &DEFAULT_ARGON2_TARGETS_NS);
    if !recs.is_empty() {
        writeln!(out, "Answer (`cryptobench recommend --explain` says why)")?;
        for r in &recs {
            let line = cryptobench_report::recommend_record::summary_line(&r.record);
            write!(out, "{}", text::paragraph(&line, "  ", "      "))?;
        }
        writeln!(out)?;
    }
    // A headline that states the same advice as an answer line is left
    // out: one claim, one line.
    let answered: Vec<String> = recs.iter().map(|r| format!("{}:", r.topic)).collect();
    let headlines: Vec<String> = formats::headlines(run, suites)
        .into_iter()
        .filter(|h| !answered.iter().any(|a| h.starts_with(a.as_str())))
        .collect();
    if !headlines.is_empty() {
        writeln!(out, "Summary")?;
        for h in headlines {
            write!(out, "{}", text::paragraph(&h, "  ", "    "))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// One line per suite: its cases, how many were measured, failed, and
/// precise; the tables themselves are behind `show --all` or `--suite`.
fn print_digest(out: &mut impl Write, run: &Run) -> Result<()> {
    let reached = cryptobench_report::precision::precision_reached(
        &run.measurements,
        cryptobench_report::answer::PRECISE,
    );
    writeln!(out, "Suites")?;
    for s in &reached.by_suite {
        let of = |st: CaseStatus| {
            run.measurements
                .iter()
                .filter(|m| m.suite == s.suite && m.status == st)
                .count()
        };
        let line = format!(
            "{}: {} measured, {} failed, {} skipped or unavailable; {} of {} within +-1%",
            s.suite,
            of(CaseStatus::Measured),
            of(CaseStatus::Failed),
            of(CaseStatus::Skipped) + of(CaseStatus::Unavailable),
            s.within,
            s.measured
        );
        write!(out, "{}", text::paragraph(&line, "  ", "    "))?;
    }
    writeln!(
        out,
        "(`show RUN --all` prints every case; `--suite NAME` one suite's tables)\n"
    )?;
    Ok(())
}

/// Prints a run: tables (with each suite's own summaries) or an export.
pub fn print_run(g: &Global, run: &Run, suites: &[Box<dyn Suite>]) -> Result<()> {
    print_run_with(g, run, suites, Detail::Full)
}

/// Prints a run at the given level of detail.
pub fn print_run_with(
    g: &Global,
    run: &Run,
    suites: &[Box<dyn Suite>],
    detail: Detail,
) -> Result<()> {
    if g.quiet {
        return Ok(());
    }
    let format = console_format(g)?;
    let mut out = std::io::stdout().lock();
    if format != "table" {
        let bytes = crate::formats::export_bytes(format, run, suites)?;
        out.write_all(&bytes)?;
        return Ok(());
    }
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    // How sure the run is comes before what it found.
    let certainty = cryptobench_report::answer::Certainty::of(run).line();
    write!(out, "{}", text::paragraph(&certainty, "", "    "))?;
    writeln!(out, "{}", tables::run_header(run))?;
    print_headlines(&mut out, run, suites)?;
    if detail == Detail::Digest {
        print_digest(&mut out, run)?;
    }
    if detail == Detail::Full {
        for t in tables::suite_tables(&run.measurements) {
            writeln!(out, "{}", text::render(&t, color))?;
        }
        for t in cryptobench_report::overhead::overhead_tables(&run.measurements) {
            writeln!(out, "{}", text::render(&t, color))?;
        }
        for s in suites {
            let mine = formats::suite_cases(run, s.as_ref());
            if mine.is_empty() {
                continue;
            }
            for t in s.summarize(&mine) {
                writeln!(out, "{}", text::render(&t, color))?;
            }
        }
    }
    if g.verbose {
        for m in &run.measurements {
            for c in &m.checks {
                writeln!(
                    out,
                    "  check {} {} {}: {:?} {} {}",
                    m.primitive, m.backend, m.input_bytes, c.outcome, c.name, c.detail
                )?;
            }
            for w in &m.warnings {
                writeln!(
                    out,
                    "  warning {} {} {}: {w}",
                    m.primitive, m.backend, m.input_bytes
                )?;
            }
        }
    }
    let failed: Vec<_> = run
        .measurements
        .iter()
        .filter(|m| m.status == CaseStatus::Failed)
        .collect();
    if !failed.is_empty() {
        writeln!(
            out,
            "{}",
            text::red(
                &format!(
                    "{} case(s) FAILED their checks and were not timed:",
                    failed.len()
                ),
                color
            )
        )?;
        for m in failed {
            writeln!(
                out,
                "{}",
                text::red(
                    &format!(
                        "  FAILED {} {} {} {}: {}",
                        m.suite,
                        m.primitive,
                        m.backend,
                        m.operation,
                        m.reason.as_deref().unwrap_or("")
                    ),
                    color
                )
            )?;
        }
    }
    Ok(())
}

/// Shorthand for a usage error.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    Error::usage(msg).into()
}
