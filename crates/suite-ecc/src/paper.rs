//! `cryptobench paper ecc-keygen`: seed 000's key-generation experiment
//! (Tables 3-8, 11 and Fig. 1) beside this machine's figures.
//!
//! The published numbers below are copied from the seed: M. Duka,
//! "Elliptic-curve cryptography (ECC) and Argon2 algorithm in PHP using
//! OpenSSL and Sodium libraries", IAPGOS 2020, doi:10.35784/iapgos.897
//! (PHP 7.2 with OpenSSL 1.0.2k on a Xeon E5430, FreeBSD 11.1). The seed's
//! Table 6 spells the family "c2tmb"; the curves are OpenSSL's c2tnb ones.

use crate::curves::Family;
use crate::summary::{self, pct, KeygenRow};
use cryptobench_core::{Error, Measurement, Paper, RunConfig, Suite, Table};

/// Where the figures come from.
pub const SOURCE: &str =
    "seed 000 (Duka, IAPGOS 2020, doi:10.35784/iapgos.897), PHP 7.2 + OpenSSL 1.0.2k, Xeon E5430";

/// One published row: curve, key length (bits), average ms per key, ratio %.
pub type SeedRow = (&'static str, u32, f64, f64);

/// Seed Table 3 (Brainpool).
pub const TABLE3: [SeedRow; 14] = [
    ("brainpoolP160r1", 160, 4.03, 2.52),
    ("brainpoolP160t1", 160, 3.95, 2.47),
    ("brainpoolP192r1", 192, 4.38, 2.28),
    ("brainpoolP192t1", 192, 4.30, 2.24),
    ("brainpoolP224r1", 224, 5.26, 2.35),
    ("brainpoolP224t1", 224, 5.10, 2.28),
    ("brainpoolP256r1", 256, 5.68, 2.22),
    ("brainpoolP256t1", 256, 5.50, 2.15),
    ("brainpoolP320r1", 320, 7.36, 2.30),
    ("brainpoolP320t1", 320, 7.01, 2.19),
    ("brainpoolP384r1", 384, 9.70, 2.53),
    ("brainpoolP384t1", 384, 9.17, 2.39),
    ("brainpoolP512r1", 512, 14.40, 2.81),
    ("brainpoolP512t1", 512, 13.46, 2.63),
];

/// Seed Table 4 (Prime).
pub const TABLE4: [SeedRow; 7] = [
    ("prime192v1", 192, 4.20, 2.19),
    ("prime192v2", 192, 4.21, 2.19),
    ("prime192v3", 192, 4.21, 2.19),
    ("prime239v1", 239, 5.18, 2.17),
    ("prime239v2", 239, 5.18, 2.17),
    ("prime239v3", 239, 5.19, 2.17),
    ("prime256v1", 256, 2.85, 1.11),
];

/// Seed Table 5 (C2pnb).
pub const TABLE5: [SeedRow; 8] = [
    ("c2pnb163v1", 163, 5.85, 3.59),
    ("c2pnb163v2", 163, 5.84, 3.58),
    ("c2pnb163v3", 163, 5.83, 3.58),
    ("c2pnb176v1", 176, 5.79, 3.29),
    ("c2pnb208w1", 208, 6.74, 3.24),
    ("c2pnb272w1", 272, 12.15, 4.47),
    ("c2pnb304w1", 304, 13.61, 4.48),
    ("c2pnb368w1", 368, 16.93, 4.60),
];

/// Seed Table 6 (C2tnb; "c2tmb" in the seed).
// 3.14 is a published ratio, not an approximation of pi.
#[allow(clippy::approx_constant)]
pub const TABLE6: [SeedRow; 8] = [
    ("c2tnb191v1", 191, 6.23, 3.26),
    ("c2tnb191v2", 191, 6.19, 3.24),
    ("c2tnb191v3", 191, 6.18, 3.23),
    ("c2tnb239v1", 239, 7.51, 3.14),
    ("c2tnb239v2", 239, 7.49, 3.13),
    ("c2tnb239v3", 239, 7.45, 3.12),
    ("c2tnb359v1", 359, 16.02, 4.46),
    ("c2tnb431r1", 431, 26.38, 6.12),
];

/// Seed Table 7 (Secp).
pub const TABLE7: [SeedRow; 13] = [
    ("secp112r1", 112, 3.29, 2.94),
    ("secp112r2", 112, 3.30, 2.95),
    ("secp128r1", 128, 3.36, 2.62),
    ("secp128r2", 128, 3.38, 2.64),
    ("secp160k1", 160, 4.02, 2.51),
    ("secp160r1", 160, 3.92, 2.45),
    ("secp160r2", 160, 3.92, 2.45),
    ("secp192k1", 192, 4.35, 2.27),
    ("secp224k1", 224, 5.22, 2.33),
    ("secp224r1", 224, 4.99, 2.23),
    ("secp256k1", 256, 5.66, 2.21),
    ("secp384r1", 384, 8.94, 2.33),
    ("secp521r1", 521, 16.92, 3.25),
];

/// Seed Table 8 (Sect).
pub const TABLE8: [SeedRow; 18] = [
    ("sect113r1", 113, 3.48, 3.08),
    ("sect113r2", 113, 3.47, 3.07),
    ("sect131r1", 131, 4.81, 3.67),
    ("sect131r2", 131, 4.88, 3.72),
    ("sect163k1", 163, 5.66, 3.47),
    ("sect163r1", 163, 5.81, 3.57),
    ("sect163r2", 163, 5.83, 3.58),
    ("sect193r1", 193, 6.56, 3.40),
    ("sect193r2", 193, 6.55, 3.39),
    ("sect233k1", 233, 7.14, 3.07),
    ("sect233r1", 233, 7.36, 3.16),
    ("sect239k1", 239, 7.09, 2.97),
    ("sect283k1", 283, 12.24, 4.33),
    ("sect283r1", 283, 12.99, 4.59),
    ("sect409k1", 409, 24.22, 5.92),
    ("sect409r1", 409, 26.57, 6.50),
    ("sect571k1", 571, 50.14, 8.78),
    ("sect571r1", 571, 55.96, 9.80),
];

/// The seed's tables with their family, in the seed's order.
pub fn seed_tables() -> [(u8, Family, &'static [SeedRow], f64); 6] {
    [
        (3, Family::Brainpool, &TABLE3, 2.38),
        (4, Family::Prime, &TABLE4, 2.03),
        (5, Family::C2pnb, &TABLE5, 3.85),
        (6, Family::C2tnb, &TABLE6, 3.71),
        (7, Family::Secp, &TABLE7, 2.55),
        (8, Family::Sect, &TABLE8, 4.45),
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

fn seed_row(curve: &str) -> Option<SeedRow> {
    seed_tables()
        .iter()
        .flat_map(|(_, _, rows, _)| rows.iter())
        .find(|r| r.0 == curve)
        .copied()
}

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
    let here = ranking_here(rows);
    let seed = ranking_seed();
    let names = |r: &[(Family, f64)]| {
        r.iter()
            .map(|(f, _)| f.name())
            .collect::<Vec<_>>()
            .join(" < ")
    };
    if let Some((first, ratio)) = here.first() {
        out.push(verdict(
            *first == Family::Prime,
            "Prime curves are the most efficient family",
            format!(
                "here {} leads with {} %; ranking here {}",
                first.name(),
                pct(*ratio),
                names(&here)
            ),
        ));
    }
    let pos = |f: Family| here.iter().position(|(g, _)| *g == f);
    if let (Some(p), Some(b), Some(s)) = (
        pos(Family::Prime),
        pos(Family::Brainpool),
        pos(Family::Secp),
    ) {
        out.push(verdict(
            p < b && b < s,
            "Brainpool ranks between Prime and Secp",
            format!("seed {}; here {}", names(&seed), names(&here)),
        ));
    }
    let binary = [Family::C2pnb, Family::C2tnb, Family::Sect];
    if here.len() >= 3 {
        let tail: Vec<Family> = here[here.len() - 3..].iter().map(|(f, _)| *f).collect();
        out.push(verdict(
            binary.iter().all(|f| tail.contains(f)),
            "the binary families (C2pnb, C2tnb, Sect) are the least efficient",
            format!(
                "the last three here: {}",
                tail.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
            ),
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

impl EccKeygenPaper {
    fn curve_table(rows: &[KeygenRow]) -> Table {
        let mut t = Table::new(
            "ecc-keygen: seed Tables 3-8 beside this machine (OpenSSL, fastest path)",
            [
                "Table",
                "Curve",
                "Key bits",
                "Seed avg ms",
                "Seed ratio %",
                "Here ms (median)",
                "Here ratio %",
                "Seed / here",
            ],
        )
        .right(&[2, 3, 4, 5, 6, 7]);
        for (no, _, seed_rows, avg) in seed_tables() {
            for &(curve, bits, ms, ratio) in seed_rows {
                let here = rows.iter().find(|r| r.curve == curve);
                t.row([
                    no.to_string(),
                    curve.to_string(),
                    bits.to_string(),
                    format!("{ms:.2}"),
                    format!("{ratio:.2}"),
                    here.map_or("-".into(), |r| format!("{:.4}", r.time_ns / 1e6)),
                    here.map_or("-".into(), |r| pct(r.seed_ratio_pct())),
                    here.map_or("-".into(), |r| format!("{:.0}x", ms * 1e6 / r.time_ns)),
                ]);
            }
            t.note(format!("Table {no} published average ratio: {avg:.2} %"));
        }
        t.note(format!("Published figures: {SOURCE}."));
        t
    }

    fn ranking_table(rows: &[KeygenRow]) -> Table {
        let here = ranking_here(rows);
        let seed = ranking_seed();
        let mut t = Table::new(
            "ecc-keygen: family ranking then (seed Fig. 1) and now (same curves)",
            [
                "Rank",
                "Seed family",
                "Seed avg ratio %",
                "Here family",
                "Here avg ratio %",
            ],
        )
        .right(&[0, 2, 4]);
        for i in 0..seed.len().max(here.len()) {
            t.row([
                (i + 1).to_string(),
                seed.get(i).map_or("-".into(), |f| f.0.name().to_string()),
                seed.get(i).map_or("-".into(), |f| format!("{:.2}", f.1)),
                here.get(i).map_or("-".into(), |f| f.0.name().to_string()),
                here.get(i).map_or("-".into(), |f| pct(f.1)),
            ]);
        }
        t.note(
            "Here: averages over the seed's curves only, so the two columns rank the same sets.",
        );
        t
    }

    fn band_table(rows: &[KeygenRow]) -> Table {
        let on_seed: Vec<KeygenRow> = rows
            .iter()
            .filter(|r| seed_row(&r.curve).is_some())
            .cloned()
            .collect();
        let winners_seed_set = summary::band_winners(&on_seed);
        let winners_all = summary::band_winners(rows);
        let mut t = Table::new(
            "ecc-keygen: most efficient curve per band (seed Table 11) then and now",
            [
                "Key bits",
                "Seed winner",
                "Here (seed's curves)",
                "Here (all curves)",
                "Verdict",
            ],
        );
        for ((label, seed), ((_, here, _), (_, all, _))) in TABLE11
            .iter()
            .zip(winners_seed_set.iter().zip(winners_all.iter()))
        {
            let here_name = here.as_ref().map(|r| r.curve.clone());
            t.row([
                label.to_string(),
                seed.join(" / "),
                here_name.clone().unwrap_or_else(|| "-".into()),
                all.as_ref().map_or("-".into(), |r| r.curve.clone()),
                match &here_name {
                    Some(n) if seed.contains(&n.as_str()) => "holds here".to_string(),
                    Some(_) => "differs here".to_string(),
                    None => "not measured".to_string(),
                },
            ]);
        }
        t.note("Winner = lowest seed ratio (average ms per key / key bits) in the band.");
        t
    }
}

impl Paper for EccKeygenPaper {
    fn name(&self) -> &'static str {
        "ecc-keygen"
    }
    fn title(&self) -> &'static str {
        "EC key generation on every curve: seed 000 (Duka 2020), Tables 3-8, 11 and Fig. 1"
    }
    fn suites(&self, _cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        Ok(vec![Box::new(crate::EccSuite::seed())])
    }
    fn render(&self, measurements: &[Measurement]) -> Vec<Table> {
        let rows = summary::openssl_keygen_rows(measurements);
        let mut verdicts = Self::ranking_table(&rows);
        for line in conclusions(&rows) {
            verdicts.note(line);
        }
        vec![Self::curve_table(&rows), verdicts, Self::band_table(&rows)]
    }
}
