//! Curve advice per security level, weighed on what a curve is used for.
//!
//! Key generation alone says little about a handshake or a signature, and
//! with `--quick` the ecc suite measures nothing else, so advice weighed on
//! it named a different tie set from run to run. The pubkey suite measures
//! key agreement, signing and verifying in every run, so a curve *family*
//! (P-256: ECDH-P256 derive + ECDSA-P256 sign + verify; Curve25519: X25519
//! derive + Ed25519 sign + verify; ...) is weighed on the sum of those at
//! one library: the cheapest in sum that measured them all. Where the
//! pubkey suite measured nothing for an operation the ecc suite's own
//! ecdh/sign/verify stands in, and key generation only where no use is
//! measured at all. Every family of a level is weighed on the same
//! operations: the largest set some family has measured; families without
//! it are named as not weighed.
//!
//! The pubkey suite times the families of one level in one comparison
//! group per operation ([`curve_level_of`]), so two families are weighed
//! side by side: on the ratio of their costs in each round. Timed in
//! separate groups, the cost of each moved with the moment it met, and on
//! a noisy host P-256 (1.6x Curve25519's cost) was listed as tied with
//! Curve25519 in one run of an identical pair and not in the other.

use super::{
    backend_rank, choose_side_by_side, is_caution_label, tied_in_rounds, timed_together, verified,
    weight, Advice, Measurement, TIE_MARGIN,
};
use crate::units::format_ns;
use crate::verdict::seed_of;

/// Security levels of the curve advice: (name, lowest security bits,
/// highest security bits).
pub const CURVE_LEVELS: [(&str, u32, u32); 3] = [
    ("128-bit", 126, 191),
    ("192-bit", 192, 223),
    ("256-bit", 224, u32::MAX),
];

/// The curve families both suites know, one a row: name, security bits,
/// the pubkey suite's primitives for key agreement and for signatures, and
/// the ecc suite's curve names for the same. Any other ecc curve is a
/// family of its own.
const FAMILIES: [(&str, u32, &str, &str, &str, &str); 5] = [
    (
        "P-256",
        128,
        "ECDH-P256",
        "ECDSA-P256",
        "prime256v1",
        "prime256v1",
    ),
    ("Curve25519", 128, "X25519", "Ed25519", "X25519", "Ed25519"),
    (
        "P-384",
        192,
        "ECDH-P384",
        "ECDSA-P384",
        "secp384r1",
        "secp384r1",
    ),
    ("Curve448", 224, "X448", "Ed448", "X448", "Ed448"),
    (
        "P-521",
        260,
        "ECDH-P521",
        "ECDSA-P521",
        "secp521r1",
        "secp521r1",
    ),
];

/// The security level ([`CURVE_LEVELS`]' name) of a pubkey primitive that
/// belongs to a curve family (X25519, ECDSA-P256, ...); `None` for any
/// other. The pubkey suite times a level's families in one group per
/// operation, so the curve advice weighs them side by side.
pub fn curve_level_of(primitive: &str) -> Option<&'static str> {
    let &(_, bits, ..) = FAMILIES
        .iter()
        .find(|&&(_, _, agree, sign, ..)| agree == primitive || sign == primitive)?;
    CURVE_LEVELS
        .iter()
        .find(|&&(_, lo, hi)| (lo..=hi).contains(&bits))
        .map(|&(name, ..)| name)
}

/// What a family is weighed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    Agree,
    Sign,
    Verify,
    Keygen,
}

/// The sets of uses tried in order: all three, then pairs, then one, and
/// key generation last. A level is weighed on the first set some family
/// has measured in full.
const BASES: [&[Use]; 8] = [
    &[Use::Agree, Use::Sign, Use::Verify],
    &[Use::Agree, Use::Sign],
    &[Use::Agree, Use::Verify],
    &[Use::Sign, Use::Verify],
    &[Use::Agree],
    &[Use::Sign],
    &[Use::Verify],
    &[Use::Keygen],
];

