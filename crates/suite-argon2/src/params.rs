//! Argon2 parameters as users type them, and the rules they must obey.
//!
//! Every rule of RFC 9106 section 3.1 that a user can break from the command
//! line is checked here, once, with a message naming the rule: the `hash`,
//! `verify` and `tune` subcommands and the benchmark grid all go through
//! [`Params::validate`], so a bad value is the same usage error everywhere.

use cryptobench_core::{names, units, Error};

/// RFC 9106 section 3.1: the degree of parallelism is at most 2^24 - 1.
pub const MAX_LANES: u32 = (1 << 24) - 1;
/// RFC 9106 section 3.1: the salt should be at least 8 bytes (the reference
/// library and CLI enforce it).
pub const MIN_SALT_LEN: usize = 8;
/// RFC 9106 section 3.1: the tag is at least 4 bytes.
pub const MIN_TAG_LEN: usize = 4;
/// RFC 9106 section 3.1: memory is at least 8 KiB per lane.
pub const MIN_KIB_PER_LANE: u32 = 8;

/// The three variants of RFC 9106.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Data-dependent addressing.
    D,
    /// Data-independent addressing.
    I,
    /// Hybrid: first half pass independent, then dependent.
    Id,
}

impl Variant {
    /// All variants, in the seed's order of mention.
    pub const ALL: [Variant; 3] = [Variant::D, Variant::I, Variant::Id];

    /// `Argon2d`, `Argon2i`, `Argon2id`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::D => "Argon2d",
            Variant::I => "Argon2i",
            Variant::Id => "Argon2id",
        }
    }
    /// The PHC string identifier (`argon2id`).
    pub fn phc_id(self) -> &'static str {
        match self {
            Variant::D => "argon2d",
            Variant::I => "argon2i",
            Variant::Id => "argon2id",
        }
    }
    /// The flag the reference CLI takes (`-id`).
    pub fn cli_flag(self) -> &'static str {
        match self {
            Variant::D => "-d",
            Variant::I => "-i",
            Variant::Id => "-id",
        }
    }
    /// The `argon2_type` value of the reference library.
    pub fn ref_type(self) -> u32 {
        match self {
            Variant::D => 0,
            Variant::I => 1,
            Variant::Id => 2,
        }
    }
    /// Parses `i`, `d`, `id`, `argon2i`, `Argon2id`, ... (case-insensitive).
    pub fn parse(text: &str) -> Result<Variant, Error> {
        let folded = names::fold(text);
        let bare = folded.strip_prefix("argon2").unwrap_or(&folded);
        match bare {
            "d" => Ok(Variant::D),
            "i" => Ok(Variant::I),
            "id" => Ok(Variant::Id),
            _ => Err(names::unknown(
                "variant",
                text,
                &["argon2d", "argon2i", "argon2id", "d", "i", "id"],
            )),
        }
    }
    /// Parses a comma-separated list (`i,d,id` or `all`).
    pub fn parse_list(text: &str) -> Result<Vec<Variant>, Error> {
        if names::fold(text) == "all" {
            return Ok(Variant::ALL.to_vec());
        }
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let v = Variant::parse(part)?;
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.is_empty() {
            return Err(Error::usage(
                "--variants: no variant given (accepted: i, d, id, all)",
            ));
        }
        Ok(out)
    }
}

/// The two published versions of the algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// 0x10 (1.0), the PHC submission.
    V10,
    /// 0x13 (1.3), RFC 9106.
    V13,
}

impl Version {
    /// The number stored in the hash (16 or 19).
    pub fn number(self) -> u32 {
        match self {
            Version::V10 => 0x10,
            Version::V13 => 0x13,
        }
    }
    /// From the number (16/0x10, 19/0x13) or the CLI's `10`/`13` spelling.
    pub fn parse(text: &str) -> Result<Version, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "16" | "0x10" | "10" => Ok(Version::V10),
            "19" | "0x13" | "13" => Ok(Version::V13),
            _ => Err(Error::usage(format!(
                "unknown Argon2 version '{text}' (accepted: 13 or 0x13 or 19 = RFC 9106, 10 or 0x10 or 16 = the 2015 version)"
            ))),
        }
    }
}

/// One point of the parameter space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Params {
    /// Variant.
    pub variant: Variant,
    /// Version.
    pub version: Version,
    /// Memory in KiB (`m`).
    pub m_kib: u32,
    /// Passes over memory (`t`).
    pub t: u32,
    /// Lanes (`p`).
    pub lanes: u32,
    /// Worker threads filling the lanes (1..=lanes).
    pub threads: u32,
    /// Tag length in bytes.
    pub tag_len: usize,
}

