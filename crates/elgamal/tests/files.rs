//! Key and ciphertext files: round trips through the text formats, and every
//! malformed input the issue lists answered with a usage error (exit 2),
//! never a panic.

use cryptobench_core::{Error, RunConfig, SuiteAction};
use cryptobench_elgamal::arith;
use cryptobench_elgamal::cli::{
    self, decrypt_text, encrypt_text, ElgamalArgs, ElgamalCommand, KeygenArgs,
};
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::format::{CiphertextFile, KeyFile};
use cryptobench_elgamal::keys::RngSource;
use cryptobench_elgamal::scheme::open;
use serde_json::Value;

fn key_texts(curve: Curve, seed: u64) -> (String, String) {
    let keys = open(
        curve,
        arith::default_for(curve),
        None,
        RngSource::Seeded(seed),
    )
    .unwrap();
    (
        KeyFile::from_material(keys.material()).to_json(),
        KeyFile::from_material(&keys.material().public_only()).to_json(),
    )
}

fn usage(r: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match r {
        Err(Error::Usage(msg)) => assert!(
            msg.to_lowercase().contains(&needle.to_lowercase()),
            "'{msg}' lacks '{needle}'"
        ),
        other => panic!("expected a usage error containing '{needle}', got {other:?}"),
    }
}

