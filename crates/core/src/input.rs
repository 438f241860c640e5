//! Bounded reads of files and stdin.
//!
//! Every byte the tool reads from a user-named file or from stdin goes
//! through [`read_bounded`], so `--key /dev/zero` or `< /dev/zero` ends with
//! a usage error after the limit instead of filling memory. The limit is one
//! process-wide value (default [`DEFAULT_MAX_INPUT`], raised with the global
//! `--max-input SIZE`), set once by the binary before any command runs.
//! Buffers sized from user input come from [`zeroed`], which reports a
//! failed allocation instead of aborting.

use crate::units;
use crate::{CaseError, Error};
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default largest input: 64 MiB.
pub const DEFAULT_MAX_INPUT: u64 = 64 << 20;

static MAX_INPUT: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT);

/// Sets the largest input any read accepts (the global `--max-input`).
pub fn set_max_input(bytes: u64) {
    MAX_INPUT.store(bytes, Ordering::Relaxed);
}

/// The largest input any read accepts now.
pub fn max_input() -> u64 {
    MAX_INPUT.load(Ordering::Relaxed)
}

/// Reads all of `reader` up to `limit` bytes; one byte more is a usage error
/// naming `what` and how to raise the limit. Read failures are `Io`.
pub fn read_bounded_with(what: &str, reader: impl Read, limit: u64) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(format!("{what}: cannot read"), e))?;
    if buf.len() as u64 > limit {
        return Err(Error::usage(format!(
            "{what}: input is larger than {} (the limit for any file or stdin; raise it with --max-input SIZE)",
            units::format_size(limit)
        )));
    }
    Ok(buf)
}

/// [`read_bounded_with`] under the process-wide limit.
pub fn read_bounded(what: &str, reader: impl Read) -> Result<Vec<u8>, Error> {
    read_bounded_with(what, reader, max_input())
}

/// Why [`open_regular`] gave no file.
#[derive(Debug)]
pub enum OpenError {
    /// The path is no regular file: what it is, in words.
    NotRegular(&'static str),
    /// It could not be opened.
    Io(std::io::Error),
}

/// Opens `path` for reading when it is a regular file (or a symlink to
/// one), without ever blocking: a FIFO, device, socket or directory is
/// refused from its type before any open, and the open itself is
/// non-blocking, so one swapped in meanwhile is refused by `fstat`.
pub fn open_regular(path: &std::path::Path) -> Result<std::fs::File, OpenError> {
    let meta = std::fs::metadata(path).map_err(OpenError::Io)?;
    if !meta.is_file() {
        return Err(OpenError::NotRegular(kind_of(&meta.file_type())));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(OpenError::Io)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    if !meta.is_file() {
        return Err(OpenError::NotRegular(kind_of(&meta.file_type())));
    }
    Ok(file)
}

/// A file type in words.
pub fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Reads a user-named file under the process-wide limit. Only a regular
/// file is read (stdin is `-`, read by the caller): a FIFO, device, socket
/// or directory is a usage error at once, never a wait.
pub fn read_file(what: &str, path: &std::path::Path) -> Result<Vec<u8>, Error> {
    let file = open_regular(path).map_err(|e| match e {
        OpenError::NotRegular(kind) => Error::usage(format!(
            "{what} {}: is {kind}, not a regular file; give a file, or - for standard input where the command reads it",
            path.display()
        )),
        OpenError::Io(e) => Error::usage(format!(
            "{what} {}: cannot read the file: {e}",
            path.display()
        )),
    })?;
    read_bounded(&format!("{what} {}", path.display()), file)
}

/// [`read_file`] as UTF-8 text.
pub fn read_file_to_string(what: &str, path: &std::path::Path) -> Result<String, Error> {
    String::from_utf8(read_file(what, path)?)
        .map_err(|_| Error::usage(format!("{what} {}: is not UTF-8 text", path.display())))
}

/// A zeroed buffer of `len` bytes for a case, or a skip reason when the
/// memory cannot be had: a size the user chose must never abort the process.
pub fn zeroed(len: usize) -> Result<Vec<u8>, CaseError> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(len).map_err(|_| {
        CaseError::Skipped(format!(
            "cannot allocate a {} buffer on this machine",
            units::format_size(len as u64)
        ))
    })?;
    buf.resize(len, 0);
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_refuses_one_byte_more() {
        let data = [7u8; 100];
        assert_eq!(
            read_bounded_with("stdin", &data[..], 100).unwrap().len(),
            100
        );
        let e = read_bounded_with("stdin", &data[..], 99).unwrap_err();
        assert!(matches!(e, Error::Usage(_)));
        assert!(e.to_string().contains("--max-input"), "{e}");
    }

    #[test]
    fn an_endless_reader_stops_at_the_limit() {
        let e = read_bounded_with("--key /dev/zero", std::io::repeat(0), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("larger than 1 MiB"), "{e}");
    }

    #[test]
    fn impossible_buffers_are_skips_not_aborts() {
        assert_eq!(zeroed(16).unwrap(), vec![0u8; 16]);
        assert!(matches!(zeroed(usize::MAX), Err(CaseError::Skipped(_))));
    }

    #[test]
    fn directories_and_missing_files_are_usage_errors() {
        let dir = std::env::temp_dir();
        assert!(matches!(read_file("--key", &dir), Err(Error::Usage(_))));
        let missing = dir.join("cryptobench-no-such-file");
        assert!(matches!(read_file("--key", &missing), Err(Error::Usage(_))));
    }
}
