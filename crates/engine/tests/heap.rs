//! The heap policy, in a process of its own: page faults are counted for
//! the whole process, so no other test may allocate meanwhile.

/// Minor page faults this process has taken so far.
fn minor_faults() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) }, 0);
    usage.ru_minflt
}

/// Faults taken touching every page of a fresh 16 MiB block, then freeing it.
fn faults_of_one_block() -> i64 {
    let before = minor_faults();
    let mut block = vec![0u8; 16 << 20];
    for page in block.chunks_mut(4096) {
        page[0] = 1;
    }
    std::hint::black_box(&block);
    drop(block);
    minor_faults() - before
}

#[test]
fn every_large_block_comes_with_fresh_pages() {
    cryptobench_engine::heap::fix_for_this_process();
    // Without the fixed threshold the first free raises it and the later
    // blocks reuse mapped memory, taking (almost) no faults.
    let faults: Vec<i64> = (0..4).map(|_| faults_of_one_block()).collect();
    for (i, f) in faults.iter().enumerate() {
        assert!(
            *f >= 2000,
            "block {i} took {f} faults (all: {faults:?}): reused, not fresh"
        );
    }
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap();
    assert!(
        tunables.contains("glibc.malloc.mmap_threshold=131072"),
        "{tunables}"
    );
}
