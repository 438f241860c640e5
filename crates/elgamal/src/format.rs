//! The JSON files: keys (`cryptobench-elgamal-key/1`) and ciphertexts
//! (`cryptobench-elgamal/1`), as docs/elgamal-format.md documents them.
//!
//! Parsing is strict: unknown fields, a wrong format tag, an unknown curve,
//! parameters that differ from the named curve's, odd hex, wrong lengths and
//! truncated JSON are all [`Error::Usage`] with the reason. Points are
//! checked against the curve later, by the arithmetic that decompresses them.

use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::keys::KeyMaterial;
use cryptobench_core::Error;
use serde::{Deserialize, Serialize};
use zeroize::Zeroizing;

/// Format tag of a key file.
pub const KEY_FORMAT: &str = "cryptobench-elgamal-key/1";
/// Format tag of a ciphertext file.
pub const CIPHERTEXT_FORMAT: &str = "cryptobench-elgamal/1";

/// Domain parameters in a key file (lower-case hex, no prefix).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamsHex {
    /// Field prime.
    pub p: String,
    /// a.
    pub a: String,
    /// b.
    pub b: String,
    /// Generator x.
    pub gx: String,
    /// Generator y.
    pub gy: String,
    /// Group order.
    pub n: String,
}

impl ParamsHex {
    fn of(curve: Curve) -> Self {
        let p = curve.params();
        Self {
            p: p.p.into(),
            a: p.a.into(),
            b: p.b.into(),
            gx: p.gx.into(),
            gy: p.gy.into(),
            n: p.n.into(),
        }
    }
}

/// A key file as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyFile {
    /// [`KEY_FORMAT`].
    pub format: String,
    /// Curve name.
    pub curve: String,
    /// The curve's parameters, for readers that do not know the name.
    pub params: ParamsHex,
    /// SEC1 compressed Q, hex.
    pub public: String,
    /// Big-endian d, hex; absent in a public key file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// A ciphertext file as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CiphertextFile {
    /// [`CIPHERTEXT_FORMAT`].
    pub format: String,
    /// Curve name.
    pub curve: String,
    /// `char` or `packed`.
    pub encoding: String,
    /// Plaintext length in bytes.
    pub length: u64,
    /// [y1, y2] per point, SEC1 compressed, hex.
    pub pairs: Vec<[String; 2]>,
}

/// Strips leading zero hex digits so `0x07` and `7` compare equal.
fn norm_hex(s: &str) -> String {
    let t = s
        .trim_start_matches("0x")
        .trim_start_matches('0')
        .to_ascii_lowercase();
    if t.is_empty() {
        "0".into()
    } else {
        t
    }
}

fn parse_json<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(|e| {
        let hint = if e.is_eof() {
            " (the file is truncated)"
        } else {
            ""
        };
        Error::usage(format!("{what} is not a valid {what} file{hint}: {e}"))
    })
}

fn parse_hex(text: &str, what: &str) -> Result<Vec<u8>, Error> {
    hex::decode(text).map_err(|e| Error::usage(format!("{what}: not hexadecimal ({e})")))
}

/// A file's `format` field, refused unless it is the one this version writes.
fn expect_format(what: &str, found: &str, expected: &str) -> Result<(), Error> {
    if found == expected {
        return Ok(());
    }
    Err(Error::usage(format!(
        "{what} format is '{found}'; expected '{expected}'"
    )))
}

/// Serialised JSON with a trailing newline (the files are text files).
fn with_newline(json: serde_json::Result<String>) -> String {
    let mut s = json.unwrap_or_default();
    s.push('\n');
    s
}