fn edit(text: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn files_round_trip_on_every_curve() {
    for curve in Curve::ALL {
        let (secret, public) = key_texts(curve, 11);
        assert!(!public.contains("secret"));
        let v: Value = serde_json::from_str(&secret).unwrap();
        assert_eq!(v["format"], "cryptobench-elgamal-key/1");
        assert_eq!(v["curve"], curve.name());
        assert_eq!(v["params"]["p"], curve.params().p);
        for enc in ["char", "packed"] {
            let ct = encrypt_text(&public, b"hello, world", enc, 2, &None, RngSource::Os).unwrap();
            let v: Value = serde_json::from_str(&ct).unwrap();
            assert_eq!(v["format"], "cryptobench-elgamal/1");
            assert_eq!(v["encoding"], enc);
            assert_eq!(v["length"], 12);
            assert_eq!(
                decrypt_text(&secret, &ct, 1, &None).unwrap(),
                b"hello, world"
            );
        }
    }
}

#[test]
fn malformed_ciphertexts_are_usage_errors() {
    let (secret, public) = key_texts(Curve::P256, 3);
    let ct = encrypt_text(&public, b"abcdef", "char", 1, &None, RngSource::Os).unwrap();

    // Truncated file.
    usage(
        decrypt_text(&secret, &ct[..ct.len() / 2], 1, &None),
        "truncated",
    );
    // Not JSON at all.
    usage(
        decrypt_text(&secret, "hello", 1, &None),
        "not a valid ciphertext",
    );
    // Wrong format tag.
    let bad = edit(&ct, |v| v["format"] = "cryptobench-elgamal/9".into());
    usage(
        decrypt_text(&secret, &bad, 1, &None),
        "expected 'cryptobench-elgamal/1'",
    );
    // Unknown encoding, with a suggestion.
    let bad = edit(&ct, |v| v["encoding"] = "chars".into());
    usage(decrypt_text(&secret, &bad, 1, &None), "did you mean char");
    // Length that does not match the pairs.
    let bad = edit(&ct, |v| v["length"] = 7.into());
    usage(decrypt_text(&secret, &bad, 1, &None), "needs 7");
    // A pair dropped (truncated pairs).
    let bad = edit(&ct, |v| {
        v["pairs"].as_array_mut().unwrap().pop();
    });
    usage(decrypt_text(&secret, &bad, 1, &None), "pairs");
    // A point not on the curve: x = 1 is not on P-256 (1 - 3 + b is a non-residue mod p).
    let off = format!("02{}", "0".repeat(62) + "01");
    let bad = edit(&ct, |v| v["pairs"][0][0] = off.clone().into());
    usage(
        decrypt_text(&secret, &bad, 1, &None),
        "not a SEC1 compressed point on P-256",
    );
    // x >= p.
    let bad = edit(&ct, |v| {
        v["pairs"][1][1] = format!("03{}", "f".repeat(64)).into()
    });
    usage(
        decrypt_text(&secret, &bad, 1, &None),
        "not a SEC1 compressed point",
    );
    // Bad prefix, wrong size, not hex.
    let bad = edit(&ct, |v| {
        v["pairs"][0][0] = format!("04{}", "1".repeat(64)).into()
    });
    usage(
        decrypt_text(&secret, &bad, 1, &None),
        "not a SEC1 compressed point",
    );
    let bad = edit(&ct, |v| v["pairs"][0][1] = "02abcd".into());
    usage(decrypt_text(&secret, &bad, 1, &None), "is 3 bytes");
    let bad = edit(&ct, |v| v["pairs"][0][1] = "zz".into());
    usage(decrypt_text(&secret, &bad, 1, &None), "not hexadecimal");
    // Unknown field.
    let bad = edit(&ct, |v| v["extra"] = 1.into());
    usage(decrypt_text(&secret, &bad, 1, &None), "unknown field");
    // Wrong curve: a secp256k1 ciphertext with a P-256 key.
    let (_, k1_public) = key_texts(Curve::Secp256k1, 4);
    let other = encrypt_text(&k1_public, b"x", "char", 1, &None, RngSource::Os).unwrap();
    usage(
        decrypt_text(&secret, &other, 1, &None),
        "ciphertext is for secp256k1",
    );
    // Swapping y1 and y2 decrypts to garbage: refused as an invalid encoding
    // (or, rarely, decodes to other text; never panics).
    let swapped = edit(&ct, |v| {
        let pair = v["pairs"][0].as_array_mut().unwrap();
        pair.swap(0, 1);
    });
    if let Ok(p) = decrypt_text(&secret, &swapped, 1, &None) {
        assert_ne!(p, b"abcdef");
    }
}

#[test]
fn malformed_keys_are_usage_errors() {
    let (secret, public) = key_texts(Curve::Toy64, 8);
    let ct = encrypt_text(&public, b"hi", "packed", 1, &None, RngSource::Os).unwrap();
    // A public key used to decrypt.
    usage(decrypt_text(&public, &ct, 1, &None), "only a public key");
    // Truncated key file.
    usage(
        encrypt_text(&secret[..20], b"x", "char", 1, &None, RngSource::Os),
        "truncated",
    );
    // Unknown curve, with a suggestion.
    let bad = edit(&secret, |v| v["curve"] = "P256x".into());
    usage(
        encrypt_text(&bad, b"x", "char", 1, &None, RngSource::Os),
        "unknown curve",
    );
    // Parameters that do not match the named curve.
    let bad = edit(&secret, |v| v["params"]["b"] = "07".into());
    usage(
        encrypt_text(&bad, b"x", "char", 1, &None, RngSource::Os),
        "parameter b",
    );
    // Public key not on the curve / wrong length.
    let bad = edit(&public, |v| v["public"] = "020000000000000005".into());
    let r = encrypt_text(&bad, b"x", "char", 1, &None, RngSource::Os);
    if let Err(e) = &r {
        assert!(matches!(e, Error::Usage(_)));
    }
    let bad = edit(&public, |v| v["public"] = "02ab".into());
    usage(
        encrypt_text(&bad, b"x", "char", 1, &None, RngSource::Os),
        "public key is 2 bytes",
    );
    // Secret key out of range (0, and n) or not matching Q.
    let bad = edit(&secret, |v| v["secret"] = "0000000000000000".into());
    usage(decrypt_text(&bad, &ct, 1, &None), "[1, n-1]");
    let bad = edit(&secret, |v| v["secret"] = Curve::Toy64.params().n.into());
    usage(decrypt_text(&bad, &ct, 1, &None), "[1, n-1]");
    let bad = edit(&secret, |v| v["secret"] = "0000000000000002".into());
    usage(decrypt_text(&bad, &ct, 1, &None), "do not match");
    // Wrong format tag.
    let bad = edit(&secret, |v| v["format"] = "cryptobench-elgamal/1".into());
    usage(
        decrypt_text(&bad, &ct, 1, &None),
        "expected 'cryptobench-elgamal-key/1'",
    );
    // An arithmetic that does not implement the curve.
    usage(
        encrypt_text(
            &public,
            b"x",
            "char",
            1,
            &Some("openssl".into()),
            RngSource::Os,
        ),
        "no 64-bit curve",
    );
    // Thread counts outside 1..=1000.
    usage(
        encrypt_text(&public, b"x", "char", 1001, &None, RngSource::Os),
        "out of range",
    );
}

#[test]
fn keygen_writes_secret_and_public_files() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key.json");
    let public = dir.path().join("pub.json");
    let args = keygen_args(&key, Some(&public), false);
    let cfg = RunConfig {
        seed: Some(1),
        ..RunConfig::quick()
    };
    assert!(matches!(
        cli::command(&args, &cfg),
        Ok(SuiteAction::Done(0))
    ));
    let secret = std::fs::read_to_string(&key).unwrap();
    let public = std::fs::read_to_string(&public).unwrap();
    assert!(secret.contains("\"secret\""));
    assert!(!public.contains("\"secret\""));
    let ct = encrypt_text(&public, b"k1", "char", 1, &None, RngSource::Os).unwrap();
    assert_eq!(decrypt_text(&secret, &ct, 1, &None).unwrap(), b"k1");
    // The seeded key is reproducible: same seed, same file.
    let again = dir.path().join("again.json");
    let args2 = keygen_args(&again, None, false);
    cli::command(&args2, &cfg).unwrap();
    assert_eq!(std::fs::read_to_string(&again).unwrap(), secret);
    // No output path: a usage error, not a panic.
    let args3 = ElgamalArgs {
        command: Some(ElgamalCommand::Keygen(KeygenArgs {
            curve: "toy64".into(),
            out: None,
            path: None,
            public: None,
            force: false,
        })),
        bench: Default::default(),
    };
    assert!(matches!(cli::command(&args3, &cfg), Err(Error::Usage(_))));
    // The ciphertext format parses back exactly.
    let raw = CiphertextFile::parse(&ct).unwrap();
    assert_eq!(CiphertextFile::from_raw(&raw).to_json(), ct);
}