/// Standard and interop status of a family, 0 = most widely deployed.
fn standing(name: &str) -> u32 {
    let n = name.to_ascii_lowercase();
    match n.as_str() {
        "curve25519" | "x25519" | "ed25519" => 0, // RFC 7748/8032, TLS 1.3 default
        "p-256" | "prime256v1" | "p-384" | "secp384r1" | "p-521" | "secp521r1" => 1,
        "curve448" | "x448" | "ed448" => 2,
        _ if n.starts_with("brainpool") => 3,
        _ => 4,
    }
}

/// Why an ecc curve is kept out of curve advice, if it is.
fn excluded(m: &Measurement) -> Option<&'static str> {
    let p = m.primitive.to_ascii_lowercase();
    let binary = p.starts_with("c2")
        || p.starts_with("sect")
        || p.starts_with("oakley-ec2n")
        || m.labels.iter().any(|l| l.contains("binary curve"));
    if binary {
        Some("deprecated binary curve")
    } else if m
        .labels
        .iter()
        .any(|l| l == "not for new designs" || is_caution_label(l))
    {
        Some("not for new designs")
    } else {
        None
    }
}

/// A family as weighed: its name, level and the cases of each use.
struct Weighed<'a> {
    name: String,
    ops: Vec<&'a Measurement>,
    value: f64,
    lo: f64,
    hi: f64,
}

/// The cases of one family, by use, from the verified curve cases.
struct Candidate<'c, 'a> {
    name: String,
    security_bits: u32,
    cases: &'c [&'a Measurement],
    agree: String,
    sign: String,
    ecc_agree: String,
    ecc_sign: String,
}

impl<'a> Candidate<'_, 'a> {
    /// The cases measuring `use_` on this family: the pubkey suite's where
    /// it has any, else the ecc suite's.
    fn cases_for(&self, use_: Use) -> Vec<&'a Measurement> {
        let pick = |suite: &str, prim: &str, op: &str| -> Vec<&'a Measurement> {
            self.cases
                .iter()
                .copied()
                .filter(|m| m.suite == suite && m.primitive == prim && m.operation == op)
                .collect()
        };
        let (pubkey, ecc) = match use_ {
            Use::Agree => (
                pick("pubkey", &self.agree, "derive"),
                pick("ecc", &self.ecc_agree, "ecdh"),
            ),
            Use::Sign => (
                pick("pubkey", &self.sign, "sign"),
                pick("ecc", &self.ecc_sign, "sign"),
            ),
            Use::Verify => (
                pick("pubkey", &self.sign, "verify"),
                pick("ecc", &self.ecc_sign, "verify"),
            ),
            Use::Keygen => {
                let agree = pick("ecc", &self.ecc_agree, "keygen");
                let sign = pick("ecc", &self.ecc_sign, "keygen");
                (agree, sign)
            }
        };
        if pubkey.is_empty() {
            ecc
        } else {
            pubkey
        }
    }

    /// The family weighed on `basis` at one library: the library that
    /// measured every use, the cheapest in sum ([`pick_library`]). Where no
    /// library measured them all (the ecc suite's stand-ins beside the
    /// pubkey suite's), each use at its fastest backend side by side.
    /// `None` when a use is unmeasured.
    ///
    /// A use at a time, the backend flipped with the noise wherever two
    /// libraries ran a use within a few percent of the tie margin: Ed25519
    /// verify of aws-lc-rs was 1.055x and 1.114x faster than RustCrypto's
    /// in an identical pair of quick runs, and the 128-bit line named a
    /// different backend in each. Sums of the three uses lie further apart
    /// (Curve25519: 80 us with aws-lc-rs, 120 us with RustCrypto), and a
    /// caller uses one library for its handshake and its signatures.
    fn weigh(&self, basis: &[Use]) -> Option<Weighed<'a>> {
        let per_use: Vec<Vec<&'a Measurement>> = basis.iter().map(|&u| self.cases_for(u)).collect();
        if per_use.iter().any(Vec::is_empty) {
            return None;
        }
        let mut libraries: Vec<&str> = per_use[0].iter().map(|m| m.backend.as_str()).collect();
        libraries.sort_unstable();
        libraries.dedup();
        let whole: Vec<Weighed<'a>> = libraries
            .into_iter()
            .filter_map(|library| {
                let ops = per_use
                    .iter()
                    .map(|cases| cases.iter().copied().find(|m| m.backend == library))
                    .collect::<Option<Vec<_>>>()?;
                self.weighed(ops)
            })
            .collect();
        if !whole.is_empty() {
            return pick_library(whole);
        }
        let ops = per_use
            .iter()
            .map(|cases| choose_side_by_side(cases, |_| 0).map(|(m, _)| m))
            .collect::<Option<Vec<_>>>()?;
        self.weighed(ops)
    }

    /// The family's cost as the sum of `ops`' fastest rounds.
    fn weighed(&self, ops: Vec<&'a Measurement>) -> Option<Weighed<'a>> {
        let mut w = Weighed {
            name: self.name.clone(),
            ops: Vec::new(),
            value: 0.0,
            lo: 0.0,
            hi: 0.0,
        };
        for m in ops {
            let (value, lo, hi) = weight(m)?;
            w.value += value;
            w.lo += lo;
            w.hi += hi;
            w.ops.push(m);
        }
        Some(w)
    }
}

