//! Plain-text and Markdown rendering of tables.
//!
//! Terminal tables fit the terminal: the width is `COLUMNS`, else the
//! tty's, else 100 columns (output to a file or pipe). A table wider than
//! that first loses its low-value columns (empty ones, ones with one value
//! in every row, confidence intervals, cycles per byte, labels), then wraps
//! its longest text cells; a note names what was left out. `--wide` turns
//! fitting off ([`set_width`] with [`Width::Unlimited`]).

use cryptobench_core::names::{printable, printable_lines};
use cryptobench_core::{Align, Table};
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Width used when the output is not a terminal and `COLUMNS` is unset.
pub const DEFAULT_WIDTH: usize = 100;
/// Narrowest a wrapped text column gets.
const MIN_WRAPPED: usize = 12;
/// Narrowest a numeric column's wrapped header makes it.
const MIN_NUMERIC: usize = 6;

/// How wide terminal tables may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// Fit the terminal (`COLUMNS`, the tty, or [`DEFAULT_WIDTH`]).
    Terminal,
    /// At most this many columns.
    Columns(usize),
    /// Every column at full width (`--wide`).
    Unlimited,
}

/// 0: the terminal's width, `usize::MAX`: unlimited, else a fixed width.
static WIDTH: AtomicUsize = AtomicUsize::new(0);

/// Sets the width of every table [`render`] draws from now on (the binary
/// calls it once, from `--wide`).
pub fn set_width(width: Width) {
    let v = match width {
        Width::Terminal => 0,
        Width::Columns(n) => n.max(20),
        Width::Unlimited => usize::MAX,
    };
    WIDTH.store(v, Ordering::Relaxed);
}

/// The width tables are fitted to now; `None` when unlimited.
pub fn max_width() -> Option<usize> {
    match WIDTH.load(Ordering::Relaxed) {
        0 => Some(terminal_width()),
        usize::MAX => None,
        n => Some(n),
    }
}

/// `COLUMNS` when set to a number, else the width of the terminal on
/// stdout, else [`DEFAULT_WIDTH`].
pub fn terminal_width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|n| *n >= 20)
    {
        return n;
    }
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, _)| usize::from(w.0))
        .filter(|w| *w >= 20)
        .unwrap_or(DEFAULT_WIDTH)
}

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

/// Headers of columns dropped first when a table is too wide, most
/// expendable first (matched without case, on the header's first words).
const EXPENDABLE: [&str; 11] = [
    "95% ci", "ci95", "cyc/b", "labels", "params", "path", "mean", "thr", "threads", "p25", "p75",
];

/// Whether `header` names the expendable column `name`: `95% CI (us)` is
/// `95% ci`, `throughput` is not `thr`.
fn names_column(header: &str, name: &str) -> bool {
    let h = header.to_ascii_lowercase();
    h.strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ',', '(']))
}

/// Renders a table with aligned columns, fitted to [`max_width`]; cells
/// starting with `FAILED` are shown in red when `color` is set.
pub fn render(table: &Table, color: bool) -> String {
    render_within(table, color, max_width())
}

/// [`render`] at an explicit width (`None`: unlimited).
pub fn render_within(table: &Table, color: bool, max: Option<usize>) -> String {
    let clean = printable_table(table);
    let table = clean.as_ref();
    match max {
        Some(limit) => render_aligned(&fit(table, limit), color, Some(limit)),
        None => render_aligned(table, color, None),
    }
}

/// The table with every cell, header and title made [`printable`].
fn printable_table(t: &Table) -> Cow<'_, Table> {
    let dirty = |s: &String| s.chars().any(char::is_control);
    let any = dirty(&t.title)
        || t.headers.iter().any(dirty)
        || t.rows.iter().flatten().any(dirty)
        || t.notes
            .iter()
            .any(|n| n.chars().any(|c| c.is_control() && c != '\n'));
    if !any {
        return Cow::Borrowed(t);
    }
    let clean = |s: &String| printable(s).into_owned();
    Cow::Owned(Table {
        title: clean(&t.title),
        headers: t.headers.iter().map(clean).collect(),
        align: t.align.clone(),
        rows: t
            .rows
            .iter()
            .map(|r| r.iter().map(clean).collect())
            .collect(),
        notes: t
            .notes
            .iter()
            .map(|n| printable_lines(n).into_owned())
            .collect(),
    })
}

