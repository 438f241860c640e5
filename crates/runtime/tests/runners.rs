//! Every cell-driven runner on this machine's interpreter: each serves the
//! overhead table's cells, three cipher cells and AES-SIV (Python only)
//! with its checks passing (the suite's vectors, a
//! round trip, a tamper test where the primitive has one, and interop both
//! ways), times a batch with its own clock, refuses a wrong vector, and
//! says why it cannot serve a cell. A missing interpreter or library fails
//! the test with the install command (scripts/install-deps installs them).

use crate::common;

use common::outcome;
use cryptobench_core::{CaseError, CheckOutcome, RunConfig, Setup};
use cryptobench_runtime::case::{shared, RunnerCase};
use cryptobench_runtime::cell::{CellRuntime, RuntimeSpec};
use cryptobench_runtime::interop::{edit_phc_hash, Argon2Interop, Interop, ARGON2_PHC_AND_RAW};
use cryptobench_runtime::process::Runner;
use cryptobench_runtime::{go, java, node, python, Runtime};
use serde_json::{json, Value};

fn native(suite: &str, primitive: &str, op: &str, size: u64) -> cryptobench_core::CaseSpec {
    cryptobench_core::CaseSpec::new(suite, primitive, "openssl", "3", op).size(size)
}

/// The cells every runtime is asked for (Argon2id small enough for a test).
fn cells() -> Vec<cryptobench_core::CaseSpec> {
    vec![
        native("hash", "SHA-256", "digest", 1024),
        native("cipher", "AES-256-CBC", "encrypt", 1000)
            .param("mode", "CBC")
            .param("key_bits", 256)
            .param("setup", "key-once")
            .param("padding", "pkcs7"),
        native("cipher", "AES-128-CTR", "decrypt", 1024)
            .param("mode", "CTR")
            .param("key_bits", 128)
            .param("setup", "key-once"),
        native("cipher", "ChaCha20", "roundtrip", 64)
            .param("mode", "stream")
            .param("key_bits", 256)
            .param("setup", "key-once"),
        native("aead", "AES-256-GCM", "encrypt", 1000)
            .param("tag", 16)
            .param("aad", 0),
        native("aead", "ChaCha20-Poly1305", "encrypt", 16)
            .param("tag", 16)
            .param("aad", 0),
        // Python's cryptography has AESSIV; the other runtimes say they lack it.
        native("aead", "AES-128-SIV", "encrypt", 64)
            .param("tag", 16)
            .param("aad", 13),
        native("ecc", "prime256v1", "keygen", 0),
        native("ecc", "X25519", "keygen", 0),
        native("ecc", "Ed25519", "sign", 0),
        native("argon2", "Argon2id", "hash", 64 << 10)
            .param("m_kib", 64)
            .param("t", 1)
            .param("p", 1)
            .param("threads", 1)
            .param("tag", 32)
            .param("version", "0x13"),
    ]
}

/// The runtime, after making sure its interpreter and libraries are here.
fn runtime(spec: &'static RuntimeSpec, libraries: &[&str]) -> CellRuntime {
    let install = spec.program.install;
    let rt = CellRuntime::new(spec);
    let hello = rt.hello().unwrap_or_else(|why| {
        panic!(
            "this test needs {}: {why} (install with `{install}`; scripts/install-deps does)",
            spec.name
        )
    });
    for lib in libraries {
        if let Some(why) = hello.handshake.family(lib) {
            panic!(
                "this test needs {}'s {lib}: {why} (install with `{install}`)",
                spec.name
            );
        }
    }
    rt
}

