//! Measures issue 6's targets with interleaved rounds (A B C A B C ...), so
//! that load from other processes hits every contender alike:
//!
//! 1. the fastest library vs the `argon2` CLI at Argon2id, 64 MiB, t = 3,
//!    p = 1 (raw, and with the CLI's start-up subtracted);
//! 2. lanes = 2 vs lanes = 1 at 256 MiB, and RustCrypto's `parallel`
//!    feature (threads = 2 vs 1 at 2 lanes).
//!
//! ```text
//! cargo run --release -p cryptobench-suite-argon2 --example targets -- [ROUNDS]
//! ```

use cryptobench_suite_argon2::engines::{self, Cli, Hasher, Inputs};
use cryptobench_suite_argon2::params::{Params, Variant};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time_once(h: &dyn Hasher, p: &Params, inputs: &Inputs) -> f64 {
    let mut out = vec![0u8; p.tag_len];
    let start = Instant::now();
    h.hash(p, inputs, &mut out).expect("hash");
    std::hint::black_box(&out);
    start.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let inputs = Inputs {
        password: b"PSAEI_w_Gliwicach".to_vec(),
        salt: b"MySaltPSAEI12345".to_vec(),
        ..Inputs::default()
    };
    let hashers = engines::all();
    let cli_present = Cli::installed();

    // 1. Library vs CLI.
    let point = Params::new(Variant::Id, 64 << 10, 3, 1);
    let startup = Params::new(Variant::Id, 8, 1, 1);
    let mut times: Vec<(String, Vec<f64>)> = hashers
        .iter()
        .map(|h| (h.name().to_string(), Vec::new()))
        .collect();
    let mut startups = Vec::new();
    for _ in 0..rounds {
        if cli_present {
            let s: Vec<f64> = (0..5)
                .map(|_| time_once(&engines::Cli, &startup, &inputs))
                .collect();
            startups.push(median(s));
        }
        for (h, (_, v)) in hashers.iter().zip(times.iter_mut()) {
            if h.available().is_ok() {
                v.push(time_once(h.as_ref(), &point, &inputs));
            }
        }
    }
    println!("Argon2id m=64 MiB t=3 p=1, {rounds} interleaved rounds, median ms:");
    let mut best_lib: Option<(String, f64)> = None;
    let mut cli_ms = None;
    for (name, v) in &times {
        if v.is_empty() {
            continue;
        }
        let m = median(v.clone());
        println!(
            "  {name:<16} {m:8.1} ms   (min {:.1})",
            v.iter().copied().fold(f64::MAX, f64::min)
        );
        if name == engines::CLI {
            cli_ms = Some(m);
        } else if best_lib.as_ref().is_none_or(|(_, b)| m < *b) {
            best_lib = Some((name.clone(), m));
        }
    }
    if let (Some(cli), Some((lib, ms))) = (cli_ms, &best_lib) {
        let s = median(startups);
        println!("  CLI start-up (8 KiB, t=1): {s:.2} ms");
        println!(
            "  CLI / {lib}: raw {:.2}, start-up subtracted {:.2} (above 1 = library faster)",
            cli / ms,
            (cli - s) / ms
        );
    }

    // 2. Lanes at 256 MiB.
    println!(
        "\nArgon2id m=256 MiB t=3: lanes 2 vs lanes 1, {rounds} interleaved rounds, median ms:"
    );
    let one = Params::new(Variant::Id, 256 << 10, 3, 1);
    let two = Params::new(Variant::Id, 256 << 10, 3, 2);
    let two_seq = Params { threads: 1, ..two };
    let lanes_backends = [engines::LIBARGON2, engines::RUSTCRYPTO];
    let mut r: Vec<[Vec<f64>; 3]> = lanes_backends
        .iter()
        .map(|_| [Vec::new(), Vec::new(), Vec::new()])
        .collect();
    for _ in 0..rounds {
        for (i, name) in lanes_backends.iter().enumerate() {
            let h = engines::by_name(name).expect("backend");
            if h.available().is_err() {
                continue;
            }
            r[i][0].push(time_once(h.as_ref(), &one, &inputs));
            r[i][1].push(time_once(h.as_ref(), &two, &inputs));
            r[i][2].push(time_once(h.as_ref(), &two_seq, &inputs));
        }
    }
    for (i, name) in lanes_backends.iter().enumerate() {
        if r[i][0].is_empty() {
            continue;
        }
        let (a, b, c) = (
            median(r[i][0].clone()),
            median(r[i][1].clone()),
            median(r[i][2].clone()),
        );
        println!(
            "  {name:<12} p=1 {a:7.1}  p=2 {b:7.1}  (x{:.2})   p=2 on one thread {c:7.1}  (parallel gains x{:.2})",
            a / b,
            c / b
        );
    }
}
