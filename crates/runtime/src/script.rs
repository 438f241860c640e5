//! Runner scripts compiled into the binary and written, at run time, to a
//! private cache directory, so a binary copied anywhere still runs its
//! runtimes without the source tree.
//!
//! The directory is `$XDG_CACHE_HOME/cryptobench/runners/<content-hash>/`
//! (else `$HOME/.cache/...`), created 0700 so no other user can swap the
//! script between our write and the interpreter's read; [`crate::cache`]
//! refuses a path there that another user could change. The file is
//! written to a temporary name and renamed into place, so a concurrent run
//! never reads half a script; an existing file is reused only when its
//! bytes are exactly the embedded ones, and rewritten otherwise.

use crate::cache;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a runner could not be written, found or built.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ScriptError {
    /// Neither `XDG_CACHE_HOME` nor `HOME` is an absolute path.
    #[error(
        "no cache directory for the runner scripts: set XDG_CACHE_HOME or HOME to an absolute path"
    )]
    NoCacheDir,
    /// A file system step failed.
    #[error("cannot {action} {} for the runner script: {reason}", path.display())]
    Io {
        /// What we tried (`create`, `write`, `make private`).
        action: &'static str,
        /// Where.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// A path in the runner cache that another user could change (or
    /// that is not what we left there): refused, untouched.
    #[error(
        "refusing the runner cache: {} {problem}; remove it, or set XDG_CACHE_HOME to a directory only you can write (docs/security.md)",
        path.display()
    )]
    Unsafe {
        /// The entry refused.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// An override names a runner script that is not a file.
    #[error("{runtime} runner script not found: {env_override}={} is not a file", path.display())]
    NotAFile {
        /// The runtime (`php`).
        runtime: &'static str,
        /// The override variable.
        env_override: &'static str,
        /// The path it names.
        path: PathBuf,
    },
    /// The toolchain that builds a compiled runner did not start.
    #[error("{command} could not start ({}): {reason}", program.display())]
    BuildNotStarted {
        /// The build command (`go build`).
        command: &'static str,
        /// The toolchain's path.
        program: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// The build of a compiled runner failed.
    #[error("{command} of the runner failed ({status}): {stderr}; install {install}")]
    BuildFailed {
        /// The build command (`go build`).
        command: &'static str,
        /// Its exit status.
        status: String,
        /// The first lines of its error output.
        stderr: String,
        /// The packages that make the build work.
        install: &'static str,
    },
}

impl ScriptError {
    pub(crate) fn io(action: &'static str, path: &Path, e: std::io::Error) -> Self {
        Self::Io {
            action,
            path: path.to_path_buf(),
            reason: e.to_string(),
        }
    }
}

/// Runs a compiled runner's build, `cmd` (`command` names it in errors,
/// `program` is its toolchain); a failed build is reported with the first
/// lines of its error output and the packages that make it work.
pub(crate) fn run_build(
    cmd: &mut std::process::Command,
    command: &'static str,
    program: &Path,
    install: &'static str,
) -> Result<(), ScriptError> {
    let out = cmd.output().map_err(|e| ScriptError::BuildNotStarted {
        command,
        program: program.to_path_buf(),
        reason: e.to_string(),
    })?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(ScriptError::BuildFailed {
        command,
        status: out.status.to_string(),
        stderr: stderr
            .trim()
            .lines()
            .take(4)
            .collect::<Vec<_>>()
            .join(" / "),
        install,
    })
}

/// A runner script carried inside the binary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddedScript {
    /// File name inside the cache directory (`runner.php`).
    pub file_name: &'static str,
    /// The script itself.
    pub content: &'static str,
}

/// The [`EmbeddedScript`] of the repository's file `folder/name`, cached
/// under its own name.
macro_rules! embedded {
    ($folder:literal, $name:literal) => {
        $crate::script::EmbeddedScript {
            file_name: $name,
            content: include_str!(concat!("../../../", $folder, "/", $name)),
        }
    };
}
pub(crate) use embedded;

/// The cache root: `xdg_cache_home` when it is an absolute path, else
/// `home/.cache`.
pub fn cache_root(
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
) -> Result<PathBuf, ScriptError> {
    if let Some(x) = xdg_cache_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        return Ok(x);
    }
    match home.map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(h) => Ok(h.join(".cache")),
        None => Err(ScriptError::NoCacheDir),
    }
}

/// FNV-1a, 64 bits: a content address for the directory name. Reuse also
/// compares the bytes, so a collision costs a rewrite, never a wrong script.
fn content_hash(bytes: &[u8]) -> u64 {
    cryptobench_core::verdict::fnv1a(bytes)
}

