//! Sensitivity of `compare`: does a case made 5% slower on purpose come out
//! "changed", while its unchanged neighbours stay unchanged?
//!
//! Each trial measures two runs of the same small plan through the real
//! engine (groups, adaptive precision, the canary): a few fixed integer
//! workloads of different lengths, one of which does 5% more work in the
//! second run. Each stands for another library, as the backends of one
//! primitive do in a real group, so `compare` judges each against the
//! others timed in its rounds. The two runs are then compared exactly as `cryptobench
//! compare` does (fastest rounds, each case against its own limit). Run with
//! `cargo run --release -p cryptobench --example sensitivity [TRIALS] [SLOWDOWN%]`.

use cryptobench_core::{Budget, Case, CaseError, CaseSpec, PlannedCase, Run};
use cryptobench_engine::runner::{run_cases_with, Options};
use cryptobench_report::compare::compare_full;
use cryptobench_stats::Verdict;

/// A dependent multiply chain of `work` steps per operation.
struct Chain {
    work: u64,
    state: u64,
}

impl Case for Chain {
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        let mut h = self.state;
        for i in 0..iters * self.work {
            h = std::hint::black_box((h ^ i).wrapping_mul(0x2545_F491_4F6C_DD1D));
        }
        self.state = h;
        Ok(())
    }
}

fn plan(slowed: f64) -> Vec<PlannedCase> {
    [
        ("W-200", 200u64),
        ("W-1000", 1000),
        ("W-5000", 5000),
        ("TARGET", 1000),
    ]
    .into_iter()
    .map(|(name, work)| {
        let work = if name == "TARGET" {
            (work as f64 * slowed).round() as u64
        } else {
            work
        };
        PlannedCase::ready(
            CaseSpec::new("demo", "chain", name, "1", "mix"),
            move || Ok(Box::new(Chain { work, state: 1 }) as Box<dyn Case>),
        )
    })
    .collect()
}

fn run(id: &str, slowed: f64) -> Run {
    let budget = Budget::standard();
    let options = Options {
        canary: true,
        seed: None,
    };
    let (measurements, _) = run_cases_with(&plan(slowed), &budget, options, &mut |_| {});
    Run::new(id, measurements)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let trials: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let slowdown: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let (mut caught, mut false_alarms, mut neighbours) = (0, 0, 0);
    for t in 0..trials {
        let a = run("a", 1.0);
        let b = run("b", 1.0 + slowdown / 100.0);
        let cmp = compare_full(&a, &b, 0.02);
        for c in &cmp.cases {
            let v = c.comparison.verdict;
            if c.candidate.backend == "TARGET" {
                caught += usize::from(v == Verdict::Slower);
                println!(
                    "trial {}: target ratio {:.3} ({:.3} .. {:.3}) {}; limit {:.1}% (floors {:.1}%)",
                    t + 1,
                    c.comparison.ratio,
                    c.comparison.ci95.0,
                    c.comparison.ci95.1,
                    v.as_str(),
                    c.limit * 100.0,
                    cmp.group_threshold() * 100.0
                );
            } else {
                neighbours += 1;
                let alarm = matches!(v, Verdict::Slower | Verdict::Faster);
                false_alarms += usize::from(alarm);
                if alarm {
                    println!(
                        "trial {}: unchanged {} ratio {:.3} ({:.3} .. {:.3}) {}; limit {:.1}%",
                        t + 1,
                        c.candidate.backend,
                        c.comparison.ratio,
                        c.comparison.ci95.0,
                        c.comparison.ci95.1,
                        v.as_str(),
                        c.limit * 100.0
                    );
                }
            }
        }
    }
    println!(
        "a case {slowdown}% slower: reported slower in {caught} of {trials} comparisons; \
         unchanged neighbours called changed: {false_alarms} of {neighbours}"
    );
}
