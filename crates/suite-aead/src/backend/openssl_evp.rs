//! OpenSSL through `EVP_CIPHER_CTX`.
//!
//! Two contexts are keyed once when the sealer is built (with the `openssl`
//! crate), one for sealing and one for opening; each message then only
//! re-initialises the nonce, which is what an application that keeps its
//! context does and what `openssl speed -evp` measures. CCM needs the
//! message length before the data and verifies inside the update call; GCM,
//! OCB and ChaCha20-Poly1305 verify in the final call.
//!
//! The per-message calls go straight to libcrypto, each one once: nonce
//! (`EVP_EncryptInit_ex`), data (`EVP_EncryptUpdate`), `EVP_EncryptFinal_ex`
//! and the tag read through `EVP_CIPHER_CTX_get_params`. The `openssl`
//! crate reads the tag through `EVP_CIPHER_CTX_ctrl`, which in OpenSSL 3.0
//! only builds an `OSSL_PARAM` array (with SSE copies) and then calls that
//! same function. After ChaCha20-Poly1305 calls the sealer also clears the
//! upper vector state that OpenSSL's Poly1305 code leaves behind
//! ([`super::upper_state`]); `examples/evp_overhead.rs` times both changes.
//!
//! AES-SIV ("AES-128-SIV", "AES-256-SIV", fetched at run time) has no IV:
//! every update with a null output is one S2V component, so the associated
//! data goes in first (even when empty) and the nonce, when there is one,
//! second. OpenSSL's SIV context does one message per key setup, so each
//! message re-keys it (`EVP_EncryptInit_ex` with the key) where the other
//! modes only set a nonce.

use super::{upper_state, AeadBackend, Keyed, Opening, Params, Rejected, Sealing, Unsupported};
use crate::algorithms::{Algorithm, Family};
use cryptobench_core::Offer;
use foreign_types::ForeignTypeRef;
use openssl::cipher::{Cipher, CipherRef};
use openssl::cipher_ctx::CipherCtx;
use openssl_sys as ffi;
use std::ffi::{c_int, c_void};
use std::mem::MaybeUninit;
use std::ptr;

// Declared here because openssl-sys does not bind them (OpenSSL 3.0+).
extern "C" {
    fn EVP_CIPHER_CTX_get_params(
        ctx: *mut ffi::EVP_CIPHER_CTX,
        params: *mut ffi::OSSL_PARAM,
    ) -> c_int;
    fn EVP_CIPHER_CTX_set_params(
        ctx: *mut ffi::EVP_CIPHER_CTX,
        params: *const ffi::OSSL_PARAM,
    ) -> c_int;
}

/// `OSSL_CIPHER_PARAM_AEAD_TAG` ("tag"), NUL-terminated.
const PARAM_TAG: &[u8] = b"tag\0";

/// System OpenSSL through the EVP interface.
pub(super) use cryptobench_suite_common::openssl_lib::OpenSsl;

impl AeadBackend for OpenSsl {
    /// AES-GCM-SIV is looked up at run time (3.2+).
    fn offers(&self, alg: &Algorithm) -> Offer {
        match alg.family {
            Family::Gcm | Family::Ccm | Family::Ocb | Family::ChaChaIetf => Offer::Runs,
            Family::GcmSiv | Family::Siv => match fetch(alg) {
                Ok(_) => Offer::Runs,
                Err(Unsupported(reason)) => Offer::Unavailable(reason),
            },
            Family::XChaCha => Offer::Unavailable(format!(
                "{} has no XChaCha20-Poly1305",
                cryptobench_suite_common::openssl_lib::version()
            )),
            Family::ChaChaOriginal => Offer::Unavailable(
                "OpenSSL implements only the IETF ChaCha20-Poly1305 (96-bit nonce)".into(),
            ),
            Family::Aegis128L | Family::Aegis256 => Offer::Unavailable(format!(
                "{} has no AEGIS",
                cryptobench_suite_common::openssl_lib::version()
            )),
            _ => Offer::NotOffered,
        }
    }

