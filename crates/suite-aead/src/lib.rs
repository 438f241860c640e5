//! The `aead` suite: authenticated encryption across OpenSSL, libsodium,
//! RustCrypto and libaegis.
//!
//! It reproduces seed 003 (AEGIS against AES-GCM and ChaCha20-Poly1305:
//! GB/s on 20 MB messages, operations/s on 1 KB) and seed 004 (GCM against
//! CCM; a flipped bit must fail decryption) and widens both to a matrix of
//! algorithms ([`algorithms`]) by backends ([`backend`]). Nothing is timed
//! before it is shown correct ([`checks`]: Wycheproof and other published
//! vectors, round trip, tamper, interop); cells a library lacks are planned
//! as unavailable with the reason. [`case`] states what the timed region
//! holds, [`summary`] draws the seed-shaped tables and [`papers`] the
//! `cryptobench paper` entries.
#![deny(missing_docs)]

pub mod algorithms;
pub mod backend;
pub mod case;
mod charts;
pub mod checks;
pub mod cli;
mod papers;
pub mod stream;
pub mod summary;
pub mod vectors;

use algorithms::{Algorithm, Family, ALGORITHMS};
use backend::{Backend, Params};
use case::{AeadCase, CaseConfig, NonceMode, Operation};
use checks::CheckCache;
use cryptobench_core::{
    BackendInfo, CaseSpec, Error, Offer, PlannedCase, RunConfig, Setup, Suite, SuiteProfile,
};
use std::sync::Arc;

pub use papers::papers;

/// Suite name on the command line and in results.
pub const SUITE: &str = "aead";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str = "AEADs (AES-GCM/CCM/OCB/GCM-SIV/SIV, ChaCha20-Poly1305, XChaCha, AEGIS) across OpenSSL, libsodium, RustCrypto, libaegis";

/// The label every AES-SIV cell carries: what its determinism costs.
pub const DETERMINISTIC_LABEL: &str = "deterministic: repeats reveal equal messages";

/// Seed 003's headline sizes: data rate on 20 MB, operations/s on 1 KB.
pub const SEED003_RATE_BYTES: u64 = 20_000_000;
/// Seed 003's operations/s size.
pub const SEED003_OPS_BYTES: u64 = 1_000;
/// `openssl speed -bytes 16384`: the fidelity comparison size.
pub const PEER_BYTES: u64 = 16_384;

/// The default run's headline sizes: a tiny message (per-call cost), seed
/// 003's 1 KB (operations/s), `openssl speed`'s 16 KiB (the fidelity size)
/// and 1 MiB (bulk rate: 20 MB gives the same rate at twenty times the
/// time per sample). The sweep between and beyond them is [`FULL_SIZES`].
pub const DEFAULT_SIZES: [u64; 4] = [16, 1_000, 16_384, 1_048_576];
/// `--full` sizes (issue 4): 0 B to 20 MB.
pub const FULL_SIZES: [u64; 10] = [
    0, 16, 64, 256, 1_000, 8_192, 16_384, 65_536, 1_048_576, 20_000_000,
];
/// `--quick` sizes: a few seconds for the whole suite.
pub const QUICK_SIZES: [u64; 4] = [16, 1_000, 16_384, 1_048_576];

/// The comparison group of `alg`'s `op` cases at `size`: one per mode
/// family, so the variants the advice weighs against each other (AEGIS-128L
/// against AEGIS-256, AES-128-GCM against AES-256-GCM) and a primitive's
/// backends and runtime twins are timed in the same rounds. One group per
/// size, cut at the engine's largest group in plan order, put AEGIS-128L and
/// AEGIS-256 in different rounds, and a busy A/A pair of quick runs picked
/// one for 1 KB messages, then the other.
pub(crate) fn group_key(alg: &Algorithm, op: &str, size: u64) -> String {
    let family = match alg.family {
        Family::Gcm => "AES-GCM",
        Family::Ccm => "AES-CCM",
        Family::Ocb => "AES-OCB",
        Family::GcmSiv | Family::Siv => "AES-SIV",
        Family::ChaChaIetf | Family::ChaChaOriginal | Family::XChaCha => "ChaCha20",
        Family::Aegis128L
        | Family::Aegis256
        | Family::Aegis128X2
        | Family::Aegis128X4
        | Family::Aegis256X2
        | Family::Aegis256X4 => "AEGIS",
    };
    format!("{SUITE}/{family}/{op}/{size}B")
}