impl KeyFile {
    /// The file of `key`.
    pub fn from_material(key: &KeyMaterial) -> Self {
        Self {
            format: KEY_FORMAT.into(),
            curve: key.curve.name().into(),
            params: ParamsHex::of(key.curve),
            public: hex::encode(&key.public),
            secret: key.secret.as_ref().map(|d| hex::encode(d.as_slice())),
        }
    }
    /// Serialises with a trailing newline.
    pub fn to_json(&self) -> String {
        with_newline(serde_json::to_string_pretty(self))
    }
    /// Parses and checks everything but the point itself.
    pub fn parse(text: &str) -> Result<KeyMaterial, Error> {
        let file: KeyFile = parse_json(text, "key")?;
        expect_format("key file", &file.format, KEY_FORMAT)?;
        let curve = Curve::parse(&file.curve)?;
        let want = ParamsHex::of(curve);
        let pairs = [
            ("p", &file.params.p, &want.p),
            ("a", &file.params.a, &want.a),
            ("b", &file.params.b, &want.b),
            ("gx", &file.params.gx, &want.gx),
            ("gy", &file.params.gy, &want.gy),
            ("n", &file.params.n, &want.n),
        ];
        for (name, got, want) in pairs {
            if norm_hex(got) != norm_hex(want) {
                return Err(Error::usage(format!(
                    "key file parameter {name} does not match curve {curve}"
                )));
            }
        }
        let public = parse_hex(&file.public, "public key")?;
        if public.len() != curve.compressed_len() {
            return Err(Error::usage(format!(
                "public key is {} bytes; a compressed {curve} point is {}",
                public.len(),
                curve.compressed_len()
            )));
        }
        let secret = match &file.secret {
            None => None,
            Some(h) => {
                let d = Zeroizing::new(parse_hex(h, "secret key")?);
                if d.len() != curve.scalar_bytes() {
                    return Err(Error::usage(format!(
                        "secret key is {} bytes; {curve} scalars are {}",
                        d.len(),
                        curve.scalar_bytes()
                    )));
                }
                Some(d)
            }
        };
        Ok(KeyMaterial {
            curve,
            public,
            secret,
        })
    }
}

/// A parsed ciphertext file: points still as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawCiphertext {
    /// The curve.
    pub curve: Curve,
    /// The encoding.
    pub encoding: Encoding,
    /// Plaintext length.
    pub length: usize,
    /// Compressed [y1, y2] per point.
    pub pairs: Vec<[Vec<u8>; 2]>,
}

impl CiphertextFile {
    /// The file of a ciphertext.
    pub fn from_raw(ct: &RawCiphertext) -> Self {
        Self {
            format: CIPHERTEXT_FORMAT.into(),
            curve: ct.curve.name().into(),
            encoding: ct.encoding.name().into(),
            length: ct.length as u64,
            pairs: ct
                .pairs
                .iter()
                .map(|[a, b]| [hex::encode(a), hex::encode(b)])
                .collect(),
        }
    }
    /// Serialises with a trailing newline (one pair per line would be
    /// friendlier, but one compact line keeps 65536-pair files small).
    pub fn to_json(&self) -> String {
        with_newline(serde_json::to_string(self))
    }
    /// Parses and checks the structure (lengths, names, counts).
    pub fn parse(text: &str) -> Result<RawCiphertext, Error> {
        let file: CiphertextFile = parse_json(text, "ciphertext")?;
        expect_format("ciphertext", &file.format, CIPHERTEXT_FORMAT)?;
        let curve = Curve::parse(&file.curve)?;
        let encoding = Encoding::parse(&file.encoding)?;
        let length = usize::try_from(file.length)
            .map_err(|_| Error::usage("ciphertext length does not fit this machine"))?;
        let need = encoding.points_for(curve, length);
        if file.pairs.len() != need {
            return Err(Error::usage(format!(
                "ciphertext has {} pairs; a {length}-byte message in '{encoding}' encoding on \
                 {curve} needs {need} (bad length or truncated pairs)",
                file.pairs.len()
            )));
        }
        let mut pairs = Vec::with_capacity(need);
        for (i, [a, b]) in file.pairs.iter().enumerate() {
            let a = parse_hex(a, &format!("pair {i} y1"))?;
            let b = parse_hex(b, &format!("pair {i} y2"))?;
            for (p, name) in [(&a, "y1"), (&b, "y2")] {
                if p.len() != curve.compressed_len() {
                    return Err(Error::usage(format!(
                        "pair {i}: {name} is {} bytes; a compressed {curve} point is {}",
                        p.len(),
                        curve.compressed_len()
                    )));
                }
            }
            pairs.push([a, b]);
        }
        Ok(RawCiphertext {
            curve,
            encoding,
            length,
            pairs,
        })
    }
}
