//! Every file cryptobench writes goes through here.
//!
//! A typo in `-o`, `--out` or `--to` must never cost the user a file they
//! care about, least of all the results database. So an output:
//!
//! - is never the open database nor any SQLite file (sniffed by its 16-byte
//!   header), whatever `--force` says;
//! - replaces an existing file only when cryptobench wrote it (its first
//!   bytes carry one of [`MARKERS`]) or the user passed `--force`; a secret
//!   key is never replaced without `--force`;
//! - is written to a temporary file in the same directory, synced, then
//!   renamed over the target, so a full disk or a crash leaves the previous
//!   file whole;
//! - is created `0600` when it holds a secret.
//!
//! [`distinct`] makes two outputs that name one file a usage error, and
//! [`probe_dir`] proves a directory writable by really creating a file
//! there (permission bits say nothing when running as root).

use cryptobench_core::input::kind_of as file_kind;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// The first 16 bytes of every SQLite 3 database file.
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The generator tag the HTML report carries in its `<head>`.
pub const HTML_GENERATOR: &str = "<meta name=\"generator\" content=\"cryptobench\">";

/// Text that, found near the start of a file, shows cryptobench wrote it:
/// a JSON export, an ElGamal key or ciphertext file, the HTML report, a
/// Markdown export and a CSV export (its header line).
pub const MARKERS: [&str; 5] = [
    "\"schema\": \"cryptobench/",
    "\"format\": \"cryptobench-",
    HTML_GENERATOR,
    "# cryptobench run ",
    "suite,primitive,backend,backend_version,operation,",
];

/// How many leading bytes are searched for a marker.
const SNIFF_BYTES: usize = 2048;

/// How many leading bytes are read: a secret key file says it is one
/// before its (long) key fields end.
const HEAD_BYTES: u64 = 64 << 10;

/// Why an output was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The path is the results database in use.
    #[error("refusing to write {}: it is the results database this command uses (or one of its SQLite side files); choose another file name", path.display())]
    Database {
        /// The path named as output.
        path: PathBuf,
    },
    /// The path is an SQLite database or one of its side files.
    #[error("refusing to write {}: it is {what}, not an output of cryptobench; no SQLite file is ever written, --force or not; choose another file name", path.display())]
    SqliteFile {
        /// The path named as output.
        path: PathBuf,
        /// An SQLite database, or which side file of which database.
        what: String,
    },
    /// Not a regular file: a device, FIFO, socket, directory or a symlink to one.
    #[error("refusing to write {}: it is {kind}; an output is a regular file or a new path (or - for stdout)", path.display())]
    NotRegular {
        /// The path named as output.
        path: PathBuf,
        /// What it is.
        kind: String,
    },
    /// The file exists and cryptobench did not write it.
    #[error("refusing to overwrite {}: the file exists and was not written by cryptobench; choose another name, or pass --force to replace it", path.display())]
    NotOurs {
        /// The existing file.
        path: PathBuf,
    },
    /// A secret key file exists already.
    #[error("refusing to overwrite the existing key file {}: its secret key would be lost; choose another name, or pass --force to replace it", path.display())]
    SecretExists {
        /// The existing key file.
        path: PathBuf,
    },
    /// A secret key file would be replaced by something that is no key.
    #[error("refusing to overwrite {}: it holds a secret key, which only `keygen --force` may replace; choose another file name", path.display())]
    KeyFile {
        /// The existing key file.
        path: PathBuf,
    },
    /// Two outputs of one command name the same file.
    #[error("{first} and {second} both name {}{how}: each output needs its own file", path.display())]
    SamePath {
        /// The first option naming it.
        first: String,
        /// The second option naming it.
        second: String,
        /// The file.
        path: PathBuf,
        /// How they are one file (empty, or " (hard links to one file)").
        how: &'static str,
    },
    /// The file could not be written (missing directory, permissions, disk full).
    #[error("cannot write {}: {detail}", path.display())]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
}

/// Who may read the file written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Ordinary output (mode 0666 less the umask); never replaces a key file.
    Public,
    /// A secret: mode 0600, and never replaces an existing file without
    /// `--force`; the only output that may replace a secret key file.
    Secret,
}

/// The rules of one command's outputs.
#[derive(Debug, Clone, Default)]
pub struct Outputs {
    force: bool,
    database: Option<PathBuf>,
}