/// The group of `alg`'s fidelity comparison: the `openssl speed -evp` peer
/// beside the same loop run here (and its runtime twins), whose ratio the
/// fidelity verdict reads.
fn fidelity_group(alg: &Algorithm) -> String {
    group_key(alg, "fidelity", PEER_BYTES)
}

/// Messages from this size up are timed from memory: before each batch the
/// message and output buffers are flushed from every cache level. Seed
/// 003's 20 MB (40 MB with the ciphertext) went to memory on its 8 MB L3;
/// on a VM reporting a 32 MiB or 260 MiB L3 shared with other tenants, part
/// of them stayed in cache by turns, and AEGIS-128L over AES-256-GCM read
/// 1.60x-2.32x in five quick papers of one afternoon.
pub const FROM_MEMORY_BYTES: u64 = 8 << 20;
/// The parameter saying a case is timed from memory.
pub const CACHE_PARAM: &str = "cache";

/// Whether a message of `size` bytes is timed from memory (flushed from
/// the caches before each batch): [`FROM_MEMORY_BYTES`] and up, where this
/// CPU can flush.
pub fn timed_from_memory(size: u64) -> bool {
    size >= FROM_MEMORY_BYTES && cryptobench_engine::host::cpu::CAN_FLUSH
}

/// Options of one benchmark (from `cryptobench aead` flags or a paper).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Algorithms to run; `None` = the default set.
    pub algorithms: Option<Vec<&'static Algorithm>>,
    /// Message sizes; `None` = [`DEFAULT_SIZES`] ([`QUICK_SIZES`] quick,
    /// [`FULL_SIZES`] full).
    pub sizes: Option<Vec<u64>>,
    /// Operations; `None` = encrypt and decrypt (encrypt only when quick).
    pub operations: Option<Vec<Operation>>,
    /// Associated-data bytes per message.
    pub aad: usize,
    /// Nonce generation.
    pub nonce: NonceMode,
    /// Key schedule inside every operation.
    pub per_message_init: bool,
    /// Tag length for every algorithm that allows it; `None` = each default.
    pub tag_len: Option<usize>,
    /// Leave out the `openssl speed` peers.
    pub no_peers: bool,
}

/// The aead suite.
#[derive(Debug, Clone, Default)]
pub struct AeadSuite {
    /// What to run.
    pub options: Options,
}

impl AeadSuite {
    /// A suite with these options.
    pub fn new(options: Options) -> Self {
        Self { options }
    }