    fn keyed(&self, alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported> {
        let family = alg.family;
        // Tag lengths OpenSSL accepts per mode (its own limits, not the specs').
        let tag_ok = match family {
            Family::Gcm => (1..=16).contains(&p.tag_len),
            Family::Ccm => matches!(p.tag_len, 4 | 6 | 8 | 10 | 12 | 14 | 16),
            Family::Ocb => (1..=16).contains(&p.tag_len),
            _ => p.tag_len == 16,
        };
        if !tag_ok {
            return Err(Unsupported(format!(
                "OpenSSL's {} does not take {}-byte tags",
                alg.name, p.tag_len
            )));
        }
        let cipher = cipher_for(alg)?;
        // The sealing context is keyed now (it also proves the sizes are
        // accepted); the opening one on first use, so that a sealer built per
        // message (`--per-message-init`) pays for one key schedule, not two.
        let seal_ctx = keyed_context(alg, &cipher, p, true)?;
        Ok(Box::new(EvpKeyed {
            seal_ctx,
            open_ctx: None,
            key: p.key.to_vec(),
            alg: *alg,
            ccm: family == Family::Ccm,
            siv: family == Family::Siv,
            clear_upper: family == Family::ChaChaIetf && upper_state::available(),
            nonce_len: p.nonce_len,
            tag_len: p.tag_len,
            cipher,
        }))
    }
}

/// The modes OpenSSL offers only by a provider fetch, with the release
/// that added them: AES-GCM-SIV (3.2) and AES-SIV (3.0, its key is two AES
/// keys). On an older OpenSSL the fetch fails.
fn fetch(alg: &Algorithm) -> Result<Cipher, Unsupported> {
    let (mode, since, name) = match (alg.family, alg.key_len) {
        (Family::GcmSiv, 16) => ("AES-GCM-SIV", "3.2", "AES-128-GCM-SIV"),
        (Family::GcmSiv, _) => ("AES-GCM-SIV", "3.2", "AES-256-GCM-SIV"),
        (Family::Siv, 32) => ("AES-SIV", "3.0", "AES-128-SIV"),
        (Family::Siv, _) => ("AES-SIV", "3.0", "AES-256-SIV"),
        _ => return Err(Unsupported(format!("OpenSSL has no {}", alg.name))),
    };
    Cipher::fetch(None, name, None).map_err(|_| {
        Unsupported(format!(
            "{mode} needs OpenSSL {since} or later; this is {}",
            cryptobench_suite_common::openssl_lib::version()
        ))
    })
}

enum CipherHandle {
    Static(&'static CipherRef),
    Fetched(Cipher),
}

impl CipherHandle {
    fn get(&self) -> &CipherRef {
        match self {
            CipherHandle::Static(c) => c,
            CipherHandle::Fetched(c) => c,
        }
    }
}

fn cipher_for(alg: &Algorithm) -> Result<CipherHandle, Unsupported> {
    let c = match (alg.family, alg.key_len) {
        (Family::Gcm, 16) => Cipher::aes_128_gcm(),
        (Family::Gcm, 24) => Cipher::aes_192_gcm(),
        (Family::Gcm, 32) => Cipher::aes_256_gcm(),
        (Family::Ccm, 16) => Cipher::aes_128_ccm(),
        (Family::Ccm, 24) => Cipher::aes_192_ccm(),
        (Family::Ccm, 32) => Cipher::aes_256_ccm(),
        (Family::Ocb, 16) => Cipher::aes_128_ocb(),
        (Family::Ocb, 24) => Cipher::aes_192_ocb(),
        (Family::Ocb, 32) => Cipher::aes_256_ocb(),
        (Family::ChaChaIetf, 32) => Cipher::chacha20_poly1305(),
        (Family::GcmSiv | Family::Siv, _) => return fetch(alg).map(CipherHandle::Fetched),
        _ => return Err(Unsupported(format!("OpenSSL has no {}", alg.name))),
    };
    Ok(CipherHandle::Static(c))
}

/// A context for one direction with the cipher, sizes and key set.
fn keyed_context(
    alg: &Algorithm,
    cipher: &CipherHandle,
    p: &Params<'_>,
    encrypt: bool,
) -> Result<CipherCtx, Unsupported> {
    let reject = |what: &str| Unsupported(format!("OpenSSL {} rejects {what}", alg.name));
    let mut ctx = CipherCtx::new().map_err(|_| reject("a new context"))?;
    if encrypt {
        ctx.encrypt_init(Some(cipher.get()), None, None)
    } else {
        ctx.decrypt_init(Some(cipher.get()), None, None)
    }
    .map_err(|_| reject("the cipher"))?;
    // SIV's nonce is an associated-data component, not an IV.
    if alg.family != Family::Siv && p.nonce_len != ctx.iv_length() {
        ctx.set_iv_length(p.nonce_len)
            .map_err(|_| reject(&format!("{}-byte nonces", p.nonce_len)))?;
    }
    if matches!(alg.family, Family::Ccm | Family::Ocb) {
        ctx.set_tag_length(p.tag_len)
            .map_err(|_| reject(&format!("{}-byte tags", p.tag_len)))?;
    }
    if encrypt {
        ctx.encrypt_init(None, Some(p.key), None)
    } else {
        ctx.decrypt_init(None, Some(p.key), None)
    }
    .map_err(|_| reject("the key"))?;
    Ok(ctx)
}

struct EvpKeyed {
    seal_ctx: CipherCtx,
    open_ctx: Option<CipherCtx>,
    key: Vec<u8>,
    alg: Algorithm,
    ccm: bool,
    // Re-keyed per message, nonce as associated data (see the module doc).
    siv: bool,
    // `vzeroupper` after each call (ChaCha20-Poly1305 on AVX CPUs).
    clear_upper: bool,
    nonce_len: usize,
    tag_len: usize,
    // Keeps a fetched cipher alive as long as the contexts using it.
    cipher: CipherHandle,
}

// SAFETY: the contexts are owned exclusively by this sealer and OpenSSL
// contexts may move between threads; a fetched EVP_CIPHER is reference
// counted and immutable.
unsafe impl Send for CipherHandle {}

/// 1 from libcrypto is success; anything else is a rejection.
fn ok(rc: c_int) -> Result<(), Rejected> {
    if rc == 1 {
        Ok(())
    } else {
        Err(Rejected)
    }
}

/// A length as the `int` the EVP calls take.
fn c_len(len: usize) -> Result<c_int, Rejected> {
    c_int::try_from(len).map_err(|_| Rejected)
}

/// The `OSSL_PARAM` array that reads or writes the tag in `tag`.
fn tag_params(tag: *mut u8, len: usize) -> [ffi::OSSL_PARAM; 2] {
    // SAFETY: the constructors only record the pointers; the key is a
    // static NUL-terminated string and `tag` outlives the array's use.
    unsafe {
        [
            ffi::OSSL_PARAM_construct_octet_string(
                PARAM_TAG.as_ptr().cast(),
                tag.cast::<c_void>(),
                len,
            ),
            ffi::OSSL_PARAM_construct_end(),
        ]
    }
}

/// One context's per-message calls. `enc` picks the direction's functions.
struct Evp {
    ctx: *mut ffi::EVP_CIPHER_CTX,
    enc: bool,
    clear_upper: bool,
}

impl Evp {
    fn settle(&self) {
        if self.clear_upper {
            upper_state::clear();
        }
    }

