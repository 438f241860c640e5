//! Suite-level tests: every backend against its vectors, tamper and interop
//! checks (and that they catch a broken implementation), planning, the
//! `verify` subcommand's errors, and the tables.

use crate::algorithms::{by_name, Algorithm, ALGORITHMS};
use crate::backend::{self, seal_vec, Backend, Keyed, Opening, Params, Rejected, Sealer, Sealing};
use crate::case::{AeadCase, CaseConfig, NonceMode, Operation};
use crate::checks::{self, CheckCache, Rng};
use crate::cli::{self, AeadArgs, AeadCommand};
use crate::vectors;
use crate::{AeadSuite, Options, PEER_BYTES, QUICK_SIZES};
use cryptobench_core::{
    Case, CaseSpec, CaseStatus, CheckOutcome, Error, Measurement, Offer, RunConfig, Setup, Suite,
    SuiteAction, Summary,
};
use std::sync::Arc;

/// Every (algorithm, backend) pair that runs here.
fn runnable() -> Vec<(&'static Algorithm, Backend)> {
    let mut out = Vec::new();
    for alg in ALGORITHMS {
        for &b in backend::all() {
            if b.offers(alg) == Offer::Runs {
                out.push((alg, b));
            }
        }
    }
    out
}

/// Every backend with the first algorithm it runs here.
fn one_algorithm_per_backend() -> Vec<(&'static Algorithm, Backend)> {
    let mut out: Vec<(&'static Algorithm, Backend)> = Vec::new();
    for (alg, b) in runnable() {
        if !out.iter().any(|(_, seen)| seen.name() == b.name()) {
            out.push((alg, b));
        }
    }
    assert_eq!(
        out.len(),
        backend::all().len(),
        "a backend runs nothing here"
    );
    out
}

fn sealer(alg: &Algorithm, backend: Backend, tag_len: usize) -> Sealer {
    let key = Rng::new(7).bytes(alg.key_len);
    let params = Params {
        key: &key,
        nonce_len: alg.nonce_len,
        tag_len,
    };
    backend.build(alg, &params).expect("backend builds")
}

#[test]
fn every_backend_passes_its_known_answer_vectors() {
    let mut files_run = 0;
    for (alg, backend) in runnable() {
        for c in checks::known_answers(alg, backend) {
            assert_ne!(
                c.outcome,
                CheckOutcome::Fail,
                "{} {}: {c:?}",
                alg.name,
                backend.name()
            );
            if c.outcome == CheckOutcome::Pass {
                files_run += 1;
            }
        }
    }
    // GCM x3 keys, CCM x2, OCB x2, GCM-SIV x2, ChaCha, XChaCha, AEGIS x2 on several backends.
    assert!(files_run >= 30, "only {files_run} vector checks passed");
}

#[test]
fn libsodium_aegis_is_checked_against_the_tag256_vectors() {
    let alg = by_name("AEGIS-128L").unwrap();
    let results = checks::known_answers(alg, backend::by_name("libsodium").unwrap());
    let draft = results.iter().find(|c| c.name.contains("tag256")).unwrap();
    assert_eq!(draft.outcome, CheckOutcome::Pass, "{draft:?}");
    // Wycheproof's AEGIS groups have 128-bit tags: skipped, and shown as such.
    let wp = results
        .iter()
        .find(|c| c.name.contains("Wycheproof"))
        .unwrap();
    assert_eq!(wp.outcome, CheckOutcome::Skipped);
    assert!(wp.detail.contains("256-bit tags only"), "{}", wp.detail);
}

#[test]
fn tamper_rejects_every_flip_on_every_backend() {
    for (alg, backend) in runnable() {
        let mut s = sealer(alg, backend, alg.default_tag);
        let c = checks::tamper(&mut s, alg, &mut Rng::new(1));
        assert_eq!(
            c.outcome,
            CheckOutcome::Pass,
            "{} {}: {}",
            alg.name,
            backend.name(),
            c.detail
        );
        assert_eq!(c.detail, "tamper: 256/256 rejected");
    }
}

#[test]
fn backends_interoperate() {
    let mut compared = 0;
    for (alg, b) in runnable() {
        let c = checks::interop(alg, b, alg.default_tag, &mut Rng::new(3));
        assert_ne!(
            c.outcome,
            CheckOutcome::Fail,
            "{} {}: {}",
            alg.name,
            b.name(),
            c.detail
        );
        if c.outcome == CheckOutcome::Pass {
            compared += 1;
        }
    }
    // GCM, CCM, OCB, ChaCha20-Poly1305, XChaCha and AEGIS have two or more backends.
    assert!(compared >= 20, "only {compared} interop checks ran");
}

/// A deliberately broken AEAD: opening decrypts without looking at the tag
/// (for a stream mode, decryption is sealing the ciphertext again).
struct IgnoresTag(Box<dyn Keyed>);

impl Keyed for IgnoresTag {
    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
        self.0.seal_detached(m)
    }
    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
        let mut ignored_tag = vec![0u8; m.tag.len()];
        self.0.seal_detached(Sealing {
            nonce: m.nonce,
            aad: m.aad,
            msg: m.ct,
            ct: m.out,
            tag: &mut ignored_tag,
        })
    }
}

