//! Finding a runtime's interpreter or toolchain: an environment override
//! (a path or a bare name), else the default name searched on `PATH` the
//! way a shell would. A miss says how to install it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a runtime's program was not found; each says how to fix it.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ProgramError {
    /// The override names a path that is not an executable file.
    #[error("{runtime} not found: {env_override}={} is not an executable file", path.display())]
    NotExecutable {
        /// The runtime (`php`).
        runtime: &'static str,
        /// The override variable.
        env_override: &'static str,
        /// The path it names.
        path: PathBuf,
    },
    /// The override names a bare program that is not on `PATH`.
    #[error("{runtime} not found: {env_override}={name} is not on PATH")]
    OverrideNotOnPath {
        /// The runtime (`php`).
        runtime: &'static str,
        /// The override variable.
        env_override: &'static str,
        /// The name it gives.
        name: String,
    },
    /// The default program is not on `PATH`.
    #[error("{runtime} not found: install with `{install}` or set {env_override}")]
    NotInstalled {
        /// The runtime (`php`).
        runtime: &'static str,
        /// How to install it.
        install: &'static str,
        /// The override variable.
        env_override: &'static str,
    },
}

/// Where to look for one program.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Program {
    /// The runtime's name, as messages start (`php`).
    pub runtime: &'static str,
    /// The program's default name on `PATH` (`php`).
    pub default_name: &'static str,
    /// The environment variable that overrides it (`CRYPTOBENCH_PHP`).
    pub env_override: &'static str,
    /// How to install it (`apt-get install php-cli`).
    pub install: &'static str,
}

impl Program {
    /// Looks the program up from this process's environment.
    pub fn find(&self) -> Result<PathBuf, ProgramError> {
        self.find_in(
            std::env::var_os(self.env_override),
            std::env::var_os("PATH"),
        )
    }

    /// Looks up `override_name` (when set and not empty) or the default
    /// name: a name with a slash must be an executable file, a bare name is
    /// searched on `path`.
    pub fn find_in(
        &self,
        override_name: Option<OsString>,
        path: Option<OsString>,
    ) -> Result<PathBuf, ProgramError> {
        let wanted = override_name.filter(|p| !p.is_empty());
        let name = wanted
            .clone()
            .unwrap_or_else(|| OsString::from(self.default_name));
        let as_path = PathBuf::from(&name);
        if as_path.components().count() > 1 {
            return if is_executable(&as_path) {
                Ok(as_path)
            } else {
                Err(ProgramError::NotExecutable {
                    runtime: self.runtime,
                    env_override: self.env_override,
                    path: as_path,
                })
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
            Some(w) => ProgramError::OverrideNotOnPath {
                runtime: self.runtime,
                env_override: self.env_override,
                name: w.to_string_lossy().into_owned(),
            },
            None => ProgramError::NotInstalled {
                runtime: self.runtime,
                install: self.install,
                env_override: self.env_override,
            },
        })
    }
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SH: Program = Program {
        runtime: "sh",
        default_name: "sh-that-is-not-here",
        env_override: "CRYPTOBENCH_TEST_SH",
        install: "apt-get install dash",
    };

    #[test]
    fn a_miss_says_how_to_install() {
        let empty = tempfile::tempdir().expect("tempdir");
        let path = Some(empty.path().as_os_str().to_owned());
        let why = SH.find_in(None, path.clone()).unwrap_err().to_string();
        assert_eq!(
            why,
            "sh not found: install with `apt-get install dash` or set CRYPTOBENCH_TEST_SH"
        );
        let named = SH
            .find_in(Some("/nonexistent/bin/sh".into()), path.clone())
            .unwrap_err()
            .to_string();
        assert!(named.contains("is not an executable file"), "{named}");
        let bare = SH
            .find_in(Some("nope".into()), path)
            .unwrap_err()
            .to_string();
        assert!(
            bare.contains("CRYPTOBENCH_TEST_SH=nope is not on PATH"),
            "{bare}"
        );
    }

    #[test]
    fn an_override_is_searched_on_path() {
        let bin = Some(OsString::from("/bin"));
        assert_eq!(
            SH.find_in(Some("sh".into()), bin),
            Ok(PathBuf::from("/bin/sh"))
        );
    }
}