impl Params {
    /// Version 0x13, threads = lanes, 32-byte tag.
    pub fn new(variant: Variant, m_kib: u32, t: u32, lanes: u32) -> Self {
        Self {
            variant,
            version: Version::V13,
            m_kib,
            t,
            lanes,
            threads: lanes,
            tag_len: 32,
        }
    }
    /// Memory in bytes.
    pub fn memory_bytes(&self) -> u64 {
        u64::from(self.m_kib) * 1024
    }
    /// Memory blocks actually used: m rounded down to a multiple of 4 x lanes
    /// (RFC 9106 section 3.2, step 5).
    pub fn used_kib(&self) -> u64 {
        let sync = 4 * u64::from(self.lanes.max(1));
        (u64::from(self.m_kib) / sync) * sync
    }
    /// Checks every rule of RFC 9106 section 3.1 a user can break.
    pub fn validate(&self) -> Result<(), Error> {
        if self.t == 0 {
            return Err(Error::usage(
                "iterations must be at least 1 (RFC 9106 section 3.1: t >= 1); t = 0 was given",
            ));
        }
        if self.lanes == 0 || self.lanes > MAX_LANES {
            return Err(Error::usage(format!(
                "lanes must be between 1 and 2^24 - 1 = {MAX_LANES} (RFC 9106 section 3.1); {} was given",
                self.lanes
            )));
        }
        let min_kib = u64::from(MIN_KIB_PER_LANE) * u64::from(self.lanes);
        if u64::from(self.m_kib) < min_kib {
            return Err(Error::usage(format!(
                "memory must be at least 8 KiB per lane (RFC 9106 section 3.1: m >= 8 x p): {} lanes need at least {min_kib} KiB, {} KiB was given",
                self.lanes, self.m_kib
            )));
        }
        if self.threads == 0 || self.threads > self.lanes {
            return Err(Error::usage(format!(
                "threads must be between 1 and the number of lanes ({}); {} was given",
                self.lanes, self.threads
            )));
        }
        if self.tag_len < MIN_TAG_LEN || u32::try_from(self.tag_len).is_err() {
            return Err(Error::usage(format!(
                "tag length must be between 4 and 2^32 - 1 bytes (RFC 9106 section 3.1); {} was given",
                self.tag_len
            )));
        }
        Ok(())
    }
    /// `m=65536,t=3,p=4`, as in a PHC string.
    pub fn phc_params(&self) -> String {
        format!("m={},t={},p={}", self.m_kib, self.t, self.lanes)
    }
    /// A short label: `Argon2id m=64 MiB t=3 p=4`.
    pub fn label(&self) -> String {
        let threads = if self.threads != self.lanes {
            format!(" threads={}", self.threads)
        } else {
            String::new()
        };
        format!(
            "{} m={} t={} p={}{threads}",
            self.variant.name(),
            units::format_size(self.memory_bytes()),
            self.t,
            self.lanes
        )
    }
}

/// Checks the salt-length rule.
pub fn validate_salt(salt: &[u8]) -> Result<(), Error> {
    if salt.len() < MIN_SALT_LEN {
        return Err(Error::usage(format!(
            "the salt must be at least 8 bytes (RFC 9106 section 3.1; the reference library enforces it); {} bytes were given",
            salt.len()
        )));
    }
    if u32::try_from(salt.len()).is_err() {
        return Err(Error::usage("the salt must be shorter than 2^32 bytes"));
    }
    Ok(())
}

/// Parses a memory size into KiB; it must be a whole number of KiB.
pub fn parse_memory_kib(text: &str) -> Result<u32, Error> {
    let bytes = units::parse_size(text).map_err(|e| Error::usage(format!("memory: {e}")))?;
    if bytes % 1024 != 0 {
        return Err(Error::usage(format!(
            "memory '{text}' is not a whole number of KiB (Argon2 counts memory in 1 KiB blocks; give e.g. 64MiB or 65536KiB; a bare number is bytes)"
        )));
    }
    u32::try_from(bytes / 1024).map_err(|_| {
        Error::usage(format!(
            "memory '{text}' exceeds 2^32 - 1 KiB, the largest m Argon2 encodes"
        ))
    })
}

