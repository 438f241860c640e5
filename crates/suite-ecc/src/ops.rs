//! What a backend does on one curve: the four timed operations and the
//! checks that must pass before any of them is timed.
//!
//! Every backend (OpenSSL's two key-generation paths, RustCrypto, dalek,
//! libsodium) implements [`CurveOps`] for the curves it has; [`EccCase`]
//! turns one of them plus one [`Op`] into an engine [`Case`]. Keeping the
//! backends behind one trait is what lets the plan be a single loop over
//! curves x backends x operations.

use cryptobench_core::{names, Case, CaseError, CheckResult, Error};

/// The timed operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Generate one key pair (private scalar and public point): the seed's unit.
    Keygen,
    /// Derive one shared secret with a fixed peer public key.
    Ecdh,
    /// Sign a 32-byte digest (ECDSA) or a 32-byte message (EdDSA).
    Sign,
    /// Verify one signature of that digest.
    Verify,
}

impl Op {
    /// Every operation.
    pub const ALL: [Op; 4] = [Op::Keygen, Op::Ecdh, Op::Sign, Op::Verify];

    /// Name on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Ecdh => "ecdh",
            Op::Sign => "sign",
            Op::Verify => "verify",
        }
    }

    /// Resolves `--operations a,b` (case-insensitive, did-you-mean).
    pub fn resolve_list(list: &str) -> Result<Vec<Op>, Error> {
        let accepted: Vec<&str> = Op::ALL.iter().map(|o| o.name()).collect();
        let picked = names::resolve_list("operation", list, &accepted)?;
        Ok(Op::ALL
            .into_iter()
            .filter(|o| picked.contains(&o.name()))
            .collect())
    }
}

/// The 32-byte digest every sign/verify case signs: SHA-256("abc") from
/// FIPS 180-4 appendix B.1, so any tool can reproduce a signature input.
pub const DIGEST: [u8; 32] = [
    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
];

/// How many freshly generated keys every key check inspects.
pub const CHECKED_KEYS: usize = 4;

/// One backend on one curve, prepared for the operation it will time.
pub trait CurveOps: Send {
    /// Generates one key pair.
    fn keygen(&mut self) -> Result<(), CaseError>;
    /// Derives one shared secret (prepared peer key); a signature-only
    /// curve keeps this default (the suite does not plan it there).
    fn ecdh(&mut self) -> Result<(), CaseError> {
        Err(CaseError::Skipped(
            "a signature curve: no key agreement".into(),
        ))
    }
    /// Signs [`DIGEST`] once; a key-agreement curve keeps this default.
    fn sign(&mut self) -> Result<(), CaseError> {
        Err(CaseError::Skipped(
            "a key-agreement curve: no signatures".into(),
        ))
    }
    /// Verifies the prepared signature of [`DIGEST`] once; a key-agreement
    /// curve keeps this default.
    fn verify(&mut self) -> Result<(), CaseError> {
        Err(CaseError::Skipped(
            "a key-agreement curve: no signatures".into(),
        ))
    }
    /// The checks that gate timing of `op`.
    fn checks(&mut self, op: Op) -> Vec<CheckResult>;
}

/// An engine case over one backend, curve and operation.
pub struct EccCase {
    ops: Box<dyn CurveOps>,
    op: Op,
    per_sample: Option<u64>,
}

impl EccCase {
    /// A case timing `op`; `per_sample = Some(n)` makes every sample exactly
    /// `n` operations (the seed timed batches of 100 keys).
    pub fn new(ops: Box<dyn CurveOps>, op: Op, per_sample: Option<u64>) -> Self {
        Self {
            ops,
            op,
            per_sample,
        }
    }

    /// Runs the operation once (examples and tests drive cases this way).
    pub fn run_once(&mut self) -> Result<(), CaseError> {
        match self.op {
            Op::Keygen => self.ops.keygen(),
            Op::Ecdh => self.ops.ecdh(),
            Op::Sign => self.ops.sign(),
            Op::Verify => self.ops.verify(),
        }
    }
}

impl Case for EccCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.ops.checks(self.op)
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            // A fixed batch of keys on a binary curve can take minutes; the
            // first Ctrl-C ends it between two operations, not after it.
            if cryptobench_engine::sample::interrupt::stop_requested() {
                return Err(CaseError::Skipped(
                    "interrupted in the middle of a sample".into(),
                ));
            }
            self.run_once()?;
        }
        Ok(())
    }
    fn fixed_iterations(&self) -> Option<u64> {
        self.per_sample
    }
}

