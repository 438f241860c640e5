//! The cell-driven runtime: one implementation of [`Runtime`] that every
//! runner serving the generic protocol shares.
//!
//! A runtime described by a [`RuntimeSpec`] (its program, its runner files,
//! how it is started, the cells it twins by default) plans one twin per
//! native cell: the same suite, primitive, operation, parameters and size,
//! so its row stands beside the native ones and is measured in the same
//! comparison group (paired ratios). `prepare` sends the cell itself with
//! the suite's known-answer vectors and the native half of an interop
//! check; the runner maps the cell to its own API, runs the vectors, a
//! round trip and the interop inside the runtime, or answers
//! `unavailable` / `skipped` with the reason. Nothing here names a suite's
//! API or a runtime: a new runtime is its runner, a [`RuntimeSpec`] and a
//! registry line.

use crate::case::{self, RunnerCase, SharedRunner};
use crate::discover::Program;
use crate::discover::ProgramError;
use crate::interop::{
    fetch, Argon2Interop, CipherInterop, Interop, OpensslAeadInterop, SodiumAeadInterop,
    ARGON2_PHC_AND_RAW,
};
use crate::keys::{DigestInterop, KeyInterop};
use crate::process::{Runner, RunnerCommand, RunnerError};
use crate::script::{EmbeddedScript, ScriptError};
use crate::twin::native_cells;
use crate::vectors::{aead_kats_for, argon2_kats, cipher_kats, hash_kats};
use crate::{Handshake, Runtime};
use cryptobench_core::{BackendInfo, Case, CaseSpec, PlannedCase, RunConfig};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How long `hello`, `prepare` or `release` may take (prepare runs the
/// checks; a first start may compile the runner).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// Native parameters that describe the native library's API or how the
/// native harness runs (`cache`: flushed before each batch), not the work:
/// a twin does not inherit them.
const NATIVE_ONLY_PARAMS: [&str; 5] = ["api", "native", "loop", "init", "cache"];

/// Turns the program found and the runner's files (written to the cache
/// directory `dir`; the first is the entry point) into the command that
/// starts a runner.
pub type Launcher = fn(
    program: &Path,
    dir: &Path,
    files: &[EmbeddedScript],
) -> Result<(PathBuf, Vec<OsString>), ScriptError>;

/// Whether a native cell is one of a runtime's default (headline) twins.
pub type Headline = fn(&CaseSpec) -> bool;

/// Everything that makes one cell-driven runtime.
#[derive(Debug, Clone, Copy)]
pub struct RuntimeSpec {
    /// Backend name (`python`).
    pub name: &'static str,
    /// The language's own name, printed before its version (`Python`).
    pub title: &'static str,
    /// The interpreter or toolchain.
    pub program: Program,
    /// Absolute paths tried before `PATH` when no override is set (the
    /// system interpreter, where the distribution's libraries live).
    pub preferred: &'static [&'static str],
    /// The runner's files, written together into one cache directory.
    pub files: &'static [EmbeddedScript],
    /// Starts (or first builds) the runner from the cache directory.
    pub launch: Launcher,
    /// The suites the runner serves.
    pub suites: &'static [&'static str],
    /// The native cells twinned by default.
    pub headline: Headline,
}

impl RuntimeSpec {
    /// The registry's handle on this runtime.
    pub fn runtime(&'static self) -> Box<dyn Runtime> {
        Box::new(CellRuntime::new(self))
    }
}

/// A cell-driven runtime: the registry's handle on one [`RuntimeSpec`].
#[derive(Debug)]
pub struct CellRuntime {
    spec: &'static RuntimeSpec,
    hello: OnceLock<Result<Hello, RunnerError>>,
}

/// What a runner's `hello` says: the handshake and, when it answers them,
/// the primitives it offers per suite.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hello {
    /// Versions and families.
    pub handshake: Handshake,
    /// Suite -> primitives the runner reaches (empty: not reported).
    pub offers: BTreeMap<String, Vec<String>>,
    /// Suite -> the runner's APIs when it has more than one for the suite
    /// (Python's argon2-cffi and PyNaCl): each native cell gets one twin per
    /// API, told apart by their `api` parameter.
    pub apis: BTreeMap<String, Vec<String>>,
}

