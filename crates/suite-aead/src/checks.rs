//! Correct before timed: the checks every AEAD case passes before the
//! engine measures it.
//!
//! - known answers: the Wycheproof file for the algorithm (valid vectors
//!   open and seal exactly, invalid ones are rejected), plus the AEGIS
//!   draft's 256-bit-tag vectors and RFC 7253's OCB sample results;
//! - round trip at the case's own parameters;
//! - tamper (seed 004): single-bit flips in ciphertext, tag, associated data
//!   and nonce, every one of which must be rejected;
//! - interop: what this backend seals, every other backend of the same
//!   algorithm opens, and the other way round.
//!
//! They depend on algorithm, backend and tag length only, not on the message
//! size, so [`CheckCache`] runs them once and every size shares the result.

use crate::algorithms::{Algorithm, Family};
use crate::backend::{self, open_vec, seal_vec, Backend, Params, Sealer};
use crate::vectors::{self, VectorFile, VectorReport};
use cryptobench_core::CheckResult;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Single-bit flips per tampered field (seed 004: a flipped bit must fail).
pub const FLIPS_PER_FIELD: usize = 64;

/// A small deterministic generator (SplitMix64) for keys, messages and flip
/// positions in checks; reproducible under `--seed`.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform-enough index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(len + 8);
        while v.len() < len {
            v.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        v.truncate(len);
        v
    }
}

/// Flips one random bit in a copy of `data`.
fn flip(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    let bit = rng.below(data.len() * 8);
    out[bit / 8] ^= 1 << (bit % 8);
    out
}

/// Tamper test: seals one message, then flips [`FLIPS_PER_FIELD`] random
/// single bits in each of ciphertext, tag, associated data and nonce; every
/// altered message must be rejected. One accepted forgery fails the check.
pub fn tamper(sealer: &mut Sealer, alg: &Algorithm, rng: &mut Rng) -> CheckResult {
    let name = "tamper";
    let msg = rng.bytes(64);
    let aad = rng.bytes(32);
    let nonce = rng.bytes(alg.nonce_len);
    let sealed = match seal_vec(sealer, &nonce, &aad, &msg) {
        Ok(s) => s,
        Err(_) => return CheckResult::fail(name, "sealing the probe message failed"),
    };
    match open_vec(sealer, &nonce, &aad, &sealed) {
        Ok(pt) if pt == msg => {}
        _ => return CheckResult::fail(name, "the untampered probe message did not open"),
    }
    let ct_len = msg.len();
    let mut rejected = 0usize;
    let mut accepted: Vec<&str> = Vec::new();
    for field in ["ciphertext", "tag", "aad", "nonce"] {
        for _ in 0..FLIPS_PER_FIELD {
            let ok = match field {
                "ciphertext" => {
                    let mut s = flip(rng, &sealed[..ct_len]);
                    s.extend_from_slice(&sealed[ct_len..]);
                    open_vec(sealer, &nonce, &aad, &s).is_ok()
                }
                "tag" => {
                    let mut s = sealed[..ct_len].to_vec();
                    s.extend_from_slice(&flip(rng, &sealed[ct_len..]));
                    open_vec(sealer, &nonce, &aad, &s).is_ok()
                }
                "aad" => open_vec(sealer, &nonce, &flip(rng, &aad), &sealed).is_ok(),
                _ => open_vec(sealer, &flip(rng, &nonce), &aad, &sealed).is_ok(),
            };
            if ok {
                if !accepted.contains(&field) {
                    accepted.push(field);
                }
            } else {
                rejected += 1;
            }
        }
    }
    let total = 4 * FLIPS_PER_FIELD;
    if rejected == total {
        CheckResult::pass(name, format!("tamper: {rejected}/{total} rejected"))
    } else {
        CheckResult::fail(
            name,
            format!(
                "tamper: {rejected}/{total} rejected; FORGERY ACCEPTED after flipping a bit in {}",
                accepted.join(", ")
            ),
        )
    }
}

/// Round trip at the case's parameters over awkward lengths.
pub fn roundtrip(
    sealer: &mut Sealer,
    alg: &Algorithm,
    aad_len: usize,
    rng: &mut Rng,
) -> CheckResult {
    let name = "roundtrip";
    let empty = sealer.empty_message();
    for len in [0usize, 1, 15, 16, 17, 63, 255, 1000, 4097] {
        if len == 0 && empty.is_err() {
            continue;
        }
        let msg = rng.bytes(len);
        let aad = rng.bytes(aad_len);
        let nonce = rng.bytes(alg.nonce_len);
        let sealed = match seal_vec(sealer, &nonce, &aad, &msg) {
            Ok(s) => s,
            Err(_) => return CheckResult::fail(name, format!("sealing {len} bytes failed")),
        };
        if sealed.len() != len + sealer.tag_len() || (len >= 16 && sealed[..len] == msg[..]) {
            return CheckResult::fail(name, format!("sealing {len} bytes gave a malformed output"));
        }
        match open_vec(sealer, &nonce, &aad, &sealed) {
            Ok(pt) if pt == msg => {}
            Ok(_) => return CheckResult::fail(name, format!("{len} bytes opened to other bytes")),
            Err(_) => return CheckResult::fail(name, format!("{len} bytes did not open")),
        }
    }
    match empty {
        Ok(()) => CheckResult::pass(name, "lengths 0..4097 seal and open back"),
        Err(why) => CheckResult::pass(name, format!("lengths 1..4097 seal and open back ({why})")),
    }
}

