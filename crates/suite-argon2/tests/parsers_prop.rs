//! Property tests over the Argon2 parsers: PHC strings, memory lists and
//! count ranges. Arbitrary text parses or is a usage error, never a panic;
//! every encodable PHC string round-trips; the caps hold.

use cryptobench_core::Error;
use cryptobench_suite_argon2::limits::{Caps, MAX_LANES};
use cryptobench_suite_argon2::params::{self, Params, Variant, Version};
use cryptobench_suite_argon2::phc;
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::D), Just(Variant::I), Just(Variant::Id)]
}

fn version() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::V10), Just(Version::V13)]
}

fn usage_or_ok<T>(r: Result<T, Error>) -> Result<(), TestCaseError> {
    match r {
        Ok(_) | Err(Error::Usage(_)) => Ok(()),
        Err(other) => Err(TestCaseError::fail(format!("not a usage error: {other}"))),
    }
}

/// PHC-shaped text with hostile numbers in every field.
fn phc_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        r"\$argon2(id|i|d|x)?(\$v=[0-9]{0,12})?\$m=-?[0-9]{0,12},t=-?[0-9]{0,12},p=-?[0-9]{0,12}\$[A-Za-z0-9+/=]{0,30}\$[A-Za-z0-9+/=]{0,60}",
    )
    .expect("valid regex")
}

proptest! {
    #[test]
    fn any_text_is_a_phc_string_or_a_usage_error(text in any::<String>(), shaped in phc_like()) {
        usage_or_ok(phc::parse(&text))?;
        usage_or_ok(phc::parse(&shaped))?;
    }

    #[test]
    fn parsed_strings_are_capped_without_panicking(shaped in phc_like()) {
        if let Ok(p) = phc::parse(&shaped) {
            let caps = Caps::parse("1GiB", "10s").unwrap();
            if caps.check(&p.params, 2).is_ok() {
                prop_assert!(p.params.memory_bytes() <= 1 << 30);
                prop_assert!(p.params.lanes <= MAX_LANES);
            }
        }
    }

    #[test]
    fn phc_strings_round_trip(
        variant in variant(),
        version in version(),
        lanes in 1u32..=16,
        extra_kib in 0u32..100_000,
        t in 1u32..=u32::MAX,
        salt in proptest::collection::vec(any::<u8>(), 8..64),
        tag in proptest::collection::vec(any::<u8>(), 4..128),
    ) {
        let params = Params {
            version,
            tag_len: tag.len(),
            ..Params::new(variant, 8 * lanes + extra_kib, t, lanes)
        };
        let text = phc::encode(&params, &salt, &tag);
        let parsed = phc::parse(&text).unwrap();
        prop_assert_eq!(parsed.params, params);
        prop_assert_eq!(parsed.salt, salt);
        prop_assert_eq!(parsed.tag, tag);
    }

    #[test]
    fn base64_round_trips(data in proptest::collection::vec(any::<u8>(), 0..200)) {
        prop_assert_eq!(phc::b64_decode(&phc::b64_encode(&data)), Some(data));
    }

    #[test]
    fn count_lists_stay_in_range(text in any::<String>(), shaped in r"[-0-9]{0,12}(\.\.[-0-9]{0,12})?(,[0-9]{0,12}(\.\.[0-9]{0,12})?){0,3}", doubling in any::<bool>()) {
        for t in [&text, &shaped] {
            match params::parse_count_list("--lanes", t, doubling, MAX_LANES) {
                Ok(v) => prop_assert!(!v.is_empty() && v.iter().all(|l| (1..=MAX_LANES).contains(l))),
                Err(Error::Usage(_)) => {}
                Err(other) => prop_assert!(false, "{other}"),
            }
        }
    }

    #[test]
    fn memory_lists_parse_or_explain(text in any::<String>(), shaped in r"[0-9]{1,12}(KiB|MiB|GiB|k)?(\.\.[0-9]{1,12}(KiB|MiB|GiB)?)?") {
        usage_or_ok(params::parse_memory_list(&text))?;
        usage_or_ok(params::parse_memory_list(&shaped))?;
    }
}
