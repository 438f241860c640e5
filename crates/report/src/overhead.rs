//! The runtime overhead table: what a language runtime costs over the
//! native library, per primitive, and a fit that splits the cost into a
//! fixed part per call and a part per byte.
//!
//! Each runtime row is divided by its native twin (same suite, primitive,
//! operation, size and work parameters; OpenSSL when it has the cell, else
//! the fastest verified library), with the paired ratio's interval when
//! the two were measured in one group. For the sized primitives the extra
//! time (runtime - native) is fitted by least squares as `a + b * bytes`
//! over the sizes measured, each size weighted by the precision of its
//! extra time. A size's extra time takes its interval from the paired
//! ratio when runtime and native were measured in one group (the rounds'
//! common drift cancels), else from the two medians' intervals; the
//! sizes are separate cells with independent errors, so the intervals of
//! `a` and `b` propagate theirs in quadrature (a residual-based interval
//! would rest on too few degrees of freedom with four sizes, and moving
//! every point to its worst end at once, as an earlier version did, adds
//! the half-widths instead and is no 95% interval). A user reads "python
//! adds 0.9 us per call and 0 per byte".

use cryptobench_core::advice::{is_runtime, verified_anywhere, RUNTIME_PARAM};
use cryptobench_core::units::{format_ns, format_size};
use cryptobench_core::verdict::{time_ratio, Estimate};
use cryptobench_core::{Chart, Measurement, Series, Table};
use std::collections::HashMap;

/// One cell of the table: (suite, primitive, operation, parameters that
/// must match, label).
type Cell = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

const CELLS: [Cell; 7] = [
    ("aead", "AES-256-GCM", "encrypt", &[], "AES-256-GCM encrypt"),
    (
        "aead",
        "ChaCha20-Poly1305",
        "encrypt",
        &[],
        "ChaCha20-Poly1305 encrypt",
    ),
    ("hash", "SHA-256", "digest", &[], "SHA-256"),
    ("ecc", "prime256v1", "keygen", &[], "P-256 keygen"),
    ("ecc", "X25519", "keygen", &[], "X25519 keygen"),
    ("ecc", "Ed25519", "sign", &[], "Ed25519 sign"),
    (
        "argon2",
        "Argon2id",
        "hash",
        &[("m_kib", "65536"), ("t", "3"), ("p", "1")],
        "Argon2id 64 MiB t=3",
    ),
];

/// The sizes the table reports for sized primitives: 16 B, 1 KB (the aead
/// suite's 1000 B, the hash suite's 1 KiB), 16 KiB and 1 MiB.
pub const SIZES: [u64; 5] = [16, 1000, 1024, 16_384, 1_048_576];

/// A runtime row's name in the tables: the runtime, and the API when the
/// runtime reaches the primitive through more than one (`php
/// sodium_crypto_aead_aes256gcm`).
pub fn runtime_label(m: &Measurement) -> String {
    match m.params.get("api") {
        Some(api) => format!("{} {api}", m.backend),
        None => m.backend.clone(),
    }
}

/// A runtime row beside its native twin.
#[derive(Debug, Clone)]
pub struct OverheadRow<'a> {
    /// The runtime's measurement.
    pub runtime: &'a Measurement,
    /// The native twin it is divided by.
    pub native: &'a Measurement,
    /// Runtime time / native time.
    pub ratio: Estimate,
    /// Table label of the primitive and operation.
    pub label: &'static str,
}

/// `time = per_call + per_byte * bytes` of a runtime's extra time.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// Runtime name.
    pub runtime: String,
    /// Table label of the primitive.
    pub label: &'static str,
    /// Fixed extra cost per call, ns: (value, lo, hi).
    pub per_call: (f64, f64, f64),
    /// Extra cost per byte, ns: (value, lo, hi).
    pub per_byte: (f64, f64, f64),
    /// Sizes the fit rests on.
    pub sizes: Vec<u64>,
}

fn matches(m: &Measurement, cell: &Cell) -> bool {
    m.suite == cell.0
        && m.primitive.eq_ignore_ascii_case(cell.1)
        && m.operation == cell.2
        && cell
            .3
            .iter()
            .all(|(k, v)| m.params.get(*k).map(String::as_str) == Some(*v))
        && (cell.0 != "argon2" || m.params.get("threads").map(String::as_str) == Some("1"))
        && (!matches!(cell.0, "hash" | "aead") || SIZES.contains(&m.input_bytes))
}

