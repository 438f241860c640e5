//! One interface over four libraries: [`Sealer`] seals and opens messages
//! with a key fixed when it is built.
//!
//! Building a sealer is the key schedule (OpenSSL context with its key,
//! RustCrypto cipher instance, libsodium's precomputed AES-GCM state), so the
//! timed loop reuses it unless `--per-message-init` asks for one per message.
//! A backend that cannot take a key, nonce or tag size says why in
//! [`Unsupported`]; checks count such Wycheproof groups as skipped and the
//! planner turns them into "skipped: reason" cells.

use crate::algorithms::{Algorithm, Family};
use std::fmt;

mod libaegis;
mod openssl_evp;
mod rustcrypto;
mod sodium;
mod upper_state;

/// The four libraries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backend {
    /// System OpenSSL through the EVP interface.
    OpenSsl,
    /// Vendored libsodium 1.0.22.
    Sodium,
    /// RustCrypto's pure-Rust crates.
    RustCrypto,
    /// libaegis through the `aegis` crate.
    LibAegis,
}

/// Every backend, in table order.
pub const BACKENDS: [Backend; 4] = [
    Backend::OpenSsl,
    Backend::Sodium,
    Backend::RustCrypto,
    Backend::LibAegis,
];

impl Backend {
    /// Name on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Backend::OpenSsl => cryptobench_backends::openssl_lib::NAME,
            Backend::Sodium => cryptobench_backends::sodium::NAME,
            Backend::RustCrypto => cryptobench_backends::rustcrypto::NAME,
            Backend::LibAegis => "libaegis",
        }
    }

    /// The library's version string.
    pub fn version(self) -> String {
        match self {
            Backend::OpenSsl => cryptobench_backends::openssl_lib::version(),
            Backend::Sodium => cryptobench_backends::sodium::version(),
            Backend::RustCrypto => rustcrypto::VERSION.to_string(),
            Backend::LibAegis => libaegis::VERSION.to_string(),
        }
    }

    /// Whether this backend implements `alg` here.
    ///
    /// `None`: the library is not about this algorithm at all (libaegis and
    /// AES-GCM), so no cell is planned. `Some(Err(reason))`: a cell worth
    /// showing as unavailable (OpenSSL 3.0 and AES-GCM-SIV, libsodium's
    /// AES-256-GCM without AES-NI). `Some(Ok(()))`: it runs.
    pub fn offers(self, alg: &Algorithm) -> Option<Result<(), String>> {
        match self {
            Backend::OpenSsl => openssl_evp::offers(alg),
            Backend::Sodium => sodium::offers(alg),
            Backend::RustCrypto => rustcrypto::offers(alg),
            Backend::LibAegis => libaegis::offers(alg),
        }
    }

    /// Builds a sealer with this key (the key schedule).
    pub fn build(
        self,
        alg: &Algorithm,
        params: &Params<'_>,
    ) -> Result<Box<dyn Sealer>, Unsupported> {
        match self.offers(alg) {
            Some(Ok(())) => {}
            Some(Err(reason)) => return Err(Unsupported(reason)),
            None => {
                return Err(Unsupported(format!(
                    "{} does not implement {}",
                    self.name(),
                    alg.name
                )))
            }
        }
        if params.key.len() != alg.key_len {
            return Err(Unsupported(format!(
                "{} takes {}-byte keys, not {}",
                alg.name,
                alg.key_len,
                params.key.len()
            )));
        }
        match self {
            Backend::OpenSsl => openssl_evp::build(alg, params),
            Backend::Sodium => sodium::build(alg, params),
            Backend::RustCrypto => rustcrypto::build(alg, params),
            Backend::LibAegis => libaegis::build(alg, params),
        }
    }
}

/// What a sealer is built with.
#[derive(Debug, Clone, Copy)]
pub struct Params<'a> {
    /// The key (its length must be the algorithm's).
    pub key: &'a [u8],
    /// Nonce length every message will use.
    pub nonce_len: usize,
    /// Tag length in bytes.
    pub tag_len: usize,
}

