//! The screen's verdicts on a mock clock whose operations take a known
//! time: an injected difference between the classes must be flagged, no
//! difference cleared, and a run too short for its noise said to be
//! inconclusive. Seeds are fixed, so every outcome is reproducible.

use cryptobench_engine::sample::clock::Clock;
use cryptobench_stats::SplitMix64;
use cryptobench_suite_leak::case::LeakCase;
use cryptobench_suite_leak::error::LeakError;
use cryptobench_suite_leak::measure::{sample, Budget};
use cryptobench_suite_leak::verdict::{judge, Verdict, THRESHOLD};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Default)]
struct MockClock(AtomicU64);

impl Clock for MockClock {
    fn now_ns(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// An operation whose time is `base[class]` plus noise of standard
/// deviation about `noise` (times `spread[class]`), plus a 50 us
/// interrupt one call in 2000.
struct Synthetic {
    clock: Arc<MockClock>,
    base: [f64; 2],
    spread: [f64; 2],
    noise: f64,
    rng: SplitMix64,
}

impl Synthetic {
    fn new(clock: &Arc<MockClock>, base: [f64; 2], noise: f64) -> Self {
        Self {
            clock: clock.clone(),
            base,
            spread: [1.0, 1.0],
            noise,
            rng: SplitMix64::new(7),
        }
    }
    /// About normal: the sum of 12 uniforms, centred.
    fn gauss(&mut self) -> f64 {
        (0..12)
            .map(|_| (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
            .sum::<f64>()
            - 6.0
    }
}

impl LeakCase for Synthetic {
    fn inputs(&self) -> usize {
        1
    }
    fn run(&mut self, class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            let mut t = self.base[class] + self.gauss() * self.noise * self.spread[class];
            if self.rng.below(2000) == 0 {
                t += 50_000.0;
            }
            self.clock.0.fetch_add(t.max(1.0) as u64, Ordering::SeqCst);
        }
        Ok(())
    }
}

fn screen(
    case: &mut Synthetic,
    clock: &MockClock,
    measurements: usize,
) -> cryptobench_suite_leak::verdict::Finding {
    let budget = Budget {
        measurements,
        time: Duration::from_secs(600),
    };
    let sampled = sample(case, clock, budget, 42, &mut |_, _| {}).unwrap();
    assert_eq!(
        sampled.total(),
        measurements,
        "the budget's count is reached"
    );
    judge(&sampled)
}

/// An early-exit comparison of 4 KiB modelled at 0.5 ns a byte: class 0
/// stops at byte 0, class 1 reads all 4096 bytes.
#[test]
fn the_modelled_early_exit_control_is_flagged() {
    let clock = Arc::new(MockClock::default());
    let mut case = Synthetic::new(&clock, [1000.0, 1000.0 + 2048.0], 100.0);
    let f = screen(&mut case, &clock, 20_000);
    assert_eq!(f.verdict, Verdict::Leak, "{}", f.line());
    assert!(f.max_t > THRESHOLD);
    assert!((f.effect_ns - 2048.0).abs() < 20.0, "{}", f.line());
}

/// The constant-time comparison reads every byte in both classes.
#[test]
fn the_modelled_constant_time_control_is_cleared_with_its_power_stated() {
    let clock = Arc::new(MockClock::default());
    let mut case = Synthetic::new(&clock, [3048.0, 3048.0], 100.0);
    let f = screen(&mut case, &clock, 100_000);
    assert_eq!(f.verdict, Verdict::NoLeakFound, "{}", f.line());
    // se of the difference ~ 100 * sqrt(2 / 50000) = 0.63 ns, times 11.28.
    assert!(f.detectable_ns < 10.0, "{}", f.line());
    assert!(f
        .line()
        .contains("would have been found with 100000 measurements"));
}

/// A small injected effect, 1% of the operation, is found.
#[test]
fn a_small_injected_effect_is_flagged() {
    let clock = Arc::new(MockClock::default());
    let mut case = Synthetic::new(&clock, [2000.0, 2020.0], 100.0);
    let f = screen(&mut case, &clock, 200_000);
    assert_eq!(f.verdict, Verdict::Leak, "{}", f.line());
    assert!((f.effect_ns - 20.0).abs() < 5.0, "{}", f.line());
}

/// Same means, one class twice as noisy: only the second-order test sees it.
#[test]
fn a_difference_in_spread_alone_is_flagged_by_the_second_order_test() {
    let clock = Arc::new(MockClock::default());
    let mut case = Synthetic::new(&clock, [2000.0, 2000.0], 100.0);
    case.spread = [1.0, 2.0];
    let f = screen(&mut case, &clock, 50_000);
    assert_eq!(f.verdict, Verdict::Leak, "{}", f.line());
    let strongest = f.screen.strongest().unwrap();
    assert_eq!(strongest.name, "second order", "{:?}", f.screen);
    assert!(f.screen.test("raw").unwrap().t.abs() < THRESHOLD);
}

/// Too few measurements for this noise: no flag, but no clearance either.
#[test]
fn a_run_without_the_power_is_inconclusive() {
    let clock = Arc::new(MockClock::default());
    let mut case = Synthetic::new(&clock, [1000.0, 1000.0], 400.0);
    let f = screen(&mut case, &clock, 2_000);
    assert_eq!(f.verdict, Verdict::Inconclusive, "{}", f.line());
    assert!(f.detectable_share() > 0.05);
}
