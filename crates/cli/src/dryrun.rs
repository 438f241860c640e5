//! `cryptobench run --dry-run`: what a run would measure, without building
//! or timing anything: cases per suite (ready, skipped, unavailable) and a
//! lower bound of its duration from the sampling budget. Slow operations
//! (a 20 MB legacy cipher, a 1 GiB Argon2 hash) are timed one call per
//! sample, so they are costed from their suite's guess of one call
//! (`CaseSpec::expected_ns`) at their fewest rounds: the figure stays a
//! lower bound, and the README's timings give measured ones.

use crate::app;
use crate::args::Global;
use anyhow::Result;
use cryptobench_core::units::format_ns;
use cryptobench_core::{Budget, CaseSpec, PlannedCase, RunConfig, Setup, Suite, Table};
use cryptobench_engine::schedule::runner::member_cost;
use cryptobench_report::text;

/// Seconds one fast case takes at least: warm-up, calibration (about a
/// fifth of the sampling time) and sampling.
fn seconds_per_case(b: &Budget) -> f64 {
    (b.warmup + b.time_per_case).as_secs_f64() + 0.2 * b.time_per_case.as_secs_f64()
}

/// Seconds one ready case takes at least, by the pacer's model of it
/// ([`member_cost`]): a slow operation (one call longer than a sample, by
/// its suite's guess) takes a calibration call and the rounds the engine
/// gives it at least, its time per case and never fewer than its floor.
fn case_seconds(spec: &CaseSpec, b: &Budget) -> f64 {
    let cost = member_cost(spec, b);
    let modelled = (cost.calibration_ns() + cost.sampling_ns(1.0)) / 1e9;
    seconds_per_case(b).max(modelled)
}

/// The plan of `suites` as a table, one row per suite and a total.
pub fn plan_table(cases: &[PlannedCase], suites: &[Box<dyn Suite>], budget: &Budget) -> Table {
    let mut t = Table::new(
        "Dry run: the cases this run would measure (nothing is built or timed)",
        ["suite", "ready", "skipped", "unavailable", "at least"],
    )
    .right(&[1, 2, 3, 4]);
    let mut totals = [0usize; 3];
    let mut total_seconds = 0.0;
    let mut names: Vec<&str> = suites.iter().map(|s| s.name()).collect();
    for c in cases {
        if !names.contains(&c.spec.suite.as_str()) {
            names.push(&c.spec.suite);
        }
    }
    for name in names {
        let mut n = [0usize; 3];
        let mut seconds = 0.0;
        for c in cases.iter().filter(|c| c.spec.suite == name) {
            n[match c.setup {
                Setup::Ready(_) => 0,
                Setup::Skipped(_) => 1,
                Setup::Unavailable(_) => 2,
            }] += 1;
            if matches!(c.setup, Setup::Ready(_)) {
                seconds += case_seconds(&c.spec, budget);
            }
        }
        total_seconds += seconds;
        for (total, k) in totals.iter_mut().zip(n) {
            *total += k;
        }
        t.row([
            name.to_string(),
            n[0].to_string(),
            n[1].to_string(),
            n[2].to_string(),
            format_ns(seconds * 1e9),
        ]);
    }
    t.row([
        "total".to_string(),
        totals[0].to_string(),
        totals[1].to_string(),
        totals[2].to_string(),
        format_ns(total_seconds * 1e9),
    ]);
    t.note(format!(
        "\"at least\": {:.2} s per ready case (warm-up, calibration, sampling); an operation \
         slower than a sample, by its suite's guess, a calibration call and its fewest rounds",
        seconds_per_case(budget)
    ));
    if let Some(limit) = budget.measuring_limit {
        if total_seconds > limit.as_secs_f64() {
            t.note(format!(
                "paced: this run measures for about {} at most, so its cases get less than \
                 their whole time per case (down to a quarter of it); `--time` sets the time \
                 per case and lifts the limit",
                format_ns(limit.as_nanos() as f64)
            ));
        }
    }
    t
}

/// One planned case as a JSON object: what it is and whether it would run
/// (the case list `--format json` prints, which plan comparisons diff).
fn case_json(c: &PlannedCase) -> serde_json::Value {
    let (setup, reason) = match &c.setup {
        Setup::Ready(_) => ("ready", ""),
        Setup::Skipped(r) => ("skipped", r.as_str()),
        Setup::Unavailable(r) => ("unavailable", r.as_str()),
    };
    let s = &c.spec;
    serde_json::json!({
        "suite": s.suite, "primitive": s.primitive, "backend": s.backend,
        "operation": s.operation, "params": s.params, "input_bytes": s.input_bytes,
        "threads": s.threads, "labels": s.labels, "group": s.group,
        "expected_ns": s.expected_ns, "twinned": s.twinned, "min_rounds": s.min_rounds,
        "setup": setup, "reason": reason,
    })
}