    /// A fresh nonce on the keyed context.
    fn nonce(&self, nonce: &[u8]) -> Result<(), Rejected> {
        let (cipher, engine, key) = (ptr::null(), ptr::null_mut(), ptr::null());
        // SAFETY: the context is keyed and owned by the sealer; the nonce
        // length was set on it when it was keyed and checked by the caller.
        let rc = unsafe {
            if self.enc {
                ffi::EVP_EncryptInit_ex(self.ctx, cipher, engine, key, nonce.as_ptr())
            } else {
                ffi::EVP_DecryptInit_ex(self.ctx, cipher, engine, key, nonce.as_ptr())
            }
        };
        ok(rc)
    }

    /// Re-keys the context, which restarts SIV's S2V for the next message.
    fn rekey(&self, key: &[u8]) -> Result<(), Rejected> {
        let (cipher, engine, iv) = (ptr::null(), ptr::null_mut(), ptr::null());
        // SAFETY: the context has its cipher; `key` has the length the
        // cipher was keyed with when the sealer was built.
        let rc = unsafe {
            if self.enc {
                ffi::EVP_EncryptInit_ex(self.ctx, cipher, engine, key.as_ptr(), iv)
            } else {
                ffi::EVP_DecryptInit_ex(self.ctx, cipher, engine, key.as_ptr(), iv)
            }
        };
        ok(rc)
    }

