//! Sizes, durations and the human formatting of times and rates.
//!
//! Sizes follow DESIGN.md: `KiB`/`MiB`/`GiB` are 1024-based, `KB`/`MB`/`GB`
//! 1000-based, a bare number is bytes, and `k`/`m`/`g` alone are read as the
//! binary units because that is what `openssl speed` and `argon2 -m` users
//! mean. Parsers return a message naming the accepted forms; callers add the
//! flag name so the user sees which argument was wrong.

use std::time::Duration;

/// The largest message (or buffer) size any suite accepts: 1 GiB. Larger
/// buffers say nothing new about throughput and risk exhausting memory.
pub const MAX_MESSAGE_SIZE: u64 = 1 << 30;
/// The largest associated data per AEAD message: 64 MiB.
pub const MAX_AAD_SIZE: u64 = 64 << 20;
/// The longest duration any flag accepts (sampling time, targets, deadlines): 1 h.
pub const MAX_DURATION: Duration = Duration::from_secs(3600);
/// The most values one list or range may name, checked before it is expanded.
pub const MAX_LIST_VALUES: usize = 4096;

const SIZE_FORMS: &str = "accepted: a byte count with an optional unit B, KB, MB, GB (x1000) or KiB, MiB, GiB (x1024), e.g. 16, 1KiB, 20MB";

/// Parses one size (`16`, `1KiB`, `1KB`, `20MB`, `1.5MiB`). Zero is allowed.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!("'{text}' is negative ({SIZE_FORMS})"));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        return Err(format!("'{text}' is not a size ({SIZE_FORMS})"));
    }
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a size ({SIZE_FORMS})"))?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        other => {
            return Err(format!(
                "'{text}' has an unknown unit '{other}' ({SIZE_FORMS})"
            ))
        }
    };
    let bytes = value * mult;
    if bytes.fract() != 0.0 {
        return Err(format!("'{text}' is not a whole number of bytes"));
    }
    // Integers above 2^53 are not exact in f64; nobody means them as sizes.
    if !bytes.is_finite() || bytes > (1u64 << 53) as f64 {
        return Err(format!("'{text}' is too large"));
    }
    Ok(bytes as u64)
}

/// Parses a size between `min` and `max` bytes; the message names the range.
pub fn parse_size_within(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let v = parse_size(text)?;
    if v < min || v > max {
        return Err(format!(
            "{} is out of range (accepted: {} to {})",
            text.trim(),
            format_size(min),
            format_size(max)
        ));
    }
    Ok(v)
}

/// Parses a size that must be at least one byte.
pub fn parse_positive_size(text: &str) -> Result<u64, String> {
    match parse_size(text)? {
        0 => Err(format!("'{text}' must be at least 1 byte")),
        n => Ok(n),
    }
}

/// Parses a comma-separated list of sizes, in the order given, deduplicated.
pub fn parse_size_list(text: &str) -> Result<Vec<u64>, String> {
    parse_size_list_within(text, 0, u64::MAX)
}

/// [`parse_size_list`] with every size between `min` and `max` bytes and at
/// most [`MAX_LIST_VALUES`] entries.
pub fn parse_size_list_within(text: &str, min: u64, max: u64) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let v = if min == 0 && max == u64::MAX {
            parse_size(part)?
        } else {
            parse_size_within(part, min, max)?
        };
        if seen.insert(v) {
            out.push(v);
            if out.len() > MAX_LIST_VALUES {
                return Err(format!(
                    "more than {MAX_LIST_VALUES} sizes (give fewer, distinct values)"
                ));
            }
        }
    }
    if out.is_empty() {
        return Err("an empty list (give sizes separated by commas, e.g. 16,1KiB,20MB)".into());
    }
    Ok(out)
}

/// A whole number between `min` and `max`; negative and malformed input get
/// the accepted range in the message (`-1 is out of range (accepted: 1 to 8)`).
pub fn parse_count(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Negative, or too long for u64: out of range either way.
        return match t.parse::<u64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(format!("{t} is out of range (accepted: {min} to {max})")),
        };
    }
    Err(format!(
        "'{text}' is not a whole number (accepted: {min} to {max})"
    ))
}

const DURATION_FORMS: &str =
    "accepted: a positive number with unit ns, us, ms, s or m, e.g. 500ms, 2s";

/// Parses a duration (`500ms`, `2s`, `1.5s`, `250us`, `1m`); must be > 0 and
/// at most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    parse_duration_within(text, Duration::from_nanos(1), MAX_DURATION)
}

/// Parses a duration between `min` and `max`; the message uses readable
/// units ("1 ns is below the shortest accepted, 1 ms").
pub fn parse_duration_within(text: &str, min: Duration, max: Duration) -> Result<Duration, String> {
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!(
            "'{text}' must be greater than zero ({DURATION_FORMS})"
        ));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a duration ({DURATION_FORMS})"))?;
    let secs = match unit.trim().to_ascii_lowercase().as_str() {
        "ns" => value * 1e-9,
        "us" | "µs" => value * 1e-6,
        "ms" => value * 1e-3,
        "" | "s" => value,
        "m" | "min" => value * 60.0,
        other => {
            return Err(format!(
                "'{text}' has an unknown unit '{other}' ({DURATION_FORMS})"
            ))
        }
    };
    if secs <= 0.0 || !secs.is_finite() {
        return Err(format!(
            "'{text}' must be greater than zero ({DURATION_FORMS})"
        ));
    }
    let too_long = || {
        format!(
            "{} is above the longest accepted, {}",
            t,
            describe_duration(max)
        )
    };
    let d = Duration::try_from_secs_f64(secs).map_err(|_| too_long())?;
    if d > max {
        return Err(too_long());
    }
    if d < min {
        return Err(format!(
            "{} is below the shortest accepted, {}",
            t,
            describe_duration(min)
        ));
    }
    Ok(d)
}