/// Parses `16MiB..1GiB` (doubling from the first to at most the last) or a
/// comma-separated list of sizes; returns KiB values in order.
pub fn parse_memory_list(text: &str) -> Result<Vec<u32>, Error> {
    let mut out = UniqueList::new("--memory", "sizes");
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some((lo, hi)) = part.split_once("..") {
            let (lo, hi) = (parse_memory_kib(lo)?, parse_memory_kib(hi)?);
            if lo == 0 || lo > hi {
                return Err(Error::usage(format!(
                    "memory range '{part}' must go from a non-zero size up to a larger one (e.g. 16MiB..1GiB doubles from 16 MiB to 1 GiB)"
                )));
            }
            let mut m = u64::from(lo);
            while m <= u64::from(hi) {
                out.push(m as u32)?;
                m *= 2;
            }
        } else {
            out.push(parse_memory_kib(part)?)?;
        }
    }
    if out.values.is_empty() {
        return Err(Error::usage(
            "--memory: no size given (e.g. 64MiB, 16MiB..1GiB, 16MiB,256MiB)",
        ));
    }
    Ok(out.values)
}

/// Parses counts from 1 to `max`: `1,2,4,8`, or a range `a..b` that
/// doubles (`doubling`) or counts up by one. A range's length is checked
/// before it is expanded, so `1..100000000` is an error at once.
pub fn parse_count_list(
    flag: &str,
    text: &str,
    doubling: bool,
    max: u32,
) -> Result<Vec<u32>, Error> {
    let forms = format!(
        "accepted: whole numbers from 1 to {max}, as a list like 1,2,4 or a range like 1..8"
    );
    let parse = |s: &str| -> Result<u32, Error> {
        units::parse_count(s, 1, u64::from(max))
            .map(|v| v as u32)
            .map_err(|e| Error::usage(format!("{flag}: {e}; {forms}")))
    };
    let mut out = UniqueList::new(flag, "values");
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some((lo, hi)) = part.split_once("..") {
            let (lo, hi) = (parse(lo)?, parse(hi)?);
            if lo > hi {
                return Err(Error::usage(format!(
                    "{flag}: range '{part}' must go from the smaller to the larger value"
                )));
            }
            let steps = if doubling {
                u64::from((hi / lo).ilog2()) + 1
            } else {
                u64::from(hi - lo) + 1
            };
            if out.values.len() as u64 + steps > units::MAX_LIST_VALUES as u64 {
                return Err(Error::usage(format!(
                    "{flag}: '{part}' names {steps} values; at most {} in all",
                    units::MAX_LIST_VALUES
                )));
            }
            let mut v = u64::from(lo);
            while v <= u64::from(hi) {
                out.push(v as u32)?;
                v = if doubling { v * 2 } else { v + 1 };
            }
        } else {
            out.push(parse(part)?)?;
        }
    }
    if out.values.is_empty() {
        return Err(Error::usage(format!("{flag}: no value given; {forms}")));
    }
    Ok(out.values)
}

/// The values of one list option in first-seen order, without repeats;
/// more than [`units::MAX_LIST_VALUES`] is a usage error naming the flag.
struct UniqueList<'a> {
    flag: &'a str,
    /// What the values are called in the error ("sizes", "values").
    noun: &'static str,
    seen: std::collections::HashSet<u32>,
    values: Vec<u32>,
}

impl<'a> UniqueList<'a> {
    fn new(flag: &'a str, noun: &'static str) -> Self {
        Self {
            flag,
            noun,
            seen: std::collections::HashSet::new(),
            values: Vec::new(),
        }
    }