    fn algorithms(&self, cfg: &RunConfig) -> Vec<&'static Algorithm> {
        match &self.options.algorithms {
            Some(list) => list.clone(),
            // Quick runs leave out the extras (AES-192, AEGIS X2/X4).
            None => ALGORITHMS
                .iter()
                .filter(|a| (a.default || cfg.full) && !(cfg.quick && a.key_len == 24))
                .collect(),
        }
    }

    fn sizes(&self, cfg: &RunConfig) -> Vec<u64> {
        match &self.options.sizes {
            Some(s) => s.clone(),
            None if cfg.quick => QUICK_SIZES.to_vec(),
            None if cfg.full => FULL_SIZES.to_vec(),
            None => DEFAULT_SIZES.to_vec(),
        }
    }

    /// Operations for `alg`: as asked, else encrypt everywhere plus decrypt
    /// for GCM and CCM (seed 004 compares both directions); quick runs
    /// encrypt only. Keeps the default run within a few minutes.
    fn operations(&self, cfg: &RunConfig, alg: &Algorithm) -> Vec<Operation> {
        match &self.options.operations {
            Some(o) => o.clone(),
            None if cfg.quick => vec![Operation::Encrypt],
            None if matches!(alg.family, Family::Gcm | Family::Ccm) => {
                vec![Operation::Encrypt, Operation::Decrypt]
            }
            None => vec![Operation::Encrypt],
        }
    }

    fn spec(
        &self,
        alg: &Algorithm,
        backend: Backend,
        op: Operation,
        size: u64,
        tag: usize,
    ) -> CaseSpec {
        let mut spec = CaseSpec::new(
            SUITE,
            alg.name,
            backend.name(),
            backend.version(),
            op.name(),
        )
        .size(size)
        .param("tag", tag)
        .param("aad", self.options.aad)
        .param("nonce", self.options.nonce.name())
        // A rough 1 GB/s plus 200 ns per message, for the ETA only.
        .expect_ns(size as f64 + 200.0)
        .group(group_key(alg, op.name(), size));
        if self.options.per_message_init {
            spec = spec.param("init", "per-message");
        }
        if timed_from_memory(size) {
            spec = spec.param(CACHE_PARAM, "flushed before each batch");
        }
        if alg.family == Family::Siv {
            // Misuse-resistant, not nonce-free: with a repeated nonce (or
            // none) equal messages give equal ciphertexts.
            spec = spec.label(DETERMINISTIC_LABEL);
        }
        spec
    }
}

impl Suite for AeadSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(summary::tables, summary::headline, charts::charts)
    }

    fn backends(&self) -> Vec<BackendInfo> {
        cryptobench_core::infos(backend::all())
    }

    fn primitives(&self) -> Vec<String> {
        ALGORITHMS.iter().map(|a| a.name.to_string()).collect()
    }

    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let sizes = self.sizes(cfg);
        let algs = self.algorithms(cfg);
        let seed = cfg.seed.unwrap_or_else(time_seed);
        let cache = Arc::new(CheckCache::new(seed));
        let mut plan = Vec::new();
        let headline = sizes.first().copied().unwrap_or(0);
        for alg in &algs {
            let alg: &'static Algorithm = alg;
            let tag = self.options.tag_len.unwrap_or(alg.default_tag);
            let ops = self.operations(cfg, alg);
            for &backend in backend::all() {
                if !cfg.wants_backend(backend.name()) {
                    continue;
                }
                let first = self.spec(alg, backend, Operation::Encrypt, headline, tag);
                match backend.offers(alg) {
                    Offer::NotOffered => continue,
                    Offer::Unavailable(reason) => {
                        plan.push(PlannedCase::unavailable(first, reason));
                        continue;
                    }
                    Offer::Runs => {}
                }
                if !alg.tag_lens.contains(&tag) {
                    let allowed: Vec<String> = alg.tag_lens.iter().map(|t| t.to_string()).collect();
                    plan.push(PlannedCase::skipped(
                        first,
                        format!(
                            "{} takes tags of {} bytes, not {tag}",
                            alg.name,
                            allowed.join(", ")
                        ),
                    ));
                    continue;
                }
                let probe_key = vec![0u8; alg.key_len];
                let probe = Params {
                    key: &probe_key,
                    nonce_len: alg.nonce_len,
                    tag_len: tag,
                };
                let empty_message = match backend.build(alg, &probe) {
                    Ok(sealer) => sealer.empty_message(),
                    Err(e) => {
                        plan.push(PlannedCase::skipped(first, e.0));
                        continue;
                    }
                };
                for &op in &ops {
                    for &size in &sizes {
                        let spec = self.spec(alg, backend, op, size, tag);
                        if let (0, Err(why)) = (size, &empty_message) {
                            plan.push(PlannedCase::skipped(spec, why.0.clone()));
                            continue;
                        }
                        if let Some(max) = max_message(alg).filter(|max| size > *max) {
                            plan.push(PlannedCase::skipped(
                                spec,
                                format!(
                                    "{} with a {}-byte nonce takes messages up to {} bytes (NIST SP 800-38C: length field of {} bytes)",
                                    alg.name,
                                    alg.nonce_len,
                                    max,
                                    15 - alg.nonce_len
                                ),
                            ));
                            continue;
                        }
                        let case_cfg = CaseConfig {
                            alg,
                            backend,
                            op,
                            size: size as usize,
                            aad_len: self.options.aad,
                            tag_len: tag,
                            nonce: self.options.nonce,
                            per_message_init: self.options.per_message_init,
                            seed,
                        };
                        let cache = cache.clone();
                        plan.push(PlannedCase::ready(spec, move || {
                            Ok(Box::new(AeadCase::new(case_cfg.clone(), cache.clone())?))
                        }));
                    }
                }
            }
        }
        // The peers stand beside native cases; with none to run (every one
        // skipped, e.g. by --tag-length) they would make a run of nothing.
        let any_native = plan.iter().any(|c| matches!(c.setup, Setup::Ready(_)));
        if !self.options.no_peers && any_native {
            let encrypts = algs
                .first()
                .map(|a| self.operations(cfg, a).contains(&Operation::Encrypt))
                .unwrap_or(false);
            plan.extend(self.peers(cfg, &algs, encrypts, &sizes, &cache));
        }
        Ok(plan)
    }
}

