//! libsodium's Ed25519 (`crypto_sign_*`) and X25519 (`crypto_box_keypair`,
//! `crypto_scalarmult`), the two curves the seed's PHP Sodium extension
//! exposes.
//!
//! Every call goes through fixed-size buffers owned by the struct, so the
//! unsafe blocks only ever see pointers to arrays of the lengths libsodium
//! documents (32-byte public keys, 64-byte Ed25519 secret keys and
//! signatures, 32-byte X25519 scalars and points).

use crate::curves::Kind;
use crate::ops::{agreement_check, signature_checks, CurveOps, KeyError, Op, DIGEST};
use crate::rc::edx_keygen_checks;
use cryptobench_core::{CaseError, CheckResult};
use libsodium_sys as ffi;
use std::hint::black_box;

fn ready() -> Result<(), CaseError> {
    cryptobench_suite_common::sodium::init().map_err(|e| CaseError::Skipped(e.to_string()))
}

/// An Ed25519 key pair: (public 32, secret 64).
fn sign_keypair() -> ([u8; 32], [u8; 64]) {
    let (mut pk, mut sk) = ([0u8; 32], [0u8; 64]);
    // SAFETY: buffers have the documented sizes.
    unsafe { ffi::crypto_sign_keypair(pk.as_mut_ptr(), sk.as_mut_ptr()) };
    (pk, sk)
}

fn sign_detached(sk: &[u8; 64], msg: &[u8]) -> [u8; 64] {
    let mut sig = [0u8; 64];
    // SAFETY: 64-byte signature and secret key; msg pointer/length pair.
    unsafe {
        ffi::crypto_sign_detached(
            sig.as_mut_ptr(),
            std::ptr::null_mut(),
            msg.as_ptr(),
            msg.len() as u64,
            sk.as_ptr(),
        )
    };
    sig
}

fn verify_detached(pk: &[u8; 32], msg: &[u8], sig: &[u8]) -> bool {
    let Ok(sig) = <[u8; 64]>::try_from(sig) else {
        return false;
    };
    // SAFETY: 64-byte signature, 32-byte public key; msg pointer/length pair.
    unsafe {
        ffi::crypto_sign_verify_detached(sig.as_ptr(), msg.as_ptr(), msg.len() as u64, pk.as_ptr())
            == 0
    }
}

/// Ed25519 public key of a 32-byte seed (the RFC 8032 private key).
fn public_of_seed(seed: &[u8]) -> Result<Vec<u8>, KeyError> {
    let seed: [u8; 32] = seed
        .try_into()
        .map_err(|_| KeyError::Mismatch("seed must be 32 bytes".into()))?;
    let (mut pk, mut sk) = ([0u8; 32], [0u8; 64]);
    // SAFETY: buffers have the documented sizes.
    unsafe { ffi::crypto_sign_seed_keypair(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
    Ok(pk.to_vec())
}

/// X25519 public key of a scalar.
fn scalarmult_base(d: &[u8]) -> Result<Vec<u8>, KeyError> {
    let d: [u8; 32] = d
        .try_into()
        .map_err(|_| KeyError::Mismatch("scalar must be 32 bytes".into()))?;
    let mut q = [0u8; 32];
    // SAFETY: 32-byte buffers.
    let rc = unsafe { ffi::crypto_scalarmult_base(q.as_mut_ptr(), d.as_ptr()) };
    if rc != 0 {
        return Err(KeyError::Library(
            "crypto_scalarmult_base refused the scalar".into(),
        ));
    }
    Ok(q.to_vec())
}

fn scalarmult(d: &[u8; 32], p: &[u8; 32]) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    // SAFETY: 32-byte buffers.
    let rc = unsafe { ffi::crypto_scalarmult(out.as_mut_ptr(), d.as_ptr(), p.as_ptr()) };
    (rc == 0).then_some(out)
}

/// libsodium Ed25519.
pub struct SodiumEd25519 {
    pk: [u8; 32],
    sk: [u8; 64],
    signature: [u8; 64],
}

impl SodiumEd25519 {
    /// A key pair and a signature of [`DIGEST`], ready for any operation.
    pub fn new() -> Result<Self, CaseError> {
        ready()?;
        let (pk, sk) = sign_keypair();
        let signature = sign_detached(&sk, &DIGEST);
        Ok(Self { pk, sk, signature })
    }
}

impl CurveOps for SodiumEd25519 {
    fn keygen(&mut self) -> Result<(), CaseError> {
        black_box(sign_keypair());
        Ok(())
    }
    fn sign(&mut self) -> Result<(), CaseError> {
        black_box(sign_detached(&self.sk, black_box(&DIGEST)));
        Ok(())
    }
    fn verify(&mut self) -> Result<(), CaseError> {
        if !verify_detached(&self.pk, black_box(&DIGEST), &self.signature) {
            return Err(CaseError::Failed("valid signature rejected".into()));
        }
        Ok(())
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        match op {
            Op::Keygen => edx_keygen_checks(Kind::Ed25519, "libsodium", public_of_seed, || {
                let (pk, sk) = sign_keypair();
                // The secret key is seed || public key.
                (sk[..32].to_vec(), pk.to_vec())
            }),
            Op::Ecdh => vec![CheckResult::skipped("ecdh", "signature curve")],
            Op::Sign | Op::Verify => {
                let (pk, sk) = (self.pk, self.sk);
                let mut sign = |m: &[u8]| Ok(sign_detached(&sk, m).to_vec());
                let mut verify = |m: &[u8], s: &[u8]| verify_detached(&pk, m, s);
                signature_checks(&mut sign, &mut verify)
            }
        }
    }
}

/// libsodium X25519.
pub struct SodiumX25519 {
    secret: [u8; 32],
    peer: [u8; 32],
}

fn box_keypair() -> ([u8; 32], [u8; 32]) {
    let (mut pk, mut sk) = ([0u8; 32], [0u8; 32]);
    // SAFETY: 32-byte buffers as documented for crypto_box (X25519).
    unsafe { ffi::crypto_box_keypair(pk.as_mut_ptr(), sk.as_mut_ptr()) };
    (pk, sk)
}

impl SodiumX25519 {
    /// A secret scalar and a peer public key.
    pub fn new() -> Result<Self, CaseError> {
        ready()?;
        let (_, secret) = box_keypair();
        let (peer, _) = box_keypair();
        Ok(Self { secret, peer })
    }
}

impl CurveOps for SodiumX25519 {
    fn keygen(&mut self) -> Result<(), CaseError> {
        black_box(box_keypair());
        Ok(())
    }
    fn ecdh(&mut self) -> Result<(), CaseError> {
        let shared = scalarmult(&self.secret, black_box(&self.peer))
            .ok_or_else(|| CaseError::Failed("crypto_scalarmult refused the peer".into()))?;
        black_box(shared);
        Ok(())
    }
    fn checks(&mut self, op: Op) -> Vec<CheckResult> {
        match op {
            Op::Keygen => edx_keygen_checks(Kind::X25519, "libsodium", scalarmult_base, || {
                let (pk, sk) = box_keypair();
                (sk.to_vec(), pk.to_vec())
            }),
            Op::Ecdh => {
                let (a_pk, a_sk) = box_keypair();
                let (b_pk, b_sk) = box_keypair();
                let same = scalarmult(&a_sk, &b_pk)
                    .zip(scalarmult(&b_sk, &a_pk))
                    .is_some_and(|(ab, ba)| ab == ba);
                vec![agreement_check(Ok(same))]
            }
            Op::Sign | Op::Verify => vec![CheckResult::skipped("sign", "key-agreement curve")],
        }
    }
}
