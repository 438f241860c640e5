//! Exporters: a run as JSON (canonical), CSV or Markdown.
//!
//! An [`Exporter`] only turns a [`Run`] into bytes, so each format is
//! testable as a snapshot and the binary can print the same bytes to the
//! console (`--format`) or a file (`-o FORMAT:PATH`). [`write_target`] is the
//! one function that writes an export, through [`crate::output`].
//!
//! - JSON is the canonical [`Run`] pretty-printed; it parses back into an
//!   equal `Run` (see docs/results-format.md for the fields).
//! - CSV has one row per measurement, the columns of [`CSV_COLUMNS`] (the
//!   run id and host first, so files of several machines concatenate), RFC 4180
//!   quoting (a field with a comma, quote or line break is quoted, quotes
//!   doubled) and `\n` line ends. Lists inside a cell are `;`-joined; absent
//!   numbers are empty cells.
//! - Markdown is for people: the run and machine, then one table per suite.

use crate::output::{Access, Outputs};
use crate::StoreError;
use cryptobench_core::units::{format_ns, format_ops, format_rate, format_size};
use cryptobench_core::{names, CaseStatus, CheckOutcome, Error, Measurement, Run};
use std::io::Write;
use std::path::PathBuf;

/// Turns a run into the bytes of one format; never does I/O.
pub trait Exporter {
    /// The canonical format name (`json`, `csv`, `md`).
    fn format(&self) -> &'static str;
    /// The whole export.
    fn serialize(&self, run: &Run) -> Result<Vec<u8>, StoreError>;
}

/// The canonical format names, in the order help texts list them.
pub const FORMATS: [&str; 3] = ["json", "csv", "md"];

/// Names accepted on the command line (`markdown` is an alias of `md`).
const FORMAT_NAMES: [&str; 4] = ["json", "csv", "md", "markdown"];

/// The exporter for a format name (case-insensitive; `markdown` = `md`).
pub fn exporter(format: &str) -> Result<Box<dyn Exporter>, Error> {
    Ok(match canonical_format(format)? {
        "json" => Box::new(JsonExporter),
        "csv" => Box::new(CsvExporter),
        _ => Box::new(MarkdownExporter),
    })
}

fn canonical_format(name: &str) -> Result<&'static str, Error> {
    match names::resolve("export format", name, &FORMAT_NAMES)? {
        "markdown" => Ok("md"),
        other => Ok(other),
    }
}

/// Where one `-o FORMAT:PATH` goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputTarget {
    /// Canonical format name (one of [`FORMATS`]).
    pub format: String,
    /// The file; `None` is stdout (`-`).
    pub path: Option<PathBuf>,
}

/// Parses `FORMAT:PATH` (`json:run.json`, `csv:-`, `md:out.md`).
pub fn parse_target(spec: &str) -> Result<OutputTarget, Error> {
    let form = "expected FORMAT:PATH, e.g. json:run.json, csv:results.csv or md:- \
                (FORMAT is json, csv or md; PATH - is stdout)";
    let Some((format, path)) = spec.split_once(':') else {
        let hint = match canonical_format(spec) {
            Ok(f) => format!("; did you mean {f}:-?"),
            Err(_) => String::new(),
        };
        return Err(Error::usage(format!("output '{spec}': {form}{hint}")));
    };
    let format = canonical_format(format.trim())
        .map_err(|e| Error::usage(format!("output '{spec}': {e}")))?;
    let path = match path {
        "" => {
            return Err(Error::usage(format!(
                "output '{spec}' has no PATH after the colon: {form}"
            )))
        }
        "-" => None,
        p => Some(PathBuf::from(p)),
    };
    Ok(OutputTarget {
        format: format.to_string(),
        path,
    })
}

/// Serialises `run` and writes it to the target's file (under the rules of
/// `outputs`) or to stdout.
pub fn write_target(target: &OutputTarget, run: &Run, outputs: &Outputs) -> Result<(), StoreError> {
    let bytes = exporter(&target.format)
        .map_err(|_| StoreError::UnknownFormat {
            format: target.format.clone(),
        })?
        .serialize(run)?;
    write_bytes(target, &bytes, outputs)
}

/// Writes an export's bytes (made here or completed by the caller) to the
/// target's file under the rules of `outputs`, or to stdout.
pub fn write_bytes(
    target: &OutputTarget,
    bytes: &[u8],
    outputs: &Outputs,
) -> Result<(), StoreError> {
    match &target.path {
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                // `cryptobench export latest | head` is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(source) => Err(StoreError::Stdout {
                    format: target.format.clone(),
                    source,
                }),
                Ok(()) => Ok(()),
            }
        }
        Some(path) => Ok(outputs.write(path, bytes, Access::Public)?),
    }
}