fn string_lists(v: Option<&Value>) -> BTreeMap<String, Vec<String>> {
    crate::object_map(v, |list| {
        Some(
            list.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
        )
    })
}

impl Hello {
    /// Parses a `hello` answer.
    pub fn parse(runtime: &str, v: &Value) -> Result<Self, RunnerError> {
        let handshake = Handshake::parse(runtime, v)?;
        let offers = string_lists(v.get("offers"));
        let apis = string_lists(v.get("apis"));
        Ok(Self {
            handshake,
            offers,
            apis,
        })
    }

    /// Why the runner cannot reach `primitive` of `suite`, when its offers
    /// say so.
    pub fn lacks(&self, runtime: &str, suite: &str, primitive: &str) -> Option<String> {
        let list = self.offers.get(suite)?;
        if list.iter().any(|p| p.eq_ignore_ascii_case(primitive)) {
            return None;
        }
        let missing: Vec<&str> = self
            .handshake
            .families
            .values()
            .filter_map(|why| why.as_deref())
            .collect();
        let mut why = format!(
            "{runtime} offers no {primitive}; its {suite} libraries reach {}",
            if list.is_empty() {
                "nothing".to_string()
            } else {
                list.join(", ")
            }
        );
        if !missing.is_empty() {
            why.push_str(&format!(" (unavailable here: {})", missing.join("; ")));
        }
        Some(why)
    }
}

impl RuntimeSpec {
    /// The interpreter or toolchain: the override variable, else a
    /// preferred absolute path, else `PATH`.
    pub fn find_program(&self) -> Result<PathBuf, ProgramError> {
        let overridden = std::env::var_os(self.program.env_override).is_some_and(|v| !v.is_empty());
        if !overridden {
            if let Some(p) = self
                .preferred
                .iter()
                .map(PathBuf::from)
                .find(|p| p.is_file())
            {
                return Ok(p);
            }
        }
        self.program.find()
    }

    /// The command that starts this runtime's runner, its files written to
    /// the cache (and built, for a compiled runner) first.
    pub fn command(&self) -> Result<RunnerCommand, RunnerError> {
        let root = crate::script::cache_root(
            std::env::var_os("XDG_CACHE_HOME"),
            std::env::var_os("HOME"),
        )?;
        self.command_in(&root)
    }

    /// [`RuntimeSpec::command`] with the runner cache under `root`.
    pub fn command_in(&self, root: &Path) -> Result<RunnerCommand, RunnerError> {
        let program = self.find_program()?;
        let dir = crate::script::install_all_in(root, self.files)?;
        let (program, args) = (self.launch)(&program, &dir, self.files)?;
        Ok(RunnerCommand {
            runtime: self.name.to_string(),
            program,
            args,
            env: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
        })
    }
}

impl CellRuntime {
    /// The runtime `spec` describes.
    pub fn new(spec: &'static RuntimeSpec) -> Self {
        Self {
            spec,
            hello: OnceLock::new(),
        }
    }

