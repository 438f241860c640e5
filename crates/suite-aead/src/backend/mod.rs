//! One interface over the AEAD libraries: [`Sealer`] seals and opens messages
//! with a key fixed when it is built. It checks the nonce, tag and buffer
//! lengths of every call once for all libraries; each library's [`Keyed`]
//! makes only its own detached calls.
//!
//! Building a sealer is the key schedule (OpenSSL context with its key,
//! RustCrypto cipher instance, libsodium's precomputed AES-GCM state), so the
//! timed loop reuses it unless `--per-message-init` asks for one per message.
//! A backend that cannot take a key, nonce or tag size says why in
//! [`Unsupported`]; checks count such Wycheproof groups as skipped and the
//! planner turns them into "skipped: reason" cells.

use crate::algorithms::{Algorithm, Family};
use cryptobench_core::{Library, Offer};
use std::fmt;

mod libaegis;
mod openssl_evp;
mod rustcrypto;
mod sodium;
mod upper_state;

/// RFC 5297 A.2, the nonce-based example with two associated-data
/// components, for the SIV backends' tests of how they take components.
#[cfg(test)]
pub(crate) mod rfc5297_a2 {
    fn hex(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    /// The AES-128-SIV key (256 bits: MAC key, then CTR key).
    pub fn key() -> Vec<u8> {
        hex("7f7e7d7c7b7a79787776757473727170404142434445464748494a4b4c4d4e4f")
    }

    /// The S2V components in order: two associated data, the nonce last.
    pub fn components() -> [Vec<u8>; 3] {
        [
            hex("00112233445566778899aabbccddeeffdeaddadadeaddadaffeeddccbbaa99887766554433221100"),
            hex("102030405060708090a0"),
            hex("09f911029d74e35bd84156c5635688c0"),
        ]
    }

    /// The plaintext.
    pub fn plaintext() -> Vec<u8> {
        hex("7468697320697320736f6d6520706c61696e7465787420746f20656e6372797074207573696e67205349562d414553")
    }

    /// Asserts the RFC's synthetic IV (the tag) and ciphertext.
    pub fn assert_output(tag: &[u8], ciphertext: &[u8]) {
        assert_eq!(hex::encode(tag), "7bdb6e3b432667eb06f4d14bff2fbd0f");
        assert_eq!(
            hex::encode(ciphertext),
            "cb900f2fddbe404326601965c889bf17dba77ceb094fa663b7a3f748ba8af829ea64ad544a272e9c485b62a3fd5c0d"
        );
    }
}

/// One AEAD library: what it offers and how it builds a keyed [`Sealer`].
/// Adding a library is one module implementing this plus one line in
/// [`all`]; the planner, the checks and the tests enumerate the registry.
pub trait AeadBackend: Library {
    /// What it does with `alg`: not about it (libaegis and AES-GCM: no cell
    /// is planned), unavailable with the reason (OpenSSL 3.0 and
    /// AES-GCM-SIV, libsodium's AES-256-GCM without AES-NI), or runs.
    fn offers(&self, alg: &Algorithm) -> Offer;
    /// Keys `alg` with `p` (the key schedule), for `p`'s nonce and tag
    /// lengths. Called by [`AeadBackend::build`] once the algorithm is
    /// offered and the key length is right.
    fn keyed(&self, alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported>;

    /// Builds a sealer after checking that this backend offers `alg` and
    /// that the key has the algorithm's length.
    fn build(&self, alg: &Algorithm, params: &Params<'_>) -> Result<Sealer, Unsupported> {
        match self.offers(alg) {
            Offer::Runs => {}
            Offer::Unavailable(reason) => return Err(Unsupported(reason)),
            Offer::NotOffered => {
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
        Ok(Sealer::new(params, self.keyed(alg, params)?))
    }
}

/// A registered backend.
pub type Backend = &'static dyn AeadBackend;

impl fmt::Debug for dyn AeadBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every backend, in table order.
pub fn all() -> &'static [Backend] {
    &[
        &openssl_evp::OpenSsl,
        &sodium::Sodium,
        &rustcrypto::RUST_CRYPTO,
        &libaegis::LibAegis,
    ]
}

/// The OpenSSL backend: the `openssl speed` peer and its stream loop are
/// OpenSSL's own and are compared with it alone.
pub fn openssl() -> Backend {
    &openssl_evp::OpenSsl
}

/// A backend by its name.
pub fn by_name(name: &str) -> Option<Backend> {
    all().iter().copied().find(|b| b.name() == name)
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unsupported(pub String);

/// Opening failed: the tag did not verify or the input was malformed.
/// Deliberately carries nothing (crypto failures stay opaque).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejected;

/// One message to seal, its output already split: `ct` is as long as `msg`
/// and `tag` as long as the sealer's tag; the nonce has the sealer's length.
pub struct Sealing<'a> {
    /// The nonce.
    pub nonce: &'a [u8],
    /// Associated data.
    pub aad: &'a [u8],
    /// The plaintext.
    pub msg: &'a [u8],
    /// Where the ciphertext goes.
    pub ct: &'a mut [u8],
    /// Where the tag goes.
    pub tag: &'a mut [u8],
}

/// One message to open, its input already split: `out` is as long as `ct`,
/// `tag` is the sealer's tag length and the nonce has the sealer's length.
pub struct Opening<'a> {
    /// The nonce.
    pub nonce: &'a [u8],
    /// Associated data.
    pub aad: &'a [u8],
    /// The ciphertext.
    pub ct: &'a [u8],
    /// The tag to verify.
    pub tag: &'a [u8],
    /// Where the plaintext goes.
    pub out: &'a mut [u8],
}

/// A backend's keyed AEAD: the library calls on buffers whose lengths the
/// [`Sealer`] around it has checked.
pub trait Keyed: Send {
    /// Seals one message into its ciphertext and tag.
    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected>;
    /// Opens one message; `Err` when authentication fails.
    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected>;
    /// Whether the library can seal and open an empty message, and if not
    /// why (OpenSSL 3.0's AES-SIV); checks skip that length with the reason.
    fn empty_message(&self) -> Result<(), Unsupported> {
        Ok(())
    }
}

/// A keyed AEAD instance: a backend's [`Keyed`] with the nonce and tag
/// lengths it was built for, which every call is checked against here,
/// once for all backends.
pub struct Sealer {
    nonce_len: usize,
    tag_len: usize,
    keyed: Box<dyn Keyed>,
}

impl Sealer {
    /// `keyed`, built for `params`' nonce and tag lengths.
    pub fn new(params: &Params<'_>, keyed: Box<dyn Keyed>) -> Self {
        Sealer {
            nonce_len: params.nonce_len,
            tag_len: params.tag_len,
            keyed,
        }
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len
    }

