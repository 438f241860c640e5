//! `cryptobench paper aegis` and `cryptobench paper gcm-vs-ccm`.
//!
//! Each paper configures the suite as the seed's experiment, then prints the
//! published figures (copied from the seed document, source named) beside
//! this machine's, with one "holds here" / "differs here" line per claim.
//!
//! Both seeds measured from PHP (seed 003 the sodium extension, seed 004
//! `openssl_encrypt`), so when the run has php measurements (the php
//! backend plans its cells beside the native ones) each table gains a PHP
//! column and each claim a verdict on the PHP figures, the seed's own
//! runtime; a cell PHP cannot do says "unavailable: reason" (AEGIS needs
//! PHP 8.4 and libsodium 1.0.19). The native verdicts stay beside them.

use crate::algorithms::by_name;
use crate::case::Operation;
use crate::summary::{encrypt_rate, gcm_over_ccm, ops, rate};
use crate::{AeadSuite, Options, SUITE};
use cryptobench_core::paper::{show_ratio, verdict_line, with_groups, with_rounds};
use cryptobench_core::verdict::speedup;
use cryptobench_core::{
    units, Budget, CaseStatus, Error, Estimate, Measurement, Paper, RunConfig, Suite, Table,
    Verdict,
};

/// The seed experiments of this suite.
pub fn papers() -> Vec<Box<dyn Paper>> {
    vec![Box::new(AegisPaper), Box::new(GcmVsCcmPaper)]
}

fn suite_with(
    algs: &[&str],
    sizes: Vec<u64>,
    operations: Vec<Operation>,
) -> Result<Box<dyn Suite>, Error> {
    let algorithms = algs
        .iter()
        .map(|n| by_name(n).ok_or_else(|| Error::other(format!("unknown algorithm {n}"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Box::new(AeadSuite::new(Options {
        algorithms: Some(algorithms),
        sizes: Some(sizes),
        operations: Some(operations),
        no_peers: true,
        ..Options::default()
    })))
}

/// Seed 003: PHP.Watch, "AEGIS Encryption with PHP Sodium Extension"
/// (10 Dec 2023), benchmark on an AMD Ryzen 4800H: (libsodium name, our
/// name, GB/s on 20 MB, operations/s on 1 KB).
const SEED003: [(&str, &str, f64, f64); 6] = [
    ("aes256gcm", "AES-256-GCM", 2.31, 1_168_300.0),
    (
        "chacha20poly1305",
        "ChaCha20-Poly1305-original",
        1.29,
        738_411.0,
    ),
    (
        "chacha20poly1305_ietf",
        "ChaCha20-Poly1305",
        1.28,
        746_409.0,
    ),
    ("xchacha20poly1305", "XChaCha20-Poly1305", 1.28, 692_764.0),
    ("aegis128l", "AEGIS-128L", 4.99, 1_925_310.0),
    ("aegis256", "AEGIS-256", 4.61, 1_771_924.0),
];

struct AegisPaper;

#[path = "papers_groups.rs"]
mod groups;
use groups::{seed003_group, seed004_group, CLAIM_MIN_ROUNDS, CLAIM_TIME_PER_CASE};

/// The (faster, slower, size) pair each of [`seed003_claims`] compares.
fn seed003_pairs() -> [(&'static str, &'static str, u64); 4] {
    let (rate, ops) = (crate::SEED003_RATE_BYTES, crate::SEED003_OPS_BYTES);
    [
        ("AEGIS-128L", "AES-256-GCM", rate),
        ("AEGIS-128L", "ChaCha20-Poly1305", rate),
        ("AEGIS-128L", "AES-256-GCM", ops),
        ("AEGIS-128L", "AEGIS-256", rate),
    ]
}

/// The php backend's name in measurements.
const PHP: &str = "php";

/// Whether the run measured (or tried to measure) anything from PHP.
fn has_php(ms: &[Measurement]) -> bool {
    ms.iter().any(|m| m.suite == SUITE && m.backend == PHP)
}

/// The php measurement of `alg` through a PHP function whose name starts
/// with `api`, at `op` and `size`; else why there is none ("unavailable:
/// reason", as the php backend planned or ran it).
fn php_cell<'a>(
    ms: &'a [Measurement],
    alg: &str,
    api: &str,
    op: &str,
    size: u64,
) -> Result<&'a Measurement, String> {
    let php: Vec<&Measurement> = ms
        .iter()
        .filter(|m| m.suite == SUITE && m.backend == PHP && m.primitive == alg)
        .filter(|m| m.param("api").is_some_and(|a| a.starts_with(api)))
        .collect();
    let here = |m: &&&Measurement| m.operation == op && m.input_bytes == size;
    if let Some(m) = php
        .iter()
        .filter(here)
        .find(|m| m.status == CaseStatus::Measured)
    {
        return Ok(m);
    }
    // PHP's unavailable cells are planned once per algorithm and function.
    let why = php
        .iter()
        .find(here)
        .or_else(|| php.iter().find(|m| m.status == CaseStatus::Unavailable))
        .map(|m| {
            format!(
                "{}: {}",
                m.status.as_str(),
                m.reason.as_deref().unwrap_or("no reason given")
            )
        });
    Err(why.unwrap_or_else(|| "not measured".into()))
}

/// A PHP figure, or why there is none.
fn php_figure(r: &Result<f64, String>, shown: impl Fn(f64) -> String) -> String {
    match r {
        Ok(x) => shown(*x),
        Err(why) => why.clone(),
    }
}

/// PHP sodium's (20 MB GB/s, 1 KB ops/s) for `alg`, as seed 003 measured.
fn php_sodium_figures(ms: &[Measurement], alg: &str) -> (Result<f64, String>, Result<f64, String>) {
    let at = |size: u64, f: fn(&Measurement) -> Option<f64>| {
        php_cell(ms, alg, "sodium_crypto_aead_", "encrypt", size)
            .and_then(|m| f(m).ok_or_else(|| "no statistics".to_string()))
    };
    (
        at(crate::SEED003_RATE_BYTES, rate),
        at(crate::SEED003_OPS_BYTES, ops),
    )
}

/// The libsodium encrypt measurement of `alg` at `size`.
fn sodium_case<'a>(ms: &'a [Measurement], alg: &str, size: u64) -> Option<&'a Measurement> {
    ms.iter().find(|m| {
        m.suite == SUITE
            && m.primitive == alg
            && m.backend == "libsodium"
            && m.operation == "encrypt"
            && m.input_bytes == size
            && m.status == CaseStatus::Measured
    })
}

