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

/// Memory mapped fresh from the kernel for one use and unmapped when
/// dropped: what a block at or above [`MMAP_THRESHOLD`] is meant to get.
/// glibc serves a block from a free chunk inside the heap before it maps
/// one, whatever the thresholds, so an 8 MiB Argon2 hash timed in this
/// process met recycled pages (3.6-4.1 ms) after cases that had left such
/// a chunk and fresh ones (7.6-8.3 ms) otherwise, within one case at
/// times. Backends timed in this process that take their memory from the
/// caller map it here instead.
pub struct FreshPages {
    ptr: std::ptr::NonNull<u8>,
    len: usize,
}

impl FreshPages {
    /// `len` bytes (at least one), zeroed and page-aligned; `None` when the
    /// kernel refuses them.
    pub fn map(len: usize) -> Option<Self> {
        let len = len.max(1);
        // SAFETY: an anonymous private mapping touches no existing memory;
        // failure is reported as MAP_FAILED and checked.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        std::ptr::NonNull::new(ptr.cast::<u8>()).map(|ptr| Self { ptr, len })
    }

    /// The mapping's first byte.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The mapping's length, bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never true: a mapping holds at least one byte.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Gives the mapping up without unmapping it, for a caller that hands
    /// it to a library which returns it through [`FreshPages::unmap`].
    pub fn into_raw(self) -> *mut u8 {
        let ptr = self.ptr.as_ptr();
        std::mem::forget(self);
        ptr
    }

    /// Unmaps `len` bytes at `ptr`, as mapped by [`FreshPages::map`].
    ///
    /// # Safety
    /// `ptr` and `len` must be those of a mapping from [`FreshPages::map`]
    /// given up by [`FreshPages::into_raw`], not used afterwards.
    pub unsafe fn unmap(ptr: *mut u8, len: usize) {
        // SAFETY: the caller hands back a whole mapping of ours.
        unsafe {
            libc::munmap(ptr.cast(), len.max(1));
        }
    }
}

impl Drop for FreshPages {
    fn drop(&mut self) {
        // SAFETY: the mapping is ours, whole, and nothing borrows it any more.
        unsafe { Self::unmap(self.ptr.as_ptr(), self.len) }
    }
}

// SAFETY: the mapping is plain memory owned by this value alone.
unsafe impl Send for FreshPages {}

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

    /// Minor page faults this thread has taken so far.
    fn faults() -> i64 {
        // SAFETY: getrusage fills the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut usage) };
        usage.ru_minflt
    }

    #[test]
    fn fresh_pages_are_zeroed_and_fault_again_every_time() {
        let len = 1 << 20;
        for _ in 0..3 {
            let mut pages = FreshPages::map(len).expect("1 MiB mapped");
            assert_eq!(pages.len(), len);
            let before = faults();
            // SAFETY: the mapping holds `len` bytes and nothing else uses it.
            let bytes = unsafe { std::slice::from_raw_parts_mut(pages.as_mut_ptr(), len) };
            assert!(bytes.iter().step_by(4096).all(|&b| b == 0));
            bytes.iter_mut().step_by(4096).for_each(|b| *b = 1);
            // 256 pages of 4 KiB, touched for the first time in each mapping.
            assert!(faults() - before >= 200, "{} faults", faults() - before);
        }
        let raw = FreshPages::map(len).expect("mapped").into_raw();
        // SAFETY: the mapping `into_raw` gave up, with its length, once.
        unsafe { FreshPages::unmap(raw, len) };
    }

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
