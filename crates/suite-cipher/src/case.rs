//! One timed case: a cipher of one backend, one operation, one size.
//!
//! What is timed (docs/methodology.md repeats it for users):
//! - by default the key schedule runs once, when the case is built; before
//!   every batch `prepare_batch` draws a fresh random IV and sets it on the
//!   contexts outside the timed region; inside, the messages of the batch
//!   are processed back to back on those contexts, each continuing the
//!   mode's state (chaining value, counter) as `openssl speed` does;
//! - with `--per-message-init`, every message also sets key and IV again
//!   (key schedule included), as one PHP `openssl_encrypt` call does;
//! - `roundtrip` is encrypt + decrypt + compare of one message (seed 001's
//!   TEST 2/4/6); a difference fails the case;
//! - ECB/CBC messages that are not whole blocks are PKCS#7-padded (and the
//!   padding checked on decryption) inside the timed region; whole-block
//!   messages go as they are (no padding block), as `openssl speed` and
//!   PHP's `OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING` process them;
//! - a plain encrypt or decrypt (key once, no padding) is one library call
//!   per message: the batch is handed to [`Engine::process_repeat`] in one
//!   call, so nothing of ours runs between two messages.

use crate::catalog::CipherDesc;
use crate::checks::{self, decrypt_message, encrypt_message};
use crate::engine::{self, CipherError, Dir, Engine, OUT_SLACK};
use cryptobench_core::{Case, CaseError, CheckResult};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::hint::black_box;
use std::sync::{Arc, OnceLock};

/// What one operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// Encrypt one message.
    Encrypt,
    /// Decrypt one message.
    Decrypt,
    /// Encrypt, decrypt and compare one message.
    Roundtrip,
}

impl Op {
    /// Every operation, in table order.
    pub const ALL: [Op; 3] = [Op::Encrypt, Op::Decrypt, Op::Roundtrip];
    /// Name in results.
    pub fn name(self) -> &'static str {
        match self {
            Op::Encrypt => "encrypt",
            Op::Decrypt => "decrypt",
            Op::Roundtrip => "roundtrip",
        }
    }
}

/// Checks shared by every case of one cipher: known answers per backend
/// and agreement across backends, each computed once.
#[derive(Debug, Default)]
pub struct SharedChecks {
    /// Every backend's description of this cipher (agreement compares them).
    pub descs: Vec<CipherDesc>,
    /// Agreement result, computed by the first case that asks.
    pub agreement: OnceLock<Vec<CheckResult>>,
    /// Known answers per backend, in the order of `descs`.
    pub kat: Vec<OnceLock<Vec<CheckResult>>>,
}

impl SharedChecks {
    /// Shared checks over these descriptions (same canonical name).
    pub fn new(descs: Vec<CipherDesc>) -> Self {
        let kat = descs.iter().map(|_| OnceLock::new()).collect();
        Self {
            descs,
            agreement: OnceLock::new(),
            kat,
        }
    }
    fn checks_for(&self, desc: &CipherDesc) -> Vec<CheckResult> {
        let mut out = Vec::new();
        if let Some(i) = self.descs.iter().position(|d| d.backend == desc.backend) {
            out.extend(
                self.kat[i]
                    .get_or_init(|| checks::known_answers(desc))
                    .iter()
                    .cloned(),
            );
        }
        out.extend(
            self.agreement
                .get_or_init(|| checks::agreement(&self.descs))
                .iter()
                .cloned(),
        );
        out
    }
}

/// Everything a case needs, cloned into its factory.
#[derive(Debug, Clone)]
pub struct CaseParams {
    /// The cipher.
    pub desc: CipherDesc,
    /// The operation.
    pub op: Op,
    /// Message size in bytes.
    pub size: usize,
    /// Time key and IV setup with every message.
    pub per_message_init: bool,
    /// Reproducible randomness (tests).
    pub seed: Option<u64>,
    /// Checks shared with the other cases of this cipher.
    pub shared: Arc<SharedChecks>,
    /// Whether one operation is slow enough to sample one at a time.
    pub slow: bool,
}

/// A built case.
pub struct CipherCase {
    p: CaseParams,
    rng: StdRng,
    key: Vec<u8>,
    iv: Vec<u8>,
    enc: Box<dyn Engine>,
    dec: Box<dyn Engine>,
    msg: Vec<u8>,
    ct: Vec<u8>,
    ct_len: usize,
    back: Vec<u8>,
    /// Whether one message is exactly one library call (see [`Self::direct`]).
    direct: bool,
}

fn failed(e: CipherError) -> CaseError {
    CaseError::Failed(e.to_string())
}

