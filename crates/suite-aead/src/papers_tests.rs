//! The two papers' tables and verdicts on synthetic measurements, with and
//! without PHP figures beside the native ones.

use super::*;
use cryptobench_core::{CaseSpec, Summary};

/// A measured case encrypting at `gbps` GB/s.
fn at(alg: &str, backend: &str, api: Option<&str>, op: &str, size: u64, gbps: f64) -> Measurement {
    let mut spec = CaseSpec::new(SUITE, alg, backend, "", op).size(size);
    if let Some(api) = api {
        spec = spec.param("api", api);
    }
    let mut m = spec.measurement(CaseStatus::Measured, None);
    m.stats = Some(Summary {
        median: size as f64 / gbps,
        ..Summary::default()
    });
    m
}

fn unavailable(alg: &str, api: &str, size: u64, why: &str) -> Measurement {
    CaseSpec::new(SUITE, alg, PHP, "", "encrypt")
        .size(size)
        .param("api", api)
        .measurement(CaseStatus::Unavailable, Some(why.into()))
}

const AEGIS_WHY: &str =
    "AEGIS needs PHP 8.4+ and libsodium >= 1.0.19; this is PHP 8.2.36 with libsodium 1.0.18";

fn aegis_run(with_php: bool) -> Vec<Measurement> {
    let big = crate::SEED003_RATE_BYTES;
    let small = crate::SEED003_OPS_BYTES;
    let mut ms = vec![
        at("AES-256-GCM", "libsodium", None, "encrypt", big, 4.0),
        at("AEGIS-128L", "libsodium", None, "encrypt", big, 10.0),
        at("ChaCha20-Poly1305", "libsodium", None, "encrypt", big, 2.0),
    ];
    if with_php {
        let gcm = Some("sodium_crypto_aead_aes256gcm");
        ms.push(at("AES-256-GCM", PHP, gcm, "encrypt", big, 3.0));
        ms.push(at("AES-256-GCM", PHP, gcm, "encrypt", small, 1.0));
        // openssl_encrypt is not the seed's call: never in the sodium column.
        ms.push(at(
            "AES-256-GCM",
            PHP,
            Some("openssl_encrypt"),
            "encrypt",
            big,
            0.5,
        ));
        ms.push(unavailable(
            "AEGIS-128L",
            "sodium_crypto_aead_aegis128l",
            small,
            AEGIS_WHY,
        ));
    }
    ms
}

#[test]
fn aegis_gains_a_php_column_when_php_was_measured() {
    let t = &AegisPaper.render(&aegis_run(true))[0];
    assert_eq!(t.headers.len(), 7);
    assert!(t.headers[5].starts_with("PHP"));
    let row = |name: &str| t.rows.iter().find(|r| r[0] == name).expect("row");
    assert_eq!(row("aes256gcm")[5], "3.00");
    // The cell says what became of it; the reason is in the notes, once
    // per claim, not in a 100-column cell.
    assert_eq!(row("aegis128l")[5], "unavailable", "{:?}", row("aegis128l"));
    assert_eq!(row("chacha20poly1305_ietf")[5], "not measured");
    let notes = t.notes.join("\n");
    assert!(
        notes.contains(
            "AEGIS is 2-3x faster than AES-GCM (20 MB), in PHP: unavailable: AEGIS needs PHP 8.4"
        ),
        "{notes}"
    );
    assert!(notes.contains("AEGIS in this PHP: unavailable"), "{notes}");
    // No native 1 KB figure in this run: no overhead line.
    assert!(!notes.contains("PHP / native"), "{notes}");
    // The best-backend table ranks libraries, not PHP calls.
    let mut ms = aegis_run(true);
    ms.push(at(
        "XChaCha20-Poly1305",
        PHP,
        Some("sodium_crypto_aead_xchacha20poly1305_ietf"),
        "encrypt",
        crate::SEED003_RATE_BYTES,
        9.0,
    ));
    let best = &AegisPaper.render(&ms)[1];
    assert!(best.rows.iter().all(|r| r[1] != PHP), "{:?}", best.rows);
    // The native verdicts stay.
    assert!(
        notes.contains("AEGIS is 2-3x faster than AES-GCM (20 MB): holds here (2.50x"),
        "{notes}"
    );
}

#[test]
fn aegis_php_verdicts_use_the_php_figures() {
    let mut ms = aegis_run(true);
    ms.retain(|m| m.status == CaseStatus::Measured);
    ms.push(at(
        "AEGIS-128L",
        PHP,
        Some("sodium_crypto_aead_aegis128l"),
        "encrypt",
        crate::SEED003_RATE_BYTES,
        4.5,
    ));
    ms.push(at(
        "AES-256-GCM",
        "libsodium",
        None,
        "encrypt",
        crate::SEED003_OPS_BYTES,
        2.0,
    ));
    let notes = AegisPaper.render(&ms)[0].notes.join("\n");
    // 1 KB: 0.5 us natively, 1 us from PHP.
    assert!(
        notes.contains("PHP links its own libsodium): aes256gcm 2.00x"),
        "{notes}"
    );
    // PHP: 4.5 / 3.0 = 1.5x, while natively 10 / 4 = 2.5x.
    assert!(
        notes.contains("AES-GCM (20 MB), in PHP: differs here (1.50x"),
        "{notes}"
    );
}

