//! The digest libraries: one [`DigestBackend`] per library, listed once in
//! [`all`]. The planner, the checks (known answers, agreement between every
//! pair of backends) and the tests enumerate the registry, so a new library
//! is one module plus one line there.

use crate::Algorithm;
use cryptobench_core::{CaseError, Library, Offer};
use std::fmt;

mod openssl;
mod rustcrypto;

/// One digest library.
pub trait DigestBackend: Library {
    /// What it does with `alg`.
    fn offers(&self, alg: &Algorithm) -> Offer;
    /// A reusable digest context for `alg` (fetched and allocated once).
    fn build(&self, alg: &Algorithm) -> Result<Box<dyn Digester>, CaseError>;
}

/// A prepared digest context.
pub trait Digester: Send {
    /// Digest of `data`: one complete init, update, final.
    fn digest(&mut self, data: &[u8]) -> Vec<u8>;
}

/// A registered backend.
pub type Backend = &'static dyn DigestBackend;

impl fmt::Debug for dyn DigestBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every backend, in table order.
pub fn all() -> &'static [Backend] {
    &[&openssl::OpenSsl, &rustcrypto::RUST_CRYPTO]
}
