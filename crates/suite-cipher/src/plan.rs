//! Which cases a run has: ciphers x backends x operations x sizes, each
//! ready, skipped with its reason, or unavailable with its reason.

use crate::case::{CaseParams, CipherCase, Op, SharedChecks};
use crate::catalog::{self, Backend, CipherDesc, Mode};
use crate::checks::{encrypt_message, padded};
use crate::engine::{self, Dir, OUT_SLACK};
use crate::registry::Registry;
use cryptobench_core::units::format_size;
use cryptobench_core::{CaseSpec, Error, PlannedCase, RunConfig};
use cryptobench_engine::sample::clock::{Clock, MonotonicClock};
use std::sync::Arc;

/// The default run's headline sizes, one per regime: a tiny message (per-call
/// cost), 1 KiB (short records), 16 KiB (`openssl speed`'s largest block,
/// where a cipher's throughput shows) and 2 MB (bulk; 20 MB gives the same
/// rate at ten times the time per sample). The sweep between and beyond
/// them is [`FULL_SIZES`].
pub const DEFAULT_SIZES: [u64; 4] = [16, 1024, 16384, 2_000_000];
/// `--full`: the sizes, 4 B, 1 KiB, 4 KiB, 16 KiB, 200 KB, 2 MB,
/// 20 MB (seed 001 measured 1-4 B, 1-4 KB, 200 KB, 2 MB and 20 MB).
pub const FULL_SIZES: [u64; 7] = [4, 1024, 4096, 16384, 200_000, 2_000_000, 20_000_000];
/// `--quick`: seconds, not minutes.
pub const QUICK_SIZES: [u64; 3] = [16, 1024, 16384];
/// The representative default set, kept small so the default run's cipher
/// part takes about a minute: the seed's ciphers (AES-256-CFB, libmcrypt's Blowfish
/// CFB8), the two `openssl speed` comparisons, ChaCha20, 3DES as the legacy
/// 64-bit block, and the seed's puzzling DES-CFB1 (`--all` has the rest).
pub const DEFAULT_CIPHERS: [&str; 7] = [
    "AES-128-CTR",
    "AES-256-CBC",
    "AES-256-CFB",
    "ChaCha20",
    "DES-EDE3-CBC",
    "BF-CFB8",
    "DES-CFB1",
];
/// `--quick` ciphers.
pub const QUICK_CIPHERS: [&str; 4] = ["AES-128-CTR", "AES-256-CBC", "ChaCha20", "BF-CFB8"];
/// `--all` without `--sizes`: the headline ciphers (the default run's set,
/// [`DEFAULT_CIPHERS`]) keep every default size; every other cipher (the
/// long tail, about 280 cipher x backend pairs) is measured at this one
/// size: 16 KiB, `openssl speed`'s largest block, where a cipher's
/// throughput shows and no mode (not even CFB1) needs more than a second
/// per message. At the engine's standard budget a case takes about 0.35 s
/// whatever its size, so the whole grid at seven sizes (~1900 cases, plus
/// the php twins) would take over eleven minutes. `--full` or `--sizes`
/// measure every cipher at every size asked (`--all --sizes 200KB` is seed
/// 001's TEST 7 ranking).
pub const ALL_TAIL_SIZES: [u64; 1] = [16384];
/// `--all --quick`: the long tail at the same 16 KiB, the largest quick size.
pub const QUICK_ALL_TAIL_SIZES: [u64; 1] = [16384];
/// One operation estimated longer than this is skipped unless the sizes
/// were given explicitly, `--full` included: DES-CFB1 takes 18 s for
/// 20 MB here and its five calls per backend and direction would take
/// `--full` past its hour (seed 001 timed CFB1 at 200 KB and 2 MB only).
const SLOW_LIMIT_NS: f64 = 1.5e9;
const QUICK_SLOW_LIMIT_NS: f64 = 5e7;
/// One operation longer than this is sampled one call at a time.
const ONE_AT_A_TIME_NS: f64 = 1e7;
/// Largest message accepted (memory: three buffers of this size).
const MAX_SIZE: u64 = 1 << 30;

/// `setup` parameter: key schedule once per case, IV set per batch.
pub const SETUP_KEY_ONCE: &str = "key-once";
/// `setup` parameter: key and IV set with every message (`--per-message-init`).
pub const SETUP_PER_MESSAGE: &str = "per-message";
/// `setup` parameter: libmcrypt ncfb restarting at every partial-block message.
pub const SETUP_MCRYPT_NCFB: &str = "per-message (libmcrypt ncfb)";