/// Flips the lowest bit of byte `index` (wrapping), for tamper checks.
pub fn flip_bit(bytes: &[u8], index: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if !out.is_empty() {
        let i = index % out.len();
        out[i] ^= 1;
    }
    out
}

/// Why a key pair did not check out, or a public key or signature could not
/// be computed by a check.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The private scalar is 0 or not below the group order.
    #[error("private scalar outside 1..n-1")]
    ScalarOutOfRange,
    /// The public point is not on the curve.
    #[error("public point is not on the curve")]
    NotOnCurve,
    /// n*Q is not the point at infinity.
    #[error("public point does not have the group order (n*Q != O)")]
    WrongOrder,
    /// Q differs from d*G recomputed on the generic ladder.
    #[error("public point differs from d*G recomputed by EC_POINT_mul")]
    NotDTimesG,
    /// The encoded public point does not decode on the curve.
    #[error("public point does not decode on the curve: {0}")]
    Undecodable(String),
    /// A key or its encoding has the wrong shape or does not match a second
    /// implementation (the message names which).
    #[error("{0}")]
    Mismatch(String),
    /// The library call failed (the message names the step).
    #[error("{0}")]
    Library(String),
}

impl From<openssl::error::ErrorStack> for KeyError {
    fn from(e: openssl::error::ErrorStack) -> Self {
        KeyError::Library(e.to_string())
    }
}

/// A `CaseError` from any displayable library error.
pub fn failed(what: &str, e: impl std::fmt::Display) -> CaseError {
    CaseError::Failed(format!("{what}: {e}"))
}

/// `check` on [`CHECKED_KEYS`] fresh keys (it gets the key's index): a
/// failed check `name` at the first key that fails ("key i: why"), else a
/// pass saying `passed`.
pub fn each_fresh_key<E: std::fmt::Display>(
    name: &str,
    passed: String,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> CheckResult {
    for i in 0..CHECKED_KEYS {
        if let Err(e) = check(i) {
            return CheckResult::fail(name, format!("key {i}: {e}"));
        }
    }
    CheckResult::pass(name, passed)
}

/// Signs a message, or says why not.
pub type SignFn<'a> = dyn FnMut(&[u8]) -> Result<Vec<u8>, KeyError> + 'a;

/// Verifies (message, signature).
pub type VerifyFn<'a> = dyn FnMut(&[u8], &[u8]) -> bool + 'a;

/// The ECDH check: two fresh key pairs derived the same secret both ways
/// (`Ok(true)`), or not, or could not be made.
pub fn agreement_check(verdict: Result<bool, CaseError>) -> CheckResult {
    const NAME: &str = "ecdh: both sides agree";
    match verdict {
        Ok(same) => {
            CheckResult::from_bool(NAME, same, "two fresh key pairs derive the same secret")
        }
        Err(e) => CheckResult::fail(NAME, e.to_string()),
    }
}

/// The standard signature checks over a sign and a verify closure:
/// the signature verifies, a flipped signature bit and a flipped digest bit
/// are both rejected.
pub fn signature_checks(sign: &mut SignFn<'_>, verify: &mut VerifyFn<'_>) -> Vec<CheckResult> {
    let sig = match sign(&DIGEST) {
        Ok(s) => s,
        Err(e) => return vec![CheckResult::fail("sign", e.to_string())],
    };
    let ok = verify(&DIGEST, &sig);
    let bad_sig = !verify(&DIGEST, &flip_bit(&sig, sig.len() / 2));
    let bad_msg = !verify(&flip_bit(&DIGEST, 7), &sig);
    vec![
        CheckResult::from_bool(
            "roundtrip: signature verifies",
            ok,
            format!("{}-byte signature over a 32-byte digest", sig.len()),
        ),
        CheckResult::from_bool(
            "tamper: flipped signature bit rejected",
            bad_sig,
            "one bit of the signature flipped",
        ),
        CheckResult::from_bool(
            "tamper: flipped digest bit rejected",
            bad_msg,
            "one bit of the digest flipped",
        ),
    ]
}
