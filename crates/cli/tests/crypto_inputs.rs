//! Crypto inputs from other people are checked the same way on every
//! backend: X25519/X448 peers that are low-order points (RFC 7748 section
//! 6.1) are refused with exit 2, whatever the library would do.

use crate::common;

use common::bin;
use std::path::{Path, PathBuf};

/// A public key file of `alg` holding `public` (hex).
fn peer_file(dir: &Path, name: &str, alg: &str, public: &str) -> PathBuf {
    let path = dir.join(name);
    let json = serde_json::json!({
        "format": "cryptobench-pubkey/1", "algorithm": alg, "kind": "public",
        "encoding": "lowercase hex", "public_key": public,
    });
    std::fs::write(&path, json.to_string()).expect("peer file");
    path
}

/// A fresh secret key file of `alg`.
fn keygen(dir: &Path, alg: &str) -> PathBuf {
    let key = dir.join(format!("{alg}.json"));
    let out = bin()
        .current_dir(dir)
        .args(["pubkey", "keygen", "--alg", alg, "--out"])
        .arg(&key)
        .output()
        .expect("keygen");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    key
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// u as 32 little-endian bytes (RFC 7748), hex.
fn le_hex(u: &[u8]) -> String {
    let mut b = u.to_vec();
    b.resize(32, 0);
    hex(&b)
}

#[test]
fn low_order_peers_are_refused_on_every_backend() {
    let dir = tempfile::tempdir().expect("tempdir");
    let x25519 = keygen(dir.path(), "X25519");
    let x448 = keygen(dir.path(), "X448");
    // p - 1 = 2^255 - 20, little-endian.
    let mut p_minus_1 = vec![0xffu8; 32];
    p_minus_1[0] = 0xec;
    p_minus_1[31] = 0x7f;
    let peers = [
        (&x25519, "X25519", "u=0", le_hex(&[0])),
        (&x25519, "X25519", "u=1", le_hex(&[1])),
        (&x25519, "X25519", "u=p-1", hex(&p_minus_1)),
        (&x448, "X448", "u=0", "00".repeat(56)),
    ];
    for (key, alg, what, public) in &peers {
        let peer = peer_file(dir.path(), &format!("{alg}-{what}.json"), alg, public);
        let backends: &[&str] = if *alg == "X25519" {
            &["openssl", "aws-lc-rs", "rustcrypto"]
        } else {
            &["openssl"]
        };
        for backend in backends {
            let out = bin()
                .args(["--backend", backend, "pubkey", "derive", "--key"])
                .arg(key)
                .arg("--peer")
                .arg(&peer)
                .output()
                .expect("derive");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{alg} {what} on {backend}: stdout {} stderr {stderr}",
                String::from_utf8_lossy(&out.stdout)
            );
            assert!(
                stderr
                    .contains("the peer's public key is a low-order point (RFC 7748 section 6.1)"),
                "{alg} {what} on {backend}: {stderr}"
            );
            assert!(out.stdout.is_empty(), "a secret was printed: {out:?}");
        }
    }
}

/// 255 lanes of 2 KiB cost thread starts, not memory: the estimate counts
/// them, so a small --max-time refuses the string before hashing.
#[test]
fn argon2_verify_counts_lanes_beyond_the_cores() {
    let phc =
        "$argon2id$v=19$m=2040,t=100,p=255$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let out = bin()
        .args(["argon2", "verify", phc, "--max-time", "1s"])
        .write_stdin("password\n")
        .output()
        .expect("argon2 verify");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("p=255 lanes") && stderr.contains("over --max-time 1 s"),
        "{stderr}"
    );
}

/// The ciphertext file goes to the peer: it holds the ciphertext alone,
/// the shared secret goes to its own 0600 file, and decaps gives the same.
#[test]
fn encaps_keeps_the_secret_out_of_the_ciphertext_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let key = keygen(dir.path(), "ML-KEM-768");
    let public = dir.path().join("ML-KEM-768.pub.json");
    let (ct, ss) = (dir.path().join("ct.json"), dir.path().join("ss.hex"));
    let out = bin()
        .args(["pubkey", "encaps", "--key"])
        .arg(&public)
        .arg("--out")
        .arg(&ct)
        .arg("--secret")
        .arg(&ss)
        .output()
        .expect("encaps");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let secret = std::fs::read_to_string(&ss).expect("secret file");
    let secret = secret.trim();
    assert_eq!(secret.len(), 64, "{secret}");
    let mode = std::fs::metadata(&ss).expect("mode").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let ciphertext: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ct).expect("ct")).expect("json");
    let mut fields: Vec<&String> = ciphertext.as_object().expect("object").keys().collect();
    fields.sort();
    assert_eq!(
        fields,
        ["algorithm", "format", "kind", "value"],
        "{ciphertext}"
    );
    assert!(!ciphertext.to_string().contains(secret));
    let out = bin()
        .args(["pubkey", "decaps", "--key"])
        .arg(&key)
        .arg("--ciphertext")
        .arg(&ct)
        .output()
        .expect("decaps");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), secret);
    // Neither file named: both would go to stdout.
    let out = bin()
        .args(["pubkey", "encaps", "--key"])
        .arg(&public)
        .output()
        .expect("encaps");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--secret"));
    // A ciphertext cut short: both lengths are named.
    let mut short = ciphertext.clone();
    short["value"] = "00".repeat(100).into();
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, short.to_string()).expect("cut");
    let out = bin()
        .args(["pubkey", "decaps", "--key"])
        .arg(&key)
        .arg("--ciphertext")
        .arg(&cut)
        .output()
        .expect("decaps");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("has 100 bytes; expected 1088"), "{stderr}");
}
