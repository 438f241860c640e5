//! `paper --method`: refused before anything is measured when it cannot
//! apply (exit 2 with what is accepted).

mod common;

use common::{bin, Outcome};
use predicates::prelude::*;
#[test]
fn a_misspelt_method_gets_a_suggestion() {
    bin()
        .args(["paper", "aegis", "--method", "sed", "--no-db"])
        .usage_error("did you mean seed");
}

#[test]
fn a_seed_without_stated_counts_is_refused() {
    bin()
        .args(["paper", "gcm-vs-ccm", "--method", "seed", "--no-db"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("states no counts")
                .and(predicate::str::contains("openssl-vs-mcrypt")),
        );
}

#[test]
fn our_sampling_flags_do_not_mix_with_the_seed_method() {
    bin()
        .args([
            "paper", "aegis", "--method", "seed", "--time", "1s", "--no-db",
        ])
        .usage_error("drop --time");
}

#[test]
fn method_is_a_paper_flag_only() {
    bin()
        .args(["run", "--method", "seed", "--no-db"])
        .usage_error("--method");
}