/// How much faster `a` runs than `b` at `size` (libsodium, encrypt).
fn sodium_speedup(ms: &[Measurement], a: &str, b: &str, size: u64) -> Option<Estimate> {
    speedup(sodium_case(ms, a, size)?, sodium_case(ms, b, size)?)
}

/// The same from PHP's sodium calls, or why there is none.
fn php_speedup(ms: &[Measurement], a: &str, b: &str, size: u64) -> Result<Estimate, String> {
    let at = |alg: &str| php_cell(ms, alg, "sodium_crypto_aead_", "encrypt", size);
    let (x, y) = (at(a)?, at(b)?);
    speedup(x, y).ok_or_else(|| "no statistics".to_string())
}

/// A claim's verdict line on an interval (`claim: holds here (2.16x (95% ...))`).
fn judge(claim: &str, est: Option<Estimate>, decide: impl Fn(&Estimate) -> Verdict) -> String {
    match est {
        None => verdict_line(claim, Verdict::NotMeasured, ""),
        Some(e) => verdict_line(claim, decide(&e), &show_ratio(&e)),
    }
}

/// The same for a PHP figure, or why there is none.
fn judge_php(
    claim: &str,
    est: Result<Estimate, String>,
    decide: impl Fn(&Estimate) -> Verdict,
) -> String {
    let claim = format!("{claim}, in PHP");
    match est {
        Ok(e) => verdict_line(&claim, decide(&e), &show_ratio(&e)),
        Err(why) => format!("{claim}: {why}"),
    }
}

