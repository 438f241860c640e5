//! Checks run before timing: known answers, round trip, cross-backend
//! agreement.
//!
//! Known answers and agreement do not depend on the message size, so the
//! suite computes them once per cipher x backend (and once per cipher for
//! agreement) and shares the result between the cases of every size and
//! operation; the round trip runs per case, at the case's own size.

use crate::catalog::{pad_len, CipherDesc, Mode};
use crate::engine::{self, CipherError, Dir, Engine, OUT_SLACK};
use crate::vectors::{ModeVector, BLOCK_VECTORS, MODE_VECTORS};
use cryptobench_core::names::fold;
use cryptobench_core::CheckResult;

fn unhex(s: &str) -> Vec<u8> {
    // Vectors are constants written here; a typo is a programming error the
    // tests catch.
    hex::decode(s).unwrap_or_default()
}

/// Families whose key length is variable in every backend here.
const VARIABLE_KEY: [&str; 5] = ["BF", "BF-LE", "CAST5", "RC4", "RC2"];

fn key_fits(desc: &CipherDesc, key_len: usize) -> bool {
    key_len == desc.key_len || VARIABLE_KEY.contains(&desc.family.as_str())
}

/// Why a known-answer or round-trip check failed.
#[derive(Debug, thiserror::Error)]
enum CheckFailure {
    /// The engine refused to build or to process the message.
    #[error(transparent)]
    Cipher(#[from] CipherError),
    /// A known answer differs (hex of what came out and what was expected).
    #[error("{dir} gave {got}, expected {expected}")]
    WrongAnswer {
        /// "encrypt" or "decrypt".
        dir: &'static str,
        got: String,
        expected: String,
    },
    /// The ciphertext's first block is the plaintext's.
    #[error("ciphertext equals plaintext")]
    CiphertextIsPlaintext,
    /// Decryption did not give the message back.
    #[error("decryption returned different text: {returned} bytes back for {sent}, first difference at byte {at}")]
    RoundTripDiffers {
        returned: usize,
        sent: usize,
        at: usize,
    },
}

fn expect_answer(dir: &'static str, got: &[u8], expected: &[u8]) -> Result<(), CheckFailure> {
    if got == expected {
        return Ok(());
    }
    Err(CheckFailure::WrongAnswer {
        dir,
        got: hex::encode(got),
        expected: hex::encode(expected),
    })
}

fn encrypt_then_decrypt(
    desc: &CipherDesc,
    key: &[u8],
    iv: &[u8],
    pt: &[u8],
    expect: &[u8],
) -> Result<(), CheckFailure> {
    let ct = engine::one_shot(desc, Dir::Encrypt, key, iv, pt)?;
    expect_answer("encrypt", &ct, expect)?;
    let back = engine::one_shot(desc, Dir::Decrypt, key, iv, &ct)?;
    expect_answer("decrypt", &back, pt)
}

/// One whole-mode vector against one backend's cipher.
pub fn mode_vector(desc: &CipherDesc, v: &ModeVector) -> CheckResult {
    let r = encrypt_then_decrypt(
        desc,
        &unhex(v.key),
        &unhex(v.iv),
        &unhex(v.pt),
        &unhex(v.ct),
    );
    known_answer_check(format!("kat:{}", v.source), r)
}

fn known_answer_check(name: String, verdict: Result<(), CheckFailure>) -> CheckResult {
    match verdict {
        Ok(()) => CheckResult::pass(name, "encrypt and decrypt match"),
        Err(e) => CheckResult::fail(name, e.to_string()),
    }
}

/// Known-answer checks of one cipher on its backend: every whole-mode
/// vector for its name and every block vector of its family, carried into
/// its mode. A cipher with no published vector gets a skipped check saying
/// so (round trip and agreement still cover it).
pub fn known_answers(desc: &CipherDesc) -> Vec<CheckResult> {
    let mut out = Vec::new();
    for v in MODE_VECTORS
        .iter()
        .filter(|v| fold(v.cipher) == fold(&desc.name))
    {
        if key_fits(desc, v.key.len() / 2) {
            out.push(mode_vector(desc, v));
        }
    }
    for v in BLOCK_VECTORS.iter().filter(|v| v.family == desc.family) {
        let key = unhex(v.key);
        if !key_fits(desc, key.len()) {
            continue;
        }
        let (p, c) = (unhex(v.pt), unhex(v.ct));
        let zeros = vec![0u8; p.len()];
        // The identities of the module docs (crate::vectors).
        let (iv, pt, ct): (Vec<u8>, &[u8], &[u8]) = match desc.mode {
            Mode::Ecb => (Vec::new(), &p, &c),
            Mode::Cbc => (vec![0u8; p.len()], &p, &c),
            Mode::Cfb | Mode::Ofb | Mode::Ctr => (p.clone(), &zeros, &c),
            Mode::Cfb8 | Mode::Ofb8 => (p.clone(), &zeros[..1], &c[..1]),
            _ => continue,
        };
        out.push(known_answer_check(
            format!("kat:{} via {}", v.source, desc.mode.name()),
            encrypt_then_decrypt(desc, &key, &iv, pt, ct),
        ));
    }
    if out.is_empty() {
        out.push(CheckResult::skipped(
            "kat",
            format!(
                "no published vector for {} {} here; covered by round trip{}",
                desc.family,
                desc.mode.name(),
                " and cross-backend agreement where another backend has it"
            ),
        ));
    }
    out
}

/// A deterministic key, IV and message for agreement checks (not secret).
fn agreement_inputs(desc: &CipherDesc) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let fill = |n: usize, mul: u8, add: u8| -> Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(mul).wrapping_add(add))
            .collect()
    };
    let mut iv = fill(desc.iv_len, 29, 7);
    if desc.family == "CHACHA20" && iv.len() == 16 {
        // A small block counter, so no backend has to wrap it.
        iv[..4].copy_from_slice(&[1, 0, 0, 0]);
    }
    // 48 bytes: whole blocks for 8- and 16-byte ciphers, no padding needed.
    (fill(desc.key_len, 37, 11), iv, fill(48, 13, 3))
}