/// The library a family is weighed at: the cheapest in sum, or among
/// those tied with it within [`TIE_MARGIN`] (side by side where their uses
/// were timed in the same rounds, else on their fastest rounds) the first
/// in the backend order.
fn pick_library(mut whole: Vec<Weighed<'_>>) -> Option<Weighed<'_>> {
    let fastest = whole
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.value.total_cmp(&b.1.value))?
        .0;
    let tied: Vec<bool> = whole
        .iter()
        .enumerate()
        .map(|(i, w)| {
            i == fastest
                || costs_tied(&whole[fastest], w, TIE_MARGIN)
                    .unwrap_or(w.lo <= whole[fastest].hi * (1.0 + TIE_MARGIN))
        })
        .collect();
    let library = |w: &Weighed| w.ops.first().map(|m| m.backend.clone()).unwrap_or_default();
    let pick = (0..whole.len()).filter(|&i| tied[i]).min_by_key(|&i| {
        let name = library(&whole[i]);
        (backend_rank(&name), name)
    })?;
    Some(whole.swap_remove(pick))
}

/// `other`'s cost over `fastest`'s, round by round, when each use of both
/// was timed in one group: in round k, the uses' paired ratios weighted by
/// `fastest`'s time of each use. `None` when a use of the two was timed in
/// different groups (or rounds are missing).
fn cost_ratios(fastest: &Weighed, other: &Weighed) -> Option<Vec<f64>> {
    if fastest.ops.len() != other.ops.len() {
        return None;
    }
    let mut per_use = Vec::new();
    for (a, b) in fastest.ops.iter().zip(&other.ops) {
        if !timed_together(a, b) {
            return None;
        }
        let ratios = cryptobench_stats::round_ratios(&b.samples_ns, &a.samples_ns);
        per_use.push((weight(a)?.0, ratios));
    }
    let rounds = per_use.iter().map(|(_, r)| r.len()).min()?;
    let total: f64 = per_use.iter().map(|(w, _)| w).sum();
    if rounds < 2 || total <= 0.0 {
        return None;
    }
    Some(
        (0..rounds)
            .map(|k| per_use.iter().map(|(w, r)| w * r[k]).sum::<f64>() / total)
            .collect(),
    )
}

/// Two curve families are tied when their cost ratio's interval reaches
/// within this, and standard status decides between them. A family's cost
/// is the sum of its uses at one library, and the library alone moves it
/// by 25% and more (here OpenSSL's P-521 derive, sign and verify run
/// 1.25-1.9x aws-lc-rs's), so a smaller difference says which library is
/// faster here more than which curve is. The margin's edge must also lie
/// clear of the pairs measured, or the noise picks the side: P-521 cost
/// 1.10-1.12x Curve448 on 2026-11-28 and 1.145-1.162x on 2026-11-30
/// (medians of the per-round cost ratios, five quick runs each), so with
/// 5% the pair tied in one run of five and with 15% it split one run of
/// five the other way.
pub const FAMILY_TIE_MARGIN: f64 = 0.25;