/// `sealer` with its opening replaced by [`IgnoresTag`].
fn ignoring_tag(sealer: Sealer) -> Sealer {
    sealer.map_keyed(|keyed| Box::new(IgnoresTag(keyed)))
}

#[test]
fn tamper_check_catches_an_implementation_that_ignores_the_tag() {
    // A stream mode, so that sealing the ciphertext again decrypts it.
    let alg = by_name("AES-256-GCM").unwrap();
    let backends: Vec<Backend> = runnable()
        .into_iter()
        .filter(|(a, _)| a.name == alg.name)
        .map(|(_, b)| b)
        .collect();
    assert!(!backends.is_empty(), "no backend runs {}", alg.name);
    for backend in backends {
        let mut broken = ignoring_tag(sealer(alg, backend, 16));
        // It still round-trips, so only the tamper check can tell.
        let rt = checks::roundtrip(&mut broken, alg, 13, &mut Rng::new(5));
        assert_eq!(rt.outcome, CheckOutcome::Pass, "{}", rt.detail);
        let c = checks::tamper(&mut broken, alg, &mut Rng::new(5));
        assert_eq!(c.outcome, CheckOutcome::Fail, "{}", backend.name());
        assert!(c.detail.contains("FORGERY ACCEPTED"), "{}", c.detail);
        assert!(c.detail.contains("tag"), "{}", c.detail);
        // Wycheproof's invalid vectors catch it as well.
        let file = vectors::wycheproof_for(alg).unwrap();
        let report = vectors::run_with(file, alg, |p| backend.build(alg, p).map(ignoring_tag));
        assert!(!report.failed.is_empty(), "{}", backend.name());
        assert!(
            report.failed[0].contains("invalid message was accepted"),
            "{:?}",
            report.failed
        );
    }
}

#[test]
fn cases_run_every_operation_with_fresh_nonces() {
    let cache = Arc::new(CheckCache::new(9));
    for (alg, backend) in one_algorithm_per_backend() {
        for op in Operation::ALL {
            for per_message_init in [false, true] {
                let cfg = CaseConfig {
                    alg,
                    backend,
                    op,
                    size: 100,
                    aad_len: 13,
                    tag_len: alg.default_tag,
                    nonce: NonceMode::Random,
                    per_message_init,
                    seed: 1,
                };
                let mut case = AeadCase::new(cfg, cache.clone()).unwrap();
                let checks = case.checks();
                assert!(
                    checks.iter().all(|c| c.outcome != CheckOutcome::Fail),
                    "{checks:?}"
                );
                assert!(checks.iter().any(|c| c.name == "tamper"));
                // A second batch opens the message sealed before the
                // first again (it is sealed once), and still verifies.
                for _ in 0..2 {
                    case.prepare_batch(5).unwrap();
                    case.run_batch(5).unwrap();
                }
            }
        }
    }
}

