//! Known answers per backend, agreement across backends, and the round trip,
//! each shown able to fail.

use cryptobench_core::CheckOutcome;
use cryptobench_suite_cipher::catalog::{CipherDesc, Mode};
use cryptobench_suite_cipher::checks;
use cryptobench_suite_cipher::engine::{self, CipherError, Dir, Engine};
use cryptobench_suite_cipher::registry::Registry;
use cryptobench_suite_cipher::vectors::MODE_VECTORS;

fn registry() -> Registry {
    Registry::load(|_| true)
}

fn desc(reg: &Registry, name: &str, backend: &str) -> CipherDesc {
    reg.by_name[name]
        .iter()
        .find(|d| d.backend.name() == backend)
        .unwrap_or_else(|| panic!("{name} missing in {backend}"))
        .clone()
}

fn mcrypt_here() -> bool {
    cryptobench_suite_cipher::mcrypt::version().is_ok()
}

/// Every known-answer check of every cipher passes, and the ciphers with
/// published vectors do run them (not only "skipped").
#[test]
fn known_answers_pass_on_every_backend() {
    let reg = registry();
    let mut passes = 0;
    for descs in reg.by_name.values() {
        for d in descs {
            if catalog_skips(d) {
                continue;
            }
            for c in checks::known_answers(d) {
                assert_ne!(
                    c.outcome,
                    CheckOutcome::Fail,
                    "{} {}: {} {}",
                    d.name,
                    d.backend,
                    c.name,
                    c.detail
                );
                passes += usize::from(c.outcome == CheckOutcome::Pass);
            }
        }
    }
    assert!(passes > 150, "only {passes} known-answer checks ran");
    let must_have = [
        ("AES-128-CBC", "openssl"),
        ("AES-128-CFB1", "openssl"),
        ("AES-128-CFB8", "openssl"),
        ("AES-256-CTR", "rustcrypto"),
        ("ChaCha20", "rustcrypto"),
        ("ChaCha20", "openssl"),
        ("DES-EDE3-ECB", "rustcrypto"),
        ("BF-CBC", "rustcrypto"),
        ("CAST5-ECB", "openssl"),
        ("CAMELLIA-256-ECB", "rustcrypto"),
        ("DES-CBC", "openssl"),
        ("RC4", "openssl"),
    ];
    for (name, backend) in must_have {
        let d = desc(&reg, name, backend);
        let results = checks::known_answers(&d);
        assert!(
            results
                .iter()
                .any(|c| c.outcome == CheckOutcome::Pass && c.name.starts_with("kat:")),
            "{name} {backend}: {results:?}"
        );
    }
    if mcrypt_here() {
        for name in [
            "AES-128-CBC",
            "BF-CFB8",
            "DES-EDE3-CBC",
            "CAST5-ECB",
            "RC4",
            "BF-LE-ECB",
        ] {
            let results = checks::known_answers(&desc(&reg, name, "libmcrypt"));
            assert!(
                results.iter().any(|c| c.outcome == CheckOutcome::Pass),
                "{name}: {results:?}"
            );
        }
    }
}

fn catalog_skips(d: &CipherDesc) -> bool {
    matches!(d.mode, Mode::Aead | Mode::TlsComposite | Mode::Null)
}

/// A vector with one flipped ciphertext bit is reported as a failure with
/// both values.
#[test]
fn a_wrong_vector_fails() {
    let reg = registry();
    let mut v = *MODE_VECTORS
        .iter()
        .find(|v| v.cipher == "AES-128-CBC")
        .unwrap();
    let good = checks::mode_vector(&desc(&reg, "AES-128-CBC", "openssl"), &v);
    assert_eq!(good.outcome, CheckOutcome::Pass);
    v.ct = "8649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7";
    let bad = checks::mode_vector(&desc(&reg, "AES-128-CBC", "rustcrypto"), &v);
    assert_eq!(bad.outcome, CheckOutcome::Fail);
    assert!(bad.detail.contains("expected 8649abac"), "{}", bad.detail);
}