/// Whether `other` costs the same as `fastest` side by side, when they
/// were ([`cost_ratios`]): by the rule backends of one group follow
/// ([`tied_in_rounds`]), within `margin`. `None` when they were not timed
/// side by side.
fn costs_tied(fastest: &Weighed, other: &Weighed, margin: f64) -> Option<bool> {
    let ratios = cost_ratios(fastest, other)?;
    let seed = seed_of(&fastest.name) ^ seed_of(&other.name).rotate_left(17);
    let (lo, _) = cryptobench_stats::bootstrap_median_ci(
        &ratios,
        0.95,
        cryptobench_stats::DEFAULT_RESAMPLES,
        seed,
    );
    Some(tied_in_rounds(
        lo.min(cryptobench_stats::median(&ratios)),
        &ratios,
        margin,
    ))
}

/// Every family with a verified case, its ecc curves named from the ecc
/// cases' own security level.
fn candidates<'c, 'a>(cases: &'c [&'a Measurement]) -> Vec<Candidate<'c, 'a>> {
    let mut out: Vec<Candidate> = FAMILIES
        .iter()
        .map(
            |&(name, security_bits, agree, sign, ecc_agree, ecc_sign)| Candidate {
                name: name.into(),
                security_bits,
                cases,
                agree: agree.into(),
                sign: sign.into(),
                ecc_agree: ecc_agree.into(),
                ecc_sign: ecc_sign.into(),
            },
        )
        .collect();
    let in_family = |name: &str| {
        FAMILIES
            .iter()
            .any(|&(.., ecc_agree, ecc_sign)| ecc_agree == name || ecc_sign == name)
    };
    let mut own: Vec<(String, u32)> = cases
        .iter()
        .filter(|m| m.suite == "ecc" && !in_family(&m.primitive))
        .filter_map(|m| {
            let bits = m.param("security_bits")?.parse().ok()?;
            Some((m.primitive.clone(), bits))
        })
        .collect();
    own.sort();
    own.dedup_by(|a, b| a.0 == b.0);
    out.extend(own.into_iter().map(|(name, bits)| Candidate {
        name: name.clone(),
        security_bits: bits,
        cases,
        agree: String::new(),
        sign: String::new(),
        ecc_agree: name.clone(),
        ecc_sign: name,
    }));
    out
}

fn use_name(m: &Measurement) -> String {
    format!(
        "{} {} ({}) {}",
        m.primitive,
        m.operation,
        m.backend,
        weight(m).map_or("-".into(), |w| format_ns(w.0))
    )
}

