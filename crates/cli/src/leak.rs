//! `cryptobench leak`: runs a timing-leak screen and stores it as a run.
//!
//! The screen has its own loop (`cryptobench_suite_leak::run`); what it
//! finds is stored case by case through the same recorder (`cryptobench_store::Recorder`) as every
//! benchmark, so `runs`, `show`, `export` and `-o` treat it like any run.

use crate::app;
use crate::args::Global;
use crate::output;
use anyhow::Result;
use cryptobench_core::{CaseStatus, Measurement, Suite};
use cryptobench_engine::sample::clock::MonotonicClock;
use cryptobench_suite_leak::case::Role;
use cryptobench_suite_leak::cli::LeakArgs;
use cryptobench_suite_leak::run::{run_plan, Event};
use cryptobench_suite_leak::verdict::{ns, THRESHOLD};
use cryptobench_suite_leak::{controls, plan, LeakSuite};
use std::time::{Duration, Instant};

/// Longest silence on the terminal while a case is measured.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Exit code when a control came out wrong: the screen cannot be trusted
/// on this machine now (too noisy, or the loop is broken).
const EXIT_CONTROL_WRONG: u8 = 1;

/// Runs the screen `a` and the global flags describe.
pub fn leak(g: &Global, a: &LeakArgs) -> Result<u8> {
    let cfg = app::run_config(g)?;
    let screen = cryptobench_suite_leak::cli::screen(a, &cfg)?;
    app::install_interrupt_handlers();
    let cases = plan::plan(&screen.options);
    let suites: Vec<Box<dyn Suite>> = vec![
        Box::new(LeakSuite),
        Box::new(cryptobench_suite_aead::AeadSuite::default()),
        Box::new(cryptobench_suite_pubkey::PubkeySuite::default()),
    ];
    let mut recorder = app::start_recording(g, app::suite_backends(&suites), None)?;
    let b = screen.budget;
    if !g.quiet {
        eprintln!(
            "leak: {} cases, each up to {} measurements or {:.0} s (at most {:.0} s of measuring); \
             leak when max |t| > {THRESHOLD}; seed {}",
            cases.len(),
            b.measurements,
            b.time.as_secs_f64(),
            b.time.as_secs_f64() * cases.len() as f64,
            screen.seed
        );
    }
    let mut last = Instant::now();
    let quiet = g.quiet;
    // Each case is committed as it finishes, so a stop or a crash keeps
    // the screens already done.
    run_plan(cases, &MonotonicClock, b, screen.seed, &mut |ev| {
        if let Event::Finished { measurement, .. } = &ev {
            recorder.add((*measurement).clone());
        }
        report(ev, quiet, &mut last);
    });
    let stopped = cryptobench_engine::sample::interrupt::stop_requested();
    let run = app::finish_recording(g, recorder, stopped, false)?;
    output::print_run_with(g, &run, &[Box::new(LeakSuite)], output::Detail::Full)?;
    let wrong = wrong_controls(&run.measurements);
    for line in &wrong {
        eprintln!("{line}");
    }
    if stopped {
        return Ok(app::Outcome {
            run,
            suites: Vec::new(),
        }
        .exit_code());
    }
    Ok(if wrong.is_empty() {
        0
    } else {
        EXIT_CONTROL_WRONG
    })
}

/// Prints one event on stderr: a line per case, progress at least every
/// [`PROGRESS_EVERY`], the finding.
fn report(ev: Event<'_>, quiet: bool, last: &mut Instant) {
    if quiet {
        return;
    }
    match ev {
        Event::Started { index, of, info } => {
            let s = &info.spec;
            eprintln!(
                "[{}/{of}] {} {} {} {}: {} vs {}",
                index + 1,
                info.role.name(),
                s.primitive,
                s.backend,
                s.operation,
                info.classes[0],
                info.classes[1]
            );
            *last = Instant::now();
        }
        Event::Progress { done, target } => {
            if last.elapsed() >= PROGRESS_EVERY {
                eprintln!("      {done} of {target} measurements");
                *last = Instant::now();
            }
        }
        Event::Finished {
            measurement,
            finding,
        } => {
            match finding {
                Some(f) => eprintln!("      {}", f.line()),
                None => eprintln!(
                    "      {}: {}",
                    measurement.status.as_str(),
                    measurement.reason.as_deref().unwrap_or("")
                ),
            }
            *last = Instant::now();
        }
    }
}

/// A line for each control whose verdict is not the one it must have,
/// and for an A/A case flagged.
fn wrong_controls(ms: &[Measurement]) -> Vec<String> {
    let mut out = Vec::new();
    for m in ms
        .iter()
        .filter(|m| m.suite == cryptobench_suite_leak::SUITE)
    {
        let role = m.params.get("role").map_or("", String::as_str);
        let verdict = m.params.get("verdict").map_or("", String::as_str);
        let must = if role == Role::SameClasses.name() {
            "no leak found"
        } else if m.backend == controls::EARLY_EXIT && role == "control" {
            "leak"
        } else if m.backend == controls::CONSTANT_TIME {
            "no leak found"
        } else {
            continue;
        };
        if m.status != CaseStatus::Measured || verdict != must {
            let effect = m.extra.get("effect ns").copied().unwrap_or(f64::NAN);
            out.push(format!(
                "warning: {role} {} {} should be \"{must}\" but is \"{}\" (effect {}): \
                 this machine's screen is not to be trusted now; run again on a quieter machine",
                m.primitive,
                m.backend,
                if verdict.is_empty() {
                    m.status.as_str()
                } else {
                    verdict
                },
                ns(effect)
            ));
        }
    }
    out
}
