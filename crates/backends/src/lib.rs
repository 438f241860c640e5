//! The libraries cryptobench measures, as `core::Library` types several
//! suites share, and the one-time initialisation they need.
//!
//! Suites build their cases on these libraries directly; this crate only
//! holds what several suites share, so that "which OpenSSL is this" or "is
//! libsodium initialised" has one answer: OpenSSL's version and providers
//! ([`openssl_lib`]), libsodium's version and `sodium_init` ([`sodium`]),
//! RustCrypto crate versions ([`rustcrypto`]) and CPU features ([`cpu`]).
#![deny(missing_docs)]

/// Why a library cannot be initialised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// `sodium_init` returned an error.
    #[error("sodium_init failed")]
    SodiumInit,
    /// OpenSSL's default provider did not load.
    #[error("default provider: {0}")]
    DefaultProvider(String),
    /// OpenSSL's legacy provider (DES, Blowfish, RC4, ...) did not load.
    #[error("legacy provider not loadable: {0}")]
    LegacyProvider(String),
}

/// Strings are what the older runner code carries; `?` converts.
impl From<BackendError> for String {
    fn from(e: BackendError) -> Self {
        e.to_string()
    }
}

/// OpenSSL through the `openssl` crate (the system libssl).
pub mod openssl_lib {
    use super::BackendError;
    use std::sync::OnceLock;

    /// Backend name used on the command line and in results.
    pub const NAME: &str = "openssl";

    /// The library's own version string, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
    pub fn version() -> String {
        openssl::version::version().to_string()
    }

    /// OpenSSL as every suite's backend states it: each suite implements
    /// its own family trait (digest, cipher, AEAD, curves) for this type.
    pub struct OpenSsl;

    impl cryptobench_core::Library for OpenSsl {
        fn name(&self) -> &'static str {
            NAME
        }
        fn version(&self) -> String {
            version()
        }
    }

    /// Loads the default and legacy providers once for the whole process.
    /// Returns why the legacy provider is missing, if it is (the default
    /// provider stays usable either way).
    pub fn ensure_providers() -> Result<(), BackendError> {
        static LOADED: OnceLock<Result<(), BackendError>> = OnceLock::new();
        LOADED
            .get_or_init(|| {
                // Loading any provider explicitly stops OpenSSL from loading the
                // default one implicitly, so both are loaded and kept for good.
                let default = openssl::provider::Provider::try_load(None, "default", true)
                    .map_err(|e| BackendError::DefaultProvider(e.to_string()))?;
                std::mem::forget(default);
                let legacy = openssl::provider::Provider::try_load(None, "legacy", true)
                    .map_err(|e| BackendError::LegacyProvider(e.to_string()))?;
                std::mem::forget(legacy);
                Ok(())
            })
            .clone()
    }
}

/// libsodium through `libsodium-sys-stable` (vendored, not the system one).
pub mod sodium {
    use super::BackendError;
    use std::ffi::CStr;
    use std::sync::OnceLock;

    /// Backend name.
    pub const NAME: &str = "libsodium";

    /// Calls `sodium_init` once; returns why it failed, if it did.
    pub fn init() -> Result<(), BackendError> {
        static INIT: OnceLock<Result<(), BackendError>> = OnceLock::new();
        INIT.get_or_init(|| {
            // SAFETY: sodium_init is thread-safe and idempotent.
            let rc = unsafe { libsodium_sys::sodium_init() };
            if rc < 0 {
                Err(BackendError::SodiumInit)
            } else {
                Ok(())
            }
        })
        .clone()
    }

    /// `libsodium 1.0.x`, from the library itself.
    pub fn version() -> String {
        // SAFETY: returns a pointer to a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(libsodium_sys::sodium_version_string()) };
        format!("libsodium {}", v.to_string_lossy())
    }

    /// Whether libsodium runs here (`sodium_init` succeeded).
    pub fn availability() -> cryptobench_core::Availability {
        match init() {
            Ok(()) => cryptobench_core::Availability::Available,
            Err(why) => cryptobench_core::Availability::Unavailable(why.to_string()),
        }
    }

    /// libsodium as every suite's backend states it (see
    /// [`super::openssl_lib::OpenSsl`]).
    pub struct Sodium;

    impl cryptobench_core::Library for Sodium {
        fn name(&self) -> &'static str {
            NAME
        }
        fn version(&self) -> String {
            version()
        }
        fn availability(&self) -> cryptobench_core::Availability {
            availability()
        }
    }
}

/// RustCrypto crates: the version is the list of crates a suite uses.
pub mod rustcrypto {

    /// Backend name.
    pub const NAME: &str = "rustcrypto";

    /// The crates a suite uses and their versions, e.g. `[("sha2", "0.11")]`.
    pub type Crates = &'static [(&'static str, &'static str)];

    /// RustCrypto as a suite's backend: one library name, versioned by the
    /// crates that suite uses. A suite keeps one `const` of it and
    /// implements its family trait for this type.
    pub struct RustCrypto {
        crates: Crates,
    }

    impl RustCrypto {
        /// RustCrypto through `crates`.
        pub const fn new(crates: Crates) -> Self {
            Self { crates }
        }
    }

    impl cryptobench_core::Library for RustCrypto {
        fn name(&self) -> &'static str {
            NAME
        }
        /// `RustCrypto sha2 0.11, sha3 0.10`.
        fn version(&self) -> String {
            let list: Vec<String> = self
                .crates
                .iter()
                .map(|(n, v)| format!("{n} {v}"))
                .collect();
            format!("RustCrypto {}", list.join(", "))
        }
    }
}

/// CPU features that decide availability and speed (AES-NI, VAES, ...).
pub mod cpu {
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
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_come_from_the_libraries() {
        assert!(super::openssl_lib::version().starts_with("OpenSSL "));
        super::sodium::init().unwrap();
        assert!(super::sodium::version().starts_with("libsodium 1."));
    }

    #[test]
    fn flushing_a_buffer_from_the_caches_keeps_its_bytes() {
        let buf: Vec<u8> = (0..4099u32).map(|i| (i * 7) as u8).collect();
        let before = buf.clone();
        assert_eq!(
            super::cpu::flush_from_caches(&buf),
            cfg!(target_arch = "x86_64")
        );
        assert!(super::cpu::flush_from_caches(&buf[1..1]) || !cfg!(target_arch = "x86_64"));
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

    #[test]
    fn legacy_provider_loads_and_default_stays() {
        super::openssl_lib::ensure_providers().unwrap();
        assert!(openssl::symm::Cipher::from_nid(openssl::nid::Nid::AES_128_CBC).is_some());
    }
}
