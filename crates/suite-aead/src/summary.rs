//! The suite's own tables: seed 003's (GB/s on 20 MB, operations/s on 1 KB,
//! speed against AES-256-GCM), seed 004's GCM-to-CCM ratio, availability
//! with reasons, and the fidelity ratio against `openssl speed`.
//!
//! Every function here is pure over finished measurements so the `paper`
//! entries and the binary draw the same figures.

use crate::{PEER_BYTES, SEED003_OPS_BYTES, SEED003_RATE_BYTES, SUITE};
use cryptobench_core::model::OPENSSL_SPEED as PEER;
use cryptobench_core::verdict::speedup;
use cryptobench_core::{units, CaseStatus, Measurement, Table};
use std::collections::BTreeMap;

/// A message that stays in the caches: where AEADs run at CPU speed.
pub const IN_CACHE_BYTES: u64 = 1_048_576;

/// Bytes per second of a measured case.
pub fn rate(m: &Measurement) -> Option<f64> {
    let s = m.stats.as_ref()?;
    s.bytes_per_s.or_else(|| {
        (s.median > 0.0 && m.input_bytes > 0).then(|| m.input_bytes as f64 * 1e9 / s.median)
    })
}

/// Operations per second of a measured case.
pub fn ops(m: &Measurement) -> Option<f64> {
    let s = m.stats.as_ref()?;
    if s.ops_per_s > 0.0 {
        Some(s.ops_per_s)
    } else {
        (s.median > 0.0).then(|| 1e9 / s.median)
    }
}

fn measured<'a>(ms: &'a [Measurement], op: &'a str) -> impl Iterator<Item = &'a Measurement> + 'a {
    ms.iter().filter(move |m| {
        m.suite == SUITE
            && m.status == CaseStatus::Measured
            && m.operation == op
            && m.backend != PEER
    })
}

/// The size used for "data rate": 20 MB when measured, else the largest.
pub fn rate_size(ms: &[Measurement]) -> Option<u64> {
    let sizes: Vec<u64> = measured(ms, "encrypt").map(|m| m.input_bytes).collect();
    if sizes.contains(&SEED003_RATE_BYTES) {
        Some(SEED003_RATE_BYTES)
    } else {
        sizes.into_iter().max()
    }
}

/// Encrypt rate of (algorithm, backend) at `size`.
pub fn encrypt_rate(ms: &[Measurement], alg: &str, backend: &str, size: u64) -> Option<f64> {
    measured(ms, "encrypt")
        .find(|m| m.primitive == alg && m.backend == backend && m.input_bytes == size)
        .and_then(rate)
}