/// Plans every cell, builds the ready ones, asserts their checks and times
/// a batch; returns the reasons of the cells the runtime cannot serve.
fn serve_every_cell(rt: &CellRuntime) -> Vec<(String, String)> {
    let name = rt.name();
    let mut refused = Vec::new();
    let all = cells();
    let mut suites: Vec<&str> = all.iter().map(|c| c.suite.as_str()).collect();
    suites.dedup();
    // One plan per suite, as a run makes: its cases share one runner.
    for suite in suites {
        let native: Vec<_> = all.iter().filter(|c| c.suite == suite).cloned().collect();
        let planned = rt.plan(suite, &RunConfig::quick(), &native);
        // One twin per API where the runner has several for the suite.
        let apis = rt
            .hello()
            .ok()
            .and_then(|h| h.apis.get(suite))
            .map_or(1, |a| a.len().max(1));
        assert_eq!(planned.len(), native.len() * apis, "{name} {suite}");
        for p in &planned {
            let cell = &p.spec;
            assert_eq!(cell.backend, name);
            assert!(
                native.iter().any(|n| n.primitive == cell.primitive
                    && n.operation == cell.operation
                    && n.input_bytes == cell.input_bytes),
                "{name}: {cell:?} twins no native cell"
            );
            let factory = match &p.setup {
                Setup::Ready(f) => f.clone(),
                Setup::Unavailable(why) | Setup::Skipped(why) => {
                    refused.push((cell.primitive.clone(), why.clone()));
                    continue;
                }
            };
            let mut case = match factory() {
                Ok(c) => c,
                Err(CaseError::Unavailable(why) | CaseError::Skipped(why)) => {
                    refused.push((cell.primitive.clone(), why));
                    continue;
                }
                Err(e) => panic!("{name} {}: {e}", cell.primitive),
            };
            let checks = case.checks();
            assert!(
                checks.iter().all(|c| c.outcome != CheckOutcome::Fail),
                "{name} {}: {checks:#?}",
                cell.primitive
            );
            assert_eq!(
                outcome(&checks, &format!("{name} interop:native->{name}")),
                CheckOutcome::Pass,
                "{name} {}",
                cell.primitive
            );
            assert_eq!(
                outcome(&checks, &format!("interop:{name}->native")),
                CheckOutcome::Pass,
                "{name} {}",
                cell.primitive
            );
            if cell.suite == "argon2" {
                // PHC strings both ways, beside the raw tags.
                for check in [
                    format!("{name} interop:native->{name} phc"),
                    format!("interop:{name}->native phc"),
                ] {
                    assert_eq!(outcome(&checks, &check), CheckOutcome::Pass, "{check}");
                }
            }
            if matches!(cell.suite.as_str(), "cipher" | "aead" | "ecc") {
                assert_eq!(
                    outcome(&checks, &format!("{name} round trip")),
                    CheckOutcome::Pass
                );
            }
            if matches!(cell.suite.as_str(), "hash" | "cipher" | "aead") {
                assert!(
                    checks
                        .iter()
                        .any(|c| c.name.starts_with(&format!("{name} kat:"))
                            && c.outcome == CheckOutcome::Pass),
                    "{name} {}: no vector ran: {checks:#?}",
                    cell.primitive
                );
            }
            let t = case
                .time_batch(2)
                .expect("a runner times itself")
                .unwrap_or_else(|e| panic!("{name} {}: {e}", cell.primitive));
            assert_eq!(t.iters, 2);
            assert!(t.wall_ns > 0.0);
        }
    }
    refused
}

/// The refusals other than AES-SIV, after checking that AES-SIV was
/// refused with the runtime's reason.
fn without_siv(runtime: &str, refused: Vec<(String, String)>) -> Vec<(String, String)> {
    let (siv, rest): (Vec<_>, Vec<_>) = refused.into_iter().partition(|r| r.0 == "AES-128-SIV");
    assert_eq!(siv.len(), 1, "{runtime} served AES-128-SIV: {siv:?}");
    assert!(
        siv[0]
            .1
            .contains(&format!("{runtime} offers no AES-128-SIV")),
        "{siv:?}"
    );
    rest
}

/// A wrong digest vector must fail the case's check.
fn a_wrong_vector_fails(spec: &'static RuntimeSpec) {
    let cmd = spec.command().expect("command");
    let runner = shared(cmd);
    let request = json!({"cell": {"suite": "hash", "primitive": "SHA-256", "operation": "digest",
        "params": {}, "size": 16},
        "kats": [{"source": "deliberately wrong", "msg": "616263", "digest": "00"}]});
    let mut c = RunnerCase::prepare(&runner, request, None, None).expect("prepare");
    let checks = cryptobench_core::Case::checks(&mut c);
    assert_eq!(
        outcome(&checks, &format!("{} kat:deliberately wrong", spec.name)),
        CheckOutcome::Fail
    );
}