    fn push(&mut self, v: u32) -> Result<(), Error> {
        if self.seen.insert(v) {
            self.values.push(v);
        }
        if self.values.len() > units::MAX_LIST_VALUES {
            return Err(Error::usage(format!(
                "{}: more than {} {}",
                self.flag,
                units::MAX_LIST_VALUES,
                self.noun
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(r: Result<(), Error>) -> String {
        match r {
            Err(Error::Usage(m)) => m,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn each_rule_is_named_when_broken() {
        let ok = Params::new(Variant::Id, 64, 1, 8);
        ok.validate().unwrap();
        let m = usage(Params { m_kib: 63, ..ok }.validate());
        assert!(m.contains("8 KiB per lane") && m.contains("64 KiB"), "{m}");
        assert!(usage(Params { t: 0, ..ok }.validate()).contains("t >= 1"));
        assert!(usage(
            Params {
                lanes: 0,
                threads: 0,
                ..ok
            }
            .validate()
        )
        .contains("2^24 - 1"));
        let huge = Params {
            lanes: MAX_LANES + 1,
            threads: 1,
            m_kib: u32::MAX,
            ..ok
        };
        assert!(usage(huge.validate()).contains("2^24 - 1"));
        let max = Params {
            lanes: MAX_LANES,
            threads: 1,
            m_kib: u32::MAX,
            ..ok
        };
        max.validate().unwrap();
        assert!(usage(Params { threads: 9, ..ok }.validate()).contains("threads"));
        assert!(usage(Params { tag_len: 3, ..ok }.validate()).contains("tag length"));
        assert!(usage(validate_salt(b"1234567")).contains("at least 8 bytes"));
        validate_salt(b"12345678").unwrap();
    }

    #[test]
    fn variants_parse_with_did_you_mean() {
        assert_eq!(Variant::parse("ID").unwrap(), Variant::Id);
        assert_eq!(Variant::parse("argon2d").unwrap(), Variant::D);
        assert_eq!(Variant::parse("Argon2i").unwrap(), Variant::I);
        let e = Variant::parse("argon2x").unwrap_err().to_string();
        assert!(
            e.contains("unknown variant 'argon2x'") && e.contains("did you mean"),
            "{e}"
        );
        assert_eq!(Variant::parse_list("all").unwrap().len(), 3);
        assert_eq!(
            Variant::parse_list("i, id,i").unwrap(),
            vec![Variant::I, Variant::Id]
        );
        assert!(Version::parse("12").is_err());
        assert_eq!(Version::parse("10").unwrap(), Version::V10);
    }

    #[test]
    fn memory_ranges_double() {
        assert_eq!(
            parse_memory_list("16MiB..1GiB").unwrap(),
            vec![16384, 32768, 65536, 131072, 262144, 524288, 1048576]
        );
        assert_eq!(
            parse_memory_list("8MiB,32MiB,8MiB").unwrap(),
            vec![8192, 32768]
        );
        assert_eq!(parse_memory_list("32KiB..100KiB").unwrap(), vec![32, 64]);
        assert!(parse_memory_list("1GiB..16MiB").is_err());
        assert!(
            parse_memory_list("1000").is_err(),
            "bytes that are not whole KiB"
        );
        assert!(parse_memory_list("5TiB").is_err());
        assert_eq!(
            parse_count_list("--lanes", "1..8", true, 255).unwrap(),
            vec![1, 2, 4, 8]
        );
        assert_eq!(
            parse_count_list("--iterations", "1..3", false, 1000).unwrap(),
            vec![1, 2, 3]
        );
        assert!(parse_count_list("--lanes", "0", true, 255).is_err());
        assert!(parse_count_list("--lanes", "x", true, 255).is_err());
    }

    #[test]
    fn a_list_longer_than_the_limit_names_its_flag() {
        let n = units::MAX_LIST_VALUES as u32 + 1;
        let counts: Vec<String> = (1..=n).map(|v| v.to_string()).collect();
        let e = parse_count_list("--iterations", &counts.join(","), false, n)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--iterations: more than 4096 values"), "{e}");
        let sizes: Vec<String> = (1..=n).map(|v| format!("{v}KiB")).collect();
        let e = parse_memory_list(&sizes.join(",")).unwrap_err().to_string();
        assert!(e.contains("--memory: more than 4096 sizes"), "{e}");
        // Repeats do not count towards the limit.
        let repeated = vec!["2"; n as usize].join(",");
        assert_eq!(
            parse_count_list("--lanes", &repeated, false, 255).unwrap(),
            vec![2]
        );
    }

    #[test]
    fn ranges_are_bounded_before_they_expand() {
        let e = parse_count_list("--iterations", "1..100000000", false, 1000)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("100000000 is out of range (accepted: 1 to 1000)"),
            "{e}"
        );
        let e = parse_count_list("--iterations", "1..u32::MAX", false, u32::MAX)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a whole number"), "{e}");
        let e = parse_count_list("--iterations", "1..4294967295", false, u32::MAX)
            .unwrap_err()
            .to_string();
        assert!(e.contains("names 4294967295 values"), "{e}");
        assert_eq!(
            parse_count_list("--lanes", "1..4294967295", true, u32::MAX)
                .unwrap()
                .len(),
            32
        );
        let e = parse_count_list("--lanes", "-1", true, 255)
            .unwrap_err()
            .to_string();
        assert!(e.contains("-1 is out of range (accepted: 1 to 255)"), "{e}");
    }
}
