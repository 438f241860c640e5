//! `cryptobench paper aegis` and `cryptobench paper gcm-vs-ccm`.
//!
//! Each paper configures the suite as the seed's experiment, then prints the
//! published figures (copied from the seed document, source named) beside
//! this machine's, with one "holds here" / "differs here" line per claim.

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
        let mut t = Table::new(
            "Seed 003 (AMD Ryzen 4800H, PHP 8.4 sodium) beside this machine (libsodium 1.0.22, same calls)",
            ["algorithm", "published GB/s (20 MB)", "here GB/s", "published ops/s (1 KB)", "here ops/s"],
        )
        .right(&[1, 2, 3, 4]);
        for (sodium_name, ours, gb, op) in SEED003 {
            let (r, o) = sodium_figures(ms, ours);
            t.row([
                sodium_name.to_string(),
                format!("{gb:.2}"),
                r.map(|r| format!("{:.2}", r / 1e9))
                    .unwrap_or_else(|| "-".into()),
                units::format_ops(op),
                o.map(units::format_ops).unwrap_or_else(|| "-".into()),
            ]);
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
