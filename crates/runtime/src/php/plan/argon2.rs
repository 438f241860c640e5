//! The argon2 suite's php cells: `sodium_crypto_pwhash` and `password_hash`.

use super::{cell, version, Setup};
use crate::interop::{Argon2Interop, Interop};
use crate::php::NAME;
use crate::twin::{by_primitive, num};
use cryptobench_core::{CaseSpec, PlannedCase};
use serde_json::json;
use std::sync::Arc;

/// Argon2 tag length (seed 000 used 32 bytes; so does password_hash).
const ARGON2_TAG: u64 = 32;

/// PHP's two Argon2 functions beside each native hash cell.
pub(super) fn argon2(setup: &Setup, cells: &[&CaseSpec]) -> Vec<PlannedCase> {
    let hashes: Vec<&CaseSpec> = cells
        .iter()
        .copied()
        .filter(|s| s.operation == "hash")
        .collect();
    let point = |s: &CaseSpec| {
        ["m_kib", "t", "p", "threads", "tag", "version"].map(|k| s.params.get(k).cloned())
    };
    // The runner's Argon2 functions; without a runner, one cell per native
    // cell says why there is none.
    let apis = match setup {
        Ok(c) => c.hello.apis.get("argon2").cloned().unwrap_or_default(),
        Err(_) => vec!["none".to_string()],
    };
    let mut out = Vec::new();
    for (variant, twins) in by_primitive(&hashes, point) {
        for native in twins {
            for api in &apis {
                out.push(argon2_cell(&variant, native, api, setup));
            }
        }
    }
    out
}

fn argon2_cell(variant: &str, native: &CaseSpec, api: &str, setup: &Setup) -> PlannedCase {
    let n = |k: &str| num(native, k).unwrap_or(0);
    let (m, t, p) = (n("m_kib"), n("t"), n("p"));
    let threads = num(native, "threads").unwrap_or(p);
    let tag = num(native, "tag").unwrap_or(ARGON2_TAG);
    let argon_version = native
        .params
        .get("version")
        .cloned()
        .unwrap_or_else(|| "0x13".into());
    let lib = if api == "password_hash" {
        "password_hash"
    } else {
        "sodium"
    };
    let spec = CaseSpec::new("argon2", variant, NAME, version(setup, lib), "hash")
        .param("m_kib", m)
        .param("t", t)
        .param("p", p)
        .param("threads", threads)
        .param("version", &argon_version)
        .param("tag", tag)
        .param("api", api)
        .size(native.input_bytes)
        .expect_ns(native.expected_ns);
    let php_variant = variant.to_ascii_lowercase();
    let api = api.to_string();
    cell(spec, setup, move |ctx| {
        if !matches!(php_variant.as_str(), "argon2i" | "argon2id") {
            return Err(format!("PHP offers Argon2i and Argon2id only (password_hash and sodium_crypto_pwhash have no {php_variant})"));
        }
        if argon_version != "0x13" {
            return Err(format!(
                "PHP's Argon2 is version 0x13 only; this cell asks {argon_version}"
            ));
        }
        if tag != ARGON2_TAG {
            return Err(format!("password_hash makes {ARGON2_TAG}-byte tags and the runner times sodium_crypto_pwhash at that length; this cell asks {tag}"));
        }
        if api == "sodium_crypto_pwhash" {
            if p != 1 || threads != 1 {
                return Err("sodium_crypto_pwhash computes one lane on one thread only".into());
            }
            if let Some(why) = ctx.hello.family("sodium") {
                return Err(why);
            }
        } else {
            if p != threads {
                return Err(format!("password_hash sets lanes and threads to one value ('threads'); this cell has {p} lanes on {threads} threads"));
            }
            if let Some(why) = ctx.hello.family("password_argon2") {
                return Err(why);
            }
        }
        let php_api = if api == "password_hash" {
            "password_hash"
        } else {
            "sodium"
        };
        let case = json!({"kind": "pwhash", "api": php_api, "variant": php_variant,
            "m_kib": m, "t": t, "threads": threads});
        let i: Arc<dyn Interop> = Arc::new(Argon2Interop::new(php_api, &php_variant));
        Ok((
            case,
            Some(1),
            Some((format!("argon2:{php_api}/{php_variant}"), i)),
        ))
    })
}
