//! Sizes, durations and the human formatting of times and rates.
//!
//! Sizes follow DESIGN.md: `KiB`/`MiB`/`GiB` are 1024-based, `KB`/`MB`/`GB`
//! 1000-based, a bare number is bytes, and `k`/`m`/`g` alone are read as the
//! binary units because that is what `openssl speed` and `argon2 -m` users
//! mean. Parsers return a [`ParseError`] whose message names the accepted
//! forms; callers add the flag name so the user sees which argument was
//! wrong.

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
const DURATION_FORMS: &str =
    "accepted: a positive number with unit ns, us, ms, s or m, e.g. 500ms, 2s";

/// Why a size, count or duration given on the command line was refused. The
/// Display names the accepted forms; callers prefix the flag name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A size with a leading minus sign.
    #[error("'{text}' is negative ({SIZE_FORMS})")]
    NegativeSize {
        /// The input as given.
        text: String,
    },
    /// No number where a size was expected.
    #[error("'{text}' is not a size ({SIZE_FORMS})")]
    NotASize {
        /// The input as given.
        text: String,
    },
    /// A size unit outside B, KB, MB, GB, KiB, MiB, GiB.
    #[error("'{text}' has an unknown unit '{unit}' ({SIZE_FORMS})")]
    UnknownSizeUnit {
        /// The input as given.
        text: String,
        /// The unit as given.
        unit: String,
    },
    /// A fractional size that does not land on a whole byte.
    #[error("'{text}' is not a whole number of bytes")]
    FractionalBytes {
        /// The input as given.
        text: String,
    },
    /// A size beyond what an `f64` holds exactly (2^53 bytes).
    #[error("'{text}' is too large")]
    SizeTooLarge {
        /// The input as given.
        text: String,
    },
    /// A size outside the caller's bounds (both already formatted).
    #[error("{text} is out of range (accepted: {min} to {max})")]
    SizeOutOfRange {
        /// The input as given.
        text: String,
        /// The smallest accepted value.
        min: String,
        /// The largest accepted value.
        max: String,
    },
    /// Zero where at least one byte is needed.
    #[error("'{text}' must be at least 1 byte")]
    ZeroSize {
        /// The input as given.
        text: String,
    },
    /// A list longer than [`MAX_LIST_VALUES`].
    #[error("more than {MAX_LIST_VALUES} sizes (give fewer, distinct values)")]
    TooManySizes,
    /// A list with no sizes in it.
    #[error("an empty list (give sizes separated by commas, e.g. 16,1KiB,20MB)")]
    EmptySizeList,
    /// A whole number outside `min..=max` (negative included).
    #[error("{text} is out of range (accepted: {min} to {max})")]
    CountOutOfRange {
        /// The input as given.
        text: String,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// Not a whole number at all.
    #[error("'{text}' is not a whole number (accepted: {min} to {max})")]
    NotACount {
        /// The input as given.
        text: String,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// A duration that is zero or negative.
    #[error("'{text}' must be greater than zero ({DURATION_FORMS})")]
    NotPositiveDuration {
        /// The input as given.
        text: String,
    },
    /// No number where a duration was expected.
    #[error("'{text}' is not a duration ({DURATION_FORMS})")]
    NotADuration {
        /// The input as given.
        text: String,
    },
    /// A duration unit outside ns, us, ms, s, m.
    #[error("'{text}' has an unknown unit '{unit}' ({DURATION_FORMS})")]
    UnknownDurationUnit {
        /// The input as given.
        text: String,
        /// The unit as given.
        unit: String,
    },
    /// Longer than the caller's maximum (formatted, e.g. `1 h`).
    #[error("{text} is above the longest accepted, {max}")]
    DurationTooLong {
        /// The input as given.
        text: String,
        /// The largest accepted value.
        max: String,
    },
    /// Shorter than the caller's minimum (formatted, e.g. `1 ms`).
    #[error("{text} is below the shortest accepted, {min}")]
    DurationTooShort {
        /// The input as given.
        text: String,
        /// The smallest accepted value.
        min: String,
    },
}

/// Parses one size (`16`, `1KiB`, `1KB`, `20MB`, `1.5MiB`). Zero is allowed.
pub fn parse_size(text: &str) -> Result<u64, ParseError> {
    let t = text.trim();
    let owned = || text.to_string();
    if t.starts_with('-') {
        return Err(ParseError::NegativeSize { text: owned() });
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        return Err(ParseError::NotASize { text: owned() });
    }
    let value: f64 = num
        .parse()
        .map_err(|_| ParseError::NotASize { text: owned() })?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        other => {
            return Err(ParseError::UnknownSizeUnit {
                text: owned(),
                unit: other.to_string(),
            })
        }
    };
    let bytes = value * mult;
    if bytes.fract() != 0.0 {
        return Err(ParseError::FractionalBytes { text: owned() });
    }
    // Integers above 2^53 are not exact in f64; nobody means them as sizes.
    if !bytes.is_finite() || bytes > (1u64 << 53) as f64 {
        return Err(ParseError::SizeTooLarge { text: owned() });
    }
    Ok(bytes as u64)
}