/// A claim, the decision on a measured speed ratio, and the seed's own
/// figure for that ratio.
type Claim = (&'static str, fn(&Estimate) -> Verdict, f64);

/// Seed 003's claims: (claim, the decision on a speed ratio, what the
/// seed's own table gives for it). A band claim ("2-3x") fails above the
/// band too; "about 20% more" is 1.10-1.30; "more than twice" is >= 2 with
/// 3% in the claim's favour.
fn seed003_claims() -> [Claim; 4] {
    let (gcm, chacha, aegis, aegis256) = (SEED003[0], SEED003[2], SEED003[4], SEED003[5]);
    [
        (
            "AEGIS is 2-3x faster than AES-GCM (20 MB)",
            |e| e.within(2.0, 3.0, 0.05),
            aegis.2 / gcm.2,
        ),
        (
            "AEGIS is 3-4x faster than ChaCha20-Poly1305 (20 MB)",
            |e| e.within(3.0, 4.0, 0.05),
            aegis.2 / chacha.2,
        ),
        (
            "AEGIS does more than twice AES-GCM's operations/s (1 KB)",
            |e| e.at_least(2.0, 0.03),
            aegis.3 / gcm.3,
        ),
        (
            "AEGIS-256 costs about 20% more than AEGIS-128L (20 MB)",
            |e| e.within(1.10, 1.30, 0.0),
            aegis.2 / aegis256.2,
        ),
    ]
}

/// The seed's own figures against its claim, when they contradict it.
fn seed_says(claim: &str, decide: fn(&Estimate) -> Verdict, seed: f64) -> Option<String> {
    (decide(&Estimate::exact(seed)) == Verdict::Differs).then(|| {
        format!("  the seed's own table gives {seed:.2}x for \"{claim}\": its figures contradict the claim")
    })
}

fn sodium_figures(ms: &[Measurement], alg: &str) -> (Option<f64>, Option<f64>) {
    let find = |size: u64| {
        ms.iter().find(|m| {
            m.suite == SUITE
                && m.primitive == alg
                && m.backend == "libsodium"
                && m.operation == "encrypt"
                && m.input_bytes == size
                && m.status == CaseStatus::Measured
        })
    };
    (
        find(crate::SEED003_RATE_BYTES).and_then(rate),
        find(crate::SEED003_OPS_BYTES).and_then(ops),
    )
}

impl Paper for AegisPaper {
    fn name(&self) -> &'static str {
        "aegis"
    }
    fn title(&self) -> &'static str {
        "AEGIS vs AES-GCM vs ChaCha20-Poly1305 (seed 003: PHP.Watch, AEGIS Encryption with PHP Sodium Extension, 2023)"
    }
    fn suites(&self, _cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        let algs: Vec<&str> = SEED003.iter().map(|r| r.1).collect();
        Ok(vec![with_groups(
            suite_with(
                &algs,
                // 1 MiB as well: in cache, to tell CPU speed from memory bandwidth.
                vec![
                    crate::SEED003_OPS_BYTES,
                    crate::summary::IN_CACHE_BYTES,
                    crate::SEED003_RATE_BYTES,
                ],
                vec![Operation::Encrypt],
            )?,
            seed003_group,
        )])
    }
    fn budget(&self, cfg: &RunConfig) -> Budget {
        with_rounds(&cfg.budget, CLAIM_TIME_PER_CASE, CLAIM_MIN_ROUNDS)
    }
    fn seed_counts(&self) -> Option<cryptobench_core::paper_method::SeedCounts> {
        // Seed 003: "a 20 MB block ... the average of 100 iterations" and
        // "1 KB of data, taking the average from 1 million iterations"
        // (100 samples of 10^4 calls: the same mean of 10^6).
        Some(cryptobench_core::paper_method::SeedCounts {
            stated: "100 x 20 MB and 10^6 x 1 KB (as 100 samples of 10^4), means",
            runs: 100,
            loops: |spec| {
                if spec.input_bytes >= 1 << 20 {
                    vec![1]
                } else {
                    vec![10_000]
                }
            },
        })
    }
    fn render(&self, ms: &[Measurement]) -> Vec<Table> {
        let php = has_php(ms);
        let mut columns = vec![
            "algorithm",
            "published GB/s (20 MB)",
            "here GB/s",
            "published ops/s (1 KB)",
            "here ops/s",
        ];
        if php {
            columns.extend(["PHP sodium GB/s (20 MB)", "PHP sodium ops/s (1 KB)"]);
        }
        let mut t = Table::new(
            "Seed 003 (AMD Ryzen 4800H, PHP 8.4 sodium) beside this machine (libsodium 1.0.22, same calls)",
            columns,
        )
        .right(&[1, 2, 3, 4, 5, 6]);
        for (sodium_name, ours, gb, op) in SEED003 {
            let (r, o) = sodium_figures(ms, ours);
            let mut row = vec![
                sodium_name.to_string(),
                format!("{gb:.2}"),
                r.map(|r| format!("{:.2}", r / 1e9))
                    .unwrap_or_else(|| "-".into()),
                units::format_ops(op),
                o.map(units::format_ops).unwrap_or_else(|| "-".into()),
            ];
            if php {
                let (pr, po) = php_sodium_figures(ms, ours);
                row.push(php_figure(&pr, |r| format!("{:.2}", r / 1e9)));
                row.push(match (&pr, &po) {
                    // One reason per row is enough.
                    (Err(a), Err(b)) if a == b => "(as left)".into(),
                    _ => php_figure(&po, units::format_ops),
                });
            }
            t.row(row);
        }
        if php {
            t.note("PHP columns: the php backend's sodium_crypto_aead_*_encrypt, timed inside PHP with hrtime(true), the seed's own calls.");
            let pairs = seed003_pairs();
            for ((claim, decide, _), (x, y, size)) in seed003_claims().into_iter().zip(pairs) {
                t.note(judge_php(claim, php_speedup(ms, x, y, size), decide));
            }
            let overhead: Vec<String> = SEED003
                .iter()
                .filter_map(|(name, ours, _, _)| {
                    let php_ops = php_sodium_figures(ms, ours).1.ok()?;
                    let native_ops = sodium_figures(ms, ours).1?;
                    Some(format!("{name} {:.2}x", native_ops / php_ops))
                })
                .collect();
            if !overhead.is_empty() {
                t.note(format!(
                    "PHP / native time per 1 KB message (what PHP adds over a libsodium call; PHP links its own libsodium): {}",
                    overhead.join(", ")
                ));
            }
            t.note("Natively (libsodium through the same C calls, no PHP):");
        }
        for ((claim, decide, seed), (x, y, size)) in
            seed003_claims().into_iter().zip(seed003_pairs())
        {
            t.note(judge(claim, sodium_speedup(ms, x, y, size), decide));
            if let Some(line) = seed_says(claim, decide, seed) {
                t.note(line);
            }
            if size == crate::SEED003_RATE_BYTES && y == "AES-256-GCM" {
                t.note(judge(
                    "  the same at 1 MiB (in cache: CPU-bound, where 20 MB is memory-bound)",
                    sodium_speedup(ms, x, y, crate::summary::IN_CACHE_BYTES),
                    decide,
                ));
            }
        }
        t.note(format!(
            "Availability rule (seed 003): AEGIS needs libsodium >= 1.0.19 on x86_64 or aarch64; here: {} on {}, AES-NI {}: {}",
            cryptobench_backends::sodium::version(),
            std::env::consts::ARCH,
            if cryptobench_backends::cpu::has("aes") { "yes" } else { "no" },
            if ms.iter().any(|m| m.primitive == "AEGIS-128L" && m.backend == "libsodium" && m.status == CaseStatus::Measured) {
                "available (holds here)"
            } else {
                "not measured in this run"
            }
        ));
        if php {
            t.note(match php_cell(ms, "AEGIS-128L", "sodium_crypto_aead_", "encrypt", crate::SEED003_OPS_BYTES) {
                Ok(m) => format!("Availability rule in PHP: AEGIS is available in this PHP ({}): holds here", m.backend_version),
                Err(why) => format!("Availability rule in PHP (needs PHP 8.4 and libsodium >= 1.0.19): AEGIS in this PHP: {why}"),
            });
        }
        // Libraries only: a PHP call wraps one of them (its column is above).
        let native: Vec<Measurement> = ms.iter().filter(|m| m.backend != PHP).cloned().collect();
        let ms = native.as_slice();
        let mut best = Table::new(
            "Best backend per algorithm here (20 MB encrypt)",
            ["algorithm", "backend", "GB/s", "vs seed"],
        )
        .right(&[2, 3]);
        for (_, ours, gb, _) in SEED003 {
            if let Some((r, b)) = crate::summary::best_rate(ms, ours, crate::SEED003_RATE_BYTES) {
                best.row([
                    ours.to_string(),
                    b,
                    format!("{:.2}", r / 1e9),
                    format!("{:.2}x", r / 1e9 / gb),
                ]);
            }
        }
        if let (Some(a), Some(g)) = (
            encrypt_rate(ms, "AEGIS-128L", "libaegis", crate::SEED003_RATE_BYTES),
            crate::summary::best_rate(ms, "AES-256-GCM", crate::SEED003_RATE_BYTES),
        ) {
            best.note(format!(
                "libaegis AEGIS-128L / best AES-256-GCM ({}): {:.2}x",
                g.1,
                a / g.0
            ));
        }
        vec![t, best]
    }
}