/// Total width of a table drawn with these column widths.
fn total(widths: &[usize]) -> usize {
    2 + widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1)
}

fn natural_widths(t: &Table) -> Vec<usize> {
    let mut widths: Vec<usize> = t.headers.iter().map(|h| width(h)).collect();
    for row in &t.rows {
        for (i, cell) in row.iter().enumerate().take(widths.len()) {
            widths[i] = widths[i].max(width(cell));
        }
    }
    widths
}

/// A copy of `table` without the columns that cost width and say least,
/// until it fits `limit` or nothing expendable is left.
fn fit(table: &Table, limit: usize) -> Table {
    let mut t = table.clone();
    if total(&natural_widths(&t)) <= limit || t.headers.len() < 2 {
        return t;
    }
    let mut dropped: Vec<String> = Vec::new();
    let mut constant: Vec<String> = Vec::new();
    // Empty columns go; then, while too wide, columns with one value in
    // every row (widest first), named with their value in a note.
    let uniform = |t: &Table, i: usize| {
        let first = cell(t, 0, i);
        t.rows
            .iter()
            .all(|r| r.get(i).map_or("", String::as_str) == first)
    };
    for i in (0..t.headers.len()).rev() {
        if t.headers.len() > 2 && uniform(&t, i) && cell(&t, 0, i).is_empty() {
            remove_column(&mut t, i);
        }
    }
    while t.rows.len() > 1 && t.headers.len() > 2 && total(&natural_widths(&t)) > limit {
        let widths = natural_widths(&t);
        let Some(i) = (0..t.headers.len())
            .filter(|&i| uniform(&t, i))
            .max_by_key(|&i| widths[i])
        else {
            break;
        };
        constant.push(format!("{} {}", t.headers[i], cell(&t, 0, i)));
        remove_column(&mut t, i);
    }
    for name in EXPENDABLE {
        if total(&natural_widths(&t)) <= limit || t.headers.len() < 3 {
            break;
        }
        if let Some(i) = t.headers.iter().position(|h| names_column(h, name)) {
            dropped.push(t.headers[i].clone());
            remove_column(&mut t, i);
        }
    }
    if !constant.is_empty() {
        t.notes
            .push(format!("In every row: {}.", constant.join("; ")));
    }
    if !dropped.is_empty() {
        t.notes.push(format!(
            "Left out to fit {limit} columns: {} (--wide shows every column).",
            dropped.join(", ")
        ));
    }
    t
}

fn cell(t: &Table, row: usize, col: usize) -> &str {
    t.rows
        .get(row)
        .and_then(|r| r.get(col))
        .map_or("", String::as_str)
}

fn remove_column(t: &mut Table, i: usize) {
    t.headers.remove(i);
    if i < t.align.len() {
        t.align.remove(i);
    }
    for r in &mut t.rows {
        if i < r.len() {
            r.remove(i);
        }
    }
}

/// Column widths within `limit`: first numeric headers wrap to their
/// widest cell, then the widest text column gives up room (its cells
/// wrap), never below [`MIN_WRAPPED`].
fn fitted_widths(t: &Table, limit: Option<usize>) -> Vec<usize> {
    let mut widths = natural_widths(t);
    let Some(limit) = limit else {
        return widths;
    };
    let right = |i: usize| t.align.get(i).copied().unwrap_or(Align::Left) == Align::Right;
    if total(&widths) <= limit {
        return widths;
    }
    // Numeric columns whose header is wider than their cells give up the
    // difference first, a column at a time from the most padded, only as
    // far as needed.
    let floor: Vec<usize> = (0..widths.len())
        .map(|i| {
            let widest_cell = t
                .rows
                .iter()
                .map(|r| r.get(i).map_or(0, |c| width(c)))
                .max()
                .unwrap_or(0);
            widest_cell.max(MIN_NUMERIC)
        })
        .collect();
    while total(&widths) > limit {
        let Some(i) = (0..widths.len())
            .filter(|&i| right(i) && widths[i] > floor[i])
            .max_by_key(|&i| widths[i] - floor[i])
        else {
            break;
        };
        widths[i] -= 1;
    }
    while total(&widths) > limit {
        let candidate = (0..widths.len())
            .filter(|&i| !right(i) && widths[i] > MIN_WRAPPED)
            .max_by_key(|&i| widths[i]);
        let Some(i) = candidate else { break };
        let excess = total(&widths) - limit;
        widths[i] = widths[i].saturating_sub(excess).max(MIN_WRAPPED);
    }
    widths
}

