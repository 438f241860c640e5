//! `openssl speed -evp` in the same run, for the fidelity ratio of the
//! OpenSSL backend (AES-128-CTR and AES-256-CBC at 16 B and 16 KiB).

use cryptobench_core::PlannedCase;

/// The ciphers and sizes compared with `openssl speed` (the targets).
pub const PEER_CIPHERS: [(&str, &str); 2] = [
    ("AES-128-CTR", "aes-128-ctr"),
    ("AES-256-CBC", "aes-256-cbc"),
];
/// 16 B and 16 KiB: `openssl speed`'s smallest and largest default blocks.
pub const PEER_SIZES: [u64; 2] = [16, 16384];

/// Whether `name` is compared with `openssl speed`.
pub fn has_peer(name: &str) -> bool {
    PEER_CIPHERS.iter().any(|(n, _)| *n == name)
}

/// Peer cases for the selected ciphers that have one (encrypt only: that is
/// what `openssl speed -evp` times).
pub fn cases(names: &[String]) -> Vec<PlannedCase> {
    let mut out = Vec::new();
    for (name, evp) in PEER_CIPHERS {
        if !names.iter().any(|n| n == name) {
            continue;
        }
        for bytes in PEER_SIZES {
            out.push(peer(name, evp, bytes));
        }
    }
    out
}

fn peer(name: &str, evp: &str, bytes: u64) -> PlannedCase {
    cryptobench_engine::peers::openssl_speed_evp("cipher", name, evp, "encrypt", bytes)
}
