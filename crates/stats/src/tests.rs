//! Unit tests against hand-computed values (each computation is written next
//! to its assertion).

use super::*;

fn close(actual: f64, expected: f64, tol: f64) -> bool {
    (actual - expected).abs() <= tol
}

/// `n` times around `centre` with a reproducible uniform jitter of
/// `±spread` (relative), like timing samples of one case.
fn jittered(centre: f64, spread: f64, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
            centre * (1.0 + spread * (2.0 * unit - 1.0))
        })
        .collect()
}

/// Every sample of `xs` times `factor` (a uniformly slower case).
fn scaled(xs: &[f64], factor: f64) -> Vec<f64> {
    xs.iter().map(|x| x * factor).collect()
}

#[test]
fn sorted_is_ascending_copy() {
    let xs = [3.0, -1.0, 2.5, 0.0];
    assert_eq!(sorted(&xs), vec![-1.0, 0.0, 2.5, 3.0]);
    assert_eq!(xs, [3.0, -1.0, 2.5, 0.0]);
}

#[test]
fn quantiles_of_one_to_four() {
    // Type 7: h = (n - 1) q = 3q, value = x[floor h] + frac(h) (x[ceil h] - x[floor h]).
    // q = 0.25: h = 0.75 -> 1 + 0.75 * (2 - 1) = 1.75
    // q = 0.50: h = 1.50 -> 2 + 0.50 * (3 - 2) = 2.5
    // q = 0.75: h = 2.25 -> 3 + 0.25 * (4 - 3) = 3.25
    let xs = [4.0, 1.0, 3.0, 2.0];
    assert!(close(quantile(&xs, 0.25), 1.75, 1e-12));
    assert!(close(median(&xs), 2.5, 1e-12));
    assert!(close(quantile(&xs, 0.75), 3.25, 1e-12));
    assert_eq!(quantile(&xs, 0.0), 1.0);
    assert_eq!(quantile(&xs, 1.0), 4.0);
    // Out-of-range q is clamped.
    assert_eq!(quantile(&xs, -0.5), 1.0);
    assert_eq!(quantile(&xs, 7.0), 4.0);
}

#[test]
fn median_of_odd_count_is_middle_value() {
    assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
    assert_eq!(median(&[42.0]), 42.0);
}

#[test]
fn empty_input_gives_nan_not_panic() {
    assert!(quantile(&[], 0.5).is_nan());
    assert!(median(&[]).is_nan());
    assert!(mean(&[]).is_nan());
    assert!(mad(&[]).is_nan());
    assert_eq!(stddev(&[]), 0.0);
    assert!(modified_z_scores(&[]).is_empty());
    assert!(outliers(&[]).is_empty());
    let (lo, hi) = bootstrap_median_ci(&[], 0.95, 100, 1);
    assert!(lo.is_nan() && hi.is_nan());
    let s = summarize(&[], 1);
    assert_eq!(s.n, 0);
    assert!(s.median.is_nan() && s.min.is_nan() && s.max.is_nan());
}

#[test]
fn mean_and_sample_stddev() {
    // [2,4,4,4,5,5,7,9]: sum 40, mean 5; squared deviations
    // 9+1+1+1+0+0+4+16 = 32; sample variance 32/7 = 4.571428...;
    // stddev sqrt(4.571428) = 2.138089935...
    let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
    assert!(close(mean(&xs), 5.0, 1e-12));
    assert!(close(stddev(&xs), 2.138_089_935_299_395, 1e-12));
    assert_eq!(stddev(&[7.0]), 0.0);
}

#[test]
fn mad_of_skewed_sample() {
    // [1,1,2,2,4,6,9]: median 2; |x - 2| = 1,1,0,0,2,4,7
    // sorted 0,0,1,1,2,4,7 -> median 1.
    assert!(close(mad(&[1.0, 1.0, 2.0, 2.0, 4.0, 6.0, 9.0]), 1.0, 1e-12));
    assert_eq!(mad(&[3.0, 3.0, 3.0]), 0.0);
}

#[test]
fn modified_z_scores_and_outlier() {
    // median 2, MAD 1: z = 0.6745 (x - 2) / 1.
    // x=1: -0.6745; x=2: 0; x=4: 1.349; x=6: 2.698; x=9: 0.6745*7 = 4.7215 > 3.5.
    let xs = [1.0, 1.0, 2.0, 2.0, 4.0, 6.0, 9.0];
    let z = modified_z_scores(&xs);
    let expected = [-0.6745, -0.6745, 0.0, 0.0, 1.349, 2.698, 4.7215];
    for (got, want) in z.iter().zip(expected) {
        assert!(close(*got, want, 1e-9), "{got} vs {want}");
    }
    assert_eq!(outliers(&xs), vec![6]);
}

