//! The RustCrypto digest crates.

use super::{DigestBackend, Digester};
use crate::Algorithm;
use cryptobench_core::{CaseError, Offer};
use cryptobench_suite_common::rustcrypto::RustCrypto;

/// RustCrypto crates in use, for the backend version string.
const CRATES: [(&str, &str); 3] = [("sha2", "0.10"), ("sha3", "0.10"), ("blake2", "0.10")];

/// The RustCrypto crates.
pub(super) const RUST_CRYPTO: RustCrypto = RustCrypto::new(&CRATES);

/// A one-shot digest function.
type DigestFn = fn(&[u8]) -> Vec<u8>;

/// One RustCrypto digest type per algorithm, found by name.
fn digest_fn(alg: &Algorithm) -> Option<DigestFn> {
    use sha2::Digest;
    Some(match alg.name {
        "SHA-256" => |d| sha2::Sha256::digest(d).to_vec(),
        "SHA-512" => |d| sha2::Sha512::digest(d).to_vec(),
        "SHA3-256" => |d| sha3::Sha3_256::digest(d).to_vec(),
        "BLAKE2b-512" => |d| blake2::Blake2b512::digest(d).to_vec(),
        _ => return None,
    })
}

impl DigestBackend for RustCrypto {
    fn offers(&self, alg: &Algorithm) -> Offer {
        Offer::when(digest_fn(alg).is_some())
    }

    fn build(&self, alg: &Algorithm) -> Result<Box<dyn Digester>, CaseError> {
        let f = digest_fn(alg)
            .ok_or_else(|| CaseError::Skipped(format!("RustCrypto: no {}", alg.name)))?;
        Ok(Box::new(Stateless(f)))
    }
}

/// The crates' one-shot `digest` (no context to keep).
struct Stateless(DigestFn);

impl Digester for Stateless {
    fn digest(&mut self, data: &[u8]) -> Vec<u8> {
        (self.0)(data)
    }
}
