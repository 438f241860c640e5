//! `openssl speed -evp` in the same run, for the fidelity ratio of the
//! OpenSSL backend (AES-128-CTR and AES-256-CBC at 16 KiB; `--full` adds
//! 16 B).

use cryptobench_core::PlannedCase;

/// The ciphers and sizes compared with `openssl speed` (the targets).
pub const PEER_CIPHERS: [(&str, &str); 2] = [
    ("AES-128-CTR", "aes-128-ctr"),
    ("AES-256-CBC", "aes-256-cbc"),
];
/// 16 B and 16 KiB: `openssl speed`'s smallest and largest default blocks.
pub const PEER_SIZES: [u64; 2] = [16, 16384];

/// The sizes compared with `openssl speed`: each peer round is a
/// one-second process and a fidelity verdict takes five, so a default run
/// compares 16 KiB and `--full` both [`PEER_SIZES`].
pub fn sizes(full: bool) -> &'static [u64] {
    if full {
        &PEER_SIZES
    } else {
        &PEER_SIZES[1..]
    }
}

/// Whether `name` is compared with `openssl speed`.
pub fn has_peer(name: &str) -> bool {
    PEER_CIPHERS.iter().any(|(n, _)| *n == name)
}

/// Peer cases for the selected ciphers that have one (encrypt only: that is
/// what `openssl speed -evp` times).
pub fn cases(names: &[String], full: bool) -> Vec<PlannedCase> {
    let mut out = Vec::new();
    for (name, evp) in PEER_CIPHERS {
        if !names.iter().any(|n| n == name) {
            continue;
        }
        for &bytes in sizes(full) {
            out.push(peer(name, evp, bytes));
        }
    }
    out
}

fn peer(name: &str, evp: &str, bytes: u64) -> PlannedCase {
    cryptobench_engine::build::peers::openssl_speed_evp("cipher", name, evp, "encrypt", bytes)
}
