//! Welch's t-test and the two refinements a timing-leak screen needs.
//!
//! A screen compares the times of two input classes. Timing data has a
//! long right tail (interrupts, cache misses), which inflates the variance
//! and hides a small shift, so the test also runs on the measurements
//! cropped at several percentiles of the pooled data (both classes cut at
//! the same value). A difference that shows only in the spread, not the
//! mean, is caught by the second-order test: Welch's t on each class's
//! squared deviations from its own mean (the centred product of a
//! measurement with itself).

/// Welch's t of two samples, with what it was computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Welch {
    /// `(mean_a - mean_b) / se`.
    pub t: f64,
    /// Mean of the first sample.
    pub mean_a: f64,
    /// Mean of the second sample.
    pub mean_b: f64,
    /// Size of the first sample.
    pub n_a: usize,
    /// Size of the second sample.
    pub n_b: usize,
    /// Standard error of the difference of means,
    /// `sqrt(var_a / n_a + var_b / n_b)` (sample variances, divisor n - 1).
    pub se: f64,
}

/// Welch's t of `a` against `b`; `None` when either has fewer than two
/// values or neither varies (the difference then has no scale).
pub fn welch_t(a: &[f64], b: &[f64]) -> Option<Welch> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (mean_a, var_a) = (crate::mean(a), crate::variance(a));
    let (mean_b, var_b) = (crate::mean(b), crate::variance(b));
    let se = (var_a / a.len() as f64 + var_b / b.len() as f64).sqrt();
    if se.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    Some(Welch {
        t: (mean_a - mean_b) / se,
        mean_a,
        mean_b,
        n_a: a.len(),
        n_b: b.len(),
        se,
    })
}

/// The values of `xs` at or below `cut`.
pub fn crop(xs: &[f64], cut: f64) -> Vec<f64> {
    xs.iter().copied().filter(|x| *x <= cut).collect()
}

/// Each class's squared deviations from its own mean: a first-order test
/// on these compares the classes' variances (the second-order test).
pub fn centred_squares(xs: &[f64]) -> Vec<f64> {
    let m = crate::mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).collect()
}

/// Percentiles of the pooled measurements at which the cropped tests cut
/// both classes. dudect crops at many levels between the median and the
/// far tail; these five span the same range.
pub const CROP_PERCENTILES: [f64; 5] = [50.0, 75.0, 90.0, 95.0, 99.0];

/// One test of a screen: what it looked at and its t.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// `raw`, `cropped p50`, ..., `second order`.
    pub name: String,
    /// Its Welch t; `None` when it had too little data.
    pub welch: Option<Welch>,
}

/// Every test of one two-class screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Screen {
    /// Raw, then cropped at each of [`CROP_PERCENTILES`], then second order.
    pub tests: Vec<Test>,
}

impl Screen {
    /// The largest |t| over all tests (0 when none could be computed).
    pub fn max_abs_t(&self) -> f64 {
        self.tests
            .iter()
            .filter_map(|t| t.welch.map(|w| w.t.abs()))
            .fold(0.0, f64::max)
    }

    /// The test with the largest |t|.
    pub fn strongest(&self) -> Option<&Test> {
        self.tests
            .iter()
            .filter(|t| t.welch.is_some())
            .max_by(|x, y| abs_t(x).total_cmp(&abs_t(y)))
    }

    /// A test by name.
    pub fn test(&self, name: &str) -> Option<&Welch> {
        self.tests
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.welch.as_ref())
    }
}

fn abs_t(t: &Test) -> f64 {
    t.welch.map_or(0.0, |w| w.t.abs())
}

/// Name of the cropped test at percentile `p`.
pub fn cropped_name(p: f64) -> String {
    format!("cropped p{p}")
}

