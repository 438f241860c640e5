//! PHP against the native backends on the targets, in one run:
//! AES-256-GCM encryption at 20 MB and 1 KB, P-256 (prime256v1) key
//! generation and Argon2id at 64 MiB, t = 3, one lane. Prints each
//! measurement and the PHP / native ratio.
//!
//! `cargo run --release -p cryptobench --example php_vs_native`
//! (`-- --smoke` instead runs every `--quick` php case of the four suites
//! and prints status and checks; `-- --full-smoke` every `--full` cipher,
//! AEAD and curve cell at 1 KB).

use cryptobench_core::{
    CaseSpec, CaseStatus, CheckOutcome, Measurement, PlannedCase, RunConfig, Setup, Suite,
};
use cryptobench_engine::measure_case;
use cryptobench_engine::sample::clock::MonotonicClock;

fn run(cases: Vec<PlannedCase>, cfg: &RunConfig) -> Vec<Measurement> {
    let mut out = Vec::new();
    for c in cases {
        let m = match &c.setup {
            Setup::Ready(f) => match measure_case(&c.spec, f, &cfg.budget, &MonotonicClock) {
                Some(m) => m,
                None => continue,
            },
            Setup::Skipped(r) => c.spec.measurement(CaseStatus::Skipped, Some(r.clone())),
            Setup::Unavailable(r) => c.spec.measurement(CaseStatus::Unavailable, Some(r.clone())),
        };
        print_one(&m);
        out.push(m);
    }
    out
}

fn print_one(m: &Measurement) {
    let api = m.param("api").unwrap_or("");
    let median = m
        .median_ns()
        .map(cryptobench_core::units::format_ns)
        .unwrap_or_else(|| "-".into());
    println!(
        "{:<7} {:<28} {:<11} {:<24} {:<9} {:>9} B  {:>12}  {}",
        m.suite,
        m.primitive,
        m.backend,
        api,
        m.operation,
        m.input_bytes,
        median,
        m.status.as_str()
    );
    if let Some(r) = &m.reason {
        println!("        reason: {r}");
    }
    for c in &m.checks {
        if c.outcome != CheckOutcome::Pass || std::env::var_os("SHOW_CHECKS").is_some() {
            println!("        check {:?} {}: {}", c.outcome, c.name, c.detail);
        }
    }
}

/// The native suite's own default plan (specs only): what php stands beside.
fn native_specs(suite: &str, cfg: &RunConfig) -> Vec<CaseSpec> {
    let s: Box<dyn Suite> = match suite {
        "cipher" => Box::new(cryptobench_suite_cipher::CipherSuite::new(
            cryptobench_suite_cipher::plan::Options {
                all: cfg.full,
                ..Default::default()
            },
        )),
        "aead" => Box::new(cryptobench_suite_aead::AeadSuite::new(Default::default())),
        "ecc" => Box::new(cryptobench_suite_ecc::EccSuite::default()),
        _ => Box::new(cryptobench_suite_argon2::Argon2Suite { grid: None }),
    };
    s.plan(cfg)
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.spec)
        .collect()
}

/// The php cells beside `suite`'s default native plan.
fn php_plan(suite: &str, cfg: &RunConfig) -> Vec<PlannedCase> {
    cryptobench_runtime::php::plan(suite, cfg, &native_specs(suite, cfg))
}

fn smoke() {
    let cfg = RunConfig::quick();
    for suite in ["cipher", "aead", "ecc", "argon2"] {
        run(php_plan(suite, &cfg), &cfg);
    }
}

/// Every `--full` cell at one small size and one operation (quick budget):
/// every cipher method, mcrypt pair, AEAD and curve is checked and timed.
fn full_smoke() {
    let full = RunConfig {
        full: true,
        ..RunConfig::quick()
    };
    let quick = RunConfig::quick();
    for suite in ["cipher", "aead", "ecc"] {
        let cells: Vec<PlannedCase> = php_plan(suite, &full)
            .into_iter()
            .filter(|c| {
                c.spec.operation != "decrypt"
                    && c.spec.operation != "roundtrip"
                    && matches!(c.spec.input_bytes, 0 | 1024 | 1_000)
            })
            .collect();
        let done = run(cells, &quick);
        let count = |s: CaseStatus| done.iter().filter(|m| m.status == s).count();
        println!(
            "{suite}: {} measured, {} FAILED, {} unavailable, {} skipped",
            count(CaseStatus::Measured),
            count(CaseStatus::Failed),
            count(CaseStatus::Unavailable),
            count(CaseStatus::Skipped)
        );
    }
}