/// A case is prepared in two runner processes and times its batches in
/// each in turn, tagging every batch with the process that timed it.
fn batches_alternate_between_two_runners(spec: &'static RuntimeSpec) {
    let runner = shared(spec.command().expect("command"));
    let request = json!({"cell": {"suite": "hash", "primitive": "SHA-256", "operation": "digest",
        "params": {}, "size": 16}, "kats": []});
    let mut c = RunnerCase::prepare(&runner, request, None, None).expect("prepare");
    let pids = c.pids();
    assert_eq!(pids.len(), 2, "{pids:?}");
    assert_ne!(pids[0], pids[1], "two processes, not one twice");
    let tags: Vec<Option<u8>> = (0..4)
        .map(|_| {
            let t = cryptobench_core::Case::time_batch(&mut c, 10)
                .expect("a runner times its own batches")
                .expect("batch");
            assert!(t.wall_ns > 0.0 && t.iters >= 10, "{t:?}");
            t.process
        })
        .collect();
    assert_eq!(tags, [Some(0), Some(1), Some(0), Some(1)]);
}

/// The runner's outcome of its check `name` in a prepare answer.
fn runner_outcome(answer: &Value, name: &str) -> String {
    answer["checks"]
        .as_array()
        .and_then(|list| list.iter().find(|c| c["name"] == name))
        .and_then(|c| c["outcome"].as_str())
        .unwrap_or_else(|| panic!("no check {name} in {answer}"))
        .to_string()
}

/// PHC strings both ways: the runner verifies the native string and
/// refuses it edited or with a wrong password; RustCrypto verifies the
/// runner's string and refuses it edited or with a wrong password.
fn tampered_phc_strings_are_refused_both_ways(spec: &'static RuntimeSpec, api: Option<&str>) {
    let name = spec.name;
    let mut params = json!({"m_kib": "64", "t": "1", "p": "1", "threads": "1", "tag": "32",
        "version": "0x13"});
    if let Some(api) = api {
        params["api"] = json!(api);
    }
    let cell = json!({"suite": "argon2", "primitive": "Argon2id", "operation": "hash",
        "params": params, "size": 65536});
    let prepare = |id: u64, interop: &Value| json!({"op": "prepare", "id": id, "cell": cell, "kats": [], "interop": interop});
    let mut runner = Runner::spawn(&spec.command().expect("command")).expect("runner starts");
    let native_check = format!("interop:native->{name} phc");

    let interop = Argon2Interop::new(ARGON2_PHC_AND_RAW, "argon2id");
    let native = interop.native_artifacts().expect("native artifacts");
    let answer = runner.request(&prepare(1, &native)).expect("prepare");
    assert_eq!(runner_outcome(&answer, &native_check), "pass", "{answer}");
    let artifacts = &answer["artifacts"];
    let honest = interop.more_runtime_checks(name, artifacts);
    assert_eq!(honest[0].outcome, CheckOutcome::Pass, "{honest:?}");

    let phc = artifacts["phc"].as_str().expect("the runner's PHC string");
    assert!(phc.starts_with("$argon2id$v=19$m=1024,t=3,p=1$"), "{phc}");
    let mut edited = artifacts.clone();
    edited["phc"] = json!(edit_phc_hash(phc));
    let mut wrong_password = artifacts.clone();
    wrong_password["password"] = json!(hex::encode(b"not the password"));
    for tampered in [edited, wrong_password] {
        let refused = interop.more_runtime_checks(name, &tampered);
        assert_eq!(refused[0].outcome, CheckOutcome::Fail, "{tampered}");
    }

    let mut edited_native = native.clone();
    edited_native["phc"] = json!(edit_phc_hash(native["phc"].as_str().expect("phc")));
    let mut swapped_native = native.clone();
    swapped_native["wrong_password"] = native["password"].clone();
    for (id, tampered) in [(2, edited_native), (3, swapped_native)] {
        let answer = runner.request(&prepare(id, &tampered)).expect("prepare");
        assert_eq!(runner_outcome(&answer, &native_check), "fail", "{answer}");
    }
}