/// Parameters that name an API or a runtime rather than the work done.
const NOT_WORK: [&str; 5] = [RUNTIME_PARAM, "api", "native", "loop", "init"];

/// The work parameters of a row: what must match between a runtime row
/// and its native twin.
pub(crate) fn work(m: &Measurement) -> Vec<(&str, &str)> {
    m.params
        .iter()
        .filter(|(k, _)| !NOT_WORK.contains(&k.as_str()))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// What a runtime row and its native twin share: suite, primitive (any
/// case), operation, size, threads and work parameters.
type TwinKey<'a> = (&'a str, String, &'a str, u64, u32, Vec<(&'a str, &'a str)>);

fn twin_key(m: &Measurement) -> TwinKey<'_> {
    (
        &m.suite,
        m.primitive.to_ascii_lowercase(),
        &m.operation,
        m.input_bytes,
        m.threads,
        work(m),
    )
}

/// The verified native rows by [`twin_key`], in run order: built once, so
/// finding every runtime row's twin is linear in the run.
fn natives(ms: &[Measurement]) -> HashMap<TwinKey<'_>, Vec<&Measurement>> {
    let mut by_key: HashMap<TwinKey<'_>, Vec<&Measurement>> = HashMap::new();
    for n in ms.iter().filter(|n| !is_runtime(n) && verified_anywhere(n)) {
        by_key.entry(twin_key(n)).or_default().push(n);
    }
    by_key
}

/// The native twin of a runtime row: OpenSSL's when measured, else the
/// fastest verified library.
fn native_twin<'a>(
    r: &Measurement,
    natives: &HashMap<TwinKey<'a>, Vec<&'a Measurement>>,
) -> Option<&'a Measurement> {
    let twins = natives.get(&twin_key(r))?;
    twins
        .iter()
        .find(|n| n.backend == "openssl")
        .or_else(|| {
            twins.iter().min_by(|a, b| {
                let t = |m: &Measurement| m.stats.as_ref().map_or(f64::MAX, |s| s.median);
                t(a).total_cmp(&t(b))
            })
        })
        .copied()
}

/// Every runtime row of the overhead cells beside its native twin, in
/// table order (cell, runtime, size).
pub fn overhead_rows(ms: &[Measurement]) -> Vec<OverheadRow<'_>> {
    let mut out = Vec::new();
    let natives = natives(ms);
    for cell in &CELLS {
        let mut rows: Vec<&Measurement> = ms
            .iter()
            .filter(|m| is_runtime(m) && verified_anywhere(m) && matches(m, cell))
            .collect();
        rows.sort_by_key(|m| (runtime_label(m), m.input_bytes));
        for r in rows {
            let Some(native) = native_twin(r, &natives) else {
                continue;
            };
            if let Some(ratio) = time_ratio(r, native) {
                out.push(OverheadRow {
                    runtime: r,
                    native,
                    ratio,
                    label: cell.4,
                });
            }
        }
    }
    out
}

/// Weighted least squares of `y = a + b x`: the coefficient of each
/// point in `a` and in `b` (both are linear in the y's). Each point weighs
/// `1 / half-width^2` of its interval, so the precise small sizes set the
/// per-call cost and the large ones the per-byte cost. `None` with fewer
/// than two distinct x.
fn wls_coefficients(xs: &[f64], ys: &[(f64, f64, f64)]) -> Option<(Vec<f64>, Vec<f64>)> {
    if xs.len() < 2 {
        return None;
    }
    // A point measured exactly still gets a finite weight.
    let floor = ys
        .iter()
        .map(|(v, _, _)| v.abs())
        .fold(0.0_f64, f64::max)
        .max(1.0)
        * 1e-9;
    let w: Vec<f64> = ys
        .iter()
        .map(|(_, lo, hi)| 1.0 / ((hi - lo) / 2.0).max(floor).powi(2))
        .collect();
    let s: f64 = w.iter().sum();
    let sx: f64 = w.iter().zip(xs).map(|(w, x)| w * x).sum();
    let sxx: f64 = w.iter().zip(xs).map(|(w, x)| w * x * x).sum();
    let d = s * sxx - sx * sx;
    if d <= 0.0 || !d.is_finite() {
        return None;
    }
    let ca = w
        .iter()
        .zip(xs)
        .map(|(w, x)| w * (sxx - sx * x) / d)
        .collect();
    let cb = w
        .iter()
        .zip(xs)
        .map(|(w, x)| w * (s * x - sx) / d)
        .collect();
    Some((ca, cb))
}