    /// One update call; `out` null for associated data and CCM's length.
    /// Returns the bytes written.
    ///
    /// # Safety
    /// `out` is null or has room for `in_len` bytes; `input` is null (CCM's
    /// length) or points at `in_len` readable bytes.
    unsafe fn update(
        &self,
        out: *mut u8,
        input: *const u8,
        in_len: usize,
    ) -> Result<usize, Rejected> {
        let mut written: c_int = 0;
        let len = c_len(in_len)?;
        // SAFETY: as the caller promises.
        let rc = unsafe {
            if self.enc {
                ffi::EVP_EncryptUpdate(self.ctx, out, &mut written, input, len)
            } else {
                ffi::EVP_DecryptUpdate(self.ctx, out, &mut written, input, len)
            }
        };
        self.settle();
        ok(rc)?;
        usize::try_from(written).map_err(|_| Rejected)
    }

    /// One message's update calls: CCM's length first, then each
    /// associated-data component (hashed, no output), then `input` into
    /// `out`. Returns the bytes written to `out`.
    ///
    /// # Safety
    /// `out` has room for `input.len()` bytes.
    unsafe fn feed<'a>(
        &self,
        ccm: bool,
        components: impl Iterator<Item = &'a [u8]>,
        out: *mut u8,
        input: &[u8],
    ) -> Result<usize, Rejected> {
        // SAFETY: CCM's length call passes no data; the associated data has
        // no output; `out` has room for `input`, as the caller promises.
        unsafe {
            if ccm {
                self.update(ptr::null_mut(), ptr::null(), input.len())?;
            }
            for component in components {
                self.update(ptr::null_mut(), component.as_ptr(), component.len())?;
            }
            self.update(out, input.as_ptr(), input.len())
        }
    }

    /// The final call; what it writes (OCB's held-back partial block) goes
    /// after the `written` bytes of `out`, which must then be full.
    fn finish(&self, out: &mut [u8], written: usize) -> Result<(), Rejected> {
        // Up to one block; uninitialised, as only what OpenSSL writes is read.
        let mut tail = MaybeUninit::<[u8; 32]>::uninit();
        let mut finished: c_int = 0;
        // SAFETY: `tail` has room for the one block a final call may write.
        let rc = unsafe {
            let t = tail.as_mut_ptr().cast::<u8>();
            if self.enc {
                ffi::EVP_EncryptFinal_ex(self.ctx, t, &mut finished)
            } else {
                ffi::EVP_DecryptFinal_ex(self.ctx, t, &mut finished)
            }
        };
        self.settle();
        ok(rc)?;
        let finished = usize::try_from(finished).map_err(|_| Rejected)?;
        let rest = out.get_mut(written..).ok_or(Rejected)?;
        if rest.len() != finished || finished > 32 {
            return Err(Rejected);
        }
        if finished > 0 {
            // SAFETY: OpenSSL wrote `finished` (<= 32) bytes into `tail`.
            let tail = unsafe { std::slice::from_raw_parts(tail.as_ptr().cast::<u8>(), finished) };
            rest.copy_from_slice(tail);
        }
        Ok(())
    }