#[test]
fn python_serves_the_overhead_cells() {
    let rt = runtime(&python::SPEC, &["cryptography", "pynacl", "argon2-cffi"]);
    // Argon2 twice: argon2-cffi and PyNaCl's (libsodium's) argon2id.
    assert_eq!(
        rt.hello().expect("hello").apis.get("argon2"),
        Some(&vec!["argon2-cffi".to_string(), "pynacl".to_string()])
    );
    assert_eq!(serve_every_cell(&rt), Vec::<(String, String)>::new());
    a_wrong_vector_fails(&python::SPEC);
    batches_alternate_between_two_runners(&python::SPEC);
    tampered_phc_strings_are_refused_both_ways(&python::SPEC, Some("argon2-cffi"));
    tampered_phc_strings_are_refused_both_ways(&python::SPEC, Some("pynacl"));
}

#[test]
fn node_serves_the_overhead_cells_and_says_why_not_argon2() {
    let rt = runtime(&node::SPEC, &["crypto"]);
    let refused = without_siv("node", serve_every_cell(&rt));
    let node24 = rt
        .hello()
        .expect("hello")
        .handshake
        .family("argon2")
        .is_none();
    if node24 {
        assert_eq!(refused, Vec::<(String, String)>::new());
    } else {
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert_eq!(refused[0].0, "Argon2id");
        assert!(refused[0].1.contains("Node >= 24.7"), "{refused:?}");
    }
    a_wrong_vector_fails(&node::SPEC);
}

#[test]
fn go_serves_the_overhead_cells() {
    let rt = runtime(&go::SPEC, &["x/crypto"]);
    assert_eq!(
        without_siv("go", serve_every_cell(&rt)),
        Vec::<(String, String)>::new()
    );
    a_wrong_vector_fails(&go::SPEC);
    tampered_phc_strings_are_refused_both_ways(&go::SPEC, None);
}

#[test]
fn java_serves_the_overhead_cells() {
    let rt = runtime(&java::SPEC, &["jca", "bouncycastle"]);
    assert_eq!(
        without_siv("java", serve_every_cell(&rt)),
        Vec::<(String, String)>::new()
    );
    a_wrong_vector_fails(&java::SPEC);
    tampered_phc_strings_are_refused_both_ways(&java::SPEC, None);
}

/// A compiled runner replaced in the cache is never started: its build
/// record no longer matches, so it is built again (docs/security.md).
#[test]
fn a_tampered_go_runner_is_built_again_not_started() {
    let cache = tempfile::tempdir().expect("cache");
    let first = go_or_java_command(&go::SPEC, cache.path());
    let tampered = b"#!/bin/sh\necho tampered\n";
    std::fs::write(&first.program, tampered).expect("tamper");
    let again = go::SPEC.command_in(cache.path()).expect("rebuild");
    assert_eq!(again.program, first.program);
    let now = std::fs::read(&again.program).expect("the runner");
    assert_ne!(now, tampered, "the tampered runner would be started");
    assert!(now.starts_with(b"\x7fELF"), "not a build");
    let hello = Runner::spawn(&again)
        .expect("start")
        .request(&json!({"op": "hello"}))
        .expect("hello");
    assert_eq!(hello["ok"], true, "{hello}");
}

/// The same for Java's compiled classes: a changed class is compiled again.
#[test]
fn a_tampered_java_class_is_compiled_again_not_loaded() {
    let cache = tempfile::tempdir().expect("cache");
    go_or_java_command(&java::SPEC, cache.path());
    let class = std::fs::read_dir(cache.path().join("cryptobench/runners"))
        .expect("runners")
        .filter_map(Result::ok)
        .map(|d| d.path().join("classes/Runner.class"))
        .find(|p| p.is_file())
        .expect("compiled classes");
    std::fs::write(&class, b"tampered").expect("tamper");
    go_or_java_command(&java::SPEC, cache.path());
    let now = std::fs::read(&class).expect("class");
    assert!(
        now.starts_with(&[0xca, 0xfe, 0xba, 0xbe]),
        "not compiled again"
    );
}

fn go_or_java_command(
    spec: &'static RuntimeSpec,
    cache: &std::path::Path,
) -> cryptobench_runtime::RunnerCommand {
    spec.command_in(cache).unwrap_or_else(|why| {
        panic!(
            "this test needs {}: {why} (install with `{}`)",
            spec.name, spec.program.install
        )
    })
}