/// The suite's own options (from `cryptobench cipher ...` or a paper).
#[derive(Debug, Clone)]
pub struct Options {
    /// `--ciphers` as typed.
    pub ciphers: Option<String>,
    /// `--all`.
    pub all: bool,
    /// `--secure-only`.
    pub secure_only: bool,
    /// `--per-message-init`.
    pub per_message_init: bool,
    /// `--operations`; `None` = default for the selection.
    pub operations: Option<Vec<Op>>,
    /// `--sizes`; `None` = default for the run.
    pub sizes: Option<Vec<u64>>,
    /// Add the `openssl speed` peer cases.
    pub peers: bool,
    /// Restrict each cipher to one backend (papers).
    pub only: Option<Vec<(String, Backend)>>,
    /// Drop names this machine lacks instead of failing (papers, whose
    /// libmcrypt half may be missing).
    pub lenient: bool,
}

impl Default for Options {
    /// The default run: representative ciphers at the headline sizes,
    /// encrypt and decrypt, with the `openssl speed` peers.
    fn default() -> Self {
        Self {
            ciphers: None,
            all: false,
            secure_only: false,
            per_message_init: false,
            operations: None,
            sizes: None,
            peers: true,
            only: None,
            lenient: false,
        }
    }
}

/// The registry for the backends the run admits.
pub fn registry(cfg: &RunConfig) -> Registry {
    Registry::load(|b| cfg.wants_backend(b.name()))
}

/// The canonical names the options select (usage error on an unknown name).
pub fn selected_names(o: &Options, cfg: &RunConfig, reg: &Registry) -> Result<Vec<String>, Error> {
    let mut names: Vec<String> = if let Some(list) = &o.ciphers {
        // A name is judged against every backend: `--backend java` admits
        // no native one, yet its twins are planned from this suite's cells
        // (the caller re-plans without the filter). Names the admitted
        // backends do not offer are left out here. Without a filter `reg`
        // already holds every backend.
        let loaded;
        let every = if cfg.backends.is_some() {
            loaded = Registry::load(|_| true);
            &loaded
        } else {
            reg
        };
        let known: Vec<String> = if o.lenient {
            list.split(',')
                .filter_map(|n| every.resolve(n.trim()).ok())
                .collect()
        } else {
            every.resolve_list(list)?
        };
        known.iter().filter_map(|n| reg.resolve(n).ok()).collect()
    } else if o.all {
        reg.names().iter().map(|s| s.to_string()).collect()
    } else {
        let set: &[&str] = if cfg.quick {
            &QUICK_CIPHERS
        } else {
            &DEFAULT_CIPHERS
        };
        set.iter().filter_map(|n| reg.resolve(n).ok()).collect()
    };
    if o.secure_only {
        names.retain(|n| {
            reg.by_name[n]
                .first()
                .is_some_and(|d| catalog::recommended(&catalog::labels(d)))
        });
    }
    Ok(names)
}

fn sizes(o: &Options, cfg: &RunConfig) -> Result<Vec<u64>, Error> {
    let s = match &o.sizes {
        Some(s) => s.clone(),
        None if cfg.quick => QUICK_SIZES.to_vec(),
        None if cfg.full => FULL_SIZES.to_vec(),
        None => DEFAULT_SIZES.to_vec(),
    };
    if let Some(big) = s.iter().find(|&&b| b > MAX_SIZE) {
        return Err(Error::usage(format!(
            "--sizes: {} is larger than the 1 GiB this suite accepts",
            format_size(*big)
        )));
    }
    Ok(s)
}

/// The sizes of cipher `name`: the run's sizes, or for the long tail of an
/// `--all` run at default sizes [`ALL_TAIL_SIZES`] (see there why).
fn sizes_for(
    name: &str,
    o: &Options,
    cfg: &RunConfig,
    reg: &Registry,
    run_sizes: &[u64],
) -> Vec<u64> {
    let tail_only = o.all && o.ciphers.is_none() && o.sizes.is_none() && !cfg.full;
    let headline: &[&str] = if cfg.quick {
        &QUICK_CIPHERS
    } else {
        &DEFAULT_CIPHERS
    };
    if !tail_only
        || headline
            .iter()
            .any(|h| reg.resolve(h).is_ok_and(|n| n == name))
    {
        return run_sizes.to_vec();
    }
    if cfg.quick {
        QUICK_ALL_TAIL_SIZES.to_vec()
    } else {
        ALL_TAIL_SIZES.to_vec()
    }
}

