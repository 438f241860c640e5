//! The PHP runner process: where it is, how it is started, and the JSON-lines
//! conversation with it.
//!
//! One [`Runner`] is one `php php/runner.php` child. Requests go one line at
//! a time on its stdin; answers come back one line at a time on its stdout,
//! read by a thread so that every wait has a deadline ([`Runner::request`]).
//! A runner that misses its deadline is killed; one that exits is reported
//! with its exit status and the tail of its stderr. Dropping a [`Runner`]
//! closes its stdin (the runner exits on end of input) and kills it if it
//! has not gone within a second, so no PHP process outlives its owner.

use serde_json::Value;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Environment variable naming the php binary (default: `php` on `PATH`).
pub const ENV_PHP: &str = "CRYPTOBENCH_PHP";
/// Environment variable naming the runner script.
pub const ENV_RUNNER: &str = "CRYPTOBENCH_PHP_RUNNER";
/// Environment variable overriding the answer deadline, in seconds.
pub const ENV_TIMEOUT: &str = "CRYPTOBENCH_PHP_TIMEOUT";
/// How long an answer to `hello`, `prepare` or `release` may take: prepare
/// runs the checks, which at 1 GiB Argon2 take tens of seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// How much of the runner's stderr is kept for error messages.
const STDERR_KEEP: usize = 4096;

/// Why the runner could not be used.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum RunnerError {
    /// No php binary (or no runner script) where we looked.
    #[error("{0}")]
    NotFound(String),
    /// The process could not be started.
    #[error("php runner could not be started: {0}")]
    Spawn(String),
    /// No answer within the deadline: the runner was killed.
    #[error("php runner did not answer `{op}` within {secs:.0} s; it was killed (pid {pid})")]
    Timeout {
        /// The request that went unanswered.
        op: String,
        /// The deadline, seconds.
        secs: f64,
        /// The killed process.
        pid: u32,
    },
    /// The runner exited (or closed stdout) while we waited.
    #[error("php runner exited unexpectedly during `{op}` ({status}); stderr: {stderr}")]
    Crashed {
        /// The request in flight.
        op: String,
        /// Exit status as text.
        status: String,
        /// The last lines it wrote to stderr.
        stderr: String,
    },
    /// The runner answered something that is not the protocol.
    #[error("php runner protocol error: {0}")]
    Protocol(String),
    /// The runner answered `{"ok":false,"error":...}`.
    #[error("php: {0}")]
    Php(String),
}

/// How to start a runner.
#[derive(Debug, Clone, PartialEq)]
pub struct RunnerCommand {
    /// The php binary.
    pub php: PathBuf,
    /// Arguments before nothing else: normally just the runner script.
    pub args: Vec<OsString>,
    /// Deadline for an answer (a `time` request may ask for more).
    pub timeout: Duration,
}

/// The runner script shipped with the workspace (`php/runner.php`), or the
/// one `CRYPTOBENCH_PHP_RUNNER` names.
pub fn runner_script() -> PathBuf {
    match std::env::var_os(ENV_RUNNER) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../php/runner.php"),
    }
}

/// Finds the php binary: `override_php` (a path or a bare name) or `php`,
/// searched on `path` like a shell would.
pub fn find_php(override_php: Option<OsString>, path: Option<OsString>) -> Result<PathBuf, String> {
    let wanted = override_php.filter(|p| !p.is_empty());
    let name = wanted.clone().unwrap_or_else(|| OsString::from("php"));
    let as_path = PathBuf::from(&name);
    if as_path.components().count() > 1 {
        return if is_executable(&as_path) {
            Ok(as_path)
        } else {
            Err(format!(
                "php not found: {ENV_PHP}={} is not an executable file",
                as_path.display()
            ))
        };
    }
    let dirs = path.unwrap_or_default();
    for dir in std::env::split_paths(&dirs) {
        let candidate = dir.join(&as_path);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    Err(match wanted {
        Some(w) => format!(
            "php not found: {ENV_PHP}={} is not on PATH",
            w.to_string_lossy()
        ),
        None => "php not found".to_string(),
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl RunnerCommand {
    /// The command from the environment: `CRYPTOBENCH_PHP`, `PATH`,
    /// `CRYPTOBENCH_PHP_RUNNER`, `CRYPTOBENCH_PHP_TIMEOUT`.
    pub fn from_env() -> Result<Self, RunnerError> {
        let php = find_php(std::env::var_os(ENV_PHP), std::env::var_os("PATH"))
            .map_err(RunnerError::NotFound)?;
        let script = runner_script();
        if !script.is_file() {
            return Err(RunnerError::NotFound(format!(
                "php runner script not found at {} (set {ENV_RUNNER})",
                script.display()
            )));
        }
        let timeout = std::env::var(ENV_TIMEOUT)
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .filter(|s| *s > 0.0)
            // Checked: a huge value must not panic; an hour is the ceiling.
            .and_then(|s| Duration::try_from_secs_f64(s.min(3600.0)).ok())
            .unwrap_or(DEFAULT_TIMEOUT);
        Ok(Self {
            php,
            args: vec![script.into_os_string()],
            timeout,
        })
    }
}

/// One live runner process.
pub struct Runner {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<String>>,
    timeout: Duration,
    /// Set once the process is known to be gone (killed or exited).
    dead: Option<RunnerError>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("pid", &self.child.id())
            .field("dead", &self.dead)
            .finish()
    }
}

impl Runner {
    /// Starts the runner.
    pub fn spawn(cmd: &RunnerCommand) -> Result<Self, RunnerError> {
        let mut child = Command::new(&cmd.php)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| RunnerError::Spawn(format!("{}: {e}", cmd.php.display())))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| RunnerError::Spawn("no stdout pipe".into()))?;
        let mut err_pipe = child
            .stderr
            .take()
            .ok_or_else(|| RunnerError::Spawn("no stderr pipe".into()))?;
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
            child,
            stdin,
            lines,
            stderr,
            timeout: cmd.timeout,
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
    /// answer with `"ok": false` becomes [`RunnerError::Php`].
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
            match self.lines.recv_timeout(left) {
                Ok(Ok(l)) if l.trim().is_empty() => continue,
                Ok(Ok(l)) => break l,
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Err(self.crashed(&op)),
                Err(RecvTimeoutError::Timeout) => {
                    let pid = self.child.id();
                    self.kill();
                    let e = RunnerError::Timeout {
                        op,
                        secs: deadline.as_secs_f64(),
                        pid,
                    };
                    self.dead = Some(e.clone());
                    return Err(e);
                }
            }
        };
        let v: Value = serde_json::from_str(&answer).map_err(|e| {
            RunnerError::Protocol(format!("answer to `{op}` is not JSON ({e}): {answer:.200}"))
        })?;
        match v.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(v),
            Some(false) => Err(RunnerError::Php(
                v.get("error")
                    .and_then(Value::as_str)
                    .unwrap_or("unspecified error")
                    .to_string(),
            )),
            None => Err(RunnerError::Protocol(format!(
                "answer to `{op}` has no \"ok\" field: {answer:.200}"
            ))),
        }
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
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // End of input tells a healthy runner to exit; a busy or hung one is
        // killed after a second.
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return;
                }
            }
        }
    }
}
