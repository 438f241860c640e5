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
//!
//! [`Engine::process_repeat`] is the timed loop of the plain encrypt and
//! decrypt cases: one call per batch, so the per-message cost is the
//! library's update call and nothing of ours (no dynamic dispatch, no
//! `Result` building, no size checks per message). A backend whose call is
//! already opaque to the compiler (OpenSSL through FFI) loops over it
//! directly, as `openssl speed` loops over `EVP_EncryptUpdate`.

use crate::catalog::CipherDesc;

/// Why an engine could not be built or refused a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CipherError {
    /// The library, or this cipher in it, is missing on this machine.
    #[error("{0}")]
    Unavailable(String),
    /// The key has a length the cipher does not take.
    #[error("{0}")]
    KeyRejected(String),
    /// The IV is shorter than the mode needs.
    #[error("IV must be {expected} bytes")]
    IvLength {
        /// The IV length the mode takes.
        expected: usize,
    },
    /// The message does not suit the cipher (too long, not whole blocks).
    #[error("{0}")]
    MessageRejected(String),
    /// The caller's output buffer cannot hold the result.
    #[error("output buffer too small")]
    OutputTooSmall,
    /// A stream cipher's counter ran out.
    #[error("keystream exhausted")]
    KeystreamExhausted,
    /// Decryption returned nothing where a padded block was expected.
    #[error("empty decryption")]
    EmptyDecryption,
    /// The last block's PKCS#7 padding is malformed.
    #[error("bad PKCS#7 padding after decryption")]
    BadPadding,
    /// The library call itself failed.
    #[error("{0}")]
    Library(String),
}

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
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError>;
    /// Sets key and IV again (key schedule included).
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError>;
    /// Processes `input` into `out` (at least `input.len() + 32` bytes);
    /// returns the bytes written.
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError>;
    /// Processes `input` `times` times back to back into `out`, each time
    /// continuing the mode's state as consecutive [`Engine::process`] calls
    /// do; returns the bytes the last call wrote (0 when `times` is 0).
    fn process_repeat(
        &mut self,
        input: &[u8],
        out: &mut [u8],
        times: u64,
    ) -> Result<usize, CipherError> {
        process_each(self, input, out, times)
    }
}

/// [`Engine::process`] `times` times in a row; returns the bytes the last
/// call wrote (0 when `times` is 0).
pub fn process_each<E: Engine + ?Sized>(
    engine: &mut E,
    input: &[u8],
    out: &mut [u8],
    times: u64,
) -> Result<usize, CipherError> {
    let mut n = 0;
    for _ in 0..times {
        n = engine.process(input, out)?;
        // Inlined Rust ciphers must not be optimised away.
        std::hint::black_box(&mut *out);
    }
    Ok(n)
}

/// What an engine is built for: cipher, direction, key and IV, kept
/// together so the two byte slices cannot swap places on the way to a
/// backend.
#[derive(Debug, Clone, Copy)]
pub struct EngineRequest<'a> {
    /// The cipher, one of its backend's.
    pub desc: &'a CipherDesc,
    /// Encrypt or decrypt.
    pub dir: Dir,
    /// The key (its length may differ from the cipher's nominal one).
    pub key: &'a [u8],
    /// The IV (empty for modes without one).
    pub iv: &'a [u8],
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
) -> Result<Box<dyn Engine>, CipherError> {
    desc.backend.engine(EngineRequest { desc, dir, key, iv })
}

/// Encrypts or decrypts one whole message with a fresh engine (checks only:
/// no padding, the message must suit the mode).
pub fn one_shot(
    desc: &CipherDesc,
    dir: Dir,
    key: &[u8],
    iv: &[u8],
    input: &[u8],
) -> Result<Vec<u8>, CipherError> {
    let mut engine = build(desc, dir, key, iv)?;
    let mut out = vec![0u8; input.len() + OUT_SLACK];
    let n = engine.process(input, &mut out)?;
    out.truncate(n);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Mode;
    use crate::registry::Registry;

    /// `process_repeat(n)` is `n` consecutive `process` calls: the same
    /// bytes written last, the mode's state carried from message to
    /// message (the n-th output differs from the first), on every backend.
    #[test]
    fn a_repeated_batch_equals_consecutive_messages_on_every_backend() {
        let reg = Registry::load(|_| true);
        let key: Vec<u8> = (0..64u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(11))
            .collect();
        let iv: Vec<u8> = (0..16u8)
            .map(|i| i.wrapping_mul(29).wrapping_add(7))
            .collect();
        let msg: Vec<u8> = (0..48u8).collect();
        let mut compared = 0;
        for name in [
            "AES-128-CTR",
            "AES-256-CBC",
            "AES-256-CFB",
            "AES-128-CFB8",
            "ChaCha20",
            "DES-EDE3-CBC",
            "BF-CFB8",
            "AES-128-WRAP",
        ] {
            for d in reg.by_name.get(name).into_iter().flatten() {
                // Unwrapping arbitrary bytes fails its integrity check.
                let dirs: &[Dir] = if d.mode.chains() {
                    &[Dir::Encrypt, Dir::Decrypt]
                } else {
                    &[Dir::Encrypt]
                };
                for &dir in dirs {
                    let (k, v) = (&key[..d.key_len], &iv[..d.iv_len]);
                    let what = format!("{name} {} {dir:?}", d.backend);
                    let mut one_by_one = build(d, dir, k, v).unwrap();
                    let mut out_a = vec![0u8; msg.len() + OUT_SLACK];
                    let mut first = Vec::new();
                    let mut n_a = 0;
                    for i in 0..5 {
                        n_a = one_by_one.process(&msg, &mut out_a).unwrap();
                        if i == 0 {
                            first = out_a[..n_a].to_vec();
                        }
                    }
                    let mut batched = build(d, dir, k, v).unwrap();
                    let mut out_b = vec![0u8; msg.len() + OUT_SLACK];
                    let n_b = batched.process_repeat(&msg, &mut out_b, 5).unwrap();
                    assert_eq!(out_a[..n_a], out_b[..n_b], "{what}");
                    if d.mode.chains() && d.mode != Mode::Ecb {
                        assert_ne!(first, out_b[..n_b], "{what}: state not carried");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 10, "only {compared} engines compared");
    }

    #[test]
    fn the_openssl_loop_refuses_a_short_output_buffer() {
        let reg = Registry::load(|b| b.name() == cryptobench_suite_common::openssl_lib::NAME);
        let d = &reg.by_name["AES-128-CTR"][0];
        let mut e = build(d, Dir::Encrypt, &[1; 16], &[2; 16]).unwrap();
        let err = e.process_repeat(&[0u8; 64], &mut [0u8; 64], 3).unwrap_err();
        assert_eq!(err, CipherError::OutputTooSmall, "{err}");
        assert_eq!(e.process_repeat(&[0u8; 64], &mut [0u8; 128], 0), Ok(0));
    }
}
