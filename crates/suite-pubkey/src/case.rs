//! What is timed, per operation (the timed region is `run_batch`):
//!
//! - `keygen`: generate a key pair and encode its public key (what goes on
//!   the wire; some libraries compute it lazily).
//! - `encaps`: encapsulate to a parsed public key (the TLS server's side of
//!   a KEM share); `decaps`: decapsulate one ciphertext with a parsed key.
//! - `derive`: the shared secret with a peer share parsed beforehand, as
//!   `openssl speed` prepares its derive context once.
//! - `sign`: sign the 130-byte TLS 1.3 CertificateVerify content (hashing
//!   included); `verify`: verify that signature with a parsed key.
//! - `sign-digest`: sign that content's ready digest, with no hashing: what
//!   `openssl speed` times for RSA and ECDSA, so the fidelity ratio compares
//!   the same work. Planned only beside that peer; its signature must
//!   verify over the message before it is timed.
//!
//! Randomness each library draws for itself (coins, nonces, blinding) is
//! inside; key parsing and the checks are outside.

use crate::algorithms::{
    Algorithm, Kind, DECAPS, DERIVE, ENCAPS, KEYGEN, SIGN, SIGN_DIGEST, VERIFY,
};
use crate::checks::{self, CheckCache};
use crate::engines::{
    self, AgreementSecret, Kem, KemPublic, KemSecret, KeyAgreement, Signer, SigningKey,
    VerifyingKey,
};
use crate::error::PkError;
use cryptobench_core::{Case, CaseError, CheckResult};
use std::hint::black_box;
use std::sync::Arc;

/// One prepared operation.
enum Prepared {
    KemKeygen(Box<dyn Kem>),
    Encaps(Box<dyn KemPublic>),
    Decaps(Box<dyn KemSecret>, Vec<u8>),
    AgreementKeygen(Box<dyn KeyAgreement>),
    Derive(Box<dyn AgreementSecret>),
    SignKeygen(Box<dyn Signer>),
    Sign(Box<dyn SigningKey>, Vec<u8>),
    /// The key, the message's digest.
    SignDigest(Box<dyn SigningKey>, Vec<u8>),
    Verify(Box<dyn VerifyingKey>, Vec<u8>, Vec<u8>),
}

/// A timed pubkey case.
pub struct PubkeyCase {
    alg: &'static Algorithm,
    backend: String,
    prepared: Prepared,
    cache: Arc<CheckCache>,
    /// Checks of this operation alone (the cache holds the algorithm's).
    own_checks: Vec<CheckResult>,
}

fn failed(e: PkError) -> CaseError {
    match e {
        PkError::Unavailable(why) => CaseError::Unavailable(why),
        other => CaseError::Failed(other.to_string()),
    }
}

/// The registry entry of `alg` on `backend` for a KEM.
pub fn kem_entry(alg: &Algorithm, backend: &str) -> Option<Box<dyn Kem>> {
    engines::kems()
        .into_iter()
        .find(|e| e.algorithm().name == alg.name && e.backend() == backend)
}

/// The registry entry for a key agreement.
pub fn agreement_entry(alg: &Algorithm, backend: &str) -> Option<Box<dyn KeyAgreement>> {
    engines::agreements()
        .into_iter()
        .find(|e| e.algorithm().name == alg.name && e.backend() == backend)
}

/// The registry entry for a signature.
pub fn signer_entry(alg: &Algorithm, backend: &str) -> Option<Box<dyn Signer>> {
    engines::signers()
        .into_iter()
        .find(|e| e.algorithm().name == alg.name && e.backend() == backend)
}