/// `sum w_i y_i` and its 95% interval, each `y_i`'s distance to its own
/// interval ends propagated in quadrature (independent errors); the side
/// a point pushes depends on the sign of its coefficient.
fn combine(w: &[f64], y: &[(f64, f64, f64)]) -> (f64, f64, f64) {
    let value: f64 = w.iter().zip(y).map(|(wi, (yv, _, _))| wi * yv).sum();
    let (mut down, mut up) = (0.0, 0.0);
    for (wi, (yv, ylo, yhi)) in w.iter().zip(y) {
        let (below, above) = ((yv - ylo).max(0.0), (yhi - yv).max(0.0));
        let (d, u) = if *wi >= 0.0 {
            (wi * below, wi * above)
        } else {
            (-wi * above, -wi * below)
        };
        down += d * d;
        up += u * u;
    }
    (value, value - f64::sqrt(down), value + f64::sqrt(up))
}

/// A row's extra time (runtime - native) and its 95% interval. With a
/// paired ratio `r` the extra time is `native * (r - 1)`: the ratio's
/// interval carries the rounds' pairing, the native median's adds in
/// quadrature. Unpaired, the two medians' half-widths add in quadrature.
fn extra_time(r: &OverheadRow<'_>) -> Option<(f64, f64, f64)> {
    let (rs, ns) = (r.runtime.stats.as_ref()?, r.native.stats.as_ref()?);
    let [nlo, nhi] = ns.ci95;
    let n = ns.median;
    let quad = |a: f64, b: f64| f64::sqrt(a * a + b * b);
    if r.ratio.paired {
        let e = r.ratio;
        let y = n * (e.value - 1.0);
        // How far the native median's interval moves `n * (r - 1)`.
        let (n_down, n_up) = if e.value >= 1.0 {
            ((n - nlo) * (e.value - 1.0), (nhi - n) * (e.value - 1.0))
        } else {
            ((nhi - n) * (1.0 - e.value), (n - nlo) * (1.0 - e.value))
        };
        let down = quad(n * (e.value - e.lo).max(0.0), n_down.max(0.0));
        let up = quad(n * (e.hi - e.value).max(0.0), n_up.max(0.0));
        return Some((y, y - down, y + up));
    }
    let [rlo, rhi] = rs.ci95;
    let y = rs.median - n;
    let down = quad((rs.median - rlo).max(0.0), (nhi - n).max(0.0));
    let up = quad((rhi - rs.median).max(0.0), (n - nlo).max(0.0));
    Some((y, y - down, y + up))
}

