//! What a file on disk is before the store touches it: absent or empty,
//! one of ours, or something to refuse untouched (not SQLite, damaged, a
//! foreign schema). Kept apart from the store's reads and writes so that
//! every way in passes the same checks, with SQLite's defensive options on.

use crate::db::{sql_err, wait_for_lock, CREATE_SCHEMA, STORE_SCHEMA};
use crate::output::SQLITE_MAGIC;
use crate::StoreError;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use std::path::Path;

/// What a read-only look at an existing file found.
pub(crate) enum Found {
    /// No file, an empty file, or an SQLite file without tables.
    Fresh,
    /// One of ours with the current schema.
    Ours,
}

/// Looks at an existing file without writing to it.
pub(crate) fn inspect(path: &Path) -> Result<Found, StoreError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::Fresh),
        Err(e) => {
            return Err(StoreError::Unwritable {
                path: path.to_path_buf(),
                detail: e.to_string(),
            })
        }
    };
    let corrupt = |detail: String| StoreError::Corrupt {
        path: path.to_path_buf(),
        detail,
    };
    if meta.is_dir() {
        return Err(StoreError::Unwritable {
            path: path.to_path_buf(),
            detail: "it is a directory, not a database file".into(),
        });
    }
    if meta.len() == 0 {
        // SQLite itself treats an empty file as an empty database.
        return Ok(Found::Fresh);
    }
    let mut header = [0u8; 16];
    let read = std::fs::File::open(path).and_then(|mut f| {
        use std::io::Read;
        f.read_exact(&mut header)
    });
    match read {
        Ok(()) if &header == SQLITE_MAGIC => {}
        Ok(()) => {
            return Err(corrupt(
                "it does not start with the SQLite file header".into(),
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(corrupt(format!(
                "it is only {} bytes long, too short for an SQLite file",
                meta.len()
            )))
        }
        Err(e) => {
            return Err(StoreError::Unwritable {
                path: path.to_path_buf(),
                detail: format!("cannot read it: {e}"),
            })
        }
    }
    let ro = open_connection(path, READ_ONLY)?;
    if let Some(foreign) = foreign_object(&ro).map_err(|e| sql_err(path, e))? {
        return Err(corrupt(format!(
            "it holds {foreign}, which a cryptobench database never has (its schema must be exactly the tables and indexes cryptobench creates)"
        )));
    }
    let tables: Vec<String> = ro
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| sql_err(path, e))?;
    if tables.is_empty() {
        return Ok(Found::Fresh);
    }
    if !tables.iter().any(|t| t == "meta") {
        return Err(corrupt(format!(
            "it is an SQLite database of another program (tables: {})",
            tables.join(", ")
        )));
    }
    let schema: Option<String> = ro
        .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
            r.get(0)
        })
        .optional()
        .map_err(|e| sql_err(path, e))?;
    match schema.as_deref() {
        Some(STORE_SCHEMA) => {}
        Some(s) if s.starts_with("cryptobench-store/") => {
            return Err(StoreError::NewerSchema {
                path: path.to_path_buf(),
                found: s.to_string(),
            })
        }
        _ => {
            return Err(corrupt(format!(
                "it is an SQLite database of another program (its meta table has no '{STORE_SCHEMA}' entry)"
            )))
        }
    }
    for needed in ["runs", "measurements"] {
        if !tables.iter().any(|t| t == needed) {
            return Err(corrupt(format!("the table '{needed}' is missing")));
        }
    }
    Ok(Found::Ours)
}

/// One row of `sqlite_master`: type, name, table and SQL.
type SchemaObject = (String, String, String, Option<String>);

/// The first object in the file's schema that ours does not have, in
/// words (`trigger 'wipe'`): a trigger, view or extra table could run or
/// change anything on our next write. A file without any object is fine.
fn foreign_object(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let objects = |c: &Connection| -> rusqlite::Result<Vec<SchemaObject>> {
        c.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect()
    };
    let found = objects(conn)?;
    if found.is_empty() {
        return Ok(None);
    }
    let reference = Connection::open_in_memory()?;
    reference.execute_batch(CREATE_SCHEMA)?;
    let ours = objects(&reference)?;
    Ok(found
        .into_iter()
        // ANALYZE's statistics are data for the query planner, nothing more.
        .find(|o| !ours.contains(o) && !o.1.starts_with("sqlite_stat"))
        .map(|(kind, name, table, _)| {
            if kind == "trigger" || kind == "index" {
                format!("the {kind} '{name}' on '{table}'")
            } else {
                format!("the {kind} '{name}'")
            }
        }))
}

/// A connection to `path` opened with `flags` that waits out another
/// process's lock instead of failing at once. SQLite's defensive mode is
/// on and the schema is not trusted, so no SQL in the file can write
/// to it behind our back or call functions with side effects.
pub(crate) fn open_connection(path: &Path, flags: OpenFlags) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(path, flags).map_err(|e| sql_err(path, e))?;
    conn.busy_handler(Some(wait_for_lock))
        .map_err(|e| sql_err(path, e))?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
        .map_err(|e| sql_err(path, e))?;
    conn.execute_batch("PRAGMA trusted_schema=OFF")
        .map_err(|e| sql_err(path, e))?;
    Ok(conn)
}

/// Flags of the connections that must never write.
pub(crate) const READ_ONLY: OpenFlags =
    OpenFlags::SQLITE_OPEN_READ_ONLY.union(OpenFlags::SQLITE_OPEN_NO_MUTEX);

/// `PRAGMA quick_check` on a read-only connection: a damaged file gets no
/// write of any kind, not even a run row.
pub(crate) fn check_integrity(path: &Path) -> Result<(), StoreError> {
    let ro = open_connection(path, READ_ONLY)?;
    let problems: Vec<String> = ro
        .prepare("PRAGMA quick_check(5)")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(|e| sql_err(path, e))?;
    if problems.len() == 1 && problems[0] == "ok" {
        return Ok(());
    }
    Err(StoreError::Corrupt {
        path: path.to_path_buf(),
        detail: format!(
            "its integrity check failed ({}); nothing was written to it",
            problems.join("; ").replace('\n', " ")
        ),
    })
}
