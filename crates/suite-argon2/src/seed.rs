//! Seed 000's published Argon2 figures and the verdicts drawn from them.
//!
//! Source: M. Duka, "Elliptic-curve cryptography (ECC) and Argon2 algorithm
//! in PHP using OpenSSL and Sodium libraries", IAPGOS 2020,
//! doi:10.35784/iapgos.897, Tables 9 and 10 (Intel Xeon E5430, 8 CPUs,
//! FreeBSD 11.1, PHP 7.2, libsodium 1.0.16). Table 9 ran the `argon2` CLI
//! ("console level"), Table 10 PHP's Argon2i; memory is given in MB and was
//! passed as 2^N KiB, so "16 MB" is 16 MiB here.
//!
//! Table 10 was measured from PHP. When the run has php measurements (the
//! php backend plans `password_hash` and `sodium_crypto_pwhash` beside each
//! native point) Table 10 gains PHP columns (`password_hash`, the function
//! whose `threads` option the seed varied) and the conclusions are judged
//! on the PHP figures too, so the table is reproduced in its own runtime;
//! a point PHP cannot compute says "unavailable: reason".

use crate::engines::{CLI, LIBARGON2};
use crate::params::Variant;
use crate::report::Index;
use cryptobench_core::{CaseStatus, Measurement, Table};
use std::collections::BTreeMap;

/// The php backend's name in measurements.
const PHP: &str = "php";
/// Table 10's PHP function: Argon2i with a `threads` option (lanes = threads).
const PHP_API: &str = "password_hash";

/// (variant, m KiB, passes, lanes) of a point measured with lanes = threads.
type PhpPoint = (String, u32, u32, u32);

/// PHP's `password_hash` figures by point, and why a point has none.
#[derive(Debug, Default)]
pub struct PhpFigures {
    times: BTreeMap<PhpPoint, f64>,
    missing: BTreeMap<PhpPoint, String>,
    /// Whether the run has any php Argon2 measurement.
    pub present: bool,
}

impl PhpFigures {
    /// Collects the php `password_hash` cells of `measurements`.
    pub fn new(measurements: &[Measurement]) -> Self {
        let mut out = Self::default();
        let num = |m: &Measurement, k: &str| m.param(k).and_then(|v| v.parse::<u32>().ok());
        for m in measurements {
            if m.suite != crate::cases::SUITE || m.backend != PHP || m.operation != "hash" {
                continue;
            }
            out.present = true;
            if m.param("api") != Some(PHP_API) {
                continue;
            }
            let (Some(kib), Some(t), Some(p)) = (num(m, "m_kib"), num(m, "t"), num(m, "p")) else {
                continue;
            };
            if num(m, "threads").is_some_and(|th| th != p) {
                continue;
            }
            let point = (m.primitive.clone(), kib, t, p);
            match (&m.stats, m.status) {
                (Some(stats), CaseStatus::Measured) => {
                    out.times.insert(point, stats.median);
                }
                (_, status) => {
                    out.missing.insert(
                        point,
                        format!(
                            "{}: {}",
                            status.as_str(),
                            m.reason.as_deref().unwrap_or("no reason given")
                        ),
                    );
                }
            }
        }
        out
    }

    /// Median ns of `password_hash` at a point.
    pub fn get(&self, v: Variant, m_kib: u32, t: u32, p: u32) -> Option<f64> {
        self.times
            .get(&(v.name().to_string(), m_kib, t, p))
            .copied()
    }

    /// Seconds, or why PHP has none ("-" when not planned).
    fn cell(&self, v: Variant, m_kib: u32, t: u32, p: u32) -> String {
        let point = (v.name().to_string(), m_kib, t, p);
        match (self.times.get(&point), self.missing.get(&point)) {
            (Some(ns), _) => format!("{:.3}", ns / 1e9),
            (None, Some(why)) => why.clone(),
            (None, None) => "-".into(),
        }
    }
}

/// Threads of each published row block.
pub const THREADS: [u32; 4] = [1, 2, 4, 8];
/// Memory of each row, MiB.
pub const MEMORY_MIB: [u32; 7] = [16, 32, 64, 128, 256, 512, 1024];