#[test]
fn aegis_has_no_php_column_without_php() {
    let t = &AegisPaper.render(&aegis_run(false))[0];
    assert_eq!(t.headers.len(), 5);
    assert!(!t.notes.iter().any(|n| n.contains("in PHP")));
}

#[test]
fn gcm_vs_ccm_gains_a_php_row() {
    let b = SEED004_BYTES;
    let mut ms = vec![
        at("AES-256-GCM", "openssl", None, "encrypt", b, 6.0),
        at("AES-256-CCM", "openssl", None, "encrypt", b, 2.0),
    ];
    let t = &GcmVsCcmPaper.render(&ms)[0];
    assert!(!t.rows.iter().any(|r| r[0].starts_with("php")));
    assert!(!t.notes.iter().any(|n| n.contains("in PHP")));
    for op in ["encrypt", "decrypt"] {
        ms.push(at("AES-256-GCM", PHP, Some("openssl_encrypt"), op, b, 1.0));
        ms.push(at("AES-256-CCM", PHP, Some("openssl_encrypt"), op, b, 0.8));
    }
    // PHP's sodium AES-256-GCM is another call than the seed's.
    ms.push(at(
        "AES-256-GCM",
        PHP,
        Some("sodium_crypto_aead_aes256gcm"),
        "encrypt",
        b,
        9.0,
    ));
    let t = &GcmVsCcmPaper.render(&ms)[0];
    let php: Vec<&Vec<String>> = t.rows.iter().filter(|r| r[0].starts_with("php")).collect();
    assert_eq!(php.len(), 2);
    assert_eq!(php[0][4], "1.25x");
    let notes = t.notes.join("\n");
    assert!(
        notes.contains("(encrypt, openssl_encrypt as the seed), in PHP: differs here (1.25x"),
        "{notes}"
    );
    assert!(notes.contains("(OpenSSL, encrypt): holds here"), "{notes}");
    // What PHP adds per call, where OpenSSL measured the same operation.
    assert!(
        notes.contains(
            "PHP adds 8.7 ms to each encrypt call with GCM and 7.9 ms with CCM over OpenSSL's own"
        ),
        "{notes}"
    );
    assert!(
        notes.contains("pulls PHP's GCM / CCM to 1.25x from OpenSSL's 3.00x"),
        "{notes}"
    );
    assert!(!notes.contains("each decrypt call"), "{notes}");
    assert!(
        notes.contains("(OpenSSL, decrypt): not measured"),
        "{notes}"
    );
    assert!(
        notes.contains("(OpenSSL, both operations): not measured"),
        "{notes}"
    );
}

/// A case at `gbps` whose time interval is +-`spread`.
fn spread(alg: &str, backend: &str, op: &str, size: u64, gbps: f64, spread: f64) -> Measurement {
    let mut m = at(alg, backend, None, op, size, gbps);
    let s = m.stats.as_mut().unwrap();
    s.ci95 = [s.median * (1.0 - spread), s.median * (1.0 + spread)];
    m
}

fn aegis_notes(aegis_gbps: f64, spread_each: f64) -> String {
    let big = crate::SEED003_RATE_BYTES;
    let ms = vec![
        spread("AES-256-GCM", "libsodium", "encrypt", big, 1.0, spread_each),
        spread(
            "AEGIS-128L",
            "libsodium",
            "encrypt",
            big,
            aegis_gbps,
            spread_each,
        ),
    ];
    AegisPaper.render(&ms)[0].notes.join("\n")
}

#[test]
fn aegis_band_claims_have_four_outcomes() {
    let claim = "AEGIS is 2-3x faster than AES-GCM (20 MB): ";
    // 8.45x is not "2-3x".
    assert!(aegis_notes(8.45, 0.01).contains(&format!("{claim}differs here (8.45x")));
    assert!(aegis_notes(2.5, 0.01).contains(&format!("{claim}holds here (2.50x")));
    // 3.1x with +-5% on each side straddles the band's edge (3.15).
    assert!(aegis_notes(3.1, 0.05).contains(&format!("{claim}inconclusive (3.10x")));
    let none = AegisPaper.render(&[])[0].notes.join("\n");
    assert!(none.contains(&format!("{claim}not measured")), "{none}");
}

