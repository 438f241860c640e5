//! Is the process that made a `running` run still there?
//!
//! A run whose process died (kill -9, a crash, a power cut) never gets to
//! mark itself finished. The store records the pid, the host and the pid's
//! start tick; on this host `/proc/PID` tells whether that process still
//! exists, and the start tick tells a reused pid apart. Runs from other hosts
//! are never judged: their processes cannot be seen from here.

use rusqlite::Connection;
use std::collections::HashSet;
use std::path::Path;

/// This machine's host name as the kernel reports it (empty when unknown).
pub fn this_host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .or_else(|_| std::env::var("HOSTNAME"))
        .unwrap_or_default()
}

/// A `running` run and the process that made it: id, pid, host, start tick.
type RunningRow = (String, Option<i64>, Option<String>, Option<i64>);

/// Marks `running` runs whose process is gone as `interrupted`; returns
/// their ids so the caller reports them as such even when the update could
/// not be written (a read-only file, another writer holding the lock).
pub(crate) fn reap_dead_runs(conn: &Connection) -> rusqlite::Result<HashSet<String>> {
    let running: Vec<RunningRow> = conn
        .prepare("SELECT id, pid, pid_host, pid_start FROM runs WHERE status = 'running'")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut dead = HashSet::new();
    for (id, pid, pid_host, pid_start) in running {
        if process_gone(pid, pid_host.as_deref(), pid_start) {
            let _ = conn.execute(
                "UPDATE runs SET status = 'interrupted' WHERE id = ?1 AND status = 'running'",
                [&id],
            );
            dead.insert(id);
        }
    }
    Ok(dead)
}

/// True only when we can see that the process which made a run is gone.
fn process_gone(pid: Option<i64>, pid_host: Option<&str>, pid_start: Option<i64>) -> bool {
    let Some(pid) = pid.and_then(|p| u32::try_from(p).ok()) else {
        return false;
    };
    if pid_host != Some(this_host().as_str()) || !Path::new("/proc/self").exists() {
        return false;
    }
    if !Path::new(&format!("/proc/{pid}")).exists() {
        return true;
    }
    // Same pid, different start tick: the pid was reused by another process.
    match (pid_start, process_start_tick(pid)) {
        (Some(then), Some(now)) => then != now,
        _ => false,
    }
}

/// Field 22 of /proc/PID/stat: when the process started, in clock ticks.
pub(crate) fn process_start_tick(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; fields resume after ')'.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_start_tick_is_readable_and_stable() {
        let me = std::process::id();
        let tick = process_start_tick(me);
        assert!(tick.is_some());
        assert_eq!(tick, process_start_tick(me));
        assert!(!process_gone(Some(i64::from(me)), Some(&this_host()), tick));
        assert!(process_gone(
            Some(i64::from(me)),
            Some(&this_host()),
            tick.map(|t| t + 1)
        ));
        assert!(!process_gone(
            Some(i64::from(me)),
            Some("another-host.invalid"),
            tick.map(|t| t + 1)
        ));
    }
}
