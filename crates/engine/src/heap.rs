//! One heap policy for every run: large blocks come fresh from the kernel.
//!
//! glibc serves a block of 128 KiB or more with its own `mmap` and returns
//! it on `free`, but the first such free of a block up to 32 MiB raises
//! that threshold, after which blocks that size are recycled from the
//! heap, already mapped. How an Argon2 hash gets its memory therefore
//! depended on what the process had allocated before: measured here,
//! RustCrypto's Argon2id at 16 MiB took 6 ms on recycled memory and 15 ms
//! on fresh pages (4,096 page faults at some 2 us each on this VM), and
//! with groups measured in a random order one run got the first and the
//! next run the second. At 64 MiB, above glibc's ceiling, every hash got
//! fresh pages anyway.
//!
//! So the threshold is fixed at its starting value, which turns the
//! raising off: every block of 128 KiB or more is mapped fresh and every
//! hash pays its page faults, at every memory size and in every backend,
//! the same as libsodium (which maps its own) and the `argon2` CLI (a new
//! process per hash). Runners and peers inherit the policy through
//! `GLIBC_TUNABLES`.

/// glibc's starting `mmap` threshold, bytes.
pub const MMAP_THRESHOLD: usize = 128 * 1024;

/// The glibc tunable that sets the threshold in processes we start.
const TUNABLE: &str = "glibc.malloc.mmap_threshold";

/// Fixes the `mmap` threshold in this process and exports it to the
/// processes it starts. Call it first in `main`, before any thread.
pub fn fix_for_this_process() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; a refusal returns
    // 0 and changes nothing.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD as libc::c_int);
    }
    let current = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if let Some(tunables) = with_threshold(&current) {
        std::env::set_var("GLIBC_TUNABLES", tunables);
    }
}

/// `GLIBC_TUNABLES` with the threshold added, or `None` when it already
/// names one (the user's choice stands).
fn with_threshold(current: &str) -> Option<String> {
    if current
        .split(':')
        .any(|t| t.split('=').next() == Some(TUNABLE))
    {
        return None;
    }
    let ours = format!("{TUNABLE}={MMAP_THRESHOLD}");
    Some(if current.is_empty() {
        ours
    } else {
        format!("{current}:{ours}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_joins_other_tunables_and_never_replaces_one() {
        assert_eq!(
            with_threshold("").as_deref(),
            Some("glibc.malloc.mmap_threshold=131072")
        );
        assert_eq!(
            with_threshold("glibc.malloc.arena_max=2").as_deref(),
            Some("glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072")
        );
        assert_eq!(with_threshold("glibc.malloc.mmap_threshold=4096"), None);
    }
}