#[test]
fn aegis_says_where_the_seed_contradicts_itself() {
    let notes = AegisPaper.render(&[])[0].notes.join("\n");
    // 1,925,310 / 1,168,300 ops/s against "more than twice".
    assert!(
        notes.contains("the seed's own table gives 1.65x for \"AEGIS does more than twice"),
        "{notes}"
    );
    // 4.99 / 4.61 GB/s against "about 20% more".
    assert!(
        notes.contains("gives 1.08x for \"AEGIS-256 costs"),
        "{notes}"
    );
    // 4.99 / 2.31 = 2.16x supports "2-3x".
    assert!(!notes.contains("for \"AEGIS is 2-3x"), "{notes}");
}

/// Seed 004's notes for OpenSSL's GCM and CCM, each operation given as
/// (GCM GB/s, CCM GB/s, interval spread of each); CCM runs at 2 GB/s.
fn gcm_ccm_notes(encrypt: (f64, f64), decrypt: (f64, f64)) -> String {
    let ms: Vec<Measurement> = [("encrypt", encrypt), ("decrypt", decrypt)]
        .into_iter()
        .flat_map(|(op, (gcm_gbps, each))| {
            [("AES-256-GCM", gcm_gbps), ("AES-256-CCM", 2.0)]
                .map(|(alg, gbps)| spread(alg, "openssl", op, SEED004_BYTES, gbps, each))
        })
        .collect();
    GcmVsCcmPaper.render(&ms)[0].notes.join("\n")
}

#[test]
fn gcm_vs_ccm_judges_each_operation() {
    // Encrypt 1.5x (below the band), decrypt 5x: the mean (3.25x)
    // would pass; each operation on its own does not.
    let notes = gcm_ccm_notes((3.0, 0.01), (10.0, 0.01));
    for (claim, verdict) in [
        ("encrypt", "differs here (1.50x"),
        ("both operations", "differs here"),
    ] {
        assert!(
            notes.contains(&format!("(OpenSSL, {claim}): {verdict}")),
            "{notes}"
        );
    }
    // 2.0x with +-3% on each side straddles the band's floor.
    let notes = gcm_ccm_notes((4.0, 0.03), (6.0, 0.01));
    for (claim, verdict) in [
        ("encrypt", "inconclusive (2.00x"),
        ("decrypt", "holds here (3.00x"),
        ("both operations", "inconclusive"),
    ] {
        assert!(
            notes.contains(&format!("(OpenSSL, {claim}): {verdict}")),
            "{notes}"
        );
    }
}

#[test]
fn the_20_mb_note_says_whether_20_mb_fits_in_the_last_level_cache() {
    let in_cache = where_20mb_lives(Some(266_240 << 10), false);
    assert!(in_cache.starts_with("20 MB here is in cache"), "{in_cache}");
    assert!(in_cache.contains("260 MiB"), "{in_cache}");
    let in_memory = where_20mb_lives(Some(8 << 20), false);
    assert!(
        in_memory.starts_with("20 MB here is memory-bound"),
        "{in_memory}"
    );
    assert!(where_20mb_lives(None, false).contains("not known"));
    // The working set is message plus ciphertext: 40 MB.
    assert!(where_20mb_lives(Some(30_000_000), false).contains("memory-bound"));
    // Flushed before each call, it is memory whatever the cache.
    let flushed = where_20mb_lives(Some(266_240 << 10), true);
    assert!(
        flushed.starts_with("20 MB here is timed from memory"),
        "{flushed}"
    );
    assert!(flushed.contains("260 MiB"), "{flushed}");
    assert!(where_20mb_lives(None, true).contains("unreported"));
}

/// A grouped case whose rounds take `times` ns.
fn rounds(alg: &str, backend: &str, times: Vec<f64>) -> Measurement {
    let mut m = at(alg, backend, None, "encrypt", SEED004_BYTES, 1.0);
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    m.stats = Some(Summary {
        median: sorted[sorted.len() / 2],
        ..Summary::default()
    });
    m.samples_ns = times;
    m.group = Some("g".into());
    m
}

#[test]
fn gcm_vs_ccm_shows_the_ratio_its_verdict_reads() {
    // CCM stops after 20 rounds at 3x GCM; GCM samples 40 more, in a
    // faster stretch of the machine. Its median over all 60 rounds would
    // put 6x in the table beside a verdict of 3x.
    let gcm: Vec<f64> = (0..60).map(|i| if i < 20 { 1e6 } else { 0.5e6 }).collect();
    let ccm = vec![3e6; 20];
    let ms = vec![
        rounds("AES-256-GCM", "openssl", gcm),
        rounds("AES-256-CCM", "openssl", ccm),
    ];
    let t = &GcmVsCcmPaper.render(&ms)[0];
    let row = t.rows.iter().find(|r| r[0] == "openssl").expect("a row");
    assert_eq!(row[4], "3.00x", "{row:?}");
    let notes = t.notes.join("\n");
    assert!(
        notes.contains("(OpenSSL, encrypt): holds here (3.00x"),
        "{notes}"
    );
}
