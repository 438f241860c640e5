//! One runner process and the JSON-lines conversation with it.
//!
//! A [`Runner`] is one child (`php runner.php`, later `python3 runner.py`,
//! ...). Requests go one line at a time on its stdin; answers come back one
//! line at a time on its stdout, read by a thread so that every wait has a
//! deadline ([`Runner::request_within`]). While it waits, the request polls
//! the engine's stop flag every [`STOP_POLL`], so Ctrl-C ends even a runner
//! that was stopped (SIGSTOP) or is stuck in a long batch: it is killed
//! (SIGKILL ends a stopped process too) and the request answers
//! [`RunnerError::Interrupted`]. A runner that misses its deadline is
//! killed; one that exits is reported with its exit status and the tail of
//! its stderr. Dropping a [`Runner`] closes its stdin (a runner exits on end
//! of input) and kills it if it has not gone within a second, so no runner
//! outlives its owner.

use serde_json::Value;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// How often a waiting request looks at the stop flag.
pub const STOP_POLL: Duration = Duration::from_millis(100);
/// How much of the runner's stderr is kept for error messages.
const STDERR_KEEP: usize = 4096;

/// Why a runner could not be used. `runner` fields name it (`php runner`).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RunnerError {
    /// No interpreter where we looked.
    #[error(transparent)]
    NotFound(#[from] crate::discover::ProgramError),
    /// The runner's files could not be written, found or built.
    #[error(transparent)]
    Script(#[from] crate::script::ScriptError),
    /// The process could not be started.
    #[error("{0}")]
    Spawn(String),
    /// No answer within the deadline: the runner was killed.
    #[error("{runner} did not answer `{op}` within {secs:.0} s; it was killed (pid {pid})")]
    Timeout {
        /// Which runner.
        runner: String,
        /// The request that went unanswered.
        op: String,
        /// The deadline, seconds.
        secs: f64,
        /// The killed process.
        pid: u32,
    },
    /// A stop was requested (Ctrl-C) while waiting: the runner was killed.
    #[error("interrupted while {runner} worked on `{op}`; it was killed (pid {pid})")]
    Interrupted {
        /// Which runner.
        runner: String,
        /// The request in flight.
        op: String,
        /// The killed process.
        pid: u32,
    },
    /// The runner exited (or closed stdout) while we waited.
    #[error("{runner} exited unexpectedly during `{op}` ({status}); stderr: {stderr}")]
    Crashed {
        /// Which runner.
        runner: String,
        /// The request in flight.
        op: String,
        /// Exit status as text.
        status: String,
        /// The last lines it wrote to stderr.
        stderr: String,
    },
    /// The runner answered something that is not the protocol.
    #[error("{0}")]
    Protocol(String),
    /// The runner answered `{"ok":false,"error":...}`; the text names the
    /// runtime and quotes its error.
    #[error("{0}")]
    Refused(String),
}

impl RunnerError {
    /// Whether this error only reports a requested stop.
    pub fn is_interrupted(&self) -> bool {
        matches!(self, Self::Interrupted { .. })
    }
}

/// How to start a runner.
#[derive(Debug, Clone, PartialEq)]
pub struct RunnerCommand {
    /// The runtime's name (`php`), used in messages.
    pub runtime: String,
    /// The interpreter or the runner executable.
    pub program: PathBuf,
    /// Its arguments: normally just the runner script.
    pub args: Vec<OsString>,
    /// Variables the runner needs beside the ones it inherits.
    pub env: Vec<(&'static str, &'static str)>,
    /// Deadline for an answer (a request may ask for more).
    pub timeout: Duration,
}

impl RunnerCommand {
    fn label(&self) -> String {
        format!("{} runner", self.runtime)
    }
}

/// One live runner process.
pub struct Runner {
    label: String,
    runtime: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<String>>,
    timeout: Duration,
    stop: fn() -> bool,
    /// Set once the process is known to be gone (killed or exited).
    dead: Option<RunnerError>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("runtime", &self.runtime)
            .field("pid", &self.child.id())
            .field("dead", &self.dead)
            .finish()
    }
}

impl Runner {
    /// Starts the runner; its requests end early when the engine's stop
    /// flag is set.
    pub fn spawn(cmd: &RunnerCommand) -> Result<Self, RunnerError> {
        Self::spawn_with_stop(cmd, cryptobench_engine::sample::interrupt::stop_requested)
    }