impl EmbeddedScript {
    /// The script's path in this process's cache directory, written there
    /// first when missing or different.
    pub fn install(&self) -> Result<PathBuf, ScriptError> {
        let root = cache_root(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))?;
        self.install_in(&root)
    }

    /// The script's path under cache root `root`, written there first when
    /// missing or different.
    pub fn install_in(&self, root: &Path) -> Result<PathBuf, ScriptError> {
        let dir = private_dir(root, content_hash(self.content.as_bytes()))?;
        self.write_into(&dir)
    }

    /// Writes the script into `dir` unless it is there with these bytes.
    fn write_into(&self, dir: &Path) -> Result<PathBuf, ScriptError> {
        let path = dir.join(self.file_name);
        if cache::read_cached(&path)?.is_some_and(|b| b == self.content.as_bytes()) {
            return Ok(path);
        }
        cache::write_atomically(&path, self.content.as_bytes())?;
        Ok(path)
    }
}

/// `root/cryptobench/runners/<hash>/`, each created private (0700) when
/// missing and refused when another user could change it.
fn private_dir(root: &Path, hash: u64) -> Result<PathBuf, ScriptError> {
    let root = cache::secure_root(root)?;
    let ours = cache::private_subdir(&root, "cryptobench")?;
    let runners = cache::private_subdir(&ours, "runners")?;
    cache::private_subdir(&runners, &format!("{hash:016x}"))
}

/// Writes a runner made of several files (a Go module, say) into one
/// private cache directory named after all their names and bytes; returns
/// the directory.
pub fn install_all(files: &[EmbeddedScript]) -> Result<PathBuf, ScriptError> {
    let root = cache_root(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))?;
    install_all_in(&root, files)
}

