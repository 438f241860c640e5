//! The machine fingerprint recorded with every run (DESIGN.md 3.7): what a
//! reader needs to judge whether two runs are comparable.

use cryptobench_core::{BackendInfo, Fingerprint};

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// CPU model from /proc/cpuinfo.
pub fn cpu_model() -> String {
    read("/proc/cpuinfo")
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// Total memory in bytes from /proc/meminfo.
pub fn memory_bytes() -> u64 {
    meminfo_kib("MemTotal:").unwrap_or(0) * 1024
}

/// A /proc/meminfo field in KiB.
pub fn meminfo_kib(field: &str) -> Option<u64> {
    read("/proc/meminfo")?
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

fn os_name() -> String {
    read("/etc/os-release")
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("PRETTY_NAME=")).map(|l| {
                l.trim_start_matches("PRETTY_NAME=")
                    .trim_matches('"')
                    .to_string()
            })
        })
        .unwrap_or_else(|| std::env::consts::OS.to_string())
}

/// Collects the fingerprint; `backends` are the suites' libraries.
pub fn collect(backends: Vec<BackendInfo>, tool_version: &str, git_revision: &str) -> Fingerprint {
    let (flags, missing) = crate::host::cpu::relevant_flags();
    Fingerprint {
        hostname: read("/proc/sys/kernel/hostname").unwrap_or_else(|| "unknown".into()),
        cpu_model: cpu_model(),
        cores: std::thread::available_parallelism()
            .map(|n| n.get() as u32)
            .unwrap_or(1),
        cpu_flags: flags,
        cpu_flags_missing: missing,
        tsc_hz: crate::sample::clock::tsc_hz(),
        os: os_name(),
        kernel: read("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()),
        governor: read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        address_layout: Some(crate::host::layout::describe()),
        measuring_cpu: Some(crate::host::affinity::describe()),
        memory_bytes: memory_bytes(),
        backends,
        tool_version: tool_version.to_string(),
        git_revision: git_revision.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fingerprint_reads_this_machine() {
        let f = super::collect(Vec::new(), "0.1.0", "abc");
        assert!(f.cores >= 1);
        assert!(!f.cpu_model.is_empty());
        assert!(f.memory_bytes > 0);
        assert_eq!(f.cpu_flags.len() + f.cpu_flags_missing.len(), 9);
    }
}
