use super::*;
use cryptobench_core::{CaseSpec, CheckResult, Fingerprint, Summary};

/// `[suite, primitive, backend, operation]`, size, median, params, labels.
fn case(
    [suite, primitive, backend, op]: [&str; 4],
    bytes: u64,
    median_ns: f64,
    params: &[(&str, &str)],
    labels: &[&str],
) -> Measurement {
    let mut spec = CaseSpec::new(suite, primitive, backend, "v1", op).size(bytes);
    for (k, v) in params {
        spec = spec.param(k, v);
    }
    for l in labels {
        spec = spec.label(*l);
    }
    let mut m = spec.measurement(CaseStatus::Measured, None);
    m.samples_ns = vec![median_ns; 5];
    m.checks = vec![CheckResult::pass("kat", "")];
    m.stats = Some(Summary {
        median: median_ns,
        ci95: [median_ns * 0.99, median_ns * 1.01],
        ops_per_s: 1e9 / median_ns,
        bytes_per_s: (bytes > 0).then(|| bytes as f64 * 1e9 / median_ns),
        ..Default::default()
    });
    m
}

/// A measured case with no parameters and no labels.
fn plain(id: [&str; 4], bytes: u64, median_ns: f64) -> Measurement {
    case(id, bytes, median_ns, &[], &[])
}

fn run_of(ms: Vec<Measurement>) -> Run {
    Run {
        machine: Fingerprint {
            cpu_flags: vec!["aes".into()],
            ..Default::default()
        },
        ..Run::new("r1", ms)
    }
}

/// Asserts `text` contains `part`, showing the whole text when not.
fn says(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in: {text}");
}

/// Asserts `text` starts with `start`, showing the whole text when not.
fn opens_with(text: &str, start: &str) {
    assert!(text.starts_with(start), "{start:?} does not open: {text}");
}

fn topic<'a>(recs: &'a [Recommendation], t: &str) -> &'a Recommendation {
    recs.iter()
        .find(|r| r.topic == t)
        .unwrap_or_else(|| panic!("no {t} in {recs:#?}"))
}

#[test]
fn aead_is_the_fastest_verified_and_never_a_failed_one() {
    let mb = 1_000_000;
    let mut broken = plain(["aead", "AEGIS-256", "libaegis", "encrypt"], mb, 50_000.0);
    broken.checks = vec![CheckResult::fail("kat", "mismatch")];
    let ms = vec![
        plain(["aead", "AES-256-GCM", "openssl", "encrypt"], mb, 400_000.0),
        plain(["aead", "AEGIS-128L", "libaegis", "encrypt"], mb, 200_000.0),
        plain(
            ["aead", "ChaCha20-Poly1305", "openssl", "encrypt"],
            mb,
            600_000.0,
        ),
        plain(
            ["aead", "AES-256-GCM", "peer:openssl-speed", "encrypt"],
            mb,
            100_000.0,
        ),
        broken,
    ];
    let recs = recommend(&run_of(ms), &[]);
    let r = topic(&recs, "AEAD, bulk data");
    opens_with(&r.advice, "Use AEGIS-128L (libaegis) for bulk data");
    says(&r.advice, "2.00x AES-256-GCM (openssl");
    says(&r.advice, "this CPU has them");
    assert!(r
        .advice
        .contains("AES-256-GCM is the interoperable default"));
    assert_eq!(r.evidence.len(), 2);
    says(&r.evidence[0], "AEGIS-128L libaegis encrypt");
}

#[test]
fn the_cipher_to_avoid_is_labelled_and_failed_ones_are_named() {
    let kb = 16_384;
    let mut failed = plain(["cipher", "SM4-CBC", "openssl", "encrypt"], kb, 1.0);
    failed.status = CaseStatus::Failed;
    failed.stats = None;
    failed.reason = Some("decrypts to different text".into());
    let ms = vec![
        case(
            ["cipher", "AES-128-CTR", "openssl", "encrypt"],
            kb,
            2_000.0,
            &[],
            &["no authentication"],
        ),
        case(
            ["cipher", "DES-EDE3-CBC", "openssl", "encrypt"],
            kb,
            300_000.0,
            &[],
            &["64-bit block (Sweet32)"],
        ),
        case(
            ["cipher", "BF-CBC", "openssl", "encrypt"],
            kb,
            60_000.0,
            &[],
            &["64-bit block (Sweet32)", "legacy provider"],
        ),
        failed,
    ];
    let recs = recommend(&run_of(ms), &[]);
    let f = topic(&recs, "Cipher to avoid (failed)");
    says(&f.advice, "SM4-CBC (openssl)");
    says(&f.evidence[0], "decrypts to different text");
    let a = topic(&recs, "Cipher to avoid");
    opens_with(&a.advice, "Avoid DES-EDE3-CBC");
    says(&a.advice, "150.0x slower than AES-128-CTR");
}

