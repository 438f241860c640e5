//! The native half of AES-SIV interop. OpenSSL's EVP has no IV for SIV,
//! so the one-shot AEAD helpers of [`crate::interop`] do not fit; the aead
//! suite's OpenSSL sealer does, and it fixes the convention both sides
//! follow: the S2V components are the associated data, then the nonce.

use crate::interop::{
    decrypts_to_runtime_message, field, random, Interop, InteropError, INTEROP_BYTES,
};
use cryptobench_core::CheckResult;
use cryptobench_suite_aead::algorithms::{by_name, Algorithm, Family};
use cryptobench_suite_aead::backend::{self, open_vec, seal_vec, Params, Sealer};
use serde_json::{json, Value};

/// AES-128-SIV or AES-256-SIV through the native OpenSSL.
pub struct SivInterop {
    alg: &'static Algorithm,
}

impl SivInterop {
    /// The interop for an AES-SIV name (`AES-128-SIV`), if it is one
    /// (AES-GCM-SIV is not).
    pub fn new(primitive: &str) -> Option<Self> {
        let alg = by_name(&primitive.to_ascii_uppercase())?;
        (alg.family == Family::Siv).then_some(SivInterop { alg })
    }

    fn sealer(&self, key: &[u8], nonce_len: usize) -> Result<Sealer, InteropError> {
        let params = Params {
            key,
            nonce_len,
            tag_len: 16,
        };
        backend::openssl()
            .build(self.alg, &params)
            .map_err(|why| InteropError::NativeLacks {
                library: "OpenSSL",
                primitive: format!("{} ({})", self.alg.name, why.0),
            })
    }
}

impl Interop for SivInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let key = random(self.alg.key_len);
        let nonce = random(self.alg.nonce_len);
        let aad = random(13);
        let pt = random(INTEROP_BYTES);
        let mut sealer = self.sealer(&key, nonce.len())?;
        let sealed =
            seal_vec(&mut sealer, &nonce, &aad, &pt).map_err(|_| InteropError::NativeFailed {
                library: "OpenSSL",
                reason: format!("it could not seal with {}", self.alg.name),
            })?;
        let (ct, tag) = sealed.split_at(pt.len());
        Ok(
            json!({"key": hex::encode(&key), "nonce": hex::encode(&nonce),
            "aad": hex::encode(&aad), "pt": hex::encode(&pt), "ct": hex::encode(ct),
            "tag": hex::encode(tag), "size": INTEROP_BYTES}),
        )
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        decrypts_to_runtime_message(
            runtime,
            a,
            || {
                let nonce = field(a, "nonce")?;
                let mut sealer = self.sealer(&field(a, "key")?, nonce.len())?;
                let mut sealed = field(a, "ct")?;
                sealed.extend_from_slice(&field(a, "tag")?);
                let pt =
                    open_vec(&mut sealer, &nonce, &field(a, "aad")?, &sealed).map_err(|_| {
                        InteropError::Refused {
                            library: "OpenSSL",
                            what: "AES-SIV ciphertext and tag",
                        }
                    })?;
                Ok(pt)
            },
            "the native OpenSSL opened RUNTIME's AES-SIV ciphertext and tag",
            "the native OpenSSL opened RUNTIME's AES-SIV ciphertext to a different message",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::CheckOutcome;

    #[test]
    fn only_aes_siv_names_get_it_and_its_artifacts_open_natively() {
        assert!(SivInterop::new("AES-256-GCM-SIV").is_none());
        for name in ["aes-128-siv", "AES-256-SIV"] {
            let siv = SivInterop::new(name).expect("an AES-SIV name");
            let mut made = siv.native_artifacts().expect("native artifacts");
            assert_eq!(
                made["key"].as_str().map(str::len),
                Some(2 * siv.alg.key_len)
            );
            let back = siv.check_runtime_artifacts("test", &made);
            assert_eq!(back.outcome, CheckOutcome::Pass, "{back:?}");
            // A flipped tag must not open.
            let tag = made["tag"].as_str().unwrap().to_string();
            let flipped = if tag.starts_with('0') { "1" } else { "0" };
            made["tag"] = json!(format!("{flipped}{}", &tag[1..]));
            let forged = siv.check_runtime_artifacts("test", &made);
            assert_eq!(forged.outcome, CheckOutcome::Fail, "{forged:?}");
        }
    }

    #[test]
    fn runners_get_wycheproof_aes_siv_vectors_with_two_aes_keys() {
        let kats = crate::vectors::aead_kats_for("AES-256-SIV", 16);
        let kats = kats.as_array().expect("a list");
        assert!(!kats.is_empty());
        for k in kats {
            assert_eq!(k["key"].as_str().map(str::len), Some(128), "{k}");
            assert_eq!(k["nonce"].as_str().map(str::len), Some(32), "{k}");
        }
    }
}
