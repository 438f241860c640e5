//! Property tests over the parsers of user input: any text either parses or
//! is a usage message (never a panic), and valid values round-trip.

use cryptobench_core::units::{self, MAX_DURATION, MAX_LIST_VALUES};
use cryptobench_core::{input, names, Error};
use proptest::prelude::*;
use std::time::Duration;

/// Text that looks like what users type: digits, units, signs, separators.
fn numberish() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        r"[-+ ]?[0-9.eE]{0,25}[ ]?(KiB|MiB|GiB|KB|MB|GB|k|m|g|B|ns|us|ms|s|min|h|x)?",
    )
    .expect("valid regex")
}

proptest! {
    #[test]
    fn any_size_text_parses_or_explains(text in any::<String>(), typed in numberish()) {
        for t in [&text, &typed] {
            if let Err(e) = units::parse_size(t) {
                prop_assert!(!e.to_string().is_empty());
            }
            let _ = units::parse_size_within(t, 1, units::MAX_MESSAGE_SIZE);
            let _ = units::parse_size_list_within(t, 0, units::MAX_MESSAGE_SIZE);
        }
    }

    #[test]
    fn sizes_round_trip(bytes in 0u64..=(1u64 << 40)) {
        prop_assert_eq!(units::parse_size(&bytes.to_string()), Ok(bytes));
        prop_assert_eq!(units::parse_size(&units::format_size(bytes)), Ok(bytes));
    }

    #[test]
    fn bounded_sizes_hold_their_bounds(text in numberish(), max in 1u64..=(1u64 << 32)) {
        if let Ok(v) = units::parse_size_within(&text, 1, max) {
            prop_assert!((1..=max).contains(&v));
        }
    }

    #[test]
    fn any_duration_text_parses_or_explains(text in any::<String>(), typed in numberish()) {
        for t in [&text, &typed] {
            match units::parse_duration(t) {
                Ok(d) => prop_assert!(d > Duration::ZERO && d <= MAX_DURATION),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn durations_round_trip(ms in 1u64..=3_600_000) {
        prop_assert_eq!(units::parse_duration(&format!("{ms}ms")), Ok(Duration::from_millis(ms)));
        let d = Duration::from_millis(ms);
        prop_assert_eq!(units::parse_duration(&units::describe_duration(d).replace(' ', "")), Ok(d));
    }

    #[test]
    fn counts_parse_in_range_or_name_the_range(text in any::<String>(), typed in numberish(), max in 1u64..=u64::MAX) {
        for t in [&text, &typed] {
            match units::parse_count(t, 1, max) {
                Ok(v) => prop_assert!((1..=max).contains(&v)),
                Err(e) => prop_assert!(e.to_string().contains(&format!("accepted: 1 to {max}")), "{}", e),
            }
        }
    }

    #[test]
    fn counts_round_trip(v in any::<u64>()) {
        prop_assert_eq!(units::parse_count(&v.to_string(), 0, u64::MAX), Ok(v));
    }

    #[test]
    fn size_lists_deduplicate_in_order(values in proptest::collection::vec(0u64..5000, 1..50)) {
        let text = values.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        let mut expected: Vec<u64> = Vec::new();
        for v in &values {
            if !expected.contains(v) {
                expected.push(*v);
            }
        }
        prop_assert_eq!(units::parse_size_list(&text), Ok(expected));
    }

    #[test]
    fn long_lists_are_refused_not_expanded(extra in 1usize..100) {
        let text = (0..(MAX_LIST_VALUES + extra) as u64).map(|v| v.to_string()).collect::<Vec<_>>().join(",");
        prop_assert!(units::parse_size_list(&text).is_err());
    }

    #[test]
    fn names_resolve_or_give_a_usage_error(text in any::<String>()) {
        let candidates = ["SHA-256", "SHA-512", "SHA3-256", "BLAKE2b-512"];
        match names::resolve_list("primitive", &text, &candidates) {
            Ok(v) => prop_assert!(!v.is_empty()),
            Err(Error::Usage(m)) => prop_assert!(!m.is_empty()),
            Err(other) => prop_assert!(false, "not a usage error: {other}"),
        }
    }

    #[test]
    fn bounded_reads_never_exceed_the_limit(len in 0usize..4096, limit in 0u64..4096) {
        let data = vec![1u8; len];
        match input::read_bounded_with("stdin", &data[..], limit) {
            Ok(read) => prop_assert!(read.len() as u64 <= limit && read.len() == len),
            Err(Error::Usage(_)) => prop_assert!(len as u64 > limit),
            Err(other) => prop_assert!(false, "{other}"),
        }
    }
}
