//! Prints every check of every algorithm x backend (what `aead` runs before timing).
//!
//! `cargo run --release -p cryptobench-suite-aead --example aead_checks`

use cryptobench_core::Offer;
use cryptobench_suite_aead::algorithms::ALGORITHMS;
use cryptobench_suite_aead::backend;
use cryptobench_suite_aead::checks::all_checks;

fn main() {
    let mut failures = 0;
    for alg in ALGORITHMS {
        for &backend in backend::all() {
            match backend.offers(alg) {
                Offer::NotOffered => continue,
                Offer::Unavailable(reason) => {
                    println!(
                        "{:<27} {:<10} unavailable: {reason}",
                        alg.name,
                        backend.name()
                    );
                    continue;
                }
                Offer::Runs => {}
            }
            for c in all_checks(alg, backend, alg.default_tag, 0, 42) {
                if c.outcome == cryptobench_core::CheckOutcome::Fail {
                    failures += 1;
                }
                println!(
                    "{:<27} {:<10} {:<8?} {:<45} {}",
                    alg.name,
                    backend.name(),
                    c.outcome,
                    c.name,
                    c.detail
                );
            }
        }
    }
    println!("{failures} failed checks");
    std::process::exit(i32::from(failures > 0));
}
