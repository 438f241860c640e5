//! The generic tables every run gets: one per suite with every case, the run
//! header, and the comparison of two runs.

pub use crate::compare::{
    compare_full, compare_runs, comparison_notes, comparison_table, ComparedCase, RunComparison,
};
use cryptobench_core::units::{
    format_ns, format_ops, format_per_s, format_rate, format_size, TimeUnit,
};
use cryptobench_core::{CaseStatus, Measurement, Run, Table};
use std::collections::HashMap;

/// The parameters of a case as `k=v` pairs, without the peer's command line.
pub(crate) fn params(m: &Measurement) -> String {
    m.params
        .iter()
        .filter(|(k, _)| !k.contains("command"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The parameters of a case not already named in its `variant`.
fn params_besides(m: &Measurement, variant: &str) -> String {
    let named: Vec<&str> = variant.split(' ').collect();
    params(m)
        .split(' ')
        .filter(|p| !p.is_empty() && !named.contains(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The headers of a table with one row per case across runs: the six
/// columns that name the case, then `rest`.
pub fn case_headers(rest: &[&str]) -> Vec<String> {
    ["suite", "primitive", "backend", "op", "size", "variant"]
        .iter()
        .chain(rest)
        .map(|h| h.to_string())
        .collect()
}

/// For each measurement, the parameters that tell it apart from another
/// with the same suite, primitive, backend, operation and size (`t=3 p=4`
/// beside `t=1 p=1`; `mode=threads threads=4` beside `mode=serial`), and
/// the engine's thread count when that differs. Empty when nothing does.
pub fn variants(ms: &[&Measurement]) -> Vec<String> {
    type Group<'a> = (&'a str, &'a str, &'a str, &'a str, u64);
    fn group(m: &Measurement) -> Group<'_> {
        (
            &m.suite,
            &m.primitive,
            &m.backend,
            &m.operation,
            m.input_bytes,
        )
    }
    // One pass per group, not per pair: what varies inside a group is what
    // tells its members apart (a key that differs anywhere in the group
    // differs for every member from some other).
    let mut members: HashMap<Group<'_>, Vec<usize>> = HashMap::new();
    for (i, m) in ms.iter().enumerate() {
        members.entry(group(m)).or_default().push(i);
    }
    let mut out = vec![String::new(); ms.len()];
    for idx in members.values() {
        let mut keys: Vec<&String> = idx
            .iter()
            .flat_map(|&i| ms[i].params.keys())
            .filter(|k| !k.contains("command"))
            .collect();
        keys.sort();
        keys.dedup();
        let first = ms[idx[0]];
        let varying: Vec<&String> = keys
            .into_iter()
            .filter(|k| {
                idx.iter()
                    .any(|&i| ms[i].params.get(*k) != first.params.get(*k))
            })
            .collect();
        let threads_vary = idx.iter().any(|&i| ms[i].threads != first.threads);
        for &i in idx {
            let m = ms[i];
            let mut parts: Vec<String> = varying
                .iter()
                .filter_map(|k| Some(format!("{k}={}", m.params.get(*k)?)))
                .collect();
            if threads_vary {
                parts.push(format!("thr={}", m.threads));
            }
            out[i] = parts.join(" ");
        }
    }
    out
}

/// Whether a case's input is counted in message characters rather than
/// bytes (EC-ElGamal encrypts one point per character): such a case says
/// `chars`, and cycles per byte mean nothing for it.
pub fn counts_characters(m: &Measurement) -> bool {
    m.param("encoding").is_some()
}

/// Size cell: `1 KiB`, `256 chars`, `-` when the operation has no input.
pub fn size(m: &Measurement) -> String {
    if m.input_bytes == 0 {
        "-".into()
    } else if counts_characters(m) {
        format!("{} chars", m.input_bytes)
    } else {
        format_size(m.input_bytes)
    }
}

/// Throughput cell: bytes/s (or characters/s) for sized operations,
/// operations/s otherwise, always with its unit.
pub fn throughput(m: &Measurement) -> String {
    match &m.stats {
        Some(s) => match s.bytes_per_s {
            Some(b) if counts_characters(m) => format_per_s(b, "chars"),
            Some(b) => format_rate(b),
            None => format_ops(s.ops_per_s),
        },
        None => String::new(),
    }
}

/// Cycles-per-byte cell; empty where the input is not bytes.
pub fn cycles_per_byte(m: &Measurement) -> String {
    match m.stats.as_ref().and_then(|s| s.cycles_per_byte) {
        Some(c) if !counts_characters(m) => format!("{c:.2}"),
        _ => String::new(),
    }
}

/// Status cell: `ok`, `FAILED: reason`, `skipped: reason`, ...
pub fn status(m: &Measurement) -> String {
    match m.status {
        CaseStatus::Measured if m.warnings.is_empty() => "ok".into(),
        CaseStatus::Measured => format!("ok ({} warning(s))", m.warnings.len()),
        s => format!("{}: {}", s.as_str(), m.reason.as_deref().unwrap_or("")),
    }
}

/// One table per suite, cases grouped by operation and size and sorted
/// fastest first within each group.
pub fn suite_tables(measurements: &[Measurement]) -> Vec<Table> {
    let mut suites: Vec<&str> = Vec::new();
    for m in measurements {
        if !suites.contains(&m.suite.as_str()) {
            suites.push(&m.suite);
        }
    }
    suites
        .into_iter()
        .map(|suite| {
            let mut ms: Vec<&Measurement> =
                measurements.iter().filter(|m| m.suite == suite).collect();
            ms.sort_by(|a, b| {
                (a.operation.as_str(), a.input_bytes, a.threads)
                    .cmp(&(b.operation.as_str(), b.input_bytes, b.threads))
                    .then_with(|| a.cmp_median(b))
            });
            let unit = TimeUnit::for_column(ms.iter().filter_map(|m| m.median_ns()));
            let median_header = format!("median ({})", unit.symbol());
            let ci_header = format!("95% CI ({})", unit.symbol());
            let mut t = Table::new(
                format!("Suite {suite}"),
                [
                    "primitive",
                    "backend",
                    "op",
                    "size",
                    "thr",
                    "variant",
                    "params",
                    median_header.as_str(),
                    ci_header.as_str(),
                    "throughput",
                    "cyc/B",
                    "status",
                    "labels",
                ],
            )
            .right(&[3, 4, 7, 8, 9, 10]);
            // What tells two rows apart stays when the table is narrowed;
            // the other parameters are the first to go.
            let variants = variants(&ms);
            for (m, variant) in ms.iter().copied().zip(variants) {
                let (median, ci) = match &m.stats {
                    Some(s) => (
                        unit.format_bare(s.median),
                        format!(
                            "{} .. {}",
                            unit.format_bare(s.ci95[0]),
                            unit.format_bare(s.ci95[1])
                        ),
                    ),
                    None => Default::default(),
                };
                t.row([
                    m.primitive.clone(),
                    m.backend.clone(),
                    m.operation.clone(),
                    size(m),
                    m.threads.to_string(),
                    variant.clone(),
                    params_besides(m, &variant),
                    median,
                    ci,
                    throughput(m),
                    cycles_per_byte(m),
                    status(m),
                    m.labels.join(", "),
                ]);
            }
            t
        })
        .collect()
}

/// Lines describing a run: id, status, times, machine, backends.
pub fn run_header(run: &Run) -> String {
    let f = &run.machine;
    let line = |text: String| crate::text::paragraph(&text, "", "    ");
    let mut s = line(format!(
        "run {}  status {}  started {}{}",
        run.id,
        run.status.as_str(),
        run.started_at,
        run.finished_at
            .as_ref()
            .map(|t| format!("  finished {t}"))
            .unwrap_or_default()
    ));
    s.push_str(&line(format!(
        "machine: {} ({} cores), {}; kernel {}; governor {}; TSC {}; address layout {}; one-core cases on {}",
        f.cpu_model,
        f.cores,
        f.os,
        f.kernel,
        f.governor.as_deref().unwrap_or("n/a"),
        f.tsc_hz
            .map(|h| format!("{:.3} GHz", h / 1e9))
            .unwrap_or_else(|| "n/a".into()),
        f.address_layout.as_deref().unwrap_or("n/a"),
        f.measuring_cpu.as_deref().unwrap_or("n/a")
    )));
    s.push_str(&line(format!(
        "cpu flags: {}{}",
        f.cpu_flags.join(" "),
        if f.cpu_flags_missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", f.cpu_flags_missing.join(" "))
        }
    )));
    let backends: Vec<String> = f
        .backends
        .iter()
        .map(|b| format!("{} = {}", b.name, b.version))
        .collect();
    s.push_str(&line(format!("backends: {}", backends.join("; "))));
    s.push_str(&line(format!(
        "cryptobench {} ({})",
        f.tool_version, f.git_revision
    )));
    if let Some(noise) = noise_line(run) {
        s.push_str(&line(noise));
    }
    s
}

/// How noisy the machine was while the run measured, from the floors
/// `compare` will hold its cases to: the canary's (how far the machine's
/// fast end moved between moments) and the moment floor (how far one-core
/// cases moved against the other libraries in their rounds). Neither
/// other processes nor steal time show a host busy with other VMs; these
/// do. `None` for a run without either.
fn noise_line(run: &Run) -> Option<String> {
    let canary = run.noise_floor();
    let moment = crate::compare::moment_floor(run);
    let parts: Vec<String> = [
        canary.map(|f| {
            format!(
                "the machine's fast end (the canary) moved {:.1}%",
                f * 100.0
            )
        }),
        moment.map(|f| {
            format!(
                "one-core cases moved {:.1}% against the other libraries in their rounds",
                f * 100.0
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let largest = canary.into_iter().chain(moment).reduce(f64::max)?;
    let noisy = largest > crate::compare::NOISY_FLOOR;
    let than = if parts.len() > 1 {
        "the larger of these"
    } else {
        "that"
    };
    Some(format!(
        "{}between moments of this run {}: a change between runs smaller than {than} is not told from noise{}",
        if noisy { "noisy machine: " } else { "noise: " },
        parts.join(" and "),
        if noisy {
            "; measure again when `cryptobench noise` reads a lower unpaired floor"
        } else {
            ""
        }
    ))
}

/// A size cell, `-` when the operation has none.
pub(crate) fn status_free_size(bytes: u64) -> String {
    if bytes > 0 {
        format_size(bytes)
    } else {
        "-".into()
    }
}

/// One host of a fleet as a column heading: `r1 (hostname)`.
fn host_label(rank: usize, run: &Run) -> String {
    format!("r{rank} ({})", run.machine.hostname)
}

/// The runs of one fleet side by side: one row per case measured on any
/// host, each host's median time, and its time relative to rank 0's
/// (above 1 = slower than rank 0). A case a host did not measure shows `-`.
pub fn fleet_table(runs: &[Run]) -> Table {
    let fleet = runs
        .first()
        .and_then(|r| r.fleet.clone())
        .unwrap_or_else(|| "fleet".into());
    let mut headers: Vec<String> = ["suite", "primitive", "backend", "op", "size"]
        .map(String::from)
        .to_vec();
    for (rank, run) in runs.iter().enumerate() {
        headers.push(host_label(rank, run));
        if rank > 0 {
            headers.push(format!("r{rank}/r0"));
        }
    }
    let mut t = Table::new(
        format!(
            "Fleet {fleet}: {} hosts, median time per operation; r/r0 = time ratio to rank 0",
            runs.len()
        ),
        headers,
    );
    let right: Vec<usize> = (4..t.headers.len()).collect();
    t = t.right(&right);
    let mut keys: Vec<(String, &Measurement)> = Vec::new();
    for run in runs {
        for m in run
            .measurements
            .iter()
            .filter(|m| m.status == CaseStatus::Measured)
        {
            let key = m.case_key();
            if !keys.iter().any(|(k, _)| *k == key) {
                keys.push((key, m));
            }
        }
    }
    for (key, first) in keys {
        let medians: Vec<Option<f64>> = runs
            .iter()
            .map(|run| {
                run.measurements
                    .iter()
                    .find(|m| m.status == CaseStatus::Measured && m.case_key() == key)
                    .and_then(Measurement::median_ns)
            })
            .collect();
        let mut row = vec![
            first.suite.clone(),
            first.primitive.clone(),
            first.backend.clone(),
            first.operation.clone(),
            if first.input_bytes > 0 {
                format_size(first.input_bytes)
            } else {
                "-".into()
            },
        ];
        for (rank, median) in medians.iter().enumerate() {
            row.push(median.map_or("-".into(), format_ns));
            if rank > 0 {
                row.push(match (medians[0], median) {
                    (Some(base), Some(here)) if base > 0.0 => format!("{:.3}", here / base),
                    _ => "-".into(),
                });
            }
        }
        t.row(row);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::CaseSpec;

    fn measured(primitive: &str, samples: &[f64]) -> Measurement {
        let mut m = CaseSpec::new("hash", primitive, "openssl", "OpenSSL 3", "digest")
            .size(1024)
            .measurement(CaseStatus::Measured, None);
        m.samples_ns = samples.to_vec();
        m.stats = Some(cryptobench_engine_free_summary(samples));
        m
    }

    fn cryptobench_engine_free_summary(samples: &[f64]) -> cryptobench_core::Summary {
        let s = cryptobench_stats::summarize(samples, 1);
        cryptobench_core::Summary {
            median: s.median,
            ci95: [s.ci95.0, s.ci95.1],
            ops_per_s: 1e9 / s.median,
            bytes_per_s: Some(1024.0 * 1e9 / s.median),
            ..Default::default()
        }
    }

    fn run(id: &str, ms: Vec<Measurement>) -> Run {
        Run::new(id, ms)
    }

    #[test]
    fn suite_tables_sort_fastest_first() {
        let ms = vec![
            measured("slow", &[300.0, 300.0]),
            measured("fast", &[100.0, 100.0]),
        ];
        let t = &suite_tables(&ms)[0];
        assert_eq!(t.rows[0][0], "fast");
        assert_eq!(t.rows[1][0], "slow");
        assert_eq!(t.rows[0][9], "10.2 GB/s");
    }

    #[test]
    fn suite_tables_keep_what_tells_rows_apart_beside_the_other_params() {
        let mut serial = measured("toy64", &[100.0, 100.0]);
        serial.params.insert("mode".into(), "serial".into());
        serial.params.insert("encoding".into(), "char".into());
        let mut threads = serial.clone();
        threads.params.insert("mode".into(), "threads".into());
        let t = &suite_tables(&[serial, threads])[0];
        assert_eq!(
            (t.headers[5].as_str(), t.headers[6].as_str()),
            ("variant", "params")
        );
        assert_eq!(t.rows[0][5], "mode=serial");
        assert_eq!(t.rows[0][6], "encoding=char");
        // Narrowed, the table still tells serial from threads.
        let narrow = crate::text::render_within(t, false, Some(60));
        assert!(
            narrow.contains("mode=threads") && narrow.contains("mode=serial"),
            "{narrow}"
        );
    }

    #[test]
    fn variants_name_only_the_parameters_that_tell_cases_apart() {
        let argon = |t: u32, p: u32| {
            CaseSpec::new("argon2", "Argon2id", "libargon2", "20171227", "hash")
                .size(16 << 20)
                .param("m_kib", 16384)
                .param("t", t)
                .param("p", p)
                .measurement(CaseStatus::Measured, None)
        };
        let (a, b, c) = (argon(1, 1), argon(3, 4), argon(3, 1));
        let other = measured("SHA-256", &[100.0]);
        let v = variants(&[&a, &b, &c, &other]);
        assert_eq!(v, ["p=1 t=1", "p=4 t=3", "p=1 t=3", ""]);
        let mut threads = argon(1, 1);
        threads.threads = 4;
        assert_eq!(variants(&[&a, &threads]), ["thr=1", "thr=4"]);
    }

    #[test]
    fn fleet_table_puts_hosts_side_by_side_with_ratios_to_rank_zero() {
        let base: Vec<f64> = vec![100.0; 5];
        let slower: Vec<f64> = vec![150.0; 5];
        let mut r0 = run(
            "x-r0",
            vec![measured("SHA-256", &base), measured("SHA-512", &base)],
        );
        r0.fleet = Some("fleet-x-h2".into());
        r0.machine.hostname = "alpha".into();
        let mut r1 = run("x-r1", vec![measured("SHA-256", &slower)]);
        r1.machine.hostname = "beta".into();
        let t = fleet_table(&[r0, r1]);
        assert!(t.title.contains("fleet-x-h2"), "{}", t.title);
        assert_eq!(t.headers[5..], ["r0 (alpha)", "r1 (beta)", "r1/r0"]);
        assert_eq!(t.rows.len(), 2);
        let sha256 = t.rows.iter().find(|r| r[1] == "SHA-256").unwrap();
        assert_eq!(sha256[7], "1.500");
        let sha512 = t.rows.iter().find(|r| r[1] == "SHA-512").unwrap();
        assert_eq!((sha512[6].as_str(), sha512[7].as_str()), ("-", "-"));
    }
}
