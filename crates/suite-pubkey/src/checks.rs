//! Checks before timing, generic over the registry lists: round trip,
//! encodings and sizes, key export and re-import, interop with every other
//! backend of the set, tamper (implicit rejection for KEMs, rejection for
//! signatures) and the Wycheproof files ([`crate::vectors`]).
//!
//! One entry's checks run once per run ([`CheckCache`]) and are attached to
//! each of its operations' measurements.

use crate::algorithms::{Algorithm, Kind};
use crate::engines::{self, Entry, Kem, KeyAgreement, Signer, SigningKey};
use crate::error::PkError;
use crate::keys;
use crate::vectors;
use cryptobench_core::{CheckOutcome, CheckResult};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a server signs in TLS 1.3: 64 spaces, the context string, a zero
/// byte and a SHA-256 transcript hash (RFC 8446 4.4.3): 130 bytes.
pub fn message() -> Vec<u8> {
    let mut m = vec![0x20u8; 64];
    m.extend_from_slice(b"TLS 1.3, server CertificateVerify");
    m.push(0);
    m.extend((0u8..32).map(|i| i.wrapping_mul(37).wrapping_add(11)));
    m
}

/// A signing key for `entry`: the fixed test key for RSA (no keygen),
/// a fresh one otherwise.
pub fn signing_key(entry: &dyn Signer) -> Result<Box<dyn SigningKey>, PkError> {
    match entry.algorithm().rsa_bits().and_then(keys::rsa_test_key) {
        Some(der) => entry.import_secret(der),
        None => entry.generate(),
    }
}

/// Finished checks by (set, backend).
type Done = HashMap<(String, String), Arc<Vec<CheckResult>>>;

/// Checks shared between the cases of one run, keyed by set and backend.
#[derive(Default)]
pub struct CheckCache {
    done: Mutex<Done>,
}

impl CheckCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }
    /// The checks of `alg` on `backend`, run the first time they are asked.
    pub fn get(&self, alg: &'static Algorithm, backend: &str) -> Arc<Vec<CheckResult>> {
        let key = (alg.name.to_string(), backend.to_string());
        if let Some(found) = self
            .done
            .lock()
            .map(|m| m.get(&key).cloned())
            .ok()
            .flatten()
        {
            return found;
        }
        let checks = Arc::new(run(alg, backend));
        if let Ok(mut m) = self.done.lock() {
            m.insert(key, checks.clone());
        }
        checks
    }
}

/// Runs every check of `alg` on `backend`.
pub fn run(alg: &'static Algorithm, backend: &str) -> Vec<CheckResult> {
    match alg.kind {
        Kind::Kem => run_on(alg, backend, engines::kems(), kem_checks),
        Kind::Agreement => run_on(alg, backend, engines::agreements(), agreement_checks),
        Kind::Signature => run_on(alg, backend, engines::signers(), signature_checks),
    }
}

/// `checks` of `backend`'s entry of `alg` among the available entries of
/// `alg` in `registry` (its peers for agreement and interop).
fn run_on<E: Entry + ?Sized>(
    alg: &Algorithm,
    backend: &str,
    registry: Vec<Box<E>>,
    checks: impl Fn(&E, &[Box<E>]) -> Vec<CheckResult>,
) -> Vec<CheckResult> {
    let all: Vec<Box<E>> = registry
        .into_iter()
        .filter(|e| e.algorithm().name == alg.name && e.available().is_ok())
        .collect();
    match all.iter().position(|e| e.backend() == backend) {
        Some(i) => checks(all[i].as_ref(), &all),
        None => vec![missing(backend)],
    }
}

fn missing(backend: &str) -> CheckResult {
    CheckResult::fail(
        "registry",
        format!("no available entry for backend {backend}"),
    )
}

fn err(name: &str, e: PkError) -> CheckResult {
    CheckResult::fail(name, e.to_string())
}

fn flip(bytes: &[u8], index: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if let Some(b) = out.get_mut(index) {
        *b ^= 0x01;
    }
    out
}

