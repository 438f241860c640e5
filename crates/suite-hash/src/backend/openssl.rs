//! OpenSSL's EVP digests through the `openssl` crate.

use super::{DigestBackend, Digester};
use crate::Algorithm;
use cryptobench_core::{CaseError, Offer};
use openssl::md::Md;
use openssl::md_ctx::MdCtx;

/// OpenSSL EVP (the one type every suite's OpenSSL backend shares).
pub(super) use cryptobench_suite_common::openssl_lib::OpenSsl;

impl DigestBackend for OpenSsl {
    /// Every algorithm has an OpenSSL name; a provider without it is found
    /// out when the case is built (and reported as skipped).
    fn offers(&self, _alg: &Algorithm) -> Offer {
        Offer::Runs
    }

    fn build(&self, alg: &Algorithm) -> Result<Box<dyn Digester>, CaseError> {
        // Fetch the EVP_MD once, as `openssl speed` does: with OpenSSL 3 an
        // un-fetched digest (EVP_sha256()) is fetched again on every
        // init, which costs more than hashing a short message.
        let md = Md::fetch(None, alg.openssl_fetch, None)
            .map_err(|e| CaseError::Skipped(format!("this OpenSSL has no {}: {e}", alg.name)))?;
        let ctx = MdCtx::new().map_err(|e| CaseError::Failed(e.to_string()))?;
        Ok(Box::new(EvpDigest { ctx, md }))
    }
}

/// An EVP_MD_CTX with its EVP_MD.
struct EvpDigest {
    ctx: MdCtx,
    md: Md,
}

impl Digester for EvpDigest {
    fn digest(&mut self, data: &[u8]) -> Vec<u8> {
        // These calls fail only on allocation or provider errors, which
        // the known-answer check exposes before anything is timed.
        let mut out = vec![0u8; self.md.size()];
        self.ctx.digest_init(&self.md).expect("EVP_DigestInit_ex");
        self.ctx.digest_update(data).expect("EVP_DigestUpdate");
        self.ctx.digest_final(&mut out).expect("EVP_DigestFinal_ex");
        out
    }
}