/// The canonical [`Run`] as pretty JSON (ends with a newline).
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn format(&self) -> &'static str {
        "json"
    }
    fn serialize(&self, run: &Run) -> Result<Vec<u8>, StoreError> {
        let mut out = serde_json::to_vec_pretty(run).map_err(|source| StoreError::Encode {
            what: format!("run {}", run.id),
            source,
        })?;
        out.push(b'\n');
        Ok(out)
    }
}

/// The CSV header, one column per field of a measurement row.
pub const CSV_COLUMNS: [&str; 28] = [
    "run_id",
    "host",
    "suite",
    "primitive",
    "backend",
    "backend_version",
    "operation",
    "input_bytes",
    "threads",
    "params",
    "status",
    "reason",
    "median_ns",
    "ci95_lo_ns",
    "ci95_hi_ns",
    "p25_ns",
    "p75_ns",
    "min_ns",
    "mean_ns",
    "stddev_ns",
    "mad_ns",
    "ops_per_s",
    "bytes_per_s",
    "cycles_per_byte",
    "samples",
    "checks",
    "labels",
    "warnings",
];

/// One row per measurement, [`CSV_COLUMNS`] in order.
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn format(&self) -> &'static str {
        "csv"
    }
    fn serialize(&self, run: &Run) -> Result<Vec<u8>, StoreError> {
        let mut out = String::new();
        push_csv_row(&mut out, CSV_COLUMNS.iter().map(|c| c.to_string()));
        for m in &run.measurements {
            push_csv_row(&mut out, csv_fields(run, m).into_iter());
        }
        Ok(out.into_bytes())
    }
}

fn csv_fields(run: &Run, m: &Measurement) -> Vec<String> {
    let stats = m.stats.as_ref();
    let num =
        |f: fn(&cryptobench_core::Summary) -> f64| stats.map(f).map(number).unwrap_or_default();
    let opt = |f: fn(&cryptobench_core::Summary) -> Option<f64>| {
        stats.and_then(f).map(number).unwrap_or_default()
    };
    vec![
        run.id.clone(),
        run.machine.hostname.clone(),
        m.suite.clone(),
        m.primitive.clone(),
        m.backend.clone(),
        m.backend_version.clone(),
        m.operation.clone(),
        m.input_bytes.to_string(),
        m.threads.to_string(),
        m.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";"),
        status_name(m.status).to_string(),
        m.reason.clone().unwrap_or_default(),
        num(|s| s.median),
        num(|s| s.ci95[0]),
        num(|s| s.ci95[1]),
        num(|s| s.p25),
        num(|s| s.p75),
        num(|s| s.min),
        num(|s| s.mean),
        num(|s| s.stddev),
        num(|s| s.mad),
        num(|s| s.ops_per_s),
        opt(|s| s.bytes_per_s),
        opt(|s| s.cycles_per_byte),
        m.samples_ns.len().to_string(),
        m.checks
            .iter()
            .map(|c| format!("{}:{}", c.name, outcome_name(c.outcome)))
            .collect::<Vec<_>>()
            .join(";"),
        m.labels.join(";"),
        m.warnings.join(";"),
    ]
}

/// Shortest text that reads back as the same number; empty when not finite.
fn number(v: f64) -> String {
    if v.is_finite() {
        v.to_string()
    } else {
        String::new()
    }
}

fn push_csv_row(out: &mut String, fields: impl Iterator<Item = String>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&field);
        }
    }
    out.push('\n');
}

/// The lower-case name the JSON uses for a case status.
fn status_name(s: CaseStatus) -> &'static str {
    match s {
        CaseStatus::Measured => "measured",
        CaseStatus::Failed => "failed",
        CaseStatus::Skipped => "skipped",
        CaseStatus::Unavailable => "unavailable",
    }
}

fn outcome_name(o: CheckOutcome) -> &'static str {
    match o {
        CheckOutcome::Pass => "pass",
        CheckOutcome::Fail => "fail",
        CheckOutcome::Skipped => "skipped",
    }
}

/// A report for people: run, machine, one table per suite.
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn format(&self) -> &'static str {
        "md"
    }
    fn serialize(&self, run: &Run) -> Result<Vec<u8>, StoreError> {
        let mut out = String::new();
        markdown_header(&mut out, run);
        let mut suites: Vec<&str> = Vec::new();
        for m in &run.measurements {
            if !suites.contains(&m.suite.as_str()) {
                suites.push(&m.suite);
            }
        }
        if suites.is_empty() {
            out.push_str("\nNo measurements were stored for this run.\n");
        }
        for suite in suites {
            let rows: Vec<&Measurement> = run
                .measurements
                .iter()
                .filter(|m| m.suite == suite)
                .collect();
            markdown_suite(&mut out, suite, &rows);
        }
        Ok(out.into_bytes())
    }
}

