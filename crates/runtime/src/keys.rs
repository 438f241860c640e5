//! The native half of two interop checks every cell-driven runtime
//! answers: digests (the same message hashes to the same bytes on both
//! sides) and keys (a private key in PKCS#8 and its public key in
//! SubjectPublicKeyInfo, made on one side, are used on the other).
//!
//! Keys go through the two encodings every ecosystem reads, PEM PKCS#8 and
//! DER SPKI, so one native check serves all runtimes: native -> runtime,
//! the runner loads both halves and signs and verifies with them (or
//! agrees on a secret with a key of its own, for X25519 and X448);
//! runtime -> native, OpenSSL parses the runtime's key, checks the point
//! (`EC_KEY_check_key`) and that its public half is the SPKI sent.

use crate::interop::{field, random, verdict, Interop, InteropError, INTEROP_BYTES};
use cryptobench_core::CheckResult;
use openssl::md::Md;
use openssl::md_ctx::MdCtx;
use openssl::pkey::{Id, PKey, Private};
use serde_json::{json, Value};

/// A digest of the hash suite against OpenSSL's.
#[derive(Debug, Clone)]
pub struct DigestInterop {
    /// OpenSSL's fetch name (`SHA2-256`).
    fetch: &'static str,
}

impl DigestInterop {
    /// The interop of the hash suite's `primitive`; `None` when the suite
    /// has no such digest.
    pub fn new(primitive: &str) -> Option<Self> {
        cryptobench_suite_hash::ALGORITHMS
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(primitive))
            .map(|a| Self {
                fetch: a.openssl_fetch,
            })
    }

    fn digest(&self, data: &[u8]) -> Result<Vec<u8>, InteropError> {
        let md = Md::fetch(None, self.fetch, None).map_err(|_| InteropError::NativeLacks {
            library: "OpenSSL",
            primitive: self.fetch.to_string(),
        })?;
        let mut ctx = MdCtx::new()?;
        ctx.digest_init(&md)?;
        ctx.digest_update(data)?;
        let mut out = vec![0u8; md.size()];
        ctx.digest_final(&mut out)?;
        Ok(out)
    }
}

impl Interop for DigestInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let msg = random(INTEROP_BYTES);
        let digest = self.digest(&msg)?;
        Ok(json!({"msg": hex::encode(&msg), "digest": hex::encode(digest)}))
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        let r = (|| Ok(self.digest(&field(a, "msg")?)? == field(a, "digest")?))();
        verdict(
            runtime,
            r,
            "the native OpenSSL digest of RUNTIME's message is RUNTIME's digest",
            "the native OpenSSL digest of RUNTIME's message differs from RUNTIME's",
        )
    }
}

/// Keys of one curve (or X25519, Ed25519, X448, Ed448) against OpenSSL.
#[derive(Debug, Clone)]
pub struct KeyInterop {
    curve: String,
}

impl KeyInterop {
    /// The interop of an ecc suite curve OpenSSL knows.
    pub fn new(curve: &str) -> Option<Self> {
        let known = Self::edwards_id(curve).is_some() || crate::interop::curve_nid(curve).is_some();
        known.then(|| Self {
            curve: curve.to_string(),
        })
    }

    fn edwards_id(curve: &str) -> Option<Id> {
        match curve.to_ascii_lowercase().as_str() {
            "x25519" => Some(Id::X25519),
            "x448" => Some(Id::X448),
            "ed25519" => Some(Id::ED25519),
            "ed448" => Some(Id::ED448),
            _ => None,
        }
    }

    fn generate(&self) -> Result<PKey<Private>, InteropError> {
        Ok(match Self::edwards_id(&self.curve) {
            Some(Id::X25519) => PKey::generate_x25519()?,
            Some(Id::X448) => PKey::generate_x448()?,
            Some(Id::ED25519) => PKey::generate_ed25519()?,
            Some(_) => PKey::generate_ed448()?,
            None => {
                let nid = crate::interop::curve_nid(&self.curve)
                    .ok_or_else(|| InteropError::UnknownCurve(self.curve.clone()))?;
                let group = openssl::ec::EcGroup::from_curve_name(nid)?;
                PKey::from_ec_key(openssl::ec::EcKey::generate(&group)?)?
            }
        })
    }

    fn check(&self, a: &Value) -> Result<bool, InteropError> {
        let pem = a
            .get("pem")
            .and_then(Value::as_str)
            .ok_or(InteropError::MissingArtifact("pem"))?;
        let key =
            PKey::private_key_from_pem(pem.as_bytes()).map_err(InteropError::UnreadableKey)?;
        match Self::edwards_id(&self.curve) {
            Some(id) if key.id() != id => {
                return Err(InteropError::WrongKey(format!("a {} key", self.curve)))
            }
            Some(_) => {}
            None => {
                let ec = key
                    .ec_key()
                    .map_err(|_| InteropError::WrongKey("an EC key".into()))?;
                if ec.group().curve_name() != crate::interop::curve_nid(&self.curve) {
                    return Err(InteropError::WrongKey(format!("on {}", self.curve)));
                }
                if ec.check_key().is_err() {
                    return Ok(false);
                }
            }
        }
        let spki = key.public_key_to_der()?;
        Ok(spki == field(a, "spki")?)
    }
}

impl Interop for KeyInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let key = self.generate()?;
        let pem = key.private_key_to_pem_pkcs8()?;
        let spki = key.public_key_to_der()?;
        Ok(json!({"pem": String::from_utf8_lossy(&pem), "spki": hex::encode(spki)}))
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        verdict(
            runtime,
            self.check(a),
            "the native OpenSSL parsed RUNTIME's PKCS#8 key (point checked) and its public half is RUNTIME's SPKI",
            "RUNTIME's key fails the native checks (point or public half)",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_made_natively_passes_its_own_check_and_a_swapped_one_fails() {
        for curve in ["prime256v1", "X25519", "Ed25519"] {
            let i = KeyInterop::new(curve).expect(curve);
            let a = i.native_artifacts().expect("artifacts");
            let ok = i.check_runtime_artifacts("test", &a);
            assert_eq!(
                ok.outcome,
                cryptobench_core::CheckOutcome::Pass,
                "{curve}: {ok:?}"
            );
            let other = i.native_artifacts().expect("artifacts");
            let mut swapped = a.clone();
            swapped["spki"] = other["spki"].clone();
            let bad = i.check_runtime_artifacts("test", &swapped);
            assert_eq!(bad.outcome, cryptobench_core::CheckOutcome::Fail, "{curve}");
        }
        assert!(KeyInterop::new("no-such-curve").is_none());
    }

    #[test]
    fn a_digest_is_checked_natively() {
        let i = DigestInterop::new("SHA-256").expect("sha-256");
        let a = i.native_artifacts().expect("artifacts");
        let ok = i.check_runtime_artifacts("test", &a);
        assert_eq!(ok.outcome, cryptobench_core::CheckOutcome::Pass);
        assert_eq!(ok.name, "interop:test->native");
        let mut bad = a.clone();
        bad["msg"] = json!("00");
        let no = i.check_runtime_artifacts("test", &bad);
        assert_eq!(no.outcome, cryptobench_core::CheckOutcome::Fail);
    }
}
