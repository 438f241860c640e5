//! The php cells follow the native plan of their suite: a filtered native
//! plan (`cipher --ciphers aes-128-cbc --sizes 1KiB`, `aead --algorithms
//! .. --sizes ..`, `ecc --curves ..`, an Argon2 grid) gets php cells only at
//! the primitives, sizes and parameters it planned. With or without php on
//! the machine (without it the cells are planned unavailable, at the same
//! places).

use cryptobench_core::{CaseSpec, PlannedCase, RunConfig, Setup, Suite};
use cryptobench_suite_aead::algorithms::by_name;
use cryptobench_suite_argon2::cases::Grid;
use cryptobench_suite_argon2::params::Variant;

fn native_and_php(suite: &dyn Suite, cfg: &RunConfig) -> (Vec<CaseSpec>, Vec<PlannedCase>) {
    let native: Vec<CaseSpec> = suite
        .plan(cfg)
        .expect("native plan")
        .into_iter()
        .map(|c| c.spec)
        .collect();
    let php = cryptobench_runtime::php::plan(suite.name(), cfg, &native);
    (native, php)
}

/// Every php cell has a native library cell with the same primitive
/// (case-insensitively), operation and size.
fn each_beside_a_native_cell(native: &[CaseSpec], php: &[PlannedCase]) {
    for c in php {
        assert_eq!(c.spec.backend, "php");
        assert!(
            native.iter().any(|n| !n.backend.starts_with("peer:")
                && n.primitive.eq_ignore_ascii_case(&c.spec.primitive)
                && n.operation == c.spec.operation
                && n.input_bytes == c.spec.input_bytes),
            "php cell without a native twin: {:?}",
            c.spec
        );
    }
}

fn param<'a>(c: &'a PlannedCase, k: &str) -> Option<&'a str> {
    c.spec.params.get(k).map(String::as_str)
}

#[test]
fn cipher_filters_choose_the_php_cells() {
    let suite = cryptobench_suite_cipher::CipherSuite::new(cryptobench_suite_cipher::Options {
        ciphers: Some("aes-128-cbc,aes-256-cbc".into()),
        sizes: Some(vec![1024]),
        ..Default::default()
    });
    // Not quick: the native plan adds OpenSSL encrypt cells at `openssl
    // speed`'s sizes (16 B, 16 KiB) for AES-256-CBC; they are no size the
    // user asked for.
    let cfg = RunConfig::default();
    let (native, php) = native_and_php(&suite, &cfg);
    assert!(
        native.iter().any(|n| n.input_bytes != 1024),
        "the native plan should carry its peer sizes"
    );
    assert!(!php.is_empty());
    each_beside_a_native_cell(&native, &php);
    for c in &php {
        assert_eq!(c.spec.input_bytes, 1024, "{:?}", c.spec);
        assert!(matches!(
            c.spec.primitive.as_str(),
            "AES-128-CBC" | "AES-256-CBC"
        ));
    }
    let apis: Vec<&str> = php.iter().filter_map(|c| param(c, "api")).collect();
    assert!(apis.contains(&"openssl_encrypt"), "{apis:?}");
    // libmcrypt's rijndael-128 CBC is the seed's other path to AES-128-CBC.
    assert!(apis.contains(&"mcrypt_encrypt"), "{apis:?}");
    // Every native operation, and no other.
    let mut ops: Vec<&str> = php.iter().map(|c| c.spec.operation.as_str()).collect();
    ops.sort_unstable();
    ops.dedup();
    let mut native_ops: Vec<&str> = native.iter().map(|n| n.operation.as_str()).collect();
    native_ops.sort_unstable();
    native_ops.dedup();
    assert_eq!(ops, native_ops);
}

