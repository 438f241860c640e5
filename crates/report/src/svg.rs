//! Inline SVG for a [`Chart`]: written here as plain text so that the report
//! stays one self-contained file that any browser shows without scripts,
//! fonts or network.
//!
//! Bar charts are drawn horizontally (categories down the left side) because
//! primitive names are long and a ranking reads top to bottom; each category
//! holds one bar per series, and marked categories get a shaded band. Line
//! charts plot numeric x against y, either axis optionally logarithmic.
//! Every bar and point carries a `<title>` so hovering shows the exact value.
//! A bar chart whose value axis is a ratio (its label says "ratio") gets a
//! dashed line at 1, where both sides are equal.

use cryptobench_core::{Chart, ChartKind};
use std::fmt::Write;

/// Colour-blind-friendly palette (Okabe-Ito, then a few darker tones).
const PALETTE: [&str; 10] = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
    "#7F3C8D", "#11A579",
];

/// Total width of every chart, in SVG user units (the page scales it down).
const WIDTH: f64 = 1080.0;
/// Approximate width of one character of 12 px text, for layout.
const CHAR_W: f64 = 6.8;
/// Approximate width of one character of a (possibly bold) category label.
const LABEL_CHAR_W: f64 = 7.4;

/// Escapes text for use in SVG/HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A number for an axis tick or bar end: `950`, `1.2k`, `3.4M`, `0.25`.
pub fn format_number(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let (x, suffix) = cryptobench_core::units::si_prefix(v);
    let xa = x.abs();
    let digits = if xa == 0.0 || xa >= 100.0 {
        0
    } else if xa >= 10.0 {
        1
    } else if xa >= 1.0 {
        2
    } else {
        3
    };
    let s = format!("{x:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{suffix}")
}

/// What a chart's values count, read from its value-axis label, so that
/// bar ends and ticks carry the unit with an SI prefix (`8.48 GB/s`, not
/// `8.48k` on an MB/s axis).
#[derive(Debug, Clone, Copy, PartialEq)]
enum ValueUnit {
    /// Bytes per second; the values are in units of `scale` bytes.
    BytesPerS { scale: f64 },
    /// Counts per second of the named thing (`ops`, `chars`).
    PerS(&'static str),
    /// Anything else: a bare number (times, ratios, percentages).
    Plain,
}

impl ValueUnit {
    fn of_label(label: &str) -> Self {
        let l = label.to_ascii_lowercase();
        if l.starts_with("gb/s") {
            Self::BytesPerS { scale: 1e9 }
        } else if l.starts_with("mb/s") {
            Self::BytesPerS { scale: 1e6 }
        } else if l.starts_with("bytes per second") {
            Self::BytesPerS { scale: 1.0 }
        } else if l.starts_with("operations per second") || l.starts_with("ops/s") {
            Self::PerS("ops")
        } else if l.starts_with("characters per second") || l.starts_with("chars/s") {
            Self::PerS("chars")
        } else {
            Self::Plain
        }
    }