    /// This machine's answer to `hello`, asked once per process.
    pub fn hello(&self) -> Result<&Hello, RunnerError> {
        self.hello
            .get_or_init(|| {
                let cmd = self.spec.command()?;
                let v = Runner::spawn(&cmd)?.request(&json!({"op": "hello"}))?;
                Hello::parse(self.spec.name, &v)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn version(&self) -> String {
        match self.hello() {
            Ok(h) => describe(self.spec.title, &h.handshake),
            Err(_) => String::new(),
        }
    }
}

/// `Python 3.11.2 (cryptography 38.0.4, pynacl 1.5.0)`: the runtime's
/// version and its libraries'.
pub fn describe(title: &str, h: &Handshake) -> String {
    let libs: Vec<String> = h
        .libraries
        .iter()
        .map(|(name, v)| format!("{name} {v}"))
        .collect();
    if libs.is_empty() {
        format!("{title} {}", h.version)
    } else {
        format!("{title} {} ({})", h.version, libs.join(", "))
    }
}

impl Runtime for CellRuntime {
    fn name(&self) -> &'static str {
        self.spec.name
    }

    fn backend_info(&self) -> BackendInfo {
        match self.hello() {
            Ok(h) => BackendInfo {
                name: self.spec.name.into(),
                version: describe(self.spec.title, &h.handshake),
                unavailable: None,
            },
            Err(why) => BackendInfo {
                name: self.spec.name.into(),
                version: String::new(),
                unavailable: Some(why.to_string()),
            },
        }
    }

    fn headline_cells(&self, suite: &str, native: &[CaseSpec]) -> Vec<CaseSpec> {
        native
            .iter()
            .filter(|s| s.suite == suite && (self.spec.headline)(s))
            .cloned()
            .collect()
    }

    fn plan(&self, suite: &str, cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase> {
        if !cfg.wants_backend(self.spec.name) || !self.spec.suites.contains(&suite) {
            return Vec::new();
        }
        let cells = distinct_cells(&native_cells(suite, native));
        if cells.is_empty() {
            return Vec::new();
        }
        let setup: Result<SharedRunner, RunnerError> = self
            .hello()
            .and_then(|_| self.spec.command())
            .map(case::shared);
        let version = self.version();
        let apis: Vec<Option<String>> = match self.hello().ok().and_then(|h| h.apis.get(suite)) {
            Some(list) if !list.is_empty() => list.iter().cloned().map(Some).collect(),
            _ => vec![None],
        };
        let mut out = Vec::new();
        for native in cells {
            for api in &apis {
                let mut spec = twin_spec(self.spec.name, &version, native);
                if let Some(api) = api {
                    spec.params.insert("api".into(), api.clone());
                }
                let shared = match &setup {
                    Ok(s) => s.clone(),
                    Err(why) => {
                        out.push(PlannedCase::unavailable(spec, why.to_string()));
                        continue;
                    }
                };
                if let Some(why) = self
                    .hello()
                    .ok()
                    .and_then(|h| h.lacks(self.spec.name, suite, &native.primitive))
                {
                    out.push(PlannedCase::unavailable(spec, why));
                    continue;
                }
                out.push(ready(spec, shared));
            }
        }
        out
    }
}

/// One native cell per primitive, operation, size and work parameters:
/// the backends of one cell collapse into one twin.
fn distinct_cells<'a>(cells: &[&'a CaseSpec]) -> Vec<&'a CaseSpec> {
    let mut seen: Vec<(String, String, u64, BTreeMap<String, String>)> = Vec::new();
    let mut out = Vec::new();
    for &c in cells {
        let key = (
            c.primitive.to_ascii_lowercase(),
            c.operation.clone(),
            c.input_bytes,
            work_params(c),
        );
        if !seen.contains(&key) {
            seen.push(key);
            out.push(c);
        }
    }
    out
}

