//! Plain-text and Markdown rendering of tables.

use cryptobench_core::{Align, Table};

/// Red text for FAILED cells when colour is on.
pub fn red(s: &str, color: bool) -> String {
    if color {
        format!("\x1b[31;1m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Renders a table with aligned columns; cells starting with `FAILED` are
/// shown in red when `color` is set.
pub fn render(table: &Table, color: bool) -> String {
    let cols = table.headers.len();
    let mut widths: Vec<usize> = table.headers.iter().map(|h| width(h)).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            widths[i] = widths[i].max(width(cell));
        }
    }
    let mut out = String::new();
    if !table.title.is_empty() {
        out.push_str(&table.title);
        out.push('\n');
    }
    let line = |cells: &[String], out: &mut String, paint: bool| {
        let mut parts = Vec::new();
        for (i, w) in widths.iter().enumerate() {
            let cell = cells.get(i).map(String::as_str).unwrap_or("");
            let pad = w.saturating_sub(width(cell));
            let aligned = match table.align.get(i).copied().unwrap_or(Align::Left) {
                Align::Left => format!("{cell}{}", " ".repeat(pad)),
                Align::Right => format!("{}{cell}", " ".repeat(pad)),
            };
            parts.push(if paint && cell.starts_with("FAILED") {
                red(&aligned, color)
            } else {
                aligned
            });
        }
        out.push_str("  ");
        out.push_str(parts.join("  ").trim_end());
        out.push('\n');
    };
    line(&table.headers, &mut out, false);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&rule, &mut out, false);
    for row in &table.rows {
        line(row, &mut out, true);
    }
    for note in &table.notes {
        out.push_str("  ");
        out.push_str(note);
        out.push('\n');
    }
    out
}

/// Renders a table as GitHub-flavoured Markdown.
pub fn render_markdown(table: &Table) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = String::new();
    if !table.title.is_empty() {
        out.push_str(&format!("### {}\n\n", table.title));
    }
    out.push_str(&format!(
        "| {} |\n",
        table
            .headers
            .iter()
            .map(|h| esc(h))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    let rule: Vec<&str> = (0..table.headers.len())
        .map(|i| match table.align.get(i) {
            Some(Align::Right) => "---:",
            _ => "---",
        })
        .collect();
    out.push_str(&format!("| {} |\n", rule.join(" | ")));
    for row in &table.rows {
        out.push_str(&format!(
            "| {} |\n",
            row.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")
        ));
    }
    for note in &table.notes {
        out.push_str(&format!("\n{}\n", note));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new("T", ["name", "value"]).right(&[1]);
        t.row(["a", "1"]);
        t.row(["long name", "FAILED"]);
        t.note("source: test");
        t
    }

    #[test]
    fn columns_align_and_notes_follow() {
        let s = render(&sample(), false);
        assert_eq!(
            s,
            "T\n  name        value\n  ---------  ------\n  a               1\n  long name  FAILED\n  source: test\n"
        );
    }

    #[test]
    fn failed_cells_are_red_only_with_color() {
        assert!(render(&sample(), true).contains("\x1b[31;1m"));
        assert!(!render(&sample(), false).contains('\x1b'));
    }

    #[test]
    fn markdown_escapes_pipes() {
        let mut t = Table::new("", ["a|b"]);
        t.row(["x|y"]);
        assert_eq!(render_markdown(&t), "| a\\|b |\n| --- |\n| x\\|y |\n");
    }
}