/// Table 9: (Argon2d 1 iteration, Argon2i 3 iterations) seconds, by
/// threads then memory.
pub const TABLE9: [[(f64, f64); 7]; 4] = [
    [
        (0.031, 0.094),
        (0.078, 0.172),
        (0.172, 0.383),
        (0.359, 0.773),
        (0.719, 1.594),
        (1.445, 3.227),
        (2.914, 6.469),
    ],
    [
        (0.039, 0.125),
        (0.109, 0.219),
        (0.211, 0.453),
        (0.445, 0.914),
        (0.914, 1.828),
        (1.828, 3.688),
        (3.594, 7.492),
    ],
    [
        (0.086, 0.172),
        (0.180, 0.328),
        (0.375, 0.664),
        (0.773, 1.328),
        (1.664, 2.773),
        (3.344, 5.516),
        (6.805, 11.172),
    ],
    [
        (0.164, 0.258),
        (0.414, 0.516),
        (0.633, 0.984),
        (1.297, 2.156),
        (2.648, 4.461),
        (5.148, 9.078),
        (10.758, 18.383),
    ],
];

/// Table 10: Argon2i (1, 3, 6 iterations) seconds, by threads then memory.
// 0.5235 s is a published figure, not an approximation of pi / 6.
#[allow(clippy::approx_constant)]
pub const TABLE10: [[[f64; 3]; 7]; 4] = [
    [
        [0.0404, 0.0808, 0.1613],
        [0.0826, 0.1840, 0.3359],
        [0.1690, 0.3781, 0.6922],
        [0.3471, 0.7737, 1.4176],
        [0.7076, 1.5748, 2.8905],
        [1.4336, 3.1983, 5.8553],
        [2.9056, 6.4867, 11.8148],
    ],
    [
        [0.0318, 0.0692, 0.1349],
        [0.0636, 0.1267, 0.2332],
        [0.1279, 0.2465, 0.4410],
        [0.2620, 0.4949, 0.8553],
        [0.5318, 0.9959, 1.6977],
        [1.0665, 1.9977, 3.3970],
        [2.1589, 4.0598, 6.8337],
    ],
    [
        [0.0324, 0.0544, 0.0918],
        [0.0632, 0.1043, 0.1636],
        [0.1270, 0.2048, 0.3116],
        [0.2585, 0.4082, 0.6034],
        [0.5235, 0.8305, 1.2202],
        [1.0610, 1.6618, 2.4375],
        [2.1318, 3.2923, 4.9209],
    ],
    [
        [0.0311, 0.0556, 0.0807],
        [0.0611, 0.1020, 0.1454],
        [0.1223, 0.2005, 0.2804],
        [0.2472, 0.4016, 0.5534],
        [0.5051, 0.7974, 1.1246],
        [1.0222, 1.5885, 2.2446],
        [2.0625, 3.0723, 4.5112],
    ],
];

const SOURCE: &str = "seed 000 (doi:10.35784/iapgos.897), Xeon E5430 8 CPUs, FreeBSD 11.1";

fn cell(ns: Option<f64>) -> String {
    ns.map_or("-".into(), |v| format!("{:.3}", v / 1e9))
}

