//! One heap policy for every run: blocks of 4 MiB or more come fresh from
//! the kernel, smaller ones are recycled.
//!
//! glibc serves a block of 128 KiB or more with its own `mmap` and returns
//! it on `free`, but the first such free of a block up to 32 MiB raises
//! that threshold, after which blocks that size are recycled from the
//! heap, already mapped. How an Argon2 hash gets its memory therefore
//! depended on what the process had allocated before: measured here,
//! RustCrypto's Argon2id at 16 MiB took 6 ms on recycled memory and 15 ms
//! on fresh pages (4,096 page faults at some 2 us each on this VM), and
//! with groups measured in a random order one run got the first and the
//! next run the second.
//!
//! Fixing the threshold at its starting 128 KiB made every hash pay its
//! page faults, but did not make medium blocks fresh: glibc serves a block
//! from a free chunk of the heap before it maps one, and a runtime's heap
//! (Node.js's, after the small objects of earlier cases die) often has a
//! free megabyte. Its 1 MiB AEAD cases then switched between fresh and
//! recycled blocks a few batches at a time (830 and 2,100 us in alternate
//! batches). So the threshold, and the size of free heap top glibc keeps
//! before returning it, are both fixed at [`MMAP_THRESHOLD`]: a block below
//! it is recycled once the process has used one like it, in every backend
//! and runtime, as a long-lived process with glibc's own rule would; a
//! block at or above it never fits in the heap's kept top and is mapped
//! fresh. Every Argon2 memory size the grids use (16 MiB and up) and the
//! seeds' 10-20 MB messages are such blocks, and pay their page faults
//! as libsodium (which maps its own) and the `argon2` CLI (a process per
//! hash) always do. Runners and peers inherit the policy through
//! `GLIBC_TUNABLES`.

/// The size from which a block is mapped fresh, bytes; also the free heap
/// top glibc keeps before trimming, so that no such block fits in it.
pub const MMAP_THRESHOLD: usize = 4 << 20;

/// The glibc tunables that set the policy in processes we start.
const TUNABLES: [&str; 2] = ["glibc.malloc.mmap_threshold", "glibc.malloc.trim_threshold"];

/// Fixes the policy in this process and exports it to the processes it
/// starts. Call it first in `main`, before any thread.
pub fn fix_for_this_process() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; a refusal returns 0
    // and changes nothing.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, MMAP_THRESHOLD as libc::c_int);
    }
    let current = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if let Some(tunables) = with_policy(&current) {
        std::env::set_var("GLIBC_TUNABLES", tunables);
    }
}

/// `GLIBC_TUNABLES` with the policy's tunables added, or `None` when it
/// already names both (a tunable the user set stands).
fn with_policy(current: &str) -> Option<String> {
    let named = |tunable: &str| {
        current
            .split(':')
            .any(|t| t.split('=').next() == Some(tunable))
    };
    let missing: Vec<String> = TUNABLES
        .iter()
        .filter(|t| !named(t))
        .map(|t| format!("{t}={MMAP_THRESHOLD}"))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let ours = missing.join(":");
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
    fn the_policy_joins_other_tunables_and_never_replaces_one() {
        let ours = "glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=4194304";
        assert_eq!(with_policy("").as_deref(), Some(ours));
        assert_eq!(
            with_policy("glibc.malloc.arena_max=2").as_deref(),
            Some(format!("glibc.malloc.arena_max=2:{ours}").as_str())
        );
        assert_eq!(
            with_policy("glibc.malloc.mmap_threshold=4096").as_deref(),
            Some("glibc.malloc.mmap_threshold=4096:glibc.malloc.trim_threshold=4194304")
        );
        assert_eq!(
            with_policy("glibc.malloc.trim_threshold=1:glibc.malloc.mmap_threshold=2"),
            None
        );
    }
}