fn markdown_header(out: &mut String, run: &Run) {
    let m = &run.machine;
    out.push_str(&format!("# cryptobench run {}\n\n", cell(&run.id)));
    out.push_str(&format!("- Status: {}\n", run.status.as_str()));
    out.push_str(&format!("- Started: {}\n", run.started_at));
    out.push_str(&format!(
        "- Finished: {}\n",
        run.finished_at.as_deref().unwrap_or("not finished")
    ));
    out.push_str(&format!(
        "- Command: `{}`\n",
        crate::shell_join(&run.command)
    ));
    if let Some(fleet) = &run.fleet {
        out.push_str(&format!("- Fleet: {fleet}\n"));
    }
    out.push_str(&format!(
        "- Machine: {} ({}), {} logical cores, {:.1} GiB memory\n",
        m.cpu_model,
        m.hostname,
        m.cores,
        m.memory_bytes as f64 / (1u64 << 30) as f64
    ));
    let mut flags = if m.cpu_flags.is_empty() {
        "none".to_string()
    } else {
        m.cpu_flags.join(", ")
    };
    if !m.cpu_flags_missing.is_empty() {
        flags.push_str(&format!(" (absent: {})", m.cpu_flags_missing.join(", ")));
    }
    out.push_str(&format!("- CPU flags: {flags}\n"));
    let tsc = match m.tsc_hz {
        Some(hz) => format!("{:.2} GHz", hz / 1e9),
        None => "n/a".into(),
    };
    out.push_str(&format!(
        "- Kernel: {} ({}), governor {}, TSC {tsc}, address layout {}, one-core cases on {}\n",
        m.kernel,
        m.os,
        m.governor.as_deref().unwrap_or("unknown"),
        m.address_layout.as_deref().unwrap_or("unknown"),
        m.measuring_cpu.as_deref().unwrap_or("unknown")
    ));
    out.push_str("- Backends:");
    if m.backends.is_empty() {
        out.push_str(" none recorded");
    }
    out.push('\n');
    for b in &m.backends {
        match &b.unavailable {
            None => out.push_str(&format!("  - {}: {}\n", b.name, b.version)),
            Some(why) => out.push_str(&format!("  - {}: unavailable ({why})\n", b.name)),
        }
    }
    out.push_str(&format!(
        "- cryptobench {} (git {})\n",
        m.tool_version, m.git_revision
    ));
}

fn markdown_suite(out: &mut String, suite: &str, rows: &[&Measurement]) {
    let with_params = rows.iter().any(|m| !m.params.is_empty() || m.threads != 1);
    out.push_str(&format!("\n## {}\n\n", cell(suite)));
    out.push_str("| Primitive | Backend | Operation |");
    if with_params {
        out.push_str(" Parameters |");
    }
    out.push_str(" Size | Median | 95% CI | Throughput | Status |\n|---|---|---|");
    if with_params {
        out.push_str("---|");
    }
    out.push_str("--:|--:|--:|--:|---|\n");
    for m in rows {
        let mut line = format!(
            "| {} | {} | {} |",
            cell(&m.primitive),
            cell(&m.backend),
            cell(&m.operation)
        );
        if with_params {
            let mut params: Vec<String> =
                m.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            if m.threads != 1 {
                params.push(format!("threads={}", m.threads));
            }
            let params = if params.is_empty() {
                "-".to_string()
            } else {
                params.join(", ")
            };
            line.push_str(&format!(" {} |", cell(&params)));
        }
        let size = if m.input_bytes == 0 {
            "-".to_string()
        } else {
            format_size(m.input_bytes)
        };
        let (median, ci, throughput) = match &m.stats {
            Some(s) => (
                format_ns(s.median),
                format!("{} .. {}", format_ns(s.ci95[0]), format_ns(s.ci95[1])),
                match s.bytes_per_s {
                    Some(b) => format_rate(b),
                    None => format_ops(s.ops_per_s),
                },
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        let mut status = m.status.as_str().to_string();
        if let Some(reason) = &m.reason {
            status.push_str(&format!(": {reason}"));
        }
        for label in &m.labels {
            status.push_str(&format!("; {label}"));
        }
        line.push_str(&format!(
            " {size} | {median} | {ci} | {throughput} | {} |\n",
            cell(&status)
        ));
        out.push_str(&line);
    }
    let warned: Vec<&&Measurement> = rows.iter().filter(|m| !m.warnings.is_empty()).collect();
    if !warned.is_empty() {
        out.push_str("\nWarnings:\n\n");
        for m in warned {
            out.push_str(&format!(
                "- {} / {} / {} / {}: {}\n",
                m.primitive,
                m.backend,
                m.operation,
                format_size(m.input_bytes),
                m.warnings.join("; ")
            ));
        }
    }
}

/// Keeps a value inside one table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}
