//! The handshake's key-share advice: what a post-quantum key share
//! (X25519MLKEM768's encapsulation) costs a TLS 1.3 server here against
//! X25519's keygen + derive, at the fastest verified backend of each.
//!
//! The pubkey suite times the hybrid's encapsulation in the rounds of
//! X25519's derive ([`KEY_SHARE_PARTNER`]), so the advice reads their
//! paired ratio: on 2026-11-28 a whole group of hybrid encapsulations ran
//! 35% slow in one quick run of three (aws-lc-rs 74 us against 54 us)
//! while X25519, timed apart, did not move, and the line said "about the
//! same" in one run and "23 us more" in the next.

use super::{paired_time_ratio, verified, weight, Advice};
use crate::model::Measurement;
use crate::units::format_ns;

/// The X25519 case (primitive, operation) whose rounds the hybrid's
/// encapsulation shares: derive, the larger part of X25519's server cost.
pub const KEY_SHARE_PARTNER: (&str, &str) = ("X25519", "derive");

/// What the hybrid share costs a server, against X25519's keygen + derive
/// (`classic`, ns): its time as a ratio of `classic` with a 95% interval.
struct Cost {
    ratio: f64,
    lo: f64,
    hi: f64,
    /// Said after the figures: how the ratio was measured.
    how: String,
}

/// The pubkey suite's handshake advice (see the module docs). Without
/// paired rounds (runs stored before the hybrid joined X25519's derive,
/// or a backend filter that left one side out) each side is weighed by
/// its fastest rounds ([`weight`]), which a slow stretch of one group
/// moves alone.
pub fn pq_key_share(ms: &[Measurement]) -> Vec<Advice<'_>> {
    let fastest = |alg: &str, op: &str| {
        ms.iter()
            .filter(|m| m.suite == "pubkey" && m.primitive == alg && m.operation == op)
            .filter(|m| verified(m))
            .filter_map(|m| Some((m, weight(m)?)))
            .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
    };
    let (Some(keygen), Some(derive), Some(hybrid)) = (
        fastest("X25519", "keygen"),
        fastest(KEY_SHARE_PARTNER.0, KEY_SHARE_PARTNER.1),
        fastest("X25519MLKEM768", "encaps"),
    ) else {
        return Vec::new();
    };
    let classic = keygen.1 .0 + derive.1 .0;
    let paired = paired_time_ratio(hybrid.0, derive.0);
    let cost = match paired {
        Some(r) => {
            // hybrid / classic = (hybrid / derive) / (classic / derive).
            let share = classic / derive.1 .0;
            Cost {
                ratio: r.value / share,
                lo: r.lo / share,
                hi: r.hi / share,
                how: format!(
                    "its rounds paired with X25519's derive: {:.2}x its time",
                    r.value
                ),
            }
        }
        None => {
            let (h, h_lo, h_hi) = hybrid.1;
            let (c_lo, c_hi) = (keygen.1 .1 + derive.1 .1, keygen.1 .2 + derive.1 .2);
            let rounds = [hybrid.0, keygen.0, derive.0]
                .iter()
                .any(|m| !m.samples_ns.is_empty());
            // The interval holds 1 exactly when the two sides' intervals
            // overlap: no difference.
            Cost {
                ratio: h / classic,
                lo: h_lo / c_hi,
                hi: h_hi / c_lo,
                how: if rounds { "fastest rounds" } else { "medians" }.into(),
            }
        }
    };
    let extra = (cost.ratio - 1.0) * classic;
    let said = if cost.lo <= 1.0 && 1.0 <= cost.hi {
        format!(
            "about the same per handshake here (the {} difference is inside the interval)",
            format_ns(extra.abs())
        )
    } else {
        format!(
            "{} {} per handshake here",
            format_ns(extra.abs()),
            if extra < 0.0 { "less" } else { "more" }
        )
    };
    let text = format!(
        "a post-quantum key share costs {said} (X25519MLKEM768 {:.2}x X25519's {} (95% interval {:.2}-{:.2}), server side, {})",
        cost.ratio,
        format_ns(classic),
        cost.lo,
        cost.hi,
        cost.how
    );
    vec![Advice {
        topic: "Key share, TLS 1.3".into(),
        text,
        evidence: vec![hybrid.0, keygen.0, derive.0],
    }]
}
