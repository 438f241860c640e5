//! The heap policy, in a process of its own: page faults are counted for
//! the whole process, so no other test may allocate meanwhile.

/// Minor page faults this process has taken so far.
fn minor_faults() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) }, 0);
    usage.ru_minflt
}

/// Faults taken touching every page of a new block of `bytes`, then
/// freeing it.
fn faults_of_one_block(bytes: usize) -> i64 {
    let before = minor_faults();
    let mut block = vec![0u8; bytes];
    for page in block.chunks_mut(4096) {
        page[0] = 1;
    }
    std::hint::black_box(&block);
    drop(block);
    minor_faults() - before
}

#[test]
fn large_blocks_come_fresh_and_medium_ones_are_recycled() {
    cryptobench_engine::host::heap::fix_for_this_process();
    // Without the fixed threshold the first free raises it and the later
    // 16 MiB blocks reuse mapped memory, taking (almost) no faults.
    let large: Vec<i64> = (0..4).map(|_| faults_of_one_block(16 << 20)).collect();
    for (i, f) in large.iter().enumerate() {
        assert!(
            *f >= 2000,
            "16 MiB block {i} took {f} faults (all: {large:?}): reused, not fresh"
        );
    }
    // A 1 MiB block (256 pages) is served from the heap, whose top is kept:
    // after the first, the pages are already there.
    let medium: Vec<i64> = (0..6).map(|_| faults_of_one_block(1 << 20)).collect();
    assert!(
        medium[2..].iter().all(|&f| f < 50),
        "1 MiB blocks took {medium:?} faults: mapped fresh each time, not recycled"
    );
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap();
    for tunable in [
        "glibc.malloc.mmap_threshold=4194304",
        "glibc.malloc.trim_threshold=4194304",
    ] {
        assert!(tunables.contains(tunable), "{tunables}");
    }
}