fn operations(o: &Options, cfg: &RunConfig) -> Vec<Op> {
    match &o.operations {
        Some(ops) => ops.clone(),
        // Seed 001's ranking (TEST 7) is encrypt + decrypt of every cipher.
        None if o.all => vec![Op::Roundtrip],
        None if cfg.quick => vec![Op::Encrypt, Op::Roundtrip],
        // Each direction on its own answers the common questions (CBC and
        // CFB decrypt in parallel, encrypt cannot); their sum, seed 001's
        // round trip, is `--full`'s, `--all`'s and the papers'.
        None if cfg.full => Op::ALL.to_vec(),
        None => vec![Op::Encrypt, Op::Decrypt],
    }
}

/// Nanoseconds per byte of one encryption, from a short probe (untimed by
/// the engine; it only sets the ETA and the slow-case rule).
fn probe_ns_per_byte(desc: &CipherDesc) -> Option<f64> {
    let n = if matches!(desc.mode, Mode::Cfb1) {
        2048
    } else {
        16384
    };
    let key = vec![0x5au8; desc.key_len];
    // XTS refuses equal key halves.
    let key: Vec<u8> = key.iter().enumerate().map(|(i, k)| k ^ i as u8).collect();
    let iv = vec![0x3cu8; desc.iv_len];
    let mut e = engine::build(desc, Dir::Encrypt, &key, &iv).ok()?;
    let msg = vec![0u8; n];
    let mut out = vec![0u8; n + OUT_SLACK];
    let clock = MonotonicClock;
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let start = clock.now_ns();
        encrypt_message(desc, e.as_mut(), &msg, &mut out).ok()?;
        best = best.min(clock.now_ns().saturating_sub(start) as f64);
    }
    Some(best / n as f64)
}

fn spec(desc: &CipherDesc, op: Op, size: u64, per_message_init: bool) -> CaseSpec {
    let mut s = CaseSpec::new(
        "cipher",
        desc.name.clone(),
        desc.backend.name(),
        "",
        op.name(),
    )
    .size(size)
    .param("mode", desc.mode.name())
    .param("key_bits", desc.key_bits)
    .param(
        "setup",
        if per_message_init {
            SETUP_PER_MESSAGE
        } else {
            SETUP_KEY_ONCE
        },
    )
    .labels(catalog::labels(desc));
    if desc.mode.pads() {
        let p = if padded(desc, size as usize) {
            "pkcs7"
        } else {
            "none"
        };
        s = s.param("padding", p);
    }
    if desc.native != desc.name {
        s = s.param("native", &desc.native);
    }
    s
}

