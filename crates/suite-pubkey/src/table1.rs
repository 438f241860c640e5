//! Seed 000 Table 1, measured: NIST's key-length table (SP 800-57) set ECC
//! key sizes beside RSA sizes of the same strength, with key-length ratios
//! from 1:6 to 1:30. Here each level's curve and RSA modulus are timed
//! (keygen, sign, verify) and sized, and the measured time ratio stands
//! beside the table's key-length ratio. [`suite`] plans exactly those cells
//! (for `paper ecc-keygen`); [`table`] draws them from any run.
//!
//! RSA key generation at 7680 and 15360 bits can take minutes; it is
//! planned only when an estimate from one 2048-bit keygen fits the budget.

use crate::algorithms::{by_name, Algorithm, KEYGEN, SIGN, VERIFY};
use crate::handshake::fastest;
use crate::{Options, PubkeySuite};
use cryptobench_core::units::format_ns;
use cryptobench_core::{Measurement, RunConfig, Table};
use std::time::Instant;

/// One row of NIST's table: (security bits, curve set, RSA set, ECC key
/// bits, RSA key bits).
pub const LEVELS: [(u32, &str, &str, u32, u32); 3] = [
    (128, "ECDSA-P256", "RSA-3072-PKCS1", 256, 3072),
    (192, "ECDSA-P384", "RSA-7680-PKCS1", 384, 7680),
    (256, "ECDSA-P521", "RSA-15360-PKCS1", 521, 15360),
];

/// The suite that measures Table 1's cells.
pub fn suite() -> PubkeySuite {
    let algs: Vec<&'static Algorithm> = LEVELS
        .iter()
        .flat_map(|(_, ecc, rsa, _, _)| [by_name(ecc), by_name(rsa)])
        .flatten()
        .collect();
    PubkeySuite::new(Options {
        algorithms: Some(algs),
        operations: None,
        no_peers: true,
    })
}

/// Table 1 over a run (None when none of its cells were measured).
pub fn table(ms: &[Measurement]) -> Option<Table> {
    let mut t = Table::new(
        "seed 000 Table 1, measured: ECC vs RSA at each NIST security level",
        [
            "bits",
            "ECC",
            "RSA",
            "key ratio",
            "keygen ECC / RSA",
            "sign ECC / RSA",
            "verify ECC / RSA",
            "sig bytes ECC / RSA",
        ],
    )
    .right(&[0, 3, 4, 5, 6, 7]);
    let cell = |ecc: &str, rsa: &str, op: &str| -> Option<String> {
        let e = fastest(ms, ecc, op)?.stats.as_ref()?.median;
        let r = fastest(ms, rsa, op)?.stats.as_ref()?.median;
        Some(format!(
            "{} / {} = 1:{:.1}",
            format_ns(e),
            format_ns(r),
            r / e
        ))
    };
    let mut any = false;
    for (bits, ecc, rsa, ecc_bits, rsa_bits) in LEVELS {
        let cells: Vec<Option<String>> = [KEYGEN, SIGN, VERIFY]
            .iter()
            .map(|op| cell(ecc, rsa, op))
            .collect();
        if cells.iter().all(Option::is_none) {
            continue;
        }
        any = true;
        let sizes = match (by_name(ecc), by_name(rsa)) {
            (Some(e), Some(r)) => format!("{} / {}", e.output_bytes, r.output_bytes),
            _ => "-".into(),
        };
        let mut row = vec![
            bits.to_string(),
            ecc.to_string(),
            rsa.to_string(),
            format!("1:{:.1}", rsa_bits as f64 / ecc_bits as f64),
        ];
        row.extend(cells.into_iter().map(|c| c.unwrap_or_else(|| "-".into())));
        row.push(sizes);
        t.row(row);
    }
    if !any {
        return None;
    }
    t.note("key ratio = RSA modulus bits / ECC key bits (the seed's 1:6 .. 1:30 column); 1:x in the time columns = RSA time / ECC time, fastest verified backend each");
    t.note("verify favours RSA (small public exponent); keygen and sign favour ECC by more than the key ratio");
    Some(t)
}

/// `Some(reason)` when an RSA keygen above 4096 bits would not fit this
/// run's budget: one 2048-bit keygen on `backend` is timed and scaled by
/// (bits / 2048)^4 (prime search density x modular exponentiation cost).
pub fn rsa_keygen_over_budget(alg: &Algorithm, backend: &str, cfg: &RunConfig) -> Option<String> {
    let bits = alg.rsa_bits().filter(|b| *b > 4096)?;
    let small = by_name("RSA-2048-PKCS1")?;
    let entry = crate::case::signer_entry(small, backend)?;
    let start = Instant::now();
    entry.generate().ok()?;
    let probe = start.elapsed().as_secs_f64();
    let estimate = probe * (bits as f64 / 2048.0).powi(4);
    // Each slow case takes at least `min_slow_samples` calls.
    let allowed = cfg.budget.time_per_case.as_secs_f64() * 10.0;
    (estimate * cfg.budget.min_slow_samples as f64 > allowed).then(|| {
        format!(
            "keygen takes ~{estimate:.0} s here (one 2048-bit keygen took {}, times (bits/2048)^4); over this run's budget",
            format_ns(probe * 1e9)
        )
    })
}
