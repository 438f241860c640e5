//! The runner cache as a trust boundary (docs/security.md).
//!
//! cryptobench executes what it finds in `<root>/cryptobench/runners/`, and
//! it may run as root. So every directory on that path must be one only
//! this user can change: the root and the directories above it owned by
//! this user or root and not writable by others (unless sticky, as /tmp),
//! and `cryptobench/`, `runners/` and `runners/<hash>/` real directories
//! (no symbolic link), owned by this user and writable by no one else.
//! Files are opened without following a symbolic link and must be regular
//! files of this user. Anything else is refused, untouched: nothing here
//! changes the mode of an entry it did not create.
//!
//! Compiled runners carry a record of their build beside them (SHA-256 of
//! the build's inputs and of the built file), checked before each use: an
//! artefact that does not match is built again, never started.

use crate::script::ScriptError;
use openssl::sha::Sha256;
use std::fs::{DirBuilder, File, Metadata, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The user every cache entry must belong to: the one running us.
fn me() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

fn refuse(path: &Path, problem: impl Into<String>) -> ScriptError {
    ScriptError::Unsafe {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

fn not_ours(m: &Metadata) -> String {
    format!(
        "is owned by uid {}, not by uid {} (the user running cryptobench)",
        m.uid(),
        me()
    )
}

/// The cache root, created private (0700) when missing, as a path without
/// symbolic links; refused when it or a directory above it could be
/// changed by another user.
pub(crate) fn secure_root(root: &Path) -> Result<PathBuf, ScriptError> {
    if std::fs::symlink_metadata(root).is_err() {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(root)
            .map_err(|e| ScriptError::io("create", root, e))?;
    }
    let real = std::fs::canonicalize(root).map_err(|e| ScriptError::io("resolve", root, e))?;
    for dir in real.ancestors() {
        let m = std::fs::metadata(dir).map_err(|e| ScriptError::io("inspect", dir, e))?;
        if !m.is_dir() {
            return Err(refuse(dir, "is not a directory"));
        }
        if m.uid() != me() && m.uid() != 0 {
            return Err(refuse(dir, format!("{} nor by root", not_ours(&m))));
        }
        if m.mode() & 0o022 != 0 && m.mode() & 0o1000 == 0 {
            return Err(refuse(
                dir,
                format!(
                    "is writable by other users (mode {:04o}, not sticky)",
                    m.mode() & 0o7777
                ),
            ));
        }
    }
    Ok(real)
}

/// Refuses a cache directory that is a symbolic link, not a directory,
/// not this user's or writable by its group or everyone.
pub(crate) fn check_dir(path: &Path) -> Result<(), ScriptError> {
    let m = std::fs::symlink_metadata(path).map_err(|e| ScriptError::io("inspect", path, e))?;
    if m.file_type().is_symlink() {
        let to = std::fs::read_link(path)
            .map(|t| format!(" to {}", t.display()))
            .unwrap_or_default();
        return Err(refuse(path, format!("is a symbolic link{to}")));
    }
    if !m.is_dir() {
        return Err(refuse(path, "is not a directory"));
    }
    if m.uid() != me() {
        return Err(refuse(path, not_ours(&m)));
    }
    if m.mode() & 0o022 != 0 {
        return Err(refuse(
            path,
            format!(
                "is writable by its group or by every user (mode {:04o})",
                m.mode() & 0o7777
            ),
        ));
    }
    Ok(())
}

/// `parent/name`, created private (0700) when missing, then checked as
/// [`check_dir`] does.
pub(crate) fn private_subdir(parent: &Path, name: &str) -> Result<PathBuf, ScriptError> {
    let dir = parent.join(name);
    match DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(ScriptError::io("create", &dir, e)),
    }
    check_dir(&dir)?;
    Ok(dir)
}

/// The bytes of a cached file, opened without following a symbolic link.
/// `None` when it is absent or writable by others (then it is replaced,
/// never used); refused when it is a link, not a regular file or not ours.
pub(crate) fn read_cached(path: &Path) -> Result<Option<Vec<u8>>, ScriptError> {
    let opened = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let mut file: File = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refuse(path, "is a symbolic link"))
        }
        Err(e) => return Err(ScriptError::io("open", path, e)),
    };
    let m = file
        .metadata()
        .map_err(|e| ScriptError::io("inspect", path, e))?;
    if !m.is_file() {
        return Err(refuse(path, "is not a regular file"));
    }
    if m.uid() != me() {
        return Err(refuse(path, not_ours(&m)));
    }
    if m.mode() & 0o022 != 0 {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(m.len() as usize);
    file.read_to_end(&mut bytes)
        .map_err(|e| ScriptError::io("read", path, e))?;
    Ok(Some(bytes))
}

/// SHA-256 of `bytes`, in hex.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(openssl::sha::sha256(bytes))
}

/// SHA-256 over named parts (name, then the part's own digest), in hex:
/// the digest of a build's inputs or of a directory of built files.
pub(crate) fn digest_parts<'a>(parts: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut h = Sha256::new();
    for (name, bytes) in parts {
        h.update(name.as_bytes());
        h.update(&[0]);
        h.update(&openssl::sha::sha256(bytes));
    }
    hex::encode(h.finish())
}

