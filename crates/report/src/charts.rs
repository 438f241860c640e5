//! Charts built from the measurements alone, so that every suite gets a
//! figure even before (or besides) drawing its own through `Suite::charts`:
//! a throughput ranking per operation and size, and the ratio of each peer
//! (`openssl speed`, the argon2 CLI, a language runtime) to the matching
//! native case.

use crate::tables;
use cryptobench_core::units::format_size;
use cryptobench_core::{CaseStatus, Chart, Measurement, Series};

/// Most categories one ranking chart shows; the table under it has all.
pub const MAX_CATEGORIES: usize = 40;

pub use cryptobench_core::model::is_caution_label;

/// Whether a measurement is an outside reference rather than a library we
/// call: a peer tool or a language runtime.
pub fn is_peer(m: &Measurement) -> bool {
    m.backend.starts_with("peer:") || cryptobench_core::advice::is_runtime(m)
}

/// Throughput of a measured case: bytes/s for sized operations, else ops/s.
pub fn throughput_value(m: &Measurement) -> Option<f64> {
    let s = m.stats.as_ref()?;
    let v = if m.input_bytes > 0 {
        s.bytes_per_s.unwrap_or(s.ops_per_s * m.input_bytes as f64)
    } else {
        s.ops_per_s
    };
    (m.status == CaseStatus::Measured && v.is_finite() && v > 0.0).then_some(v)
}

/// The cases of one suite for one operation at one input size.
#[derive(Debug, Clone)]
pub struct Group<'a> {
    /// Operation (`digest`, `encrypt`, ...).
    pub operation: String,
    /// Input size in bytes (0 when the operation has none).
    pub input_bytes: u64,
    /// Every case of the group, measured or not, fastest first.
    pub measurements: Vec<&'a Measurement>,
    /// The ranking chart, `None` when no case of the group was measured.
    pub chart: Option<Chart>,
}

/// Splits one suite's measurements by operation and size (in the order
/// they first appear) and draws a ranking for each.
pub fn throughput_groups<'a>(suite: &str, ms: &[&'a Measurement]) -> Vec<Group<'a>> {
    let mut keys: Vec<(String, u64)> = Vec::new();
    for m in ms {
        let k = (m.operation.clone(), m.input_bytes);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let sizes_per_op = |op: &str| keys.iter().filter(|k| k.0 == op).count();
    keys.iter()
        .map(|(op, bytes)| {
            let mut members: Vec<&Measurement> = ms
                .iter()
                .copied()
                .filter(|m| &m.operation == op && m.input_bytes == *bytes)
                .collect();
            members.sort_by(|a, b| {
                let (x, y) = (throughput_value(a), throughput_value(b));
                y.unwrap_or(-1.0).total_cmp(&x.unwrap_or(-1.0))
            });
            let title = if *bytes > 0 && sizes_per_op(op) >= 1 {
                format!("{suite}: {op}, {} per operation", format_size(*bytes))
            } else {
                format!("{suite}: {op}")
            };
            Group {
                chart: ranking_chart(&title, &members),
                operation: op.clone(),
                input_bytes: *bytes,
                measurements: members,
            }
        })
        .collect()
}

/// The category a case is drawn under: the primitive, plus the parameters
/// that tell apart cases of one primitive on one backend (Argon2's memory
/// and lanes, say), the thread count where it varies, and any security
/// caution.
fn category(m: &Measurement, group: &[&Measurement]) -> String {
    let mut c = m.primitive.clone();
    let siblings: Vec<&&Measurement> = group
        .iter()
        .filter(|g| g.primitive == m.primitive && g.backend == m.backend)
        .collect();
    let varying: Vec<String> = m
        .params
        .iter()
        .filter(|(k, _)| !k.contains("command"))
        .filter(|(k, v)| siblings.iter().any(|g| g.params.get(*k) != Some(*v)))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if !varying.is_empty() {
        c.push(' ');
        c.push_str(&varying.join(" "));
    }
    if group.iter().any(|g| g.threads != m.threads) {
        c.push_str(&format!(" ({} thr)", m.threads));
    }
    let caution = m.caution_labels();
    if !caution.is_empty() {
        c.push_str(&format!(" [{}]", caution.join("; ")));
    }
    c
}

