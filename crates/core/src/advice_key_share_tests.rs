//! The key-share advice ([`pq_key_share`]), weighed apart and side by side.

use super::*;

#[test]
fn pq_key_share_says_about_the_same_when_the_intervals_overlap() {
    // X25519 keygen 20 + derive 38 = 58 us, every interval +-3%.
    let line = |hybrid_us: f64| {
        let ms = [
            pubkey("X25519MLKEM768", "libcrux", "encaps", hybrid_us, 0.03),
            pubkey("X25519", "openssl", "keygen", 20.0, 0.03),
            pubkey("X25519", "openssl", "derive", 38.0, 0.03),
        ];
        pq_key_share(&ms)[0].text.clone()
    };
    // 60 us: the 2 us difference is inside both intervals.
    says(&line(60.0), "costs about the same per handshake here");
    // 75 us: clearly more, and by how much.
    says(&line(75.0), "costs 17.0 us more per handshake");
    says(&line(75.0), "1.29x X25519's 58.0 us");
    says(&line(75.0), "server side, medians)");
}

/// Median and a rank interval of the median (ranks 10 and 21 of 30).
fn with_rounds(m: &mut Measurement, xs: Vec<f64>) {
    let mut v = xs.clone();
    v.sort_by(f64::total_cmp);
    m.stats = Some(Summary {
        median: (v[14] + v[15]) / 2.0,
        ci95: [v[9], v[20]],
        ..Summary::default()
    });
    m.samples_ns = xs;
}

/// 30 rounds of `us`, every round within 1%; the last `slow` run 60% slow.
fn rounds(us: f64, slow: usize) -> Vec<f64> {
    (0..30)
        .map(|i| us * 1e3 * (1.0 + 0.0003 * i as f64) * if i >= 30 - slow { 1.6 } else { 1.0 })
        .collect()
}

#[test]
fn pq_key_share_weighs_fastest_rounds_so_a_disturbed_median_does_not_flip_it() {
    // X25519MLKEM768 encaps 47 us, X25519 keygen 8 us and derive 25 us, in
    // three groups. In the disturbed run, half of the derive rounds ran
    // 60% slow: its median and interval moved, its fastest rounds did not.
    for slow in [0, 15] {
        let mut hybrid = pubkey("X25519MLKEM768", "aws-lc-rs", "encaps", 47.0, 0.01);
        let mut keygen = pubkey("X25519", "aws-lc-rs", "keygen", 8.0, 0.01);
        let mut derive = pubkey("X25519", "aws-lc-rs", "derive", 25.0, 0.01);
        with_rounds(&mut hybrid, rounds(47.0, 0));
        with_rounds(&mut keygen, rounds(8.0, 0));
        with_rounds(&mut derive, rounds(25.0, slow));
        let ms = [hybrid, keygen, derive];
        let text = &pq_key_share(&ms)[0].text;
        says(text, "costs 14.0 us more per handshake");
        says(text, "X25519's 33.0 us");
        says(text, "server side, fastest rounds)");
    }
}

#[test]
fn pq_key_share_reads_the_rounds_the_hybrid_shared_with_x25519_derive() {
    // A slow stretch of the host took every round of one run's hybrid
    // group 35% slower. Timed apart from X25519, its fastest rounds moved
    // and the line with them; timed in derive's rounds, the stretch slowed
    // both and their ratio stayed.
    let timed = |prim: &str, op: &str, us: f64, slow: f64, group: &str| {
        let mut m = pubkey(prim, "aws-lc-rs", op, us, 0.01);
        timed_in(&mut m, vec![us * 1e3 * slow; 12], 2);
        m.group = Some(group.into());
        m
    };
    let derive_group = "pubkey/128-bit curves/derive";
    let line = |slow: f64, hybrid_group: &str| {
        // Sharing derive's rounds, the stretch slows derive too.
        let derive_slow = if hybrid_group == derive_group {
            slow
        } else {
            1.0
        };
        let ms = [
            timed("X25519MLKEM768", "encaps", 70.0, slow, hybrid_group),
            timed(
                "X25519",
                "keygen",
                12.0,
                1.0,
                "pubkey/128-bit curves/keygen",
            ),
            timed("X25519", "derive", 40.0, derive_slow, derive_group),
        ];
        pq_key_share(&ms)[0].text.clone()
    };
    // Paired, the hybrid stays 1.75x derive's time; only keygen's share
    // of X25519's cost, weighed by fastest rounds apart, moves the figure.
    let (calm, stretched) = (line(1.0, derive_group), line(1.35, derive_group));
    for text in [&calm, &stretched] {
        says(
            text,
            "its rounds paired with X25519's derive: 1.75x its time",
        );
    }
    says(&calm, "costs 18.0 us more per handshake here");
    says(&calm, "1.35x X25519's 52.0 us");
    says(&stretched, "costs 28.5 us more per handshake here");
    // Apart, the stretch moves the hybrid alone, and the figure 2.4x.
    let apart = "pubkey/X25519MLKEM768/encaps";
    says(&line(1.0, apart), "costs 18.0 us more per handshake here");
    says(&line(1.35, apart), "costs 42.5 us more per handshake here");
}