/// [`install_all`] under cache root `root`.
pub fn install_all_in(root: &Path, files: &[EmbeddedScript]) -> Result<PathBuf, ScriptError> {
    let mut all = Vec::new();
    for f in files {
        all.extend_from_slice(f.file_name.as_bytes());
        all.push(0);
        all.extend_from_slice(f.content.as_bytes());
        all.push(0);
    }
    let dir = private_dir(root, content_hash(&all))?;
    for f in files {
        f.write_into(&dir)?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::Permissions;
    use std::os::unix::fs::PermissionsExt;

    const SCRIPT: EmbeddedScript = EmbeddedScript {
        file_name: "runner.txt",
        content: "echo hello\n",
    };

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777
    }

    #[test]
    fn the_script_is_written_privately_and_reused() {
        let root = tempfile::tempdir().expect("tempdir");
        let path = SCRIPT.install_in(root.path()).expect("install");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            SCRIPT.content
        );
        assert!(path.starts_with(root.path().join("cryptobench/runners")));
        assert_eq!(mode(path.parent().expect("dir")), 0o700);
        assert_eq!(mode(&root.path().join("cryptobench")), 0o700);
        // Reused as is: the same path and no leftover temporary files.
        let again = SCRIPT.install_in(root.path()).expect("reinstall");
        assert_eq!(again, path);
        let entries = std::fs::read_dir(path.parent().expect("dir"))
            .expect("list")
            .count();
        assert_eq!(entries, 1);
    }

    #[test]
    fn a_tampered_script_is_rewritten() {
        let root = tempfile::tempdir().expect("tempdir");
        let path = SCRIPT.install_in(root.path()).expect("install");
        std::fs::write(&path, "rm -rf /\n").expect("tamper");
        let again = SCRIPT.install_in(root.path()).expect("reinstall");
        assert_eq!(
            std::fs::read_to_string(again).expect("read"),
            SCRIPT.content
        );
    }

    #[test]
    fn different_content_gets_its_own_directory() {
        let root = tempfile::tempdir().expect("tempdir");
        let other = EmbeddedScript {
            content: "echo other\n",
            ..SCRIPT
        };
        let a = SCRIPT.install_in(root.path()).expect("a");
        let b = other.install_in(root.path()).expect("b");
        assert_ne!(a.parent(), b.parent());
    }

    #[test]
    fn a_runner_of_several_files_shares_one_directory() {
        let root = tempfile::tempdir().expect("tempdir");
        let other = EmbeddedScript {
            file_name: "go.mod",
            content: "module runner\n",
        };
        let dir = install_all_in(root.path(), &[SCRIPT, other]).expect("install");
        assert_eq!(
            std::fs::read_to_string(dir.join("go.mod")).expect("read"),
            "module runner\n"
        );
        assert!(dir.join(SCRIPT.file_name).is_file());
        assert_eq!(mode(&dir), 0o700);
        let changed = EmbeddedScript {
            content: "module other\n",
            ..other
        };
        let moved = install_all_in(root.path(), &[SCRIPT, changed]).expect("again");
        assert_ne!(dir, moved);
    }

    /// `root/cryptobench/runners/<hash of SCRIPT>`.
    fn script_dir(root: &Path) -> PathBuf {
        root.join("cryptobench/runners")
            .join(format!("{:016x}", content_hash(SCRIPT.content.as_bytes())))
    }

    fn refused(e: ScriptError, path: &Path, problem: &str) {
        let text = e.to_string();
        assert!(
            matches!(&e, ScriptError::Unsafe { path: p, .. } if p == path)
                && text.contains(problem)
                && text.contains("refusing the runner cache"),
            "{text}"
        );
    }

    #[test]
    fn a_symlinked_script_directory_is_refused_and_its_target_untouched() {
        let root = tempfile::tempdir().expect("tempdir");
        let elsewhere = tempfile::tempdir().expect("elsewhere");
        let victim = elsewhere.path().join(SCRIPT.file_name);
        std::fs::write(&victim, "the user's own file\n").expect("victim");
        std::fs::set_permissions(elsewhere.path(), Permissions::from_mode(0o755)).expect("chmod");
        let dir = script_dir(root.path());
        std::fs::create_dir_all(dir.parent().expect("runners")).expect("runners");
        std::os::unix::fs::symlink(elsewhere.path(), &dir).expect("plant the link");
        let e = SCRIPT.install_in(root.path()).unwrap_err();
        refused(e, &dir, "is a symbolic link");
        assert_eq!(
            std::fs::read_to_string(&victim).expect("read"),
            "the user's own file\n"
        );
        assert_eq!(mode(elsewhere.path()), 0o755);
    }

    #[test]
    fn a_symlinked_cache_directory_is_refused() {
        let root = tempfile::tempdir().expect("tempdir");
        let elsewhere = tempfile::tempdir().expect("elsewhere");
        let ours = root.path().join("cryptobench");
        std::os::unix::fs::symlink(elsewhere.path(), &ours).expect("plant the link");
        refused(
            SCRIPT.install_in(root.path()).unwrap_err(),
            &ours,
            "is a symbolic link",
        );
        assert_eq!(
            std::fs::read_dir(elsewhere.path()).expect("list").count(),
            0
        );
    }

    #[test]
    fn a_symlinked_script_is_refused_and_its_target_untouched() {
        let root = tempfile::tempdir().expect("tempdir");
        let elsewhere = tempfile::tempdir().expect("elsewhere");
        let victim = elsewhere.path().join("victim");
        std::fs::write(&victim, "keep\n").expect("victim");
        let dir = script_dir(root.path());
        std::fs::create_dir_all(&dir).expect("dirs");
        let script = dir.join(SCRIPT.file_name);
        std::os::unix::fs::symlink(&victim, &script).expect("plant the link");
        refused(
            SCRIPT.install_in(root.path()).unwrap_err(),
            &script,
            "is a symbolic link",
        );
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "keep\n");
    }

    #[test]
    fn a_group_writable_cache_directory_is_refused_and_left_as_is() {
        let root = tempfile::tempdir().expect("tempdir");
        let runners = root.path().join("cryptobench/runners");
        std::fs::create_dir_all(&runners).expect("dirs");
        std::fs::set_permissions(&runners, Permissions::from_mode(0o770)).expect("chmod");
        refused(
            SCRIPT.install_in(root.path()).unwrap_err(),
            &runners,
            "writable by its group or by every user (mode 0770)",
        );
        assert_eq!(mode(&runners), 0o770);
    }

    #[test]
    fn a_cache_directory_another_user_owns_is_refused_and_left_as_is() {
        let root = tempfile::tempdir().expect("tempdir");
        let runners = root.path().join("cryptobench/runners");
        std::fs::create_dir_all(&runners).expect("dirs");
        std::fs::set_permissions(&runners, Permissions::from_mode(0o700)).expect("chmod");
        // Handing a directory to another user takes root, as planting one
        // in someone's cache does: the tests run as root (make test).
        let nobody = 65534;
        std::os::unix::fs::chown(&runners, Some(nobody), Some(nobody))
            .expect("chown to nobody: run the tests as root");
        refused(
            SCRIPT.install_in(root.path()).unwrap_err(),
            &runners,
            &format!("is owned by uid {nobody}"),
        );
        assert_eq!(std::fs::read_dir(&runners).expect("read").count(), 0);
    }

    #[test]
    fn a_cache_root_others_may_change_is_refused() {
        let top = tempfile::tempdir().expect("tempdir");
        let shared = top.path().join("shared");
        std::fs::create_dir(&shared).expect("shared");
        std::fs::set_permissions(&shared, Permissions::from_mode(0o777)).expect("chmod");
        let root = shared.join("cache");
        refused(
            SCRIPT.install_in(&root).unwrap_err(),
            &shared,
            "writable by other users (mode 0777, not sticky)",
        );
        // Sticky, as /tmp: others may not rename what is ours in it.
        std::fs::set_permissions(&shared, Permissions::from_mode(0o1777)).expect("chmod");
        SCRIPT
            .install_in(&root)
            .expect("install under a sticky directory");
    }

    #[test]
    fn the_cache_root_follows_xdg_then_home() {
        assert_eq!(
            cache_root(Some("/x".into()), Some("/h".into())),
            Ok(PathBuf::from("/x"))
        );
        assert_eq!(
            cache_root(Some("relative".into()), Some("/h".into())),
            Ok(PathBuf::from("/h/.cache"))
        );
        assert!(cache_root(None, None).is_err());
    }
}