/// Seed tables beside this machine's, with a verdict per conclusion.
pub fn render(idx: &Index, php: &PhpFigures) -> Vec<Table> {
    let mut t9 = Table::new(
        "Seed Table 9 (console: argon2 CLI), seconds: published vs here",
        [
            "threads",
            "memory MiB",
            "Argon2d 1 it. seed",
            "here",
            "Argon2i 3 it. seed",
            "here",
        ],
    )
    .right(&[0, 1, 2, 3, 4, 5]);
    let mut columns = vec![
        "threads",
        "memory MiB",
        "1 it. seed",
        "here",
        "3 it. seed",
        "here",
        "6 it. seed",
        "here",
    ];
    if php.present {
        columns.extend(["PHP 1 it.", "PHP 3 it.", "PHP 6 it."]);
    }
    let mut t10 = Table::new(
        "Seed Table 10 (Argon2i from PHP = libargon2), seconds: published vs here",
        columns,
    )
    .right(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (ti, &p) in THREADS.iter().enumerate() {
        for (mi, &mib) in MEMORY_MIB.iter().enumerate() {
            let m = mib * 1024;
            let (d1, i3) = TABLE9[ti][mi];
            t9.row([
                p.to_string(),
                mib.to_string(),
                format!("{d1:.3}"),
                cell(idx.get(CLI, Variant::D, m, 1, p)),
                format!("{i3:.3}"),
                cell(idx.get(CLI, Variant::I, m, 3, p)),
            ]);
            let s = TABLE10[ti][mi];
            let mut row = vec![
                p.to_string(),
                mib.to_string(),
                format!("{:.4}", s[0]),
                cell(idx.get(LIBARGON2, Variant::I, m, 1, p)),
                format!("{:.4}", s[1]),
                cell(idx.get(LIBARGON2, Variant::I, m, 3, p)),
                format!("{:.4}", s[2]),
                cell(idx.get(LIBARGON2, Variant::I, m, 6, p)),
            ];
            if php.present {
                row.extend([1, 3, 6].map(|t| php.cell(Variant::I, m, t, p)));
            }
            t10.row(row);
        }
    }
    t9.note(format!(
        "seed: {SOURCE}; here: wall time of a whole argon2 process, median"
    ));
    t10.note(format!("seed: {SOURCE}; here: libargon2 through FFI (the library PHP's password_hash links), median"));
    if php.present {
        t10.note("PHP: password_hash(PASSWORD_ARGON2I) with memory_cost, time_cost and threads, timed inside PHP with hrtime(true): the seed's own runtime");
        for v in php_verdicts(idx, php) {
            t10.note(v);
        }
    }
    for v in verdicts(idx) {
        t10.note(v);
    }
    vec![t9, t10]
}

/// The seed's conclusions judged on PHP's `password_hash` figures.
pub fn php_verdicts(idx: &Index, php: &PhpFigures) -> Vec<String> {
    let mems: Vec<u32> = MEMORY_MIB.iter().map(|m| m * 1024).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let points = || {
        [1u32, 3, 6]
            .into_iter()
            .flat_map(|t| mems.iter().map(move |&m| (t, m)))
    };
    let mut out = Vec::new();

    let settings = [1u32, 3, 6]
        .into_iter()
        .flat_map(|t| THREADS.map(|p| (t, p)));
    let doubling = per_doubling(&mems, settings, |m, (t, p)| php.get(Variant::I, m, t, p));
    out.push(time_grows_with_memory("in PHP: ", doubling));

    // The seed's question: console (CLI) or PHP level.
    let over_common_points = |ratio: &dyn Fn(u32, u32, u32) -> Option<f64>| {
        let xs = THREADS
            .iter()
            .flat_map(|&p| points().map(move |(t, m)| (t, m, p)))
            .filter_map(|(t, m, p)| ratio(t, m, p))
            .collect();
        median(xs)
    };
    let cli_over_php = over_common_points(&|t, m, p| {
        Some(idx.get(CLI, Variant::I, m, t, p)? / php.get(Variant::I, m, t, p)?)
    });
    let php_over_lib = over_common_points(&|t, m, p| {
        Some(php.get(Variant::I, m, t, p)? / idx.get(LIBARGON2, Variant::I, m, t, p)?)
    });
    out.push(judge(
        "in PHP: \"console times are similar to PHP's\"",
        cli_over_php.map(|r| ((0.8..=1.25).contains(&r), r)),
        |r| format!("CLI / password_hash = {r:.2} (median over common points)"),
        |r| format!("CLI / password_hash = {r:.2}"),
        "no point measured on both the CLI and PHP",
    ));
    if let Some(r) = php_over_lib {
        out.push(format!("PHP / native: password_hash / libargon2 = {r:.2} (median over common points): what PHP adds over the library it links"));
    }

    let speed = |p: u32| {
        median(
            points()
                .filter_map(|(t, m)| {
                    Some(php.get(Variant::I, m, t, 1)? / php.get(Variant::I, m, t, p)?)
                })
                .collect(),
        )
    };
    out.push(judge(
        "in PHP: \"more threads cut the time\" (seed: x1.6 at 2 threads)",
        speed(2).map(|s| (s >= 1.3, s)),
        |s| format!("x{s:.2} at 2 threads on {cores} cores"),
        |s| format!("only x{s:.2} at 2 threads on {cores} cores"),
        "needs password_hash at 1 and 2 threads",
    ));

    let pick: Vec<String> = [16u32, 32]
        .iter()
        .filter_map(|&mib| {
            php.get(Variant::I, mib * 1024, 3, 2)
                .map(|ns| format!("{mib} MiB {:.0} ms", ns / 1e6))
        })
        .collect();
    if !pick.is_empty() {
        out.push(format!(
            "in PHP: \"16 or 32 MB, 3 iterations, 2 threads is optimal\": password_hash costs {} here",
            pick.join(", ")
        ));
    }
    out
}

/// One conclusion judged on one figure: `figure` is whether it holds and
/// the value the detail shows; `missing` says what a verdict would need.
fn judge(
    claim: &str,
    figure: Option<(bool, f64)>,
    holds: impl Fn(f64) -> String,
    differs: impl Fn(f64) -> String,
    missing: &str,
) -> String {
    match figure {
        Some((true, x)) => format!("{claim}: holds here, {}", holds(x)),
        Some((false, x)) => format!("{claim}: differs here: {}", differs(x)),
        None => format!("{claim}: not measured here ({missing})"),
    }
}

/// Median of the ratios, if any.
fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.retain(|x| x.is_finite());
    xs.sort_by(f64::total_cmp);
    (!xs.is_empty()).then(|| xs[xs.len() / 2])
}