/// Plans `suites` and prints the table, or with `--format json` the case
/// list, one JSON object a line.
pub fn print_plan(g: &Global, cfg: &RunConfig, suites: &[Box<dyn Suite>]) -> Result<u8> {
    let (cases, _) = app::plan_all(g, cfg, suites)?;
    if g.format.eq_ignore_ascii_case("json") {
        for c in &cases {
            println!("{}", case_json(c));
        }
        return Ok(0);
    }
    println!(
        "{}",
        text::render(&plan_table(&cases, suites, &cfg.budget), false)
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::CaseSpec;

    #[test]
    fn counts_cases_per_suite_and_estimates_from_the_budget() {
        let spec = |suite: &str| CaseSpec::new(suite, "p", "b", "v", "op");
        let cases = vec![
            PlannedCase::skipped(spec("hash"), "too big"),
            PlannedCase::unavailable(spec("aead"), "no library"),
            PlannedCase::skipped(spec("aead"), "nonce"),
        ];
        let t = plan_table(&cases, &[], &Budget::standard());
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[0][..4], ["hash", "0", "1", "0"]);
        assert_eq!(t.rows[1][..4], ["aead", "0", "1", "1"]);
        assert_eq!(t.rows[2][..4], ["total", "0", "2", "1"]);
        // 10 ms of warm-up, 300 ms of samples and a fifth of that calibrating.
        assert!((seconds_per_case(&Budget::standard()) - 0.37).abs() < 1e-9);
        assert!(t.notes.iter().all(|n| !n.starts_with("paced")));
    }

    #[test]
    fn a_slow_operation_is_costed_at_its_calibration_call_and_fewest_rounds() {
        let b = Budget::standard();
        let spec = |ns: f64| CaseSpec::new("argon2", "p", "b", "v", "hash").expect_ns(ns);
        let fast = seconds_per_case(&b);
        // No guess, or a call shorter than a sample: the budget's figure.
        assert_eq!(case_seconds(&spec(0.0), &b), fast);
        assert_eq!(case_seconds(&spec(1e6), &b), fast);
        // 2 s a call: five would pass five case budgets, so the slow floor
        // (3 rounds) after the calibration call.
        assert!((case_seconds(&spec(2e9), &b) - 8.0).abs() < 1e-9);
        // 1 s a call: a calibration call and the five rounds that fit.
        let b = Budget::full();
        assert!((case_seconds(&spec(1e9), &b) - 6.0).abs() < 1e-9);
    }

    #[test]
    fn a_plan_past_the_measuring_limit_is_said_to_be_paced() {
        let spec = CaseSpec::new("hash", "p", "b", "v", "op");
        let ready = |_| {
            PlannedCase::ready(spec.clone(), || {
                Err(cryptobench_core::CaseError::Skipped("never built".into()))
            })
        };
        let budget = Budget::standard();
        let fits = (0..10).map(ready).collect::<Vec<_>>();
        let t = plan_table(&fits, &[], &budget);
        assert!(
            t.notes.iter().all(|n| !n.starts_with("paced")),
            "{:?}",
            t.notes
        );
        let limit = budget.measuring_limit.expect("the default run has a limit");
        let n = (limit.as_secs_f64() / seconds_per_case(&budget)) as usize + 10;
        let past = (0..n).map(ready).collect::<Vec<_>>();
        let t = plan_table(&past, &[], &budget);
        assert!(
            t.notes.iter().any(|n| n.starts_with("paced")),
            "{:?}",
            t.notes
        );
    }

    #[test]
    fn the_case_list_says_what_each_case_is_and_why_it_does_not_run() {
        let spec = CaseSpec::new("aead", "AES-256-GCM", "libsodium", "1", "encrypt").size(16);
        let line = case_json(&PlannedCase::unavailable(spec, "needs AES-NI"));
        assert_eq!(line["suite"], "aead");
        assert_eq!(line["backend"], "libsodium");
        assert_eq!(line["input_bytes"], 16);
        assert_eq!(line["setup"], "unavailable");
        assert_eq!(line["reason"], "needs AES-NI");
    }
}