/// Grouped bars of throughput: one category per primitive (fastest first),
/// one bar per backend, measured cases only.
fn ranking_chart(title: &str, members: &[&Measurement]) -> Option<Chart> {
    // Libraries only: a runtime's rows stay in the tables and have their
    // own chart (runtime / native time, see `overhead`).
    let measured: Vec<(&Measurement, f64)> = members
        .iter()
        .filter(|m| !cryptobench_core::advice::is_runtime(m))
        .filter_map(|m| throughput_value(m).map(|v| (*m, v)))
        .collect();
    if measured.is_empty() {
        return None;
    }
    let sized = measured.iter().any(|(m, _)| m.input_bytes > 0);
    let mut chart = Chart::bars(
        title,
        if sized {
            "bytes per second (longer is faster)"
        } else {
            "operations per second (longer is faster)"
        },
    );
    let all: Vec<&Measurement> = measured.iter().map(|(m, _)| *m).collect();
    // Categories in order of their best value (members are sorted already).
    let mut cats: Vec<String> = Vec::new();
    for (m, _) in &measured {
        let c = category(m, &all);
        if !cats.contains(&c) {
            cats.push(c);
        }
    }
    let hidden = cats.len().saturating_sub(MAX_CATEGORIES);
    cats.truncate(MAX_CATEGORIES);
    let mut backends: Vec<String> = Vec::new();
    for (m, _) in &measured {
        if !backends.contains(&m.backend) {
            backends.push(m.backend.clone());
        }
    }
    for b in &backends {
        let points = measured
            .iter()
            .filter(|(m, _)| &m.backend == b)
            .filter_map(|(m, v)| {
                let c = category(m, &all);
                cats.iter().position(|x| *x == c).map(|i| (i as f64, *v))
            })
            .collect();
        chart.series.push(Series {
            name: b.clone(),
            points,
        });
    }
    let cautious: Vec<bool> = cats
        .iter()
        .map(|c| {
            measured
                .iter()
                .filter(|(m, _)| category(m, &all) == *c)
                .any(|(m, _)| m.labels.iter().any(|l| is_caution_label(l)))
        })
        .collect();
    if cautious.iter().any(|c| *c) {
        chart.marked = (0..cats.len()).filter(|&i| !cautious[i]).collect();
        chart.notes.push(
            "Shaded rows carry no security caveat; [bracketed] labels mark insecure or legacy choices."
                .into(),
        );
    }
    chart.log_y_when_wide(measured.iter().map(|(_, v)| *v));
    if hidden > 0 {
        chart.notes.push(format!(
            "{hidden} slower categories are only in the table below."
        ));
    }
    chart.categories = cats;
    Some(chart)
}

/// A peer measurement beside the native case it is compared with.
#[derive(Debug, Clone)]
pub struct PeerRatio<'a> {
    /// The peer (`peer:openssl-speed`, `peer:argon2-cli`, `php`).
    pub peer: &'a Measurement,
    /// The matching native case, when one was measured.
    pub native: Option<&'a Measurement>,
    /// What the ratio means: `ours / peer` or `runtime / native`.
    pub meaning: &'static str,
    /// Speed ratio as [`PeerRatio::meaning`] says (> 1: the first is faster).
    pub ratio: Option<f64>,
    /// Why there is no ratio.
    pub missing: Option<String>,
}

/// Pairs every peer case with its native counterpart: same suite,
/// primitive, operation, size and threads (and parameters where the peer
/// has any). The native side is `openssl` for `openssl speed`, else the
/// fastest library.
pub fn peer_ratios(ms: &[Measurement]) -> Vec<PeerRatio<'_>> {
    let mut out = Vec::new();
    for p in ms.iter().filter(|m| is_peer(m)) {
        let runtime = cryptobench_core::advice::is_runtime(p);
        let meaning = if runtime {
            "runtime / native"
        } else {
            "ours / peer"
        };
        let natives: Vec<&Measurement> = ms
            .iter()
            .filter(|n| {
                !is_peer(n)
                    && n.suite == p.suite
                    && n.primitive == p.primitive
                    && n.operation == p.operation
                    && n.input_bytes == p.input_bytes
                    && n.threads == p.threads
                    && throughput_value(n).is_some()
            })
            .filter(|n| p.backend != "peer:openssl-speed" || n.backend == "openssl")
            .collect();
        // A runtime row carries its name and no native API: compare the
        // parameters that describe the work.
        let key = |m: &Measurement| {
            if runtime {
                format!("{:?}", crate::overhead::work(m))
            } else {
                tables::params(m)
            }
        };
        let pk = key(p);
        let exact: Vec<&Measurement> = natives.iter().copied().filter(|n| key(n) == pk).collect();
        let pool = if exact.is_empty() && pk.is_empty() {
            natives
        } else {
            exact
        };
        let native = pool.into_iter().max_by(|a, b| {
            throughput_value(a)
                .unwrap_or(0.0)
                .total_cmp(&throughput_value(b).unwrap_or(0.0))
        });
        let (ratio, missing) = match (throughput_value(p), native.and_then(throughput_value)) {
            (Some(pv), Some(nv)) => (Some(if runtime { pv / nv } else { nv / pv }), None),
            (None, _) => (None, Some(tables::status(p))),
            (_, None) => (None, Some("no matching native case was measured".into())),
        };
        out.push(PeerRatio {
            peer: p,
            native,
            meaning,
            ratio,
            missing,
        });
    }
    out
}