    /// A value as its bar end and tooltip show it.
    fn text(self, v: f64) -> String {
        match self {
            Self::BytesPerS { scale } => with_unit(v * scale, "B/s", true),
            Self::PerS(what) => with_unit(v, &format!("{what}/s"), false),
            Self::Plain => format_number(v),
        }
    }
}

/// `format_number` with its prefix moved before `unit`: `8.48 GB/s`,
/// `71.3 k chars/s`, `950 ops/s`.
fn with_unit(v: f64, unit: &str, glued: bool) -> String {
    let n = format_number(v);
    match n.chars().last() {
        Some(p @ ('k' | 'M' | 'G' | 'T')) => {
            let digits = &n[..n.len() - 1];
            if glued {
                format!("{digits} {p}{unit}")
            } else {
                format!("{digits} {p} {unit}")
            }
        }
        _ => format!("{n} {unit}"),
    }
}

/// A linear or logarithmic mapping of data values onto a pixel range.
#[derive(Debug, Clone)]
struct Axis {
    log: bool,
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Axis {
    /// Builds an axis covering `values`; a linear value axis of bars starts
    /// at zero so bar lengths stay comparable.
    fn new(values: &[f64], log: bool, from_zero: bool) -> Self {
        let vals: Vec<f64> = values
            .iter()
            .copied()
            .filter(|v| v.is_finite() && (!log || *v > 0.0))
            .collect();
        if vals.is_empty() {
            return Self {
                log,
                lo: if log { 1.0 } else { 0.0 },
                hi: if log { 10.0 } else { 1.0 },
                ticks: if log { vec![1.0, 10.0] } else { vec![0.0, 1.0] },
            };
        }
        let min = vals.iter().copied().fold(f64::INFINITY, f64::min);
        let max = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if log {
            // The axis spans the data (to the nearest 1-2-5 step outside
            // it), not whole decades: points at 8 and 16 MiB do not sit on
            // an axis from 1 to 100.
            let lo = log_step_below(min);
            let mut hi = log_step_above(max);
            if hi <= lo {
                hi = log_step_above(lo * 1.01);
            }
            let decades = (hi / lo).log10();
            let steps: &[f64] = if decades <= 2.5 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let mut ticks = Vec::new();
            let mut base = 10f64.powf(lo.log10().floor());
            while base <= hi * 1.0001 {
                for m in steps {
                    let t = base * m;
                    if t >= lo * 0.9999 && t <= hi * 1.0001 {
                        ticks.push(t);
                    }
                }
                base *= 10.0;
            }
            Self { log, lo, hi, ticks }
        } else {
            let mut lo = if from_zero { min.min(0.0) } else { min };
            let mut hi = max.max(if from_zero { 0.0 } else { max });
            if hi <= lo {
                hi = lo + if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
                if !from_zero {
                    lo -= (hi - lo) * 0.5;
                }
            }
            let step = nice_step((hi - lo) / 5.0);
            let lo = (lo / step).floor() * step;
            let hi = (hi / step).ceil() * step;
            let n = ((hi - lo) / step).round() as usize;
            let ticks = (0..=n).map(|i| lo + step * i as f64).collect();
            Self { log, lo, hi, ticks }
        }
    }

    /// Fraction 0..1 of the way from `lo` to `hi`.
    fn frac(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(self.lo * 1e-3).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        f.clamp(0.0, 1.0)
    }
}

/// The largest 1, 2 or 5 times a power of ten at or below `v` (> 0).
fn log_step_below(v: f64) -> f64 {
    let p = 10f64.powf(v.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * p)
        .find(|t| *t <= v * 1.0001)
        .unwrap_or(p)
}

/// The smallest 1, 2 or 5 times a power of ten at or above `v` (> 0).
fn log_step_above(v: f64) -> f64 {
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|t| *t >= v * 0.9999)
        .unwrap_or(10.0 * p)
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    let m = raw / p;
    let n = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    n * p
}

fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Legend entries laid out in rows that fit the width; returns the SVG and
/// the height it takes.
fn legend(names: &[&str], top: f64, left: f64) -> (String, f64) {
    if names.len() < 2 {
        return (String::new(), 0.0);
    }
    let mut out = String::from("<g class=\"legend\">");
    let (mut x, mut y) = (left, top);
    for (i, name) in names.iter().enumerate() {
        let w = 22.0 + name.chars().count() as f64 * CHAR_W + 18.0;
        if x + w > WIDTH - 10.0 && x > left {
            x = left;
            y += 18.0;
        }
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{}</text>",
            y - 9.0,
            color(i),
            x + 19.0,
            y,
            escape(name)
        );
        x += w;
    }
    out.push_str("</g>");
    (out, y - top + 18.0)
}

/// The opening tag, title and common style of one chart.
fn open(out: &mut String, chart: &Chart, height: f64) {
    let _ = write!(
        out,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height:.0}\" \
         width=\"{WIDTH}\" height=\"{height:.0}\" role=\"img\" aria-label=\"{t}\" \
         font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\">\
         <title>{t}</title>\
         <rect class=\"background\" x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height:.0}\" fill=\"#ffffff\"/>\
         <text class=\"chart-title\" x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"600\">{t}</text>",
        t = escape(&chart.title)
    );
}

/// The drawn height of a rendered chart, in SVG units (from its
/// `viewBox`); 0 when `svg` is not one of ours.
pub fn height_of(svg: &str) -> f64 {
    svg.split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|vb| vb.split(' ').nth(1))
        .and_then(|h| h.parse().ok())
        .unwrap_or(0.0)
}

