//! Which php cases a suite gets: one beside each native cell the suite
//! planned (see `crate::twin`), with the same suite, primitive,
//! operation, parameters and size, plus an `api` parameter naming the PHP
//! function measured (PHP reaches AES-256-GCM through both
//! `openssl_encrypt` and `sodium_crypto_aead_aes256gcm_*`).
//!
//! So the suite's own filters (`cipher --ciphers --sizes`, `aead
//! --algorithms`, `ecc --curves`, an Argon2 grid, a paper's configuration)
//! choose the php cells too, and `--quick` / `--full` shrink or widen them
//! through the native plan. The PHP functions reached: `openssl_encrypt`
//! for every cipher OpenSSL names, `mcrypt_encrypt` for the seed's three
//! libmcrypt ciphers (every algorithm x mode with `--full`),
//! `sodium_crypto_aead_*`, `openssl_pkey_new` for key generation, and
//! `sodium_crypto_pwhash` / `password_hash` for Argon2. A native cell no
//! PHP function reaches, or one this PHP lacks, gets a php cell planned
//! unavailable with the reason (once per primitive and function, not once
//! per size).

mod aead;
mod argon2;
mod ecc;

use crate::case::{self, RunnerCase, SharedRunner};
use crate::interop::{CipherInterop, Interop, McryptInterop};
use crate::php::meta::{cipher_meta, CipherMeta};
use crate::php::runner;
use crate::php::{hello, Hello, NAME};
use crate::twin::{by_primitive, native_cells};
use crate::vectors::cipher_kats;
use cryptobench_core::{Case, CaseSpec, PlannedCase, RunConfig};
use serde_json::{json, Value};
use std::sync::Arc;

/// What every cell of a plan shares: the runner and what PHP said.
#[derive(Clone)]
struct Ctx {
    shared: SharedRunner,
    hello: &'static Hello,
}

type Setup = Result<Ctx, runner::RunnerError>;

/// A runner case object plus the interop to attach, or why not.
type Build = Result<(Value, Option<u64>, Option<(String, Arc<dyn Interop>)>), String>;

/// The php cases of `suite`, one beside each cell of `native` (the suite's
/// own plan) that a PHP function reaches.
pub fn plan(suite: &str, cfg: &RunConfig, native: &[CaseSpec]) -> Vec<PlannedCase> {
    if !cfg.wants_backend(NAME) || !matches!(suite, "cipher" | "aead" | "ecc" | "argon2") {
        return Vec::new();
    }
    let cells = native_cells(suite, native);
    if cells.is_empty() {
        return Vec::new();
    }
    let setup: Setup = runner::command_from_env().and_then(|cmd| {
        hello().map(|h| Ctx {
            shared: case::shared(cmd),
            hello: h,
        })
    });
    match suite {
        "cipher" => cipher(cfg, &setup, &cells),
        "aead" => aead::aead(&setup, &cells),
        "ecc" => ecc::ecc(&setup, &cells),
        _ => argon2::argon2(&setup, &cells),
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
        Err(why) => return PlannedCase::unavailable(spec, why.to_string()),
    };
    match build(&ctx) {
        Err(why) => PlannedCase::unavailable(spec, why),
        Ok((case, fixed, interop)) => {
            let cores = spec.cores_used();
            PlannedCase::ready(spec, move || {
                let c = RunnerCase::prepare(
                    &ctx.shared,
                    json!({ "case": case.clone() }),
                    fixed,
                    interop.clone(),
                )?
                .with_cores(cores);
                Ok(Box::new(c) as Box<dyn Case>)
            })
        }
    }
}

/// One php cell for a whole primitive x PHP function: unavailable with
/// `why`, at the first native cell's operation and size.
fn unavailable_once(
    suite: &str,
    primitive: &str,
    first: &CaseSpec,
    api: &str,
    version: String,
    why: String,
) -> PlannedCase {
    let spec = CaseSpec::new(suite, primitive, NAME, version, &first.operation)
        .size(first.input_bytes)
        .param("api", api);
    PlannedCase::unavailable(spec, why)
}

/// The one cell of a primitive no PHP function reaches: unavailable with
/// `why`, or with why php itself is missing.
fn unreached(
    (suite, primitive, first): (&str, &str, &CaseSpec),
    setup: &Setup,
    why: String,
) -> PlannedCase {
    let why = gate(setup, |_| Some(why)).unwrap_or_default();
    unavailable_once(suite, primitive, first, "none", String::new(), why)
}

/// Why no cell of a PHP function can run here (php missing, or what
/// `lacks` finds missing in what this PHP offers).
fn gate(setup: &Setup, lacks: impl FnOnce(&Hello) -> Option<String>) -> Option<String> {
    match setup {
        Err(why) => Some(why.to_string()),
        Ok(ctx) => lacks(ctx.hello),
    }
}

/// Why PHP's openssl extension lacks `method`; `None`, with `method` set
/// to PHP's own spelling, when `openssl_get_cipher_methods()` lists it.
fn unlisted_method(h: &Hello, method: &mut String) -> Option<String> {
    match h.ciphers.iter().find(|m| m.eq_ignore_ascii_case(method)) {
        Some(m) => {
            *method = m.clone();
            None
        }
        None => Some(format!(
            "PHP's openssl_get_cipher_methods() does not list {method}"
        )),
    }
}

