//! A fixed run with every kind of case, shared by the store and exporter tests.
#![allow(dead_code)]

use cryptobench_core::{
    BackendInfo, CaseStatus, CheckResult, Fingerprint, Measurement, Run, RunStatus, Summary,
};
use std::collections::BTreeMap;

/// A machine with fixed values (the host name is this host's, so liveness
/// checks apply to runs built from it).
pub fn machine() -> Fingerprint {
    Fingerprint {
        hostname: cryptobench_store::this_host(),
        cpu_model: "Example CPU 9000".into(),
        cores: 8,
        cpu_flags: vec!["aes".into(), "avx2".into()],
        cpu_flags_missing: vec!["vaes".into()],
        tsc_hz: Some(2.9e9),
        os: "Debian GNU/Linux 12".into(),
        kernel: "6.1.0".into(),
        governor: Some("performance".into()),
        address_layout: Some("fixed".into()),
        measuring_cpu: Some("cpu 0".into()),
        memory_bytes: 16 << 30,
        backends: vec![
            BackendInfo {
                name: "openssl".into(),
                version: "OpenSSL 3.0.19 27 Jan 2026".into(),
                unavailable: None,
            },
            BackendInfo {
                name: "libsodium".into(),
                version: String::new(),
                unavailable: Some("not built".into()),
            },
        ],
        tool_version: "0.1.0".into(),
        git_revision: "abc1234".into(),
    }
}

/// A timed SHA-256 case with params, a label and a warning.
pub fn measured() -> Measurement {
    Measurement {
        suite: "hash".into(),
        primitive: "SHA-256".into(),
        backend: "openssl".into(),
        backend_version: "OpenSSL 3.0.19".into(),
        operation: "digest".into(),
        params: BTreeMap::from([("impl".to_string(), "evp".to_string())]),
        input_bytes: 16384,
        threads: 1,
        iterations_per_sample: 1000,
        samples_ns: vec![5120.0, 5100.0, 5140.5],
        cpu_samples_ns: vec![],
        samples_process: vec![],
        stats: Some(Summary {
            median: 5120.0,
            ci95: [5100.0, 5140.5],
            p25: 5110.0,
            p75: 5130.25,
            min: 5100.0,
            max: 5140.5,
            mean: 5120.166666666667,
            stddev: 20.25,
            mad: 20.0,
            ops_per_s: 195312.5,
            bytes_per_s: Some(3.2e9),
            cycles_per_byte: Some(0.906),
            outliers: vec![],
            precision: None,
        }),
        status: CaseStatus::Measured,
        reason: None,
        checks: vec![
            CheckResult::pass("kat:FIPS 180-4 \"abc\"", "matches"),
            CheckResult::pass("agree", "same digest as rustcrypto"),
        ],
        labels: vec!["fast path".into()],
        warnings: vec!["1 outlier".into()],
        extra: BTreeMap::new(),
        group: None,
        paired: vec![],
        machine_load: None,
        earlier: Vec::new(),
    }
}

/// A case whose check failed; its reason holds a comma and a quote.
pub fn failed() -> Measurement {
    Measurement {
        primitive: "SHA-512".into(),
        backend: "rustcrypto".into(),
        backend_version: "sha2 0.10".into(),
        params: BTreeMap::new(),
        input_bytes: 16,
        iterations_per_sample: 0,
        samples_ns: vec![],
        stats: None,
        status: CaseStatus::Failed,
        reason: Some("digest mismatch, expected \"ddaf\"".into()),
        checks: vec![CheckResult::fail("kat:FIPS 180-4 \"abc\"", "mismatch")],
        labels: vec![],
        warnings: vec![],
        ..measured()
    }
}

/// A case the library lacks, in a second suite, with two threads.
pub fn unavailable() -> Measurement {
    Measurement {
        suite: "aead".into(),
        primitive: "AES-256-GCM-SIV".into(),
        backend: "libsodium".into(),
        backend_version: String::new(),
        operation: "encrypt".into(),
        params: BTreeMap::from([("aad".to_string(), "0".to_string())]),
        input_bytes: 1024,
        threads: 2,
        iterations_per_sample: 0,
        samples_ns: vec![],
        stats: None,
        status: CaseStatus::Unavailable,
        reason: Some("libsodium has no AES-GCM-SIV".into()),
        checks: vec![],
        labels: vec!["insecure: none".into(), "nonce-misuse resistant".into()],
        warnings: vec![],
        extra: BTreeMap::from([("efficiency".to_string(), 0.5)]),
        ..measured()
    }
}

/// A run with fixed id and times, holding `measurements`.
pub fn run(id: &str, started_at: &str, measurements: Vec<Measurement>) -> Run {
    Run {
        started_at: started_at.into(),
        status: RunStatus::Running,
        command: vec!["cryptobench".into(), "run".into(), "--quick".into()],
        machine: machine(),
        ..Run::new(id, measurements)
    }
}

/// The finished fixture run with all three cases.
pub fn full_run() -> Run {
    Run {
        finished_at: Some("2026-11-22T03:16:40Z".into()),
        status: RunStatus::Failed,
        ..run(
            "20261122-031502-4f2a",
            "2026-11-22T03:15:02Z",
            vec![measured(), failed(), unavailable()],
        )
    }
}
