//! Where the time of one OpenSSL AEAD message goes, against the loop that
//! `openssl speed -evp` times (repeated `EVP_EncryptUpdate` on one context).
//!
//! ```text
//! cargo run --release -p cryptobench-suite-aead --example evp_overhead -- [BYTES] [ROUNDS]
//! ```
//!
//! For AES-256-GCM and ChaCha20-Poly1305 it times, interleaved round by
//! round so that machine load hits every variant alike:
//! - `update only`: what `openssl speed -evp` times;
//! - `sealed, crate wrappers`: nonce, update, final and tag through the
//!   `openssl` crate's `CipherCtx` (tag through `EVP_CIPHER_CTX_ctrl`);
//! - `sealed, suite`: the suite's OpenSSL sealer (direct EVP calls, tag
//!   through `EVP_CIPHER_CTX_get_params`, `vzeroupper` after ChaCha20-Poly1305
//!   calls), the code the `encrypt` cases time.
//!
//! Prints the median ns per message and its ratio to `update only`.

use cryptobench_suite_aead::algorithms;
use cryptobench_suite_aead::backend::{self, Params, Sealer};
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let size: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16_384);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(31);
    cryptobench_suite_common::openssl_lib::ensure_providers().expect("OpenSSL providers");
    for (name, cipher) in [
        ("AES-256-GCM", Cipher::aes_256_gcm()),
        ("ChaCha20-Poly1305", Cipher::chacha20_poly1305()),
    ] {
        let alg = algorithms::by_name(name).expect("algorithm in the table");
        let key = vec![7u8; 32];
        let msg = vec![1u8; size];
        let mut out = vec![0u8; size + 16];
        let mut nonce = [0u8; 12];
        let mut counter = 0u64;

        let mut stream = CipherCtx::new().expect("context");
        stream
            .encrypt_init(Some(cipher), Some(&key), Some(&nonce))
            .expect("key");
        let mut stream_buf = msg.clone();

        let mut wrapped = CipherCtx::new().expect("context");
        wrapped
            .encrypt_init(Some(cipher), Some(&key), None)
            .expect("key");

        let params = Params {
            key: &key,
            nonce_len: 12,
            tag_len: 16,
        };
        let mut suite: Sealer = backend::openssl().build(alg, &params).expect("sealer");

        let iters = (2_000_000 / (size + 256)).max(20);
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for _ in 0..rounds + 1 {
            // 0: update only
            times[0].push(ns_per_call(iters, || {
                let len = stream_buf.len();
                stream
                    .cipher_update_inplace(black_box(&mut stream_buf), len)
                    .expect("update");
            }));
            // 1: sealed through the crate's wrappers
            times[1].push(ns_per_call(iters, || {
                counter += 1;
                nonce[4..].copy_from_slice(&counter.to_be_bytes());
                wrapped
                    .encrypt_init(None, None, Some(&nonce))
                    .expect("nonce");
                let (ct, tag) = out.split_at_mut(size);
                // SAFETY: `ct` is as long as the input (stream modes).
                let n = unsafe { wrapped.cipher_update_unchecked(black_box(&msg), Some(ct)) }
                    .expect("update");
                let mut tail = [0u8; 32];
                let f = wrapped.cipher_final(&mut tail).expect("final");
                assert_eq!(n + f, size);
                wrapped.tag(tag).expect("tag");
            }));
            // 2: the suite's sealer
            times[2].push(ns_per_call(iters, || {
                counter += 1;
                nonce[4..].copy_from_slice(&counter.to_be_bytes());
                suite
                    .seal(&nonce, &[], black_box(&msg), &mut out)
                    .expect("seal");
            }));
        }
        let median = |v: &mut Vec<f64>| {
            v.remove(0); // warm-up round
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let [update, wrappers, sealer] = &mut times;
        let base = median(update);
        println!("{name}, {size} B, median of {rounds} interleaved rounds");
        println!("  {:<24} {:>9.1} ns  1.000", "update only", base);
        for (label, v) in [
            ("sealed, crate wrappers", wrappers),
            ("sealed, suite", sealer),
        ] {
            let m = median(v);
            println!("  {label:<24} {m:>9.1} ns  {:.3}", base / m);
        }
    }
}

/// Mean nanoseconds per call of `call` over `iters` calls.
fn ns_per_call(iters: usize, mut call: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..iters {
        call();
    }
    t.elapsed().as_nanos() as f64 / iters as f64
}
