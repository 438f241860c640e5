//! One timed AEAD case: an algorithm on a backend, one operation, one size.
//!
//! What is inside the timed region (DESIGN.md 3.5):
//! - `encrypt`: sealing one message (ciphertext and tag) under a fresh
//!   nonce. The nonces of a batch are generated in `prepare_batch`,
//!   outside the timed region.
//! - `decrypt`: opening one message, tag verification included. The message
//!   is sealed in `prepare_batch`; the batch opens it repeatedly (reusing a
//!   nonce is harmless when opening).
//! - `roundtrip`: sealing under a fresh nonce, then opening the result.
//!
//! The key schedule happens once, when the case is built, unless
//! `--per-message-init` asks for it inside every operation. Messages of
//! [`crate::FROM_MEMORY_BYTES`] and more start each batch from memory: the
//! message and output buffers are flushed from the caches in
//! `prepare_batch`.

use crate::algorithms::Algorithm;
use crate::backend::{Backend, Params, Sealer};
use crate::checks::{CheckCache, Rng};
use cryptobench_core::{Case, CaseError, CheckResult};
use std::hint::black_box;
use std::sync::Arc;

/// The three timed operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Seal.
    Encrypt,
    /// Open with verification.
    Decrypt,
    /// Seal then open.
    Roundtrip,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Operation; 3] = [Operation::Encrypt, Operation::Decrypt, Operation::Roundtrip];
    /// Name in results.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Encrypt => "encrypt",
            Operation::Decrypt => "decrypt",
            Operation::Roundtrip => "roundtrip",
        }
    }
}

/// How nonces are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum NonceMode {
    /// A message counter in the nonce's last bytes (big-endian).
    #[default]
    Counter,
    /// Random bytes from libsodium's CSPRNG.
    Random,
}

impl NonceMode {
    /// Name in results.
    pub fn name(self) -> &'static str {
        match self {
            NonceMode::Counter => "counter",
            NonceMode::Random => "random",
        }
    }
}

/// Everything that defines one case.
#[derive(Debug, Clone)]
pub struct CaseConfig {
    /// The algorithm.
    pub alg: &'static Algorithm,
    /// The library.
    pub backend: Backend,
    /// The timed operation.
    pub op: Operation,
    /// Message bytes.
    pub size: usize,
    /// Associated-data bytes.
    pub aad_len: usize,
    /// Tag bytes.
    pub tag_len: usize,
    /// Nonce generation.
    pub nonce: NonceMode,
    /// Key schedule inside every operation.
    pub per_message_init: bool,
    /// Seed for key and message bytes.
    pub seed: u64,
}

/// Messages whose nonces the case has room for from the start.
const NONCES_RESERVED: usize = 1 << 17;

/// The buffer a batch's nonces are written into before it, with room for
/// [`NONCES_RESERVED`] messages made when the case is built (pages are
/// only touched when used). Grown batch by batch, it moved with each
/// calibration step, so a case was timed with its nonces elsewhere than
/// where the engine had tried it to choose its placement
/// (`cryptobench_engine::build::placement`).
fn nonce_room(cfg: &CaseConfig) -> Vec<u8> {
    let messages = match cfg.op {
        Operation::Decrypt => 1,
        _ => NONCES_RESERVED,
    };
    Vec::with_capacity(messages * cfg.alg.nonce_len)
}

/// A built case.
pub struct AeadCase {
    cfg: CaseConfig,
    key: Vec<u8>,
    sealer: Sealer,
    msg: Vec<u8>,
    aad: Vec<u8>,
    out: Vec<u8>,
    plain: Vec<u8>,
    nonces: Vec<u8>,
    counter: u64,
    sealed_nonce: Vec<u8>,
    /// `out` holds a message sealed under `sealed_nonce` (decrypt cases).
    sealed: bool,
    checks: Arc<CheckCache>,
}

impl AeadCase {
    /// Builds the case: key, buffers and the keyed sealer.
    pub fn new(cfg: CaseConfig, checks: Arc<CheckCache>) -> Result<Self, CaseError> {
        // The large buffers first, checked: a size that does not fit is a
        // skip, not an abort.
        let out = cryptobench_core::input::zeroed(cfg.size + cfg.tag_len)?;
        let plain = cryptobench_core::input::zeroed(cfg.size)?;
        let mut rng = Rng::new(cfg.seed ^ cfg.size as u64);
        let key = rng.bytes(cfg.alg.key_len);
        let sealer = build(&cfg, &key)?;
        let msg = rng.bytes(cfg.size);
        let aad = rng.bytes(cfg.aad_len);
        Ok(Self {
            out,
            plain,
            nonces: nonce_room(&cfg),
            counter: 0,
            sealed_nonce: vec![0; cfg.alg.nonce_len],
            sealed: false,
            key,
            sealer,
            msg,
            aad,
            cfg,
            checks,
        })
    }

