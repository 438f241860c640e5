//! Known answers and agreement on every backend, as the suite's checks run
//! them before timing.

use cryptobench_core::CheckOutcome;
use cryptobench_suite_argon2::engines::{self, HashError, Hasher, Inputs};
use cryptobench_suite_argon2::params::{Params, Variant, Version};
use cryptobench_suite_argon2::vectors::{self, VECTORS};

/// Every registered backend must run here: a missing one fails the test
/// with the way to install it, never skips it.
fn require(h: &dyn Hasher) {
    if let Err(why) = h.available() {
        panic!(
            "{} not available here: {why}; scripts/install-deps installs it \
             (apt-get install libargon2-1 argon2)",
            h.name()
        );
    }
}

#[test]
fn rfc9106_vectors_pass_on_every_backend_that_takes_them() {
    for hasher in engines::all() {
        require(hasher.as_ref());
        for variant in Variant::ALL {
            let results = vectors::known_answers(hasher.as_ref(), variant);
            assert_eq!(
                results.len(),
                VECTORS.iter().filter(|v| v.variant == variant).count()
            );
            for r in &results {
                assert_ne!(
                    r.outcome,
                    CheckOutcome::Fail,
                    "{}: {} {}",
                    hasher.name(),
                    r.name,
                    r.detail
                );
                if r.outcome == CheckOutcome::Skipped {
                    assert!(
                        r.detail.starts_with("unsupported"),
                        "{}: {}",
                        r.name,
                        r.detail
                    );
                }
            }
            let rfc_ran = results
                .iter()
                .any(|r| r.name.contains("RFC 9106") && r.outcome == CheckOutcome::Pass);
            let takes_secret = matches!(hasher.name(), engines::LIBARGON2 | engines::RUSTCRYPTO);
            assert_eq!(rfc_ran, takes_secret, "{} {variant:?}", hasher.name());
        }
    }
}

#[test]
fn a_wrong_tag_fails_the_known_answer_check() {
    // A backend that flips one bit must be caught: wrap the reference library.
    struct Broken;
    impl Hasher for Broken {
        fn name(&self) -> &'static str {
            "broken"
        }
        fn version(&self) -> String {
            String::new()
        }
        fn supports(&self, _: &Params, _: &Inputs) -> Result<(), HashError> {
            Ok(())
        }
        fn hash(&self, p: &Params, i: &Inputs, out: &mut [u8]) -> Result<(), HashError> {
            engines::RefLib.hash(p, i, out)?;
            out[0] ^= 1;
            Ok(())
        }
    }
    let results = vectors::known_answers(&Broken, Variant::Id);
    assert!(results.iter().all(|r| r.outcome == CheckOutcome::Fail));
    let agree = vectors::agreement(&Broken, &engines::RefLib, Variant::D, 2, 7);
    assert_eq!(agree.outcome, CheckOutcome::Fail, "{}", agree.detail);
}

#[test]
fn backends_agree_on_random_points() {
    let reference = engines::RefLib;
    for hasher in engines::all() {
        require(hasher.as_ref());
        if hasher.name() == engines::LIBARGON2 {
            continue;
        }
        for variant in Variant::ALL {
            let r = vectors::agreement(hasher.as_ref(), &reference, variant, 3, 0x5eed);
            let expected_skip = hasher.name() == engines::LIBSODIUM && variant == Variant::D;
            let want = if expected_skip {
                CheckOutcome::Skipped
            } else {
                CheckOutcome::Pass
            };
            assert_eq!(
                r.outcome,
                want,
                "{} {variant:?}: {}",
                hasher.name(),
                r.detail
            );
        }
    }
}

#[test]
fn libsodium_rules_are_reasons_not_failures() {
    let s = engines::Sodium;
    let inputs = Inputs {
        password: b"pw".to_vec(),
        salt: vec![7; 16],
        ..Inputs::default()
    };
    let mut p = Params::new(Variant::I, 1024, 1, 1);
    let why = s.supports(&p, &inputs).unwrap_err();
    assert!(
        matches!(&why, HashError::Skipped(m) if m.contains("t >= 3")),
        "{why}"
    );
    p.t = 3;
    s.supports(&p, &inputs).unwrap();
    p.lanes = 2;
    p.threads = 2;
    assert_eq!(
        s.supports(&p, &inputs).unwrap_err().to_string(),
        "unsupported: libsodium uses one lane"
    );
    let d = Params::new(Variant::D, 1024, 3, 1);
    assert!(s
        .supports(&d, &inputs)
        .unwrap_err()
        .to_string()
        .contains("Argon2i and Argon2id only"));
    let mut v10 = Params::new(Variant::Id, 1024, 3, 1);
    v10.version = Version::V10;
    assert!(s.supports(&v10, &inputs).is_err());
}