/// Renders a chart as one `<svg>` element. A chart without data still gets
/// a (small) drawing saying so, so that every chart on the page has a size.
pub fn render(chart: &Chart) -> String {
    let has_data = chart
        .series
        .iter()
        .any(|s| s.points.iter().any(|(x, y)| x.is_finite() && y.is_finite()));
    if !has_data {
        let mut out = String::new();
        open(&mut out, chart, 70.0);
        out.push_str(
            "<text class=\"no-data\" x=\"12\" y=\"52\" font-size=\"13\" fill=\"#666\">\
             no measured data to plot</text></svg>",
        );
        return out;
    }
    match chart.kind {
        ChartKind::Bar => bar(chart),
        ChartKind::Line => line(chart),
    }
}

/// Horizontal grouped bars.
/// A vertical grid line at `x` across the plot, its tick label below it.
fn vertical_grid(out: &mut String, x: f64, top: f64, plot_h: f64, stroke: &str, label: &str) {
    let _ = write!(
        out,
        "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\"/>\
         <text class=\"tick\" x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
        top + plot_h,
        top + plot_h + 16.0,
        escape(label)
    );
}

fn bar(chart: &Chart) -> String {
    const BAR_H: f64 = 14.0;
    const GAP: f64 = 10.0;
    let n_cat = chart.categories.len().max(
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0 as usize + 1))
            .max()
            .unwrap_or(0),
    );
    let label = |i: usize| {
        chart
            .categories
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("#{i}"))
    };
    // Room for the labels, up to a third of the width; longer ones are
    // shortened (the full text is in their tooltip).
    let longest = (0..n_cat)
        .map(|i| label(i).chars().count())
        .max()
        .unwrap_or(4);
    let left = (longest as f64 * LABEL_CHAR_W + 24.0).clamp(90.0, WIDTH / 3.0);
    let max_chars = ((left - 24.0) / LABEL_CHAR_W).floor() as usize;
    let right = 70.0;
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    let (legend_svg, legend_h) = legend(&names, 44.0, left);
    let top = 36.0 + legend_h + 8.0;
    // Each category is as tall as the bars it holds: series without a
    // point there take no room, so sparse charts stay compact.
    let slots: Vec<Vec<usize>> = (0..n_cat)
        .map(|c| {
            (0..chart.series.len())
                .filter(|&si| {
                    chart.series[si].points.iter().any(|&(x, y)| {
                        x.is_finite() && y.is_finite() && x >= 0.0 && x as usize == c
                    })
                })
                .collect()
        })
        .collect();
    let heights: Vec<f64> = slots
        .iter()
        .map(|s| s.len().max(1) as f64 * BAR_H + GAP)
        .collect();
    let offsets: Vec<f64> = heights
        .iter()
        .scan(0.0, |acc, h| {
            let o = *acc;
            *acc += h;
            Some(o)
        })
        .collect();
    let plot_h: f64 = heights.iter().sum();
    let height = top + plot_h + 50.0;
    let plot_w = WIDTH - left - right;

    let values: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let axis = Axis::new(&values, chart.log_y, true);
    let px = |v: f64| left + axis.frac(v) * plot_w;
    let unit = ValueUnit::of_label(&chart.y_label);

    let mut out = String::new();
    open(&mut out, chart, height);
    out.push_str(&legend_svg);
    // Marked categories: a shaded band behind the whole group.
    for &m in &chart.marked {
        if m < n_cat {
            let _ = write!(
                out,
                "<rect class=\"marked\" x=\"4\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#e3f4e8\"/>",
                top + offsets[m] + 1.0,
                WIDTH - 8.0,
                heights[m] - 2.0
            );
        }
    }
    // Grid and ticks of the value axis.
    for &t in &axis.ticks {
        vertical_grid(&mut out, px(t), top, plot_h, "#e4e4e4", &unit.text(t));
    }
    // Ratios read against 1: draw where both sides are equal.
    if chart.y_label.to_ascii_lowercase().contains("ratio") && axis.lo <= 1.0 && axis.hi >= 1.0 {
        let x = px(1.0);
        let _ = write!(
            out,
            "<line class=\"reference\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" \
             stroke=\"#c01616\" stroke-dasharray=\"5 4\"/>",
            top + plot_h
        );
    }
    // Category labels.
    for i in 0..n_cat {
        let full = label(i);
        let marked = chart.marked.contains(&i);
        let _ = write!(
            out,
            "<text class=\"category\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\"{}>{}<title>{}</title></text>",
            left - 8.0,
            top + offsets[i] + heights[i] / 2.0 + 4.0,
            if marked { " font-weight=\"700\"" } else { "" },
            escape(&shorten(&full, max_chars)),
            escape(&full)
        );
    }
    // The bars, with the value written at the end of each.
    let base = px(if axis.log { axis.lo } else { 0.0 });
    for (si, s) in chart.series.iter().enumerate() {
        for &(x, y) in &s.points {
            if !(x.is_finite() && y.is_finite()) || x < 0.0 || (x as usize) >= n_cat {
                continue;
            }
            let ci = x as usize;
            let slot = slots[ci].iter().position(|&x| x == si).unwrap_or(0);
            let y0 = top + offsets[ci] + GAP / 2.0 + slot as f64 * BAR_H;
            let end = px(y);
            let (x0, w) = if end >= base {
                (base, end - base)
            } else {
                (end, base - end)
            };
            let _ = write!(
                out,
                "<rect class=\"bar\" x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\">\
                 <title>{}: {}: {}</title></rect>\
                 <text class=\"value\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#333\">{}</text>",
                w.max(1.0),
                BAR_H - 2.0,
                color(si),
                escape(&label(ci)),
                escape(&s.name),
                escape(&unit.text(y)),
                x0 + w.max(1.0) + 4.0,
                y0 + BAR_H - 4.0,
                escape(&unit.text(y))
            );
        }
    }
    // Axis lines and labels.
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{left:.1}\" y1=\"{top:.1}\" x2=\"{left:.1}\" y2=\"{b:.1}\" stroke=\"#333\"/>\
         <line class=\"axis\" x1=\"{left:.1}\" y1=\"{b:.1}\" x2=\"{r:.1}\" y2=\"{b:.1}\" stroke=\"#333\"/>\
         <text class=\"axis-label\" x=\"{cx:.1}\" y=\"{ly:.1}\" font-size=\"12\" text-anchor=\"middle\">{yl}{log}</text>",
        b = top + plot_h,
        r = left + plot_w,
        cx = left + plot_w / 2.0,
        ly = top + plot_h + 36.0,
        yl = escape(&chart.y_label),
        log = if chart.log_y { " (log scale)" } else { "" }
    );
    if !chart.x_label.is_empty() {
        let _ = write!(
            out,
            "<text class=\"axis-label\" x=\"12\" y=\"{:.1}\" font-size=\"11\" fill=\"#555\">{}</text>",
            top - 4.0,
            escape(&chart.x_label)
        );
    }
    out.push_str("</svg>");
    out
}

