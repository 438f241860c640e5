//! The real runner with the machine's PHP: the protocol round trip, checks
//! that catch a wrong vector, and interop in both directions for a cipher,
//! two AEADs, Argon2 PHC strings and an EC curve, each shown to fail when
//! the other side's artifact is corrupted. Without php these tests fail and
//! say how to install it (scripts/install-deps installs php-cli).

use crate::common;

use common::outcome;
use cryptobench_core::{CaseError, CheckOutcome, CheckResult, RunConfig, Setup, Suite};
use cryptobench_runtime::case::{shared, RunnerCase};
use cryptobench_runtime::interop::{
    Argon2Interop, CipherInterop, EcInterop, Interop, InteropError, OpensslAeadInterop,
    SodiumAeadInterop,
};
use cryptobench_runtime::php::runner::{Runner, RunnerCommand};
use serde_json::{json, Value};
use std::sync::Arc;

/// The runner command; without php the test fails and says how to install it.
fn php() -> RunnerCommand {
    if let Err(why) = cryptobench_runtime::php::available() {
        panic!("these tests need php: {why} (scripts/install-deps installs php-cli)");
    }
    cryptobench_runtime::php::runner::command_from_env().expect("the embedded runner script")
}

#[test]
fn protocol_round_trip_with_the_real_runner() {
    let cmd = php();
    let mut r = Runner::spawn(&cmd).expect("spawn");
    let hello =
        cryptobench_runtime::php::Hello::parse(&r.request(&json!({"op": "hello"})).expect("hello"))
            .expect("this binary's protocol");
    assert!(hello.php().starts_with('8'), "{}", hello.php());
    assert!(hello.ciphers.iter().any(|c| c == "aes-256-gcm"));
    assert!(hello.curves.iter().any(|c| c == "prime256v1"));
    // The runner publishes what it offers: seed 001's mcrypt ciphers, seed
    // 003's sodium AEADs and its two Argon2 functions.
    // libmcrypt's ciphers under the cipher suite's names (seed 001's three
    // first; the rest need the mcrypt extension, which install-deps adds).
    let named = |alg: &str, mode: &str, key: u64| {
        let m = hello
            .mcrypt
            .iter()
            .find(|m| m.algorithm == alg && m.mode == mode && m.key_len == key)
            .unwrap_or_else(|| panic!("no mcrypt {alg}/{mode}/{key} in {:#?}", hello.mcrypt));
        (
            m.primitive.as_str(),
            m.mode_name.as_str(),
            m.key_bits,
            m.seed,
        )
    };
    assert_eq!(named("blowfish", "cfb", 16), ("BF-CFB8", "CFB8", 128, true));
    assert_eq!(
        named("rijndael-128", "ncfb", 32),
        ("AES-256-CFB", "CFB", 256, true)
    );
    assert_eq!(
        named("tripledes", "cbc", 24),
        ("DES-EDE3-CBC", "CBC", 168, false)
    );
    assert_eq!(
        named("arcfour", "stream", 16),
        ("RC4", "stream", 128, false)
    );
    assert_eq!(
        named("twofish", "nofb", 32),
        ("TWOFISH-256-OFB", "OFB", 256, false)
    );
    assert!(hello
        .sodium_aeads
        .iter()
        .any(|a| a.primitive == "XChaCha20-Poly1305" && a.alg == "xchacha20poly1305_ietf"));
    assert_eq!(
        hello.apis.get("argon2").map(Vec::len),
        Some(2),
        "{:?}",
        hello.apis
    );
    let case = json!({"kind": "cipher", "method": "aes-128-ctr", "size": 64, "op": "encrypt",
        "padding": "none", "kats": cryptobench_runtime::vectors::cipher_kats("AES-128-CTR")});
    let prepared = r
        .request(&json!({"op": "prepare", "id": 7, "case": case}))
        .expect("prepare");
    let checks = cryptobench_runtime::case::parse_checks("php", &prepared);
    assert_eq!(outcome(&checks, "php roundtrip:64 B"), CheckOutcome::Pass);
    assert_eq!(
        outcome(&checks, "php kat:NIST SP 800-38A F.5.1 CTR-AES128.Encrypt"),
        CheckOutcome::Pass
    );
    let t = r
        .request(&json!({"op": "time", "id": 7, "iters": 10}))
        .expect("time");
    assert_eq!(t["iters"], 10);
    assert!(t["ns"].as_f64().is_some_and(|ns| ns > 0.0), "{t}");
    r.request(&json!({"op": "release", "id": 7}))
        .expect("release");
    let gone = common::refusal(r.request(&json!({"op": "time", "id": 7, "iters": 1})));
    assert!(
        gone.contains("no prepared case"),
        "a released case must be gone: {gone}"
    );
    let unknown = common::refusal(r.request(&json!({"op": "frobnicate"})));
    assert!(unknown.contains("unknown op"), "{unknown}");
}