/// Why a backend cannot take a parameter set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Opening failed: the tag did not verify or the input was malformed.
/// Deliberately carries nothing (crypto failures stay opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejected;

/// A keyed AEAD instance.
pub trait Sealer: Send {
    /// Tag length in bytes.
    fn tag_len(&self) -> usize;
    /// Seals `msg`: writes `ciphertext || tag` into `out`, whose length
    /// must be `msg.len() + tag_len()`.
    fn seal(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected>;
    /// Opens `sealed = ciphertext || tag` into `out` (length
    /// `sealed.len() - tag_len()`); `Err` when authentication fails.
    fn open(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected>;
}

/// Checks the lengths of a seal call (the nonce, and room for message and
/// tag in `out`) and splits `out` into ciphertext and tag.
pub(crate) fn seal_parts<'a>(
    nonce: &[u8],
    nonce_len: usize,
    msg: &[u8],
    out: &'a mut [u8],
    tag_len: usize,
) -> Result<(&'a mut [u8], &'a mut [u8]), Rejected> {
    if nonce.len() != nonce_len || out.len() != msg.len() + tag_len {
        return Err(Rejected);
    }
    Ok(out.split_at_mut(msg.len()))
}

/// Checks the lengths of an open call and splits `sealed` into ciphertext
/// and tag ([`split_sealed`], plus the nonce).
pub(crate) fn open_parts<'a>(
    nonce: &[u8],
    nonce_len: usize,
    sealed: &'a [u8],
    out: &[u8],
    tag_len: usize,
) -> Result<(&'a [u8], &'a [u8]), Rejected> {
    if nonce.len() != nonce_len {
        return Err(Rejected);
    }
    split_sealed(sealed, out, tag_len)
}

/// A C library's return code, 0 for success.
pub(crate) fn zero_ok(rc: std::os::raw::c_int) -> Result<(), Rejected> {
    if rc == 0 {
        Ok(())
    } else {
        Err(Rejected)
    }
}

/// Splits `sealed` into ciphertext and tag, checking the lengths the
/// sealer interface promises.
pub(crate) fn split_sealed<'a>(
    sealed: &'a [u8],
    out: &[u8],
    tag_len: usize,
) -> Result<(&'a [u8], &'a [u8]), Rejected> {
    if sealed.len() < tag_len || out.len() != sealed.len() - tag_len {
        return Err(Rejected);
    }
    Ok(sealed.split_at(sealed.len() - tag_len))
}

/// Seals into a fresh vector (checks and tests; never in a timed loop).
pub fn seal_vec(
    s: &mut dyn Sealer,
    nonce: &[u8],
    aad: &[u8],
    msg: &[u8],
) -> Result<Vec<u8>, Rejected> {
    let mut out = vec![0u8; msg.len() + s.tag_len()];
    s.seal(nonce, aad, msg, &mut out)?;
    Ok(out)
}

/// Opens into a fresh vector (checks and tests; never in a timed loop).
pub fn open_vec(
    s: &mut dyn Sealer,
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> Result<Vec<u8>, Rejected> {
    let len = sealed.len().checked_sub(s.tag_len()).ok_or(Rejected)?;
    let mut out = vec![0u8; len];
    s.open(nonce, aad, sealed, &mut out)?;
    Ok(out)
}

/// Whether `family` is one of the AEGIS variants.
pub(crate) fn is_aegis(family: Family) -> bool {
    matches!(
        family,
        Family::Aegis128L
            | Family::Aegis256
            | Family::Aegis128X2
            | Family::Aegis128X4
            | Family::Aegis256X2
            | Family::Aegis256X4
    )
}

/// Whether libsodium's AES-256-GCM runs on this CPU
/// (`crypto_aead_aes256gcm_is_available`).
pub fn sodium_aes256gcm_available() -> bool {
    sodium::aes256gcm_available()
}