#[test]
fn bad_algorithm_name_is_a_usage_error_with_a_suggestion() {
    let args = AeadArgs {
        algorithms: Some("aegis-128l,AES-265-GCM".into()),
        aad: "0".into(),
        ..AeadArgs::default()
    };
    match cli::command(&args, &RunConfig::quick()) {
        Err(Error::Usage(msg)) => {
            assert!(msg.contains("did you mean"), "{msg}");
            assert!(msg.contains("AES-256-GCM"), "{msg}");
        }
        Err(e) => panic!("wrong error {e}"),
        Ok(_) => panic!("accepted a bad name"),
    }
    let bad_size = AeadArgs {
        sizes: Some("16,lots".into()),
        aad: "0".into(),
        ..AeadArgs::default()
    };
    assert!(matches!(
        cli::command(&bad_size, &RunConfig::quick()),
        Err(Error::Usage(_))
    ));
    let bad_op = AeadArgs {
        operations: Some("encrpyt".into()),
        aad: "0".into(),
        ..AeadArgs::default()
    };
    let Err(Error::Usage(msg)) = cli::command(&bad_op, &RunConfig::quick()) else {
        panic!("accepted a bad operation")
    };
    assert!(msg.contains("did you mean encrypt"), "{msg}");
}

fn verify_args(path: &std::path::Path) -> AeadArgs {
    AeadArgs {
        command: Some(AeadCommand::Verify {
            vectors: path.to_path_buf(),
        }),
        aad: "0".into(),
        ..AeadArgs::default()
    }
}

/// A file in a scratch directory removed when `dir` drops.
fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn verify_rejects_truncated_and_foreign_files_as_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let full = wycheproof::aead::TestName::ChaCha20Poly1305.json_data();
    let truncated = temp_file(&dir, "truncated.json", &full[..full.len() / 2]);
    let Err(Error::Usage(msg)) = cli::command(&verify_args(&truncated), &RunConfig::quick()) else {
        panic!("truncated file accepted")
    };
    assert!(msg.contains("truncated"), "{msg}");
    let foreign = temp_file(
        &dir,
        "foreign.json",
        r#"{"algorithm": "AES-GCM", "tests": []}"#,
    );
    let Err(Error::Usage(msg)) = cli::command(&verify_args(&foreign), &RunConfig::quick()) else {
        panic!("foreign file accepted")
    };
    assert!(msg.contains("not a Wycheproof AEAD test file"), "{msg}");
    let missing = std::env::temp_dir().join("no-such-dir-cryptobench/none.json");
    assert!(matches!(
        cli::command(&verify_args(&missing), &RunConfig::quick()),
        Err(Error::Usage(_))
    ));
    let unknown = temp_file(
        &dir,
        "morus.json",
        &full.replace("\"CHACHA20-POLY1305\"", "\"MORUS640\""),
    );
    let Err(Error::Usage(msg)) = cli::command(&verify_args(&unknown), &RunConfig::quick()) else {
        panic!("unknown algorithm accepted")
    };
    assert!(msg.contains("MORUS640"), "{msg}");
}

#[test]
fn verify_passes_a_good_file_and_fails_a_corrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let full = wycheproof::aead::TestName::ChaCha20Poly1305.json_data();
    let good = temp_file(&dir, "good.json", full);
    assert!(matches!(
        cli::command(&verify_args(&good), &RunConfig::quick()),
        Ok(SuiteAction::Done(0))
    ));
    let file = vectors::parse("good", full).unwrap();
    let rows = cli::verify_file(&file, &RunConfig::quick()).unwrap();
    let backends: Vec<&str> = rows.iter().map(|r| r.backend).collect();
    assert_eq!(backends, ["openssl", "libsodium", "rustcrypto"]);
    assert!(rows.iter().all(|r| r.verdict == "pass"), "{rows:?}");
    // Mark an invalid vector (a modified tag) as valid: every backend must now fail.
    let mut doc: serde_json::Value = serde_json::from_str(full).unwrap();
    let tests = doc["testGroups"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|g| g["tests"].as_array_mut().unwrap().iter_mut());
    for t in tests {
        if t["result"] == "invalid" && t["comment"].as_str().unwrap_or("").contains("tag") {
            t["result"] = "valid".into();
            break;
        }
    }
    let bad = temp_file(&dir, "bad.json", &doc.to_string());
    assert!(matches!(
        cli::command(&verify_args(&bad), &RunConfig::quick()),
        Ok(SuiteAction::Done(1))
    ));
}