/// The `openssl_encrypt` cells of one primitive: `twins` of `meta` (its
/// method spelled as PHP lists it) when PHP reaches it, else one
/// unavailable cell saying why: no php, no openssl extension, `refused` (a
/// rule of PHP's own), or a method PHP does not list.
fn openssl_cells(
    (suite, primitive, first): (&str, &str, &CaseSpec),
    setup: &Setup,
    mut meta: CipherMeta,
    refused: Option<String>,
    twins: impl FnOnce(&CipherMeta) -> Vec<PlannedCase>,
) -> Vec<PlannedCase> {
    let lacks = gate(setup, |h| {
        h.family("openssl")
            .or(refused)
            .or_else(|| unlisted_method(h, &mut meta.method))
    });
    match lacks {
        Some(why) => vec![unavailable_once(
            suite,
            primitive,
            first,
            "openssl_encrypt",
            version(setup, "openssl"),
            why,
        )],
        None => twins(&meta),
    }
}

/// The OpenSSL cipher a native cell names: its primitive, else the
/// OpenSSL name the cipher suite records as `native`.
fn openssl_cipher_of(primitive: &str, first: &CaseSpec) -> Option<CipherMeta> {
    std::iter::once(primitive)
        .chain(first.params.get("native").map(String::as_str))
        .find_map(|name| cipher_meta(&name.to_ascii_lowercase()))
}

// ---------------------------------------------------------------------------

fn cipher(cfg: &RunConfig, setup: &Setup, cells: &[&CaseSpec]) -> Vec<PlannedCase> {
    let mcrypt = mcrypt_candidates(cfg, setup);
    let mut out = Vec::new();
    for (primitive, twins) in by_primitive(cells, |s| (s.operation.clone(), s.input_bytes)) {
        let first = twins[0];
        let mut reached = false;
        if let Some(meta) = openssl_cipher_of(&primitive, first).filter(|m| m.mode != "AEAD") {
            reached = true;
            let cell_of = ("cipher", primitive.as_str(), first);
            out.extend(openssl_cells(cell_of, setup, meta, None, |meta| {
                twins
                    .iter()
                    .map(|t| {
                        openssl_cipher_cell(meta, &primitive, &t.operation, t.input_bytes, setup)
                    })
                    .collect()
            }));
        }
        for (alg, mode, key) in &mcrypt {
            if !mcrypt_name(alg, mode, *key)
                .0
                .eq_ignore_ascii_case(&primitive)
            {
                continue;
            }
            reached = true;
            match gate(setup, |h| h.family("mcrypt")) {
                Some(why) => out.push(unavailable_once(
                    "cipher",
                    &primitive,
                    first,
                    "mcrypt_encrypt",
                    version(setup, "mcrypt"),
                    why,
                )),
                None => out.extend(twins.iter().map(|t| {
                    mcrypt_cell(
                        (alg.as_str(), mode.as_str(), *key),
                        &primitive,
                        &t.operation,
                        t.input_bytes,
                        setup,
                    )
                })),
            }
        }
        if !reached {
            let why = format!(
                "no PHP function reaches {primitive}: OpenSSL does not name it and it is \
                 not one of the libmcrypt ciphers planned (--full plans every mcrypt \
                 algorithm x mode)"
            );
            out.push(unreached(("cipher", &primitive, first), setup, why));
        }
    }
    out
}

fn openssl_cipher_cell(
    meta: &CipherMeta,
    primitive: &str,
    op: &str,
    size: u64,
    setup: &Setup,
) -> PlannedCase {
    let pkcs7 = meta.pads() && !size.is_multiple_of(meta.block as u64);
    let mut spec = CaseSpec::new("cipher", primitive, NAME, version(setup, "openssl"), op)
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
    cell(spec, setup, move |_| {
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

/// The libmcrypt ciphers PHP may reach: the seed's three (as the runner
/// lists them), or every algorithm x mode this libmcrypt offers (`--full`).
/// Without a runner there are none: the cells go to [`unreached`].
fn mcrypt_candidates(cfg: &RunConfig, setup: &Setup) -> Vec<(String, String, u64)> {
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
        Ok(c) => c.hello.mcrypt_seed.clone(),
        Err(_) => Vec::new(),
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

fn mcrypt_cell(
    (alg, mode, key): (&str, &str, u64),
    primitive: &str,
    op: &str,
    size: u64,
    setup: &Setup,
) -> PlannedCase {
    let (name, mode_name, key_bits) = mcrypt_name(alg, mode, key);
    let block_mode = matches!(mode, "ecb" | "cbc");
    let block: u64 = match alg {
        "rijndael-128" | "twofish" | "serpent" | "loki97" | "saferplus" | "cast-256" => 16,
        "rijndael-192" => 24,
        "rijndael-256" => 32,
        _ => 8,
    };
    let pkcs7 = block_mode && !size.is_multiple_of(block);
    let mut spec = CaseSpec::new("cipher", primitive, NAME, version(setup, "mcrypt"), op)
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
    cell(spec, setup, move |_| {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcrypt_pairs_get_the_cipher_suites_names() {
        for (alg, mode, key, name, label, bits) in [
            ("blowfish", "cfb", 16, "BF-CFB8", "CFB8", 128),
            ("rijndael-128", "ncfb", 32, "AES-256-CFB", "CFB", 256),
            ("tripledes", "cbc", 24, "DES-EDE3-CBC", "CBC", 168),
            ("arcfour", "stream", 16, "RC4", "stream", 128),
            ("twofish", "nofb", 32, "TWOFISH-256-OFB", "OFB", 256),
        ] {
            assert_eq!(
                mcrypt_name(alg, mode, key),
                (name.to_string(), label, bits),
                "{alg} {mode} {key}"
            );
        }
    }

    #[test]
    fn backend_filter_leaves_php_out() {
        let cfg = RunConfig {
            backends: Some(vec!["openssl".into()]),
            ..RunConfig::quick()
        };
        let native = [CaseSpec::new("aead", "AES-256-GCM", "openssl", "", "encrypt").size(1000)];
        assert!(plan("aead", &cfg, &native).is_empty());
    }
}
