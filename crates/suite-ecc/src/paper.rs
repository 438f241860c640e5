//! `cryptobench paper ecc-keygen`: seed 000's key-generation experiment
//! (Tables 3-8, 11 and Fig. 1) beside this machine's figures.
//!
//! The published numbers (Tables 3-8 in data/seed000-keygen.tsv, Table 11
//! below) are copied from the seed: M. Duka,
//! "Elliptic-curve cryptography (ECC) and Argon2 algorithm in PHP using
//! OpenSSL and Sodium libraries", IAPGOS 2020, doi:10.35784/iapgos.897
//! (PHP 7.2 with OpenSSL 1.0.2k on a Xeon E5430, FreeBSD 11.1). The seed's
//! Table 6 spells the family "c2tmb"; the curves are OpenSSL's c2tnb ones.
//!
//! The seed timed `openssl_pkey_new` from PHP. When the run has php
//! measurements (the php backend plans one beside each native keygen cell)
//! every table gains PHP columns and the conclusions are judged on the PHP
//! figures too, so the seed's tables are reproduced in its own runtime; a
//! curve this PHP cannot make says "unavailable: reason".

use crate::curves::Family;
use crate::summary::{self, pct, KeygenRow};
use cryptobench_core::paper_method::SeedCounts;
use cryptobench_core::{Error, Measurement, Paper, PaperProfile, RunConfig, Suite, Table, Verdict};

use std::sync::OnceLock;

const TITLE: &str =
    "EC key generation on every curve: seed 000 (Duka 2020), Tables 3-8, 11 and Fig. 1";

/// Where the figures come from.
pub const SOURCE: &str =
    "seed 000 (Duka, IAPGOS 2020, doi:10.35784/iapgos.897), PHP 7.2 + OpenSSL 1.0.2k, Xeon E5430";

/// One published row: curve, key length (bits), average ms per key, ratio %.
pub type SeedRow = (&'static str, u32, f64, f64);

/// Seed Tables 3-8 as printed, one row per line (`table curve bits ms
/// ratio`, tab-separated); data, so the figures sit in one reviewable file.
const PUBLISHED_TSV: &str = include_str!("../data/seed000-keygen.tsv");

/// The rows of seed Table `table`, in the seed's order.
fn published_rows(table: u8) -> &'static [SeedRow] {
    static TABLES: OnceLock<Vec<(u8, Vec<SeedRow>)>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut tables: Vec<(u8, Vec<SeedRow>)> = Vec::new();
        for (n, line) in PUBLISHED_TSV.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let (t, row) = parse_published(line)
                .unwrap_or_else(|| panic!("data/seed000-keygen.tsv line {}: {line:?}", n + 1));
            match tables.iter_mut().find(|(x, _)| *x == t) {
                Some((_, rows)) => rows.push(row),
                None => tables.push((t, vec![row])),
            }
        }
        tables
    });
    tables
        .iter()
        .find(|(t, _)| *t == table)
        .map_or(&[], |(_, rows)| rows.as_slice())
}

fn parse_published(line: &'static str) -> Option<(u8, SeedRow)> {
    let mut f = line.split('\t');
    let table = f.next()?.parse().ok()?;
    let row = (
        f.next()?,
        f.next()?.parse().ok()?,
        f.next()?.parse().ok()?,
        f.next()?.parse().ok()?,
    );
    f.next().is_none().then_some((table, row))
}