#[test]
fn obvious_outlier_in_timings_is_flagged() {
    let mut xs = jittered(1000.0, 0.01, 30, 7);
    xs[12] = 5000.0; // a descheduled sample
    assert_eq!(outliers(&xs), vec![12]);
    // A slow *and* a fast outlier are both found; indices ascend.
    xs[3] = 100.0;
    assert_eq!(outliers(&xs), vec![3, 12]);
}

#[test]
fn zero_mad_falls_back_to_mean_absolute_deviation() {
    // [5,5,5,5,5,5,20]: median 5, MAD 0 (six zero deviations).
    // meanAD = 15/7 = 2.142857; z(20) = 15 / (1.253314 * 2.142857)
    //        = 15 / 2.685673 = 5.585...; all others 0.
    let xs = [5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 20.0];
    let z = modified_z_scores(&xs);
    assert!(close(z[6], 15.0 / (1.253314 * 15.0 / 7.0), 1e-12));
    assert!(close(z[6], 5.5852, 1e-3));
    assert!(z[..6].iter().all(|v| *v == 0.0));
    assert_eq!(outliers(&xs), vec![6]);
}

#[test]
fn identical_values_have_zero_scores() {
    let xs = [4.0; 9];
    assert_eq!(modified_z_scores(&xs), vec![0.0; 9]);
    assert!(outliers(&xs).is_empty());
}