impl Outputs {
    /// `force` is the user's `--force`; `database` the open results database.
    pub fn new(force: bool, database: Option<&Path>) -> Self {
        Self {
            force,
            database: database.map(normalize),
        }
    }

    /// Whether `path` may be written, without writing it: the check made
    /// before anything is measured. Nothing it looks at can block: the
    /// type is read before any open, and the open is non-blocking.
    pub fn check(&self, path: &Path, access: Access) -> Result<(), OutputError> {
        let unwritable = |detail: String| OutputError::Unwritable {
            path: path.to_path_buf(),
            detail,
        };
        if self.is_database(path) {
            return Err(OutputError::Database {
                path: path.to_path_buf(),
            });
        }
        let dir = parent_dir(path);
        if !dir.is_dir() {
            return Err(unwritable(format!(
                "the directory {} does not exist",
                dir.display()
            )));
        }
        if let Some(what) = sqlite_side_file(path) {
            return Err(OutputError::SqliteFile {
                path: path.to_path_buf(),
                what,
            });
        }
        let not_regular = |kind: String| OutputError::NotRegular {
            path: path.to_path_buf(),
            kind,
        };
        let link = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(unwritable(e.to_string())),
        };
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(not_regular("a symbolic link to a missing file".into()))
            }
            Err(e) => return Err(unwritable(e.to_string())),
        };
        if !meta.is_file() {
            let kind = file_kind(&meta.file_type());
            return Err(not_regular(if link.file_type().is_symlink() {
                format!("a symbolic link to {kind}")
            } else {
                kind.to_string()
            }));
        }
        let head = read_head(path).map_err(|e| match e {
            HeadError::NotRegular(kind) => not_regular(kind.to_string()),
            HeadError::Io(e) => unwritable(format!("cannot read it: {e}")),
        })?;
        if let Some(what) = sqlite_kind(&head) {
            return Err(OutputError::SqliteFile {
                path: path.to_path_buf(),
                what: what.into(),
            });
        }
        if holds_secret(&head) {
            return match (access, self.force) {
                (Access::Secret, true) => Ok(()),
                (Access::Secret, false) => Err(OutputError::SecretExists {
                    path: path.to_path_buf(),
                }),
                (Access::Public, _) => Err(OutputError::KeyFile {
                    path: path.to_path_buf(),
                }),
            };
        }
        if self.force || head.is_empty() {
            return Ok(());
        }
        match access {
            Access::Secret => Err(OutputError::SecretExists {
                path: path.to_path_buf(),
            }),
            Access::Public if written_by_cryptobench(&head) => Ok(()),
            Access::Public => Err(OutputError::NotOurs {
                path: path.to_path_buf(),
            }),
        }
    }

    /// The database itself or one of SQLite's files beside it (its
    /// write-ahead log, shared memory index or rollback journal).
    fn is_database(&self, path: &Path) -> bool {
        let Some(db) = &self.database else {
            return false;
        };
        let wanted = normalize(path);
        SQLITE_SUFFIXES.iter().chain([&""]).any(|suffix| {
            let mut name = db.as_os_str().to_owned();
            name.push(suffix);
            wanted == Path::new(&name)
        })
    }

    /// Checks `path`, then replaces it atomically with `bytes`.
    pub fn write(&self, path: &Path, bytes: &[u8], access: Access) -> Result<(), OutputError> {
        self.check(path, access)?;
        replace_with(path, access, |f| f.write_all(bytes))
    }
}

/// The names SQLite gives the files beside a database.
const SQLITE_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// `Some(what)` when `path` is named as a side file of an SQLite database
/// that exists beside it: such a file is refused even empty.
fn sqlite_side_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    SQLITE_SUFFIXES.iter().find_map(|suffix| {
        let base = name.strip_suffix(suffix).filter(|b| !b.is_empty())?;
        let base_path = parent_dir(path).join(base);
        let head = read_head(&base_path).ok()?;
        head.starts_with(SQLITE_MAGIC).then(|| {
            format!(
                "the {} file of the SQLite database {}",
                &suffix[1..],
                base_path.display()
            )
        })
    })
}