/// Same key, IV and plaintext give identical ciphertext wherever two
/// backends share a cipher; a mismatch names both outputs.
#[test]
fn backends_agree_and_mismatches_fail() {
    let reg = registry();
    let mut compared = 0;
    for descs in reg.by_name.values().filter(|d| d.len() > 1) {
        if catalog_skips(&descs[0]) {
            continue;
        }
        for c in checks::agreement(descs) {
            assert_eq!(c.outcome, CheckOutcome::Pass, "{}: {}", c.name, c.detail);
            compared += 1;
        }
    }
    assert!(compared >= 30, "only {compared} agreement checks");
    // Blowfish big-endian vs little-endian words: a real difference.
    let be = desc(&reg, "BF-CBC", "rustcrypto");
    let mut le_rc = desc(&reg, "BF-LE-CBC", "rustcrypto");
    le_rc.name = be.name.clone();
    let r = checks::agreement(&[be.clone(), le_rc]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].outcome, CheckOutcome::Fail, "{:?}", r[0]);
    assert!(
        r[0].detail.matches(" gave ").count() == 2,
        "{}",
        r[0].detail
    );
}

/// An engine that corrupts one byte: the round trip must catch it.
struct Corrupting(Box<dyn Engine>);

impl Engine for Corrupting {
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError> {
        self.0.set_iv(iv)
    }
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        self.0.rekey(key, iv)
    }
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError> {
        let n = self.0.process(input, out)?;
        if n > 2 {
            out[2] ^= 1;
        }
        Ok(n)
    }
}

#[test]
fn round_trip_passes_and_catches_corruption() {
    let reg = registry();
    let d = desc(&reg, "AES-128-CBC", "openssl");
    let (key, iv, msg) = (vec![1u8; 16], vec![2u8; 16], vec![3u8; 1000]);
    assert_eq!(
        checks::round_trip(&d, &key, &iv, &msg).outcome,
        CheckOutcome::Pass
    );
    let mut enc = engine::build(&d, Dir::Encrypt, &key, &iv).unwrap();
    let mut dec = Corrupting(engine::build(&d, Dir::Decrypt, &key, &iv).unwrap());
    let r = checks::round_trip_with(&d, enc.as_mut(), &mut dec, &msg);
    assert_eq!(r.outcome, CheckOutcome::Fail);
    assert!(r.detail.contains("different text"), "{}", r.detail);
    // A corrupted last block breaks the padding of a 4-byte message.
    let mut enc = engine::build(&d, Dir::Encrypt, &key, &iv).unwrap();
    let mut dec = Corrupting(engine::build(&d, Dir::Decrypt, &key, &iv).unwrap());
    let r = checks::round_trip_with(&d, enc.as_mut(), &mut dec, &msg[..4]);
    assert_eq!(r.outcome, CheckOutcome::Fail, "{r:?}");
}

/// CFB1 written here over RustCrypto's block ciphers (NIST SP 800-38A 6.3
/// with s = 1), to judge seed 001's "broken" DES-CFB1 independently of
/// OpenSSL.
fn cfb1_reference(encrypt_block: &dyn Fn(&mut [u8; 8]), iv: [u8; 8], pt: &[u8]) -> Vec<u8> {
    let mut reg = iv;
    let mut out = vec![0u8; pt.len()];
    for bit in 0..pt.len() * 8 {
        let mut o = reg;
        encrypt_block(&mut o);
        let p = (pt[bit / 8] >> (7 - bit % 8)) & 1;
        let c = p ^ (o[0] >> 7);
        out[bit / 8] |= c << (7 - bit % 8);
        let v = u64::from_be_bytes(reg) << 1 | u64::from(c);
        reg = v.to_be_bytes();
    }
    out
}

#[test]
fn des_cfb1_is_not_broken_here() {
    use cipher::{BlockCipherEncrypt, KeyInit};
    let reg = registry();
    let key24: Vec<u8> = (0..24u8)
        .map(|i| i.wrapping_mul(41).wrapping_add(5))
        .collect();
    let iv = [9u8, 8, 7, 6, 5, 4, 3, 2];
    let pt: Vec<u8> = (0..200u8).map(|i| i.wrapping_mul(13)).collect();
    let des = des::Des::new_from_slice(&key24[..8]).unwrap();
    let tdes = des::TdesEde3::new_from_slice(&key24).unwrap();
    let e1 = |b: &mut [u8; 8]| des.encrypt_block(b.into());
    let e3 = |b: &mut [u8; 8]| tdes.encrypt_block(b.into());
    for (name, key, f) in [
        ("DES-CFB1", &key24[..8], &e1 as &dyn Fn(&mut [u8; 8])),
        ("DES-EDE3-CFB1", &key24[..], &e3),
    ] {
        let d = desc(&reg, name, "openssl");
        let ct = engine::one_shot(&d, Dir::Encrypt, key, &iv, &pt).unwrap();
        assert_eq!(ct, cfb1_reference(f, iv, &pt), "{name}");
        assert_eq!(
            checks::round_trip(&d, key, &iv, &pt).outcome,
            CheckOutcome::Pass
        );
    }
}