/// A duration in the largest unit that keeps it whole: `1 ms`, `10 s`, `1 h`.
pub fn describe_duration(d: Duration) -> String {
    let ns = d.as_nanos();
    for (unit, name) in [
        (3_600_000_000_000u128, "h"),
        (60_000_000_000, "min"),
        (1_000_000_000, "s"),
        (1_000_000, "ms"),
        (1_000, "us"),
    ] {
        if ns >= unit && ns.is_multiple_of(unit) {
            return format!("{} {name}", ns / unit);
        }
    }
    format!("{ns} ns")
}

/// Formats nanoseconds with an auto-scaled unit: `812 ns`, `3.41 us`, `1.20 s`.
pub fn format_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "us")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    format!("{} {unit}", three_digits(v))
}

/// Formats a byte rate in decimal units (MB/s, GB/s) as `openssl speed` does.
pub fn format_rate(bytes_per_s: f64) -> String {
    let (v, unit) = if bytes_per_s >= 1e9 {
        (bytes_per_s / 1e9, "GB/s")
    } else if bytes_per_s >= 1e6 {
        (bytes_per_s / 1e6, "MB/s")
    } else if bytes_per_s >= 1e3 {
        (bytes_per_s / 1e3, "kB/s")
    } else {
        (bytes_per_s, "B/s")
    };
    format!("{} {unit}", three_digits(v))
}

/// Formats operations per second: `1.17 M/s`, `738 k/s`, `12.3 /s`.
pub fn format_ops(ops: f64) -> String {
    let (v, unit) = if ops >= 1e9 {
        (ops / 1e9, "G/s")
    } else if ops >= 1e6 {
        (ops / 1e6, "M/s")
    } else if ops >= 1e3 {
        (ops / 1e3, "k/s")
    } else {
        (ops, "/s")
    };
    format!("{} {unit}", three_digits(v))
}

/// Formats a size the way users type it: `16 B`, `1 KiB`, `200 KB`, `20 MB`.
pub fn format_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * 1024 * 1024;
    for (unit, name) in [(GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")] {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    for (unit, name) in [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "KB")] {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} B")
}

/// Three significant digits, no exponent.
fn three_digits(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_binary_and_decimal_units() {
        assert_eq!(parse_size("16").unwrap(), 16);
        assert_eq!(parse_size("1KiB").unwrap(), 1024);
        assert_eq!(parse_size("1KB").unwrap(), 1000);
        assert_eq!(parse_size("20MB").unwrap(), 20_000_000);
        assert_eq!(parse_size("1.5MiB").unwrap(), 1_572_864);
        assert_eq!(parse_size("64k").unwrap(), 65536);
        assert_eq!(parse_size("0").unwrap(), 0);
    }

    #[test]
    fn bad_sizes_are_rejected_with_the_accepted_forms() {
        let e = parse_size("12QB").unwrap_err();
        assert!(e.contains("unknown unit") && e.contains("KiB"), "{e}");
        assert!(parse_size("-1").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("0.5").is_err());
        assert!(parse_positive_size("0").is_err());
        assert_eq!(parse_size_list("16, 1KiB,16").unwrap(), vec![16, 1024]);
        assert!(parse_size_list(",").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms").unwrap().as_millis(), 500);
        assert_eq!(parse_duration("2").unwrap().as_secs(), 2);
        assert_eq!(parse_duration("1m").unwrap().as_secs(), 60);
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("3 parsecs").is_err());
    }

    #[test]
    fn huge_durations_are_usage_errors_not_panics() {
        let e = parse_duration("99999999999999999999s").unwrap_err();
        assert!(e.contains("above the longest accepted, 1 h"), "{e}");
        assert!(parse_duration("1e400").is_err());
        assert_eq!(parse_duration("60m").unwrap().as_secs(), 3600);
        assert!(parse_duration("61m").is_err());
        let e = parse_duration_within("1ns", Duration::from_millis(1), MAX_DURATION).unwrap_err();
        assert_eq!(e, "1ns is below the shortest accepted, 1 ms");
    }

    #[test]
    fn counts_name_their_range() {
        assert_eq!(parse_count("8", 1, 8).unwrap(), 8);
        assert_eq!(
            parse_count("-1", 1, 8).unwrap_err(),
            "-1 is out of range (accepted: 1 to 8)"
        );
        let e = parse_count("99999999999999999999999", 1, 8).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        assert!(parse_count("x", 1, 8)
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn bounded_sizes_name_their_range() {
        let e = parse_size_within("4GiB", 1, MAX_MESSAGE_SIZE).unwrap_err();
        assert_eq!(e, "4GiB is out of range (accepted: 1 B to 1 GiB)");
        assert!(parse_size("9223372036854775807").is_err());
        assert!(parse_size_list_within("16,2GiB", 1, MAX_MESSAGE_SIZE).is_err());
        assert_eq!(parse_size_list_within("16,16", 1, 64).unwrap(), vec![16]);
    }

    #[test]
    fn formatting_scales_units() {
        assert_eq!(format_ns(812.0), "812 ns");
        assert_eq!(format_ns(3_410.0), "3.41 us");
        assert_eq!(format_ns(1.2e9), "1.20 s");
        assert_eq!(format_rate(2.31e9), "2.31 GB/s");
        assert_eq!(format_rate(738e6), "738 MB/s");
        assert_eq!(format_ops(1_168_300.0), "1.17 M/s");
        assert_eq!(format_size(1024), "1 KiB");
        assert_eq!(format_size(20_000_000), "20 MB");
        assert_eq!(format_size(16), "16 B");
    }
}