/// The (variant, iterations) pairs of the seed's tables 9 and 10.
const SEED_SETTINGS: [(Variant, u32); 4] = [
    (Variant::D, 1),
    (Variant::I, 1),
    (Variant::I, 3),
    (Variant::I, 6),
];

/// The time ratio of each memory doubling from 32 MiB up, at every setting
/// (`time(m_kib, setting)`) where both sizes have a figure.
fn per_doubling<S: Copy>(
    mems: &[u32],
    settings: impl IntoIterator<Item = S>,
    time: impl Fn(u32, S) -> Option<f64>,
) -> Vec<f64> {
    let time = &time;
    settings
        .into_iter()
        .flat_map(|s| {
            mems.windows(2)
                .filter(|w| w[0] >= 32 * 1024)
                .filter_map(move |w| Some(time(w[1], s)? / time(w[0], s)?))
        })
        .collect()
}

/// The seed's "time grows with the memory used" (about x2 per doubling in
/// its tables), judged on `doubling`; `runtime` prefixes the claim.
fn time_grows_with_memory(runtime: &str, doubling: Vec<f64>) -> String {
    judge(
        &format!("{runtime}\"time grows with the memory used\""),
        median(doubling).map(|r| ((1.7..=2.3).contains(&r), r)),
        |r| format!("x{r:.2} per doubling from 32 MiB up (the seed: about x2)"),
        |r| format!("x{r:.2} per doubling, not about x2"),
        "needs two memory sizes >= 32 MiB",
    )
}

