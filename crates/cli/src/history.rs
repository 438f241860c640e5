//! Earlier runs of a paper on this machine, beside the run it judges.
//!
//! One run's rounds say how a ratio varied while that run lasted; a shared
//! machine also moves some ratios between runs (seed 004's GCM / CCM in
//! PHP read 1.93x in one quick run and 2.12x in the next, each interval
//! clear of the claim's 2x edge). `paper` therefore attaches the samples
//! the last few runs of the same experiment on this machine took of the
//! same cases ([`Measurement::earlier`]), and each paired verdict holds
//! their ratios too: "holds" and "differs" only where the runs agree.

use anyhow::Result;
use cryptobench_core::{CaseStatus, EarlierSamples, Measurement, Run, RunStatus};
use cryptobench_store::Store;
use std::collections::HashMap;

/// Earlier runs a verdict looks back on.
pub const EARLIER_RUNS: usize = 4;

/// Stored paper runs read at most while looking for [`EARLIER_RUNS`] of
/// this experiment on this machine (a long history is not read whole).
const RUNS_SCANNED: usize = 40;

/// Attaches to `measured` (the run `current` and what it adds) the samples
/// that the last [`EARLIER_RUNS`] runs on `current`'s machine took of the
/// same cases in the same groups, by the same backend versions; returns
/// those runs' ids, newest first. Runs with no such case are passed over.
pub fn attach_earlier(
    store: &Store,
    current: &Run,
    measured: &mut [Measurement],
) -> Result<Vec<String>> {
    let mut index: HashMap<(String, String), usize> = HashMap::new();
    for (i, m) in measured.iter().enumerate() {
        if let (Some(group), CaseStatus::Measured) = (&m.group, m.status) {
            index.insert((m.case_key(), group.clone()), i);
        }
    }
    if index.is_empty() {
        return Ok(Vec::new());
    }
    let candidates = store
        .list_runs()?
        .into_iter()
        .filter(|r| r.id != current.id && r.status != RunStatus::Running)
        .filter(|r| r.command.split_whitespace().any(|w| w == "paper"))
        .take(RUNS_SCANNED);
    let mut used = Vec::new();
    for row in candidates {
        if used.len() == EARLIER_RUNS {
            break;
        }
        let run = store.load_run(&row.id)?;
        if !run.machine.same_machine(&current.machine) {
            continue;
        }
        let mut any = false;
        for m in &run.measurements {
            let Some(group) = &m.group else { continue };
            if m.status != CaseStatus::Measured {
                continue;
            }
            let Some(&i) = index.get(&(m.case_key(), group.clone())) else {
                continue;
            };
            if measured[i].backend_version != m.backend_version {
                continue;
            }
            measured[i].earlier.push(EarlierSamples {
                run: run.id.clone(),
                samples_ns: m.samples_ns.clone(),
            });
            any = true;
        }
        if any {
            used.push(run.id);
        }
    }
    Ok(used)
}

/// The line under a paper's header when `--no-db` kept the earlier runs
/// unread.
pub const NOT_READ_NOTE: &str = "earlier runs: not read (--no-db), so each verdict rests on this run alone (a ratio near a claim's edge can land on its other side in the next run)";

/// The line under a paper's header naming the runs its verdicts also hold.
pub fn earlier_note(runs: &[String]) -> String {
    let (Some(newest), Some(oldest)) = (runs.first(), runs.last()) else {
        return "earlier runs: none of this experiment on this machine, so each verdict rests on this run alone (a ratio near a claim's edge can land on its other side in the next run; later runs hold this one's ratios too)".into();
    };
    let which = if runs.len() == 1 {
        format!("run {newest}")
    } else {
        format!("{} runs, {oldest} to {newest}", runs.len())
    };
    format!(
        "earlier runs: each paired verdict also holds the ratios of {which} (this experiment, this machine): a verdict holds or differs only where the runs agree; --no-db judges this run alone"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, Fingerprint};

    fn case(version: &str, times: &[f64]) -> Measurement {
        let mut m = CaseSpec::new("aead", "AES-256-GCM", "php", version, "encrypt")
            .measurement(CaseStatus::Measured, None);
        m.group = Some("paper-x/php/encrypt".into());
        m.samples_ns = times.to_vec();
        m
    }

    /// Run `r{n}`, started `n` seconds into the day, whose one case timed
    /// `n` ns a round.
    fn run(n: u32, command: &str, host: &str, version: &str) -> Run {
        Run {
            started_at: format!("2026-01-01T00:00:{n:02}Z"),
            command: command.split(' ').map(String::from).collect(),
            machine: Fingerprint {
                hostname: host.into(),
                cpu_model: "cpu".into(),
                cores: 2,
                ..Fingerprint::default()
            },
            ..Run::new(format!("r{n}"), vec![case(version, &[f64::from(n); 6])])
        }
    }

    const PAPER: &str = "cryptobench --quick paper x";

    #[test]
    fn only_earlier_paper_runs_of_this_machine_and_version_are_attached() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("h.db")).unwrap();
        for r in [
            run(1, PAPER, "here", "8.2"),
            run(2, PAPER, "elsewhere", "8.2"),
            run(3, "cryptobench run", "here", "8.2"),
            run(4, PAPER, "here", "8.3"),
            run(5, PAPER, "here", "8.2"),
        ] {
            store.import_run(&r).unwrap();
        }
        let now = run(6, PAPER, "here", "8.2");
        store.import_run(&now).unwrap();
        let mut measured = now.measurements.clone();
        let used = attach_earlier(&store, &now, &mut measured).unwrap();
        // Newest first; another machine, a `run`, another PHP and the run
        // itself are left out.
        assert_eq!(used, ["r5", "r1"]);
        let firsts: Vec<f64> = measured[0]
            .earlier
            .iter()
            .map(|e| e.samples_ns[0])
            .collect();
        assert_eq!(firsts, [5.0, 1.0]);
        assert!(earlier_note(&used).contains("2 runs, r1 to r5"));
        assert!(earlier_note(&[]).contains("rests on this run alone"));
    }

    #[test]
    fn no_more_than_the_last_few_runs_are_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("h.db")).unwrap();
        let last = EARLIER_RUNS as u32 + 2;
        for n in 1..=last {
            store.import_run(&run(n, PAPER, "here", "8.2")).unwrap();
        }
        let now = run(last + 1, PAPER, "here", "8.2");
        let mut measured = now.measurements.clone();
        let used = attach_earlier(&store, &now, &mut measured).unwrap();
        assert_eq!(used.len(), EARLIER_RUNS);
        assert_eq!(used[0], format!("r{last}"));
        assert_eq!(measured[0].earlier.len(), EARLIER_RUNS);
    }
}