impl CipherCase {
    /// Keys the contexts (the key schedule happens here, untimed).
    pub fn new(p: CaseParams) -> Result<Self, CaseError> {
        if let Some(reason) = crate::catalog::size_rule(&p.desc, p.size as u64) {
            return Err(CaseError::Skipped(reason));
        }
        let mut rng = match p.seed {
            Some(s) => StdRng::seed_from_u64(s),
            None => StdRng::from_os_rng(),
        };
        let mut key = vec![0u8; p.desc.key_len];
        rng.fill_bytes(&mut key);
        let mut iv = vec![0u8; p.desc.iv_len];
        random_iv(&p.desc, &mut rng, &mut iv);
        let zeroed = cryptobench_core::input::zeroed;
        let mut msg = zeroed(p.size)?;
        rng.fill_bytes(&mut msg);
        let ct = zeroed(p.size + OUT_SLACK)?;
        let back = zeroed(p.size + 2 * OUT_SLACK)?;
        let enc = engine::build(&p.desc, Dir::Encrypt, &key, &iv).map_err(failed)?;
        let dec = engine::build(&p.desc, Dir::Decrypt, &key, &iv).map_err(failed)?;
        Ok(Self {
            direct: Self::direct(&p),
            ct,
            back,
            ct_len: 0,
            p,
            rng,
            key,
            iv,
            enc,
            dec,
            msg,
        })
    }

    /// Whether an encrypt or decrypt message is exactly one library call
    /// on the keyed context: no per-message key/IV setup and no padding to
    /// add or check. Those batches go to the engine in one call.
    pub fn direct(p: &CaseParams) -> bool {
        p.op != Op::Roundtrip && !p.per_message_init && !checks::padded(&p.desc, p.size)
    }

    fn fresh_iv(&mut self) -> Result<(), CaseError> {
        random_iv(&self.p.desc, &mut self.rng, &mut self.iv);
        self.enc.set_iv(&self.iv).map_err(failed)?;
        self.dec.set_iv(&self.iv).map_err(failed)
    }

    fn encrypt_one(&mut self) -> Result<usize, CaseError> {
        if self.p.per_message_init {
            self.enc.rekey(&self.key, &self.iv).map_err(failed)?;
        }
        encrypt_message(&self.p.desc, self.enc.as_mut(), &self.msg, &mut self.ct).map_err(failed)
    }

    fn decrypt_one(&mut self, ct_len: usize) -> Result<usize, CipherError> {
        if self.p.per_message_init {
            self.dec.rekey(&self.key, &self.iv)?;
        }
        let ct = &self.ct[..ct_len];
        decrypt_message(
            &self.p.desc,
            self.dec.as_mut(),
            ct,
            self.p.size,
            &mut self.back,
        )
    }
}