/// One line per conclusion of the seed: "holds here" / "differs here: ...".
pub fn verdicts(idx: &Index) -> Vec<String> {
    let mut out = Vec::new();
    let mems: Vec<u32> = MEMORY_MIB.iter().map(|m| m * 1024).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);

    // 1. Time grows with memory (the tables double time per doubling of memory).
    let settings = [CLI, LIBARGON2].into_iter().flat_map(|backend| {
        SEED_SETTINGS
            .into_iter()
            .flat_map(move |(v, t)| THREADS.map(|p| (backend, v, t, p)))
    });
    let doubling = per_doubling(&mems, settings, |m, (backend, v, t, p)| {
        idx.get(backend, v, m, t, p)
    });
    out.push(time_grows_with_memory("", doubling));

    // 2. Console and library times are similar.
    let mut ratio = Vec::new();
    for (v, t) in SEED_SETTINGS {
        for p in THREADS {
            for &m in &mems {
                if let (Some(c), Some(l)) =
                    (idx.get(CLI, v, m, t, p), idx.get(LIBARGON2, v, m, t, p))
                {
                    ratio.push(c / l);
                }
            }
        }
    }
    out.push(judge(
        "\"console times are similar to the library's\"",
        median(ratio).map(|r| ((0.8..=1.25).contains(&r), r)),
        |r| format!("CLI / libargon2 = {r:.2} (median over common points)"),
        |r| format!("CLI / libargon2 = {r:.2}"),
        "no point measured on both the CLI and libargon2",
    ));

    // 3. More threads cut the time (Table 10; 1 GB, 6 it.: 11.8 s -> 4.9 s at 4 -> 4.5 s at 8).
    let speed = |p: u32| {
        let xs: Vec<f64> = [1u32, 3, 6]
            .iter()
            .flat_map(|&t| mems.iter().map(move |&m| (t, m)))
            .filter_map(|(t, m)| {
                Some(
                    idx.get(LIBARGON2, Variant::I, m, t, 1)?
                        / idx.get(LIBARGON2, Variant::I, m, t, p)?,
                )
            })
            .collect();
        median(xs)
    };
    out.push(match speed(2) {
        Some(s) if s >= 1.3 => format!("\"more threads cut the time\" (seed: x1.6 at 2 threads, x2.6 at 8, 1 GB, 6 it.): holds here, x{s:.2} at 2 lanes on {cores} cores"),
        Some(s) => format!("\"more threads cut the time\": differs here: only x{s:.2} at 2 lanes on {cores} cores"),
        None => "\"more threads cut the time\": not measured here (needs libargon2 Argon2i at 1 and 2 lanes)".into(),
    });
    if let (Some(s2), Some(s8)) = (speed(2), speed(8)) {
        out.push(if s8 > s2 * 1.15 {
            format!("8 threads beyond 2: holds here, x{s8:.2} vs x{s2:.2}")
        } else {
            format!("8 threads beyond 2: differs here: x{s8:.2} vs x{s2:.2}; this machine has {cores} cores, so lanes beyond {cores} add no speed")
        });
    }

    // 4. Table 9's console times grow with threads; wall time here should fall.
    let cli_speed: Vec<f64> = [(Variant::D, 1), (Variant::I, 3)]
        .iter()
        .flat_map(|&(v, t)| mems.iter().map(move |&m| (v, t, m)))
        .filter_map(|(v, t, m)| Some(idx.get(CLI, v, m, t, 1)? / idx.get(CLI, v, m, t, 2)?))
        .collect();
    let claim = "Table 9's console times grow with threads (x0.8 at 2 threads, 1 GB Argon2d)";
    out.push(match median(cli_speed) {
        Some(s) if s > 1.1 => format!("{claim}: differs here: the CLI's wall time is x{s:.2} faster at 2 lanes; the seed's growth matches CPU time summed over threads, which is what the reference CLI's clock() reports"),
        Some(s) if s < 0.95 => format!("{claim}: holds here, x{s:.2} at 2 lanes"),
        Some(s) => format!("{claim}: differs here: flat (x{s:.2} at 2 lanes), neither faster nor slower; the machine may be busy"),
        None => format!("{claim}: not measured here (needs the CLI at 1 and 2 lanes)"),
    });

    // 5. 16 or 32 MB, 3 iterations, 2 threads is the practical choice.
    let pick: Vec<String> = [16u32, 32]
        .iter()
        .filter_map(|&mib| {
            idx.get(LIBARGON2, Variant::I, mib * 1024, 3, 2)
                .map(|ns| format!("{mib} MiB {:.0} ms", ns / 1e6))
        })
        .collect();
    out.push(if pick.is_empty() {
        "\"16 or 32 MB, 3 iterations, 2 threads is optimal\": not measured here".into()
    } else {
        format!("\"16 or 32 MB, 3 iterations, 2 threads is optimal\" (an opinion, not a measurement): these cost {} here; RFC 9106 section 4 now recommends 64 MiB with t = 3 and 4 lanes as its second choice", pick.join(", "))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    fn hash(backend: &str, api: Option<&str>, mib: u32, t: u32, p: u32, secs: f64) -> Measurement {
        let mut spec = CaseSpec::new(crate::cases::SUITE, "Argon2i", backend, "", "hash")
            .param("m_kib", mib * 1024)
            .param("t", t)
            .param("p", p)
            .param("threads", p);
        if let Some(api) = api {
            spec = spec.param("api", api);
        }
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: secs * 1e9,
            ..Summary::default()
        });
        m
    }

    /// libargon2 and PHP's password_hash (10 % slower) at 1-2 lanes and
    /// 16-64 MiB, 3 passes, and one point password_hash could not run.
    fn run(with_php: bool) -> Vec<Measurement> {
        let mut ms = Vec::new();
        for p in [1u32, 2] {
            for mib in [16u32, 32, 64] {
                let s = f64::from(mib) * 0.003 / f64::from(p);
                ms.push(hash(LIBARGON2, None, mib, 3, p, s));
                if with_php {
                    ms.push(hash(PHP, Some(PHP_API), mib, 3, p, s * 1.1));
                    // Another PHP call at the same point: not Table 10's.
                    ms.push(hash(PHP, Some("sodium_crypto_pwhash"), mib, 3, p, s * 9.0));
                }
            }
        }
        if with_php {
            let why = "PHP was built without Argon2 password hashing";
            ms.push(
                CaseSpec::new(crate::cases::SUITE, "Argon2i", PHP, "", "hash")
                    .param("m_kib", 16 * 1024)
                    .param("t", 6)
                    .param("p", 1)
                    .param("threads", 1)
                    .param("api", PHP_API)
                    .measurement(CaseStatus::Unavailable, Some(why.into())),
            );
        }
        ms
    }

    #[test]
    fn table_10_gains_php_columns_with_php_measurements() {
        let ms = run(true);
        let t = render(&Index::new(&ms), &PhpFigures::new(&ms));
        let t10 = &t[1];
        assert_eq!(t10.headers.len(), 11);
        let row = |p: &str, mib: &str| {
            t10.rows
                .iter()
                .find(|r| r[0] == p && r[1] == mib)
                .expect("row")
                .clone()
        };
        // 16 MiB, 3 passes, 1 lane: 48 ms x 1.1 in PHP.
        assert_eq!(row("1", "16")[5], "0.048");
        assert_eq!(row("1", "16")[9], "0.053");
        assert!(row("1", "16")[10].starts_with("unavailable: PHP was built without"));
        assert_eq!(row("1", "16")[8], "-");
        let notes = t10.notes.join("\n");
        assert!(
            notes.contains("in PHP: \"time grows with the memory used\": holds here"),
            "{notes}"
        );
        assert!(
            notes.contains("in PHP: \"more threads cut the time\" (seed: x1.6 at 2 threads): holds here, x2.00"),
            "{notes}"
        );
        assert!(
            notes.contains("password_hash / libargon2 = 1.10"),
            "{notes}"
        );
        // The native verdicts stay.
        assert!(
            notes.contains("\n\"time grows with the memory used\""),
            "{notes}"
        );
    }

    #[test]
    fn no_php_columns_without_php_measurements() {
        let ms = run(false);
        let t = render(&Index::new(&ms), &PhpFigures::new(&ms));
        assert_eq!(t[1].headers.len(), 8);
        assert!(!t[1].notes.iter().any(|n| n.contains("in PHP")));
    }

    #[test]
    fn published_tables_match_the_seed_text() {
        // Spot checks against seed 000's Tables 9 and 10.
        assert_eq!(TABLE9[0][0], (0.031, 0.094));
        assert_eq!(TABLE9[3][6], (10.758, 18.383));
        assert_eq!(TABLE10[0][6], [2.9056, 6.4867, 11.8148]);
        assert_eq!(TABLE10[3][6][2], 4.5112);
        // Both tables grow with memory in every row block.
        for ti in 0..4 {
            for mi in 1..7 {
                assert!(TABLE9[ti][mi].0 > TABLE9[ti][mi - 1].0);
                assert!(TABLE10[ti][mi][2] > TABLE10[ti][mi - 1][2]);
            }
        }
    }
}
