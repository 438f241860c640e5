//! The `php` backend: the seeds' PHP measurements through the same engine.
//!
//! Four of the five seed papers timed cryptography from PHP: key generation
//! with `openssl_pkey_new`, Argon2 with `sodium_crypto_pwhash` and
//! `password_hash`, every `openssl_encrypt` method, `mcrypt`, and the sodium
//! AEADs. PHP users want those figures for their own server and want to know
//! what PHP costs over the C library beneath it. So PHP runs as a backend of
//! the native suites: its cases carry the same suite, primitive, operation,
//! parameters and sizes as the native rows, and a `php` row stands beside
//! the library it wraps.
//!
//! The split of work is deliberate. PHP (php/runner.php, started once per
//! suite) builds keys and buffers, runs the checks (the native suites'
//! known-answer vectors, round trips, tamper tests) and times a batch of
//! `iters` operations with `hrtime(true)`; calibration, statistics and
//! storage stay in Rust, exactly as for native cases. The pipe between the
//! two never enters a measurement. Interop checks ([`crate::interop`]) open PHP's
//! ciphertexts, PHC strings and keys with the native libraries and send
//! native ones for PHP to open.
//!
//! What PHP offers comes from the runner's `hello`, as every runner's
//! offers do: PHP's own catalogs, the libmcrypt ciphers under the cipher
//! suite's names, the sodium AEADs and the Argon2 functions; the planner
//! here keeps no table of PHP functions, only how a native cell reaches one.
//!
//! Where this PHP lacks something the cell is planned "unavailable" with the
//! reason PHP itself gives (AEGIS needs PHP 8.4 and libsodium 1.0.19; this
//! PHP's version is quoted). Without php on the machine every php cell is
//! "unavailable: php not found" and everything else runs.

pub mod meta;
pub mod plan;
pub mod runner;

use crate::discover::ProgramError;
use crate::{Handshake, Runtime};
use cryptobench_core::{BackendInfo, CaseSpec, PlannedCase, RunConfig};
use runner::{Runner, RunnerCommand, RunnerError};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;
use thiserror::Error;

/// Backend name in results and on the command line.
pub const NAME: &str = "php";

/// PHP as a [`Runtime`]: the registry's entry for it.
#[derive(Debug, Clone, Copy, Default)]
pub struct PhpRuntime;

/// The registry's handle on PHP.
pub fn runtime() -> Box<dyn Runtime> {
    Box::new(PhpRuntime)
}

impl Runtime for PhpRuntime {
    fn name(&self) -> &'static str {
        NAME
    }

    fn backend_info(&self) -> BackendInfo {
        backend_info()
    }

    fn headline_cells(&self, suite: &str, native: &[CaseSpec]) -> Vec<CaseSpec> {
        crate::twin::headline_cells(suite, native)
    }

    fn plan(&self, suite: &str, cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase> {
        plan::plan(suite, cfg, native)
    }
}

/// What a runner's `hello` says about this PHP: the handshake every
/// runtime answers, and PHP's own catalogs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hello {
    /// Protocol, `PHP_VERSION`, library versions (`openssl`, `sodium`,
    /// `mcrypt`, when loaded) and primitive families.
    pub handshake: Handshake,
    /// Loaded extensions.
    pub extensions: Vec<String>,
    /// `openssl_get_cipher_methods()`.
    pub ciphers: Vec<String>,
    /// `openssl_get_curve_names()`.
    pub curves: Vec<String>,
    /// `PASSWORD_ARGON2_PROVIDER` (`standard` = libargon2, `sodium`).
    pub argon2_provider: Option<String>,
    /// The libmcrypt ciphers: seed 001's three, and with the extension
    /// every algorithm x mode it opens.
    pub mcrypt: Vec<McryptCipher>,
    /// Seed 003's sodium AEADs.
    pub sodium_aeads: Vec<SodiumAead>,
    /// Suite -> the PHP functions each native cell gets one twin of
    /// (`argon2`: `sodium_crypto_pwhash`, `password_hash`).
    pub apis: BTreeMap<String, Vec<String>>,
}

/// A libmcrypt cipher as the runner publishes it, under the cipher
/// suite's names.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct McryptCipher {
    /// libmcrypt's algorithm (`rijndael-128`).
    pub algorithm: String,
    /// libmcrypt's mode (`ncfb`).
    pub mode: String,
    /// Key bytes.
    pub key_len: u64,
    /// The cipher suite's name (`AES-256-CFB`).
    pub primitive: String,
    /// The mode as the cipher suite prints it (`CFB`).
    pub mode_name: String,
    /// Effective key strength, bits.
    pub key_bits: u64,
    /// Block bytes.
    pub block: u64,
    /// Security labels.
    pub labels: Vec<String>,
    /// One of seed 001's three, planned by default (the rest with `--full`).
    pub seed: bool,
}

impl McryptCipher {
    fn parse(m: &Value) -> Option<Self> {
        let s = |k: &str| m.get(k).and_then(Value::as_str).map(String::from);
        let n = |k: &str| m.get(k).and_then(Value::as_u64);
        Some(Self {
            algorithm: s("algorithm")?,
            mode: s("mode")?,
            key_len: n("key_len")?,
            primitive: s("primitive")?,
            mode_name: s("mode_name")?,
            key_bits: n("key_bits")?,
            block: n("block")?,
            labels: string_list(m.get("labels")),
            seed: m.get("seed").and_then(Value::as_bool)?,
        })
    }
}

/// A `sodium_crypto_aead_*` family as the runner publishes it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SodiumAead {
    /// PHP's name (`xchacha20poly1305_ietf`).
    pub alg: String,
    /// The aead suite's name (`XChaCha20-Poly1305`).
    pub primitive: String,
    /// Its fixed tag, bytes.
    pub tag: u64,
    /// The hello's family that gates it (`sodium_aegis`).
    pub family: String,
    /// Key bytes.
    pub key: u64,
    /// Nonce bytes.
    pub nonce: u64,
}