impl Case for CipherCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut iv = vec![0u8; self.p.desc.iv_len];
        random_iv(&self.p.desc, &mut self.rng, &mut iv);
        let mut out = vec![checks::round_trip(&self.p.desc, &self.key, &iv, &self.msg)];
        out.extend(self.p.shared.checks_for(&self.p.desc));
        out
    }

    fn prepare_batch(&mut self, _iters: u64) -> Result<(), CaseError> {
        match self.p.op {
            // One ciphertext, made before the first batch: each batch
            // decrypts it `iters` times from its IV anyway, and encrypting
            // a fresh one before every batch cost a message of untimed
            // work per round (as much as the batch at the larger sizes).
            Op::Decrypt if self.ct_len > 0 => self.dec.set_iv(&self.iv).map_err(failed),
            Op::Decrypt => {
                self.fresh_iv()?;
                self.ct_len = self.encrypt_one()?;
                self.enc.set_iv(&self.iv).map_err(failed)
            }
            _ => self.fresh_iv(),
        }
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        if self.direct {
            let n = match self.p.op {
                Op::Decrypt => {
                    let ct = &self.ct[..self.ct_len];
                    self.dec.process_repeat(ct, &mut self.back, iters)
                }
                _ => self.enc.process_repeat(&self.msg, &mut self.ct, iters),
            }
            .map_err(failed)?;
            black_box(n);
            return Ok(());
        }
        for _ in 0..iters {
            match self.p.op {
                Op::Encrypt => {
                    let n = self.encrypt_one()?;
                    black_box(&self.ct[..n]);
                }
                Op::Decrypt => {
                    // Messages after the first decrypt under a chained IV,
                    // so their padding is not checked (the round trip and
                    // the checks verify decryption).
                    let r = self.decrypt_one(self.ct_len);
                    black_box(&r);
                    black_box(&self.back);
                }
                Op::Roundtrip => {
                    let n = self.encrypt_one()?;
                    let m = self.decrypt_one(n).map_err(failed)?;
                    if self.back[..m] != self.msg[..] {
                        return Err(CaseError::Failed(format!(
                            "{}: decryption returned different text during timing",
                            self.p.desc.name
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    fn fixed_iterations(&self) -> Option<u64> {
        self.p.slow.then_some(1)
    }
}

/// Fills `iv` with a random IV for `desc`. ChaCha20's 16-byte IV opens
/// with its 32-bit block counter: a random one may leave fewer blocks than
/// a batch encrypts (RustCrypto then refuses the rest, "keystream
/// exhausted", which failed a quick run's case once), so the counter
/// starts at 0, as an RFC 8439 sender's does.
fn random_iv(desc: &CipherDesc, rng: &mut StdRng, iv: &mut [u8]) {
    rng.fill_bytes(iv);
    if desc.family == "CHACHA20" {
        if let Some(counter) = iv.get_mut(..4) {
            counter.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use cryptobench_core::CheckOutcome;

    fn params(
        name: &str,
        backend: &str,
        op: Op,
        size: usize,
        per_message_init: bool,
    ) -> CaseParams {
        let reg = Registry::load(|b| b.name() == backend);
        let descs = reg.by_name[name].clone();
        CaseParams {
            desc: descs[0].clone(),
            op,
            size,
            per_message_init,
            seed: Some(3),
            shared: Arc::new(SharedChecks::new(descs)),
            slow: false,
        }
    }

    #[test]
    fn only_plain_unpadded_messages_take_the_one_call_path() {
        let ssl = "openssl";
        let direct = |n, op, size, init| CipherCase::direct(&params(n, ssl, op, size, init));
        // A 16-byte CBC message is one whole block: no padding block, as in
        // `openssl speed -bytes 16`.
        assert!(direct("AES-256-CBC", Op::Encrypt, 16, false));
        assert!(direct("AES-128-CTR", Op::Encrypt, 16, false));
        assert!(direct("AES-128-CTR", Op::Decrypt, 4, false));
        assert!(!direct("AES-256-CBC", Op::Encrypt, 4, false), "padded");
        assert!(
            !direct("AES-128-CTR", Op::Encrypt, 16, true),
            "per-message init"
        );
        assert!(
            !direct("AES-128-CTR", Op::Roundtrip, 16, false),
            "round trip"
        );
    }

    /// A batch of `n` plain messages leaves the n-th ciphertext of the
    /// chained stream, exactly 16 bytes for a 16-byte CBC message.
    #[test]
    fn a_one_call_batch_encrypts_like_message_after_message() {
        for (name, backend) in [
            ("AES-256-CBC", "openssl"),
            ("AES-128-CTR", "openssl"),
            ("AES-128-CTR", "rustcrypto"),
        ] {
            let mut case = CipherCase::new(params(name, backend, Op::Encrypt, 16, false)).unwrap();
            case.prepare_batch(3).unwrap();
            case.run_batch(3).unwrap();
            let mut e = engine::build(&case.p.desc, Dir::Encrypt, &case.key, &case.iv).unwrap();
            let mut out = vec![0u8; 16 + OUT_SLACK];
            let mut n = 0;
            for _ in 0..3 {
                n = e.process(&case.msg, &mut out).unwrap();
            }
            assert_eq!(n, 16, "{name} {backend}");
            assert_eq!(case.ct[..16], out[..16], "{name} {backend}");
        }
    }

    #[test]
    fn a_one_call_decrypt_batch_recovers_the_message() {
        let mut case =
            CipherCase::new(params("AES-256-CBC", "openssl", Op::Decrypt, 64, false)).unwrap();
        case.prepare_batch(1).unwrap();
        case.run_batch(1).unwrap();
        assert_eq!(case.back[..64], case.msg[..]);
    }

    /// The ciphertext is made once; every later batch restarts the
    /// decryptor on its IV and recovers the message again.
    #[test]
    fn decrypt_batches_reuse_one_ciphertext_and_each_recovers_the_message() {
        for (name, backend) in [("AES-256-CBC", "openssl"), ("AES-128-CTR", "rustcrypto")] {
            let mut case = CipherCase::new(params(name, backend, Op::Decrypt, 64, false)).unwrap();
            case.prepare_batch(2).unwrap();
            let first = case.ct[..case.ct_len].to_vec();
            for batch in 0..3 {
                case.back.fill(0);
                case.prepare_batch(2).unwrap();
                assert_eq!(case.ct[..case.ct_len], first[..], "{name} {backend}");
                case.run_batch(1).unwrap();
                assert_eq!(
                    case.back[..64],
                    case.msg[..],
                    "{name} {backend} batch {batch}"
                );
            }
        }
    }

    #[test]
    fn a_chacha20_batch_always_has_its_whole_keystream_ahead() {
        for seed in 0..64 {
            let mut p = params("ChaCha20", "rustcrypto", Op::Encrypt, 16384, false);
            p.seed = Some(seed);
            let mut case = CipherCase::new(p).unwrap();
            let failed = case
                .checks()
                .into_iter()
                .filter(|c| c.outcome == CheckOutcome::Fail);
            assert_eq!(failed.count(), 0, "seed {seed}");
            case.prepare_batch(64).unwrap();
            assert_eq!(case.iv[..4], [0; 4], "seed {seed}: the counter starts at 0");
            case.run_batch(64).unwrap();
        }
    }
}