/// Parses a size between `min` and `max` bytes; the message names the range.
pub fn parse_size_within(text: &str, min: u64, max: u64) -> Result<u64, ParseError> {
    let v = parse_size(text)?;
    if v < min || v > max {
        return Err(ParseError::SizeOutOfRange {
            text: text.trim().to_string(),
            min: format_size(min),
            max: format_size(max),
        });
    }
    Ok(v)
}

/// Parses a size that must be at least one byte.
pub fn parse_positive_size(text: &str) -> Result<u64, ParseError> {
    match parse_size(text)? {
        0 => Err(ParseError::ZeroSize {
            text: text.to_string(),
        }),
        n => Ok(n),
    }
}

/// Parses a comma-separated list of sizes, in the order given, deduplicated.
pub fn parse_size_list(text: &str) -> Result<Vec<u64>, ParseError> {
    parse_size_list_within(text, 0, u64::MAX)
}

/// [`parse_size_list`] with every size between `min` and `max` bytes and at
/// most [`MAX_LIST_VALUES`] entries.
pub fn parse_size_list_within(text: &str, min: u64, max: u64) -> Result<Vec<u64>, ParseError> {
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
                return Err(ParseError::TooManySizes);
            }
        }
    }
    if out.is_empty() {
        return Err(ParseError::EmptySizeList);
    }
    Ok(out)
}

/// A whole number between `min` and `max`; negative and malformed input get
/// the accepted range in the message (`-1 is out of range (accepted: 1 to 8)`).
pub fn parse_count(text: &str, min: u64, max: u64) -> Result<u64, ParseError> {
    let t = text.trim();
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Negative, or too long for u64: out of range either way.
        return match t.parse::<u64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(ParseError::CountOutOfRange {
                text: t.to_string(),
                min,
                max,
            }),
        };
    }
    Err(ParseError::NotACount {
        text: text.to_string(),
        min,
        max,
    })
}

/// Parses a duration (`500ms`, `2s`, `1.5s`, `250us`, `1m`); must be > 0 and
/// at most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, ParseError> {
    parse_duration_within(text, Duration::from_nanos(1), MAX_DURATION)
}

