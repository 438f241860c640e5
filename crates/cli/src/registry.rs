//! The registry: every suite and every seed experiment, one line each.

use cryptobench_core::{Paper, Suite};
use cryptobench_runtime::Runtime;

/// Every suite with its default options, in the order `run` runs them.
// `default()` keeps one shape for every line, whether a suite has options or not.
#[allow(clippy::default_constructed_unit_structs)]
pub fn suites() -> Vec<Box<dyn Suite>> {
    vec![
        Box::new(cryptobench_suite_hash::HashSuite::default()),
        Box::new(cryptobench_suite_cipher::CipherSuite::default()),
        Box::new(cryptobench_suite_aead::AeadSuite::default()),
        Box::new(cryptobench_suite_ecc::EccSuite::default()),
        Box::new(cryptobench_suite_argon2::Argon2Suite::default()),
        Box::new(cryptobench_suite_pubkey::PubkeySuite::default()),
        Box::new(cryptobench_suite_tls::TlsSuite::default()),
        // Plans nothing in `run`: its screens run by `cryptobench leak`;
        // here for its views in `show`, `export` and `list`.
        Box::new(cryptobench_suite_leak::LeakSuite),
        Box::new(cryptobench_elgamal::ElgamalSuite::default()),
    ]
}

/// Every runtime whose twins stand beside the native cells, in the order
/// their rows follow each suite's.
pub fn runtimes() -> Vec<Box<dyn Runtime>> {
    vec![
        cryptobench_runtime::php::runtime(),
        cryptobench_runtime::python::SPEC.runtime(),
        cryptobench_runtime::node::SPEC.runtime(),
        cryptobench_runtime::go::SPEC.runtime(),
        cryptobench_runtime::java::SPEC.runtime(),
    ]
}

/// Every seed experiment.
pub fn papers() -> Vec<Box<dyn Paper>> {
    let mut out = Vec::new();
    out.extend(cryptobench_suite_hash::papers());
    out.extend(cryptobench_suite_ecc::papers());
    out.extend(cryptobench_suite_argon2::papers());
    out.extend(cryptobench_suite_cipher::papers());
    out.extend(cryptobench_elgamal::papers());
    out.extend(cryptobench_suite_aead::papers());
    out
}