/// What an SQLite file is, by its first bytes: a database, a write-ahead
/// log or a rollback journal.
fn sqlite_kind(head: &[u8]) -> Option<&'static str> {
    const WAL: [[u8; 4]; 2] = [[0x37, 0x7f, 0x06, 0x82], [0x37, 0x7f, 0x06, 0x83]];
    const JOURNAL: [u8; 8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
    if head.starts_with(SQLITE_MAGIC) {
        Some("an SQLite database")
    } else if WAL.iter().any(|m| head.starts_with(m)) {
        Some("an SQLite write-ahead log")
    } else if head.starts_with(&JOURNAL) {
        Some("an SQLite rollback journal")
    } else {
        None
    }
}

/// Whether a file cryptobench wrote holds a secret: a pubkey or ElGamal
/// secret key file, or a file carrying a shared secret.
pub fn holds_secret(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let ours = [
        "\"format\": \"cryptobench-pubkey/",
        "\"format\": \"cryptobench-elgamal-key/",
    ]
    .iter()
    .any(|m| text.contains(m));
    ours && [
        "\"kind\": \"secret\"",
        "\"secret\":",
        "\"secret_key\":",
        "\"shared_secret\":",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// Whether the start of a file carries one of cryptobench's [`MARKERS`].
pub fn written_by_cryptobench(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&head[..head.len().min(SNIFF_BYTES)]);
    MARKERS.iter().any(|m| text.contains(m))
}

/// A usage error when two outputs (`(option, path)` pairs) name one file,
/// by spelling or, for files that exist, by device and inode (hard links).
pub fn distinct<'a>(
    outputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), OutputError> {
    // Option, spelling, and device and inode when the file exists.
    type Seen<'a> = (&'a str, PathBuf, Option<(u64, u64)>);
    let mut seen: Vec<Seen<'_>> = Vec::new();
    for (option, path) in outputs {
        let key = normalize(path);
        let id = file_id(path);
        let same = seen.iter().find_map(|(first, p, i)| {
            if *p == key {
                Some((first, ""))
            } else if id.is_some() && *i == id {
                Some((first, " (hard links to one file)"))
            } else {
                None
            }
        });
        if let Some((first, how)) = same {
            return Err(OutputError::SamePath {
                first: first.to_string(),
                second: option.to_string(),
                path: path.to_path_buf(),
                how,
            });
        }
        seen.push((option, key, id));
    }
    Ok(())
}

/// Device and inode of an existing file.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Proves that files can be created in `dir` by creating and removing one.
pub fn probe_dir(dir: &Path) -> Result<(), OutputError> {
    let probe = temp_name(&dir.join("probe"));
    let made = OpenOptions::new().write(true).create_new(true).open(&probe);
    match made {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(OutputError::Unwritable {
            path: dir.to_path_buf(),
            detail: format!("cannot create files in this directory: {e}"),
        }),
    }
}

