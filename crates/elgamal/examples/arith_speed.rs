//! Compares arithmetic backends, encodings and executors with interleaved
//! single operations (best of N), which keeps ratios meaningful on a busy
//! machine where one case may be timed while another process runs:
//! `cargo run --release -p cryptobench-elgamal --example arith_speed [LEN] [THREADS] [CURVE] [ROUNDS]`.
//! Prints characters per second, encoding and decoding included, file
//! formats excluded, as the suite times them. For medians and confidence
//! intervals use `cryptobench elgamal bench`.

use cryptobench_elgamal::arith;
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_elgamal::executor::ExecutorSpec;
use cryptobench_elgamal::suite::{time_once, Op};

fn main() {
    let mut args = std::env::args().skip(1);
    let len: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(4096);
    let threads: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let only: Option<Curve> = args.next().and_then(|s| Curve::parse(&s).ok());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let mut execs = vec![ExecutorSpec::Serial];
    if threads > 1 {
        execs.push(ExecutorSpec::Threads(threads));
    }
    let mut configs = Vec::new();
    for curve in Curve::ALL
        .into_iter()
        .filter(|c| only.is_none_or(|o| o == *c))
    {
        for kind in arith::all()
            .into_iter()
            .filter(|b| arith::backend::implements(*b, curve))
        {
            for enc in Encoding::ALL {
                for &exec in &execs {
                    for op in [Op::Encrypt, Op::Decrypt] {
                        configs.push((curve, kind, enc, exec, op, f64::INFINITY));
                    }
                }
            }
        }
    }
    // Interleaved rounds: each configuration once per round, best kept.
    for _ in 0..rounds {
        for c in configs.iter_mut() {
            if let Ok(t) = time_once(c.0, c.1, c.2, len, c.3, c.4) {
                c.5 = c.5.min(t);
            }
        }
    }
    for (curve, kind, enc, exec, op, best) in configs {
        println!(
            "{:10} {:10} {:6} {:12} {:7} {:>11.0} chars/s",
            curve.name(),
            kind.name(),
            enc.name(),
            exec.to_string(),
            op.name(),
            len as f64 / best
        );
    }
}
