//! Interleaved A/B timing for the two headline ratios, for shared or noisy
//! machines where a slow neighbour can land on one case and not the other:
//!
//! 1. AEGIS-128L (libaegis, libsodium) against AES-256-GCM (OpenSSL,
//!    libsodium) sealing 20 MB: rounds alternate the contenders; the best
//!    (least disturbed) time of each is kept.
//! 2. `openssl speed -evp ALG -bytes 16384 -seconds 1` against the same loop
//!    in-process and against sealed 16 KiB messages, alternating 1-second runs;
//!    the best rate of each is kept.
//!
//! `cargo run --release -p cryptobench-suite-aead --example interleaved [ROUNDS]`

use cryptobench_core::Case;
use cryptobench_suite_aead::algorithms::{by_name, Algorithm};
use cryptobench_suite_aead::backend::{self, Backend, Params, Sealer};
use cryptobench_suite_aead::checks::CheckCache;
use cryptobench_suite_aead::stream::StreamCase;
use std::sync::Arc;
use std::time::Instant;

fn sealer(alg: &Algorithm, backend: Backend) -> Sealer {
    let key = vec![7u8; alg.key_len];
    let p = Params {
        key: &key,
        nonce_len: alg.nonce_len,
        tag_len: alg.default_tag,
    };
    backend.build(alg, &p).expect("build")
}

fn seal_rate(s: &mut Sealer, alg: &Algorithm, msg: &[u8], out: &mut [u8], secs: f64) -> f64 {
    let mut nonce = vec![0u8; alg.nonce_len];
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        nonce[0] = nonce[0].wrapping_add(1);
        nonce[1] = (n >> 8) as u8;
        s.seal(&nonce, &[], msg, out).expect("seal");
        std::hint::black_box(&mut *out);
        n += 1;
    }
    n as f64 * msg.len() as f64 / start.elapsed().as_secs_f64()
}

fn openssl_speed(evp: &str) -> f64 {
    let out = std::process::Command::new("openssl")
        .args([
            "speed", "-elapsed", "-mr", "-seconds", "1", "-evp", evp, "-bytes", "16384",
        ])
        .output()
        .expect("openssl");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("+R:"))
        .expect("+R line");
    let f: Vec<&str> = line.split(':').collect();
    let count: f64 = f[1].parse().unwrap();
    let secs: f64 = f[f.len() - 1].parse().unwrap();
    count * 16384.0 / secs
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    // 1. AEGIS vs AES-GCM at 1 MiB (in cache) and 20 MB (seed 003).
    for size in [1_048_576usize, 20_000_000] {
        let msg = vec![0x5au8; size];
        let contenders = [
            ("AEGIS-128L", backend::by_name("libaegis").unwrap()),
            ("AEGIS-128L", backend::by_name("libsodium").unwrap()),
            ("AES-256-GCM", backend::openssl()),
            ("AES-256-GCM", backend::by_name("libsodium").unwrap()),
        ];
        let mut best = vec![0f64; contenders.len()];
        let mut copy_best = 0f64;
        let mut sealers: Vec<_> = contenders
            .iter()
            .map(|(a, b)| sealer(by_name(a).unwrap(), *b))
            .collect();
        let mut outs: Vec<Vec<u8>> = contenders
            .iter()
            .map(|(a, _)| vec![0u8; size + by_name(a).unwrap().default_tag])
            .collect();
        for _ in 0..rounds {
            // The ceiling for any one-pass, out-of-place AEAD: a plain copy.
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed().as_secs_f64() < 0.25 {
                outs[0][..size].copy_from_slice(std::hint::black_box(&msg));
                std::hint::black_box(&mut outs[0]);
                n += 1;
            }
            copy_best = copy_best.max(n as f64 * size as f64 / start.elapsed().as_secs_f64());
            for (i, (a, _)) in contenders.iter().enumerate() {
                let r = seal_rate(
                    &mut sealers[i],
                    by_name(a).unwrap(),
                    &msg,
                    &mut outs[i],
                    0.25,
                );
                best[i] = best[i].max(r);
            }
        }
        println!("{size}-byte seal, best of {rounds} interleaved 0.25 s rounds:");
        for (i, (a, b)) in contenders.iter().enumerate() {
            println!("  {a:<12} {:<10} {:.2} GB/s", b.name(), best[i] / 1e9);
        }
        println!("  memcpy       (ceiling)  {:.2} GB/s", copy_best / 1e9);
        let gcm = best[2].max(best[3]);
        println!(
            "  AEGIS-128L (libaegis) / best AES-256-GCM = {:.2}x",
            best[0] / gcm
        );
        println!(
            "  AEGIS-128L (libsodium) / best AES-256-GCM = {:.2}x",
            best[1] / gcm
        );
    }
    // 2. Fidelity at 16 KiB.
    for (name, evp) in [
        ("AES-256-GCM", "aes-256-gcm"),
        ("ChaCha20-Poly1305", "chacha20-poly1305"),
    ] {
        let alg = by_name(name).unwrap();
        let cache = Arc::new(CheckCache::new(1));
        let mut stream = StreamCase::new(alg, 16384, cache).unwrap();
        let mut s = sealer(alg, backend::openssl());
        let msg = vec![1u8; 16384];
        let mut out = vec![0u8; 16384 + 16];
        let (mut peer, mut same, mut sealed) = (0f64, 0f64, 0f64);
        for _ in 0..rounds.min(5) {
            peer = peer.max(openssl_speed(evp));
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed().as_secs_f64() < 1.0 {
                stream.run_batch(64).unwrap();
                n += 64;
            }
            same = same.max(n as f64 * 16384.0 / start.elapsed().as_secs_f64());
            sealed = sealed.max(seal_rate(&mut s, alg, &msg, &mut out, 1.0));
        }
        println!(
            "{name} 16 KiB: openssl speed {:.2} GB/s, same loop here {:.2} GB/s ({:.3}), sealed messages {:.2} GB/s ({:.3})",
            peer / 1e9, same / 1e9, same / peer, sealed / 1e9, sealed / peer
        );
    }
}
