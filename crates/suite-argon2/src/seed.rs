//! Seed 000's published Argon2 figures and the verdicts drawn from them.
//!
//! Source: M. Duka, "Elliptic-curve cryptography (ECC) and Argon2 algorithm
//! in PHP using OpenSSL and Sodium libraries", IAPGOS 2020,
//! doi:10.35784/iapgos.897, Tables 9 and 10 (Intel Xeon E5430, 8 CPUs,
//! FreeBSD 11.1, PHP 7.2, libsodium 1.0.16). Table 9 ran the `argon2` CLI
//! ("console level"), Table 10 PHP's Argon2i; memory is given in MB and was
//! passed as 2^N KiB, so "16 MB" is 16 MiB here.

use crate::engines::{CLI, LIBARGON2};
use crate::params::Variant;
use crate::report::Index;
use cryptobench_core::Table;

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
pub fn render(idx: &Index) -> Vec<Table> {
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
    let mut t10 = Table::new(
        "Seed Table 10 (Argon2i from PHP = libargon2), seconds: published vs here",
        [
            "threads",
            "memory MiB",
            "1 it. seed",
            "here",
            "3 it. seed",
            "here",
            "6 it. seed",
            "here",
        ],
    )
    .right(&[0, 1, 2, 3, 4, 5, 6, 7]);
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
            t10.row([
                p.to_string(),
                mib.to_string(),
                format!("{:.4}", s[0]),
                cell(idx.get(LIBARGON2, Variant::I, m, 1, p)),
                format!("{:.4}", s[1]),
                cell(idx.get(LIBARGON2, Variant::I, m, 3, p)),
                format!("{:.4}", s[2]),
                cell(idx.get(LIBARGON2, Variant::I, m, 6, p)),
            ]);
        }
    }
    t9.note(format!(
        "seed: {SOURCE}; here: wall time of a whole argon2 process, median"
    ));
    t10.note(format!("seed: {SOURCE}; here: libargon2 through FFI (the library PHP's password_hash links), median"));
    for v in verdicts(idx) {
        t10.note(v);
    }
    vec![t9, t10]
}

/// Median of the ratios, if any.
fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.retain(|x| x.is_finite());
    xs.sort_by(f64::total_cmp);
    (!xs.is_empty()).then(|| xs[xs.len() / 2])
}

/// One line per conclusion of the seed: "holds here" / "differs here: ...".
pub fn verdicts(idx: &Index) -> Vec<String> {
    let mut out = Vec::new();
    let mems: Vec<u32> = MEMORY_MIB.iter().map(|m| m * 1024).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);

    // 1. Time grows with memory (the tables double time per doubling of memory).
    let mut doubling = Vec::new();
    for backend in [CLI, LIBARGON2] {
        for (v, t) in [
            (Variant::D, 1),
            (Variant::I, 1),
            (Variant::I, 3),
            (Variant::I, 6),
        ] {
            for p in THREADS {
                for w in mems.windows(2).filter(|w| w[0] >= 32 * 1024) {
                    if let (Some(a), Some(b)) = (
                        idx.get(backend, v, w[0], t, p),
                        idx.get(backend, v, w[1], t, p),
                    ) {
                        doubling.push(b / a);
                    }
                }
            }
        }
    }
    out.push(match median(doubling) {
        Some(r) if (1.7..=2.3).contains(&r) => format!("\"time grows with the memory used\" (about x2 per doubling in the seed): holds here, x{r:.2} per doubling from 32 MiB up"),
        Some(r) => format!("\"time grows with the memory used\": differs here: x{r:.2} per doubling, not about x2"),
        None => "\"time grows with the memory used\": not measured here (needs two memory sizes >= 32 MiB)".into(),
    });

    // 2. Console and library times are similar.
    let mut ratio = Vec::new();
    for (v, t) in [
        (Variant::D, 1),
        (Variant::I, 1),
        (Variant::I, 3),
        (Variant::I, 6),
    ] {
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
    out.push(match median(ratio) {
        Some(r) if (0.8..=1.25).contains(&r) => format!("\"console times are similar to the library's\": holds here, CLI / libargon2 = {r:.2} (median over common points)"),
        Some(r) => format!("\"console times are similar to the library's\": differs here: CLI / libargon2 = {r:.2}"),
        None => "\"console times are similar to the library's\": not measured here (no point measured on both the CLI and libargon2)".into(),
    });

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