    /// Reads the tag after the final call (sealing).
    fn read_tag(&self, tag: &mut [u8]) -> Result<(), Rejected> {
        let mut params = tag_params(tag.as_mut_ptr(), tag.len());
        // SAFETY: `params` describes `tag`, which is writable for its length.
        ok(unsafe { EVP_CIPHER_CTX_get_params(self.ctx, params.as_mut_ptr()) })
    }

    /// Sets the expected tag before the data (opening).
    fn expect_tag(&self, tag: &[u8]) -> Result<(), Rejected> {
        // The provider copies the tag and never writes through the pointer.
        let params = tag_params(tag.as_ptr().cast_mut(), tag.len());
        // SAFETY: `params` describes `tag` for its length.
        ok(unsafe { EVP_CIPHER_CTX_set_params(self.ctx, params.as_ptr()) })
    }
}

impl EvpKeyed {
    /// The associated-data updates of one message: SIV's S2V components
    /// (the data even when empty, then a nonce if there is one), or for the
    /// other modes the data when there is any.
    fn components<'a>(&self, aad: &'a [u8], nonce: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
        let siv = self.siv;
        std::iter::once(aad)
            .filter(move |a| siv || !a.is_empty())
            .chain((siv && !nonce.is_empty()).then_some(nonce))
    }

    /// Starts a message: a fresh nonce, or for SIV a fresh key setup.
    fn start(&self, evp: &Evp, nonce: &[u8]) -> Result<(), Rejected> {
        if self.siv {
            evp.rekey(&self.key)
        } else {
            evp.nonce(nonce)
        }
    }

    fn evp(ctx: &mut CipherCtx, enc: bool, clear_upper: bool) -> Evp {
        Evp {
            ctx: ctx.as_ptr(),
            enc,
            clear_upper,
        }
    }
}

/// Whether this OpenSSL's AES-SIV seals an empty message: OpenSSL 3.0's
/// provider skips a zero-length update before S2V runs, so the final call
/// fails. Probed once per process on a throwaway key.
fn siv_takes_empty_message() -> bool {
    static TAKES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TAKES.get_or_init(|| {
        let Ok(cipher) = Cipher::fetch(None, "AES-128-SIV", None) else {
            return false;
        };
        let key = [0u8; 32];
        let mut ctx = match CipherCtx::new() {
            Ok(c) => c,
            Err(_) => return false,
        };
        if ctx.encrypt_init(Some(&cipher), Some(&key), None).is_err() {
            return false;
        }
        let mut out = [0u8; 16];
        ctx.cipher_update(&[], Some(&mut out)).is_ok() && ctx.cipher_final(&mut out).is_ok()
    })
}

