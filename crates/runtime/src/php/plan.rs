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
use crate::php::{hello, Hello, McryptCipher, NAME};
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
        for m in &mcrypt {
            if !m.primitive.eq_ignore_ascii_case(&primitive) {
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
                None => out.extend(
                    twins
                        .iter()
                        .map(|t| mcrypt_cell(m, &primitive, &t.operation, t.input_bytes, setup)),
                ),
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

/// The libmcrypt ciphers PHP may reach, as the runner lists them: the
/// seed's three, or every algorithm x mode this libmcrypt offers (`--full`).
/// Without a runner there are none: the cells go to [`unreached`].
fn mcrypt_candidates(cfg: &RunConfig, setup: &Setup) -> Vec<McryptCipher> {
    let Ok(c) = setup else {
        return Vec::new();
    };
    let every = c.hello.mcrypt.iter().filter(|m| !m.seed);
    if cfg.full && every.clone().next().is_some() {
        every.cloned().collect()
    } else {
        c.hello.mcrypt.iter().filter(|m| m.seed).cloned().collect()
    }
}

fn mcrypt_cell(
    m: &McryptCipher,
    primitive: &str,
    op: &str,
    size: u64,
    setup: &Setup,
) -> PlannedCase {
    let (alg, mode, key, block) = (m.algorithm.as_str(), m.mode.as_str(), m.key_len, m.block);
    let block_mode = matches!(mode, "ecb" | "cbc");
    let pkcs7 = block_mode && !size.is_multiple_of(block);
    let mut spec = CaseSpec::new("cipher", primitive, NAME, version(setup, "mcrypt"), op)
        .size(size)
        .param("mode", &m.mode_name)
        .param("key_bits", m.key_bits)
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
    spec = spec.labels(m.labels.clone());
    let (alg, mode, op, name) = (
        alg.to_string(),
        mode.to_string(),
        op.to_string(),
        m.primitive.clone(),
    );
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
    fn backend_filter_leaves_php_out() {
        let cfg = RunConfig {
            backends: Some(vec!["openssl".into()]),
            ..RunConfig::quick()
        };
        let native = [CaseSpec::new("aead", "AES-256-GCM", "openssl", "", "encrypt").size(1000)];
        assert!(plan("aead", &cfg, &native).is_empty());
    }
}
