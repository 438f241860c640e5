//! The PHC string format of Argon2 hashes:
//! `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<tag>`.
//!
//! The salt and tag are standard Base64 without padding (the PHC string
//! format specification, "B64" encoding). The parser is strict: the fields
//! must come in the reference library's order, numbers have no leading zeros
//! or signs, and the Base64 must be canonical, so that one hash has exactly
//! one spelling. A missing `v=` field means version 0x10, as in hashes the
//! reference library wrote before version 1.3.

use crate::params::{validate_salt, Params, Variant, Version};
use cryptobench_core::Error;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard Base64 without padding.
pub fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes unpadded standard Base64; rejects padding, stray characters and
/// non-canonical trailing bits.
pub fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32);
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c)? << (18 - 6 * i);
        }
        let produced = chunk.len() - 1;
        // Bits below the last produced byte must be zero (canonical form).
        let unused_mask = (1u32 << (24 - 8 * produced)) - 1;
        if produced < 3 && n & unused_mask != 0 {
            return None;
        }
        for i in 0..produced {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// A parsed PHC string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phc {
    /// Parameters (threads = lanes; tag length from the tag).
    pub params: Params,
    /// The salt bytes.
    pub salt: Vec<u8>,
    /// The tag bytes.
    pub tag: Vec<u8>,
}

/// `$argon2id$v=19$m=..,t=..,p=..` without salt and tag.
pub fn prefix(params: &Params) -> String {
    format!(
        "${}$v={}${}",
        params.variant.phc_id(),
        params.version.number(),
        params.phc_params()
    )
}

/// The full PHC string, as the reference library's `argon2_encodedlen` /
/// `encode_string` writes it.
pub fn encode(params: &Params, salt: &[u8], tag: &[u8]) -> String {
    format!(
        "{}${}${}",
        prefix(params),
        b64_encode(salt),
        b64_encode(tag)
    )
}

fn malformed(text: &str, rule: &str) -> Error {
    Error::usage(format!(
        "malformed PHC string '{text}': {rule} (expected $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt B64>$<tag B64>)"
    ))
}

fn number(text: &str, field: &str, value: &str) -> Result<u32, Error> {
    let ok = !value.is_empty()
        && value.bytes().all(|b| b.is_ascii_digit())
        && (value == "0" || !value.starts_with('0'));
    if !ok {
        return Err(malformed(
            text,
            &format!(
                "'{field}' must be a decimal number without sign or leading zeros, got '{value}'"
            ),
        ));
    }
    value
        .parse()
        .map_err(|_| malformed(text, &format!("'{field}={value}' does not fit in 32 bits")))
}

/// Parses and validates a PHC string.
pub fn parse(text: &str) -> Result<Phc, Error> {
    let text = text.trim();
    let rest = text
        .strip_prefix('$')
        .ok_or_else(|| malformed(text, "it must start with '$'"))?;
    let fields: Vec<&str> = rest.split('$').collect();
    let (id, version_field, params_field, salt_field, tag_field) = match fields.as_slice() {
        [id, v, p, s, t] if v.starts_with("v=") => (*id, Some(*v), *p, *s, *t),
        [id, p, s, t] if !p.starts_with("v=") => (*id, None, *p, *s, *t),
        _ => {
            return Err(malformed(
                text,
                "it needs the fields id, v=, parameters, salt and tag separated by '$'",
            ))
        }
    };
    let variant = match id {
        "argon2d" => Variant::D,
        "argon2i" => Variant::I,
        "argon2id" => Variant::Id,
        other => {
            return Err(malformed(
                text,
                &format!("unknown algorithm '{other}' (accepted: argon2d, argon2i, argon2id)"),
            ))
        }
    };
    let version = match version_field {
        None => Version::V10,
        Some(v) => match number(text, "v", &v[2..])? {
            0x10 => Version::V10,
            0x13 => Version::V13,
            n => {
                return Err(malformed(
                    text,
                    &format!("unknown version v={n} (accepted: v=16, v=19)"),
                ))
            }
        },
    };
    let mut values = [0u32; 3];
    let parts: Vec<&str> = params_field.split(',').collect();
    if parts.len() != 3 {
        return Err(malformed(
            text,
            "the parameters must be exactly m=..,t=..,p=..",
        ));
    }
    for (slot, (part, key)) in parts.iter().zip(["m", "t", "p"]).enumerate() {
        let value = part
            .strip_prefix(key)
            .and_then(|p| p.strip_prefix('='))
            .ok_or_else(|| {
                malformed(
                    text,
                    &format!("parameter {} must be '{key}=..', got '{part}'", slot + 1),
                )
            })?;
        values[slot] = number(text, key, value)?;
    }
    let salt = b64_decode(salt_field)
        .ok_or_else(|| malformed(text, "the salt is not canonical unpadded Base64"))?;
    let tag = b64_decode(tag_field)
        .ok_or_else(|| malformed(text, "the tag is not canonical unpadded Base64"))?;
    let params = Params {
        variant,
        version,
        m_kib: values[0],
        t: values[1],
        lanes: values[2],
        threads: values[2].max(1),
        tag_len: tag.len(),
    };
    params
        .validate()
        .map_err(|e| malformed(text, &e.to_string()))?;
    validate_salt(&salt).map_err(|e| malformed(text, &e.to_string()))?;
    Ok(Phc { params, salt, tag })
}