/// Runs every test on the two classes' measurements: raw, cropped at each
/// of [`CROP_PERCENTILES`] of the pooled data, and second order (on the
/// raw data cropped at the last percentile, so a few interrupts do not
/// swamp the variances it compares).
pub fn screen(a: &[f64], b: &[f64]) -> Screen {
    let mut pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    pooled.sort_by(f64::total_cmp);
    let mut tests = vec![Test {
        name: "raw".into(),
        welch: welch_t(a, b),
    }];
    let mut last_cut = f64::INFINITY;
    for p in CROP_PERCENTILES {
        let cut = crate::quantile_sorted(&pooled, p / 100.0);
        last_cut = cut;
        tests.push(Test {
            name: cropped_name(p),
            welch: welch_t(&crop(a, cut), &crop(b, cut)),
        });
    }
    let (ca, cb) = (crop(a, last_cut), crop(b, last_cut));
    tests.push(Test {
        name: "second order".into(),
        welch: welch_t(&centred_squares(&ca), &centred_squares(&cb)),
    });
    Screen { tests }
}

/// z of a one-sided 90% power: an effect of `(threshold + POWER_Z) * se`
/// gives an expected t that clears the threshold in 9 runs of 10.
pub const POWER_Z: f64 = 1.2816;

/// The smallest mean difference a test with standard error `se` finds in
/// 9 runs of 10 at `threshold`.
pub fn detectable_effect(se: f64, threshold: f64) -> f64 {
    (threshold + POWER_Z) * se
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9 * y.abs().max(1.0)
    }

    #[test]
    fn welch_t_matches_a_hand_computation() {
        // a: mean 3, variance 10/4 = 2.5; b: mean 7, variance 70/5 = 14.
        // se = sqrt(2.5/5 + 14/6) = sqrt(2.8333...) = 1.6832508230603465
        // t = (3 - 7) / se = -2.3763541031440183
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [2.0, 4.0, 6.0, 8.0, 10.0, 12.0];
        let w = welch_t(&a, &b).unwrap();
        assert!(close(w.se, 1.6832508230603465), "{w:?}");
        assert!(close(w.t, -2.3763541031440183), "{w:?}");
        assert_eq!((w.n_a, w.n_b), (5, 6));
    }

    #[test]
    fn the_second_order_test_compares_spreads() {
        // Centred squares: a -> [4,1,0,1,4] (mean 2, variance 3.5),
        // b -> [25,9,1,1,9,25] (mean 11.667, variance 119.467);
        // t = (2 - 11.667) / sqrt(3.5/5 + 119.467/6) = -2.129246984821622
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b = [2.0, 4.0, 6.0, 8.0, 10.0, 12.0];
        let w = welch_t(&centred_squares(&a), &centred_squares(&b)).unwrap();
        assert!(close(w.t, -2.129246984821622), "{w:?}");
    }

    #[test]
    fn too_little_or_constant_data_has_no_t() {
        assert!(welch_t(&[1.0], &[1.0, 2.0]).is_none());
        assert!(welch_t(&[3.0, 3.0], &[3.0, 3.0, 3.0]).is_none());
    }

    #[test]
    fn cropping_cuts_both_classes_at_one_pooled_value() {
        // A shift hidden by one huge outlier in the raw test shows once cropped.
        let mut a: Vec<f64> = (0..200).map(|i| 100.0 + (i % 7) as f64).collect();
        let b: Vec<f64> = (0..200).map(|i| 103.0 + (i % 7) as f64).collect();
        a[0] = 1e9;
        let s = screen(&a, &b);
        assert!(s.test("raw").unwrap().t.abs() < 2.0);
        assert!(s.test(&cropped_name(99.0)).unwrap().t.abs() > 10.0);
        assert!(s.max_abs_t() > 10.0);
        assert_eq!(s.tests.len(), 2 + CROP_PERCENTILES.len());
    }

    #[test]
    fn the_detectable_effect_is_the_threshold_plus_power_in_standard_errors() {
        assert!(close(detectable_effect(2.0, 10.0), 2.0 * 11.2816));
    }
}