/// The seed's tables with their family, in the seed's order.
pub fn seed_tables() -> [(u8, Family, &'static [SeedRow], f64); 6] {
    [
        (3, Family::Brainpool, published_rows(3), 2.38),
        (4, Family::Prime, published_rows(4), 2.03),
        (5, Family::C2pnb, published_rows(5), 3.85),
        (6, Family::C2tnb, published_rows(6), 3.71),
        (7, Family::Secp, published_rows(7), 2.55),
        (8, Family::Sect, published_rows(8), 4.45),
    ]
}

/// Seed Table 11: the most efficient curve(s) per key-length band.
pub const TABLE11: [(&str, &[&str]); 5] = [
    ("160-223", &["prime192v1", "prime192v2", "prime192v3"]),
    ("224-255", &["prime239v1", "prime239v2", "prime239v3"]),
    ("256-383", &["prime256v1"]),
    ("384-511", &["secp384r1"]),
    ("512+", &["brainpoolP512t1"]),
];

/// The php backend's name in measurements.
const PHP: &str = "php";

/// Key generation through PHP's `openssl_pkey_new`, per curve.
pub fn php_keygen_rows(measurements: &[Measurement]) -> Vec<KeygenRow> {
    summary::keygen_rows(measurements, |m| m.backend == PHP)
}

/// Whether the run measured (or tried to measure) key generation from PHP.
fn has_php(measurements: &[Measurement]) -> bool {
    measurements
        .iter()
        .any(|m| m.suite == crate::SUITE && m.backend == PHP && m.operation == "keygen")
}

/// Why PHP has no key-generation figure for `curve`.
fn php_missing(measurements: &[Measurement], curve: &str) -> String {
    measurements
        .iter()
        .find(|m| {
            m.suite == crate::SUITE
                && m.backend == PHP
                && m.operation == "keygen"
                && m.primitive == curve
                && m.status != cryptobench_core::CaseStatus::Measured
        })
        .map(|m| {
            format!(
                "{}: {}",
                m.status.as_str(),
                m.reason.as_deref().unwrap_or("no reason given")
            )
        })
        .unwrap_or_else(|| "-".into())
}

fn seed_row(curve: &str) -> Option<SeedRow> {
    seed_tables()
        .iter()
        .flat_map(|(_, _, rows, _)| rows.iter())
        .find(|r| r.0 == curve)
        .copied()
}

/// What the seed misprints, and how this paper reads it.
const SEED_TYPOS: [&str; 3] = [
    "Table 6 names the family \"C2tmb\" (c2tmb191v1, ...): OpenSSL's c2tnb curves",
    "Table 11 lists the 224-255 group as \"prime239v1 (v2, v2)\": prime239v1, v2 and v3, as its own text says",
    "c2pnb176v1 is timed in Table 5 but absent from Table 2, the seed's list of available curves",
];

/// The seed's experiment: OpenSSL key generation on every curve.
pub struct EccKeygenPaper;

/// Families ranked by average seed ratio over the seed's curves only.
pub fn ranking_here(rows: &[KeygenRow]) -> Vec<(Family, f64)> {
    let on_seed: Vec<KeygenRow> = rows
        .iter()
        .filter(|r| seed_row(&r.curve).is_some())
        .cloned()
        .collect();
    let mut out: Vec<(Family, f64)> = summary::family_averages(&on_seed)
        .into_iter()
        .map(|(f, _, ratio, _)| (f, ratio))
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

/// The seed's family ranking, best first.
pub fn ranking_seed() -> Vec<(Family, f64)> {
    let mut out: Vec<(Family, f64)> = seed_tables().iter().map(|t| (t.1, t.3)).collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

/// A family's average seed ratio with its interval: (family, value, lo,
/// hi), the interval being the average of each curve's ratio at the ends
/// of its 95% interval. Over the seed's curves only, best first.
pub fn family_spans(rows: &[KeygenRow]) -> Vec<(Family, f64, f64, f64)> {
    let mut out: Vec<(Family, f64, f64, f64)> = Family::ALL
        .into_iter()
        .filter_map(|f| {
            let of: Vec<&KeygenRow> = rows
                .iter()
                .filter(|r| r.family == f && seed_row(&r.curve).is_some())
                .collect();
            if of.is_empty() {
                return None;
            }
            let n = of.len() as f64;
            let at = |ns: fn(&KeygenRow) -> f64| {
                of.iter()
                    .map(|r| r.seed_ratio_pct() * ns(r) / r.time_ns.max(1e-9))
                    .sum::<f64>()
                    / n
            };
            let lo = at(|r| {
                if r.ci95[0] > 0.0 {
                    r.ci95[0].min(r.time_ns)
                } else {
                    r.time_ns
                }
            });
            let hi = at(|r| r.ci95[1].max(r.time_ns));
            Some((f, at(|r| r.time_ns), lo, hi))
        })
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.name().cmp(b.0.name())));
    out
}

/// `Prime 1.10 (1.08-1.12) = Secp ... < Brainpool ...`: "=" where the
/// intervals of neighbours overlap (a tie), "<" where they are apart.
pub fn ranking_with_ties(spans: &[(Family, f64, f64, f64)]) -> String {
    let mut s = String::new();
    for (i, x) in spans.iter().enumerate() {
        if i > 0 {
            let prev = spans[i - 1];
            s.push_str(if prev.3 < x.2 { " < " } else { " = " });
        }
        s.push_str(&format!(
            "{} {:.2} ({:.2}-{:.2})",
            x.0.name(),
            x.1,
            x.2,
            x.3
        ));
    }
    s
}

/// A verdict line in this paper's style (`holds here: claim (detail)`).
fn tri(v: Verdict, claim: &str, detail: String) -> String {
    match v {
        Verdict::Holds => format!("holds here: {claim} ({detail})"),
        _ => format!("{v}: {claim}: {detail}"),
    }
}

fn verdict(holds: bool, claim: &str, detail: String) -> String {
    if holds {
        format!("holds here: {claim} ({detail})")
    } else {
        format!("differs here: {claim}: {detail}")
    }
}

/// Spearman rank correlation (no ties correction; enough for a verdict).
fn spearman(xs: &[f64], ys: &[f64]) -> f64 {
    let rank = |v: &[f64]| {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
        let mut r = vec![0.0; v.len()];
        for (pos, &i) in idx.iter().enumerate() {
            r[i] = pos as f64;
        }
        r
    };
    let (rx, ry) = (rank(xs), rank(ys));
    let n = xs.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let d2: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - b).powi(2)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

/// The conclusions of the seed, each checked against `rows`.
pub fn conclusions(rows: &[KeygenRow]) -> Vec<String> {
    let mut out = Vec::new();
    let seed = ranking_seed();
    let names = |r: &[(Family, f64)]| {
        r.iter()
            .map(|(f, _)| f.name())
            .collect::<Vec<_>>()
            .join(" < ")
    };
    // Families are ranked on intervals: two whose intervals overlap are a
    // tie, never ordered by the second decimal.
    let spans = family_spans(rows);
    let span = |f: Family| spans.iter().find(|x| x.0 == f).copied();
    let faster = |a: Family, b: Family| -> Verdict {
        match (span(a), span(b)) {
            (Some(x), Some(y)) if x.3 < y.2 => Verdict::Holds,
            (Some(x), Some(y)) if y.3 < x.2 => Verdict::Differs,
            (Some(_), Some(_)) => Verdict::Inconclusive,
            _ => Verdict::NotMeasured,
        }
    };
    let shown = ranking_with_ties(&spans);
    if !spans.is_empty() {
        let others: Vec<Verdict> = spans
            .iter()
            .filter(|x| x.0 != Family::Prime)
            .map(|x| faster(Family::Prime, x.0))
            .collect();
        let v = if span(Family::Prime).is_none() || others.is_empty() {
            Verdict::NotMeasured
        } else {
            Verdict::all(others)
        };
        out.push(tri(
            v,
            "Prime curves are the most efficient family",
            format!("ranking here, 95% intervals of the average ratio: {shown}"),
        ));
    }
    if !spans.is_empty() {
        out.push(tri(
            Verdict::all([
                faster(Family::Prime, Family::Brainpool),
                faster(Family::Brainpool, Family::Secp),
            ]),
            "Brainpool ranks between Prime and Secp",
            format!("seed {}; here {shown}", names(&seed)),
        ));
    }
    let binary = [Family::C2pnb, Family::C2tnb, Family::Sect];
    let pairs: Vec<Verdict> = spans
        .iter()
        .filter(|x| !binary.contains(&x.0))
        .flat_map(|x| binary.iter().map(move |b| (x.0, *b)))
        .map(|(f, b)| faster(f, b))
        .collect();
    if spans.len() >= 3 && !pairs.is_empty() {
        out.push(tri(
            Verdict::all(pairs),
            "the binary families (C2pnb, C2tnb, Sect) are the least efficient",
            format!("here {shown}"),
        ));
    }
    let on_seed: Vec<&KeygenRow> = rows
        .iter()
        .filter(|r| seed_row(&r.curve).is_some())
        .collect();
    if on_seed.len() >= 3 {
        let bits: Vec<f64> = on_seed.iter().map(|r| f64::from(r.key_bits)).collect();
        let time: Vec<f64> = on_seed.iter().map(|r| r.time_ns).collect();
        let rho = spearman(&bits, &time);
        out.push(verdict(
            rho > 0.5,
            "the larger the key, the longer its generation takes",
            format!("Spearman rank correlation of key length and time {rho:.2}"),
        ));
        if let Some(best) = on_seed
            .iter()
            .min_by(|a, b| a.seed_ratio_pct().total_cmp(&b.seed_ratio_pct()))
        {
            out.push(verdict(
                best.curve == "prime256v1",
                "prime256v1 has the best ratio of all curves (seed 1.11 %)",
                format!(
                    "best here {} at {} %",
                    best.curve,
                    pct(best.seed_ratio_pct())
                ),
            ));
        }
        if let Some(slow) = on_seed
            .iter()
            .max_by(|a, b| a.time_ns.total_cmp(&b.time_ns))
        {
            out.push(verdict(
                slow.curve == "sect571r1",
                "sect571r1 is the slowest curve (seed 55.96 ms)",
                format!(
                    "slowest here {} at {:.3} ms",
                    slow.curve,
                    slow.time_ns / 1e6
                ),
            ));
        }
    }
    out
}

/// The rows of PHP's `openssl_pkey_new`, when the run has php measurements.
type PhpRows<'a> = Option<(&'a [KeygenRow], &'a [Measurement])>;

impl EccKeygenPaper {
    fn curve_table(rows: &[KeygenRow], php: PhpRows) -> Table {
        let mut columns = vec![
            "Table",
            "Curve",
            "Key bits",
            "Seed avg ms",
            "Seed ratio %",
            "Here ms (median)",
            "Here ratio %",
            "Seed / here",
        ];
        if php.is_some() {
            columns.extend(["PHP ms (openssl_pkey_new)", "PHP ratio %", "PHP / native"]);
        }
        let mut t = Table::new(
            "ecc-keygen: seed Tables 3-8 beside this machine (OpenSSL, fastest path)",
            columns,
        )
        .right(&[2, 3, 4, 5, 6, 7, 8, 9, 10]);
        for (no, _, seed_rows, avg) in seed_tables() {
            for &(curve, bits, ms, ratio) in seed_rows {
                let here = rows.iter().find(|r| r.curve == curve);
                let mut row = vec![
                    no.to_string(),
                    curve.to_string(),
                    bits.to_string(),
                    format!("{ms:.2}"),
                    format!("{ratio:.2}"),
                    here.map_or("-".into(), |r| format!("{:.4}", r.time_ns / 1e6)),
                    here.map_or("-".into(), |r| pct(r.seed_ratio_pct())),
                    here.map_or("-".into(), |r| format!("{:.0}x", ms * 1e6 / r.time_ns)),
                ];
                if let Some((php_rows, measurements)) = php {
                    match php_rows.iter().find(|r| r.curve == curve) {
                        Some(p) => {
                            row.push(format!("{:.4}", p.time_ns / 1e6));
                            row.push(pct(p.seed_ratio_pct()));
                            row.push(
                                here.map_or("-".into(), |r| {
                                    format!("{:.2}", p.time_ns / r.time_ns)
                                }),
                            );
                        }
                        None => {
                            row.push(php_missing(measurements, curve));
                            row.push("-".into());
                            row.push("-".into());
                        }
                    }
                }
                t.row(row);
            }
            t.note(format!("Table {no} published average ratio: {avg:.2} %"));
        }
        t.note(format!("Published figures: {SOURCE}."));
        if php.is_some() {
            t.note("PHP: openssl_pkey_new per key, timed inside PHP with hrtime(true), as the seed measured; PHP / native = PHP's time over the native OpenSSL's fastest path.");
        }
        t
    }

    fn ranking_table(rows: &[KeygenRow], php: PhpRows) -> Table {
        let here = ranking_here(rows);
        let seed = ranking_seed();
        let php_ranking = php.map(|(p, _)| ranking_here(p));
        let mut columns = vec![
            "Rank",
            "Seed family",
            "Seed avg ratio %",
            "Here family",
            "Here avg ratio %",
        ];
        if php_ranking.is_some() {
            columns.extend(["PHP family", "PHP avg ratio %"]);
        }
        let mut t = Table::new(
            "ecc-keygen: family ranking then (seed Fig. 1) and now (same curves)",
            columns,
        )
        .right(&[0, 2, 4, 6]);
        for i in 0..seed.len().max(here.len()) {
            let mut row = vec![
                (i + 1).to_string(),
                seed.get(i).map_or("-".into(), |f| f.0.name().to_string()),
                seed.get(i).map_or("-".into(), |f| format!("{:.2}", f.1)),
                here.get(i).map_or("-".into(), |f| f.0.name().to_string()),
                here.get(i).map_or("-".into(), |f| pct(f.1)),
            ];
            if let Some(p) = &php_ranking {
                row.push(p.get(i).map_or("-".into(), |f| f.0.name().to_string()));
                row.push(p.get(i).map_or("-".into(), |f| pct(f.1)));
            }
            t.row(row);
        }
        t.note(
            "Here: averages over the seed's curves only, so the two columns rank the same sets.",
        );
        t.note(format!(
            "Here with 95% intervals (\"=\" marks a tie: overlapping intervals are not ordered): {}",
            ranking_with_ties(&family_spans(rows))
        ));
        for typo in SEED_TYPOS {
            t.note(format!("seed typo corrected here: {typo}"));
        }
        t
    }

    fn band_table(rows: &[KeygenRow], php: PhpRows) -> Table {
        let seed_curves = |rows: &[KeygenRow]| -> Vec<KeygenRow> {
            rows.iter()
                .filter(|r| seed_row(&r.curve).is_some())
                .cloned()
                .collect()
        };
        let winners_seed_set = summary::band_winners(&seed_curves(rows));
        let winners_all = summary::band_winners(rows);
        let winners_php = php.map(|(p, _)| summary::band_winners(&seed_curves(p)));
        let mut columns = vec![
            "Key bits",
            "Seed winner",
            "Here (seed's curves)",
            "Here (all curves)",
            "Verdict",
        ];
        if winners_php.is_some() {
            columns.extend(["PHP (seed's curves)", "PHP verdict"]);
        }
        let mut t = Table::new(
            "ecc-keygen: most efficient curve per band (seed Table 11) then and now",
            columns,
        );
        let verdict_of = |seed: &[&str], name: &Option<String>| match name {
            Some(n) if seed.contains(&n.as_str()) => "holds here".to_string(),
            Some(_) => "differs here".to_string(),
            None => "not measured".to_string(),
        };
        for (i, ((label, seed), ((_, here, _), (_, all, _)))) in TABLE11
            .iter()
            .zip(winners_seed_set.iter().zip(winners_all.iter()))
            .enumerate()
        {
            let here_name = here.as_ref().map(|r| r.curve.clone());
            let mut row = vec![
                label.to_string(),
                seed.join(" / "),
                here_name.clone().unwrap_or_else(|| "-".into()),
                all.as_ref().map_or("-".into(), |r| r.curve.clone()),
                verdict_of(seed, &here_name),
            ];
            if let Some(w) = &winners_php {
                let name = w
                    .get(i)
                    .and_then(|(_, r, _)| r.as_ref().map(|r| r.curve.clone()));
                row.push(name.clone().unwrap_or_else(|| "-".into()));
                row.push(verdict_of(seed, &name));
            }
            t.row(row);
        }
        t.note("Winner = lowest seed ratio (average ms per key / key bits) in the band.");
        t
    }
}

impl Paper for EccKeygenPaper {
    fn profile(&self) -> PaperProfile {
        // Seed 000: "the time to generate 100 keys for each elliptic curve", averaged.
        let counts = SeedCounts::one_call_per_run("100 keys per curve, mean time per key", 100);
        PaperProfile::new("ecc-keygen", TITLE).seed_counts(counts)
    }
    fn suites(&self, _cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        // Table 1 (ECC vs RSA per NIST level) is measured by the pubkey suite.
        let table1 = cryptobench_suite_pubkey::table1::suite();
        Ok(vec![Box::new(crate::EccSuite::seed()), Box::new(table1)])
    }
    fn render(&self, measurements: &[Measurement]) -> Vec<Table> {
        let rows = summary::openssl_keygen_rows(measurements);
        let php_rows = php_keygen_rows(measurements);
        let php = has_php(measurements).then_some((php_rows.as_slice(), measurements));
        let mut verdicts = Self::ranking_table(&rows, php);
        if php.is_some() {
            // The seed's runtime first: its conclusions were drawn from PHP.
            let lines = conclusions(&php_rows);
            if lines.is_empty() {
                verdicts.note(format!(
                    "in PHP: no conclusion can be checked ({} curves measured; prime256v1: {})",
                    php_rows.len(),
                    php_missing(measurements, "prime256v1")
                ));
            }
            for line in lines {
                verdicts.note(format!("in PHP (openssl_pkey_new): {line}"));
            }
        }
        for line in conclusions(&rows) {
            verdicts.note(line);
        }
        let mut tables = vec![
            Self::curve_table(&rows, php),
            verdicts,
            Self::band_table(&rows, php),
        ];
        tables.extend(cryptobench_suite_pubkey::table1::table(measurements));
        tables
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, CaseStatus, Summary};

    fn keygen(curve: &str, backend: &str, family: Family, bits: u32, ms: f64) -> Measurement {
        let mut spec = CaseSpec::new(crate::SUITE, curve, backend, "", "keygen")
            .param("family", family.name())
            .param("key_bits", bits)
            .param("security_bits", bits / 2);
        if backend == PHP {
            spec = spec.param("api", "openssl_pkey_new");
        }
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: ms * 1e6,
            ..Summary::default()
        });
        m
    }

    /// Native OpenSSL on three of the seed's curves; PHP twice as slow on
    /// two of them, and unable to make the third.
    fn run(with_php: bool) -> Vec<Measurement> {
        let curves = [
            ("prime256v1", Family::Prime, 256, 0.05),
            ("secp384r1", Family::Secp, 384, 0.5),
            ("sect571r1", Family::Sect, 571, 5.0),
        ];
        let mut ms: Vec<Measurement> = curves
            .iter()
            .map(|&(c, f, b, t)| keygen(c, "openssl", f, b, t))
            .collect();
        if with_php {
            for &(c, f, b, t) in &curves[..2] {
                ms.push(keygen(c, PHP, f, b, 2.0 * t));
            }
            ms.push(
                CaseSpec::new(crate::SUITE, "sect571r1", PHP, "", "keygen")
                    .param("api", "openssl_pkey_new")
                    .measurement(
                        CaseStatus::Unavailable,
                        Some("openssl_pkey_new refuses sect571r1".into()),
                    ),
            );
        }
        ms
    }

    #[test]
    fn every_published_table_reads_whole() {
        let counts: Vec<(u8, usize)> = seed_tables()
            .iter()
            .map(|(t, _, rows, _)| (*t, rows.len()))
            .collect();
        assert_eq!(counts, [(3, 14), (4, 7), (5, 8), (6, 8), (7, 13), (8, 18)]);
        assert_eq!(seed_row("sect571r1"), Some(("sect571r1", 571, 55.96, 9.80)));
        assert_eq!(parse_published("3\tx\t160\t4.0"), None, "a missing column");
        assert_eq!(
            parse_published("3\tx\t160\t4.0\t2.5\t1"),
            None,
            "an extra column"
        );
    }

    #[test]
    fn php_columns_appear_with_php_measurements() {
        let tables = EccKeygenPaper.render(&run(true));
        let curves = &tables[0];
        assert_eq!(curves.headers.len(), 11);
        assert!(curves.headers[8].starts_with("PHP ms"));
        let row = |c: &str| curves.rows.iter().find(|r| r[1] == c).expect("row").clone();
        assert_eq!(row("prime256v1")[8], "0.1000");
        assert_eq!(row("prime256v1")[10], "2.00");
        assert_eq!(
            row("sect571r1")[8],
            "unavailable: openssl_pkey_new refuses sect571r1"
        );
        assert_eq!(row("brainpoolP512t1")[8], "-");
        let ranking = &tables[1];
        assert_eq!(ranking.headers.len(), 7);
        let notes = ranking.notes.join("\n");
        // Verdicts on the PHP figures (two curves: Prime leads), then the native ones.
        assert!(
            notes.contains(
                "in PHP (openssl_pkey_new): holds here: Prime curves are the most efficient family"
            ),
            "{notes}"
        );
        assert!(notes.contains("\nholds here: Prime curves"), "{notes}");
        assert_eq!(tables[2].headers.len(), 7);
    }

    #[test]
    fn the_seeds_typos_are_printed_where_the_code_corrects_them() {
        let notes: Vec<String> = EccKeygenPaper
            .render(&run(false))
            .into_iter()
            .flat_map(|t| t.notes)
            .collect();
        for needle in [
            "seed typo corrected here: Table 6 names the family \"C2tmb\"",
            "\"prime239v1 (v2, v2)\": prime239v1, v2 and v3",
            "c2pnb176v1 is timed in Table 5 but absent from Table 2",
        ] {
            assert!(
                notes.iter().any(|n| n.contains(needle)),
                "{needle}: {notes:#?}"
            );
        }
    }

    #[test]
    fn no_php_column_without_php_measurements() {
        let tables = EccKeygenPaper.render(&run(false));
        assert_eq!(tables[0].headers.len(), 8);
        assert_eq!(tables[1].headers.len(), 5);
        assert_eq!(tables[2].headers.len(), 5);
        assert!(!tables[1].notes.iter().any(|n| n.contains("in PHP")));
    }

    fn row(curve: &str, family: Family, ms: f64, spread: f64) -> KeygenRow {
        KeygenRow {
            curve: curve.into(),
            family,
            key_bits: 256,
            security_bits: 128,
            time_ns: ms * 1e6,
            mean_ns: ms * 1e6,
            ci95: [ms * 1e6 * (1.0 - spread), ms * 1e6 * (1.0 + spread)],
            path: "openssl".into(),
            labels: vec![],
        }
    }

    #[test]
    fn families_whose_intervals_overlap_are_a_tie() {
        let claim = "Prime curves are the most efficient family";
        let line = |rows: &[KeygenRow]| {
            conclusions(rows)
                .into_iter()
                .find(|l| l.contains(claim))
                .unwrap()
        };
        // 0.39 % against 0.41 %, each +-10%: a tie, whichever is lower.
        for (p, s) in [(1.0, 1.05), (1.05, 1.0)] {
            let tied = [
                row("prime256v1", Family::Prime, p, 0.1),
                row("secp256k1", Family::Secp, s, 0.1),
            ];
            let l = line(&tied);
            assert!(l.starts_with("inconclusive"), "{l}");
            assert!(l.contains(" = "), "{l}");
        }
        let apart = [
            row("prime256v1", Family::Prime, 1.0, 0.01),
            row("secp256k1", Family::Secp, 1.5, 0.01),
        ];
        let l = line(&apart);
        assert!(l.starts_with("holds here"), "{l}");
        assert!(l.contains("Prime 0.39 (0.39-0.39) < Secp"), "{l}");
        let reversed = [
            row("prime256v1", Family::Prime, 1.5, 0.01),
            row("secp256k1", Family::Secp, 1.0, 0.01),
        ];
        assert!(line(&reversed).starts_with("differs here"));
    }
}