    /// Whether an empty message can be sealed, and if not why.
    pub fn empty_message(&self) -> Result<(), Unsupported> {
        self.keyed.empty_message()
    }

    /// The same lengths around another [`Keyed`] (tests wrap backends).
    #[cfg(test)]
    pub(crate) fn map_keyed(self, wrap: impl FnOnce(Box<dyn Keyed>) -> Box<dyn Keyed>) -> Self {
        Sealer {
            keyed: wrap(self.keyed),
            ..self
        }
    }

    /// Seals `msg`: writes `ciphertext || tag` into `out`, whose length
    /// must be `msg.len() + tag_len()`.
    pub fn seal(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected> {
        if nonce.len() != self.nonce_len || out.len() != msg.len() + self.tag_len {
            return Err(Rejected);
        }
        let (ct, tag) = out.split_at_mut(msg.len());
        self.keyed.seal_detached(Sealing {
            nonce,
            aad,
            msg,
            ct,
            tag,
        })
    }

    /// Opens `sealed = ciphertext || tag` into `out` (length
    /// `sealed.len() - tag_len()`); `Err` when authentication fails.
    pub fn open(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected> {
        if nonce.len() != self.nonce_len {
            return Err(Rejected);
        }
        let (ct, tag) = split_sealed(sealed, out, self.tag_len)?;
        self.keyed.open_detached(Opening {
            nonce,
            aad,
            ct,
            tag,
            out,
        })
    }
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
fn split_sealed<'a>(
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
pub fn seal_vec(s: &mut Sealer, nonce: &[u8], aad: &[u8], msg: &[u8]) -> Result<Vec<u8>, Rejected> {
    let mut out = vec![0u8; msg.len() + s.tag_len()];
    s.seal(nonce, aad, msg, &mut out)?;
    Ok(out)
}

/// Opens into a fresh vector (checks and tests; never in a timed loop).
pub fn open_vec(
    s: &mut Sealer,
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