/// The best backend's encrypt rate of `alg` at `size`, with its name.
pub fn best_rate(ms: &[Measurement], alg: &str, size: u64) -> Option<(f64, String)> {
    measured(ms, "encrypt")
        .filter(|m| m.primitive == alg && m.input_bytes == size)
        .filter_map(|m| rate(m).map(|r| (r, m.backend.clone())))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Fastest (algorithm, backend, rate) at `size`.
pub fn fastest(ms: &[Measurement], size: u64) -> Option<(String, String, f64)> {
    measured(ms, "encrypt")
        .filter(|m| m.input_bytes == size)
        .filter_map(|m| rate(m).map(|r| (m.primitive.clone(), m.backend.clone(), r)))
        .max_by(|a, b| a.2.total_cmp(&b.2))
}

fn gbps(r: f64) -> String {
    format!("{:.2} GB/s", r / 1e9)
}

/// Seed 003's table with this machine's figures.
pub fn seed003_table(ms: &[Measurement]) -> Option<Table> {
    let size = rate_size(ms)?;
    let mut t = Table::new(
        format!(
            "AEAD encryption (seed 003's table): data rate at {}, operations/s at {}",
            units::format_size(size),
            units::format_size(SEED003_OPS_BYTES)
        ),
        [
            "algorithm",
            "backend",
            "data rate",
            "ops/s at 1 KB",
            "vs best AES-256-GCM",
        ],
    )
    .right(&[2, 3, 4]);
    let reference = best_rate(ms, "AES-256-GCM", size);
    let mut pairs: Vec<(String, String)> = measured(ms, "encrypt")
        .map(|m| (m.primitive.clone(), m.backend.clone()))
        .collect();
    pairs.sort_by_key(|(a, b)| (order(a), b.clone()));
    pairs.dedup();
    for (alg, backend) in pairs {
        let r = encrypt_rate(ms, &alg, &backend, size);
        let o = measured(ms, "encrypt")
            .find(|m| {
                m.primitive == alg && m.backend == backend && m.input_bytes == SEED003_OPS_BYTES
            })
            .and_then(ops);
        if r.is_none() && o.is_none() {
            continue;
        }
        let vs = match (r, &reference) {
            (Some(r), Some((g, _))) if *g > 0.0 => format!("{:.2}x", r / g),
            _ => "-".into(),
        };
        t.row([
            alg,
            backend,
            r.map(gbps).unwrap_or_else(|| "-".into()),
            o.map(units::format_ops).unwrap_or_else(|| "-".into()),
            vs,
        ]);
    }
    if size != SEED003_RATE_BYTES {
        t.note(format!(
            "20 MB was not measured in this run; data rate shown at {}",
            units::format_size(size)
        ));
    }
    if let Some((g, b)) = &reference {
        t.note(format!("reference: AES-256-GCM on {b}, {}", gbps(*g)));
    }
    for at in [size, IN_CACHE_BYTES] {
        if at != size && !measured(ms, "encrypt").any(|m| m.input_bytes == at) {
            continue;
        }
        if let Some((alg, backend, r)) = fastest(ms, at) {
            let mut line = format!(
                "fastest AEAD at {}: {alg} on {backend}, {}",
                units::format_size(at),
                gbps(r)
            );
            if let Some((g, b)) = best_rate(ms, "AES-256-GCM", at) {
                line.push_str(&format!(" = {:.2}x the best AES-256-GCM ({b})", r / g));
            }
            t.note(line);
        }
        if at == IN_CACHE_BYTES {
            break;
        }
    }
    if size > IN_CACHE_BYTES {
        t.note("20 MB in and 20 MB out stream through memory: the fastest AEADs run near memory bandwidth there, so their lead is smaller than at 1 MiB, which stays in cache");
    }
    Some(t)
}

/// Table position of an algorithm name (the order of the algorithm table).
fn order(name: &str) -> usize {
    crate::algorithms::ALGORITHMS
        .iter()
        .position(|a| a.name == name)
        .unwrap_or(usize::MAX)
}

/// GCM's and CCM's rates (bytes/s) for one backend, key size, operation
/// and size, and GCM / CCM as the verdicts read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GcmCcm {
    /// GCM's bytes per second.
    pub gcm: f64,
    /// CCM's bytes per second.
    pub ccm: f64,
    /// The paired ratio (the median of per-round ratios, [`speedup`]) when
    /// the two were timed in one group, else the rates' quotient. The two
    /// differ when one member sampled more rounds than the other: seed
    /// 004's PHP encrypt showed 2.09x from the rates beside a verdict
    /// reading 1.96x.
    pub ratio: f64,
}

impl GcmCcm {
    /// The figures of a GCM and a CCM measurement.
    pub fn of(gcm: &Measurement, ccm: &Measurement) -> Option<Self> {
        Some(Self {
            gcm: rate(gcm)?,
            ccm: rate(ccm)?,
            ratio: speedup(gcm, ccm)?.value,
        })
    }
}

/// The GCM and CCM measurements of one key size, backend and operation at
/// `size`; the GCM case is the one called as its CCM case is (a runtime's
/// same API).
pub fn gcm_ccm_pair<'a>(
    ms: &'a [Measurement],
    bits: u32,
    backend: &str,
    op: &'a str,
    size: u64,
) -> Option<(&'a Measurement, &'a Measurement)> {
    let (gcm_name, ccm_name) = (format!("AES-{bits}-GCM"), format!("AES-{bits}-CCM"));
    let here = |m: &&Measurement, name: &str| {
        m.primitive == name && m.backend == backend && m.input_bytes == size
    };
    measured(ms, op)
        .filter(|m| here(m, &ccm_name))
        .find_map(|ccm| {
            let gcm = measured(ms, op).find(|g| here(g, &gcm_name) && g.params == ccm.params)?;
            Some((gcm, ccm))
        })
}