/// Parses a duration between `min` and `max`; the message uses readable
/// units ("1 ns is below the shortest accepted, 1 ms").
pub fn parse_duration_within(
    text: &str,
    min: Duration,
    max: Duration,
) -> Result<Duration, ParseError> {
    let t = text.trim();
    let not_positive = || ParseError::NotPositiveDuration {
        text: text.to_string(),
    };
    if t.starts_with('-') {
        return Err(not_positive());
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().map_err(|_| ParseError::NotADuration {
        text: text.to_string(),
    })?;
    let secs = match unit.trim().to_ascii_lowercase().as_str() {
        "ns" => value * 1e-9,
        "us" | "µs" => value * 1e-6,
        "ms" => value * 1e-3,
        "" | "s" => value,
        "m" | "min" => value * 60.0,
        other => {
            return Err(ParseError::UnknownDurationUnit {
                text: text.to_string(),
                unit: other.to_string(),
            })
        }
    };
    if secs <= 0.0 || !secs.is_finite() {
        return Err(not_positive());
    }
    let too_long = || ParseError::DurationTooLong {
        text: t.to_string(),
        max: describe_duration(max),
    };
    let d = Duration::try_from_secs_f64(secs).map_err(|_| too_long())?;
    if d > max {
        return Err(too_long());
    }
    if d < min {
        return Err(ParseError::DurationTooShort {
            text: t.to_string(),
            min: describe_duration(min),
        });
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
/// A column of times uses [`TimeUnit::for_column`] instead, so that every
/// cell of it reads in one unit.
pub fn format_ns(ns: f64) -> String {
    let unit = TimeUnit::for_value(ns);
    format!("{} {}", three_digits(ns / unit.ns()), unit.symbol())
}

/// The unit of a time column: chosen once per column so that cells compare
/// at a glance (`0.2649 ms` beside `267.28 us` does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
}

impl TimeUnit {
    /// The largest unit in which `ns` is at least 1.
    pub fn for_value(ns: f64) -> Self {
        let a = ns.abs();
        if a < 1e3 {
            Self::Ns
        } else if a < 1e6 {
            Self::Us
        } else if a < 1e9 {
            Self::Ms
        } else {
            Self::S
        }
    }

    /// The unit of a column: the one its smallest finite value needs, so no
    /// cell reads `0.00x`. An empty column gets nanoseconds.
    pub fn for_column(ns: impl IntoIterator<Item = f64>) -> Self {
        ns.into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold(None, |min: Option<f64>, v| {
                Some(min.map_or(v, |m| m.min(v)))
            })
            .map_or(Self::Ns, Self::for_value)
    }

    /// Nanoseconds in one of this unit.
    pub fn ns(self) -> f64 {
        match self {
            Self::Ns => 1.0,
            Self::Us => 1e3,
            Self::Ms => 1e6,
            Self::S => 1e9,
        }
    }

    /// The symbol shown after the number or in a column header.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Ns => "ns",
            Self::Us => "us",
            Self::Ms => "ms",
            Self::S => "s",
        }
    }

    /// `ns` in this unit with three significant digits (more for values of
    /// 1000 and up, which keep their integer part), without the symbol.
    pub fn format_bare(self, ns: f64) -> String {
        if !ns.is_finite() {
            return "n/a".into();
        }
        three_digits(ns / self.ns())
    }

    /// `ns` in this unit with its symbol: `267 us`, `1830 us`.
    pub fn format(self, ns: f64) -> String {
        format!("{} {}", self.format_bare(ns), self.symbol())
    }
}

/// Formats a byte rate in decimal units (MB/s, GB/s) as `openssl speed` does.
pub fn format_rate(bytes_per_s: f64) -> String {
    format_per_s(bytes_per_s, "B")
}

/// Formats operations per second: `1.17 M ops/s`, `738 k ops/s`, `12.3 ops/s`.
pub fn format_ops(ops: f64) -> String {
    format_per_s(ops, "ops")
}

/// A rate with an SI prefix and its unit, the one vocabulary of every rate
/// the tool prints: `9.18 M msg/s`, `71.3 k chars/s`, `8.48 GB/s` (a unit
/// of one letter takes the prefix without a space, as in `GB/s`).
pub fn format_per_s(value: f64, unit: &str) -> String {
    let (v, prefix) = si_prefix(value);
    let glue = if prefix.is_empty() || unit.chars().count() == 1 {
        ""
    } else {
        " "
    };
    format!("{} {prefix}{glue}{unit}/s", three_digits(v))
}

/// A plain count with an SI prefix: `9.18 M`, `71.3 k`, `812`.
pub fn format_si(value: f64) -> String {
    let (v, prefix) = si_prefix(value);
    if prefix.is_empty() {
        three_digits(v)
    } else {
        format!("{} {prefix}", three_digits(v))
    }
}