#[test]
fn aead_filters_choose_the_php_cells_and_their_parameters() {
    let algs = ["ChaCha20-Poly1305", "AES-128-CCM"].map(|n| by_name(n).expect("algorithm"));
    let suite = cryptobench_suite_aead::AeadSuite::new(cryptobench_suite_aead::Options {
        algorithms: Some(algs.to_vec()),
        sizes: Some(vec![64, 20_000_000]),
        aad: 13,
        ..Default::default()
    });
    let cfg = RunConfig::quick();
    let (native, php) = native_and_php(&suite, &cfg);
    each_beside_a_native_cell(&native, &php);
    assert!(php
        .iter()
        .all(|c| matches!(c.spec.input_bytes, 64 | 20_000_000)));
    assert!(php.iter().all(|c| param(c, "aad") == Some("13")));
    let apis = |p: &str| -> Vec<&str> {
        php.iter()
            .filter(|c| c.spec.primitive == p)
            .filter_map(|c| param(c, "api"))
            .collect()
    };
    assert!(apis("ChaCha20-Poly1305").contains(&"openssl_encrypt"));
    assert!(apis("ChaCha20-Poly1305").contains(&"sodium_crypto_aead_chacha20poly1305_ietf"));
    assert!(apis("AES-128-CCM").iter().all(|a| *a == "openssl_encrypt"));
    assert!(!php.iter().any(|c| c.spec.primitive == "AES-256-GCM"));
    // CCM's 3-byte length field: 20 MB is skipped for PHP as natively.
    if cryptobench_runtime::php::available().is_ok() {
        let ccm_20mb = php
            .iter()
            .find(|c| c.spec.primitive == "AES-128-CCM" && c.spec.input_bytes == 20_000_000)
            .expect("a CCM cell at 20 MB");
        assert!(matches!(&ccm_20mb.setup, Setup::Skipped(r) if r.contains("800-38C")));
    }
}

#[test]
fn ecc_curves_choose_the_php_cells() {
    let suite = cryptobench_suite_ecc::EccSuite {
        curves: Some(vec!["secp384r1".into(), "X25519".into()]),
        ..Default::default()
    };
    let cfg = RunConfig::quick();
    let (native, php) = native_and_php(&suite, &cfg);
    each_beside_a_native_cell(&native, &php);
    let curves: Vec<&str> = php.iter().map(|c| c.spec.primitive.as_str()).collect();
    assert_eq!(curves, ["secp384r1", "X25519"]);
    assert!(php.iter().all(|c| c.spec.operation == "keygen"));
    assert_eq!(param(&php[0], "family"), Some("Secp"));
    if cryptobench_runtime::php::available().is_ok() {
        assert!(matches!(php[0].setup, Setup::Ready(_)));
        // PHP's openssl_pkey_new has no X25519 curve name.
        assert!(matches!(&php[1].setup, Setup::Unavailable(r) if r.contains("X25519")));
    }
}

#[test]
fn argon2_grid_chooses_the_php_cells() {
    let grid = Grid::cross(&[Variant::Id, Variant::D], &[2], vec![8 << 10], vec![2]);
    let suite = cryptobench_suite_argon2::Argon2Suite { grid: Some(grid) };
    let cfg = RunConfig::quick();
    let (native, php) = native_and_php(&suite, &cfg);
    each_beside_a_native_cell(&native, &php);
    assert!(!php.is_empty());
    for c in &php {
        assert_eq!(param(c, "m_kib"), Some("8192"));
        assert_eq!(param(c, "t"), Some("2"));
        assert_eq!(param(c, "p"), Some("2"));
    }
    // Two PHP functions per native point, whatever the native backends.
    assert_eq!(
        php.len(),
        4,
        "{:?}",
        php.iter().map(|c| &c.spec).collect::<Vec<_>>()
    );
    let sodium = php
        .iter()
        .find(|c| c.spec.primitive == "Argon2id" && param(c, "api") == Some("sodium_crypto_pwhash"))
        .expect("sodium cell");
    assert!(matches!(&sodium.setup, Setup::Unavailable(_)));
    if cryptobench_runtime::php::available().is_ok() {
        assert!(matches!(&sodium.setup, Setup::Unavailable(r) if r.contains("one lane")));
        let d = php
            .iter()
            .find(|c| c.spec.primitive == "Argon2d")
            .expect("Argon2d cell");
        assert!(
            matches!(&d.setup, Setup::Unavailable(r) if r.contains("Argon2i and Argon2id only"))
        );
    }
}

#[test]
fn no_native_cell_means_no_php_cell() {
    let cfg = RunConfig::quick();
    for suite in ["cipher", "aead", "ecc", "argon2"] {
        assert!(cryptobench_runtime::php::plan(suite, &cfg, &[]).is_empty());
    }
    let peer_only =
        [CaseSpec::new("cipher", "AES-128-CBC", "peer:openssl-speed", "", "encrypt").size(16)];
    assert!(cryptobench_runtime::php::plan("cipher", &cfg, &peer_only).is_empty());
}