#[test]
fn the_yardstick_of_the_cipher_to_avoid_is_the_same_among_tied_backends() {
    // OpenSSL's and RustCrypto's AES-128-CTR within 2% of each other:
    // whichever reads faster, the backend order names OpenSSL.
    let kb = 16_384;
    for (openssl_ns, rustcrypto_ns) in [(1_350.0, 1_380.0), (1_380.0, 1_350.0)] {
        let ctr = |backend: &str, ns: f64| {
            case(
                ["cipher", "AES-128-CTR", backend, "encrypt"],
                kb,
                ns,
                &[],
                &["no authentication"],
            )
        };
        let ms = vec![
            ctr("openssl", openssl_ns),
            ctr("rustcrypto", rustcrypto_ns),
            case(
                ["cipher", "BF-CFB8", "libmcrypt", "encrypt"],
                kb,
                860_000.0,
                &[],
                &["64-bit block (Sweet32)"],
            ),
        ];
        let recs = recommend(&run_of(ms), &[]);
        says(
            &topic(&recs, "Cipher to avoid").advice,
            "slower than AES-128-CTR (openssl",
        );
    }
}

#[test]
fn curves_come_from_the_curves_for_new_designs() {
    let keygen = |curve: &str, backend: &str, ns: f64, bits: &str, labels: &[&str]| {
        case(
            ["ecc", curve, backend, "keygen"],
            0,
            ns,
            &[("security_bits", bits)],
            labels,
        )
    };
    let ms = vec![
        keygen("prime256v1", "openssl", 20_000.0, "128", &[]),
        keygen("X25519", "libsodium", 30_000.0, "126", &["cofactor > 1"]),
        keygen(
            "secp256k1",
            "openssl",
            10_000.0,
            "128",
            &["not for new designs"],
        ),
        keygen("secp384r1", "openssl", 900_000.0, "192", &[]),
        keygen(
            "secp112r1",
            "openssl",
            1_000.0,
            "56",
            &["< 112-bit security"],
        ),
    ];
    let recs = recommend(&run_of(ms), &[]);
    let r = topic(&recs, "Curve, 128-bit");
    opens_with(&r.advice, "P-256, weighed on prime256v1 keygen (openssl)");
    // Faster, but not a curve for new designs.
    assert!(!r.advice.contains("secp256k1"), "{}", r.advice);
    assert!(topic(&recs, "Curve, 192-bit").advice.contains("secp384r1"));
    assert!(!recs.iter().any(|r| r.advice.contains("secp112r1")));
}

#[test]
fn argon2_takes_the_most_memory_within_each_target() {
    let pt = |m: &'static str, t: &'static str, ns: f64| {
        case(
            ["argon2", "Argon2id", "libargon2", "hash"],
            0,
            ns,
            &[("m_kib", m), ("t", t), ("p", "1")],
            &[],
        )
    };
    let ms = vec![
        pt("65536", "3", 120e6),
        pt("262144", "3", 480e6),
        pt("262144", "1", 200e6),
        pt("1048576", "3", 2.1e9),
    ];
    let recs = recommend(&run_of(ms), &[250e6, 500e6, 10e6]);
    says(&recs[0].advice, "m = 256 MiB, t = 1");
    says(&recs[1].advice, "m = 256 MiB, t = 3");
    opens_with(&recs[2].advice, "no measured point fits 10.0 ms");
}

#[test]
fn argon2_evidence_names_the_memory_not_memory_times_passes() {
    // The suite sizes an Argon2 case as memory x passes (its MiB/s).
    let m = case(
        ["argon2", "Argon2id", "libargon2", "hash"],
        512 << 20,
        500e6,
        &[("m_kib", "131072"), ("t", "4"), ("p", "2")],
        &[],
    );
    let recs = recommend(&run_of(vec![m]), &[500e6]);
    let cited = &recs[0].evidence[0];
    opens_with(cited, "argon2 Argon2id libargon2 hash [");
    says(cited, "m_kib=131072");
    assert!(!cited.contains("512 MiB"), "{cited}");
}