#[test]
fn plan_keeps_unavailable_cells_with_reasons_and_adds_peers() {
    let plan = AeadSuite::default().plan(&RunConfig::quick()).unwrap();
    let siv = plan
        .iter()
        .find(|p| p.spec.primitive == "AES-256-GCM-SIV" && p.spec.backend == "openssl")
        .expect("OpenSSL GCM-SIV cell planned");
    match &siv.setup {
        Setup::Unavailable(r) if openssl::version::number() < 0x3020_0000 => {
            assert!(r.contains("3.2"), "{r}")
        }
        Setup::Ready(_) => assert!(openssl::version::number() >= 0x3020_0000),
        _ => panic!("unexpected setup"),
    }
    assert!(plan
        .iter()
        .any(|p| p.spec.backend == cryptobench_core::model::OPENSSL_SPEED));
    assert!(plan
        .iter()
        .filter(|p| p.spec.backend != cryptobench_core::model::OPENSSL_SPEED
            && p.spec.operation != crate::stream::STREAM)
        .all(|p| p.spec.params.contains_key("tag")));
    // Quick runs encrypt only, on the quick sizes.
    assert!(plan
        .iter()
        .all(|p| p.spec.operation == "encrypt" || p.spec.operation == crate::stream::STREAM));
    assert!(plan
        .iter()
        .any(|p| p.spec.operation == crate::stream::STREAM));
}

#[test]
fn advice_rivals_and_the_fidelity_pair_are_timed_in_one_chunk_of_rounds() {
    use cryptobench_engine::schedule::runner::plan_groups;
    let plan = AeadSuite::default().plan(&RunConfig::quick()).unwrap();
    let groups = plan_groups(&plan);
    let chunk_of = |prim: &str, backend: &str, op: &str, size: u64| {
        let i = plan
            .iter()
            .position(|p| {
                p.spec.primitive == prim
                    && p.spec.backend == backend
                    && p.spec.operation == op
                    && p.spec.input_bytes == size
            })
            .unwrap_or_else(|| panic!("{prim} {backend} {op} {size} planned"));
        groups
            .iter()
            .find(|(_, members)| members.contains(&i))
            .map(|(key, _)| key.clone())
            .unwrap_or_else(|| panic!("{prim} {backend} {op} {size} grouped"))
    };
    for size in QUICK_SIZES {
        assert_eq!(
            chunk_of("AEGIS-128L", "libsodium", "encrypt", size),
            chunk_of("AEGIS-256", "libaegis", "encrypt", size),
            "at {size} B"
        );
        assert_eq!(
            chunk_of("AES-128-GCM", "openssl", "encrypt", size),
            chunk_of("AES-256-GCM", "openssl", "encrypt", size),
            "at {size} B"
        );
    }
    let peer = cryptobench_core::model::OPENSSL_SPEED;
    assert_eq!(
        chunk_of("AES-256-GCM", peer, "encrypt", PEER_BYTES),
        chunk_of("AES-256-GCM", "openssl", crate::stream::STREAM, PEER_BYTES)
    );
}