/// Every case of the run.
pub fn plan(o: &Options, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
    let reg = registry(cfg);
    let names = selected_names(o, cfg, &reg)?;
    let sizes = sizes(o, cfg)?;
    let ops = operations(o, cfg);
    let limit = if o.sizes.is_some() {
        f64::INFINITY
    } else if cfg.quick {
        QUICK_SLOW_LIMIT_NS
    } else {
        SLOW_LIMIT_NS
    };
    let versions: Vec<(&str, String)> = crate::registry::all()
        .iter()
        .map(|b| (b.name(), b.version()))
        .collect();
    let version = |b: Backend| {
        versions
            .iter()
            .find(|(x, _)| *x == b.name())
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    // Peers take about 4 s each (1-second `openssl speed` samples), so a
    // quick run leaves them out; they compare encryption only.
    let peers = o.peers
        && !cfg.quick
        && o.only.is_none()
        && ops.contains(&Op::Encrypt)
        && cfg.wants_backend(cryptobench_engine::build::peers::OPENSSL_SPEED);
    let mut out = Vec::new();
    for (backend, reason) in &reg.missing {
        let s = CaseSpec::new("cipher", "*", *backend, "", "encrypt");
        out.push(PlannedCase::unavailable(s, reason.clone()));
    }
    for name in &names {
        let mut descs = reg.by_name[name].clone();
        if let Some(only) = &o.only {
            descs.retain(|d| only.iter().any(|(n, b)| n == name && *b == d.backend));
        }
        let shared = Arc::new(SharedChecks::new(reg.by_name[name].clone()));
        let sizes = sizes_for(name, o, cfg, &reg, &sizes);
        for desc in descs {
            let base = |op: Op, size: u64| {
                let mut s = spec(&desc, op, size, o.per_message_init);
                s.backend_version = version(desc.backend);
                s
            };
            // Modes measured elsewhere or not at all: one line, not one per size.
            if matches!(desc.mode, Mode::Aead | Mode::TlsComposite | Mode::Null) {
                let reason = catalog::size_rule(&desc, 1).unwrap_or_default();
                out.push(PlannedCase::skipped(base(Op::Encrypt, 0), reason));
                continue;
            }
            let ns_per_byte = probe_ns_per_byte(&desc);
            let mut cells: Vec<(Op, u64)> = ops
                .iter()
                .flat_map(|&op| sizes.iter().map(move |&size| (op, size)))
                .collect();
            // The `openssl speed` comparison needs our OpenSSL encrypt at
            // the peer sizes even when the run's sizes lack them.
            let openssl = desc.backend.name() == cryptobench_suite_common::openssl_lib::NAME;
            if peers && openssl && crate::peers::has_peer(name) {
                for &size in crate::peers::sizes(cfg.full) {
                    if !cells.contains(&(Op::Encrypt, size)) {
                        cells.push((Op::Encrypt, size));
                    }
                }
            }
            for (op, size) in cells {
                let per_op = match op {
                    Op::Roundtrip => 2.0,
                    _ => 1.0,
                };
                let mut s = base(op, size);
                if crate::mcrypt::restarts_per_message(&desc, size as usize) {
                    // libmcrypt's ncfb falls out of step across a partial
                    // block, so those messages restart from key and IV.
                    s = s.param("setup", SETUP_MCRYPT_NCFB);
                }
                if let Some(reason) = catalog::size_rule(&desc, size) {
                    out.push(PlannedCase::skipped(s, reason));
                    continue;
                }
                let est = ns_per_byte.map(|r| r * size as f64 * per_op + 100.0);
                if let Some(est) = est {
                    s = s.expect_ns(est);
                    if est > limit {
                        let reason = format!(
                            "one {} of {} would take about {:.1} s; name the size with --sizes to measure it",
                            op.name(),
                            format_size(size),
                            est / 1e9
                        );
                        out.push(PlannedCase::skipped(s, reason));
                        continue;
                    }
                }
                let params = CaseParams {
                    desc: desc.clone(),
                    op,
                    size: size as usize,
                    per_message_init: o.per_message_init,
                    seed: cfg.seed,
                    shared: shared.clone(),
                    slow: est.is_some_and(|e| e > ONE_AT_A_TIME_NS),
                };
                out.push(PlannedCase::ready(s, move || {
                    Ok(Box::new(CipherCase::new(params.clone())?))
                }));
            }
        }
    }
    if peers {
        out.extend(crate::peers::cases(&names, cfg.full));
    }
    Ok(out)
}

/// `cryptobench cipher --list`: every selected cipher, its backends and labels.
pub fn listing(o: &Options, cfg: &RunConfig) -> Result<String, Error> {
    let reg = registry(cfg);
    let mut o = o.clone();
    if o.ciphers.is_none() {
        o.all = true;
    }
    let names = selected_names(&o, cfg, &reg)?;
    let mut text = String::new();
    for name in names {
        let descs = &reg.by_name[&name];
        let backends: Vec<&str> = descs.iter().map(|d| d.backend.name()).collect();
        let d = &descs[0];
        let note = catalog::size_rule(d, 1)
            .filter(|_| matches!(d.mode, Mode::Aead | Mode::TlsComposite | Mode::Null))
            .map(|r| format!("  [{r}]"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{name:<26} {:<30} {}{note}\n",
            backends.join(","),
            catalog::labels(d).join(", ")
        ));
    }
    for (backend, reason) in &reg.missing {
        text.push_str(&format!("{backend}: unavailable: {reason}\n"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Sizes planned per (cipher, backend), every case counted (skipped
    /// ones too: a size a mode refuses is still planned, with its reason).
    fn sizes_by_cipher(cases: &[PlannedCase]) -> BTreeMap<(String, String), BTreeSet<u64>> {
        let mut out: BTreeMap<(String, String), BTreeSet<u64>> = BTreeMap::new();
        for c in cases.iter().filter(|c| c.spec.input_bytes > 0) {
            out.entry((c.spec.primitive.clone(), c.spec.backend.clone()))
                .or_default()
                .insert(c.spec.input_bytes);
        }
        out
    }

    fn all(sizes: Option<Vec<u64>>) -> Options {
        Options {
            all: true,
            sizes,
            peers: false,
            ..Options::default()
        }
    }

    #[test]
    fn all_keeps_the_headline_at_every_size_and_the_tail_at_one() {
        let cfg = RunConfig {
            seed: Some(1),
            ..RunConfig::default()
        };
        let cases = plan(&all(None), &cfg).unwrap();
        let by = sizes_by_cipher(&cases);
        let every: BTreeSet<u64> = DEFAULT_SIZES.into_iter().collect();
        let tail: BTreeSet<u64> = ALL_TAIL_SIZES.into_iter().collect();
        let headline: Vec<String> = DEFAULT_CIPHERS
            .iter()
            .map(|n| n.to_ascii_lowercase())
            .collect();
        let mut tail_pairs = 0;
        for ((name, backend), sizes) in &by {
            if headline.contains(&name.to_ascii_lowercase()) {
                assert_eq!(sizes, &every, "{name} {backend}");
            } else {
                assert_eq!(sizes, &tail, "{name} {backend}");
                tail_pairs += 1;
            }
        }
        assert!(tail_pairs > 100, "only {tail_pairs} tail ciphers");
        for name in ["AES-128-CTR", "AES-256-CBC", "DES-CFB1"] {
            assert!(
                by.contains_key(&(name.to_string(), "openssl".to_string())),
                "{name}"
            );
        }
        // About 0.35 s per ready case at the standard budget: the grid that
        // keeps `cipher --all` within minutes, not the full 1900 cases.
        let ready = cases
            .iter()
            .filter(|c| matches!(c.setup, cryptobench_core::Setup::Ready(_)))
            .count();
        assert!((250..450).contains(&ready), "{ready} ready cases");
        // Only roundtrip, seed 001's TEST 7.
        assert!(cases
            .iter()
            .all(|c| c.spec.operation == "roundtrip" || c.spec.input_bytes == 0));
    }

    #[test]
    fn all_with_sizes_or_full_measures_every_cipher_at_every_size() {
        let cfg = RunConfig {
            seed: Some(1),
            ..RunConfig::default()
        };
        let by = sizes_by_cipher(&plan(&all(Some(vec![4, 200_000])), &cfg).unwrap());
        assert!(by.values().all(|s| s.len() == 2 && s.contains(&200_000)));
        let full = RunConfig {
            full: true,
            ..cfg.clone()
        };
        let by = sizes_by_cipher(&plan(&all(None), &full).unwrap());
        let camellia = &by[&("CAMELLIA-128-CBC".to_string(), "openssl".to_string())];
        assert_eq!(camellia.len(), FULL_SIZES.len());
        // A named selection is never trimmed.
        let named = Options {
            ciphers: Some("camellia-128-cbc".into()),
            ..all(None)
        };
        let by = sizes_by_cipher(&plan(&named, &cfg).unwrap());
        assert_eq!(
            by.values().next().map(|s| s.len()),
            Some(DEFAULT_SIZES.len())
        );
    }

    #[test]
    fn quick_all_keeps_the_quick_headline_and_one_tail_size() {
        let cfg = RunConfig {
            seed: Some(1),
            ..RunConfig::quick()
        };
        let by = sizes_by_cipher(&plan(&all(None), &cfg).unwrap());
        let quick: BTreeSet<u64> = QUICK_SIZES.into_iter().collect();
        let tail: BTreeSet<u64> = QUICK_ALL_TAIL_SIZES.into_iter().collect();
        assert_eq!(
            by[&("AES-128-CTR".to_string(), "openssl".to_string())],
            quick
        );
        assert_eq!(
            by[&("CAMELLIA-128-CBC".to_string(), "openssl".to_string())],
            tail
        );
        assert_eq!(
            by[&("AES-256-CFB".to_string(), "openssl".to_string())],
            tail
        );
    }

    #[test]
    fn the_default_run_has_the_headline_sizes_each_way_and_full_the_sweep() {
        let no_peers = Options {
            peers: false,
            ..Options::default()
        };
        let shape = |cfg: &RunConfig| {
            let cases = plan(&no_peers, cfg).unwrap();
            let sizes: BTreeSet<u64> = cases
                .iter()
                .filter(|c| c.spec.input_bytes > 0)
                .map(|c| c.spec.input_bytes)
                .collect();
            let ops: BTreeSet<String> = cases.iter().map(|c| c.spec.operation.clone()).collect();
            (sizes, ops)
        };
        let default = RunConfig {
            seed: Some(1),
            ..RunConfig::default()
        };
        let (sizes, ops) = shape(&default);
        assert_eq!(sizes, DEFAULT_SIZES.into_iter().collect());
        let each_way: BTreeSet<String> = ["encrypt", "decrypt"].map(String::from).into();
        assert_eq!(ops, each_way);
        let full = RunConfig {
            full: true,
            ..default
        };
        let (sizes, ops) = shape(&full);
        assert_eq!(sizes, FULL_SIZES.into_iter().collect());
        assert_eq!(ops.len(), Op::ALL.len());
    }
}
