//! `openssl speed` beside our OpenSSL rows, in the same comparison group,
//! so "ours / openssl speed" is a paired ratio (the fidelity check).
//!
//! `openssl speed` signs a short digest with a prepared context and derives
//! with a prepared peer, as our OpenSSL cases do (they also hash the
//! 130-byte message, about 1% of an ECDSA P-256 signature). One sample is a
//! whole `openssl speed -seconds 1` process (two seconds for sign + verify
//! algorithms) and a fidelity verdict takes five rounds, so a quick run
//! keeps only X25519 (three rounds, undecided), a default run X25519 and
//! ECDSA P-256, `--algorithms` every sign and derive row it names, and
//! `--full` every row with verify.
//!
//! `openssl speed` signs a ready 20- or 36-byte buffer: it hashes nothing.
//! Our `sign` hashes the 130-byte message first (0.4 us, about 2% of an
//! ECDSA P-256 signature here), so beside an RSA or ECDSA sign peer the
//! plan adds OpenSSL's `sign-digest` row, the same work as the peer's, in
//! the same group: the fidelity ratio is read from it.

use crate::algorithms::{SIGN, SIGN_DIGEST};
use crate::SUITE;
use cryptobench_core::{CaseSpec, PlannedCase, RunConfig};
use cryptobench_engine::build::peers::{openssl_speed_alg, SpeedLine, OPENSSL_SPEED};

/// (our primitive, `openssl speed` algorithm, operation, result line).
const PEERS: &[(&str, &str, &str, SpeedLine)] = &[
    ("X25519", "ecdhx25519", "derive", SpeedLine::Ecdh),
    ("ECDSA-P256", "ecdsap256", "sign", SpeedLine::EcdsaSign),
    ("RSA-2048-PKCS1", "rsa2048", "sign", SpeedLine::RsaSign),
    ("Ed25519", "ed25519", "sign", SpeedLine::EddsaSign),
    ("ECDSA-P256", "ecdsap256", "verify", SpeedLine::EcdsaVerify),
    ("RSA-2048-PKCS1", "rsa2048", "verify", SpeedLine::RsaVerify),
    ("Ed25519", "ed25519", "verify", SpeedLine::EddsaVerify),
];

/// The primitives a default run compares with `openssl speed`.
const DEFAULT_PEERS: [&str; 2] = ["X25519", "ECDSA-P256"];

/// The peers to run beside the planned OpenSSL (primitive, operation)
/// cells; `named`: the user chose the algorithms.
pub fn plan(cfg: &RunConfig, named: bool, openssl_cells: &[(String, String)]) -> Vec<PlannedCase> {
    if !cfg.wants_backend(OPENSSL_SPEED) && !cfg.wants_backend(crate::backend::openssl::NAME) {
        return Vec::new();
    }
    PEERS
        .iter()
        .filter(|(_, _, op, _)| cfg.full || *op != "verify")
        .filter(|(prim, _, _, _)| {
            if cfg.quick {
                *prim == "X25519"
            } else {
                cfg.full || named || DEFAULT_PEERS.contains(prim)
            }
        })
        .filter(|(prim, _, op, _)| openssl_cells.iter().any(|(p, o)| p == prim && o == op))
        .map(|(prim, alg, op, line)| {
            let mut peer = openssl_speed_alg(SUITE, prim, alg, op, *line);
            peer.spec.group = Some(crate::group_key(prim, op));
            peer
        })
        .collect()
}

/// The spec of OpenSSL's like-for-like row beside `peer` (a `sign-digest`
/// copy of our planned OpenSSL `sign` case), when the peer signs with RSA or
/// ECDSA; EdDSA has no ready-digest form and derive is already the same work.
pub fn like_for_like(plan: &[PlannedCase], peer: &PlannedCase) -> Option<CaseSpec> {
    let prim = &peer.spec.primitive;
    if peer.spec.operation != SIGN || !(prim.starts_with("RSA") || prim.starts_with("ECDSA")) {
        return None;
    }
    let ours = plan.iter().find(|c| {
        c.spec.backend == crate::backend::openssl::NAME
            && &c.spec.primitive == prim
            && c.spec.operation == SIGN
    })?;
    let mut spec = ours.spec.clone();
    spec.operation = SIGN_DIGEST.to_string();
    Some(spec)
}