#[test]
fn messages_past_the_caches_are_planned_to_be_timed_from_memory() {
    let suite = AeadSuite::new(Options {
        algorithms: Some(vec![by_name("AEGIS-128L").unwrap()]),
        sizes: Some(vec![1 << 20, crate::SEED003_RATE_BYTES]),
        no_peers: true,
        ..Options::default()
    });
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    let flushed = |size: u64| {
        plan.iter()
            .filter(|p| p.spec.input_bytes == size)
            .all(|p| p.spec.params.contains_key(crate::CACHE_PARAM))
    };
    assert!(!plan.is_empty());
    assert!(!flushed(1 << 20), "1 MiB is timed in cache");
    assert_eq!(
        flushed(crate::SEED003_RATE_BYTES),
        cryptobench_engine::host::cpu::CAN_FLUSH
    );
}

#[test]
fn tag_lengths_a_backend_cannot_take_are_skipped_with_the_reason() {
    let suite = AeadSuite::new(Options {
        algorithms: Some(vec![
            by_name("AEGIS-128L").unwrap(),
            by_name("ChaCha20-Poly1305").unwrap(),
        ]),
        sizes: Some(vec![64]),
        tag_len: Some(16),
        no_peers: true,
        ..Options::default()
    });
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    let sodium = plan
        .iter()
        .find(|p| p.spec.primitive == "AEGIS-128L" && p.spec.backend == "libsodium")
        .unwrap();
    let Setup::Skipped(reason) = &sodium.setup else {
        panic!("not skipped")
    };
    assert!(reason.contains("256-bit tags only"), "{reason}");
    let libaegis = plan
        .iter()
        .find(|p| p.spec.primitive == "AEGIS-128L" && p.spec.backend == "libaegis")
        .unwrap();
    assert!(matches!(libaegis.setup, Setup::Ready(_)));
    let suite = AeadSuite::new(Options {
        algorithms: Some(vec![by_name("ChaCha20-Poly1305").unwrap()]),
        sizes: Some(vec![64]),
        tag_len: Some(8),
        no_peers: true,
        ..Options::default()
    });
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    assert!(plan
        .iter()
        .all(|p| matches!(&p.setup, Setup::Skipped(r) if r.contains("not 8"))));
}

#[test]
fn ccm_messages_beyond_its_length_field_are_skipped_with_the_reason() {
    let suite = AeadSuite::new(Options {
        algorithms: Some(vec![by_name("AES-256-CCM").unwrap()]),
        sizes: Some(vec![1_000, 20_000_000]),
        no_peers: true,
        ..Options::default()
    });
    let plan = suite.plan(&RunConfig::default()).unwrap();
    for p in &plan {
        match (&p.setup, p.spec.input_bytes) {
            (Setup::Ready(_), 1_000) => {}
            (Setup::Skipped(r), 20_000_000) => assert!(r.contains("16777215"), "{r}"),
            _ => panic!("unexpected plan for {} B", p.spec.input_bytes),
        }
    }
    // Encrypt and decrypt on both backends, at both sizes.
    assert_eq!(plan.len(), 8);
}

/// A measured case with the given throughput (shared by the chart tests).
pub(crate) fn fake(
    primitive: &str,
    backend: &str,
    op: &str,
    bytes: u64,
    bytes_per_s: f64,
) -> Measurement {
    let mut m = CaseSpec::new(crate::SUITE, primitive, backend, "v", op)
        .size(bytes)
        .measurement(CaseStatus::Measured, None);
    m.stats = Some(Summary {
        median: bytes as f64 * 1e9 / bytes_per_s,
        ops_per_s: bytes_per_s / bytes as f64,
        bytes_per_s: Some(bytes_per_s),
        ..Summary::default()
    });
    m
}

#[test]
fn summary_tables_compute_the_seed_ratios() {
    let ms = vec![
        fake("AES-256-GCM", "openssl", "encrypt", 20_000_000, 5e9),
        fake("AES-256-GCM", "libsodium", "encrypt", 20_000_000, 4e9),
        fake("AEGIS-128L", "libaegis", "encrypt", 20_000_000, 15e9),
        fake("AEGIS-128L", "libaegis", "encrypt", 1_000, 10e9),
        fake("AES-256-CCM", "openssl", "encrypt", 20_000_000, 1e9),
    ];
    let tables = crate::summary::tables(&ms);
    let seed003 = &tables[0];
    let aegis = seed003.rows.iter().find(|r| r[0] == "AEGIS-128L").unwrap();
    assert_eq!(aegis[4], "3.00x");
    assert!(seed003
        .notes
        .iter()
        .any(|n| n.contains("fastest AEAD at 20 MB: AEGIS-128L") && n.contains("3.00x")));
    let seed004 = tables
        .iter()
        .find(|t| t.title.contains("seed 004"))
        .unwrap();
    assert_eq!(seed004.rows[0][5], "5.00x");
}

