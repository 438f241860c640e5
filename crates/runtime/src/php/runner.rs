//! Where PHP and its runner are, and how one is started. The process
//! itself (requests with deadlines, Ctrl-C, kill on hang or drop) is the
//! runtime layer's [`Runner`].
//!
//! The runner script, php/runner.php with php/offers.php, is compiled into
//! the binary and written to the private cache directory on first use, so a binary copied
//! anywhere runs PHP rows; `CRYPTOBENCH_PHP_RUNNER` names another script.

use crate::discover::{Program, ProgramError};
use crate::script::{EmbeddedScript, ScriptError};
pub use crate::{Runner, RunnerCommand, RunnerError};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// Environment variable naming the php binary (default: `php` on `PATH`).
pub const ENV_PHP: &str = "CRYPTOBENCH_PHP";
/// Environment variable naming a runner script to use instead of the
/// embedded one.
pub const ENV_RUNNER: &str = "CRYPTOBENCH_PHP_RUNNER";
/// Environment variable overriding the answer deadline, in seconds.
pub const ENV_TIMEOUT: &str = "CRYPTOBENCH_PHP_TIMEOUT";
/// How long an answer to `hello`, `prepare` or `release` may take: prepare
/// runs the checks, which at 1 GiB Argon2 take tens of seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// The php interpreter.
pub const PROGRAM: Program = Program {
    runtime: crate::php::NAME,
    default_name: "php",
    env_override: ENV_PHP,
    install: "apt-get install php-cli",
};

/// PHP's own allocator off: PHP then takes its memory from glibc, under
/// the policy of every process cryptobench starts (blocks of 4 MiB or
/// more fresh from the kernel, smaller ones recycled:
/// `cryptobench_engine::host::heap`). PHP's allocator maps 2 MiB chunks
/// and keeps an emptied one or returns it by a rule that follows the
/// allocation history, which the order of the groups changes from run to
/// run: PHP's AES-128-OCB on 1 MiB took 127 us in one quick run and 474 us
/// in the next (a fresh 1 MiB output string is 256 page faults), and eleven
/// 1 MiB AEAD cases moved 1.2-3.6x between two runs. With glibc its 16 B
/// and 1 KB AEAD cases took 0-3% longer than with its own allocator, and
/// AES-128-GCM on 1 MiB 549-551 us in two runs (then on fresh pages every
/// time, under the earlier 128 KiB threshold).
pub const ENV: [(&str, &str); 1] = [("USE_ZEND_ALLOC", "0")];

/// php/runner.php and the hello it includes (php/offers.php), carried in
/// the binary and written together into one cache directory.
pub const FILES: [EmbeddedScript; 2] = [
    EmbeddedScript {
        file_name: "runner.php",
        content: include_str!("../../../../php/runner.php"),
    },
    EmbeddedScript {
        file_name: "offers.php",
        content: include_str!("../../../../php/offers.php"),
    },
];

/// The runner script: the one `CRYPTOBENCH_PHP_RUNNER` names (with its
/// offers.php beside it, as in the repository), else the embedded one
/// written to the cache directory.
pub fn runner_script() -> Result<PathBuf, RunnerError> {
    match std::env::var_os(ENV_RUNNER) {
        Some(p) if !p.is_empty() => {
            let p = PathBuf::from(p);
            if p.is_file() {
                Ok(p)
            } else {
                Err(ScriptError::NotAFile {
                    runtime: crate::php::NAME,
                    env_override: ENV_RUNNER,
                    path: p,
                }
                .into())
            }
        }
        _ => Ok(crate::script::install_all(&FILES)?.join(FILES[0].file_name)),
    }
}

/// Finds the php binary: `override_php` (a path or a bare name) or `php`,
/// searched on `path` like a shell would.
pub fn find_php(
    override_php: Option<OsString>,
    path: Option<OsString>,
) -> Result<PathBuf, ProgramError> {
    PROGRAM.find_in(override_php, path)
}

/// The command from the environment: `CRYPTOBENCH_PHP`, `PATH`,
/// `CRYPTOBENCH_PHP_RUNNER`, `CRYPTOBENCH_PHP_TIMEOUT`.
pub fn command_from_env() -> Result<RunnerCommand, RunnerError> {
    let php = PROGRAM.find()?;
    let script = runner_script()?;
    let timeout = std::env::var(ENV_TIMEOUT)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .map_or(DEFAULT_TIMEOUT, Duration::from_secs_f64);
    Ok(RunnerCommand {
        runtime: crate::php::NAME.into(),
        program: php,
        args: vec![script.into_os_string()],
        env: ENV.to_vec(),
        timeout,
    })
}
