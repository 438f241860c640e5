//! The comparison groups and rounds the band claims of `paper aegis` and
//! `paper gcm-vs-ccm` rest on: the compared cases measured together, round
//! by round, long enough for their ratio's interval to clear a band edge.

use cryptobench_core::CaseSpec;

/// Sampling time per case the band claims get even with `--quick`: a
/// 20 MB encryption is one call per round, and the quick budget's 50 ms
/// gave 3-5 rounds, an interval wide enough to straddle a band edge one
/// run and clear it the next.
pub(super) const CLAIM_TIME_PER_CASE: std::time::Duration = std::time::Duration::from_secs(1);
/// Fewest rounds of a slow (one call per sample) case the claims rest on.
pub(super) const CLAIM_MIN_ROUNDS: usize = 10;

/// Seed 003's compared libsodium cases share one group per size (four
/// members: the most a 20 MB group holds), so every claim's ratio is paired.
pub(super) fn seed003_group(spec: &CaseSpec) -> Option<String> {
    const COMPARED: [&str; 4] = [
        "AES-256-GCM",
        "ChaCha20-Poly1305",
        "AEGIS-128L",
        "AEGIS-256",
    ];
    (spec.backend == "libsodium" && COMPARED.contains(&spec.primitive.as_str()))
        .then(|| format!("paper-aegis/{}/{}B", spec.operation, spec.input_bytes))
}

/// Seed 004's GCM and CCM of one backend and operation in one group.
pub(super) fn seed004_group(spec: &CaseSpec) -> Option<String> {
    ["AES-256-GCM", "AES-256-CCM"]
        .contains(&spec.primitive.as_str())
        .then(|| format!("paper-gcm-vs-ccm/{}/{}", spec.backend, spec.operation))
}
