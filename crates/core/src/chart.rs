//! A chart as data: suites say what to plot, the report crate draws it
//! (inline SVG). Keeping the description here lets a suite own its seed-
//! shaped figures without depending on any drawing code.

use serde::{Deserialize, Serialize};

/// Bars (categories on x) or lines (numeric x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChartKind {
    /// Grouped bars: one group per category, one bar per series.
    Bar,
    /// Lines over a numeric x axis.
    Line,
}

/// One named series of points. For bar charts `x` is the index of the
/// category; for line charts it is the x value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// (x, y) points.
    pub points: Vec<(f64, f64)>,
}

/// A chart description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chart {
    /// Title above the chart.
    pub title: String,
    /// Bars or lines.
    pub kind: ChartKind,
    /// Category labels of a bar chart (x = index).
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<Series>,
    /// X axis label.
    pub x_label: String,
    /// Y axis label (with unit).
    pub y_label: String,
    /// Logarithmic x axis (line charts).
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// Categories to mark (e.g. recommended ciphers), by index.
    pub marked: Vec<usize>,
    /// Lines of text under the chart.
    pub notes: Vec<String>,
}

/// The ratio of largest to smallest value beyond which a chart's value
/// axis becomes logarithmic.
pub const WIDE_RANGE: f64 = 200.0;

impl Chart {
    /// An empty chart of `kind`.
    pub fn new(
        kind: ChartKind,
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            kind,
            categories: Vec::new(),
            series: Vec::new(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            marked: Vec::new(),
            notes: Vec::new(),
        }
    }
    /// Puts the value axis on a logarithmic scale when `values` span more
    /// than [`WIDE_RANGE`]: on a linear axis the small bars would vanish.
    /// The renderer marks a logarithmic axis on its label.
    pub fn log_y_when_wide(&mut self, values: impl IntoIterator<Item = f64>) {
        let (lo, hi) = values
            .into_iter()
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        self.log_y = hi / lo > WIDE_RANGE;
    }
    /// An empty bar chart: its categories name the x axis, so the axis has
    /// no label of its own.
    pub fn bars(title: impl Into<String>, y_label: impl Into<String>) -> Self {
        Self::new(ChartKind::Bar, title, "", y_label)
    }
    /// An empty line chart on logarithmic x and y axes, for values that
    /// span decades (memory sizes, times).
    pub fn log_lines(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Self {
            log_x: true,
            log_y: true,
            ..Self::new(ChartKind::Line, title, x_label, y_label)
        }
    }
}