/// Compares two tags in time independent of where they differ.
pub fn tags_equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    // phc-winner-argon2 src/test.c: Argon2i v0x13, t=2, m=2^16, p=1,
    // password "password", salt "somesalt".
    const REF_ENCODED: &str =
        "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";

    #[test]
    fn base64_round_trips_and_is_strict() {
        for len in 0..40 {
            let data: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(b64_decode(&b64_encode(&data)).unwrap(), data);
        }
        assert_eq!(b64_encode(b"somesalt"), "c29tZXNhbHQ");
        assert!(b64_decode("c29tZXNhbHQ=").is_none(), "padding");
        assert!(
            b64_decode("c29tZXNhbHR").is_none(),
            "non-canonical trailing bits"
        );
        assert!(b64_decode("c29t*XNhbHQ").is_none(), "stray character");
        assert!(b64_decode("c").is_none(), "impossible length");
    }

    #[test]
    fn reference_string_round_trips() {
        let phc = parse(REF_ENCODED).unwrap();
        assert_eq!(phc.params.variant, Variant::I);
        assert_eq!(phc.params.version, Version::V13);
        assert_eq!(
            (phc.params.m_kib, phc.params.t, phc.params.lanes),
            (65536, 2, 1)
        );
        assert_eq!(phc.salt, b"somesalt");
        assert_eq!(
            hex::encode(&phc.tag),
            "c1628832147d9720c5bd1cfd61367078729f6dfb6f8fea9ff98158e0d7816ed0"
        );
        assert_eq!(encode(&phc.params, &phc.salt, &phc.tag), REF_ENCODED);
        // Without v= the version is 0x10 (test.c's v0x10 strings).
        let old = parse(
            "$argon2i$m=65536,t=2,p=1$c29tZXNhbHQ$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ",
        )
        .unwrap();
        assert_eq!(old.params.version, Version::V10);
    }

    #[test]
    fn malformed_strings_are_usage_errors_naming_the_rule() {
        let cases = [
            (
                "argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$AAAA",
                "start with '$'",
            ),
            (
                "$argon2x$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$AAAA",
                "unknown algorithm",
            ),
            (
                "$argon2i$v=18$m=65536,t=2,p=1$c29tZXNhbHQ$AAAA",
                "unknown version",
            ),
            ("$argon2i$v=19$m=65536,t=2$c29tZXNhbHQ$AAAA", "exactly m="),
            (
                "$argon2i$v=19$t=2,m=65536,p=1$c29tZXNhbHQ$AAAA",
                "must be 'm=..'",
            ),
            (
                "$argon2i$v=19$m=065536,t=2,p=1$c29tZXNhbHQ$AAAA",
                "leading zeros",
            ),
            (
                "$argon2i$v=19$m=65536,t=-2,p=1$c29tZXNhbHQ$AAAA",
                "without sign",
            ),
            (
                "$argon2i$v=19$m=99999999999,t=2,p=1$c29tZXNhbHQ$AAAA",
                "32 bits",
            ),
            ("$argon2i$v=19$m=65536,t=0,p=1$c29tZXNhbHQ$AAAA", "t >= 1"),
            (
                "$argon2i$v=19$m=15,t=2,p=2$c29tZXNhbHQ$AAAA",
                "8 KiB per lane",
            ),
            ("$argon2i$v=19$m=65536,t=2,p=0$c29tZXNhbHQ$AAAA", "2^24 - 1"),
            (
                "$argon2i$v=19$m=65536,t=2,p=1$c2FsdA$AAAAAA",
                "at least 8 bytes",
            ),
            (
                "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ=$AAAA",
                "salt is not canonical",
            ),
            ("$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$AA", "tag length"),
            (
                "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ",
                "separated by '$'",
            ),
            ("", "start with '$'"),
        ];
        for (text, rule) in cases {
            match parse(text) {
                Err(Error::Usage(m)) => assert!(m.contains(rule), "{text}: {m}"),
                other => panic!("{text}: expected a usage error, got {other:?}"),
            }
        }
    }

    #[test]
    fn tag_comparison() {
        assert!(tags_equal(b"abcd", b"abcd"));
        assert!(!tags_equal(b"abcd", b"abce"));
        assert!(!tags_equal(b"abcd", b"abc"));
    }
}