struct GcmVsCcmPaper;

/// Seed 004's "GCM is 3x faster than CCM" as a band: 2-4.5x.
fn about_three_times(e: &Estimate) -> Verdict {
    e.within(2.0, 4.5, 0.0)
}

/// The (GCM, CCM) AES-256 measurements of `backend` and `op` at 10 MiB.
fn gcm_ccm_cases<'a>(
    ms: &'a [Measurement],
    backend: &str,
    op: &str,
) -> Option<(&'a Measurement, &'a Measurement)> {
    let find = |alg: &str| {
        ms.iter().find(|m| {
            m.suite == SUITE
                && m.primitive == alg
                && m.backend == backend
                && m.operation == op
                && m.input_bytes == SEED004_BYTES
                && m.status == CaseStatus::Measured
        })
    };
    Some((find("AES-256-GCM")?, find("AES-256-CCM")?))
}

/// Seed 004's message: `random_bytes(1024 * 1024 * 10)`.
const SEED004_BYTES: u64 = 10 * 1024 * 1024;

impl Paper for GcmVsCcmPaper {
    fn name(&self) -> &'static str {
        "gcm-vs-ccm"
    }
    fn title(&self) -> &'static str {
        "GCM vs CCM (seed 004: E. Zimuel, Authenticated Encryption in PHP 7.1, 2016)"
    }
    fn suites(&self, _cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error> {
        Ok(vec![with_groups(
            suite_with(
                &["AES-256-GCM", "AES-256-CCM"],
                vec![SEED004_BYTES],
                vec![Operation::Encrypt, Operation::Decrypt],
            )?,
            seed004_group,
        )])
    }
    fn budget(&self, cfg: &RunConfig) -> Budget {
        with_rounds(&cfg.budget, CLAIM_TIME_PER_CASE, CLAIM_MIN_ROUNDS)
    }
    fn render(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut t = Table::new(
            "Seed 004: AES-256 GCM vs CCM on 10 MiB (published: PHP 7.1 + OpenSSL, Intel Core i7: \"GCM is 3x faster than CCM\")",
            ["backend", "operation", "GCM GB/s", "CCM GB/s", "GCM / CCM"],
        )
        .right(&[2, 3, 4]);
        for backend in ["openssl", "rustcrypto"] {
            for op in ["encrypt", "decrypt"] {
                if let Some((g, c)) = gcm_over_ccm(ms, 256, backend, op, SEED004_BYTES) {
                    t.row([
                        backend.to_string(),
                        op.to_string(),
                        format!("{:.2}", g / 1e9),
                        format!("{:.2}", c / 1e9),
                        format!("{:.2}x", g / c),
                    ]);
                }
            }
        }
        let php = has_php(ms);
        if php {
            for op in ["encrypt", "decrypt"] {
                let fig = |alg: &str| {
                    php_cell(ms, alg, "openssl_encrypt", op, SEED004_BYTES)
                        .and_then(|m| rate(m).ok_or_else(|| "no statistics".to_string()))
                };
                match (fig("AES-256-GCM"), fig("AES-256-CCM")) {
                    (Ok(g), Ok(c)) => {
                        t.row([
                            "php (openssl_encrypt)".to_string(),
                            op.to_string(),
                            format!("{:.2}", g / 1e9),
                            format!("{:.2}", c / 1e9),
                            format!("{:.2}x", g / c),
                        ]);
                    }
                    (g, c) => {
                        let why = g.err().or(c.err()).unwrap_or_default();
                        t.row([
                            "php (openssl_encrypt)".to_string(),
                            op.to_string(),
                            why.clone(),
                            "-".into(),
                            "-".into(),
                        ]);
                    }
                }
            }
            for op in ["encrypt", "decrypt"] {
                let at = |alg: &str| php_cell(ms, alg, "openssl_encrypt", op, SEED004_BYTES);
                let est = at("AES-256-GCM").and_then(|g| {
                    let c = at("AES-256-CCM")?;
                    speedup(g, c).ok_or_else(|| "no statistics".to_string())
                });
                t.note(judge_php(
                    &format!("GCM is about 3x faster than CCM ({op}, openssl_encrypt as the seed)"),
                    est,
                    about_three_times,
                ));
            }
        }
        // Each operation on its own: an average would let a slow encrypt
        // pass on the strength of a fast decrypt.
        let mut parts = Vec::new();
        for op in ["encrypt", "decrypt"] {
            let est = gcm_ccm_cases(ms, "openssl", op).and_then(|(g, c)| speedup(g, c));
            parts.push(est.map_or(Verdict::NotMeasured, |e| about_three_times(&e)));
            t.note(judge(
                &format!("GCM is about 3x faster than CCM (OpenSSL, {op})"),
                est,
                about_three_times,
            ));
        }
        t.note(verdict_line(
            "GCM is about 3x faster than CCM (OpenSSL, both operations)",
            Verdict::all(parts),
            "",
        ));
        let tamper: Vec<&Measurement> = ms
            .iter()
            .filter(|m| m.suite == SUITE && m.checks.iter().any(|c| c.name == "tamper"))
            .collect();
        let forged = tamper.iter().any(|m| {
            m.checks
                .iter()
                .any(|c| c.name == "tamper" && c.outcome == cryptobench_core::CheckOutcome::Fail)
        });
        t.note(if tamper.is_empty() {
            "A flipped bit makes decryption fail: not checked in this run".to_string()
        } else if forged {
            "A flipped bit makes decryption fail: differs here: a tampered message was ACCEPTED (see checks)".to_string()
        } else {
            format!(
                "A flipped bit makes decryption fail: holds here ({} cases, every flip in ciphertext, tag, AAD and nonce rejected)",
                tamper.len()
            )
        });
        vec![t]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Summary};

    /// A measured case encrypting at `gbps` GB/s.
    fn at(
        alg: &str,
        backend: &str,
        api: Option<&str>,
        op: &str,
        size: u64,
        gbps: f64,
    ) -> Measurement {
        let mut spec = CaseSpec::new(SUITE, alg, backend, "", op).size(size);
        if let Some(api) = api {
            spec = spec.param("api", api);
        }
        let mut m = spec.measurement(CaseStatus::Measured, None);
        m.stats = Some(Summary {
            median: size as f64 / gbps,
            ..Summary::default()
        });
        m
    }

    fn unavailable(alg: &str, api: &str, size: u64, why: &str) -> Measurement {
        CaseSpec::new(SUITE, alg, PHP, "", "encrypt")
            .size(size)
            .param("api", api)
            .measurement(CaseStatus::Unavailable, Some(why.into()))
    }

    const AEGIS_WHY: &str =
        "AEGIS needs PHP 8.4+ and libsodium >= 1.0.19; this is PHP 8.2.36 with libsodium 1.0.18";

    fn aegis_run(with_php: bool) -> Vec<Measurement> {
        let big = crate::SEED003_RATE_BYTES;
        let small = crate::SEED003_OPS_BYTES;
        let mut ms = vec![
            at("AES-256-GCM", "libsodium", None, "encrypt", big, 4.0),
            at("AEGIS-128L", "libsodium", None, "encrypt", big, 10.0),
            at("ChaCha20-Poly1305", "libsodium", None, "encrypt", big, 2.0),
        ];
        if with_php {
            let gcm = Some("sodium_crypto_aead_aes256gcm");
            ms.push(at("AES-256-GCM", PHP, gcm, "encrypt", big, 3.0));
            ms.push(at("AES-256-GCM", PHP, gcm, "encrypt", small, 1.0));
            // openssl_encrypt is not the seed's call: never in the sodium column.
            ms.push(at(
                "AES-256-GCM",
                PHP,
                Some("openssl_encrypt"),
                "encrypt",
                big,
                0.5,
            ));
            ms.push(unavailable(
                "AEGIS-128L",
                "sodium_crypto_aead_aegis128l",
                small,
                AEGIS_WHY,
            ));
        }
        ms
    }

    #[test]
    fn aegis_gains_a_php_column_when_php_was_measured() {
        let t = &AegisPaper.render(&aegis_run(true))[0];
        assert_eq!(t.headers.len(), 7);
        assert!(t.headers[5].starts_with("PHP"));
        let row = |name: &str| t.rows.iter().find(|r| r[0] == name).expect("row");
        assert_eq!(row("aes256gcm")[5], "3.00");
        assert!(
            row("aegis128l")[5].starts_with("unavailable: AEGIS needs PHP 8.4"),
            "{:?}",
            row("aegis128l")
        );
        assert_eq!(row("chacha20poly1305_ietf")[5], "not measured");
        let notes = t.notes.join("\n");
        assert!(
            notes.contains("AEGIS is 2-3x faster than AES-GCM (20 MB), in PHP: unavailable: AEGIS needs PHP 8.4"),
            "{notes}"
        );
        assert!(notes.contains("AEGIS in this PHP: unavailable"), "{notes}");
        // No native 1 KB figure in this run: no overhead line.
        assert!(!notes.contains("PHP / native"), "{notes}");
        // The best-backend table ranks libraries, not PHP calls.
        let mut ms = aegis_run(true);
        ms.push(at(
            "XChaCha20-Poly1305",
            PHP,
            Some("sodium_crypto_aead_xchacha20poly1305_ietf"),
            "encrypt",
            crate::SEED003_RATE_BYTES,
            9.0,
        ));
        let best = &AegisPaper.render(&ms)[1];
        assert!(best.rows.iter().all(|r| r[1] != PHP), "{:?}", best.rows);
        // The native verdicts stay.
        assert!(
            notes.contains("AEGIS is 2-3x faster than AES-GCM (20 MB): holds here (2.50x"),
            "{notes}"
        );
    }

    #[test]
    fn aegis_php_verdicts_use_the_php_figures() {
        let mut ms = aegis_run(true);
        ms.retain(|m| m.status == CaseStatus::Measured);
        ms.push(at(
            "AEGIS-128L",
            PHP,
            Some("sodium_crypto_aead_aegis128l"),
            "encrypt",
            crate::SEED003_RATE_BYTES,
            4.5,
        ));
        ms.push(at(
            "AES-256-GCM",
            "libsodium",
            None,
            "encrypt",
            crate::SEED003_OPS_BYTES,
            2.0,
        ));
        let notes = AegisPaper.render(&ms)[0].notes.join("\n");
        // 1 KB: 0.5 us natively, 1 us from PHP.
        assert!(
            notes.contains("PHP links its own libsodium): aes256gcm 2.00x"),
            "{notes}"
        );
        // PHP: 4.5 / 3.0 = 1.5x, while natively 10 / 4 = 2.5x.
        assert!(
            notes.contains("AES-GCM (20 MB), in PHP: differs here (1.50x"),
            "{notes}"
        );
    }

    #[test]
    fn aegis_has_no_php_column_without_php() {
        let t = &AegisPaper.render(&aegis_run(false))[0];
        assert_eq!(t.headers.len(), 5);
        assert!(!t.notes.iter().any(|n| n.contains("in PHP")));
    }

    #[test]
    fn gcm_vs_ccm_gains_a_php_row() {
        let b = SEED004_BYTES;
        let mut ms = vec![
            at("AES-256-GCM", "openssl", None, "encrypt", b, 6.0),
            at("AES-256-CCM", "openssl", None, "encrypt", b, 2.0),
        ];
        let t = &GcmVsCcmPaper.render(&ms)[0];
        assert!(!t.rows.iter().any(|r| r[0].starts_with("php")));
        assert!(!t.notes.iter().any(|n| n.contains("in PHP")));
        for op in ["encrypt", "decrypt"] {
            ms.push(at("AES-256-GCM", PHP, Some("openssl_encrypt"), op, b, 1.0));
            ms.push(at("AES-256-CCM", PHP, Some("openssl_encrypt"), op, b, 0.8));
        }
        // PHP's sodium AES-256-GCM is another call than the seed's.
        ms.push(at(
            "AES-256-GCM",
            PHP,
            Some("sodium_crypto_aead_aes256gcm"),
            "encrypt",
            b,
            9.0,
        ));
        let t = &GcmVsCcmPaper.render(&ms)[0];
        let php: Vec<&Vec<String>> = t.rows.iter().filter(|r| r[0].starts_with("php")).collect();
        assert_eq!(php.len(), 2);
        assert_eq!(php[0][4], "1.25x");
        let notes = t.notes.join("\n");
        assert!(
            notes.contains("(encrypt, openssl_encrypt as the seed), in PHP: differs here (1.25x"),
            "{notes}"
        );
        assert!(notes.contains("(OpenSSL, encrypt): holds here"), "{notes}");
        assert!(
            notes.contains("(OpenSSL, decrypt): not measured"),
            "{notes}"
        );
        assert!(
            notes.contains("(OpenSSL, both operations): not measured"),
            "{notes}"
        );
    }

    /// A case at `gbps` whose time interval is +-`spread`.
    fn spread(
        alg: &str,
        backend: &str,
        op: &str,
        size: u64,
        gbps: f64,
        spread: f64,
    ) -> Measurement {
        let mut m = at(alg, backend, None, op, size, gbps);
        let s = m.stats.as_mut().unwrap();
        s.ci95 = [s.median * (1.0 - spread), s.median * (1.0 + spread)];
        m
    }

    fn aegis_notes(aegis_gbps: f64, spread_each: f64) -> String {
        let big = crate::SEED003_RATE_BYTES;
        let ms = vec![
            spread("AES-256-GCM", "libsodium", "encrypt", big, 1.0, spread_each),
            spread(
                "AEGIS-128L",
                "libsodium",
                "encrypt",
                big,
                aegis_gbps,
                spread_each,
            ),
        ];
        AegisPaper.render(&ms)[0].notes.join("\n")
    }

    #[test]
    fn aegis_band_claims_have_four_outcomes() {
        let claim = "AEGIS is 2-3x faster than AES-GCM (20 MB): ";
        // 8.45x is not "2-3x".
        assert!(aegis_notes(8.45, 0.01).contains(&format!("{claim}differs here (8.45x")));
        assert!(aegis_notes(2.5, 0.01).contains(&format!("{claim}holds here (2.50x")));
        // 3.1x with +-5% on each side straddles the band's edge (3.15).
        assert!(aegis_notes(3.1, 0.05).contains(&format!("{claim}inconclusive (3.10x")));
        let none = AegisPaper.render(&[])[0].notes.join("\n");
        assert!(none.contains(&format!("{claim}not measured")), "{none}");
    }

    #[test]
    fn aegis_says_where_the_seed_contradicts_itself() {
        let notes = AegisPaper.render(&[])[0].notes.join("\n");
        // 1,925,310 / 1,168,300 ops/s against "more than twice".
        assert!(
            notes.contains("the seed's own table gives 1.65x for \"AEGIS does more than twice"),
            "{notes}"
        );
        // 4.99 / 4.61 GB/s against "about 20% more".
        assert!(
            notes.contains("gives 1.08x for \"AEGIS-256 costs"),
            "{notes}"
        );
        // 4.99 / 2.31 = 2.16x supports "2-3x".
        assert!(!notes.contains("for \"AEGIS is 2-3x"), "{notes}");
    }

    #[test]
    fn gcm_vs_ccm_judges_each_operation() {
        let b = SEED004_BYTES;
        // Encrypt 1.5x (below the band), decrypt 5x: the mean (3.25x)
        // would pass; each operation on its own does not.
        let ms = vec![
            spread("AES-256-GCM", "openssl", "encrypt", b, 3.0, 0.01),
            spread("AES-256-CCM", "openssl", "encrypt", b, 2.0, 0.01),
            spread("AES-256-GCM", "openssl", "decrypt", b, 10.0, 0.01),
            spread("AES-256-CCM", "openssl", "decrypt", b, 2.0, 0.01),
        ];
        let notes = GcmVsCcmPaper.render(&ms)[0].notes.join("\n");
        assert!(
            notes.contains("(OpenSSL, encrypt): differs here (1.50x"),
            "{notes}"
        );
        assert!(
            notes.contains("(OpenSSL, both operations): differs here"),
            "{notes}"
        );
        // 2.0x with +-3% on each side straddles the band's floor.
        let ms = vec![
            spread("AES-256-GCM", "openssl", "encrypt", b, 4.0, 0.03),
            spread("AES-256-CCM", "openssl", "encrypt", b, 2.0, 0.03),
            spread("AES-256-GCM", "openssl", "decrypt", b, 6.0, 0.01),
            spread("AES-256-CCM", "openssl", "decrypt", b, 2.0, 0.01),
        ];
        let notes = GcmVsCcmPaper.render(&ms)[0].notes.join("\n");
        assert!(
            notes.contains("(OpenSSL, encrypt): inconclusive (2.00x"),
            "{notes}"
        );
        assert!(
            notes.contains("(OpenSSL, decrypt): holds here (3.00x"),
            "{notes}"
        );
        assert!(
            notes.contains("(OpenSSL, both operations): inconclusive"),
            "{notes}"
        );
    }
}

#[cfg(test)]
#[path = "papers_edge_tests.rs"]
mod edge_tests;