#[test]
fn splitmix64_reference_outputs() {
    // First outputs of SplitMix64 from state 0 (the reference
    // implementation by Vigna, splitmix64.c).
    let mut rng = SplitMix64::new(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
}

#[test]
fn below_stays_in_range_and_covers_it() {
    let mut rng = SplitMix64::new(99);
    let mut counts = [0usize; 7];
    for _ in 0..7000 {
        let v = rng.below(7);
        assert!(v < 7);
        counts[v] += 1;
    }
    // Expected 1000 each; a uniform draw stays well within ±200.
    assert!(counts.iter().all(|c| (800..1200).contains(c)), "{counts:?}");
    assert_eq!(rng.below(0), 0);
    assert_eq!(rng.below(1), 0);
}

#[test]
fn bootstrap_ci_is_reproducible_and_contains_median() {
    let xs = jittered(250.0, 0.05, 40, 3);
    let a = bootstrap_median_ci(&xs, 0.95, DEFAULT_RESAMPLES, 42);
    let b = bootstrap_median_ci(&xs, 0.95, DEFAULT_RESAMPLES, 42);
    assert_eq!(a, b);
    let med = median(&xs);
    assert!(a.0 <= med && med <= a.1, "{a:?} vs {med}");
    assert!(a.0 < a.1);
    let ordered = sorted(&xs);
    assert!(a.0 >= ordered[0] && a.1 <= ordered[ordered.len() - 1]);
    // Another seed gives a (slightly) different interval.
    assert_ne!(a, bootstrap_median_ci(&xs, 0.95, DEFAULT_RESAMPLES, 43));
}

#[test]
fn bootstrap_ci_of_single_value_is_that_value() {
    assert_eq!(bootstrap_median_ci(&[8.5], 0.95, 100, 0), (8.5, 8.5));
}

#[test]
fn bootstrap_ci_narrows_with_more_samples() {
    let few = jittered(100.0, 0.1, 15, 11);
    let many = jittered(100.0, 0.1, 1500, 11);
    let (lo_f, hi_f) = bootstrap_median_ci(&few, 0.95, 1000, 5);
    let (lo_m, hi_m) = bootstrap_median_ci(&many, 0.95, 1000, 5);
    // Width shrinks like 1/sqrt(n): 100x the samples, ~10x narrower.
    assert!(
        (hi_m - lo_m) * 3.0 < hi_f - lo_f,
        "{lo_f}..{hi_f} vs {lo_m}..{hi_m}"
    );
}

#[test]
fn higher_level_gives_wider_interval() {
    let xs = jittered(100.0, 0.1, 50, 2);
    let (lo80, hi80) = bootstrap_median_ci(&xs, 0.80, 1000, 9);
    let (lo99, hi99) = bootstrap_median_ci(&xs, 0.99, 1000, 9);
    assert!(lo99 <= lo80 && hi80 <= hi99);
    assert!(hi99 - lo99 > hi80 - lo80);
}

#[test]
fn median_index_picks_the_lower_middle_sample() {
    assert_eq!(median_index(&[3.0, 1.0, 2.0]), Some(2));
    assert_eq!(median_index(&[4.0, 1.0, 3.0, 2.0]), Some(3));
    assert_eq!(median_index(&[5.0]), Some(0));
    assert_eq!(median_index(&[]), None);
}

#[test]
fn median_in_place_matches_median() {
    for n in 1..12 {
        let xs = jittered(10.0, 0.5, n, n as u64);
        let mut buf = xs.clone();
        assert_eq!(median_in_place(&mut buf), median(&xs), "n = {n}");
    }
}

#[test]
fn summarize_collects_every_figure() {
    // [1,2,3,4,100]: p25 h=1 -> 2; median 3; p75 h=3 -> 4; mean 110/5 = 22;
    // MAD: |x-3| = 2,1,0,1,97 -> median 1; z(100) = 0.6745*97 = 65.4 -> outlier 4.
    let xs = [3.0, 1.0, 100.0, 2.0, 4.0];
    let s = summarize(&xs, 1);
    assert_eq!(s.n, 5);
    assert_eq!((s.p25, s.median, s.p75), (2.0, 3.0, 4.0));
    assert_eq!((s.min, s.max), (1.0, 100.0));
    assert!(close(s.mean, 22.0, 1e-12));
    assert!(close(s.stddev, stddev(&xs), 0.0));
    assert_eq!(s.mad, 1.0);
    assert_eq!(s.outliers, vec![2]);
    assert_eq!(s.ci95, bootstrap_median_ci(&xs, 0.95, DEFAULT_RESAMPLES, 1));
    assert_eq!(s, summarize(&xs, 1));
}

#[test]
fn compare_identical_samples_is_unchanged() {
    let xs = jittered(500.0, 0.03, 30, 21);
    let c = compare(&xs, &xs, DEFAULT_NOISE_THRESHOLD, 4);
    assert_eq!(c.ratio, 1.0);
    assert!(c.intervals_overlap);
    assert_eq!(c.verdict, Verdict::Unchanged);
    assert!(c.ci95.0 <= 1.0 && 1.0 <= c.ci95.1, "{:?}", c.ci95);
}

#[test]
fn compare_ten_percent_apart_is_a_change() {
    let base = jittered(1000.0, 0.005, 30, 1);
    // Candidate 10% slower: every time scaled by 1.10, so the median ratio
    // is exactly 1.10 (up to rounding).
    let slower = scaled(&base, 1.10);
    let c = compare(&base, &slower, DEFAULT_NOISE_THRESHOLD, 8);
    assert!(close(c.ratio, 1.10, 1e-9), "{}", c.ratio);
    assert!(!c.intervals_overlap);
    assert_eq!(c.verdict, Verdict::Slower);
    assert!(
        c.ci95.0 < 1.10 && 1.10 < c.ci95.1 && c.ci95.0 > 1.05,
        "{:?}",
        c.ci95
    );

    let c = compare(&slower, &base, DEFAULT_NOISE_THRESHOLD, 8);
    assert!(close(c.ratio, 1.0 / 1.10, 1e-9));
    assert_eq!(c.verdict, Verdict::Faster);
}

#[test]
fn compare_one_percent_apart_stays_within_noise_band() {
    // Tight samples (±0.05%) 1% apart: the median intervals are disjoint,
    // but |1.01 - 1| = 0.01 < 0.02, so no change is called.
    let base = jittered(1000.0, 0.0005, 30, 2);
    let cand = scaled(&jittered(1000.0, 0.0005, 30, 3), 1.01);
    let c = compare(&base, &cand, DEFAULT_NOISE_THRESHOLD, 6);
    assert!(close(c.ratio, 1.01, 1e-3), "{}", c.ratio);
    assert!(!c.intervals_overlap);
    assert_eq!(c.verdict, Verdict::Unchanged);
    // With a 0.5% threshold the same data is a slowdown.
    assert_eq!(compare(&base, &cand, 0.005, 6).verdict, Verdict::Slower);
}

#[test]
fn compare_noisy_overlapping_samples_is_inconclusive_not_unchanged() {
    // Medians 10% apart but both samples spread ±50% with few points:
    // the ratio's interval reaches past both ends of the band.
    let base = jittered(1000.0, 0.5, 15, 31);
    let cand = scaled(&jittered(1000.0, 0.5, 15, 32), 1.1);
    let c = compare(&base, &cand, DEFAULT_NOISE_THRESHOLD, 6);
    assert!(c.intervals_overlap);
    assert_eq!(c.verdict, Verdict::Inconclusive);
    assert!(c.detectable > 0.1, "{c:?}");
}

#[test]
fn compare_is_reproducible_for_a_seed() {
    let base = jittered(1000.0, 0.02, 25, 40);
    let cand = jittered(1030.0, 0.02, 25, 41);
    assert_eq!(
        compare(&base, &cand, 0.02, 77),
        compare(&base, &cand, 0.02, 77)
    );
}

#[test]
fn compare_with_empty_sample_is_inconclusive() {
    let xs = jittered(10.0, 0.01, 20, 1);
    let c = compare(&[], &xs, DEFAULT_NOISE_THRESHOLD, 1);
    assert!(c.ratio.is_nan());
    assert_eq!(c.verdict, Verdict::Inconclusive);
    assert_eq!(
        compare(&xs, &[], DEFAULT_NOISE_THRESHOLD, 1).verdict,
        Verdict::Inconclusive
    );
}

#[test]
fn compare_medians_only_uses_threshold() {
    // 110 / 100 = 1.10 > 1.02 -> Slower; 90/100 = 0.9 -> Faster; 101/100 -> Unchanged.
    let c = compare_medians_only(100.0, 110.0, DEFAULT_NOISE_THRESHOLD);
    assert!(close(c.ratio, 1.1, 1e-12));
    assert_eq!(c.ci95, (c.ratio, c.ratio));
    assert!(c.intervals_overlap);
    assert_eq!(c.verdict, Verdict::Slower);
    assert_eq!(
        compare_medians_only(100.0, 90.0, 0.02).verdict,
        Verdict::Faster
    );
    assert_eq!(
        compare_medians_only(100.0, 101.0, 0.02).verdict,
        Verdict::Unchanged
    );
    assert_eq!(
        compare_medians_only(0.0, 0.0, 0.02).verdict,
        Verdict::Inconclusive
    );
    // Widened by a 10% floor, a 10% change cannot be told from 2%.
    assert_eq!(
        compare_medians_only(100.0, 110.0, 0.02)
            .decided(0.10, 0.02)
            .verdict,
        Verdict::Inconclusive
    );
}

/// Batches of a rejection-sampled operation: per-call means of a geometric
/// number of tries, so a lucky batch is far below the typical one.
fn lucky_batches(seed: u64, n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let tries: usize = (0..4).map(|_| 1 + rng.below(8)).sum();
            100.0 * tries as f64 / 4.0
        })
        .collect()
}