/// GCM against CCM for one key size, backend and operation at `size`
/// ([`gcm_ccm_pair`]).
pub fn gcm_over_ccm(
    ms: &[Measurement],
    bits: u32,
    backend: &str,
    op: &str,
    size: u64,
) -> Option<GcmCcm> {
    let (gcm, ccm) = gcm_ccm_pair(ms, bits, backend, op, size)?;
    GcmCcm::of(gcm, ccm)
}

/// Seed 004's comparison: GCM against CCM per backend, key size and operation.
pub fn seed004_table(ms: &[Measurement]) -> Option<Table> {
    let size = ms
        .iter()
        .filter(|m| {
            m.suite == SUITE && m.primitive.ends_with("-CCM") && m.status == CaseStatus::Measured
        })
        .map(|m| m.input_bytes)
        .max()?;
    let mut t = Table::new(
        format!("GCM vs CCM at {} (seed 004)", units::format_size(size)),
        ["backend", "key", "operation", "GCM", "CCM", "GCM / CCM"],
    )
    .right(&[3, 4, 5]);
    let mut backends: Vec<String> = ms.iter().map(|m| m.backend.clone()).collect();
    backends.sort();
    backends.dedup();
    for backend in &backends {
        for bits in [128, 256] {
            for op in ["encrypt", "decrypt"] {
                if let Some(f) = gcm_over_ccm(ms, bits, backend, op, size) {
                    t.row([
                        backend.clone(),
                        format!("AES-{bits}"),
                        op.to_string(),
                        gbps(f.gcm),
                        gbps(f.ccm),
                        format!("{:.2}x", f.ratio),
                    ]);
                }
            }
        }
    }
    if t.rows.is_empty() {
        return None;
    }
    t.note("seed 004 (PHP 7.1, OpenSSL, Core i7, 10 MiB): GCM is about 3x faster than CCM");
    Some(t)
}

/// Cells that did not run, with their reasons, plus the CPU features that
/// decide AES availability.
pub fn availability_table(ms: &[Measurement]) -> Option<Table> {
    let mut reasons: BTreeMap<(usize, String, String), (String, String)> = BTreeMap::new();
    for m in ms.iter().filter(|m| m.suite == SUITE) {
        if matches!(m.status, CaseStatus::Unavailable | CaseStatus::Skipped) {
            reasons
                .entry((order(&m.primitive), m.primitive.clone(), m.backend.clone()))
                .or_insert((
                    m.status.as_str().to_string(),
                    m.reason.clone().unwrap_or_default(),
                ));
        }
    }
    let mut t = Table::new(
        "AEAD availability on this machine",
        ["algorithm", "backend", "status", "reason"],
    );
    for ((_, alg, backend), (status, reason)) in reasons {
        t.row([alg, backend, status, reason]);
    }
    let flags: Vec<String> = ["aes", "pclmulqdq", "avx2", "vaes", "vpclmulqdq", "avx512f"]
        .iter()
        .map(|f| {
            format!(
                "{f} {}",
                if cryptobench_engine::host::cpu::has(f) {
                    "yes"
                } else {
                    "no"
                }
            )
        })
        .collect();
    t.note(format!("CPU: {}", flags.join(", ")));
    t.note(format!(
        "libsodium AES-256-GCM available: {}",
        if crate::backend::sodium_aes256gcm_available() {
            "yes"
        } else {
            "no (needs AES-NI + PCLMUL)"
        }
    ));
    let mut versions: Vec<String> = ms
        .iter()
        .filter(|m| m.suite == SUITE)
        .map(|m| format!("{}: {}", m.backend, m.backend_version))
        .collect();
    versions.sort();
    versions.dedup();
    for v in versions {
        t.note(v);
    }
    Some(t)
}