    /// Writes `count` fresh nonces into `self.nonces`.
    fn fresh_nonces(&mut self, count: usize) {
        let n = self.cfg.alg.nonce_len;
        self.nonces.resize(count * n, 0);
        match self.cfg.nonce {
            NonceMode::Counter => {
                for chunk in self.nonces.chunks_exact_mut(n) {
                    self.counter += 1;
                    let bytes = self.counter.to_be_bytes();
                    let take = n.min(8);
                    chunk.fill(0);
                    chunk[n - take..].copy_from_slice(&bytes[8 - take..]);
                }
            }
            NonceMode::Random => random_bytes(&mut self.nonces),
        }
    }
}

fn build(cfg: &CaseConfig, key: &[u8]) -> Result<Sealer, CaseError> {
    let params = Params {
        key,
        nonce_len: cfg.alg.nonce_len,
        tag_len: cfg.tag_len,
    };
    cfg.backend
        .build(cfg.alg, &params)
        .map_err(|e| CaseError::Skipped(e.0))
}

/// Fills `buf` from libsodium's CSPRNG.
fn random_bytes(buf: &mut [u8]) {
    if cryptobench_suite_common::sodium::init().is_ok() {
        // SAFETY: writes exactly buf.len() bytes into buf.
        unsafe { libsodium_sys::randombytes_buf(buf.as_mut_ptr().cast(), buf.len()) };
    } else {
        let mut rng = Rng::new(std::process::id() as u64);
        buf.copy_from_slice(&rng.bytes(buf.len()));
    }
}

const AUTH_FAILED: &str = "authentication failed during timing";

impl Case for AeadCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.get(
            self.cfg.alg,
            self.cfg.backend,
            self.cfg.tag_len,
            self.cfg.aad_len,
        )
    }

    fn prepare_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        match self.cfg.op {
            Operation::Encrypt | Operation::Roundtrip => self.fresh_nonces(iters as usize),
            // Sealed once: every batch opens the same message `iters`
            // times anyway, and sealing it afresh before each batch cost
            // a whole message of untimed work per round (as much as the
            // batch itself at 1 MiB), time the run's limit then took from
            // sampling.
            Operation::Decrypt if !self.sealed => {
                self.fresh_nonces(1);
                self.sealed_nonce.copy_from_slice(&self.nonces);
                self.sealer
                    .seal(&self.sealed_nonce, &self.aad, &self.msg, &mut self.out)
                    .map_err(|_| CaseError::Failed("sealing the message to open failed".into()))?;
                self.sealed = true;
            }
            Operation::Decrypt => {}
        }
        if crate::timed_from_memory(self.cfg.size as u64) {
            for buf in [&self.msg, &self.out, &self.plain] {
                cryptobench_engine::host::cpu::flush_from_caches(buf);
            }
        }
        Ok(())
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        let iters = iters as usize;
        let needs_nonces = self.cfg.op != Operation::Decrypt;
        if needs_nonces && self.nonces.len() < iters * self.cfg.alg.nonce_len {
            // The engine always prepares; this only keeps a stray call correct.
            self.fresh_nonces(iters);
        }
        let n = self.cfg.alg.nonce_len;
        for i in 0..iters {
            if self.cfg.per_message_init {
                self.sealer = build(&self.cfg, &self.key)?;
            }
            match self.cfg.op {
                Operation::Encrypt => {
                    let nonce = &self.nonces[i * n..(i + 1) * n];
                    self.sealer
                        .seal(nonce, &self.aad, black_box(&self.msg), &mut self.out)
                        .map_err(|_| CaseError::Failed("sealing failed during timing".into()))?;
                }
                Operation::Decrypt => {
                    self.sealer
                        .open(
                            &self.sealed_nonce,
                            &self.aad,
                            black_box(&self.out),
                            &mut self.plain,
                        )
                        .map_err(|_| CaseError::Failed(AUTH_FAILED.into()))?;
                }
                Operation::Roundtrip => {
                    let nonce = &self.nonces[i * n..(i + 1) * n];
                    self.sealer
                        .seal(nonce, &self.aad, black_box(&self.msg), &mut self.out)
                        .map_err(|_| CaseError::Failed("sealing failed during timing".into()))?;
                    self.sealer
                        .open(nonce, &self.aad, &self.out, &mut self.plain)
                        .map_err(|_| CaseError::Failed(AUTH_FAILED.into()))?;
                }
            }
            black_box(&mut self.out);
            black_box(&mut self.plain);
        }
        Ok(())
    }
}
