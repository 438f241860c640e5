//! The pubkey suite's handshake model, timed as one operation beside the
//! handshakes it predicts.
//!
//! `suite_pubkey::handshake` predicts a server's CPU per handshake as its
//! key-share operations (ECDHE: keygen + derive; a KEM: encaps) plus one
//! CertificateVerify signature. A [`ModelCase`] runs exactly those
//! operations back to back, through the pubkey suite's own registries on
//! aws-lc-rs (the library of the rustls provider it is compared with), so
//! the prediction is measured in the same rounds as the handshake and
//! measured / predicted is a paired ratio. A resumed handshake signs
//! nothing: its prediction is the key share alone.
//!
//! [`SignTail`] times one ML-DSA signature per sample, for the tails of a
//! signature whose rejection sampling makes its time vary per call.

use crate::catalog::{Cert, Group};
use cryptobench_core::{Case, CaseError, CheckResult};
use cryptobench_suite_pubkey::algorithms::{by_name, Algorithm, DERIVE, ENCAPS, KEYGEN};
use cryptobench_suite_pubkey::case::{agreement_entry, kem_entry, signer_entry};
use cryptobench_suite_pubkey::engines::{AgreementSecret, KemPublic, KeyAgreement, SigningKey};
use cryptobench_suite_pubkey::error::PkError;
use cryptobench_suite_pubkey::{checks, handshake};
use std::hint::black_box;

/// The library the model's primitives are timed on.
pub const MODEL_BACKEND: &str = cryptobench_suite_pubkey::backend::awslc::NAME;
/// The library ML-DSA signing is timed on for its tails (aws-lc-rs keeps
/// ML-DSA behind a feature the workspace does not build).
pub const ML_DSA_BACKEND: &str = cryptobench_suite_pubkey::backend::liboqs::NAME;

fn failed(e: PkError) -> CaseError {
    match e {
        PkError::Unavailable(why) => CaseError::Unavailable(why),
        other => CaseError::Failed(other.to_string()),
    }
}

fn algorithm(name: &str) -> Result<&'static Algorithm, CaseError> {
    by_name(name).ok_or_else(|| CaseError::Failed(format!("the pubkey suite has no {name}")))
}

/// One of the server's key-share operations, prepared.
enum Step {
    Keygen(Box<dyn KeyAgreement>),
    Derive(Box<dyn AgreementSecret>),
    Encaps(Box<dyn KemPublic>),
}

/// The model's operations for one row.
pub struct ModelCase {
    steps: Vec<Step>,
    sign: Option<(Box<dyn SigningKey>, Vec<u8>)>,
    checks: Vec<CheckResult>,
}

impl ModelCase {
    /// The model of a server handshake with `group`'s key share and, for a
    /// full handshake, `cert`'s signature.
    pub fn new(group: &Group, cert: Option<&Cert>) -> Result<Self, CaseError> {
        let share = algorithm(group.model_share)?;
        let gone = || CaseError::Unavailable(format!("{MODEL_BACKEND} has no {}", share.name));
        let mut steps = Vec::new();
        let mut checks = Vec::new();
        for &op in handshake::server_ops(share.name) {
            steps.push(match op {
                KEYGEN => Step::Keygen(agreement_entry(share, MODEL_BACKEND).ok_or_else(gone)?),
                DERIVE => {
                    let e = agreement_entry(share, MODEL_BACKEND).ok_or_else(gone)?;
                    let peer = e.generate().map_err(failed)?;
                    let mut ours = e.generate().map_err(failed)?;
                    ours.prepare_peer(&peer.public_key()).map_err(failed)?;
                    let agreed = ours.derive_prepared().map_err(failed)?
                        == peer.derive(&ours.public_key()).map_err(failed)?;
                    checks.push(CheckResult::from_bool(
                        "model key share",
                        agreed,
                        format!(
                            "{} agreement: both sides derive one secret: {agreed}",
                            share.name
                        ),
                    ));
                    Step::Derive(ours)
                }
                ENCAPS => {
                    let e = kem_entry(share, MODEL_BACKEND).ok_or_else(gone)?;
                    let key = e.generate().map_err(failed)?;
                    let public = e.import_public(&key.public_key()).map_err(failed)?;
                    let (ct, secret) = public.encaps().map_err(failed)?;
                    let agreed = key.decaps(&ct).map_err(failed)? == secret;
                    checks.push(CheckResult::from_bool(
                        "model key share",
                        agreed,
                        format!("{} decapsulates its encapsulation: {agreed}", share.name),
                    ));
                    Step::Encaps(public)
                }
                other => {
                    return Err(CaseError::Failed(format!(
                        "the handshake model names an operation the tls suite cannot run: {other}"
                    )))
                }
            });
        }
        let sign = match cert {
            None => None,
            Some(c) => {
                let (key, message, check) = signing(c.model_signature, MODEL_BACKEND)?;
                checks.push(check);
                Some((key, message))
            }
        };
        Ok(Self {
            steps,
            sign,
            checks,
        })
    }
}