fn keygen_args(
    out: &std::path::Path,
    public: Option<&std::path::Path>,
    force: bool,
) -> ElgamalArgs {
    ElgamalArgs {
        command: Some(ElgamalCommand::Keygen(KeygenArgs {
            curve: "secp256k1".into(),
            out: Some(out.to_path_buf()),
            path: None,
            public: public.map(|p| p.to_path_buf()),
            force,
        })),
        bench: Default::default(),
    }
}

#[test]
fn keygen_never_loses_a_secret_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.json");
    let cfg = RunConfig::quick();
    // One path for both keys: refused before anything is written.
    let same = cli::command(&keygen_args(&key, Some(&key), false), &cfg).err();
    assert!(
        matches!(&same, Some(Error::Usage(m)) if m.contains("--out and --public")),
        "{same:?}"
    );
    assert!(!key.exists());
    // A fresh secret key is readable by its owner only.
    cli::command(&keygen_args(&key, None, false), &cfg).unwrap();
    let first = std::fs::read_to_string(&key).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // A second keygen on the same file is refused, the key stays.
    let again = cli::command(&keygen_args(&key, None, false), &cfg).err();
    assert!(
        matches!(&again, Some(Error::Usage(m)) if m.contains("--force")),
        "{again:?}"
    );
    assert_eq!(std::fs::read_to_string(&key).unwrap(), first);
    // A refused public path leaves no new secret key behind either.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let other = dir.path().join("other.json");
    assert!(cli::command(&keygen_args(&other, Some(&notes), false), &cfg).is_err());
    assert!(!other.exists());
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
    // --force replaces it.
    cli::command(&keygen_args(&key, None, true), &cfg).unwrap();
    assert_ne!(std::fs::read_to_string(&key).unwrap(), first);
}