#[test]
fn elgamal_mode_cites_its_speedup_over_serial_and_skips_toy_curves() {
    let e = |mode: &'static str, threads: &'static str, ns: f64, curve: &str, sec: &'static str| {
        let mut params = vec![("encoding", "char"), ("mode", mode), ("threads", threads)];
        if !sec.is_empty() {
            params.push(("security", sec));
        }
        case(
            ["elgamal", curve, "openssl", "encrypt"],
            65536,
            ns,
            &params,
            &["insecure: scheme"],
        )
    };
    let ms = vec![
        e("serial", "1", 4e9, "P-256", ""),
        e("threads", "2", 2.1e9, "P-256", ""),
        e("serial", "1", 1e8, "toy64", "breakable"),
    ];
    let recs = recommend(&run_of(ms), &[]);
    let r = topic(&recs, "EC-ElGamal mode");
    says(&r.advice, "mode threads with 2 worker(s)");
    says(&r.advice, "1.90x serial");
    says(&r.advice, "insecure as labelled");
    // Two workers within the tie margin of serial: serial, which needs none.
    let close = vec![
        e("serial", "1", 4e9, "P-256", ""),
        e("threads", "2", 3.9e9, "P-256", ""),
    ];
    let recs = recommend(&run_of(close.clone()), &[]);
    let r = topic(&recs, "EC-ElGamal mode");
    says(&r.advice, "use mode serial with 1 worker(s)");
    assert!(!r.advice.contains("cores shared"), "{}", r.advice);
    // The same, but the two workers ran while a core was lent elsewhere.
    let mut shared = close;
    shared[1].machine_load = Some(cryptobench_core::model::MachineLoad {
        canary_ns: Some(100.0),
        parallel_canary_ns: Some(180.0),
        ..Default::default()
    });
    let recs = recommend(&run_of(shared), &[]);
    let r = topic(&recs, "EC-ElGamal mode");
    says(&r.advice, "use mode serial with 1 worker(s)");
    says(&r.advice, "timed with their cores shared");
    says(&r.advice, "1.80x its time on one core");
}

/// An EC-ElGamal encrypt case (P-256, 256 B, char encoding) timed in
/// `rounds`: its median from them, and its interval leaving out `trim`
/// rounds at each end.
fn elgamal_in_rounds(
    mode: &'static str,
    threads: &'static str,
    rounds: &[f64],
    trim: usize,
) -> Measurement {
    let params = [("encoding", "char"), ("mode", mode), ("threads", threads)];
    let mut m = case(
        ["elgamal", "P-256", "openssl", "encrypt"],
        256,
        1.0,
        &params,
        &["insecure: scheme"],
    );
    let mut sorted = rounds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    m.stats = Some(Summary {
        median,
        ci95: [sorted[trim], sorted[sorted.len() - 1 - trim]],
        ops_per_s: 1e9 / median,
        bytes_per_s: Some(256.0 * 1e9 / median),
        ..Default::default()
    });
    m.samples_ns = rounds.to_vec();
    m
}

/// The EC-ElGamal mode advice `recommend` gives for `ms`.
fn elgamal_advice(ms: Vec<Measurement>) -> String {
    topic(&recommend(&run_of(ms), &[]), "EC-ElGamal mode")
        .advice
        .clone()
}

/// [`elgamal_in_rounds`] timed in the rounds of one group with the other
/// mode, as the engine times them.
fn elgamal_grouped(
    mode: &'static str,
    threads: &'static str,
    rounds: &[f64],
    trim: usize,
) -> Measurement {
    let mut m = elgamal_in_rounds(mode, threads, rounds, trim);
    m.group = Some("elgamal/encrypt/256B/t1#1".into());
    m
}