/// Splits `text` into lines of at most `w` characters, at spaces or after
/// commas where it can, mid-word where it must.
pub fn wrap(text: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let room = if line.is_empty() {
                w
            } else {
                w.saturating_sub(width(&line) + 1)
            };
            if width(&word) <= room {
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than the line: break it after a hyphen, colon
            // or slash when one falls within the line, else at the edge.
            let chars: Vec<char> = word.chars().collect();
            let cut = chars[..w.min(chars.len())]
                .iter()
                .rposition(|c| matches!(c, '-' | ':' | '/' | ','))
                .map_or(w, |p| p + 1);
            let head: String = chars[..cut].iter().collect();
            word = chars[cut..].iter().collect();
            lines.push(head);
            if word.is_empty() {
                break;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A paragraph fitted to [`max_width`]: the first line after `first`, the
/// others after `rest` (a hanging indent), ending in a newline.
pub fn paragraph(text: &str, first: &str, rest: &str) -> String {
    let text = printable_lines(text);
    let text = text.as_ref();
    let Some(limit) = max_width() else {
        return format!("{first}{text}\n");
    };
    let room = limit.saturating_sub(width(first).max(width(rest))).max(20);
    let mut out = String::new();
    for (i, line) in wrap(text, room).iter().enumerate() {
        out.push_str(if i == 0 { first } else { rest });
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn render_aligned(table: &Table, color: bool, limit: Option<usize>) -> String {
    let widths = fitted_widths(table, limit);
    let mut out = String::new();
    let prose = |text: &str, indent: &str, out: &mut String| match limit {
        Some(l) => {
            for line in wrap(text, l.saturating_sub(indent.len())) {
                out.push_str(indent);
                out.push_str(&line);
                out.push('\n');
            }
        }
        None => {
            out.push_str(indent);
            out.push_str(text);
            out.push('\n');
        }
    };
    if !table.title.is_empty() {
        prose(&table.title, "", &mut out);
    }
    let line = |cells: &[String], out: &mut String, paint: bool| {
        // Each cell wrapped to its column; the row is as tall as its tallest cell.
        let wrapped: Vec<Vec<String>> = widths
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let c = cells.get(i).map(String::as_str).unwrap_or("");
                if width(c) <= *w {
                    vec![c.to_string()]
                } else {
                    wrap(c, *w)
                }
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        for k in 0..height {
            let mut parts = Vec::new();
            for (i, w) in widths.iter().enumerate() {
                let cell = wrapped[i].get(k).map(String::as_str).unwrap_or("");
                let pad = w.saturating_sub(width(cell));
                let aligned = match table.align.get(i).copied().unwrap_or(Align::Left) {
                    Align::Left => format!("{cell}{}", " ".repeat(pad)),
                    Align::Right => format!("{}{cell}", " ".repeat(pad)),
                };
                let failed = cells.get(i).is_some_and(|c| c.starts_with("FAILED"));
                parts.push(if paint && failed {
                    red(&aligned, color)
                } else {
                    aligned
                });
            }
            out.push_str("  ");
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        }
    };
    line(&table.headers, &mut out, false);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&rule, &mut out, false);
    for row in &table.rows {
        line(row, &mut out, true);
    }
    for note in &table.notes {
        prose(note, "  ", &mut out);
    }
    out
}

/// Renders a table as GitHub-flavoured Markdown.
pub fn render_markdown(table: &Table) -> String {
    // A line break would end the row: cells keep theirs as `<br>`.
    let esc = |s: &str| printable_lines(s).replace('|', "\\|").replace('\n', "<br>");
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
        let s = render_within(&sample(), false, None);
        assert_eq!(
            s,
            "T\n  name        value\n  ---------  ------\n  a               1\n  long name  FAILED\n  source: test\n"
        );
    }

    #[test]
    fn failed_cells_are_red_only_with_color() {
        assert!(render_within(&sample(), true, None).contains("\x1b[31;1m"));
        assert!(!render_within(&sample(), false, None).contains('\x1b'));
    }

    #[test]
    fn markdown_escapes_pipes() {
        let mut t = Table::new("", ["a|b"]);
        t.row(["x|y"]);
        assert_eq!(render_markdown(&t), "| a\\|b |\n| --- |\n| x\\|y |\n");
        t.row(["two\nlines"]);
        assert!(render_markdown(&t).ends_with("| two<br>lines |\n"));
    }

    fn wide() -> Table {
        let mut t = Table::new(
            "Suite aead",
            [
                "primitive",
                "backend",
                "thr",
                "median (us)",
                "95% CI (us)",
                "cyc/B",
                "labels",
            ],
        )
        .right(&[2, 3, 4, 5]);
        for (p, b, m, ci, cpb) in [
            ("AES-256-GCM", "openssl", "1.20", "1.19 .. 1.21", "0.61"),
            (
                "ChaCha20-Poly1305",
                "libsodium",
                "1.90",
                "1.88 .. 1.93",
                "0.97",
            ),
        ] {
            t.row([
                p,
                b,
                "1",
                m,
                ci,
                cpb,
                &format!("AEAD, {b}, 96-bit nonce, constant time on every CPU this runs on"),
            ]);
        }
        t
    }

    fn longest_line(s: &str) -> usize {
        s.lines().map(width).max().unwrap_or(0)
    }

    #[test]
    fn a_wide_table_drops_low_value_columns_to_fit_and_says_so() {
        let full = render_within(&wide(), false, None);
        assert!(longest_line(&full) > 100, "the sample must be too wide");
        let fitted = render_within(&wide(), false, Some(60));
        assert!(longest_line(&fitted) <= 60, "{fitted}");
        assert!(fitted.contains("In every row: thr 1."), "{fitted}");
        assert!(
            fitted.contains("Left out to fit 60 columns: 95% CI (us)"),
            "{fitted}"
        );
        assert!(fitted.contains("--wide"));
        assert!(fitted.contains("ChaCha20-Poly1305") && fitted.contains("1.90"));
    }

    #[test]
    fn long_cells_wrap_inside_their_column() {
        let mut t = Table::new("Primitives", ["suite", "primitives"]);
        let list: Vec<String> = (0..80).map(|i| format!("CIPHER-{i}")).collect();
        t.row(["cipher".to_string(), list.join(", ")]);
        let s = render_within(&t, false, Some(100));
        assert!(longest_line(&s) <= 100, "{s}");
        assert!(s.lines().count() > 10);
        for i in 0..80 {
            assert!(
                s.contains(&format!("CIPHER-{i},")) || i == 79,
                "CIPHER-{i} lost"
            );
        }
        let unlimited = render_within(&t, false, None);
        assert!(longest_line(&unlimited) > 500);
    }

    #[test]
    fn paragraphs_hang_under_their_first_line() {
        set_width(Width::Columns(30));
        let p = paragraph(
            "aead: AEGIS-128L is 2.6x AES-256-GCM at 1 MiB here",
            "  ",
            "    ",
        );
        set_width(Width::Terminal);
        assert_eq!(
            p,
            "  aead: AEGIS-128L is 2.6x\n    AES-256-GCM at 1 MiB here\n"
        );
    }

    #[test]
    fn numeric_headers_wrap_before_text_does_and_throughput_is_not_thr() {
        let mut t = Table::new("", ["Curve", "Key length, bits (A)", "throughput"]).right(&[1]);
        t.row(["brainpoolP160r1", "160", "1 GB/s"]);
        t.row(["secp256k1", "256", "2 GB/s"]);
        let s = render_within(&t, false, Some(40));
        assert!(longest_line(&s) <= 40, "{s}");
        assert!(
            s.contains("brainpoolP160r1"),
            "the text column kept its width: {s}"
        );
        assert!(s.contains("throughput"), "{s}");
        assert!(names_column("95% CI (us)", "95% ci"));
        assert!(!names_column("throughput", "thr"));
    }

    #[test]
    fn wrap_breaks_at_spaces_and_splits_only_overlong_words() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(
            wrap("peer:argon2-cli ms", 8),
            ["peer:", "argon2-", "cli ms"]
        );
        assert_eq!(wrap("", 4), [""]);
    }
}