/// Curve advice per security level: the curve families of today's designs
/// (deprecated binary curves listed, never chosen), weighed on key
/// agreement, signing and verifying where measured (key generation
/// otherwise), each use by its fastest rounds ([`weight`]), ties on the
/// intervals resolved by standard status.
///
/// Two families timed side by side are tied on their cost ratio
/// ([`costs_tied`] within [`FAMILY_TIE_MARGIN`]). Families timed in
/// different groups (the ecc suite's stand-ins, runs stored before the
/// pubkey suite grouped them), at different moments of the run, are tied
/// within the larger of
/// [`FAMILY_TIE_MARGIN`] and `moment_floor`: how far this run's cases moved
/// against their group-mates between two moments (the floor `compare`
/// holds them to). With 5% alone, on a host whose moment floor read
/// 35-42%, Curve448 (800 us at its fastest rounds) came out clear of P-521
/// (925 us-1.25 ms) in one run of five and tied with it in the other four.
pub fn curves(ms: &[Measurement], moment_floor: Option<f64>) -> Vec<Advice<'_>> {
    let margin = FAMILY_TIE_MARGIN.max(moment_floor.unwrap_or(0.0));
    let curve_cases: Vec<&Measurement> = ms
        .iter()
        .filter(|m| (m.suite == "ecc" || m.suite == "pubkey") && verified(m))
        .collect();
    let (kept, left_out): (Vec<&Measurement>, Vec<&Measurement>) = curve_cases
        .iter()
        .copied()
        .partition(|m| excluded(m).is_none());
    let all = candidates(&kept);
    let bits = |m: &Measurement| m.param("security_bits").and_then(|b| b.parse::<u32>().ok());
    let mut out = Vec::new();
    for (level, lo_bits, hi_bits) in CURVE_LEVELS {
        let in_level = |b: u32| (lo_bits..=hi_bits).contains(&b);
        let families: Vec<&Candidate> = all.iter().filter(|c| in_level(c.security_bits)).collect();
        let Some(weighed) = BASES.iter().find_map(|basis| {
            let w: Vec<Weighed> = families.iter().filter_map(|c| c.weigh(basis)).collect();
            (!w.is_empty()).then_some(w)
        }) else {
            continue;
        };
        let Some(fastest) = weighed.iter().min_by(|a, b| a.value.total_cmp(&b.value)) else {
            continue;
        };
        // The families tied with the fastest: side by side where they were
        // timed so, else within the moment floor's margin (`by_floor`).
        let mut ties: Vec<&Weighed> = vec![fastest];
        let mut by_floor = false;
        for c in weighed.iter().filter(|c| c.name != fastest.name) {
            match costs_tied(fastest, c, FAMILY_TIE_MARGIN) {
                Some(true) => ties.push(c),
                Some(false) => {}
                None if c.lo <= fastest.hi * (1.0 + margin) => {
                    ties.push(c);
                    by_floor = true;
                }
                None => {}
            }
        }
        let margin = if by_floor { margin } else { FAMILY_TIE_MARGIN };
        ties.sort_by(|a, b| (standing(&a.name), &a.name).cmp(&(standing(&b.name), &b.name)));
        let pick = ties[0];
        let uses: Vec<String> = pick.ops.iter().map(|m| use_name(m)).collect();
        let mut text = format!("{}, weighed on {}", pick.name, uses.join(" + "));
        if pick.ops.len() > 1 {
            text.push_str(&format!(" = {}", format_ns(pick.value)));
        }
        if pick.ops.iter().any(|m| !m.samples_ns.is_empty()) {
            text.push_str(" (fastest rounds)");
        }
        let mut evidence: Vec<&Measurement> = pick.ops.clone();
        let others: Vec<&str> = ties
            .iter()
            .filter(|c| c.name != pick.name)
            .map(|c| c.name.as_str())
            .collect();
        if !others.is_empty() {
            text.push_str(&format!(
                "; tied within {:.0}%{} on the intervals with {} (ties broken by standard status)",
                margin * 100.0,
                if margin > FAMILY_TIE_MARGIN {
                    " (how far this run's cases moved against their group-mates)"
                } else {
                    ""
                },
                others.join(", ")
            ));
            for c in ties.iter().filter(|c| c.name != pick.name) {
                evidence.extend(c.ops.iter().copied());
            }
        }
        let mut unweighed: Vec<&str> = families
            .iter()
            .filter(|c| !weighed.iter().any(|w| w.name == c.name))
            .filter(|c| BASES.iter().any(|b| c.weigh(b).is_some()))
            .map(|c| c.name.as_str())
            .collect();
        unweighed.sort_unstable();
        if !unweighed.is_empty() {
            text.push_str(&format!(
                "; not weighed (not measured on the same operations): {}",
                unweighed.join(", ")
            ));
        }
        let mut binary: Vec<&str> = left_out
            .iter()
            .filter(|m| excluded(m) == Some("deprecated binary curve"))
            .filter(|m| bits(m).is_some_and(in_level))
            .map(|m| m.primitive.as_str())
            .collect();
        binary.sort_unstable();
        binary.dedup();
        if !binary.is_empty() {
            text.push_str(&format!(
                "; left out as deprecated binary curves: {}",
                binary.join(", ")
            ));
        }
        out.push(Advice {
            topic: format!("Curve, {level}"),
            text,
            evidence,
        });
    }
    out
}