/// Known-answer vector files for an algorithm, as (file, parsed).
fn known_answer_files(alg: &Algorithm) -> Vec<&'static VectorFile> {
    static EXTRA: OnceLock<Vec<VectorFile>> = OnceLock::new();
    let extra = EXTRA.get_or_init(|| {
        [
            (
                "draft-irtf-cfrg-aegis-aead A.2 (tag256)",
                vectors::AEGIS128L_TAG256_VECTORS,
            ),
            (
                "draft-irtf-cfrg-aegis-aead A.3 (tag256)",
                vectors::AEGIS256_TAG256_VECTORS,
            ),
            ("RFC 7253 Appendix A", vectors::OCB_RFC7253_VECTORS),
            ("RFC 5297 Appendix A.1", vectors::SIV_RFC5297_VECTORS),
        ]
        .iter()
        .filter_map(|(src, text)| vectors::parse(src, text).ok())
        .collect()
    });
    let mut files: Vec<&'static VectorFile> = vectors::wycheproof_for(alg).into_iter().collect();
    let wanted = match alg.family {
        Family::Aegis128L => Some("AEGIS128L"),
        Family::Aegis256 => Some("AEGIS256"),
        Family::Ocb => Some("AES-OCB"),
        Family::Siv => Some("AEAD-AES-SIV-CMAC"),
        _ => None,
    };
    files.extend(
        extra
            .iter()
            .filter(|f| Some(f.algorithm.as_str()) == wanted),
    );
    files
}

/// RFC 7253, Appendix A, "wider variety" test: the tag over 384
/// encryptions of growing messages, for each key and tag length. The
/// expected outputs are the RFC's, as (key bytes, tag bytes, output).
const OCB_ITERATED: [(usize, usize, &str); 3] = [
    (16, 16, "67e944d23256c5e0b6c61fa22fdf1ea2"),
    (32, 16, "d90eb8e9c977c88b79dd793d7ffa161c"),
    (32, 12, "5458359ac23b0cba9e6330dd"),
];

/// Runs the RFC 7253 iterated test on `backend` for `alg`'s key size.
fn ocb_iterated(alg: &Algorithm, backend: Backend) -> Vec<CheckResult> {
    let num2str96 = |n: usize| {
        let mut nonce = [0u8; 12];
        nonce[8..].copy_from_slice(&(n as u32).to_be_bytes());
        nonce
    };
    let mut out = Vec::new();
    for (key_len, tag_len, expected) in OCB_ITERATED.iter().filter(|v| v.0 == alg.key_len) {
        let name = format!("kat:RFC 7253 Appendix A iterated (TAGLEN {})", tag_len * 8);
        // K = zeros(KEYLEN - 8) || num2str(TAGLEN, 8)
        let mut key = vec![0u8; *key_len];
        key[key_len - 1] = (tag_len * 8) as u8;
        let params = Params {
            key: &key,
            nonce_len: 12,
            tag_len: *tag_len,
        };
        let mut sealer = match backend.build(alg, &params) {
            Ok(s) => s,
            Err(e) => {
                out.push(CheckResult::skipped(name, e.0));
                continue;
            }
        };
        let mut c = Vec::new();
        let mut ok = true;
        for i in 0..128 {
            let s = vec![0u8; i];
            for (n, aad, msg) in [
                (3 * i + 1, &s[..], &s[..]),
                (3 * i + 2, &[][..], &s[..]),
                (3 * i + 3, &s[..], &[][..]),
            ] {
                match seal_vec(&mut sealer, &num2str96(n), aad, msg) {
                    Ok(sealed) => c.extend_from_slice(&sealed),
                    Err(_) => ok = false,
                }
            }
        }
        let last = seal_vec(&mut sealer, &num2str96(385), &c, &[]).map(hex::encode);
        out.push(match last {
            Ok(got) if ok && got == *expected => CheckResult::pass(name, format!("output {got}")),
            Ok(got) => CheckResult::fail(name, format!("output {got}, RFC 7253 says {expected}")),
            Err(_) => CheckResult::fail(name, "sealing failed"),
        });
    }
    out
}

/// Runs every known-answer file of `alg` on `backend`: one check per file.
pub fn known_answers(alg: &Algorithm, backend: Backend) -> Vec<CheckResult> {
    let mut files = known_answer_files(alg);
    if alg.family == Family::Ocb {
        let iterated = ocb_iterated(alg, backend);
        if alg.key_len != 16 {
            // Appendix A's sample results are AES-128 only.
            files.clear();
        }
        let mut results: Vec<CheckResult> = files
            .iter()
            .map(|f| report_check(&format!("kat:{}", f.source), &vectors::run(f, alg, backend)))
            .collect();
        results.extend(iterated);
        return results;
    }
    if files.is_empty() {
        return vec![CheckResult::skipped(
            "kat",
            format!(
                "no published vectors for {} here; round trip, tamper and interop checks apply",
                alg.name
            ),
        )];
    }
    files
        .iter()
        .map(|f| report_check(&format!("kat:{}", f.source), &vectors::run(f, alg, backend)))
        .collect()
}

