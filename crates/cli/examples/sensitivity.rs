//! Sensitivity of `compare`: does a case made 5% slower on purpose come out
//! "changed", while its unchanged neighbours stay unchanged?
//!
//! Each trial measures two runs of the same small plan through the real
//! engine (groups, adaptive precision, the canary): a few fixed integer
//! workloads of different lengths, one of which does 5% more work in the
//! second run. Each stands for another library, as the backends of one
//! primitive do in a real group, so `compare` judges each against the
//! others timed in its rounds. The two runs are then compared exactly as `cryptobench
//! compare` does (fastest rounds, each interval widened by its floors). Run with
//! `cargo run --release -p cryptobench --example sensitivity [TRIALS] [SLOWDOWN%]`.
//!
//! Each trial then asks the same of a paired comparison: one run in which
//! the slowed workload, the workload as it was and a twin of it are timed
//! in the same rounds, as the engine times the backends of one primitive.
//! The slowed one's time ratio to the original ([`time_ratio`], the median
//! of per-round ratios with its interval) is "changed" when its whole
//! interval clears the threshold: paired within one run, it is not widened
//! (this machine's paired A/A floor, `cryptobench noise`, is printed beside
//! it); the twin's must not be.

use cryptobench_core::verdict::{time_ratio, Estimate};
use cryptobench_core::{Budget, Case, CaseError, CaseSpec, Measurement, PlannedCase, Run};
use cryptobench_engine::schedule::noise::aa_test;
use cryptobench_engine::schedule::runner::{run_cases_with, Options};
use cryptobench_report::compare::compare_full;
use cryptobench_stats::{verdict_of, Verdict};

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

/// The neighbours (each another library's stand-in), then the cases
/// `extra` names with their work.
fn plan(extra: &[(&'static str, u64)]) -> Vec<PlannedCase> {
    [("W-200", 200u64), ("W-1000", 1000), ("W-5000", 5000)]
        .iter()
        .chain(extra)
        .map(|&(name, work)| {
            PlannedCase::ready(
                CaseSpec::new("demo", "chain", name, "1", "mix"),
                move || Ok(Box::new(Chain { work, state: 1 }) as Box<dyn Case>),
            )
        })
        .collect()
}

/// The target's work when `slowed` times as slow.
fn work(slowed: f64) -> u64 {
    (1000.0 * slowed).round() as u64
}

fn run(id: &str, plan: &[PlannedCase]) -> Run {
    let budget = Budget::standard();
    let options = Options {
        canary: true,
        seed: None,
    };
    let (measurements, _) = run_cases_with(plan, &budget, options, &mut |_| {});
    Run::new(id, measurements)
}

/// Whether a paired time ratio's whole interval clears `1 +- limit`, by
/// the rule `compare` applies ([`verdict_of`]), without widening.
fn changed(e: &Estimate, limit: f64) -> bool {
    matches!(
        verdict_of((e.lo, e.hi), limit),
        Verdict::Slower | Verdict::Faster
    )
}

/// One paired trial: (slowed changed, twin changed), printed.
fn paired_trial(t: usize, slowed: f64) -> (bool, bool) {
    let floor = aa_test(
        std::time::Duration::from_secs(2),
        std::time::Duration::from_millis(10),
    )
    .paired_floor;
    let limit = THRESHOLD;
    let r = run(
        "p",
        &plan(&[("TARGET", 1000), ("TWIN", 1000), ("SLOWED", work(slowed))]),
    );
    let find = |name: &str| -> &Measurement {
        r.measurements
            .iter()
            .find(|m| m.backend == name)
            .expect("every case of the plan is measured")
    };
    let target = find("TARGET");
    let ratio = |name: &str| time_ratio(find(name), target).expect("both measured");
    let (slowed, twin) = (ratio("SLOWED"), ratio("TWIN"));
    println!(
        "paired trial {}: slowed/target {:.3} ({:.3} .. {:.3}), twin/target {:.3} ({:.3} .. {:.3}); threshold {:.1}% (paired A/A floor {:.1}%)",
        t + 1,
        slowed.value,
        slowed.lo,
        slowed.hi,
        twin.value,
        twin.lo,
        twin.hi,
        limit * 100.0,
        floor * 100.0
    );
    (changed(&slowed, limit), changed(&twin, limit))
}

/// `compare`'s default threshold.
const THRESHOLD: f64 = 0.02;

fn main() {
    let mut args = std::env::args().skip(1);
    let trials: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let slowdown: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let (mut caught, mut false_alarms, mut neighbours) = (0, 0, 0);
    let (mut paired_caught, mut twins_changed) = (0, 0);
    let slowed = 1.0 + slowdown / 100.0;
    for t in 0..trials {
        let (slowed_changed, twin_changed) = paired_trial(t, slowed);
        paired_caught += usize::from(slowed_changed);
        twins_changed += usize::from(twin_changed);
        let a = run("a", &plan(&[("TARGET", work(1.0))]));
        let b = run("b", &plan(&[("TARGET", work(slowed))]));
        let cmp = compare_full(&a, &b, THRESHOLD);
        for c in &cmp.cases {
            let v = c.comparison.verdict;
            if c.candidate.backend == "TARGET" {
                caught += usize::from(v == Verdict::Slower);
                println!(
                    "trial {}: target ratio {:.3} ({:.3} .. {:.3}, widened {:.3} .. {:.3}) {}; floor {:.1}%, detectable {:.1}%",
                    t + 1,
                    c.comparison.ratio,
                    c.comparison.ci95.0,
                    c.comparison.ci95.1,
                    c.comparison.widened.0,
                    c.comparison.widened.1,
                    v.as_str(),
                    c.floor * 100.0,
                    c.comparison.detectable * 100.0
                );
            } else {
                neighbours += 1;
                let alarm = matches!(v, Verdict::Slower | Verdict::Faster);
                false_alarms += usize::from(alarm);
                if alarm {
                    println!(
                        "trial {}: unchanged {} ratio {:.3} ({:.3} .. {:.3}) {}; floor {:.1}%",
                        t + 1,
                        c.candidate.backend,
                        c.comparison.ratio,
                        c.comparison.ci95.0,
                        c.comparison.ci95.1,
                        v.as_str(),
                        c.floor * 100.0
                    );
                }
            }
        }
    }
    println!(
        "paired, in one run: a case {slowdown}% slower called changed in {paired_caught} of \
         {trials} trials; its unchanged twin called changed in {twins_changed} of {trials}"
    );
    println!(
        "unpaired, two runs through compare: a case {slowdown}% slower reported slower in \
         {caught} of {trials} comparisons; unchanged neighbours called changed: \
         {false_alarms} of {neighbours}"
    );
}