#[test]
fn medians_judge_a_case_whose_fastest_round_is_luck() {
    let (a, b) = (lucky_batches(1, 40), lucky_batches(2, 40));
    let resolution = median_resolution(&a, 1).max(median_resolution(&b, 2));
    assert!(resolution > 0.05 && resolution < 0.5, "{resolution}");
    // The same process twice, against a threshold past the medians' reach:
    // unchanged.
    assert_eq!(compare(&a, &b, 0.5, 3).verdict, Verdict::Unchanged);
    // Twice as slow is seen.
    let slow: Vec<f64> = b.iter().map(|x| x * 2.0).collect();
    assert_eq!(compare(&a, &slow, 0.2, 3).verdict, Verdict::Slower);
    // Against a threshold within the medians' reach: cannot tell.
    let c = compare(&a, &b, 0.0, 3);
    assert_eq!(c.verdict, Verdict::Inconclusive);
    assert!(c.intervals_overlap);
    assert_eq!(median_resolution(&[], 1), f64::INFINITY);
}

#[test]
fn a_change_whose_interval_reaches_back_into_the_band_is_inconclusive() {
    // Fastest rounds 100 and 104 (4% past a 2% limit), each fastest's
    // interval reaching 3% above it: the intervals are apart (103 < 104)
    // but the ratio's interval (104 / 103 ..) reaches 1.01, inside the band.
    let rounds = |fastest: f64| -> Vec<f64> {
        let mut xs = vec![fastest, fastest * 1.01, fastest * 1.02];
        xs.extend(std::iter::repeat_n(fastest * 1.03, 17));
        xs
    };
    let c = compare_fastest(&rounds(100.0), &rounds(104.0), 0.02);
    assert!(!c.intervals_overlap, "{c:?}");
    assert!(c.ci95.0 < 1.02, "{c:?}");
    assert_eq!(c.verdict, Verdict::Inconclusive);
    // 8% clears the band with its whole interval.
    let c = compare_fastest(&rounds(100.0), &rounds(108.0), 0.02);
    assert_eq!(c.verdict, Verdict::Slower, "{c:?}");
    assert_eq!(
        compare_fastest(&rounds(108.0), &rounds(100.0), 0.02).verdict,
        Verdict::Faster
    );
}
