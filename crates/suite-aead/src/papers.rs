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
use cryptobench_core::{units, CaseStatus, Error, Measurement, Paper, RunConfig, Suite, Table};

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

/// The verdict on the PHP figures (the seed's runtime).
fn php_verdict(
    claim: &str,
    measured: Result<f64, String>,
    ok: impl Fn(f64) -> bool,
    shown: impl Fn(f64) -> String,
) -> String {
    match measured {
        Ok(x) if ok(x) => format!("{claim}, in PHP: holds here ({})", shown(x)),
        Ok(x) => format!("{claim}, in PHP: differs here: {}", shown(x)),
        Err(why) => format!("{claim}, in PHP: {why}"),
    }
}

/// `a / b` of two PHP figures, or the first reason one is missing.
fn php_ratio(a: &Result<f64, String>, b: &Result<f64, String>) -> Result<f64, String> {
    Ok(a.clone()? / b.clone()?)
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

fn verdict(
    claim: &str,
    measured: Option<f64>,
    ok: impl Fn(f64) -> bool,
    shown: impl Fn(f64) -> String,
) -> String {
    match measured {
        None => format!("{claim}: not measured here"),
        Some(x) if ok(x) => format!("{claim}: holds here ({})", shown(x)),
        Some(x) => format!("{claim}: differs here: {}", shown(x)),
    }
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
        Ok(vec![suite_with(
            &algs,
            // 1 MiB as well: in cache, to tell CPU speed from memory bandwidth.
            vec![
                crate::SEED003_OPS_BYTES,
                crate::summary::IN_CACHE_BYTES,
                crate::SEED003_RATE_BYTES,
            ],
            vec![Operation::Encrypt],
        )?])
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
            let (gcm, _) = php_sodium_figures(ms, "AES-256-GCM");
            let (aegis, aegis_ops) = php_sodium_figures(ms, "AEGIS-128L");
            let (aegis256, _) = php_sodium_figures(ms, "AEGIS-256");
            let (chacha, _) = php_sodium_figures(ms, "ChaCha20-Poly1305");
            let (_, gcm_ops) = php_sodium_figures(ms, "AES-256-GCM");
            let x = |r: f64| format!("{r:.2}x");
            t.note(php_verdict(
                "AEGIS is 2-3x faster than AES-GCM (20 MB)",
                php_ratio(&aegis, &gcm),
                |r| r >= 2.0,
                x,
            ));
            t.note(php_verdict(
                "AEGIS is 3-4x faster than ChaCha20-Poly1305 (20 MB)",
                php_ratio(&aegis, &chacha),
                |r| r >= 3.0,
                x,
            ));
            t.note(php_verdict(
                "AEGIS does more than twice AES-GCM's operations/s (1 KB)",
                php_ratio(&aegis_ops, &gcm_ops),
                |r| r >= 2.0,
                x,
            ));
            t.note(php_verdict(
                "AEGIS-256 costs about 20% more than AEGIS-128L",
                php_ratio(&aegis, &aegis256),
                |r| (1.05..=1.5).contains(&r),
                |r| format!("AEGIS-128L is {r:.2}x AEGIS-256"),
            ));
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
        let (aegis, aegis_ops) = sodium_figures(ms, "AEGIS-128L");
        let (aegis256, _) = sodium_figures(ms, "AEGIS-256");
        let (gcm, gcm_ops) = sodium_figures(ms, "AES-256-GCM");
        let (chacha, _) = sodium_figures(ms, "ChaCha20-Poly1305");
        let ratio = |a: Option<f64>, b: Option<f64>| Some(a? / b?);
        let x = |r: f64| format!("{r:.2}x");
        t.note(verdict(
            "AEGIS is 2-3x faster than AES-GCM (20 MB)",
            ratio(aegis, gcm),
            |r| r >= 2.0,
            x,
        ));
        let in_cache = |alg: &str| {
            ms.iter()
                .filter(|m| m.suite == SUITE && m.primitive == alg && m.backend == "libsodium")
                .filter(|m| {
                    m.operation == "encrypt" && m.input_bytes == crate::summary::IN_CACHE_BYTES
                })
                .find(|m| m.status == CaseStatus::Measured)
                .and_then(rate)
        };
        t.note(verdict(
            "  the same at 1 MiB (in cache: CPU-bound, where 20 MB is memory-bound)",
            ratio(in_cache("AEGIS-128L"), in_cache("AES-256-GCM")),
            |r| r >= 2.0,
            x,
        ));
        t.note(verdict(
            "AEGIS is 3-4x faster than ChaCha20-Poly1305 (20 MB)",
            ratio(aegis, chacha),
            |r| r >= 3.0,
            x,
        ));
        t.note(verdict(
            "AEGIS does more than twice AES-GCM's operations/s (1 KB)",
            ratio(aegis_ops, gcm_ops),
            |r| r >= 2.0,
            x,
        ));
        t.note(verdict(
            "AEGIS-256 costs about 20% more than AEGIS-128L",
            ratio(aegis, aegis256),
            |r| (1.05..=1.5).contains(&r),
            |r| format!("AEGIS-128L is {r:.2}x AEGIS-256"),
        ));
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
        Ok(vec![suite_with(
            &["AES-256-GCM", "AES-256-CCM"],
            vec![SEED004_BYTES],
            vec![Operation::Encrypt, Operation::Decrypt],
        )?])
    }
    fn render(&self, ms: &[Measurement]) -> Vec<Table> {
        let mut t = Table::new(
            "Seed 004: AES-256 GCM vs CCM on 10 MiB (published: PHP 7.1 + OpenSSL, Intel Core i7: \"GCM is 3x faster than CCM\")",
            ["backend", "operation", "GCM GB/s", "CCM GB/s", "GCM / CCM"],
        )
        .right(&[2, 3, 4]);
        let mut openssl_ratios = Vec::new();
        for backend in ["openssl", "rustcrypto"] {
            for op in ["encrypt", "decrypt"] {
                if let Some((g, c)) = gcm_over_ccm(ms, 256, backend, op, SEED004_BYTES) {
                    if backend == "openssl" {
                        openssl_ratios.push(g / c);
                    }
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
        let mut php_ratios = Vec::new();
        let mut php_missing = None;
        if php {
            for op in ["encrypt", "decrypt"] {
                let fig = |alg: &str| {
                    php_cell(ms, alg, "openssl_encrypt", op, SEED004_BYTES)
                        .and_then(|m| rate(m).ok_or_else(|| "no statistics".to_string()))
                };
                match (fig("AES-256-GCM"), fig("AES-256-CCM")) {
                    (Ok(g), Ok(c)) => {
                        php_ratios.push(g / c);
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
                        php_missing.get_or_insert(why);
                    }
                }
            }
            let php_mean = (!php_ratios.is_empty())
                .then(|| php_ratios.iter().sum::<f64>() / php_ratios.len() as f64);
            t.note(php_verdict(
                "GCM is about 3x faster than CCM (openssl_encrypt, as the seed)",
                php_mean
                    .ok_or_else(|| php_missing.clone().unwrap_or_else(|| "not measured".into())),
                |r| (2.0..=4.5).contains(&r),
                |r| format!("GCM is {r:.2}x CCM; seed: ~3x"),
            ));
        }
        let mean = (!openssl_ratios.is_empty())
            .then(|| openssl_ratios.iter().sum::<f64>() / openssl_ratios.len() as f64);
        t.note(verdict(
            "GCM is about 3x faster than CCM (OpenSSL)",
            mean,
            |r| (2.0..=4.5).contains(&r),
            |r| format!("GCM is {r:.2}x CCM; seed: ~3x"),
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
            notes.contains("AEGIS is 2-3x faster than AES-GCM (20 MB): holds here (2.50x)"),
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
            notes.contains("AES-GCM (20 MB), in PHP: differs here: 1.50x"),
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
            notes
                .contains("(openssl_encrypt, as the seed), in PHP: differs here: GCM is 1.25x CCM"),
            "{notes}"
        );
        assert!(notes.contains("(OpenSSL): holds here"), "{notes}");
    }
}