/// Cross-backend agreement: the same key, IV and plaintext must give
/// byte-identical ciphertext in every backend offering this cipher. One
/// check per backend after the first, naming both outputs on a mismatch.
pub fn agreement(descs: &[CipherDesc]) -> Vec<CheckResult> {
    let Some(first) = descs.first() else {
        return Vec::new();
    };
    if descs.len() < 2 {
        return vec![CheckResult::skipped(
            "agreement",
            format!("only {} offers {}", first.backend, first.name),
        )];
    }
    let (key, iv, pt) = agreement_inputs(first);
    let reference = engine::one_shot(first, Dir::Encrypt, &key, &iv, &pt);
    descs[1..]
        .iter()
        .map(|other| {
            let name = format!("agreement:{} vs {}", first.backend, other.backend);
            let theirs = engine::one_shot(other, Dir::Encrypt, &key, &iv, &pt);
            match (&reference, theirs) {
                (Ok(a), Ok(b)) if *a == b => CheckResult::pass(
                    name,
                    format!("{} bytes identical ({})", a.len(), first.name),
                ),
                (Ok(a), Ok(b)) => CheckResult::fail(
                    name,
                    format!(
                        "{}: {} gave {}, {} gave {}",
                        first.name,
                        first.backend,
                        hex::encode(a),
                        other.backend,
                        hex::encode(b)
                    ),
                ),
                (Err(e), _) => CheckResult::fail(name, format!("{}: {e}", first.backend)),
                (_, Err(e)) => CheckResult::fail(name, format!("{}: {e}", other.backend)),
            }
        })
        .collect()
}