#[test]
fn elgamal_mode_is_judged_by_fastest_rounds_so_a_core_lent_away_does_not_flip_it() {
    let e = |mode: &'static str, threads: &'static str, rounds: Vec<f64>| {
        elgamal_in_rounds(mode, threads, &rounds, 5)
    };
    // Serial: 3.0-3.1 ms every round. Two workers: 1.8-1.9 ms when both
    // cores were there, up to 3.3 ms in the rounds the host took one.
    let serial: Vec<f64> = (0..20).map(|i| 3.0e6 + 5e3 * i as f64).collect();
    let threads: Vec<f64> = (0..20)
        .map(|i| {
            if i % 2 == 0 {
                1.8e6 + 1e4 * i as f64
            } else {
                3.3e6
            }
        })
        .collect();
    let ms = vec![e("serial", "1", serial.clone()), e("threads", "2", threads)];
    assert!(
        advice::tied(&ms[0], &ms[1]),
        "the premise: on medians the two look tied"
    );
    let recs = recommend(&run_of(ms), &[]);
    says(
        &topic(&recs, "EC-ElGamal mode").advice,
        "mode threads with 2 worker(s)",
    );
    // Fastest rounds within the tie margin: serial, which needs no worker.
    let close: Vec<f64> = serial.iter().map(|t| t * 0.97).collect();
    let ms = vec![e("serial", "1", serial), e("threads", "2", close)];
    let recs = recommend(&run_of(ms), &[]);
    says(
        &topic(&recs, "EC-ElGamal mode").advice,
        "mode serial with 1 worker(s)",
    );
}

#[test]
fn elgamal_threads_clearly_faster_in_every_round_win_over_one_lucky_serial_round() {
    let e = |mode, threads, rounds: &[f64]| elgamal_grouped(mode, threads, rounds, 0);
    // Five rounds of a quick run: serial's first round was lucky (5.4 ms,
    // the others 8.2-9.9 ms), so its fastest-round interval reaches down
    // to the threads mode's; in every round threads took 12-78% less.
    let serial = [5.36e6, 9.86e6, 8.35e6, 8.18e6, 8.38e6];
    let threads = [4.80e6, 5.54e6, 4.93e6, 5.81e6, 5.18e6];
    let ms = vec![e("serial", "1", &serial), e("threads", "2", &threads)];
    assert!(
        advice::tied_on_fastest_rounds(&ms[0], &ms[1]),
        "the premise: tied on fastest rounds"
    );
    says(&elgamal_advice(ms), "mode threads with 2 worker(s)");
}

#[test]
fn elgamal_threads_clearly_slower_in_the_same_rounds_lose_to_serial() {
    let e = |mode, threads, rounds: &[f64]| elgamal_grouped(mode, threads, rounds, 5);
    // One core busy elsewhere: threads got both cores in every fourth
    // round (1.9-2.2 ms) and took 3.6-4.0 ms in the rest, against
    // serial's 3.0-3.1 ms in every round.
    let serial: Vec<f64> = (0..20).map(|i| 3.0e6 + 5e3 * i as f64).collect();
    let threads: Vec<f64> = (0..20)
        .map(|i| {
            if i % 4 == 0 {
                1.9e6 + 2e4 * i as f64
            } else {
                3.6e6 + 2e4 * i as f64
            }
        })
        .collect();
    let ms = vec![e("serial", "1", &serial), e("threads", "2", &threads)];
    assert!(
        !advice::tied_on_fastest_rounds(&ms[0], &ms[1]),
        "the premise: at their fastest rounds threads are clearly faster"
    );
    assert!(
        !advice::tied_side_by_side(&ms[1], &ms[0]),
        "the premise: in the same rounds threads are clearly slower"
    );
    says(&elgamal_advice(ms), "mode serial with 1 worker(s)");
}

#[test]
fn elgamal_speedup_is_quoted_from_the_rounds_the_modes_shared() {
    // A busy A/A run's rounds, ms: one core held elsewhere came and went.
    let serial = [5.48, 12.69, 6.77, 5.42, 5.37, 5.67, 5.35, 9.46];
    let threads = [5.07, 3.74, 4.39, 7.4, 6.68, 4.84, 7.95, 7.12, 7.22];
    let e = |mode, workers, ms: &[f64]| {
        let ns: Vec<f64> = ms.iter().map(|t| t * 1e6).collect();
        elgamal_grouped(mode, workers, &ns, 1)
    };
    let ms = vec![e("serial", "1", &serial), e("threads", "2", &threads)];
    let by_medians = ms[0].median_ns().unwrap() / ms[1].median_ns().unwrap();
    assert!(
        by_medians < 0.9,
        "the premise: medians say {by_medians:.2}x"
    );
    let advice = elgamal_advice(ms);
    says(&advice, "mode threads with 2 worker(s)");
    says(&advice, "1.13x serial");
}

#[test]
fn an_empty_run_says_what_to_do() {
    let run = run_of(vec![]);
    let recs = recommend(&run, &DEFAULT_ARGON2_TARGETS_NS);
    assert!(recs.is_empty());
    assert!(render_text(&run, &recs, false).contains("run `cryptobench run` first"));
}