/// Lines over a numeric x axis.
fn line(chart: &Chart) -> String {
    let left = 78.0;
    let right = 24.0;
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    let (legend_svg, legend_h) = legend(&names, 44.0, left);
    let top = 36.0 + legend_h + 10.0;
    let plot_h = 300.0;
    let height = top + plot_h + 56.0;
    let plot_w = WIDTH - left - right;
    let usable = |x: f64, y: f64| {
        x.is_finite() && y.is_finite() && (!chart.log_x || x > 0.0) && (!chart.log_y || y > 0.0)
    };
    let pts: Vec<(f64, f64)> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().copied())
        .filter(|&(x, y)| usable(x, y))
        .collect();
    let xs: Vec<f64> = pts.iter().map(|p| p.0).collect();
    let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let xa = Axis::new(&xs, chart.log_x, false);
    let ya = Axis::new(&ys, chart.log_y, !chart.log_y);
    let unit = ValueUnit::of_label(&chart.y_label);
    let px = |x: f64| left + xa.frac(x) * plot_w;
    let py = |y: f64| top + plot_h - ya.frac(y) * plot_h;

    let mut out = String::new();
    open(&mut out, chart, height);
    out.push_str(&legend_svg);
    for &t in &ya.ticks {
        let y = py(t);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{left:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#e4e4e4\"/>\
             <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\" fill=\"#333\">{}</text>",
            left + plot_w,
            left - 6.0,
            y + 4.0,
            escape(&unit.text(t))
        );
    }
    for &t in &xa.ticks {
        vertical_grid(&mut out, px(t), top, plot_h, "#eeeeee", &format_number(t));
    }
    for (si, s) in chart.series.iter().enumerate() {
        let mut p: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(x, y)| usable(x, y))
            .collect();
        p.sort_by(|a, b| a.0.total_cmp(&b.0));
        if p.is_empty() {
            continue;
        }
        let d: Vec<String> = p
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { 'M' } else { 'L' },
                    px(x),
                    py(y)
                )
            })
            .collect();
        let _ = write!(
            out,
            "<path class=\"series\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
            d.join(" "),
            color(si)
        );
        for &(x, y) in &p {
            let _ = write!(
                out,
                "<circle class=\"point\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{}\"><title>{}: ({}, {})</title></circle>",
                px(x),
                py(y),
                color(si),
                escape(&s.name),
                escape(&format_number(x)),
                escape(&unit.text(y))
            );
        }
    }
    let b = top + plot_h;
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{left:.1}\" y1=\"{top:.1}\" x2=\"{left:.1}\" y2=\"{b:.1}\" stroke=\"#333\"/>\
         <line class=\"axis\" x1=\"{left:.1}\" y1=\"{b:.1}\" x2=\"{r:.1}\" y2=\"{b:.1}\" stroke=\"#333\"/>\
         <text class=\"axis-label\" x=\"{cx:.1}\" y=\"{xl_y:.1}\" font-size=\"12\" text-anchor=\"middle\">{xl}{xlog}</text>\
         <text class=\"axis-label\" transform=\"translate(16 {cy:.1}) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">{yl}{ylog}</text>",
        r = left + plot_w,
        cx = left + plot_w / 2.0,
        xl_y = b + 38.0,
        cy = top + plot_h / 2.0,
        xl = escape(&chart.x_label),
        yl = escape(&chart.y_label),
        xlog = if chart.log_x { " (log scale)" } else { "" },
        ylog = if chart.log_y { " (log scale)" } else { "" },
    );
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::Series;

    fn count(h: &str, needle: &str) -> usize {
        h.matches(needle).count()
    }

    #[test]
    fn bar_chart_draws_every_bar_marks_and_escapes() {
        let mut c = Chart::bars("Ciphers <fast> & \"safe\"", "MB/s");
        c.categories = vec!["AES-128-GCM".into(), "DES-EDE3 <Sweet32>".into()];
        c.series = vec![
            Series {
                name: "openssl".into(),
                points: vec![(0.0, 5000.0), (1.0, 30.0)],
            },
            Series {
                name: "rust&crypto".into(),
                points: vec![(0.0, 2500.0)],
            },
        ];
        c.marked = vec![0];
        let svg = render(&c);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(count(&svg, "class=\"bar\""), 3);
        assert_eq!(count(&svg, "class=\"marked\""), 1);
        assert!(svg.contains("Ciphers &lt;fast&gt; &amp; &quot;safe&quot;"));
        assert!(svg.contains("DES-EDE3 &lt;Sweet32&gt;"));
        assert!(svg.contains("rust&amp;crypto"));
        assert!(!svg.contains("<fast>") && !svg.contains("<Sweet32>"));
        // Two series -> a legend; the longest bar is the largest value.
        assert!(svg.contains("class=\"legend\""));
        assert!(!svg.contains("class=\"reference\""), "not a ratio chart");
        // 5000 on an MB/s axis reads with its unit, in the larger prefix.
        assert!(svg.contains(">5 GB/s<"), "value label of 5000 MB/s");
        let widths: Vec<f64> = svg
            .split("class=\"bar\"")
            .skip(1)
            .map(|s| {
                let w = s.split("width=\"").nth(1).unwrap();
                w[..w.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert!(widths[0] > widths[1] && widths[0] > widths[2], "{widths:?}");
    }

    #[test]
    fn line_chart_with_log_axes_has_paths_and_decade_ticks() {
        let mut c = Chart::log_lines("Argon2id time vs memory", "memory (KiB)", "ms");
        c.series = vec![
            Series {
                name: "p=1".into(),
                points: vec![
                    (1024.0, 2.0),
                    (16384.0, 30.0),
                    (262144.0, 500.0),
                    (0.0, 1.0),
                ],
            },
            Series {
                name: "p=4".into(),
                points: vec![(1024.0, 1.0), (262144.0, 150.0)],
            },
        ];
        let svg = render(&c);
        assert_eq!(count(&svg, "class=\"series\""), 2);
        // The x = 0 point cannot sit on a log axis: dropped, not drawn at -inf.
        assert_eq!(count(&svg, "class=\"point\""), 5);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        // Ticks span the data: x 1,024..262,144 and y 1..500.
        for tick in [">1k<", ">10k<", ">100k<", ">1<", ">10<", ">100<"] {
            assert!(svg.contains(tick), "missing tick {tick}");
        }
        assert!(!svg.contains(">1M<"), "the x axis stops at 500k");
        assert_eq!(count(&svg, "(log scale)"), 2);
        // Points increase left to right and upward (smaller SVG y).
        let d = svg.split("d=\"M").nth(1).unwrap();
        let d = &d[..d.find('"').unwrap()];
        let coords: Vec<(f64, f64)> = d
            .split(" L")
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        assert_eq!(coords.len(), 3);
        assert!(coords[0].0 < coords[1].0 && coords[1].1 < coords[0].1);
    }

    #[test]
    fn sparse_bar_groups_take_only_the_room_of_their_bars() {
        let height = |c: &Chart| -> f64 {
            let svg = render(c);
            let h = svg.split("height=\"").nth(1).unwrap();
            h[..h.find('"').unwrap()].parse().unwrap()
        };
        let mut c = Chart::bars("peer ratios", "speed ratio");
        c.categories = (0..6).map(|i| format!("case {i}")).collect();
        c.series = (0..3)
            .map(|s| Series {
                name: format!("s{s}"),
                points: vec![(2.0 * s as f64, 1.5), (2.0 * s as f64 + 1.0, 0.5)],
            })
            .collect();
        let sparse = height(&c);
        for s in &mut c.series {
            s.points = (0..6).map(|i| (i as f64, 1.0)).collect();
        }
        let dense = height(&c);
        assert!(
            sparse + 6.0 * 2.0 * 14.0 - 1.0 < dense,
            "{sparse} vs {dense}"
        );
        // A ratio axis gets its reference line at 1.
        assert!(render(&c).contains("class=\"reference\""));
    }

    #[test]
    fn empty_chart_still_renders_a_sized_svg() {
        let c = Chart::bars("nothing", "ops/s");
        let svg = render(&c);
        assert!(svg.contains("no measured data"));
        assert!(svg.contains("height=\"70\""));
        assert_eq!(height_of(&svg), 70.0);
        assert_eq!(height_of("<p>"), 0.0);
    }

    #[test]
    fn numbers_are_compact() {
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_number(2_500_000.0), "2.5M");
        assert_eq!(format_number(0.25), "0.25");
        assert_eq!(format_number(120.0), "120");
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(130.0), 200.0);
    }

    #[test]
    fn values_carry_their_unit_with_an_si_prefix() {
        let mbs = ValueUnit::of_label("MB/s (10^6 bytes per second; longer is faster)");
        assert_eq!(mbs.text(8480.0), "8.48 GB/s");
        assert_eq!(mbs.text(950.0), "950 MB/s");
        let ops = ValueUnit::of_label("operations per second (longer is faster)");
        assert_eq!(ops.text(822_000.0), "822 k ops/s");
        let chars = ValueUnit::of_label("characters per second (longer is faster)");
        assert_eq!(chars.text(71_300.0), "71.3 k chars/s");
        assert_eq!(
            ValueUnit::of_label("speedup over serial (x)").text(1.5),
            "1.5"
        );
    }

    #[test]
    fn log_axes_span_the_data_not_whole_decades() {
        let a = Axis::new(&[8.0, 16.0], true, false);
        assert_eq!((a.lo, a.hi), (5.0, 20.0));
        assert_eq!(a.ticks, vec![5.0, 10.0, 20.0]);
        let wide = Axis::new(&[3.0, 40_000.0], true, true);
        assert_eq!((wide.lo, wide.hi), (2.0, 50_000.0));
        assert!(wide.ticks.iter().all(|t| *t >= 2.0 && *t <= 50_000.0));
        assert!(wide.ticks.contains(&10.0) && wide.ticks.contains(&10_000.0));
    }
}