/// Bars of every peer tool's ratio; one series per meaning. Runtime rows
/// are drawn by the runtime overhead chart instead (one bar per runtime
/// row here made the page several screens taller); their ratios stay in
/// the table.
pub fn peer_ratio_chart(ratios: &[PeerRatio<'_>]) -> Option<Chart> {
    let with: Vec<&PeerRatio> = ratios
        .iter()
        .filter(|r| r.ratio.is_some() && !cryptobench_core::advice::is_runtime(r.peer))
        .collect();
    if with.is_empty() {
        return None;
    }
    let mut chart = Chart::bars(
        "Peer ratios (speed; 1 = same speed)",
        "speed ratio (> 1: the first named is faster)",
    );
    let mut meanings: Vec<&str> = Vec::new();
    for r in &with {
        if !meanings.contains(&r.meaning) {
            meanings.push(r.meaning);
        }
    }
    for r in &with {
        let p = r.peer;
        let size = if p.input_bytes > 0 {
            format!(" {}", format_size(p.input_bytes))
        } else {
            String::new()
        };
        let pk = tables::params(p);
        chart.categories.push(format!(
            "{} {}{}{} vs {}",
            p.primitive,
            p.operation,
            size,
            if pk.is_empty() {
                String::new()
            } else {
                format!(" {pk}")
            },
            p.backend.trim_start_matches("peer:")
        ));
    }
    for meaning in meanings {
        chart.series.push(Series {
            name: meaning.to_string(),
            points: with
                .iter()
                .enumerate()
                .filter(|(_, r)| r.meaning == meaning)
                .map(|(i, r)| (i as f64, r.ratio.unwrap_or(f64::NAN)))
                .collect(),
        });
    }
    Some(chart)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn m(primitive: &str, backend: &str, bytes: u64, ops: f64) -> Measurement {
        let mut m = CaseSpec::new("cipher", primitive, backend, "v", "encrypt")
            .size(bytes)
            .measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: 1e9 / ops,
            ops_per_s: ops,
            bytes_per_s: (bytes > 0).then_some(ops * bytes as f64),
            ..Default::default()
        });
        m
    }

    /// `m` as a runtime's row.
    fn runtime(mut m: Measurement) -> Measurement {
        let name = m.backend.clone();
        m.params
            .insert(cryptobench_core::advice::RUNTIME_PARAM.into(), name);
        m
    }

    #[test]
    fn rankings_sort_fastest_first_and_mark_secure_categories() {
        let mut des = m("DES-EDE3-CBC", "openssl", 1024, 10.0);
        des.labels.push("64-bit block (Sweet32)".into());
        let ms = [
            des,
            m("AES-128-CTR", "rustcrypto", 1024, 500.0),
            m("AES-128-CTR", "openssl", 1024, 1000.0),
        ];
        let refs: Vec<&Measurement> = ms.iter().collect();
        let g = throughput_groups("cipher", &refs);
        assert_eq!(g.len(), 1);
        let c = g[0].chart.as_ref().unwrap();
        assert_eq!(c.categories[0], "AES-128-CTR");
        assert!(c.categories[1].contains("[64-bit block (Sweet32)]"));
        assert_eq!(c.marked, vec![0]);
        assert_eq!(c.series.len(), 2);
        assert_eq!(g[0].measurements[0].backend, "openssl");
    }

    #[test]
    fn peer_ratios_match_openssl_and_runtime_directions() {
        let ms = vec![
            m("AES-128-GCM", "openssl", 16384, 100.0),
            m("AES-128-GCM", "rustcrypto", 16384, 400.0),
            m("AES-128-GCM", "peer:openssl-speed", 16384, 50.0),
            runtime(m("AES-128-GCM", "python", 16384, 25.0)),
            m("AES-256-GCM", "peer:openssl-speed", 16384, 50.0),
        ];
        let r = peer_ratios(&ms);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].native.unwrap().backend, "openssl");
        assert!((r[0].ratio.unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(r[1].native.unwrap().backend, "rustcrypto");
        assert!((r[1].ratio.unwrap() - 25.0 / 400.0).abs() < 1e-9);
        assert!(r[2].ratio.is_none() && r[2].missing.is_some());
        let c = peer_ratio_chart(&r).unwrap();
        assert_eq!(c.categories.len(), 1, "runtime rows have their own chart");
        assert_eq!(c.series.len(), 1);
    }
}