impl AeadSuite {
    /// `openssl speed -evp` at 16 KiB beside OpenSSL's own cases (fidelity).
    fn peers(
        &self,
        cfg: &RunConfig,
        algs: &[&'static Algorithm],
        encrypts: bool,
        sizes: &[u64],
        cache: &Arc<CheckCache>,
    ) -> Vec<PlannedCase> {
        use cryptobench_engine::build::peers::{openssl_speed_evp, OPENSSL_SPEED};
        let openssl = backend::openssl();
        if !cfg.wants_backend(OPENSSL_SPEED) && !cfg.wants_backend(openssl.name()) {
            return Vec::new();
        }
        // Only beside an OpenSSL case of the same size and operation.
        if !encrypts || !sizes.contains(&PEER_BYTES) {
            return Vec::new();
        }
        let mut out = Vec::new();
        // Each peer round is a one-second process and a fidelity verdict
        // takes five: unless `--full` or `--algorithms` asks for both,
        // the first one run is checked.
        let named = self.options.algorithms.is_some() && !cfg.quick;
        let peers = if cfg.full || named { 2 } else { 1 };
        for (alg, evp) in [
            ("AES-256-GCM", "aes-256-gcm"),
            ("ChaCha20-Poly1305", "chacha20-poly1305"),
        ]
        .into_iter()
        .filter_map(|(name, evp)| Some((algs.iter().copied().find(|a| a.name == name)?, evp)))
        .take(peers)
        {
            let name = alg.name;
            let mut peer = openssl_speed_evp(SUITE, name, evp, "encrypt", PEER_BYTES);
            peer.spec.group = Some(fidelity_group(alg));
            out.push(peer);
            if cfg.wants_backend(openssl.name()) {
                // The peer's own loop, run here: isolates the harness.
                let backend = openssl;
                let spec = CaseSpec::new(
                    SUITE,
                    name,
                    backend.name(),
                    backend.version(),
                    stream::STREAM,
                )
                .size(PEER_BYTES)
                .param("loop", "EVP_EncryptUpdate only, as openssl speed -evp")
                .expect_ns(PEER_BYTES as f64)
                .group(fidelity_group(alg));
                let cache = cache.clone();
                out.push(PlannedCase::ready(spec, move || {
                    Ok(Box::new(stream::StreamCase::new(
                        alg,
                        PEER_BYTES as usize,
                        cache.clone(),
                    )?))
                }));
            }
        }
        out
    }
}

/// The longest message an algorithm takes at its benchmark nonce size,
/// where that is below what a benchmark might ask: CCM's length field has
/// 15 - nonce bytes (a 12-byte nonce allows 2^24 - 1 bytes, less than 20 MB).
fn max_message(alg: &Algorithm) -> Option<u64> {
    (alg.family == Family::Ccm).then(|| (1u64 << (8 * (15 - alg.nonce_len as u64))) - 1)
}

/// A seed for check randomness when `--seed` is absent.
fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x5EED)
}

#[cfg(test)]
mod tests;