/// The digest of a built artefact: a file's SHA-256, or for a directory
/// (compiled classes) the digest of its files by name. `None` when it is
/// absent or not as a build leaves it (writable by others, a nested
/// directory); refused as [`read_cached`] and [`check_dir`] refuse.
pub(crate) fn artefact_digest(path: &Path) -> Result<Option<String>, ScriptError> {
    let m = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ScriptError::io("inspect", path, e)),
    };
    if !m.is_dir() {
        return Ok(read_cached(path)?.map(|b| sha256_hex(&b)));
    }
    check_dir(path)?;
    let mut names: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|e| ScriptError::io("list", path, e))? {
        let entry = entry.map_err(|e| ScriptError::io("list", path, e))?;
        match entry.file_name().into_string() {
            Ok(n) => names.push(n),
            Err(_) => return Ok(None),
        }
    }
    names.sort();
    let mut files = Vec::with_capacity(names.len());
    for n in &names {
        let p = path.join(n);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
            return Ok(None);
        }
        match read_cached(&p)? {
            Some(b) => files.push(b),
            None => return Ok(None),
        }
    }
    Ok(Some(digest_parts(
        names
            .iter()
            .map(String::as_str)
            .zip(files.iter().map(Vec::as_slice)),
    )))
}

/// Where the build record of artefact `name` in `dir` is kept.
fn record_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.build"))
}

fn record_text(inputs: &str, artefact: &str) -> String {
    format!("inputs sha256 {inputs}\nartefact sha256 {artefact}\n")
}

/// Whether artefact `name` in `dir` is the one built from `inputs` (a
/// digest of the build's inputs) and unchanged since. When it is not, it
/// is removed so the caller builds it again.
pub(crate) fn built_is_current(dir: &Path, name: &str, inputs: &str) -> Result<bool, ScriptError> {
    let path = dir.join(name);
    let Some(digest) = artefact_digest(&path)? else {
        return remove_artefact(&path).map(|()| false);
    };
    let recorded = read_cached(&record_path(dir, name))?;
    if recorded.as_deref() == Some(record_text(inputs, &digest).as_bytes()) {
        return Ok(true);
    }
    remove_artefact(&path).map(|()| false)
}

fn remove_artefact(path: &Path) -> Result<(), ScriptError> {
    let removed = match std::fs::symlink_metadata(path) {
        Err(_) => return Ok(()),
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
    };
    removed.map_err(|e| ScriptError::io("remove the stale", path, e))
}

/// Makes a freshly built artefact (a file or a directory of files, made by
/// us under a private name) private, and returns its digest.
pub(crate) fn seal_built(path: &Path) -> Result<String, ScriptError> {
    let private = |p: &Path, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode))
            .map_err(|e| ScriptError::io("make private", p, e))
    };
    if path.is_dir() {
        private(path, 0o700)?;
        for entry in std::fs::read_dir(path).map_err(|e| ScriptError::io("list", path, e))? {
            let p = entry.map_err(|e| ScriptError::io("list", path, e))?.path();
            private(&p, if p.is_dir() { 0o700 } else { 0o600 })?;
        }
    } else {
        private(path, 0o700)?;
    }
    artefact_digest(path)?.ok_or_else(|| refuse(path, "was not left as a build leaves it"))
}

/// Records that artefact `name` in `dir`, whose digest is `artefact`, was
/// built from `inputs`.
pub(crate) fn record_built(
    dir: &Path,
    name: &str,
    inputs: &str,
    artefact: &str,
) -> Result<(), ScriptError> {
    write_atomically(
        &record_path(dir, name),
        record_text(inputs, artefact).as_bytes(),
    )
}

/// Writes `bytes` to `path` (0600) through a new private file renamed into
/// place: a concurrent run never reads half of it, and a link planted at
/// the temporary name is never followed.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ScriptError> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(
        ".{name}.{}.{:?}.tmp",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_file(&tmp);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        });
    if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, path)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(ScriptError::io("write", path, e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_artefact_or_record_is_removed_for_a_new_build() {
        let dir = tempfile::tempdir().expect("tempdir");
        let runner = dir.path().join("runner");
        assert!(!built_is_current(dir.path(), "runner", "in").expect("absent"));
        std::fs::write(&runner, b"\x7fELF built").expect("build");
        let digest = seal_built(&runner).expect("seal");
        record_built(dir.path(), "runner", "in", &digest).expect("record");
        assert!(built_is_current(dir.path(), "runner", "in").expect("current"));
        // Other inputs (new sources, another toolchain): built again.
        assert!(!built_is_current(dir.path(), "runner", "other").expect("stale"));
        assert!(!runner.exists());
        // The same inputs, but the file replaced: built again.
        std::fs::write(&runner, b"#!/bin/sh\necho tampered\n").expect("tamper");
        std::fs::set_permissions(&runner, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        assert!(!built_is_current(dir.path(), "runner", "in").expect("tampered"));
        assert!(!runner.exists(), "the tampered file is removed, never run");
    }

    #[test]
    fn a_directory_of_classes_is_digested_file_by_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let classes = dir.path().join("classes");
        std::fs::create_dir(&classes).expect("classes");
        std::fs::write(classes.join("Runner.class"), b"cafebabe").expect("class");
        let digest = seal_built(&classes).expect("seal");
        record_built(dir.path(), "classes", "in", &digest).expect("record");
        assert!(built_is_current(dir.path(), "classes", "in").expect("current"));
        std::fs::write(classes.join("Evil.class"), b"cafebabe").expect("add a class");
        assert!(!built_is_current(dir.path(), "classes", "in").expect("changed"));
        assert!(!classes.exists());
    }
}