#[test]
fn papers_say_whether_each_claim_holds() {
    let ms = vec![
        fake("AES-256-GCM", "libsodium", "encrypt", 20_000_000, 4e9),
        fake("AEGIS-128L", "libsodium", "encrypt", 20_000_000, 6e9),
        fake("AES-256-GCM", "openssl", "encrypt", 10 * 1024 * 1024, 6e9),
        fake("AES-256-CCM", "openssl", "encrypt", 10 * 1024 * 1024, 2e9),
    ];
    let papers = crate::papers();
    let aegis = papers.iter().find(|p| p.name() == "aegis").unwrap();
    let notes = aegis.render(&ms)[0].notes.join("\n");
    assert!(
        notes.contains("2-3x faster than AES-GCM (20 MB): differs here (1.50x"),
        "{notes}"
    );
    let gcm = papers.iter().find(|p| p.name() == "gcm-vs-ccm").unwrap();
    let notes = gcm.render(&ms)[0].notes.join("\n");
    assert!(
        notes.contains("about 3x faster than CCM (OpenSSL, encrypt): holds here"),
        "{notes}"
    );
    assert_eq!(gcm.suites(&RunConfig::quick()).unwrap().len(), 1);
}

#[test]
fn aes_siv_passes_rfc_5297_and_wycheproof_on_openssl_and_rustcrypto() {
    for name in ["AES-128-SIV", "AES-256-SIV"] {
        let alg = by_name(name).unwrap();
        for backend_name in ["openssl", "rustcrypto"] {
            let backend = backend::by_name(backend_name).unwrap();
            let results = checks::known_answers(alg, backend);
            let wycheproof = results
                .iter()
                .find(|c| c.name.contains("aead_aes_siv_cmac"))
                .unwrap_or_else(|| panic!("{name} {backend_name}: no Wycheproof check"));
            assert_eq!(
                wycheproof.outcome,
                CheckOutcome::Pass,
                "{name} {backend_name}: {wycheproof:?}"
            );
            // Only OpenSSL 3.0's empty-message gap may skip tests, and it
            // says so.
            let all_run = wycheproof.detail.contains(" 0 skipped");
            let says_why = backend_name == "openssl" && wycheproof.detail.contains("empty message");
            assert!(all_run || says_why, "{name} {backend_name}: {wycheproof:?}");
            // A.1 has a 256-bit key: AES-128-SIV only.
            let rfc = results.iter().find(|c| c.name.contains("RFC 5297"));
            if alg.key_len == 32 {
                let rfc = rfc.unwrap_or_else(|| panic!("{backend_name}: no RFC 5297 check"));
                assert_eq!(rfc.outcome, CheckOutcome::Pass, "{backend_name}: {rfc:?}");
            }
        }
    }
}

#[test]
fn aes_siv_is_deterministic_and_its_cells_say_so() {
    let alg = by_name("AES-128-SIV").unwrap();
    for backend in ["openssl", "rustcrypto"] {
        let mut s = sealer(alg, backend::by_name(backend).unwrap(), 16);
        let nonce = [7u8; 16];
        let first = seal_vec(&mut s, &nonce, b"ad", b"same message").unwrap();
        let again = seal_vec(&mut s, &nonce, b"ad", b"same message").unwrap();
        assert_eq!(first, again, "{backend}: SIV must be deterministic");
        let other_nonce = seal_vec(&mut s, &[8u8; 16], b"ad", b"same message").unwrap();
        assert_ne!(first, other_nonce, "{backend}: the nonce must enter S2V");
    }
    assert!(!alg.default, "AES-SIV is an extra");
    let suite = AeadSuite::default();
    let spec = suite.spec(alg, backend::openssl(), Operation::Encrypt, 16, 16);
    assert!(
        spec.labels.iter().any(|l| l == crate::DETERMINISTIC_LABEL),
        "{:?}",
        spec.labels
    );
}