fn objects<T>(v: &Value, k: &str, entry: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    v.get(k)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(entry).collect())
        .unwrap_or_default()
}

fn strings(v: &Value, k: &str) -> Vec<String> {
    string_list(v.get(k))
}

fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

impl Hello {
    /// Parses a runner's `hello` answer; a runner speaking another protocol
    /// version is refused.
    pub fn parse(v: &Value) -> Result<Self, RunnerError> {
        let handshake = Handshake::parse(NAME, v)?;
        Ok(Self {
            handshake,
            extensions: strings(v, "extensions"),
            ciphers: strings(v, "ciphers"),
            curves: strings(v, "curves"),
            argon2_provider: v
                .get("password_argon2_provider")
                .and_then(Value::as_str)
                .map(String::from),
            mcrypt: objects(v, "mcrypt_ciphers", McryptCipher::parse),
            sodium_aeads: objects(v, "sodium_aeads", |a| {
                let s = |k: &str| a.get(k).and_then(Value::as_str).map(String::from);
                Some(SodiumAead {
                    alg: s("alg")?,
                    primitive: s("primitive")?,
                    tag: a.get("tag")?.as_u64()?,
                    family: s("family")?,
                    key: a.get("key")?.as_u64()?,
                    nonce: a.get("nonce")?.as_u64()?,
                })
            }),
            apis: crate::object_map(v.get("apis"), |list| Some(string_list(Some(list)))),
        })
    }

    /// `PHP_VERSION`.
    pub fn php(&self) -> &str {
        &self.handshake.version
    }

    /// A library's version (`openssl`, `sodium`, `mcrypt`), when loaded.
    pub fn library(&self, name: &str) -> Option<&str> {
        self.handshake.library(name)
    }

    /// `None` when `family` is available, else why not.
    pub fn family(&self, family: &str) -> Option<String> {
        self.handshake.family(family)
    }

    /// The backend version string of a PHP API: PHP's version and the C
    /// library beneath (`PHP 8.2.36 / OpenSSL 3.0.22 25 Aug 2026`).
    pub fn version_of(&self, api: &str) -> String {
        let lib = |name: &str| self.library(name).unwrap_or_default().to_string();
        let lib = match api {
            "openssl" => lib("openssl"),
            "sodium" => format!("libsodium {}", lib("sodium")),
            "mcrypt" => format!("mcrypt {}", lib("mcrypt")),
            "password_hash" => match self.argon2_provider.as_deref() {
                Some("sodium") => format!("libsodium {}", lib("sodium")),
                _ => "libargon2".to_string(),
            },
            other => other.to_string(),
        };
        format!("PHP {} / {lib}", self.php())
    }
}

/// Asks a fresh runner for its `hello`.
pub fn hello_from(cmd: &RunnerCommand) -> Result<Hello, RunnerError> {
    let v = Runner::spawn(cmd)?.request(&json!({"op": "hello"}))?;
    Hello::parse(&v)
}

/// This machine's PHP, asked once per process.
pub fn hello() -> Result<&'static Hello, RunnerError> {
    static HELLO: OnceLock<Result<Hello, RunnerError>> = OnceLock::new();
    HELLO
        .get_or_init(|| hello_from(&runner::command_from_env()?))
        .as_ref()
        .map_err(Clone::clone)
}

/// Why there is no usable php binary.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PhpError {
    /// No php where the environment says to look.
    #[error(transparent)]
    NotFound(#[from] ProgramError),
    /// The binary found could not be started.
    #[error("php at {} does not run: {reason}", path.display())]
    DoesNotRun {
        /// The binary.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// `php -v` exited with an error.
    #[error("php at {} failed `php -v` ({status})", path.display())]
    VersionFailed {
        /// The binary.
        path: PathBuf,
        /// Its exit status.
        status: String,
    },
}

/// The PHP version line (`PHP 8.2.36 (cli) ...`) of the php binary the
/// environment names (`CRYPTOBENCH_PHP`, else `php` on `PATH`), or why
/// there is none (`php not found`).
pub fn available() -> Result<String, PhpError> {
    let php = runner::PROGRAM.find()?;
    let out = std::process::Command::new(&php)
        .arg("-v")
        .output()
        .map_err(|e| PhpError::DoesNotRun {
            path: php.clone(),
            reason: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(PhpError::VersionFailed {
            path: php,
            status: out.status.to_string(),
        });
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().next().unwrap_or("PHP").trim().to_string())
}

/// The php backend: its version is PHP's with the libraries beneath.
pub fn backend_info() -> BackendInfo {
    match hello() {
        Ok(h) => BackendInfo {
            name: NAME.into(),
            version: format!(
                "PHP {} (OpenSSL {}, libsodium {}{})",
                h.php(),
                h.library("openssl")
                    .map(|s| s.trim_start_matches("OpenSSL "))
                    .unwrap_or("absent"),
                h.library("sodium").unwrap_or("absent"),
                h.library("mcrypt")
                    .map(|m| format!(", mcrypt {m}"))
                    .unwrap_or_default()
            ),
            unavailable: None,
        },
        Err(why) => BackendInfo {
            name: NAME.into(),
            version: String::new(),
            unavailable: Some(why.to_string()),
        },
    }
}

/// The php cases of suite `cipher`, `aead`, `ecc` or `argon2`, one beside
/// each cell of `native` (that suite's own plan, after its filters) that a
/// PHP function reaches; empty for any other suite, or when `--backend`
/// leaves php out.
pub fn plan(suite: &str, cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase> {
    plan::plan(suite, cfg, native)
}