/// Turns a vector report into a check: fail on any failure, skipped when
/// nothing applied.
pub fn report_check(name: &str, r: &VectorReport) -> CheckResult {
    if !r.failed.is_empty() {
        CheckResult::fail(name, r.summary())
    } else if r.passed == 0 {
        CheckResult::skipped(name, r.summary())
    } else {
        CheckResult::pass(name, r.summary())
    }
}

/// Interop: messages sealed here open on every other backend of `alg`
/// (same tag length), and theirs open here.
pub fn interop(alg: &Algorithm, backend: Backend, tag_len: usize, rng: &mut Rng) -> CheckResult {
    let name = "interop";
    let key = rng.bytes(alg.key_len);
    let params = Params {
        key: &key,
        nonce_len: alg.nonce_len,
        tag_len,
    };
    let mut mine = match backend.build(alg, &params) {
        Ok(s) => s,
        Err(e) => return CheckResult::skipped(name, e.0),
    };
    let mut peers = Vec::new();
    let mut failures = Vec::new();
    for other in backend::all()
        .iter()
        .copied()
        .filter(|b| b.name() != backend.name())
    {
        let Ok(mut theirs) = other.build(alg, &params) else {
            continue;
        };
        // An empty message only where both sides can seal one.
        let both_take_empty = mine.empty_message().is_ok() && theirs.empty_message().is_ok();
        for len in [0usize, 1, 16, 100, 1024] {
            if len == 0 && !both_take_empty {
                continue;
            }
            let msg = rng.bytes(len);
            let aad = rng.bytes(13);
            let nonce = rng.bytes(alg.nonce_len);
            let there = seal_vec(&mut mine, &nonce, &aad, &msg)
                .map(|s| open_vec(&mut theirs, &nonce, &aad, &s) == Ok(msg.clone()));
            let back = seal_vec(&mut theirs, &nonce, &aad, &msg)
                .map(|s| open_vec(&mut mine, &nonce, &aad, &s) == Ok(msg.clone()));
            if there != Ok(true) {
                failures.push(format!("{} -> {} at {len} B", backend.name(), other.name()));
            }
            if back != Ok(true) {
                failures.push(format!("{} -> {} at {len} B", other.name(), backend.name()));
            }
        }
        peers.push(other.name());
    }
    if !failures.is_empty() {
        CheckResult::fail(
            name,
            format!("does not interoperate: {}", failures.join(", ")),
        )
    } else if peers.is_empty() {
        CheckResult::skipped(
            name,
            format!("no other backend implements {} here", alg.name),
        )
    } else {
        CheckResult::pass(
            name,
            format!("seals opened by and opens seals of: {}", peers.join(", ")),
        )
    }
}

/// Every check of one algorithm x backend x tag length.
pub fn all_checks(
    alg: &Algorithm,
    backend: Backend,
    tag_len: usize,
    aad_len: usize,
    seed: u64,
) -> Vec<CheckResult> {
    let mut rng = Rng::new(seed);
    let mut results = known_answers(alg, backend);
    let key = rng.bytes(alg.key_len);
    let params = Params {
        key: &key,
        nonce_len: alg.nonce_len,
        tag_len,
    };
    match backend.build(alg, &params) {
        Ok(mut sealer) => {
            results.push(roundtrip(&mut sealer, alg, aad_len, &mut rng));
            results.push(tamper(&mut sealer, alg, &mut rng));
        }
        Err(e) => results.push(CheckResult::fail("build", e.0)),
    }
    results.push(interop(alg, backend, tag_len, &mut rng));
    results
}

/// Algorithm, backend (by name), tag and AAD lengths.
type Key = (&'static str, &'static str, usize, usize);

/// Runs [`all_checks`] once per algorithm x backend x tag x AAD length and
/// hands every case of that combination the same results.
#[derive(Debug, Default)]
pub struct CheckCache {
    seed: u64,
    slots: Mutex<HashMap<Key, Arc<OnceLock<Vec<CheckResult>>>>>,
}

impl CheckCache {
    /// A cache whose checks draw their randomness from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// The checks of this combination, computed on first use.
    pub fn get(
        &self,
        alg: &'static Algorithm,
        backend: Backend,
        tag_len: usize,
        aad_len: usize,
    ) -> Vec<CheckResult> {
        let slot = {
            let mut map = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            map.entry((alg.name, backend.name(), tag_len, aad_len))
                .or_default()
                .clone()
        };
        slot.get_or_init(|| all_checks(alg, backend, tag_len, aad_len, self.seed))
            .clone()
    }
}
