//! libsodium 1.0.22 (vendored by `libsodium-sys-stable`), the library of
//! seed 003's table: `aes256gcm`, `chacha20poly1305` (original),
//! `chacha20poly1305_ietf`, `xchacha20poly1305_ietf`, `aegis128l`, `aegis256`.
//!
//! The detached functions are used so the tag lands right after the
//! ciphertext without a copy. AES-256-GCM keeps its expanded key in
//! `crypto_aead_aes256gcm_state` (the `beforenm`/`afternm` API), the others
//! have no key schedule to keep. libsodium's AEGIS has 256-bit tags only,
//! and its AES-256-GCM exists only on CPUs with AES-NI and PCLMUL.

use super::{zero_ok, AeadBackend, Keyed, Opening, Params, Rejected, Sealing, Unsupported};
use crate::algorithms::{Algorithm, Family};
use cryptobench_core::{Availability, Library, Offer};
use libsodium_sys as ffi;

/// libsodium's detached encryption; `K` is what it takes as the key (see
/// [`SodiumKeyed`]).
type EncryptDetached<K> = unsafe extern "C" fn(
    *mut u8,
    *mut u8,
    *mut u64,
    *const u8,
    u64,
    *const u8,
    u64,
    *const u8,
    *const u8,
    *const K,
) -> i32;
/// libsodium's detached decryption.
type DecryptDetached<K> = unsafe extern "C" fn(
    *mut u8,
    *mut u8,
    *const u8,
    u64,
    *const u8,
    *const u8,
    u64,
    *const u8,
    *const K,
) -> i32;

/// Whether libsodium says its AES-256-GCM can run on this CPU.
pub(crate) fn aes256gcm_available() -> bool {
    if cryptobench_suite_common::sodium::init().is_err() {
        return false;
    }
    // SAFETY: a pure query, valid after sodium_init.
    unsafe { ffi::crypto_aead_aes256gcm_is_available() == 1 }
}

/// Vendored libsodium.
pub(super) use cryptobench_suite_common::sodium::Sodium;

impl AeadBackend for Sodium {
    fn offers(&self, alg: &Algorithm) -> Offer {
        if let Availability::Unavailable(reason) = self.availability() {
            return Offer::Unavailable(reason);
        }
        match alg.family {
            Family::Gcm if alg.key_len == 32 => {
                if aes256gcm_available() {
                    Offer::Runs
                } else {
                    Offer::Unavailable(
                        "libsodium's AES-256-GCM needs AES-NI and PCLMUL \
                         (crypto_aead_aes256gcm_is_available() = 0)"
                            .into(),
                    )
                }
            }
            Family::ChaChaIetf | Family::ChaChaOriginal | Family::XChaCha => Offer::Runs,
            Family::Aegis128L | Family::Aegis256 => Offer::Runs,
            _ => Offer::NotOffered,
        }
    }

    fn keyed(&self, alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported> {
        let (nonce_len, tag_len) = match alg.family {
            Family::Gcm => (12, 16),
            Family::ChaChaIetf => (12, 16),
            Family::ChaChaOriginal => (8, 16),
            Family::XChaCha => (24, 16),
            Family::Aegis128L => (16, 32),
            Family::Aegis256 => (32, 32),
            _ => return Err(Unsupported(format!("libsodium has no {}", alg.name))),
        };
        if p.nonce_len != nonce_len {
            return Err(Unsupported(format!(
                "libsodium's {} takes {nonce_len}-byte nonces only",
                alg.name
            )));
        }
        if p.tag_len != tag_len {
            return Err(Unsupported(format!(
                "libsodium's {} has {}-bit tags only",
                alg.name,
                tag_len * 8
            )));
        }
        if alg.family == Family::Gcm {
            // Expanded where it will stay (the state is used in place).
            let mut key: Box<[ffi::crypto_aead_aes256gcm_state]> =
                Box::new([ffi::crypto_aead_aes256gcm_state { opaque: [0; 512] }]);
            // SAFETY: the state is a properly aligned, owned buffer and the key is
            // 32 bytes (checked by backend::build).
            let rc = unsafe { ffi::crypto_aead_aes256gcm_beforenm(&mut key[0], p.key.as_ptr()) };
            if rc != 0 {
                return Err(Unsupported("libsodium AES-256-GCM key setup failed".into()));
            }
            return Ok(Box::new(SodiumKeyed {
                key,
                encrypt: ffi::crypto_aead_aes256gcm_encrypt_detached_afternm,
                decrypt: ffi::crypto_aead_aes256gcm_decrypt_detached_afternm,
            }));
        }
        let (encrypt, decrypt): (EncryptDetached<u8>, DecryptDetached<u8>) = match alg.family {
            Family::ChaChaIetf => (
                ffi::crypto_aead_chacha20poly1305_ietf_encrypt_detached,
                ffi::crypto_aead_chacha20poly1305_ietf_decrypt_detached,
            ),
            Family::ChaChaOriginal => (
                ffi::crypto_aead_chacha20poly1305_encrypt_detached,
                ffi::crypto_aead_chacha20poly1305_decrypt_detached,
            ),
            Family::XChaCha => (
                ffi::crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
                ffi::crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
            ),
            Family::Aegis128L => (
                ffi::crypto_aead_aegis128l_encrypt_detached,
                ffi::crypto_aead_aegis128l_decrypt_detached,
            ),
            _ => (
                ffi::crypto_aead_aegis256_encrypt_detached,
                ffi::crypto_aead_aegis256_decrypt_detached,
            ),
        };
        Ok(Box::new(SodiumKeyed {
            key: p.key.into(),
            encrypt,
            decrypt,
        }))
    }
}

/// One libsodium AEAD through its detached functions. `key` is what they
/// take as the key: the raw key bytes, or for AES-256-GCM its one expanded
/// state (`beforenm`), so that sealing repeats no key schedule.
struct SodiumKeyed<K> {
    key: Box<[K]>,
    encrypt: EncryptDetached<K>,
    decrypt: DecryptDetached<K>,
}

impl<K: Send> Keyed for SodiumKeyed<K> {
    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
        let mut tag_written = 0u64;
        // SAFETY: every pointer covers the length passed with it; the nonce
        // and key lengths are the algorithm's (checked by `seal` and at build).
        let rc = unsafe {
            (self.encrypt)(
                m.ct.as_mut_ptr(),
                m.tag.as_mut_ptr(),
                &mut tag_written,
                m.msg.as_ptr(),
                m.msg.len() as u64,
                m.aad.as_ptr(),
                m.aad.len() as u64,
                std::ptr::null(),
                m.nonce.as_ptr(),
                self.key.as_ptr(),
            )
        };
        if rc == 0 && tag_written as usize == m.tag.len() {
            Ok(())
        } else {
            Err(Rejected)
        }
    }

    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
        // SAFETY: as in `seal_detached`; `out` is exactly as long as `ct`.
        let rc = unsafe {
            (self.decrypt)(
                m.out.as_mut_ptr(),
                std::ptr::null_mut(),
                m.ct.as_ptr(),
                m.ct.len() as u64,
                m.tag.as_ptr(),
                m.aad.as_ptr(),
                m.aad.len() as u64,
                m.nonce.as_ptr(),
                self.key.as_ptr(),
            )
        };
        zero_ok(rc)
    }
}