impl PubkeyCase {
    /// Builds the case: keys made and parsed, nothing timed yet.
    pub fn new(
        alg: &'static Algorithm,
        backend: &str,
        operation: &str,
        cache: Arc<CheckCache>,
    ) -> Result<Self, CaseError> {
        let gone = || CaseError::Unavailable(format!("{backend} has no {}", alg.name));
        let mut own_checks = Vec::new();
        let prepared = match (alg.kind, operation) {
            (Kind::Kem, KEYGEN) => Prepared::KemKeygen(kem_entry(alg, backend).ok_or_else(gone)?),
            (Kind::Kem, ENCAPS) => {
                let e = kem_entry(alg, backend).ok_or_else(gone)?;
                let key = e.generate().map_err(failed)?;
                Prepared::Encaps(e.import_public(&key.public_key()).map_err(failed)?)
            }
            (Kind::Kem, DECAPS) => {
                let e = kem_entry(alg, backend).ok_or_else(gone)?;
                let key = e.generate().map_err(failed)?;
                let (ct, _) = e
                    .import_public(&key.public_key())
                    .and_then(|p| p.encaps())
                    .map_err(failed)?;
                Prepared::Decaps(key, ct)
            }
            (Kind::Agreement, KEYGEN) => {
                Prepared::AgreementKeygen(agreement_entry(alg, backend).ok_or_else(gone)?)
            }
            (Kind::Agreement, DERIVE) => {
                let e = agreement_entry(alg, backend).ok_or_else(gone)?;
                let peer = e.generate().map_err(failed)?;
                let mut ours = e.generate().map_err(failed)?;
                ours.prepare_peer(&peer.public_key()).map_err(failed)?;
                Prepared::Derive(ours)
            }
            (Kind::Signature, KEYGEN) => {
                Prepared::SignKeygen(signer_entry(alg, backend).ok_or_else(gone)?)
            }
            (Kind::Signature, SIGN) => {
                let e = signer_entry(alg, backend).ok_or_else(gone)?;
                Prepared::Sign(
                    checks::signing_key(e.as_ref()).map_err(failed)?,
                    checks::message(),
                )
            }
            (Kind::Signature, SIGN_DIGEST) => {
                let e = signer_entry(alg, backend).ok_or_else(gone)?;
                let key = checks::signing_key(e.as_ref()).map_err(failed)?;
                let digest = key.prehash(&checks::message()).map_err(failed)?;
                own_checks.push(prehashed_verifies(e.as_ref(), key.as_ref(), &digest));
                Prepared::SignDigest(key, digest)
            }
            (Kind::Signature, VERIFY) => {
                let e = signer_entry(alg, backend).ok_or_else(gone)?;
                let key = checks::signing_key(e.as_ref()).map_err(failed)?;
                let msg = checks::message();
                let sig = key.sign(&msg).map_err(failed)?;
                let public = key.public_key().map_err(failed)?;
                Prepared::Verify(e.import_public(&public).map_err(failed)?, msg, sig)
            }
            (_, op) => {
                return Err(CaseError::Skipped(format!(
                    "{} has no operation {op}",
                    alg.name
                )))
            }
        };
        Ok(Self {
            alg,
            backend: backend.to_string(),
            prepared,
            cache,
            own_checks,
        })
    }
}

/// A signature of the message's ready digest verifies over the message, on
/// the same backend, and is rejected for another message.
fn prehashed_verifies(e: &dyn Signer, key: &dyn SigningKey, digest: &[u8]) -> CheckResult {
    const NAME: &str = "prehashed";
    let outcome = (|| {
        let sig = key.sign_prehashed(digest)?;
        let verifier = e.import_public(&key.public_key()?)?;
        let mut other = checks::message();
        other[0] ^= 1;
        Ok::<_, PkError>((
            verifier.verify(&checks::message(), &sig)?,
            verifier.verify(&other, &sig)?,
        ))
    })();
    match outcome {
        Ok((true, false)) => CheckResult::pass(
            NAME,
            "a signature of the ready digest verifies over the message, not over another",
        ),
        Ok((valid, forged)) => CheckResult::fail(
            NAME,
            format!("signature of the ready digest: verifies {valid}, verifies another message {forged}"),
        ),
        Err(e) => CheckResult::fail(NAME, e.to_string()),
    }
}

impl Case for PubkeyCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut all = self.cache.get(self.alg, &self.backend).as_ref().clone();
        all.extend(self.own_checks.iter().cloned());
        all
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        match &mut self.prepared {
            Prepared::KemKeygen(e) => repeat(iters, || e.generate().map(|k| k.public_key())),
            Prepared::Encaps(p) => repeat(iters, || p.encaps()),
            Prepared::Decaps(k, ct) => repeat(iters, || k.decaps(black_box(ct))),
            Prepared::AgreementKeygen(e) => repeat(iters, || e.generate().map(|k| k.public_key())),
            Prepared::Derive(k) => repeat(iters, || k.derive_prepared()),
            Prepared::SignKeygen(e) => repeat(iters, || e.generate().and_then(|k| k.public_key())),
            Prepared::Sign(k, msg) => repeat(iters, || k.sign(black_box(msg))),
            Prepared::SignDigest(k, digest) => {
                repeat(iters, || k.sign_prehashed(black_box(digest)))
            }
            Prepared::Verify(k, msg, sig) => {
                for _ in 0..iters {
                    if !k.verify(black_box(msg), black_box(sig)).map_err(failed)? {
                        return Err(CaseError::Failed("a valid signature was rejected".into()));
                    }
                }
                Ok(())
            }
        }
    }
}

/// Runs the timed operation `iters` times, keeping each result alive so
/// the optimiser cannot drop the work.
fn repeat<T>(iters: u64, mut op: impl FnMut() -> Result<T, PkError>) -> Result<(), CaseError> {
    for _ in 0..iters {
        black_box(op().map_err(failed)?);
    }
    Ok(())
}