/// The fidelity band: our figure over `openssl speed`'s, same work.
const FIDELITY_BAND: (f64, f64) = cryptobench_core::paper::FIDELITY_BAND;

/// The measured case of `alg` on `backend` (a peer too) at `op` and `size`.
pub fn measured_case<'a>(
    ms: &'a [Measurement],
    alg: &str,
    backend: &str,
    op: &str,
    size: u64,
) -> Option<&'a Measurement> {
    ms.iter()
        .filter(|m| m.suite == SUITE && m.backend == backend && m.primitive == alg)
        .filter(|m| m.operation == op && m.input_bytes == size)
        .find(|m| m.status == CaseStatus::Measured)
}

/// The OpenSSL (or peer) measurement of `alg`/`op` at 16 KiB.
fn case_at_peer_size<'a>(
    ms: &'a [Measurement],
    alg: &str,
    backend: &str,
    op: &str,
) -> Option<&'a Measurement> {
    measured_case(ms, alg, backend, op, PEER_BYTES)
}

/// Rate of the OpenSSL (or peer) measurement of `alg`/`op` at 16 KiB.
fn at_peer_size(ms: &[Measurement], alg: &str, backend: &str, op: &str) -> Option<f64> {
    case_at_peer_size(ms, alg, backend, op).and_then(rate)
}

/// OpenSSL through cryptobench against `openssl speed -evp` at 16 KiB.
///
/// The fidelity figure is the like-for-like one: the `stream` case repeats
/// exactly the call `openssl speed -evp` times. The sealed-message figure
/// sits beside it with what sealing adds per message, which
/// `openssl speed -evp` does not do ([`fidelity_work_table`]).
pub fn fidelity_table(ms: &[Measurement]) -> Option<Table> {
    let mut t = Table::new(
        format!(
            "Fidelity: OpenSSL through cryptobench vs `openssl speed -evp` at 16 KiB (target {}-{} on the 95% interval)",
            FIDELITY_BAND.0,
            FIDELITY_BAND.1
        ),
        [
            "algorithm",
            "openssl speed -evp",
            "same loop here",
            "fidelity",
            "target",
            "sealed messages",
            "sealed / speed",
            "sealing adds",
        ],
    )
    .right(&[1, 2, 3, 5, 6, 7]);
    for alg in ["AES-256-GCM", "ChaCha20-Poly1305"] {
        let Some(peer) = at_peer_size(ms, alg, PEER, "encrypt") else {
            continue;
        };
        let cell = |r: Option<f64>| r.map(gbps).unwrap_or_else(|| "-".into());
        let ratio = |r: Option<f64>| r.map(|r| r / peer);
        let three = |r: Option<f64>| r.map(|r| format!("{r:.3}")).unwrap_or_else(|| "-".into());
        let stream = at_peer_size(ms, alg, "openssl", crate::stream::STREAM);
        let sealed = encrypt_rate(ms, alg, "openssl", PEER_BYTES);
        let target = match (
            case_at_peer_size(ms, alg, "openssl", crate::stream::STREAM),
            case_at_peer_size(ms, alg, PEER, "encrypt"),
        ) {
            (Some(ours), Some(peer)) => cryptobench_core::paper::fidelity(speedup(ours, peer)).1,
            _ => "-".to_string(),
        };
        let adds = match (stream, sealed) {
            (Some(s), Some(e)) => {
                let ns = PEER_BYTES as f64 * 1e9 * (1.0 / e - 1.0 / s);
                format!(
                    "{}{} per message",
                    if ns < 0.0 { "-" } else { "+" },
                    units::format_ns(ns.abs())
                )
            }
            _ => "-".into(),
        };
        t.row([
            alg.to_string(),
            gbps(peer),
            cell(stream),
            three(ratio(stream)),
            target,
            cell(sealed),
            three(ratio(sealed)),
            adds,
        ]);
    }
    if t.rows.is_empty() {
        return None;
    }
    if t.rows.iter().any(|r| r[7].starts_with('-') && r[7] != "-") {
        t.note("a negative \"sealing adds\" means the run's noise (machine load) exceeded the per-message difference: rerun on a quieter machine");
    }
    t.note("fidelity = same loop here / openssl speed -evp: both sides do the same work (next table); \"sealed / speed\" sets a whole AEAD message against that loop, so it also counts the per-message work openssl speed -evp leaves out (\"sealing adds\")");
    Some(t)
}

