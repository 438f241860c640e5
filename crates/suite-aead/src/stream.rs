//! The `openssl speed -evp` loop, reproduced in-process, for the fidelity
//! comparison.
//!
//! Without `-aead`, `openssl speed -evp aes-256-gcm` keys one context, sets
//! one IV and then calls `EVP_EncryptUpdate` on the same buffer over and
//! over: no per-message nonce, no tag. The `encrypt` cases seal whole
//! messages, so they do more work per call. This case does exactly what the
//! peer does (operation `stream`), so "stream / peer" isolates the harness
//! (target >= 0.97) while "encrypt / peer" shows what a real message costs.

use crate::algorithms::Algorithm;
use crate::checks::{CheckCache, Rng};
use cryptobench_core::{Case, CaseError, CheckResult};
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use std::hint::black_box;
use std::sync::Arc;

/// Operation name of the streaming case.
pub const STREAM: &str = "stream";

/// Repeated `EVP_EncryptUpdate` on one buffer, as `openssl speed -evp`.
pub struct StreamCase {
    alg: &'static Algorithm,
    ctx: CipherCtx,
    buf: Vec<u8>,
    checks: Arc<CheckCache>,
}

impl StreamCase {
    /// Keys a context for `alg` (AES-256-GCM or ChaCha20-Poly1305) and
    /// allocates a `size`-byte buffer.
    pub fn new(
        alg: &'static Algorithm,
        size: usize,
        checks: Arc<CheckCache>,
    ) -> Result<Self, CaseError> {
        let cipher = match alg.name {
            "AES-256-GCM" => Cipher::aes_256_gcm(),
            "ChaCha20-Poly1305" => Cipher::chacha20_poly1305(),
            other => return Err(CaseError::Skipped(format!("no streaming case for {other}"))),
        };
        let mut rng = Rng::new(size as u64);
        let key = rng.bytes(alg.key_len);
        let iv = rng.bytes(alg.nonce_len);
        let mut ctx = CipherCtx::new().map_err(|e| CaseError::Failed(e.to_string()))?;
        ctx.encrypt_init(Some(cipher), Some(&key), Some(&iv))
            .map_err(|e| CaseError::Failed(e.to_string()))?;
        Ok(Self {
            alg,
            ctx,
            buf: rng.bytes(size),
            checks,
        })
    }
}

impl Case for StreamCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.get(self.alg, crate::backend::openssl(), 16, 0)
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        let len = self.buf.len();
        for _ in 0..iters {
            self.ctx
                .cipher_update_inplace(black_box(&mut self.buf), len)
                .map_err(|_| CaseError::Failed("EVP_EncryptUpdate failed".into()))?;
        }
        black_box(&mut self.buf);
        Ok(())
    }
}
