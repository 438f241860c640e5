//! One interface over three libraries: an [`Engine`] is one cipher, keyed
//! once, encrypting or decrypting message after message.
//!
//! The key schedule happens when the engine is built; [`Engine::set_iv`]
//! starts a fresh IV on the same schedule (what the timed loop does between
//! batches); [`Engine::rekey`] redoes both (what `--per-message-init` times).
//! Between two `set_iv` calls consecutive messages continue the mode's
//! state (chaining value, counter, keystream position), exactly as
//! `openssl speed` encrypts its buffer again and again. Padding is not the
//! engine's business: the case pads ECB/CBC messages itself so that every
//! backend does the same work.

use crate::catalog::{Backend, CipherDesc};
use crate::{mcrypt, openssl_backend, rustcrypto};

/// Encrypting or decrypting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
    Decrypt,
}

/// One keyed cipher context of one backend.
pub trait Engine: Send {
    /// Starts a fresh IV on the existing key schedule.
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), String>;
    /// Sets key and IV again (key schedule included).
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), String>;
    /// Processes `input` into `out` (at least `input.len() + 32` bytes);
    /// returns the bytes written.
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, String>;
}

/// Extra output room an engine may need beyond the input (wrap adds 8).
pub const OUT_SLACK: usize = 64;

/// Builds the engine of `desc` for one direction with this key and IV.
/// `key` may differ in length from `desc.key_len` (known-answer vectors).
pub fn build(
    desc: &CipherDesc,
    dir: Dir,
    key: &[u8],
    iv: &[u8],
) -> Result<Box<dyn Engine>, String> {
    match desc.backend {
        Backend::OpenSsl => openssl_backend::engine(desc, dir, key, iv),
        Backend::Mcrypt => mcrypt::engine(desc, dir, key, iv),
        Backend::RustCrypto => rustcrypto::engine(desc, dir, key, iv),
    }
}

/// Encrypts or decrypts one whole message with a fresh engine (checks only:
/// no padding, the message must suit the mode).
pub fn one_shot(
    desc: &CipherDesc,
    dir: Dir,
    key: &[u8],
    iv: &[u8],
    input: &[u8],
) -> Result<Vec<u8>, String> {
    let mut engine = build(desc, dir, key, iv)?;
    let mut out = vec![0u8; input.len() + OUT_SLACK];
    let n = engine.process(input, &mut out)?;
    out.truncate(n);
    Ok(out)
}