/// `value` scaled to below 1000 and its SI prefix (`T`, `G`, `M`, `k` or
/// none).
pub fn si_prefix(value: f64) -> (f64, &'static str) {
    let a = value.abs();
    if a >= 1e12 {
        (value / 1e12, "T")
    } else if a >= 1e9 {
        (value / 1e9, "G")
    } else if a >= 1e6 {
        (value / 1e6, "M")
    } else if a >= 1e3 {
        (value / 1e3, "k")
    } else {
        (value, "")
    }
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
    if !v.is_finite() {
        return "n/a".into();
    }
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
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
        let e = parse_size("12QB").unwrap_err().to_string();
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
        let e = parse_duration("99999999999999999999s")
            .unwrap_err()
            .to_string();
        assert!(e.contains("above the longest accepted, 1 h"), "{e}");
        assert!(parse_duration("1e400").is_err());
        assert_eq!(parse_duration("60m").unwrap().as_secs(), 3600);
        assert!(parse_duration("61m").is_err());
        let e = parse_duration_within("1ns", Duration::from_millis(1), MAX_DURATION)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "1ns is below the shortest accepted, 1 ms");
    }

    #[test]
    fn counts_name_their_range() {
        assert_eq!(parse_count("8", 1, 8).unwrap(), 8);
        assert_eq!(
            parse_count("-1", 1, 8).unwrap_err().to_string(),
            "-1 is out of range (accepted: 1 to 8)"
        );
        let e = parse_count("99999999999999999999999", 1, 8)
            .unwrap_err()
            .to_string();
        assert!(e.contains("out of range"), "{e}");
        assert!(parse_count("x", 1, 8)
            .unwrap_err()
            .to_string()
            .contains("not a whole number"));
    }

    #[test]
    fn bounded_sizes_name_their_range() {
        let e = parse_size_within("4GiB", 1, MAX_MESSAGE_SIZE)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "4GiB is out of range (accepted: 1 B to 1 GiB)");
        assert!(parse_size("9223372036854775807").is_err());
        assert!(parse_size_list_within("16,2GiB", 1, MAX_MESSAGE_SIZE).is_err());
        assert_eq!(parse_size_list_within("16,16", 1, 64).unwrap(), vec![16]);
    }

    #[test]
    fn formatting_scales_units() {
        for (shown, expected) in [
            (format_ns(812.0), "812 ns"),
            (format_ns(3_410.0), "3.41 us"),
            (format_ns(1.2e9), "1.20 s"),
            (format_rate(2.31e9), "2.31 GB/s"),
            (format_rate(738e6), "738 MB/s"),
            (format_ops(1_168_300.0), "1.17 M ops/s"),
            (format_ops(12.34), "12.3 ops/s"),
            (format_per_s(9_184_280.0, "msg"), "9.18 M msg/s"),
            (format_per_s(71_300.0, "chars"), "71.3 k chars/s"),
            (format_rate(8.48e9), "8.48 GB/s"),
            (format_rate(512.0), "512 B/s"),
            (format_si(71_300.0), "71.3 k"),
            (format_si(812.0), "812"),
            (format_size(1024), "1 KiB"),
            (format_size(20_000_000), "20 MB"),
            (format_size(16), "16 B"),
        ] {
            assert_eq!(shown, expected);
        }
    }

    #[test]
    fn a_time_column_reads_in_one_unit() {
        let column = [264_900.0, 267_280.0, 1_830_000.0];
        let unit = TimeUnit::for_column(column);
        assert_eq!(unit, TimeUnit::Us);
        let cells: Vec<String> = column.iter().map(|v| unit.format(*v)).collect();
        assert_eq!(cells, ["265 us", "267 us", "1830 us"]);
        assert_eq!(TimeUnit::for_column([f64::NAN, 0.0]), TimeUnit::Ns);
        assert_eq!(TimeUnit::for_column([2.5e9]).format(2.5e9), "2.50 s");
        assert_eq!(TimeUnit::Ms.format_bare(f64::NAN), "n/a");
    }
}