/// The measurements of `ms` that `keep` accepts.
fn only(ms: &[Measurement], keep: impl Fn(&Measurement) -> bool) -> Vec<Measurement> {
    ms.iter().filter(|m| keep(m)).cloned().collect()
}

fn ratio(label: &str, php: &[Measurement], native: &[Measurement]) {
    let Some(p) = php.iter().find_map(Measurement::median_ns) else {
        println!("{label}: no php figure");
        return;
    };
    let op = php
        .iter()
        .find(|m| m.median_ns().is_some())
        .map(|m| m.operation.clone());
    for n in native.iter().filter(|n| Some(&n.operation) == op.as_ref()) {
        if let Some(nm) = n.median_ns() {
            println!(
                "{label}: php {} vs {} {} {} -> PHP / native = {:.2}",
                cryptobench_core::units::format_ns(p),
                n.backend,
                n.param("api").unwrap_or(""),
                cryptobench_core::units::format_ns(nm),
                p / nm
            );
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "--smoke") {
        smoke();
        return;
    }
    if std::env::args().any(|a| a == "--full-smoke") {
        full_smoke();
        return;
    }
    let cfg = RunConfig::default();
    println!("php: {:?}", cryptobench_runtime::php::available());

    // AES-256-GCM, encrypt, 1 KB and 20 MB.
    let alg = cryptobench_suite_aead::algorithms::ALGORITHMS
        .iter()
        .find(|a| a.name == "AES-256-GCM")
        .expect("AES-256-GCM in the aead table");
    let native = cryptobench_suite_aead::AeadSuite::new(cryptobench_suite_aead::Options {
        algorithms: Some(vec![alg]),
        sizes: Some(vec![1_000, 20_000_000]),
        operations: Some(vec![cryptobench_suite_aead::case::Operation::Encrypt]),
        ..Default::default()
    });
    let native_plan = native.plan(&cfg).unwrap_or_default();
    let specs: Vec<CaseSpec> = native_plan.iter().map(|c| c.spec.clone()).collect();
    let php_aead = run(cryptobench_runtime::php::plan("aead", &cfg, &specs), &cfg);
    let native_aead = run(native_plan, &cfg);

    // prime256v1 key generation.
    let ecc = cryptobench_suite_ecc::EccSuite {
        curves: Some(vec!["prime256v1".into()]),
        ..Default::default()
    };
    let native_plan = ecc.plan(&cfg).unwrap_or_default();
    let specs: Vec<CaseSpec> = native_plan.iter().map(|c| c.spec.clone()).collect();
    let php_ecc = run(cryptobench_runtime::php::plan("ecc", &cfg, &specs), &cfg);
    let native_ecc = run(native_plan, &cfg);

    // Argon2id, 64 MiB, t = 3, one lane.
    let grid = cryptobench_suite_argon2::cases::Grid::cross(
        &[cryptobench_suite_argon2::params::Variant::Id],
        &[3],
        vec![64 << 10],
        vec![1],
    );
    let argon = cryptobench_suite_argon2::Argon2Suite { grid: Some(grid) };
    let native_plan = argon.plan(&cfg).unwrap_or_default();
    let specs: Vec<CaseSpec> = native_plan.iter().map(|c| c.spec.clone()).collect();
    let php_argon = run(cryptobench_runtime::php::plan("argon2", &cfg, &specs), &cfg);
    let native_argon: Vec<Measurement> = run(native_plan, &cfg)
        .into_iter()
        .filter(|m| m.operation == "hash")
        .collect();

    println!();
    for size in [20_000_000u64, 1_000] {
        let n = only(&native_aead, |m| {
            m.input_bytes == size && m.backend != "peer:openssl-speed"
        });
        for api in ["openssl_encrypt", "sodium_crypto_aead_aes256gcm"] {
            let pp = only(&php_aead, |m| {
                m.input_bytes == size && m.param("api") == Some(api)
            });
            ratio(&format!("AES-256-GCM {size} B ({api})"), &pp, &n);
        }
    }
    ratio("prime256v1 keygen", &php_ecc, &native_ecc);
    for api in ["password_hash", "sodium_crypto_pwhash"] {
        let pp = only(&php_argon, |m| m.param("api") == Some(api));
        ratio(
            &format!("Argon2id 64 MiB t=3 p=1 ({api})"),
            &pp,
            &native_argon,
        );
    }
}