    /// Starts the runner with its own stop check, polled while waiting.
    pub fn spawn_with_stop(cmd: &RunnerCommand, stop: fn() -> bool) -> Result<Self, RunnerError> {
        let label = cmd.label();
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .envs(cmd.env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                RunnerError::Spawn(format!(
                    "{label} could not be started: {}: {e}",
                    cmd.program.display()
                ))
            })?;
        let stdin = child.stdin.take();
        let (Some(stdout), Some(mut err_pipe)) = (child.stdout.take(), child.stderr.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(RunnerError::Spawn(format!(
                "{label} could not be started: no pipes"
            )));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        // Drained all the time so a chatty runner never blocks on a full pipe.
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                s.push_str(&String::from_utf8_lossy(&buf[..n]));
                if s.len() > 2 * STDERR_KEEP {
                    let mut cut = s.len() - STDERR_KEEP;
                    while !s.is_char_boundary(cut) {
                        cut += 1;
                    }
                    s.drain(..cut);
                }
            }
        });
        Ok(Self {
            label,
            runtime: cmd.runtime.clone(),
            child,
            stdin,
            lines,
            stderr,
            timeout: cmd.timeout,
            stop,
            dead: None,
        })
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process is known to be gone.
    pub fn is_dead(&self) -> bool {
        self.dead.is_some()
    }

    /// The default deadline of this runner.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sends one request and waits for its answer within the default deadline.
    pub fn request(&mut self, msg: &Value) -> Result<Value, RunnerError> {
        self.request_within(msg, self.timeout)
    }

    /// Sends one request and waits at most `deadline` for the answer. An
    /// answer with `"ok": false` becomes [`RunnerError::Refused`].
    pub fn request_within(
        &mut self,
        msg: &Value,
        deadline: Duration,
    ) -> Result<Value, RunnerError> {
        if let Some(e) = &self.dead {
            return Err(e.clone());
        }
        let op = msg
            .get("op")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        if (self.stop)() {
            return Err(self.die_interrupted(op));
        }
        let line = format!("{msg}\n");
        let written = match self.stdin.as_mut() {
            Some(w) => w.write_all(line.as_bytes()).and_then(|()| w.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if written.is_err() {
            return Err(self.crashed(&op));
        }
        let start = Instant::now();
        let answer = loop {
            let left = deadline.saturating_sub(start.elapsed());
            if left.is_zero() {
                let pid = self.child.id();
                self.kill();
                let e = RunnerError::Timeout {
                    runner: self.label.clone(),
                    op,
                    secs: deadline.as_secs_f64(),
                    pid,
                };
                self.dead = Some(e.clone());
                return Err(e);
            }
            match self.lines.recv_timeout(left.min(STOP_POLL)) {
                Ok(Ok(l)) if l.trim().is_empty() => continue,
                Ok(Ok(l)) => break l,
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.crashed(&op)),
                Err(RecvTimeoutError::Timeout) if (self.stop)() => {
                    return Err(self.die_interrupted(op))
                }
                Err(RecvTimeoutError::Timeout) => continue,
            }
        };
        let v: Value = serde_json::from_str(&answer).map_err(|e| {
            RunnerError::Protocol(format!(
                "{} protocol error: answer to `{op}` is not JSON ({e}): {answer:.200}",
                self.label
            ))
        })?;
        match v.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(v),
            Some(false) => Err(RunnerError::Refused(format!(
                "{}: {}",
                self.runtime,
                v.get("error")
                    .and_then(Value::as_str)
                    .unwrap_or("unspecified error")
            ))),
            None => Err(RunnerError::Protocol(format!(
                "{} protocol error: answer to `{op}` has no \"ok\" field: {answer:.200}",
                self.label
            ))),
        }
    }

    fn die_interrupted(&mut self, op: String) -> RunnerError {
        let pid = self.child.id();
        self.kill();
        let e = RunnerError::Interrupted {
            runner: self.label.clone(),
            op,
            pid,
        };
        self.dead = Some(e.clone());
        e
    }

    /// Collects why the process is gone (waiting briefly for its status).
    fn crashed(&mut self, op: &str) -> RunnerError {
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s.to_string(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Ok(None) => {
                    self.kill();
                    break "closed its output; killed".to_string();
                }
                Err(e) => break format!("status unknown: {e}"),
            }
        };
        // Give the stderr reader a moment to catch the last words.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.stderr_tail();
        let e = RunnerError::Crashed {
            runner: self.label.clone(),
            op: op.to_string(),
            status,
            stderr: if tail.is_empty() {
                "(empty)".into()
            } else {
                tail
            },
        };
        self.dead = Some(e.clone());
        e
    }

    /// The last lines the runner wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let s = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let t = s.trim();
        let from = t.len().saturating_sub(600);
        let mut cut = from;
        while !t.is_char_boundary(cut) {
            cut += 1;
        }
        t[cut..].to_string()
    }

    fn kill(&mut self) {
        self.stdin = None;
        // SIGKILL: also ends a stopped process, which SIGTERM would not.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // End of input tells a healthy runner to exit; a busy, hung or
        // stopped one is killed after a second.
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => {
                    self.kill();
                    return;
                }
            }
        }
    }
}