impl Keyed for EvpKeyed {
    fn empty_message(&self) -> Result<(), Unsupported> {
        if self.siv && !siv_takes_empty_message() {
            return Err(Unsupported(format!(
                "{}'s AES-SIV cannot seal or open an empty message (its update skips \
                 zero-length input, so no synthetic IV is computed)",
                cryptobench_suite_common::openssl_lib::version()
            )));
        }
        Ok(())
    }

    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
        let evp = Self::evp(&mut self.seal_ctx, true, self.clear_upper);
        self.start(&evp, m.nonce)?;
        let components = self.components(m.aad, m.nonce);
        // SAFETY: `ct` is as long as the message (checked by `seal`).
        let written = unsafe { evp.feed(self.ccm, components, m.ct.as_mut_ptr(), m.msg)? };
        if written > m.ct.len() {
            return Err(Rejected);
        }
        evp.finish(m.ct, written)?;
        evp.read_tag(m.tag)
    }

    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
        if self.open_ctx.is_none() {
            let params = Params {
                key: &self.key,
                nonce_len: self.nonce_len,
                tag_len: self.tag_len,
            };
            let ctx =
                keyed_context(&self.alg, &self.cipher, &params, false).map_err(|_| Rejected)?;
            self.open_ctx = Some(ctx);
        }
        let ctx = self.open_ctx.as_mut().ok_or(Rejected)?;
        let evp = Self::evp(ctx, false, self.clear_upper);
        self.start(&evp, m.nonce)?;
        evp.expect_tag(m.tag)?;
        let components = self.components(m.aad, m.nonce);
        // SAFETY: `out` is as long as the ciphertext (checked by `open`).
        let written = unsafe { evp.feed(self.ccm, components, m.out.as_mut_ptr(), m.ct)? };
        if written > m.out.len() {
            return Err(Rejected);
        }
        // CCM verifies in the update call and has nothing to finalise.
        if self.ccm {
            return if written == m.ct.len() {
                Ok(())
            } else {
                Err(Rejected)
            };
        }
        evp.finish(m.out, written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::by_name;
    use crate::backend::{open_vec, seal_vec, Sealer};
    use openssl::symm::{self, Cipher as SymmCipher};

    /// The `openssl` crate's one-shot API: a reference that goes through
    /// `EVP_CIPHER_CTX_ctrl` for the tag, unlike the sealer. Its CCM path
    /// fails, so CCM is checked against RustCrypto instead.
    fn reference(
        name: &str,
        key: &[u8],
        nonce: &[u8],
        aad: &[u8],
        msg: &[u8],
        tag_len: usize,
    ) -> Vec<u8> {
        let cipher = match name {
            "AES-128-GCM" => SymmCipher::aes_128_gcm(),
            "AES-256-GCM" => SymmCipher::aes_256_gcm(),
            "AES-128-CCM" | "AES-256-CCM" => {
                let alg = by_name(name).unwrap();
                let p = Params {
                    key,
                    nonce_len: nonce.len(),
                    tag_len,
                };
                let mut rc = super::super::rustcrypto::RUST_CRYPTO
                    .build(alg, &p)
                    .unwrap();
                return seal_vec(&mut rc, nonce, aad, msg).unwrap();
            }
            "AES-128-OCB" => SymmCipher::aes_128_ocb(),
            "AES-256-OCB" => SymmCipher::aes_256_ocb(),
            "ChaCha20-Poly1305" => SymmCipher::chacha20_poly1305(),
            other => panic!("no reference for {other}"),
        };
        let mut tag = vec![0u8; tag_len];
        match symm::encrypt_aead(cipher, key, Some(nonce), aad, msg, &mut tag) {
            Ok(mut out) => {
                out.extend_from_slice(&tag);
                out
            }
            Err(e) => panic!("{name}, {} B, tag {tag_len}: {e}", msg.len()),
        }
    }

    /// OpenSSL's sealer for `name` with the algorithm's nonce length.
    fn openssl_sealer(name: &str, key: &[u8], tag_len: usize) -> Sealer {
        let alg = by_name(name).unwrap();
        let p = Params {
            key,
            nonce_len: alg.nonce_len,
            tag_len,
        };
        OpenSsl.build(alg, &p).unwrap()
    }

    #[test]
    fn direct_evp_calls_match_the_crate_and_open_what_they_seal() {
        // Sizes around block and Poly1305 boundaries; OCB holds back the
        // last partial block until the final call.
        let sizes = [0usize, 1, 15, 16, 17, 63, 64, 65, 1000, 16_384, 16_385];
        let cases = [
            ("AES-128-GCM", 16),
            ("AES-256-GCM", 12),
            ("AES-128-CCM", 8),
            ("AES-256-CCM", 16),
            ("AES-128-OCB", 8),
            ("AES-256-OCB", 16),
            ("ChaCha20-Poly1305", 16),
        ];
        for (name, tag_len) in cases {
            let alg = by_name(name).unwrap();
            let key: Vec<u8> = (0..alg.key_len as u8).collect();
            let mut sealer = openssl_sealer(name, &key, tag_len);
            for (i, &size) in sizes.iter().enumerate() {
                let msg: Vec<u8> = (0..size).map(|b| (b * 7 + i) as u8).collect();
                for aad in [&b""[..], b"header"] {
                    let nonce = vec![i as u8 + 1; alg.nonce_len];
                    let sealed = seal_vec(&mut sealer, &nonce, aad, &msg).unwrap();
                    let expected = reference(name, &key, &nonce, aad, &msg, tag_len);
                    assert_eq!(sealed, expected, "{name}, {size} B, aad {}", aad.len());
                    let opened = open_vec(&mut sealer, &nonce, aad, &sealed).unwrap();
                    assert_eq!(opened, msg, "{name}, {size} B");
                    let mut forged = sealed.clone();
                    let last = forged.len() - 1;
                    forged[last] ^= 1;
                    assert_eq!(
                        open_vec(&mut sealer, &nonce, aad, &forged),
                        Err(Rejected),
                        "{name}, {size} B: a flipped tag bit must fail"
                    );
                }
            }
        }
    }

    #[test]
    fn consecutive_messages_on_one_context_stay_independent() {
        // The context is reused and (for ChaCha20-Poly1305) the vector state
        // cleared between calls: message n must not depend on message n-1.
        let chacha = || openssl_sealer("ChaCha20-Poly1305", &[9; 32], 16);
        let mut reused = chacha();
        for n in 0u8..50 {
            let nonce = [n; 12];
            let msg = vec![n; 100 + n as usize * 37];
            let mut fresh = chacha();
            assert_eq!(
                seal_vec(&mut reused, &nonce, b"", &msg).unwrap(),
                seal_vec(&mut fresh, &nonce, b"", &msg).unwrap()
            );
        }
    }

    #[test]
    fn wrong_nonce_and_output_lengths_are_rejected() {
        let mut s = openssl_sealer("AES-256-GCM", &[1; 32], 16);
        let mut out = [0u8; 20];
        assert_eq!(s.seal(&[0; 11], b"", &[0; 4], &mut out), Err(Rejected));
        assert_eq!(s.seal(&[0; 12], b"", &[0; 5], &mut out), Err(Rejected));
        assert!(s.seal(&[0; 12], b"", &[0; 4], &mut out).is_ok());
    }

    /// RFC 5297 A.2 has two associated-data components before its nonce,
    /// which a sealer's single `aad` cannot carry; this checks OpenSSL's
    /// side of the convention the sealer relies on (each null-output update
    /// is one S2V component, the nonce last) against the RFC's output.
    #[test]
    fn openssl_siv_takes_one_component_per_update_as_rfc_5297_a2() {
        use crate::backend::rfc5297_a2::{assert_output, components, key, plaintext};
        let (key, components, pt) = (key(), components(), plaintext());
        let cipher = fetch(by_name("AES-128-SIV").unwrap()).unwrap();
        let mut ctx = CipherCtx::new().unwrap();
        ctx.encrypt_init(Some(&cipher), Some(&key), None).unwrap();
        for c in &components {
            ctx.cipher_update(c, None).unwrap();
        }
        let mut ct = vec![0u8; pt.len() + 16];
        let n = ctx.cipher_update(&pt, Some(&mut ct)).unwrap();
        ctx.cipher_final(&mut ct[n..]).unwrap();
        ct.truncate(pt.len());
        let mut tag = [0u8; 16];
        ctx.tag(&mut tag).unwrap();
        assert_output(&tag, &ct);
    }
}
