//! The handshake as the unit: what one TLS 1.3 server handshake costs in
//! CPU (its key-share operations plus one CertificateVerify signature) for
//! every key share x server signature, how many that makes per second on
//! one core, and how many bytes each choice puts on the wire.
//!
//! Server work per key share: ECDHE (X25519, P-256) = keygen + derive; a KEM
//! share (ML-KEM-768, X25519MLKEM768) = one encapsulation (the hybrid's
//! includes its X25519 keygen and derive). Each part uses the fastest
//! verified backend of this run. The rest of a handshake (HKDF, AEAD,
//! certificate chain, network) is the same for every row and left out.

use crate::algorithms::{by_name, DERIVE, ENCAPS, KEYGEN, SIGN};
use cryptobench_core::advice::verified;
use cryptobench_core::units::format_ns;
use cryptobench_core::{Measurement, Table};

/// The key shares compared (TLS named groups).
pub const KEY_SHARES: [&str; 4] = ["X25519", "ECDH-P256", "X25519MLKEM768", "ML-KEM-768"];
/// The server signatures compared (TLS 1.3 signs RSA with PSS).
pub const SIGNATURES: [&str; 5] = [
    "ECDSA-P256",
    "Ed25519",
    "RSA-2048-PSS",
    "ML-DSA-44",
    "ML-DSA-65",
];

/// The operations a server runs for a key share.
pub fn server_ops(share: &str) -> &'static [&'static str] {
    match share {
        "X25519" | "ECDH-P256" => &[KEYGEN, DERIVE],
        _ => &[ENCAPS],
    }
}

/// The fastest verified measurement of (set, operation), if any.
pub fn fastest<'a>(ms: &'a [Measurement], alg: &str, op: &str) -> Option<&'a Measurement> {
    ms.iter()
        .filter(|m| m.suite == crate::SUITE && m.primitive == alg && m.operation == op)
        .filter(|m| verified(m))
        .min_by(|a, b| median(a).total_cmp(&median(b)))
}

fn median(m: &Measurement) -> f64 {
    m.stats.as_ref().map(|s| s.median).unwrap_or(f64::INFINITY)
}

/// A cost made of measured parts: total ns and "op backend" credits.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    /// Sum of the parts' medians, ns.
    pub ns: f64,
    /// `set op: backend` per part.
    pub parts: Vec<String>,
}

/// The server's key-share cost, when every part was measured.
pub fn share_cost(ms: &[Measurement], share: &str) -> Option<Cost> {
    let mut cost = Cost {
        ns: 0.0,
        parts: Vec::new(),
    };
    for op in server_ops(share) {
        let m = fastest(ms, share, op)?;
        cost.ns += median(m);
        cost.parts.push(format!("{op} {}", m.backend));
    }
    Some(cost)
}

/// The server's signature cost.
pub fn sign_cost(ms: &[Measurement], sig: &str) -> Option<Cost> {
    let m = fastest(ms, sig, SIGN)?;
    Some(Cost {
        ns: median(m),
        parts: vec![format!("sign {}", m.backend)],
    })
}

/// Bytes on the wire: (client + server key shares, signature + the
/// certificate's public key).
pub fn bytes(share: &str, sig: &str) -> (usize, usize) {
    let s = by_name(share).expect("a key share from the table");
    let g = by_name(sig).expect("a signature from the table");
    let server_share = match s.kind {
        crate::algorithms::Kind::Agreement => s.public_bytes,
        _ => s.output_bytes,
    };
    (
        s.public_bytes + server_share,
        g.output_bytes + g.public_bytes,
    )
}

/// The handshake table (rows without every part measured are left out).
pub fn table(ms: &[Measurement]) -> Option<Table> {
    let mut t = Table::new(
        "pubkey: TLS 1.3 server handshake, key share x signature (this machine, one core)",
        [
            "key share",
            "signature",
            "server CPU",
            "handshakes/s/core",
            "+ vs X25519",
            "share bytes",
            "sig+key bytes",
            "backends",
        ],
    )
    .right(&[2, 3, 4, 5, 6]);
    for sig in SIGNATURES {
        let Some(sc) = sign_cost(ms, sig) else {
            continue;
        };
        let base = share_cost(ms, "X25519");
        for share in KEY_SHARES {
            let Some(kc) = share_cost(ms, share) else {
                continue;
            };
            let total = kc.ns + sc.ns;
            let delta = match &base {
                Some(_) if share == "X25519" => "baseline".to_string(),
                Some(b) => signed_ns(kc.ns - b.ns),
                None => "-".into(),
            };
            let (share_b, sig_b) = bytes(share, sig);
            t.row([
                share.to_string(),
                sig.to_string(),
                format_ns(total),
                format!("{:.0}", 1e9 / total),
                delta,
                share_b.to_string(),
                sig_b.to_string(),
                [kc.parts.join(", "), sc.parts.join(", ")].join("; "),
            ]);
        }
    }
    if t.rows.is_empty() {
        return None;
    }
    t.note("server CPU = key-share operations (ECDHE: keygen + derive; KEM: encaps) + one sign, fastest verified backend each; medians");
    t.note("share bytes = client + server key shares; sig+key bytes = CertificateVerify signature + the certificate's public key (ECDSA: DER maximum)");
    Some(t)
}

/// The advice line (the same `recommend` prints: one source, in core):
/// what a post-quantum key share costs here, and ML-KEM-768 alone.
pub fn advice(ms: &[Measurement]) -> Option<String> {
    let mut line = format!(
        "pubkey: {}",
        cryptobench_core::advice::pq_key_share(ms).first()?.text
    );
    if let Some(p) = share_cost(ms, "ML-KEM-768") {
        line.push_str(&format!("; ML-KEM-768 alone {}", format_ns(p.ns)));
    }
    Some(line)
}

/// `+1.23 µs` / `-0.50 µs`.
pub fn signed_ns(ns: f64) -> String {
    if ns < 0.0 {
        format!("-{}", format_ns(-ns))
    } else {
        format!("+{}", format_ns(ns))
    }
}
