//! A run being recorded: begun in the store before the first case, every
//! measurement committed the moment it is added (so an interruption loses
//! nothing already measured), a measurement taken again replacing the
//! first, and the run marked complete, failed or interrupted at the end.
//!
//! The lifecycle lives here, beside the store it writes, so any caller
//! (the binary's run commands, an A/B run, an MPI fleet's root) records a
//! run the same way; what the caller adds is only where the run goes
//! afterwards (exports, messages).

use crate::{OutputTarget, Store, StoreError};
use cryptobench_core::{Measurement, Run, RunStatus};

/// Why recording a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// A measurement could not be stored; the run stopped there.
    #[error("storing a measurement failed; the run stopped")]
    Measurement(#[source] StoreError),
    /// The run could not be marked finished.
    #[error(transparent)]
    Finish(StoreError),
}

/// A run being recorded (see the module's doc).
pub struct Recorder {
    run: Run,
    /// Each measurement's position in the store, beside `run.measurements`
    /// (`None` when it was not stored).
    seqs: Vec<Option<i64>>,
    store: Option<Store>,
    exports: Vec<OutputTarget>,
    store_error: Option<StoreError>,
    /// Called when a write fails, so the measuring stops early.
    stop: fn(),
}

/// A recorded run and where it is to go next.
pub struct Recorded {
    /// The run, marked with its end and status.
    pub run: Run,
    /// The export targets given at [`Recorder::begin`].
    pub exports: Vec<OutputTarget>,
    /// The store it was recorded in, if any.
    pub store: Option<Store>,
}

impl Recorder {
    /// Begins `run` in `store` (none: the run is only kept in memory).
    /// `exports` are handed back by [`Recorder::finish`]; `stop` is called
    /// when storing a measurement fails, so the engine stops measuring.
    pub fn begin(
        store: Option<Store>,
        run: Run,
        exports: Vec<OutputTarget>,
        stop: fn(),
    ) -> Result<Self, StoreError> {
        if let Some(st) = &store {
            st.begin_run(&run)?;
        }
        Ok(Self {
            run,
            seqs: Vec::new(),
            store,
            exports,
            store_error: None,
            stop,
        })
    }

    /// Stores and keeps one measurement; a storage failure stops the engine.
    pub fn add(&mut self, m: Measurement) {
        let seq = self.store_with(|st, run| st.add_measurement(run, &m));
        self.run.measurements.push(m);
        self.seqs.push(seq);
    }

    /// Runs one write on the store, if there is one and none failed yet;
    /// a failure stops the engine. Returns the measurement's position when
    /// it was written.
    fn store_with(
        &mut self,
        write: impl FnOnce(&Store, &str) -> Result<i64, StoreError>,
    ) -> Option<i64> {
        let (Some(st), None) = (&self.store, &self.store_error) else {
            return None;
        };
        write(st, &self.run.id)
            .map_err(|e| {
                self.store_error = Some(e);
                (self.stop)();
            })
            .ok()
    }

    /// Replaces a measurement the run measured again, faster;
    /// the new one moves to the end, as in the store.
    pub fn replace(&mut self, replaced: &Measurement, by: Measurement) {
        let key = replaced.case_key();
        let Some(i) = self
            .run
            .measurements
            .iter()
            .position(|m| m.case_key() == key && !m.is_canary())
        else {
            return self.add(by);
        };
        let seq = match self.seqs[i] {
            Some(old) => self.store_with(|st, run| st.replace_measurement(run, old, &by)),
            None => None,
        };
        self.run.measurements.remove(i);
        self.seqs.remove(i);
        self.run.measurements.push(by);
        self.seqs.push(seq);
    }

    /// Marks the run finished at `finished_at`: interrupted when `stopped`,
    /// failed when a case failed, else complete; and so in the store.
    pub fn finish(mut self, stopped: bool, finished_at: String) -> Result<Recorded, RecordError> {
        let run = &mut self.run;
        run.finished_at = Some(finished_at);
        run.status = if stopped {
            RunStatus::Interrupted
        } else if run.has_failures() {
            RunStatus::Failed
        } else {
            RunStatus::Complete
        };
        if let Some(st) = &self.store {
            if let Some(e) = self.store_error {
                return Err(RecordError::Measurement(e));
            }
            st.finish_run(
                &run.id,
                run.status,
                run.finished_at.as_deref().unwrap_or(""),
            )
            .map_err(RecordError::Finish)?;
        }
        Ok(Recorded {
            run: self.run,
            exports: self.exports,
            store: self.store,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CaseSpec, CaseStatus};

    fn case(primitive: &str, status: CaseStatus) -> Measurement {
        CaseSpec::new("hash", primitive, "openssl", "OpenSSL 3", "digest")
            .size(64)
            .measurement(status, None)
    }

    fn no_stop() {}

    #[test]
    fn a_run_is_stored_as_measured_and_replaced_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("r.db")).unwrap();
        let run = Run::new("20260101-000000-aaaa", Vec::new());
        let mut recorder = Recorder::begin(Some(store), run, Vec::new(), no_stop).unwrap();
        let first = case("SHA-256", CaseStatus::Skipped);
        recorder.add(first.clone());
        recorder.add(case("SHA-512", CaseStatus::Skipped));
        let mut again = first.clone();
        again.reason = Some("measured again".into());
        recorder.replace(&first, again);
        let done = recorder
            .finish(false, "2026-01-01T00:01:00Z".into())
            .unwrap();
        assert_eq!(done.run.status, RunStatus::Complete);
        let names: Vec<_> = done
            .run
            .measurements
            .iter()
            .map(|m| m.primitive.as_str())
            .collect();
        assert_eq!(
            names,
            ["SHA-512", "SHA-256"],
            "the new one moves to the end"
        );
        let stored = done
            .store
            .unwrap()
            .load_run("20260101-000000-aaaa")
            .unwrap();
        assert_eq!(stored.status, RunStatus::Complete);
        assert_eq!(stored.measurements, done.run.measurements);
    }

    #[test]
    fn the_status_says_interrupted_before_failed() {
        let status = |stopped: bool, case_status: CaseStatus| {
            let run = Run::new("20260101-000000-bbbb", Vec::new());
            let mut recorder = Recorder::begin(None, run, Vec::new(), no_stop).unwrap();
            recorder.add(case("SHA-256", case_status));
            let done = recorder.finish(stopped, "2026-01-01T00:01:00Z".into());
            done.unwrap().run.status
        };
        assert_eq!(status(false, CaseStatus::Failed), RunStatus::Failed);
        assert_eq!(status(true, CaseStatus::Failed), RunStatus::Interrupted);
        assert_eq!(status(false, CaseStatus::Skipped), RunStatus::Complete);
    }
}
