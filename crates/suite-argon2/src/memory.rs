//! The memory guard: a point that needs more memory than this machine can
//! give is skipped with the figures, never left to the OOM killer.
//!
//! The figure is `MemAvailable` from /proc/meminfo (what the kernel says can
//! be allocated without swapping) minus a margin for the rest of the process
//! and the machine: the larger of 256 MiB and a tenth of what is available.

use cryptobench_core::units::format_size;

/// Parses `MemAvailable:  123456 kB` out of /proc/meminfo text, in bytes.
pub fn parse_mem_available(meminfo: &str) -> Option<u64> {
    meminfo.lines().find_map(|line| {
        let rest = line.strip_prefix("MemAvailable:")?;
        let mut parts = rest.split_whitespace();
        let value: u64 = parts.next()?.parse().ok()?;
        match parts.next() {
            Some("kB") | None => Some(value * 1024),
            _ => None,
        }
    })
}

/// Available memory now, in bytes, when the system says.
pub fn available_bytes() -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| parse_mem_available(&t))
}

/// The margin kept free.
pub fn margin(available: u64) -> u64 {
    (256 << 20).max(available / 10)
}

/// A point that needs more memory than this machine can spare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "needs {}, {} available (MemAvailable {} minus a {} margin)",
    human(*needed),
    human(*usable),
    human(*available),
    human(margin(*available))
)]
pub struct MemoryShortfall {
    /// Bytes the point needs.
    pub needed: u64,
    /// Bytes it may use: what is available minus the margin.
    pub usable: u64,
    /// The kernel's MemAvailable, in bytes.
    pub available: u64,
}

/// A [`MemoryShortfall`] when `needed` does not fit in `available` minus the
/// margin; `available = None` (not Linux) lets it run.
pub fn check(needed: u64, available: Option<u64>) -> Result<(), MemoryShortfall> {
    let Some(available) = available else {
        return Ok(());
    };
    let usable = available.saturating_sub(margin(available));
    if needed > usable {
        return Err(MemoryShortfall {
            needed,
            usable,
            available,
        });
    }
    Ok(())
}

fn human(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes.is_multiple_of(MIB) || bytes < MIB {
        format_size(bytes)
    } else {
        format!("{} MiB", bytes / MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAKE: &str = "MemTotal:        2048000 kB\nMemFree:          100000 kB\nMemAvailable:     1048576 kB\nBuffers:  1 kB\n";

    #[test]
    fn reads_mem_available() {
        assert_eq!(parse_mem_available(FAKE), Some(1 << 30));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: x kB\n"), None);
    }

    #[test]
    fn guard_keeps_a_margin() {
        let available = parse_mem_available(FAKE);
        // 1 GiB available: the margin is 256 MiB, so 768 MiB fits and 1 GiB does not.
        check(768 << 20, available).unwrap();
        let e = check(1 << 30, available).unwrap_err().to_string();
        assert!(e.starts_with("needs 1 GiB, 768 MiB available"), "{e}");
        assert!(check(769 << 20, available).is_err());
        // Large machines keep a tenth.
        assert_eq!(margin(100 << 30), 10 << 30);
        check(u64::MAX, None).unwrap();
    }
}