/// Round trip, sizes, export/import, implicit rejection, interop, vectors.
pub fn kem_checks(entry: &(dyn Kem + 'static), all: &[Box<dyn Kem>]) -> Vec<CheckResult> {
    let alg = entry.algorithm();
    let mut out = Vec::new();
    let rt = (|| -> Result<CheckResult, PkError> {
        let key = entry.generate()?;
        let public = key.public_key();
        let (ct, ss) = entry.import_public(&public)?.encaps()?;
        let back = key.decaps(&ct)?;
        let sizes = public.len() == alg.public_bytes && ct.len() == alg.output_bytes;
        if !sizes {
            return Ok(CheckResult::fail(
                "roundtrip",
                format!(
                    "sizes: public {} (want {}), ciphertext {} (want {})",
                    public.len(),
                    alg.public_bytes,
                    ct.len(),
                    alg.output_bytes
                ),
            ));
        }
        if back != ss {
            return Ok(CheckResult::fail("roundtrip", "decaps gave another secret"));
        }
        // Export and re-import decapsulate the same ciphertext.
        let export = match key.secret_key() {
            Ok(sk) => {
                let again = entry.import_secret(&sk)?.decaps(&ct)?;
                CheckResult::from_bool(
                    "secret-export",
                    again == ss,
                    format!("{} bytes, re-imported key decapsulates", sk.len()),
                )
            }
            Err(e) => CheckResult::skipped("secret-export", e.to_string()),
        };
        out.push(export);
        // Implicit rejection: a flipped ciphertext bit decapsulates to
        // another secret, never an error (FIPS 203 6.3).
        let flipped = flip(&ct, ct.len() / 3);
        out.push(match key.decaps(&flipped) {
            Ok(other) => CheckResult::from_bool(
                "tamper",
                other != ss && other.len() == ss.len(),
                "flipped ciphertext bit gives a different secret (implicit rejection)",
            ),
            Err(e) => CheckResult::fail(
                "tamper",
                format!("decaps errored instead of rejecting implicitly: {e}"),
            ),
        });
        Ok(CheckResult::pass(
            "roundtrip",
            format!(
                "public {} B, ciphertext {} B, secret {} B",
                public.len(),
                ct.len(),
                ss.len()
            ),
        ))
    })();
    out.insert(0, rt.unwrap_or_else(|e| err("roundtrip", e)));
    out.push(kem_interop(entry, all));
    out.extend(vectors::kem(entry));
    out
}

fn kem_interop(entry: &(dyn Kem + 'static), all: &[Box<dyn Kem>]) -> CheckResult {
    interop(entry, all, "secrets differ with", |other| {
        // They encapsulate to us, we to them.
        let ours = entry.generate()?;
        let (ct, ss) = other.import_public(&ours.public_key())?.encaps()?;
        let a = ours.decaps(&ct)? == ss;
        let theirs = other.generate()?;
        let (ct, ss) = entry.import_public(&theirs.public_key())?.encaps()?;
        Ok(a && theirs.decaps(&ct)? == ss)
    })
}

/// The interop check: `both_ways` must hold with every other backend's entry
/// of the set; the first that disagrees (`disagree` and its name) or fails
/// fails the check.
fn interop<T: Entry + ?Sized>(
    entry: &T,
    all: &[Box<T>],
    disagree: &str,
    both_ways: impl Fn(&T) -> Result<bool, PkError>,
) -> CheckResult {
    let mut agreed = Vec::new();
    for other in all.iter().filter(|o| o.backend() != entry.backend()) {
        let why = match both_ways(other.as_ref()) {
            Ok(true) => {
                agreed.push(other.backend());
                continue;
            }
            Ok(false) => format!("{disagree} {}", other.backend()),
            Err(e) => format!("with {}: {e}", other.backend()),
        };
        return CheckResult::fail("interop", why);
    }
    if agreed.is_empty() {
        CheckResult::skipped("interop", "no other backend offers this set here")
    } else {
        CheckResult::pass(
            "interop",
            format!("agrees both ways with {}", agreed.join(", ")),
        )
    }
}

/// Agreement both ways, sizes, export/import, prepared derive, interop, vectors.
pub fn agreement_checks(
    entry: &(dyn KeyAgreement + 'static),
    all: &[Box<dyn KeyAgreement>],
) -> Vec<CheckResult> {
    let alg = entry.algorithm();
    let mut out = Vec::new();
    let rt = (|| -> Result<CheckResult, PkError> {
        let a = entry.generate()?;
        let mut b = entry.generate()?;
        let (pa, pb) = (a.public_key(), b.public_key());
        let s1 = a.derive(&pb)?;
        let s2 = b.derive(&pa)?;
        b.prepare_peer(&pa)?;
        let s3 = b.derive_prepared()?;
        if pa.len() != alg.public_bytes {
            return Ok(CheckResult::fail(
                "roundtrip",
                format!("share is {} bytes; want {}", pa.len(), alg.public_bytes),
            ));
        }
        let export = match a.secret_key() {
            Ok(sk) => {
                let again = entry.import_secret(&sk)?;
                CheckResult::from_bool(
                    "secret-export",
                    again.public_key() == pa && again.derive(&pb)? == s1,
                    format!(
                        "{} bytes, re-imported key derives the same secret",
                        sk.len()
                    ),
                )
            }
            Err(e) => CheckResult::skipped("secret-export", e.to_string()),
        };
        out.push(export);
        Ok(CheckResult::from_bool(
            "roundtrip",
            s1 == s2 && s2 == s3,
            format!("both sides derive the same {}-byte secret", s1.len()),
        ))
    })();
    out.insert(0, rt.unwrap_or_else(|e| err("roundtrip", e)));
    out.push(interop(entry, all, "secrets differ with", |other| {
        let a = entry.generate()?;
        let b = other.generate()?;
        Ok(a.derive(&b.public_key())? == b.derive(&a.public_key())?)
    }));
    out.extend(vectors::agreement(entry));
    out
}

/// Sign and verify, sizes, export/import, tamper, cross-verification, vectors.
pub fn signature_checks(
    entry: &(dyn Signer + 'static),
    all: &[Box<dyn Signer>],
) -> Vec<CheckResult> {
    let alg = entry.algorithm();
    let msg = message();
    let mut out = Vec::new();
    let key = match signing_key(entry) {
        Ok(k) => k,
        Err(e) => return vec![err("roundtrip", e)],
    };
    let rt = (|| -> Result<(Vec<u8>, Vec<u8>), PkError> {
        let public = key.public_key()?;
        let sig = key.sign(&msg)?;
        Ok((public, sig))
    })();
    let (public, sig) = match rt {
        Ok(x) => x,
        Err(e) => return vec![err("roundtrip", e)],
    };
    let verifier = match entry.import_public(&public) {
        Ok(v) => v,
        Err(e) => return vec![err("roundtrip", e)],
    };
    let valid = verifier.verify(&msg, &sig).unwrap_or(false);
    let size_ok = if alg.name.starts_with("ECDSA") {
        sig.len() <= alg.output_bytes
    } else {
        sig.len() == alg.output_bytes
    } && public.len() == alg.public_bytes;
    out.push(CheckResult::from_bool(
        "roundtrip",
        valid && size_ok,
        format!(
            "public {} B, signature {} B, verifies",
            public.len(),
            sig.len()
        ),
    ));
    // Tamper: a flipped signature bit and a flipped message bit are rejected.
    let bad_sig = verifier
        .verify(&msg, &flip(&sig, sig.len() / 2))
        .unwrap_or(false);
    let bad_msg = verifier.verify(&flip(&msg, 100), &sig).unwrap_or(false);
    out.push(CheckResult::from_bool(
        "tamper",
        !bad_sig && !bad_msg,
        "flipped signature bit and flipped message bit are rejected",
    ));
    out.push(match key.secret_key() {
        Ok(sk) => {
            let ok = entry
                .import_secret(&sk)
                .and_then(|k| k.sign(&msg))
                .map(|s| verifier.verify(&msg, &s).unwrap_or(false))
                .unwrap_or(false);
            CheckResult::from_bool(
                "secret-export",
                ok,
                format!("{} bytes, re-imported key signs verifiably", sk.len()),
            )
        }
        Err(e) => CheckResult::skipped("secret-export", e.to_string()),
    });
    // Every other backend verifies our signature, and we theirs.
    out.push(interop(
        entry,
        all,
        "signatures do not verify across",
        |other| {
            let theirs_ok = other.import_public(&public)?.verify(&msg, &sig)?;
            let okey = signing_key(other)?;
            let osig = okey.sign(&msg)?;
            let ours_ok = entry
                .import_public(&okey.public_key()?)?
                .verify(&msg, &osig)?;
            Ok(theirs_ok && ours_ok)
        },
    ));
    out.extend(vectors::signature(entry));
    out
}

/// True when every check passed or was skipped.
pub fn all_pass(checks: &[CheckResult]) -> bool {
    checks.iter().all(|c| c.outcome != CheckOutcome::Fail)
}