#[test]
fn a_wrong_vector_fails_the_case() {
    let cmd = php();
    let mut kats = cryptobench_runtime::vectors::cipher_kats("AES-256-CBC");
    let ct = kats[0]["ct"].as_str().expect("ct").to_string();
    kats[0]["ct"] = Value::String(format!("00{}", &ct[2..]));
    let case = json!({"kind": "cipher", "method": "aes-256-cbc", "size": 32, "op": "encrypt",
        "padding": "none", "kats": kats});
    let c = RunnerCase::prepare(&shared(cmd), json!({"case": case}), None, None).expect("prepare");
    let mut c = c;
    let checks = cryptobench_core::Case::checks(&mut c);
    assert_eq!(
        outcome(&checks, "php kat:NIST SP 800-38A F.2.5 CBC-AES256.Encrypt"),
        CheckOutcome::Fail
    );
}

#[test]
fn what_php_lacks_is_unavailable_and_a_parameter_rule_is_skipped() {
    let cmd = php();
    let runner = shared(cmd);
    let lacks = json!({"kind": "cipher", "method": "no-such-cipher", "size": 16, "op": "encrypt",
        "padding": "none", "kats": []});
    match RunnerCase::prepare(&runner, json!({"case": lacks}), None, None) {
        Err(CaseError::Unavailable(why)) => assert!(why.contains("no-such-cipher"), "{why}"),
        other => panic!("expected unavailable, got {other:?}"),
    }
    // libsodium's Argon2i needs 3 passes: a rule of the function, not a gap.
    let rule = json!({"kind": "pwhash", "api": "sodium", "variant": "argon2i",
        "m_kib": 8192, "t": 1, "threads": 1});
    match RunnerCase::prepare(&runner, json!({"case": rule}), Some(1), None) {
        Err(CaseError::Skipped(why)) => assert!(why.contains("3 passes"), "{why}"),
        other => panic!("expected skipped, got {other:?}"),
    }
}

#[test]
fn php_argon2_says_why_the_rfc_vectors_do_not_apply() {
    let runner = shared(php());
    for api in ["sodium", "password_hash"] {
        let case = json!({"kind": "pwhash", "api": api, "variant": "argon2id",
            "m_kib": 1024, "t": 2, "threads": 1});
        let mut c =
            RunnerCase::prepare(&runner, json!({ "case": case }), Some(1), None).expect("prepare");
        let checks = cryptobench_core::Case::checks(&mut c);
        assert_eq!(
            outcome(&checks, "php kat:RFC 9106 section 5"),
            CheckOutcome::Skipped,
            "{api}: {checks:#?}"
        );
    }
}

/// Corrupts what one side hands the other, to show each direction can fail.
struct Corrupt<I: Interop> {
    inner: I,
    field: &'static str,
    native: bool,
}

fn flip(v: &mut Value, field: &str) {
    let s = v[field].as_str().expect("hex or text field").to_string();
    let flipped = if field == "pem" || field == "phc" {
        // Change the last base64 character before the end.
        let mut b = s.into_bytes();
        let at = b
            .iter()
            .rposition(|c| c.is_ascii_alphanumeric())
            .expect("text");
        let at = at.saturating_sub(40);
        b[at] = if b[at] == b'A' { b'B' } else { b'A' };
        String::from_utf8(b).expect("ascii")
    } else {
        let mut bytes = hex::decode(&s).expect("hex");
        bytes[0] ^= 1;
        hex::encode(bytes)
    };
    v[field] = Value::String(flipped);
}

impl<I: Interop> Interop for Corrupt<I> {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let mut v = self.inner.native_artifacts()?;
        if self.native {
            flip(&mut v, self.field);
        }
        Ok(v)
    }
    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        let mut a = a.clone();
        if !self.native {
            flip(&mut a, self.field);
        }
        self.inner.check_runtime_artifacts(runtime, &a)
    }
}

