//! CPU features that decide availability and speed (AES-NI, VAES, ...),
//! the flags a run's fingerprint records, and evicting a buffer from the
//! caches. A fact about the host, so it lives with the other host facts:
//! reading it needs no cryptographic library.

/// The flags DESIGN.md section 3.7 asks every run to record.
pub const RELEVANT: [&str; 9] = [
    "aes",
    "pclmulqdq",
    "avx2",
    "avx512f",
    "vaes",
    "vpclmulqdq",
    "sha_ni",
    "adx",
    "bmi2",
];

/// Whether the running CPU has `flag` (names as in /proc/cpuinfo).
pub fn has(flag: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        match flag {
            "aes" => std::arch::is_x86_feature_detected!("aes"),
            "pclmulqdq" => std::arch::is_x86_feature_detected!("pclmulqdq"),
            "avx2" => std::arch::is_x86_feature_detected!("avx2"),
            "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
            "vaes" => std::arch::is_x86_feature_detected!("vaes"),
            "vpclmulqdq" => std::arch::is_x86_feature_detected!("vpclmulqdq"),
            "sha_ni" => std::arch::is_x86_feature_detected!("sha"),
            "adx" => std::arch::is_x86_feature_detected!("adx"),
            "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
            _ => false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = flag;
        false
    }
}

/// Present and missing relevant flags.
pub fn relevant_flags() -> (Vec<String>, Vec<String>) {
    let (mut present, mut missing) = (Vec::new(), Vec::new());
    for f in RELEVANT {
        if has(f) {
            present.push(f.to_string());
        } else {
            missing.push(f.to_string());
        }
    }
    (present, missing)
}

/// Whether [`flush_from_caches`] can flush on this CPU.
pub const CAN_FLUSH: bool = cfg!(target_arch = "x86_64");

/// Writes `buf` back and evicts it from every cache level, so the next
/// pass over it reads from memory whatever the caches' sizes, their
/// replacement policy or other tenants' use of them. Returns whether it
/// could: x86-64 has `clflush` in its baseline; elsewhere it does
/// nothing and says so.
///
/// `clflushopt` where the CPU has it: `clflush` runs one line at a
/// time (70 ms for the 30 MiB of a 10 MiB AEAD case's three buffers
/// here, 15-20 times the GCM call it prepares), `clflushopt` overlaps
/// them (1.2-1.4 ms), and a buffer read after either comes from memory
/// alike (52-57 us for 1 MiB against 7 us warm).
pub fn flush_from_caches(buf: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_clflush, _mm_mfence};
        // x86-64 cache lines are 64 bytes; the last byte's line too, as
        // a buffer need not start on a line.
        let lines = (0..buf.len()).step_by(64).chain(buf.len().checked_sub(1));
        if has_clflushopt() {
            for i in lines {
                // SAFETY: the CPU has clflushopt (CPUID); every address
                // is inside `buf`, and flushing changes no data.
                unsafe {
                    std::arch::asm!(
                        "clflushopt [{}]",
                        in(reg) buf.as_ptr().add(i),
                        options(nostack, preserves_flags)
                    )
                };
            }
        } else {
            for i in lines {
                // SAFETY: SSE2 (clflush) is part of x86-64; every
                // address is inside `buf`, and flushing changes no data.
                unsafe { _mm_clflush(buf.as_ptr().add(i)) };
            }
        }
        // SAFETY: as above; mfence orders clflushopt too.
        unsafe { _mm_mfence() };
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = buf;
        false
    }
}

/// Whether the CPU has `clflushopt` (CPUID leaf 7, EBX bit 23).
#[cfg(target_arch = "x86_64")]
fn has_clflushopt() -> bool {
    use std::arch::x86_64::{__cpuid_count, __get_cpuid_max};
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| __get_cpuid_max(0).0 >= 7 && __cpuid_count(7, 0).ebx & (1 << 23) != 0)
}

/// Size in bytes of the largest cache the kernel lists for CPU 0 (on a
/// VM, what the hypervisor reports: often the host's whole L3, shared
/// with other tenants). `None` where sysfs does not say.
pub fn last_level_cache_bytes() -> Option<u64> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    dir.filter_map(|e| {
        let size = std::fs::read_to_string(e.ok()?.path().join("size")).ok()?;
        // sysfs writes "266240K", "32M" or "512": binary units.
        cryptobench_core::units::parse_size(size.trim()).ok()
    })
    .max()
}

#[cfg(test)]
mod tests {
    #[test]
    fn flushing_a_buffer_from_the_caches_keeps_its_bytes() {
        let buf: Vec<u8> = (0..4099u32).map(|i| (i * 7) as u8).collect();
        let before = buf.clone();
        assert_eq!(super::flush_from_caches(&buf), cfg!(target_arch = "x86_64"));
        assert!(super::flush_from_caches(&buf[1..1]) || !cfg!(target_arch = "x86_64"));
        assert_eq!(buf, before);
    }

    #[test]
    fn cache_sizes_read_as_sysfs_writes_them() {
        let parse_cache_size = |s: &str| cryptobench_core::units::parse_size(s).ok();
        assert_eq!(parse_cache_size("266240K"), Some(266_240 << 10));
        assert_eq!(parse_cache_size("32M"), Some(32 << 20));
        assert_eq!(parse_cache_size("512"), Some(512));
        assert_eq!(parse_cache_size("12X"), None);
        assert_eq!(parse_cache_size("K"), None);
    }
}