#[test]
fn an_empty_message_a_backend_cannot_seal_is_a_skipped_cell_with_the_reason() {
    let alg = by_name("AES-128-SIV").unwrap();
    let suite = AeadSuite::new(Options {
        algorithms: Some(vec![alg]),
        sizes: Some(vec![0, 16]),
        no_peers: true,
        ..Options::default()
    });
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    for backend in ["openssl", "rustcrypto"] {
        let probe = vec![0u8; alg.key_len];
        let params = Params {
            key: &probe,
            nonce_len: alg.nonce_len,
            tag_len: 16,
        };
        let sealer = backend::by_name(backend)
            .unwrap()
            .build(alg, &params)
            .unwrap();
        // RustCrypto's S2V takes an empty message; OpenSSL 3.0's does not.
        if backend == "rustcrypto" {
            assert_eq!(sealer.empty_message(), Ok(()));
        }
        let cell = |size: u64| {
            plan.iter()
                .find(|p| p.spec.backend == backend && p.spec.input_bytes == size)
                .unwrap_or_else(|| panic!("{backend} {size} B not planned"))
        };
        assert!(matches!(cell(16).setup, Setup::Ready(_)), "{backend} 16 B");
        match (&cell(0).setup, sealer.empty_message()) {
            (Setup::Skipped(why), Err(reason)) => assert_eq!(*why, reason.0),
            (Setup::Ready(_), Ok(())) => {}
            _ => panic!("{backend}: the 0 B cell disagrees with the backend"),
        }
    }
}

#[test]
fn the_default_run_has_the_headline_sizes_and_full_the_sweep() {
    let sizes = |cfg: &RunConfig| -> std::collections::BTreeSet<u64> {
        AeadSuite::new(Options {
            no_peers: true,
            ..Options::default()
        })
        .plan(cfg)
        .unwrap()
        .iter()
        .filter(|p| p.spec.operation != crate::stream::STREAM)
        .map(|p| p.spec.input_bytes)
        .collect()
    };
    let default = RunConfig {
        seed: Some(1),
        ..RunConfig::default()
    };
    assert_eq!(sizes(&default), crate::DEFAULT_SIZES.into_iter().collect());
    let full = RunConfig {
        full: true,
        ..default
    };
    assert_eq!(sizes(&full), crate::FULL_SIZES.into_iter().collect());
}

#[test]
fn verify_that_verified_nothing_is_a_usage_error_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let ccm = temp_file(
        &dir,
        "ccm.json",
        wycheproof::aead::TestName::AesCcm.json_data(),
    );
    // libsodium has no AES-CCM: no row at all.
    let mut cfg = RunConfig::quick();
    cfg.backends = Some(vec!["libsodium".into()]);
    let Err(Error::Usage(msg)) = cli::command(&verify_args(&ccm), &cfg) else {
        panic!("a file no chosen backend verified passed")
    };
    assert!(
        msg.contains(
            "nothing verified: no backend here among --backend libsodium implements AES-CCM"
        ),
        "{msg}"
    );
    // A key size no algorithm has: nothing to verify either.
    let full = wycheproof::aead::TestName::ChaCha20Poly1305.json_data();
    let mut doc: serde_json::Value = serde_json::from_str(full).unwrap();
    for g in doc["testGroups"].as_array_mut().unwrap() {
        g["keySize"] = 96.into();
    }
    let odd = temp_file(&dir, "odd.json", &doc.to_string());
    let Err(Error::Usage(msg)) = cli::command(&verify_args(&odd), &RunConfig::quick()) else {
        panic!("a file with no implemented key size passed")
    };
    assert!(msg.contains("(96-bit)"), "{msg}");
}