/// Runs `case` with `interop` (both directions must pass) and again with
/// each side corrupted (that direction must fail).
fn interop_both_ways<I, F>(
    case: Value,
    make: F,
    native_field: &'static str,
    php_field: &'static str,
) where
    I: Interop + 'static,
    F: Fn() -> I,
{
    let cmd = php();
    let runner = shared(cmd);
    let run = |i: Arc<dyn Interop>, key: &str| {
        let mut c = RunnerCase::prepare(
            &runner,
            json!({"case": case.clone()}),
            None,
            Some((key.to_string(), i)),
        )
        .expect("prepare");
        cryptobench_core::Case::checks(&mut c)
    };
    let good = run(Arc::new(make()), "good");
    assert_eq!(
        outcome(&good, "php interop:native->php"),
        CheckOutcome::Pass,
        "{good:#?}"
    );
    assert_eq!(
        outcome(&good, "interop:php->native"),
        CheckOutcome::Pass,
        "{good:#?}"
    );
    let bad_native = run(
        Arc::new(Corrupt {
            inner: make(),
            field: native_field,
            native: true,
        }),
        "bad native",
    );
    assert_eq!(
        outcome(&bad_native, "php interop:native->php"),
        CheckOutcome::Fail
    );
    let bad_php = run(
        Arc::new(Corrupt {
            inner: make(),
            field: php_field,
            native: false,
        }),
        "bad php",
    );
    assert_eq!(outcome(&bad_php, "interop:php->native"), CheckOutcome::Fail);
}

#[test]
fn interop_cipher_aes_256_cbc() {
    interop_both_ways(
        json!({"kind": "cipher", "method": "aes-256-cbc", "size": 64, "op": "encrypt", "padding": "none"}),
        || CipherInterop {
            method: "aes-256-cbc".into(),
            pkcs7: false,
        },
        "ct",
        "ct",
    );
}

#[test]
fn interop_openssl_aead_aes_256_gcm() {
    interop_both_ways(
        json!({"kind": "openssl_aead", "method": "aes-256-gcm", "size": 64, "op": "encrypt",
            "aad": 0, "tag": 16, "nonce_len": 12}),
        || OpensslAeadInterop {
            method: "aes-256-gcm".into(),
            tag: 16,
            nonce: 12,
        },
        "tag",
        "tag",
    );
}

#[test]
fn interop_sodium_chacha20poly1305_ietf() {
    interop_both_ways(
        json!({"kind": "sodium_aead", "alg": "chacha20poly1305_ietf", "size": 64, "op": "encrypt", "aad": 0}),
        || SodiumAeadInterop {
            alg: "chacha20poly1305_ietf".into(),
        },
        "ct",
        "tag",
    );
}

#[test]
fn interop_argon2_phc_strings_and_sodium_raw_tags() {
    let apis = [
        ("password_hash", "argon2id", 2, "phc"),
        ("sodium", "argon2i", 3, "raw"),
    ];
    for (api, variant, t, field) in apis {
        interop_both_ways(
            json!({"kind": "pwhash", "api": api, "variant": variant, "m_kib": 1024, "t": t, "threads": 1}),
            || Argon2Interop::new(api, variant),
            field,
            field,
        );
    }
}

#[test]
fn interop_ec_prime256v1() {
    interop_both_ways(
        json!({"kind": "ecc", "curve": "prime256v1"}),
        || EcInterop {
            curve: "prime256v1".into(),
        },
        "pem",
        "pem",
    );
}

#[test]
fn aegis_is_unavailable_with_the_versions_quoted() {
    php();
    let hello = cryptobench_runtime::php::hello().expect("hello");
    let cfg = RunConfig::quick();
    let native: Vec<cryptobench_core::CaseSpec> =
        cryptobench_suite_aead::AeadSuite::new(Default::default())
            .plan(&cfg)
            .expect("native aead plan")
            .into_iter()
            .map(|c| c.spec)
            .collect();
    let plan = cryptobench_runtime::php::plan("aead", &cfg, &native);
    let aegis = plan
        .iter()
        .find(|c| c.spec.primitive == "AEGIS-128L")
        .expect("AEGIS-128L is planned");
    let has_aegis = hello.family("sodium_aegis").is_none();
    match &aegis.setup {
        Setup::Unavailable(why) => {
            assert!(!has_aegis);
            assert!(
                why.contains("PHP 8.4") && why.contains(hello.php()),
                "{why}"
            );
            assert!(
                why.contains(hello.library("sodium").unwrap_or("?")),
                "{why}"
            );
        }
        Setup::Ready(_) => assert!(has_aegis),
        Setup::Skipped(w) => panic!("{w}"),
    }
}