fn work_params(c: &CaseSpec) -> BTreeMap<String, String> {
    c.params
        .iter()
        .filter(|(k, _)| !NATIVE_ONLY_PARAMS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The twin of `native` in runtime `name`.
fn twin_spec(name: &str, version: &str, native: &CaseSpec) -> CaseSpec {
    let mut spec = CaseSpec::new(
        &native.suite,
        &native.primitive,
        name,
        version,
        &native.operation,
    )
    .size(native.input_bytes)
    .labels(native.labels.clone())
    .expect_ns(native.expected_ns)
    .grouped_with(native);
    spec.params = work_params(native);
    spec
}

/// The cells twinned by default: the runtime overhead table's (SHA-256,
/// AES-256-GCM and ChaCha20-Poly1305 encryption at every size the suites
/// plan, P-256 and X25519 key generation, Ed25519 key generation and
/// signing, single-lane Argon2id) and, so the cipher tables carry runtime
/// rows too, AES-256-CBC and AES-128-CTR encryption with the key set once.
/// They keep a default run short (the headline cells only) while
/// answering "what does my language cost".
pub fn overhead_cell(s: &CaseSpec) -> bool {
    let p = s.primitive.to_ascii_lowercase();
    let param = |k: &str| s.params.get(k).map(String::as_str);
    match s.suite.as_str() {
        "hash" => p == "sha-256",
        "cipher" => {
            s.operation == "encrypt"
                && matches!(p.as_str(), "aes-256-cbc" | "aes-128-ctr")
                && param("setup") == Some("key-once")
        }
        "aead" => {
            s.operation == "encrypt" && matches!(p.as_str(), "aes-256-gcm" | "chacha20-poly1305")
        }
        "ecc" => match p.as_str() {
            "prime256v1" | "x25519" => s.operation == "keygen",
            "ed25519" => matches!(s.operation.as_str(), "keygen" | "sign"),
            _ => false,
        },
        "argon2" => p == "argon2id" && param("p") == Some("1") && param("threads") == Some("1"),
        _ => false,
    }
}

/// The launcher of an interpreted runner: `program DIR/entry`.
pub fn interpreted(
    program: &Path,
    dir: &Path,
    files: &[EmbeddedScript],
) -> Result<(PathBuf, Vec<OsString>), ScriptError> {
    Ok((
        program.to_path_buf(),
        vec![dir.join(entry(files)).into_os_string()],
    ))
}

/// The runner's entry point: the first of its files.
pub fn entry(files: &[EmbeddedScript]) -> &'static str {
    files.first().map_or("", |f| f.file_name)
}

/// The digest of a compiled runner's build inputs: its sources and `how`
/// it is built (the toolchain, the build mode).
pub fn build_inputs(files: &[EmbeddedScript], how: &str) -> String {
    crate::cache::digest_parts(
        files
            .iter()
            .map(|f| (f.file_name, f.content.as_bytes()))
            .chain([("build", how.as_bytes())]),
    )
}

/// The cell as the runner receives it.
pub fn cell_json(spec: &CaseSpec) -> Value {
    json!({"suite": spec.suite, "primitive": spec.primitive, "operation": spec.operation,
        "params": spec.params, "size": spec.input_bytes})
}

fn num(spec: &CaseSpec, k: &str) -> Option<u64> {
    spec.params.get(k).and_then(|v| v.parse().ok())
}

/// The native half of the interop check for a cell, keyed so it runs
/// once per primitive (and tag length).
pub fn interop_for(spec: &CaseSpec) -> Option<(String, Arc<dyn Interop>)> {
    let p = spec.primitive.to_ascii_lowercase();
    let key = |extra: &str| format!("{}:{p}{extra}", spec.suite);
    let i: Arc<dyn Interop> = match spec.suite.as_str() {
        "hash" => Arc::new(DigestInterop::new(&spec.primitive)?),
        // Whole blocks (the interop message is 1 KB), no padding: the
        // ciphertext is the mode's alone. A cipher the native OpenSSL
        // lacks has no native side to check against.
        "cipher" => {
            fetch(&p).ok()?;
            Arc::new(CipherInterop {
                method: p.clone(),
                pkcs7: false,
            })
        }
        "aead" => {
            let tag = num(spec, "tag").unwrap_or(16) as usize;
            if let Some(siv) = crate::siv_interop::SivInterop::new(&p) {
                Arc::new(siv)
            } else if p == "xchacha20-poly1305" && tag == 16 {
                Arc::new(SodiumAeadInterop {
                    alg: "xchacha20poly1305_ietf".into(),
                })
            } else if p == "chacha20-poly1305"
                || (p.starts_with("aes-")
                    && (p.ends_with("-gcm") || p.ends_with("-ccm") || p.ends_with("-ocb")))
            {
                Arc::new(OpensslAeadInterop {
                    method: p.clone(),
                    tag,
                    nonce: 12,
                })
            } else {
                return None;
            }
        }
        "ecc" => Arc::new(KeyInterop::new(&spec.primitive)?),
        "argon2" => Arc::new(Argon2Interop::new(ARGON2_PHC_AND_RAW, &p)),
        _ => return None,
    };
    let extra = match (spec.suite.as_str(), spec.params.get("api")) {
        ("aead", _) => format!("/{}", num(spec, "tag").unwrap_or(16)),
        // Each API of a runtime is checked against the native side.
        (_, Some(api)) => format!("/{api}"),
        _ => String::new(),
    };
    Some((key(&extra), i))
}

/// The suite's known-answer vectors for a cell.
pub fn kats_for(spec: &CaseSpec) -> Value {
    match spec.suite.as_str() {
        "hash" => hash_kats(&spec.primitive),
        "cipher" => cipher_kats(&spec.primitive),
        "aead" => aead_kats_for(&spec.primitive, num(spec, "tag").unwrap_or(16) as usize),
        "argon2" => argon2_kats(&spec.primitive),
        _ => json!([]),
    }
}

/// Slow operations take one per sample, as the native suites do.
fn fixed_iterations(spec: &CaseSpec) -> Option<u64> {
    (spec.suite == "argon2").then_some(1)
}

fn ready(spec: CaseSpec, shared: SharedRunner) -> PlannedCase {
    let request = json!({"cell": cell_json(&spec), "kats": kats_for(&spec)});
    let interop = interop_for(&spec);
    let fixed = fixed_iterations(&spec);
    let cores = spec.cores_used();
    PlannedCase::ready(spec, move || {
        let c = RunnerCase::prepare(&shared, request.clone(), fixed, interop.clone())?
            .with_cores(cores);
        Ok(Box::new(c) as Box<dyn Case>)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(primitive: &str, backend: &str, api: Option<&str>) -> CaseSpec {
        let mut s = CaseSpec::new("ecc", primitive, backend, "1", "keygen").param("key_bits", 256);
        if let Some(a) = api {
            s = s.param("api", a);
        }
        s
    }

    #[test]
    fn backends_of_one_cell_give_one_twin_without_their_api() {
        let native = [
            cell("prime256v1", "openssl", Some("EC_KEY")),
            cell("prime256v1", "openssl", Some("EVP")),
            cell("prime256v1", "rustcrypto", None),
            cell("X25519", "libsodium", None),
        ];
        let refs: Vec<&CaseSpec> = native.iter().collect();
        let distinct = distinct_cells(&refs);
        assert_eq!(distinct.len(), 2);
        let twin = twin_spec("python", "3.11", distinct[0]);
        assert_eq!(twin.backend, "python");
        assert_eq!(twin.primitive, "prime256v1");
        assert!(!twin.params.contains_key("api"));
        assert_eq!(twin.params.get("key_bits").map(String::as_str), Some("256"));
    }

    #[test]
    fn offers_decide_what_is_unavailable() {
        let hello = json!({"ok": true, "protocol": 1, "version": "3.11",
            "families": {"nacl": {"available": false, "reason": "install python3-nacl"}},
            "offers": {"aead": ["AES-256-GCM"]}});
        let h = Hello::parse("python", &hello).expect("hello");
        assert_eq!(h.lacks("python", "aead", "aes-256-gcm"), None);
        let why = h
            .lacks("python", "aead", "XChaCha20-Poly1305")
            .expect("lacks");
        assert!(why.contains("install python3-nacl"), "{why}");
        // A suite the runner does not report is left to `prepare`.
        assert_eq!(h.lacks("python", "hash", "SHA-256"), None);
    }

    #[test]
    fn the_cipher_headline_is_aes_cbc_and_ctr_encryption_with_the_key_set_once() {
        let cipher = |primitive: &str, op: &str, setup: &str| {
            CaseSpec::new("cipher", primitive, "openssl", "3", op)
                .size(1024)
                .param("setup", setup)
        };
        assert!(overhead_cell(&cipher("AES-256-CBC", "encrypt", "key-once")));
        assert!(overhead_cell(&cipher("aes-128-ctr", "encrypt", "key-once")));
        assert!(!overhead_cell(&cipher(
            "AES-256-CBC",
            "roundtrip",
            "key-once"
        )));
        assert!(!overhead_cell(&cipher(
            "AES-128-CTR",
            "encrypt",
            "per-message"
        )));
        assert!(!overhead_cell(&cipher("ChaCha20", "encrypt", "key-once")));
        assert!(!overhead_cell(&cipher("BF-CFB8", "encrypt", "key-once")));
    }

    #[test]
    fn interop_covers_each_suite() {
        let aead = CaseSpec::new("aead", "AES-256-GCM", "x", "", "encrypt").param("tag", 16);
        assert_eq!(
            interop_for(&aead).map(|(k, _)| k).as_deref(),
            Some("aead:aes-256-gcm/16")
        );
        let hash = CaseSpec::new("hash", "SHA-256", "x", "", "digest");
        assert!(interop_for(&hash).is_some());
        let ecc = CaseSpec::new("ecc", "X25519", "x", "", "keygen");
        assert!(interop_for(&ecc).is_some());
        let siv = CaseSpec::new("aead", "AES-256-GCM-SIV", "x", "", "encrypt");
        assert!(interop_for(&siv).is_none());
    }
}