/// A parsed signing key, the message it signs, and its check.
type Signing = (Box<dyn SigningKey>, Vec<u8>, CheckResult);

/// A signing key of `signature` on `backend`, the CertificateVerify
/// content it signs, and the check that its signature verifies and a
/// flipped bit does not.
fn signing(signature: &str, backend: &str) -> Result<Signing, CaseError> {
    let alg = algorithm(signature)?;
    let entry = signer_entry(alg, backend)
        .ok_or_else(|| CaseError::Unavailable(format!("{backend} has no {signature}")))?;
    entry.available().map_err(failed)?;
    let key = checks::signing_key(entry.as_ref()).map_err(failed)?;
    let message = checks::message();
    let sig = key.sign(&message).map_err(failed)?;
    let verifier = entry
        .import_public(&key.public_key().map_err(failed)?)
        .map_err(failed)?;
    let mut forged = sig.clone();
    forged[0] ^= 1;
    let valid = verifier.verify(&message, &sig).map_err(failed)?;
    let refused = !verifier.verify(&message, &forged).map_err(failed)?;
    let check = CheckResult::from_bool(
        "signature",
        valid && refused,
        format!("{signature} ({backend}): verifies {valid}, a flipped bit refused {refused}"),
    );
    Ok((key, message, check))
}

impl Case for ModelCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.clone()
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            for step in &mut self.steps {
                match step {
                    Step::Keygen(e) => {
                        black_box(e.generate().map_err(failed)?.public_key());
                    }
                    Step::Derive(k) => {
                        black_box(k.derive_prepared().map_err(failed)?);
                    }
                    Step::Encaps(p) => {
                        black_box(p.encaps().map_err(failed)?);
                    }
                }
            }
            if let Some((key, message)) = &self.sign {
                black_box(key.sign(black_box(message)).map_err(failed)?);
            }
        }
        Ok(())
    }
}

/// One ML-DSA signature of the CertificateVerify content per sample.
pub struct SignTail {
    key: Box<dyn SigningKey>,
    message: Vec<u8>,
    check: CheckResult,
}

impl SignTail {
    /// `signature` (an ML-DSA set) on [`ML_DSA_BACKEND`].
    pub fn new(signature: &str) -> Result<Self, CaseError> {
        let (key, message, check) = signing(signature, ML_DSA_BACKEND)?;
        Ok(Self {
            key,
            message,
            check,
        })
    }
}

impl Case for SignTail {
    fn checks(&mut self) -> Vec<CheckResult> {
        vec![self.check.clone()]
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            black_box(self.key.sign(black_box(&self.message)).map_err(failed)?);
        }
        Ok(())
    }
    fn fixed_iterations(&self) -> Option<u64> {
        Some(1)
    }
}
