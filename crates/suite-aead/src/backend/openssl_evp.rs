//! OpenSSL through `EVP_CIPHER_CTX` (the `openssl` crate's `cipher_ctx`).
//!
//! Two contexts are keyed once when the sealer is built, one for sealing and
//! one for opening; each message then only re-initialises the nonce, which
//! is what an application that keeps its context does and what
//! `openssl speed -evp` measures. CCM needs the message length before the
//! data and verifies inside the update call; GCM, OCB and ChaCha20-Poly1305
//! verify in the final call.

use super::{split_sealed, Params, Rejected, Sealer, Unsupported};
use crate::algorithms::{Algorithm, Family};
use openssl::cipher::{Cipher, CipherRef};
use openssl::cipher_ctx::CipherCtx;

/// What OpenSSL offers; AES-GCM-SIV is looked up at run time (3.2+).
pub(super) fn offers(alg: &Algorithm) -> Option<Result<(), String>> {
    match alg.family {
        Family::Gcm | Family::Ccm | Family::Ocb | Family::ChaChaIetf => Some(Ok(())),
        Family::GcmSiv => Some(fetch_gcm_siv(alg).map(|_| ())),
        Family::XChaCha => Some(Err(format!(
            "{} has no XChaCha20-Poly1305",
            cryptobench_backends::openssl_lib::version()
        ))),
        Family::ChaChaOriginal => Some(Err(
            "OpenSSL implements only the IETF ChaCha20-Poly1305 (96-bit nonce)".into(),
        )),
        Family::Aegis128L | Family::Aegis256 => Some(Err(format!(
            "{} has no AEGIS",
            cryptobench_backends::openssl_lib::version()
        ))),
        _ => None,
    }
}

/// AES-GCM-SIV arrived in OpenSSL 3.2; on older versions the fetch fails.
fn fetch_gcm_siv(alg: &Algorithm) -> Result<Cipher, String> {
    let name = if alg.key_len == 16 {
        "AES-128-GCM-SIV"
    } else {
        "AES-256-GCM-SIV"
    };
    Cipher::fetch(None, name, None).map_err(|_| {
        format!(
            "AES-GCM-SIV needs OpenSSL 3.2 or later; this is {}",
            cryptobench_backends::openssl_lib::version()
        )
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
        (Family::GcmSiv, _) => {
            return fetch_gcm_siv(alg)
                .map(CipherHandle::Fetched)
                .map_err(Unsupported)
        }
        _ => return Err(Unsupported(format!("OpenSSL has no {}", alg.name))),
    };
    Ok(CipherHandle::Static(c))
}

pub(super) fn build(alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Sealer>, Unsupported> {
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
    let seal_ctx = keyed_context(alg, &cipher, p, true).map_err(Unsupported)?;
    Ok(Box::new(EvpSealer {
        seal_ctx,
        open_ctx: None,
        key: p.key.to_vec(),
        alg: *alg,
        ccm: family == Family::Ccm,
        nonce_len: p.nonce_len,
        tag_len: p.tag_len,
        cipher,
    }))
}

/// A context for one direction with the cipher, sizes and key set.
fn keyed_context(
    alg: &Algorithm,
    cipher: &CipherHandle,
    p: &Params<'_>,
    encrypt: bool,
) -> Result<CipherCtx, String> {
    let reject = |what: &str| format!("OpenSSL {} rejects {what}", alg.name);
    let mut ctx = CipherCtx::new().map_err(|_| reject("a new context"))?;
    if encrypt {
        ctx.encrypt_init(Some(cipher.get()), None, None)
    } else {
        ctx.decrypt_init(Some(cipher.get()), None, None)
    }
    .map_err(|_| reject("the cipher"))?;
    if p.nonce_len != ctx.iv_length() {
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

struct EvpSealer {
    seal_ctx: CipherCtx,
    open_ctx: Option<CipherCtx>,
    key: Vec<u8>,
    alg: Algorithm,
    ccm: bool,
    nonce_len: usize,
    tag_len: usize,
    // Keeps a fetched cipher alive as long as the contexts using it.
    cipher: CipherHandle,
}

// SAFETY: the contexts are owned exclusively by this sealer and OpenSSL
// contexts may move between threads; a fetched EVP_CIPHER is reference
// counted and immutable.
unsafe impl Send for CipherHandle {}

/// Feeds `input` through `ctx` into `out` (exactly `input.len()` bytes).
fn update_exact(ctx: &mut CipherCtx, input: &[u8], out: &mut [u8]) -> Result<usize, Rejected> {
    debug_assert_eq!(input.len(), out.len());
    // SAFETY: `out` is as long as `input`. A single update after
    // (re)initialisation never writes more than its input: GCM, CCM and
    // ChaCha20-Poly1305 are stream modes, and OCB only holds back a partial
    // block that the final call writes.
    unsafe { ctx.cipher_update_unchecked(input, Some(out)) }.map_err(|_| Rejected)
}

/// Runs the final call and places what it writes (OCB's held-back partial
/// block) after the `written` bytes of `out`, which must then be full.
fn finish(ctx: &mut CipherCtx, out: &mut [u8], written: usize) -> Result<(), Rejected> {
    // The final call may write up to one block; a block-sized scratch
    // keeps the crate's length assertion satisfied for every mode.
    let mut tail = [0u8; 32];
    let finished = ctx.cipher_final(&mut tail).map_err(|_| Rejected)?;
    let rest = out.get_mut(written..).ok_or(Rejected)?;
    if rest.len() != finished {
        return Err(Rejected);
    }
    rest.copy_from_slice(&tail[..finished]);
    Ok(())
}

impl Sealer for EvpSealer {
    fn tag_len(&self) -> usize {
        self.tag_len
    }

    fn seal(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        msg: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected> {
        if nonce.len() != self.nonce_len || out.len() != msg.len() + self.tag_len {
            return Err(Rejected);
        }
        let ctx = &mut self.seal_ctx;
        ctx.encrypt_init(None, None, Some(nonce))
            .map_err(|_| Rejected)?;
        if self.ccm {
            ctx.set_data_len(msg.len()).map_err(|_| Rejected)?;
        }
        if !aad.is_empty() {
            ctx.cipher_update(aad, None).map_err(|_| Rejected)?;
        }
        let (ct, tag) = out.split_at_mut(msg.len());
        let written = update_exact(ctx, msg, ct)?;
        finish(ctx, ct, written)?;
        ctx.tag(tag).map_err(|_| Rejected)
    }

    fn open(
        &mut self,
        nonce: &[u8],
        aad: &[u8],
        sealed: &[u8],
        out: &mut [u8],
    ) -> Result<(), Rejected> {
        let (ct, tag) = split_sealed(sealed, out, self.tag_len)?;
        if nonce.len() != self.nonce_len {
            return Err(Rejected);
        }
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
        ctx.decrypt_init(None, None, Some(nonce))
            .map_err(|_| Rejected)?;
        ctx.set_tag(tag).map_err(|_| Rejected)?;
        if self.ccm {
            ctx.set_data_len(ct.len()).map_err(|_| Rejected)?;
        }
        if !aad.is_empty() {
            ctx.cipher_update(aad, None).map_err(|_| Rejected)?;
        }
        // CCM verifies here and has nothing to finalise.
        let written = update_exact(ctx, ct, out)?;
        if self.ccm {
            return if written == ct.len() {
                Ok(())
            } else {
                Err(Rejected)
            };
        }
        finish(ctx, out, written)
    }
}