/// Whether a message of `len` bytes is PKCS#7-padded here: only ECB/CBC
/// messages that are not whole blocks (whole blocks go as they are, as in
/// `openssl speed`).
pub fn padded(desc: &CipherDesc, len: usize) -> bool {
    desc.mode.pads() && !len.is_multiple_of(desc.block)
}

/// Encrypts one message, padding it first where [`padded`] says so;
/// returns the ciphertext length.
pub fn encrypt_message(
    desc: &CipherDesc,
    engine: &mut dyn Engine,
    msg: &[u8],
    out: &mut [u8],
) -> Result<usize, CipherError> {
    if !padded(desc, msg.len()) {
        return engine.process(msg, out);
    }
    let whole = msg.len() - msg.len() % desc.block;
    let mut n = engine.process(&msg[..whole], out)?;
    let mut last = [0u8; 32];
    let tail = &msg[whole..];
    let pad = pad_len(msg.len(), desc.block);
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()..desc.block].fill(pad as u8);
    n += engine.process(&last[..desc.block], &mut out[n..])?;
    Ok(n)
}

/// Decrypts one message of original length `msg_len`, checking and
/// stripping the padding where [`padded`] says so; returns the plaintext
/// length.
pub fn decrypt_message(
    desc: &CipherDesc,
    engine: &mut dyn Engine,
    ct: &[u8],
    msg_len: usize,
    out: &mut [u8],
) -> Result<usize, CipherError> {
    let n = engine.process(ct, out)?;
    if !padded(desc, msg_len) {
        return Ok(n);
    }
    let pad = *out[..n].last().ok_or(CipherError::EmptyDecryption)? as usize;
    let good = (1..=desc.block).contains(&pad)
        && pad <= n
        && out[n - pad..n].iter().all(|&b| b as usize == pad);
    if good {
        Ok(n - pad)
    } else {
        Err(CipherError::BadPadding)
    }
}

/// Round trip at one size on random data: encrypt, decrypt, compare; the
/// ciphertext must also differ from the plaintext.
pub fn round_trip(desc: &CipherDesc, key: &[u8], iv: &[u8], msg: &[u8]) -> CheckResult {
    let engines = engine::build(desc, Dir::Encrypt, key, iv)
        .and_then(|e| Ok((e, engine::build(desc, Dir::Decrypt, key, iv)?)));
    match engines {
        Ok((mut enc, mut dec)) => round_trip_with(desc, enc.as_mut(), dec.as_mut(), msg),
        Err(e) => CheckResult::fail(format!("roundtrip:{} B", msg.len()), e.to_string()),
    }
}

/// [`round_trip`] on engines already built.
pub fn round_trip_with(
    desc: &CipherDesc,
    enc: &mut dyn Engine,
    dec: &mut dyn Engine,
    msg: &[u8],
) -> CheckResult {
    let name = format!("roundtrip:{} B", msg.len());
    let mut run = || -> Result<String, CheckFailure> {
        let mut ct = vec![0u8; msg.len() + OUT_SLACK];
        let n = encrypt_message(desc, enc, msg, &mut ct)?;
        ct.truncate(n);
        if msg.len() >= 16 && ct[..16] == msg[..16] {
            return Err(CheckFailure::CiphertextIsPlaintext);
        }
        let mut back = vec![0u8; n + OUT_SLACK];
        let m = decrypt_message(desc, dec, &ct, msg.len(), &mut back)?;
        if back[..m] != *msg {
            let at = back
                .iter()
                .zip(msg)
                .position(|(a, b)| a != b)
                .unwrap_or(m.min(msg.len()));
            return Err(CheckFailure::RoundTripDiffers {
                returned: m,
                sent: msg.len(),
                at,
            });
        }
        Ok(format!("{} B -> {n} B -> {m} B", msg.len()))
    };
    match run() {
        Ok(d) => CheckResult::pass(name, d),
        Err(e) => CheckResult::fail(name, e.to_string()),
    }
}