/// Writes a new version of `path` through `fill` into a temporary file
/// beside it, syncs it and renames it over `path`. On any error the
/// temporary file is removed and `path` is as it was.
pub(crate) fn replace_with(
    path: &Path,
    access: Access,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    let unwritable = |e: std::io::Error| OutputError::Unwritable {
        path: path.to_path_buf(),
        detail: e.to_string(),
    };
    let temp = temp_name(path);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if access == Access::Secret {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = access;
    let mut file = options.open(&temp).map_err(unwritable)?;
    let written = fill(&mut file)
        .and_then(|()| file.flush())
        .and_then(|()| file.sync_all());
    drop(file);
    if let Err(e) = written.and_then(|()| std::fs::rename(&temp, path)) {
        let _ = std::fs::remove_file(&temp);
        return Err(unwritable(e));
    }
    // The rename itself is durable once the directory is synced.
    if let Ok(d) = File::open(parent_dir(path)) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `.NAME.PID-N.tmp` beside `path`: hidden, unique within this process.
fn temp_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    parent_dir(path).join(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

enum HeadError {
    NotRegular(&'static str),
    Io(std::io::Error),
}

/// The first [`HEAD_BYTES`] of a regular file, opened without blocking
/// (a FIFO swapped in after the type was looked at is refused, not waited on).
fn read_head(path: &Path) -> Result<Vec<u8>, HeadError> {
    let file = cryptobench_core::input::open_regular(path).map_err(|e| match e {
        cryptobench_core::input::OpenError::NotRegular(kind) => HeadError::NotRegular(kind),
        cryptobench_core::input::OpenError::Io(e) => HeadError::Io(e),
    })?;
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    file.take(HEAD_BYTES)
        .read_to_end(&mut head)
        .map_err(HeadError::Io)?;
    Ok(head)
}

/// One spelling per file: the canonical directory plus the file name, so
/// `./a.json`, `a.json` and `dir/../a.json` compare equal even before the
/// file exists.
fn normalize(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let dir = parent_dir(path);
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match path.file_name() {
        Some(name) => dir.join(name),
        None => dir,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_database_sqlite_and_foreign_files() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("results.db");
        std::fs::write(&db, b"SQLite format 3\0rest of a database").unwrap();
        let other_db = dir.path().join("other.sqlite");
        std::fs::write(&other_db, b"SQLite format 3\0another").unwrap();
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, b"my notes").unwrap();

        let outputs = Outputs::new(false, Some(&db));
        let forced = Outputs::new(true, Some(&db));
        let rel_db = dir.path().join(".").join("results.db");
        let refusal = |o: &Outputs, path: &Path| o.write(path, b"x", Access::Public).unwrap_err();
        for o in [&outputs, &forced] {
            assert!(matches!(refusal(o, &rel_db), OutputError::Database { .. }));
            assert!(matches!(
                refusal(o, &other_db),
                OutputError::SqliteFile { .. }
            ));
        }
        let wal = dir.path().join("results.db-wal");
        assert!(matches!(
            refusal(&forced, &wal),
            OutputError::Database { .. }
        ));
        assert!(matches!(
            refusal(&outputs, &notes),
            OutputError::NotOurs { .. }
        ));
        assert_eq!(std::fs::read(&notes).unwrap(), b"my notes");
        assert!(std::fs::read(&db).unwrap().starts_with(SQLITE_MAGIC));
        forced.write(&notes, b"replaced", Access::Public).unwrap();
        assert_eq!(std::fs::read(&notes).unwrap(), b"replaced");
    }

    #[test]
    fn replaces_its_own_files_but_never_a_secret_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let export = dir.path().join("run.json");
        std::fs::write(&export, b"{\n  \"schema\": \"cryptobench/1\",\n}").unwrap();
        let outputs = Outputs::new(false, None);
        outputs.write(&export, b"new", Access::Public).unwrap();
        assert_eq!(std::fs::read(&export).unwrap(), b"new");

        let key = dir.path().join("k.json");
        std::fs::write(&key, b"{\"format\": \"cryptobench-elgamal-key/1\"}").unwrap();
        assert!(matches!(
            outputs.write(&key, b"other key", Access::Secret),
            Err(OutputError::SecretExists { .. })
        ));
        Outputs::new(true, None)
            .write(&key, b"other key", Access::Secret)
            .unwrap();
        assert_eq!(std::fs::read(&key).unwrap(), b"other key");
    }

    #[cfg(unix)]
    #[test]
    fn secrets_are_created_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("k.json");
        Outputs::new(false, None)
            .write(&key, b"secret", Access::Secret)
            .unwrap();
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_failed_write_leaves_the_previous_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("prev.html");
        let previous = format!(
            "<html><head>{HTML_GENERATOR}</head>{}</html>",
            "x".repeat(20_000)
        );
        std::fs::write(&report, &previous).unwrap();
        let err = replace_with(&report, Access::Public, |f| {
            f.write_all(&[b'y'; 4096])?;
            Err(std::io::Error::from_raw_os_error(28)) // ENOSPC
        })
        .unwrap_err();
        assert!(matches!(err, OutputError::Unwritable { .. }), "{err}");
        assert_eq!(std::fs::read_to_string(&report).unwrap(), previous);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "the temporary file was removed");
    }

    #[test]
    fn two_outputs_naming_one_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("k.json");
        let same = dir.path().join(".").join("k.json");
        let b = dir.path().join("k.pub.json");
        distinct([("--out", a.as_path()), ("--public", b.as_path())]).unwrap();
        let err = distinct([("--out", a.as_path()), ("--public", same.as_path())]).unwrap_err();
        assert!(err.to_string().contains("--out and --public"), "{err}");
        std::fs::write(&a, b"x").unwrap();
        let link = dir.path().join("other-name.json");
        std::fs::hard_link(&a, &link).unwrap();
        let err = distinct([("--out", a.as_path()), ("--public", link.as_path())]).unwrap_err();
        assert!(err.to_string().contains("hard links"), "{err}");
    }

    #[test]
    fn probe_tells_a_missing_directory() {
        let dir = tempfile::tempdir().unwrap();
        probe_dir(dir.path()).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(probe_dir(&dir.path().join("absent")).is_err());
    }
}