/// What each side of the fidelity comparison does per 16 KiB.
pub fn fidelity_work_table(ms: &[Measurement]) -> Option<Table> {
    if at_peer_size(ms, "AES-256-GCM", PEER, "encrypt").is_none()
        && at_peer_size(ms, "ChaCha20-Poly1305", PEER, "encrypt").is_none()
    {
        return None;
    }
    let mut t = Table::new(
        "Fidelity: what each side times per 16 KiB (OpenSSL 3.0 EVP calls)",
        ["side", "timed calls per message", "work per message"],
    );
    t.row([
        "openssl speed -evp ALG -bytes 16384",
        "EVP_EncryptUpdate(16384 B, in place) on one context; the nonce is set once before timing and EVP_EncryptFinal_ex runs once after the whole loop",
        "the cipher over 16 KiB (AES-CTR + GHASH, or ChaCha20 + Poly1305) as one endless message: no nonce, no Poly1305 key, no padding or length block, no tag",
    ]);
    t.row([
        "same loop here (operation stream)",
        "the same EVP_EncryptUpdate call on one context, in-process",
        "identical to openssl speed -evp",
    ]);
    t.row([
        "sealed messages (operation encrypt)",
        "EVP_EncryptInit_ex (fresh 12-byte nonce), EVP_EncryptUpdate(16384 B), EVP_EncryptFinal_ex, EVP_CIPHER_CTX_get_params (tag)",
        "one complete AEAD message: the cipher over 16 KiB plus, for ChaCha20-Poly1305, a ChaCha20 block for the one-time Poly1305 key, Poly1305 setup, padding and length block and the tag; for AES-GCM the counter-block setup, the length block and the tag",
    ]);
    t.note("openssl speed -aead would time init + 13 B AAD + update + final per message (no tag read): a sealed message without reading its tag; it is not run here");
    Some(t)
}

/// What was checked before timing, once per algorithm x backend: vectors,
/// tamper ("tamper: 256/256 rejected") and the interop matrix row.
pub fn checks_table(ms: &[Measurement]) -> Option<Table> {
    let mut seen: BTreeMap<(usize, String, String), &Measurement> = BTreeMap::new();
    for m in ms
        .iter()
        .filter(|m| m.suite == SUITE && !m.checks.is_empty())
    {
        seen.entry((order(&m.primitive), m.primitive.clone(), m.backend.clone()))
            .or_insert(m);
    }
    if seen.is_empty() {
        return None;
    }
    let mut t = Table::new(
        "AEAD checks before timing (once per algorithm x backend)",
        ["algorithm", "backend", "known answers", "tamper", "interop"],
    );
    for ((_, alg, backend), m) in seen {
        let find = |prefix: &str| -> Vec<String> {
            m.checks
                .iter()
                .filter(|c| c.name.starts_with(prefix))
                .map(|c| {
                    let outcome = match c.outcome {
                        cryptobench_core::CheckOutcome::Pass => "pass",
                        cryptobench_core::CheckOutcome::Fail => "FAIL",
                        cryptobench_core::CheckOutcome::Skipped => "skipped",
                    };
                    let counts = c.detail.split(" (").next().unwrap_or(&c.detail);
                    match c.name.strip_prefix("kat:") {
                        Some(source) => format!("{source}: {outcome}, {counts}"),
                        None if c.outcome == cryptobench_core::CheckOutcome::Pass => {
                            c.detail.clone()
                        }
                        None => format!("{outcome}: {}", c.detail),
                    }
                })
                .collect()
        };
        t.row([
            alg,
            backend,
            find("kat").join("; "),
            find("tamper").join("; "),
            find("interop").join("; "),
        ]);
    }
    Some(t)
}

