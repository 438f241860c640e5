//! `--format table|json|csv|md` for every command that prints tables.
//!
//! Commands build [`Table`]s once; this module is the one place that turns
//! them into the chosen format, so `runs`, `list`, `compare` and
//! `recommend` agree on what `--format csv` means. A run itself (`show`,
//! exports) is written by the store's exporters instead, with the Markdown
//! export completed here by the run's summary and recommendations.

use crate::args::Global;
use crate::output::{console_format, usage};
use anyhow::Result;
use cryptobench_core::{Measurement, Run, Suite, Table};
use cryptobench_report::{recommend, text};
use std::io::Write;

/// Prints `tables` in the console format. CSV holds one table, so a
/// command that would print several asks the user to choose (`hint`).
pub fn print_tables(g: &Global, tables: &[Table], hint: &str) -> Result<()> {
    let format = console_format(g)?;
    let mut out = std::io::stdout().lock();
    match format {
        "json" => {
            let values: Vec<serde_json::Value> = tables.iter().map(table_json).collect();
            let value = match values.as_slice() {
                [one] => one.clone(),
                _ => serde_json::Value::Array(values),
            };
            writeln!(out, "{value:#}")?;
        }
        "csv" => match tables {
            [one] => out.write_all(table_csv(one).as_bytes())?,
            _ => {
                return Err(usage(format!(
                    "--format csv writes one table and this command prints {}; {hint}",
                    tables.len()
                )))
            }
        },
        "md" => {
            for t in tables {
                writeln!(out, "{}", text::render_markdown(t))?;
            }
        }
        _ => {
            for t in tables {
                writeln!(out, "{}", text::render(t, false))?;
            }
        }
    }
    Ok(())
}

/// A table as JSON: title, columns, one object per row keyed by column,
/// and the notes.
pub fn table_json(t: &Table) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = t
        .rows
        .iter()
        .map(|row| {
            let fields = t
                .headers
                .iter()
                .zip(row)
                .map(|(h, c)| (h.clone(), serde_json::Value::String(c.clone())))
                .collect::<serde_json::Map<_, _>>();
            serde_json::Value::Object(fields)
        })
        .collect();
    serde_json::json!({
        "title": t.title,
        "columns": t.headers,
        "rows": rows,
        "notes": t.notes,
    })
}

/// A table as RFC 4180 CSV: the header, then the rows (notes are left out:
/// CSV has no place for prose).
pub fn table_csv(t: &Table) -> String {
    let mut out = String::new();
    for row in std::iter::once(&t.headers).chain(&t.rows) {
        let cells: Vec<String> = row.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A run's export bytes; Markdown also carries the run's summary (each
/// suite's headlines) and the recommendations, after the run's header.
pub fn export_bytes(format: &str, run: &Run, suites: &[Box<dyn Suite>]) -> Result<Vec<u8>> {
    let bytes = cryptobench_store::exporter(format)?.serialize(run)?;
    if cryptobench_store::exporter(format)?.format() != "md" {
        return Ok(bytes);
    }
    let md = String::from_utf8_lossy(&bytes).into_owned();
    let at = md.find("\n## ").map_or(md.len(), |i| i + 1);
    let mut extra = String::new();
    let headlines = headlines(run, suites);
    if !headlines.is_empty() {
        extra.push_str("\n## Summary\n\n");
        for h in headlines {
            extra.push_str(&format!("- {}\n", h.replace('\n', " ")));
        }
    }
    let recs = recommend::recommend(run, &recommend::DEFAULT_ARGON2_TARGETS_NS);
    if !recs.is_empty() {
        // A list, not a table: an advice's evidence spans several lines.
        extra.push_str("\n## Recommendations\n\n");
        for r in &recs {
            extra.push_str(&format!(
                "- **{}**: {}\n",
                r.topic,
                r.advice.replace('\n', " ")
            ));
            for e in &r.evidence {
                extra.push_str(&format!("  - {}\n", e.replace('\n', " ")));
            }
        }
    }
    let mut out = md[..at].to_string();
    out.push_str(&extra);
    if at < md.len() {
        out.push('\n');
        out.push_str(&md[at..]);
    }
    Ok(out.into_bytes())
}

/// Every suite's headline lines for the run, in the suites' order, then
/// the curve advice: it weighs two suites' cases (ecc key generation,
/// pubkey agreement and signatures), so it is made once over the run.
pub fn headlines(run: &Run, suites: &[Box<dyn Suite>]) -> Vec<String> {
    let mut lines: Vec<String> = suites
        .iter()
        .flat_map(|s| {
            let mine = suite_cases(run, s.as_ref());
            if mine.is_empty() {
                Vec::new()
            } else {
                s.headline(&mine)
            }
        })
        .collect();
    let moment_floor = cryptobench_report::compare::moment_floor(run);
    let curves = cryptobench_core::advice::curves(&run.measurements, moment_floor);
    lines.extend(curves.iter().map(|a| a.line()));
    lines
}

/// The run's cases of one suite, in the run's order.
pub fn suite_cases(run: &Run, suite: &dyn Suite) -> Vec<Measurement> {
    run.measurements
        .iter()
        .filter(|m| m.suite == suite.name())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_json_keep_every_cell() {
        let mut t = Table::new("T", ["name", "value"]);
        t.row(["a, b", "1"]);
        t.row(["say \"hi\"", "2"]);
        t.note("a note");
        assert_eq!(
            table_csv(&t),
            "name,value\n\"a, b\",1\n\"say \"\"hi\"\"\",2\n"
        );
        let v = table_json(&t);
        assert_eq!(v["rows"][1]["name"], "say \"hi\"");
        assert_eq!(v["columns"][1], "value");
        assert_eq!(v["notes"][0], "a note");
    }
}
