//! A plain table that suites hand to the reporters.
//!
//! Suites describe *what* to show (headers, rows, notes); the report crate
//! decides *how* (terminal, Markdown, HTML). Cells are already formatted
//! strings so that every renderer shows the same figures.

use serde::{Deserialize, Serialize};

/// Alignment of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A titled table with optional notes under it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Table {
    /// Title printed above.
    pub title: String,
    /// Column headers.
    pub headers: Vec<String>,
    /// Column alignment; missing entries are left-aligned.
    pub align: Vec<Align>,
    /// Rows of formatted cells.
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the table (sources, conclusions).
    pub notes: Vec<String>,
}

impl Table {
    /// A table with a title and headers; numeric-looking headers are
    /// right-aligned by the caller through [`Table::align`].
    pub fn new<S: Into<String>>(
        title: impl Into<String>,
        headers: impl IntoIterator<Item = S>,
    ) -> Self {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        Self {
            title: title.into(),
            align: vec![Align::Left; headers.len()],
            headers,
            ..Self::default()
        }
    }
    /// Sets the alignment of columns (by index) to right.
    pub fn right(mut self, columns: &[usize]) -> Self {
        for &c in columns {
            if c < self.align.len() {
                self.align[c] = Align::Right;
            }
        }
        self
    }
    /// Appends a row.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }
    /// Appends a note.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }
}