/// Every summary table that has data.
pub fn tables(ms: &[Measurement]) -> Vec<Table> {
    [
        seed003_table(ms),
        seed004_table(ms),
        fidelity_table(ms),
        fidelity_work_table(ms),
        checks_table(ms),
        availability_table(ms),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The one-screen summary: the AEAD advice `recommend` gives for the same
/// run (one function for both, `cryptobench_core::advice::aead`), so the
/// two never name different winners.
pub fn headline(ms: &[Measurement]) -> Vec<String> {
    cryptobench_core::advice::aead(ms)
        .iter()
        .map(|a| a.line())
        .collect()
}

#[cfg(test)]
mod fidelity_tests {
    use super::*;

    fn measured(primitive: &str, backend: &str, op: &str, bytes_per_s: f64) -> Measurement {
        crate::tests::fake(primitive, backend, op, PEER_BYTES, bytes_per_s)
    }

    #[test]
    fn fidelity_is_the_like_for_like_loop_with_sealing_beside_it() {
        // 16384 B at 4.096 GB/s = 4 us; at 3.2768 GB/s = 5 us.
        let ms = vec![
            measured("ChaCha20-Poly1305", PEER, "encrypt", 4.096e9),
            measured(
                "ChaCha20-Poly1305",
                "openssl",
                crate::stream::STREAM,
                4.096e9 * 0.99,
            ),
            measured("ChaCha20-Poly1305", "openssl", "encrypt", 3.2768e9),
            measured("AES-256-GCM", PEER, "encrypt", 4e9),
            measured("AES-256-GCM", "openssl", crate::stream::STREAM, 3.8e9),
        ];
        let t = fidelity_table(&ms).expect("a fidelity table");
        let chacha = t.rows.iter().find(|r| r[0] == "ChaCha20-Poly1305").unwrap();
        assert_eq!(chacha[3], "0.990");
        assert!(chacha[4].starts_with("met: 0.990"), "{}", chacha[4]);
        assert_eq!(chacha[6], "0.800");
        // 5 us sealed against 4 us / 0.99 in the loop.
        assert_eq!(chacha[7], "+960 ns per message");
        let gcm = t.rows.iter().find(|r| r[0] == "AES-256-GCM").unwrap();
        assert_eq!(gcm[3], "0.950");
        assert!(
            gcm[4].starts_with("slower than the peer: 0.950"),
            "{}",
            gcm[4]
        );
        assert_eq!(gcm[5], "-");
        assert_eq!(gcm[7], "-");
        assert!(!t.notes.iter().any(|n| n.contains("negative")));
        // Noise can make the sealed case look faster than the loop.
        let noisy = vec![
            measured("AES-256-GCM", PEER, "encrypt", 4e9),
            measured("AES-256-GCM", "openssl", crate::stream::STREAM, 3.8e9),
            measured("AES-256-GCM", "openssl", "encrypt", 4.2e9),
        ];
        let t = fidelity_table(&noisy).unwrap();
        assert!(t.rows[0][7].starts_with("-"), "{}", t.rows[0][7]);
        assert!(t.notes.iter().any(|n| n.contains("negative")));
        let work = fidelity_work_table(&ms).expect("a work table");
        assert_eq!(work.rows.len(), 3);
        assert!(work.rows[2][1].contains("EVP_EncryptInit_ex"));
        let all = tables(&ms);
        let fid = all
            .iter()
            .position(|t| t.title.starts_with("Fidelity: OpenSSL"));
        let what = all
            .iter()
            .position(|t| t.title.starts_with("Fidelity: what"));
        assert_eq!(what, fid.map(|i| i + 1));
    }

    #[test]
    fn no_fidelity_tables_without_the_peer() {
        let ms = vec![measured("ChaCha20-Poly1305", "openssl", "encrypt", 3e9)];
        assert!(fidelity_table(&ms).is_none());
        assert!(fidelity_work_table(&ms).is_none());
    }
}