/// The per-call + per-byte fit of every runtime and sized primitive with
/// at least two sizes.
pub fn fits(rows: &[OverheadRow<'_>]) -> Vec<Fit> {
    let mut keys: Vec<(String, &'static str)> = Vec::new();
    for r in rows.iter().filter(|r| r.runtime.input_bytes > 0) {
        let k = (runtime_label(r.runtime), r.label);
        if !keys.contains(&k) && matches!(r.runtime.suite.as_str(), "hash" | "aead") {
            keys.push(k);
        }
    }
    let mut out = Vec::new();
    for (runtime, label) in keys {
        let points: Vec<&OverheadRow> = rows
            .iter()
            .filter(|r| runtime_label(r.runtime) == runtime && r.label == label)
            .collect();
        let xs: Vec<f64> = points
            .iter()
            .map(|r| r.runtime.input_bytes as f64)
            .collect();
        let ys: Vec<(f64, f64, f64)> = points.iter().filter_map(|r| extra_time(r)).collect();
        if ys.len() != xs.len() {
            continue;
        }
        let Some((wa, wb)) = wls_coefficients(&xs, &ys) else {
            continue;
        };
        out.push(Fit {
            runtime,
            label,
            per_call: combine(&wa, &ys),
            per_byte: combine(&wb, &ys),
            sizes: points.iter().map(|r| r.runtime.input_bytes).collect(),
        });
    }
    out
}

fn ratio_text(e: &Estimate) -> String {
    format!(
        "{:.2}x [{:.2}, {:.2}]{}",
        e.value,
        e.lo,
        e.hi,
        if e.paired { "" } else { " unpaired" }
    )
}

/// Signed time: `+0.90 us`, `-12 ns`.
fn signed_ns(ns: f64) -> String {
    if ns < 0.0 {
        format!("-{}", format_ns(-ns))
    } else {
        format!("+{}", format_ns(ns))
    }
}

fn per_byte_text(ns: f64) -> String {
    if ns.abs() < 0.0005 {
        "0 ns/B".into()
    } else {
        format!("{ns:+.3} ns/B")
    }
}

/// "python adds 0.90 us per call and 0.012 ns per byte" (or "nothing per
/// byte" when the interval holds zero).
pub fn sentence(f: &Fit) -> String {
    let call = if f.per_call.1 <= 0.0 && f.per_call.2 >= 0.0 {
        format!(
            "no clear cost per call (interval {} .. {})",
            signed_ns(f.per_call.1),
            signed_ns(f.per_call.2)
        )
    } else {
        format!("{} per call", signed_ns(f.per_call.0))
    };
    let byte = if f.per_byte.1 <= 0.0 && f.per_byte.2 >= 0.0 {
        "nothing clear per byte".to_string()
    } else {
        format!("{} per byte", per_byte_text(f.per_byte.0))
    };
    format!("{} adds {call} and {byte} ({})", f.runtime, byte_label(f))
}

fn byte_label(f: &Fit) -> String {
    format!("{}, fit over {} sizes", f.label, f.sizes.len())
}

/// The terminal tables: ratios, then the fit; none when no runtime row
/// has a native twin.
pub fn overhead_tables(ms: &[Measurement]) -> Vec<Table> {
    let rows = overhead_rows(ms);
    if rows.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        "Runtime overhead: runtime time / native time (95% interval)",
        [
            "primitive",
            "runtime",
            "size",
            "runtime",
            "native",
            "native backend",
            "ratio",
        ],
    )
    .right(&[2, 3, 4, 6]);
    for r in &rows {
        let median = |m: &Measurement| m.stats.as_ref().map_or(0.0, |s| s.median);
        t.row([
            r.label.to_string(),
            runtime_label(r.runtime),
            if r.runtime.input_bytes > 0 && r.runtime.suite != "argon2" {
                format_size(r.runtime.input_bytes)
            } else {
                "-".into()
            },
            format_ns(median(r.runtime)),
            format_ns(median(r.native)),
            r.native.backend.clone(),
            ratio_text(&r.ratio),
        ]);
    }
    t.note(
        "native = OpenSSL where it has the cell, else the fastest verified library; \
         'unpaired' = the two were not measured in one group",
    );
    let mut out = vec![t];
    let fits = fits(&rows);
    if !fits.is_empty() {
        let mut f = Table::new(
            "Runtime overhead fit: extra time = per call + per byte x bytes",
            ["runtime", "primitive", "per call", "per byte", "reads"],
        )
        .right(&[2, 3]);
        for x in &fits {
            f.row([
                x.runtime.clone(),
                x.label.to_string(),
                format!(
                    "{} [{}, {}]",
                    signed_ns(x.per_call.0),
                    signed_ns(x.per_call.1),
                    signed_ns(x.per_call.2)
                ),
                format!(
                    "{} [{}, {}]",
                    per_byte_text(x.per_byte.0),
                    per_byte_text(x.per_byte.1),
                    per_byte_text(x.per_byte.2)
                ),
                sentence(x),
            ]);
        }
        f.note(
            "weighted least squares over the sizes measured (weight 1 / interval half-width^2); \
             each size's extra time takes its 95% interval from the paired ratio when the runtime \
             and its native twin were measured together, and the sizes' intervals propagate in \
             quadrature (independent cells)",
        );
        out.push(f);
    }
    out
}

/// A copy of `run` whose candidates are `runtime`'s rows only, presented
/// as libraries: `recommend --runtime NAME` then picks, by the same rules,
/// the best verified choice among what that runtime offers. Each row's
/// backend becomes the runtime and the API it calls (`php openssl_encrypt`).
pub fn runtime_view(run: &cryptobench_core::Run, runtime: &str) -> cryptobench_core::Run {
    let mut view = run.clone();
    view.measurements = run
        .measurements
        .iter()
        .filter(|m| m.params.get(RUNTIME_PARAM).is_some_and(|r| r == runtime))
        .map(|m| {
            let mut m = m.clone();
            m.backend = runtime_label(&m);
            m.params.remove(RUNTIME_PARAM);
            m
        })
        .collect();
    view
}

/// Bars of runtime / native time per cell, one series per runtime (log
/// scale: ratios span from 1 to hundreds).
pub fn overhead_chart(rows: &[OverheadRow<'_>]) -> Option<Chart> {
    if rows.is_empty() {
        return None;
    }
    let mut chart = Chart::bars(
        "Runtime overhead (runtime time / native time; 1 = no overhead)",
        "time ratio",
    );
    chart.log_y = true;
    let category = |r: &OverheadRow| {
        if matches!(r.runtime.suite.as_str(), "hash" | "aead") {
            format!("{} {}", r.label, format_size(r.runtime.input_bytes))
        } else {
            r.label.to_string()
        }
    };
    let mut runtimes: Vec<String> = Vec::new();
    for r in rows {
        let c = category(r);
        if !chart.categories.contains(&c) {
            chart.categories.push(c);
        }
        let name = runtime_label(r.runtime);
        if !runtimes.contains(&name) {
            runtimes.push(name);
        }
    }
    for rt in runtimes {
        chart.series.push(Series {
            name: rt.clone(),
            points: rows
                .iter()
                .filter(|r| runtime_label(r.runtime) == rt)
                .filter_map(|r| {
                    let c = category(r);
                    let i = chart.categories.iter().position(|x| *x == c)?;
                    Some((i as f64, r.ratio.value))
                })
                .collect(),
        });
    }
    Some(chart)
}

/// The report's section: the chart, then the two tables.
pub fn overhead_section(ms: &[Measurement]) -> String {
    let tables = overhead_tables(ms);
    if tables.is_empty() {
        return String::new();
    }
    let rows = overhead_rows(ms);
    // In view: one short line per runtime (its first fit, AES-256-GCM when
    // measured); the fits, the chart and every ratio sit in one collapsed
    // block, so the report's first screens stay short.
    let mut shown: Vec<&str> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let fits = fits(&rows);
    for f in &fits {
        if !shown.contains(&f.runtime.as_str()) {
            shown.push(&f.runtime);
            lines.push(format!(
                "{}: {} per call, {} ({})",
                f.runtime,
                signed_ns(f.per_call.0),
                per_byte_text(f.per_byte.0),
                f.label
            ));
        }
    }
    let mut out = String::from(
        "<section id=\"runtime-overhead\">\n<h2>Runtime overhead</h2>\n<div class=\"card\">",
    );
    out.push_str(&format!(
        "<p class=\"sub\">Extra time over the native library, per call and per byte: {}.</p>\n",
        crate::svg::escape(&lines.join("; "))
    ));
    let mut body = String::new();
    for t in tables.iter().skip(1) {
        body.push_str(&crate::html::table_html(t));
    }
    if let Some(c) = overhead_chart(&rows) {
        body.push_str(&crate::html::chart_html(&c));
    }
    body.push_str(&crate::html::table_html(&tables[0]));
    out.push_str(&crate::html::collapsed(
        &format!(
            "the fits, the chart and every ratio ({} runtime rows beside their native twins)",
            rows.len()
        ),
        &body,
    ));
    out.push_str("</div>\n</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, CaseStatus, Summary};

    fn m(backend: &str, bytes: u64, ns: f64, runtime: bool) -> Measurement {
        let mut spec = CaseSpec::new("aead", "AES-256-GCM", backend, "v", "encrypt")
            .size(bytes)
            .param("tag", 16);
        if runtime {
            spec = spec.param(RUNTIME_PARAM, backend);
        }
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: ns,
            ci95: [ns * 0.99, ns * 1.01],
            ops_per_s: 1e9 / ns,
            ..Default::default()
        });
        m
    }

    #[test]
    fn a_runtime_that_adds_a_fixed_cost_reads_as_per_call_only() {
        let mut ms = Vec::new();
        for b in [16, 1000, 16_384, 1_048_576] {
            let native = 100.0 + 0.5 * b as f64;
            ms.push(m("openssl", b, native, false));
            ms.push(m("rustcrypto", b, native * 0.9, false));
            ms.push(m("python", b, native + 900.0, true));
        }
        let rows = overhead_rows(&ms);
        assert_eq!(rows.len(), 4);
        assert!(rows.iter().all(|r| r.native.backend == "openssl"));
        assert!((rows[0].ratio.value - 1008.0 / 108.0).abs() < 1e-9);
        let fits = fits(&rows);
        assert_eq!(fits.len(), 1);
        let f = &fits[0];
        assert!((f.per_call.0 - 900.0).abs() < 1e-6, "{f:?}");
        assert!(f.per_byte.0.abs() < 1e-9, "{f:?}");
        assert!(f.per_call.1 < 900.0 && f.per_call.2 > 900.0);
        let s = sentence(f);
        assert!(s.starts_with("python adds +900 ns per call"), "{s}");
        let tables = overhead_tables(&ms);
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].rows.len(), 4);
        let chart = overhead_chart(&rows).expect("chart");
        assert_eq!(chart.categories.len(), 4);
        assert_eq!(chart.series.len(), 1);
        let html = overhead_section(&ms);
        assert!(
            html.contains("id=\"runtime-overhead\"") && html.contains("python: +900 ns per call")
        );
    }

    #[test]
    fn the_runtime_view_keeps_one_runtime_as_candidates() {
        let run = cryptobench_core::Run::new(
            "r",
            vec![
                m("openssl", 16, 10.0, false),
                m("python", 16, 100.0, true),
                m("go", 16, 50.0, true),
            ],
        );
        let view = runtime_view(&run, "python");
        assert_eq!(view.measurements.len(), 1);
        assert_eq!(view.measurements[0].backend, "python");
        assert!(!is_runtime(&view.measurements[0]));
        assert!(runtime_view(&run, "java").measurements.is_empty());
    }

    #[test]
    fn a_per_byte_cost_is_found_and_rows_without_a_twin_are_left_out() {
        let mut ms = Vec::new();
        for b in [16, 1000, 16_384] {
            ms.push(m("openssl", b, 100.0 + b as f64, false));
            ms.push(m("go", b, 150.0 + 2.0 * b as f64, true));
        }
        ms.push(m("go", 1_048_576, 1e6, true));
        let rows = overhead_rows(&ms);
        assert_eq!(rows.len(), 3);
        let f = &fits(&rows)[0];
        assert!((f.per_byte.0 - 1.0).abs() < 1e-9, "{f:?}");
        assert!((f.per_call.0 - 50.0).abs() < 1e-6, "{f:?}");
        assert!(overhead_tables(&[m("openssl", 16, 1.0, false)]).is_empty());
    }

    #[test]
    fn sizes_propagate_in_quadrature_and_a_paired_ratio_sets_the_extra_time_interval() {
        // Two sizes: the fit is exact, a = (x2 y1 - x1 y2) / (x2 - x1).
        let (x1, x2) = (16.0, 1024.0);
        let native = |x: f64| 100.0 + x;
        let mut ms = Vec::new();
        for x in [x1, x2] {
            ms.push(m("openssl", x as u64, native(x), false));
            ms.push(m("go", x as u64, native(x) + 400.0, true));
        }
        let (c1, c2) = (x2 / (x2 - x1), -x1 / (x2 - x1));
        // Unpaired: each size's half-width is the medians' (1% each) in quadrature.
        let hw = |x: f64| f64::hypot(0.01 * (native(x) + 400.0), 0.01 * native(x));
        let want = f64::hypot(c1 * hw(x1), c2 * hw(x2));
        let f = &fits(&overhead_rows(&ms))[0];
        assert!((f.per_call.0 - 400.0).abs() < 1e-6, "{f:?}");
        assert!(
            (f.per_call.2 - f.per_call.0 - want).abs() < 1e-6,
            "{f:?} vs {want}"
        );
        assert!(
            (f.per_call.0 - f.per_call.1 - want).abs() < 1e-6,
            "{f:?} vs {want}"
        );
        // Paired with a 0.1% ratio interval: the extra time n (r - 1) takes
        // the ratio's interval and the native median's, in quadrature.
        for i in 0..2 {
            let (rt, nat) = (&ms[2 * i + 1], &ms[2 * i]);
            let r = rt.stats.as_ref().map_or(0.0, |s| s.median)
                / nat.stats.as_ref().map_or(1.0, |s| s.median);
            let pair = cryptobench_core::model::PairedRatio {
                other: nat.case_key(),
                ratio: r,
                ci95: [r * 0.999, r * 1.001],
                rounds: 30,
            };
            ms[2 * i + 1].paired = vec![pair];
        }
        let hw = |x: f64| {
            let r = (native(x) + 400.0) / native(x);
            f64::hypot(native(x) * r * 0.001, 0.01 * native(x) * (r - 1.0))
        };
        let want = f64::hypot(c1 * hw(x1), c2 * hw(x2));
        let rows = overhead_rows(&ms);
        assert!(rows.iter().all(|r| r.ratio.paired));
        let f = &fits(&rows)[0];
        assert!(
            (f.per_call.2 - f.per_call.0 - want).abs() < 1e-6,
            "{f:?} vs {want}"
        );
    }
}
