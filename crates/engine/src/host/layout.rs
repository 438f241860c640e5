//! One address-space layout for every run.
//!
//! Linux places the stack, the heap and shared libraries at random
//! addresses in each process (ASLR). A tight loop over a 16-byte message
//! then runs at a speed that depends on where its buffers and code landed:
//! on the 2-core VM this project is measured on, RustCrypto's AES-128-CTR
//! at 16 B took 12.8-26.2 ns across eight processes with a random layout
//! and 17.1-18.5 ns across eight with a fixed one. Comparisons inside a run
//! are paired and do not care; `compare` between two runs does, so the
//! binary re-executes itself once with randomisation off
//! (`personality(ADDR_NO_RANDOMIZE)`, what `setarch -R` does). Runners and
//! peers it starts inherit the fixed layout.
//!
//! `CRYPTOBENCH_ASLR=keep` leaves the layout random; where the kernel
//! refuses (a seccomp filter), the run goes on with it random. Each run
//! records which it had ([`describe`]).

/// Environment variable that keeps the random layout when set to `keep`.
pub const KEEP_ENV: &str = "CRYPTOBENCH_ASLR";

/// This process's persona flags, `None` when the kernel will not say.
#[cfg(target_os = "linux")]
fn persona() -> Option<libc::c_ulong> {
    // SAFETY: 0xffffffff only queries this process's persona.
    let current = unsafe { libc::personality(0xffff_ffff) };
    (current >= 0).then_some(current as libc::c_ulong)
}

#[cfg(target_os = "linux")]
const NO_RANDOMIZE: libc::c_ulong = libc::ADDR_NO_RANDOMIZE as libc::c_ulong;

/// Re-executes this process once with address randomisation off, unless it
/// is off already, `CRYPTOBENCH_ASLR=keep` is set or the kernel refuses.
/// Call it first in `main`, before any thread or MPI call; on success it
/// does not return.
pub fn fix_for_this_process() {
    #[cfg(target_os = "linux")]
    {
        if std::env::var_os(KEEP_ENV).is_some_and(|v| v == "keep") {
            return;
        }
        let Some(current) = persona().filter(|p| p & NO_RANDOMIZE == 0) else {
            return;
        };
        // SAFETY: sets this process's persona; a refusal returns -1 and
        // changes nothing.
        if unsafe { libc::personality(current | NO_RANDOMIZE) } < 0 {
            return;
        }
        use std::os::unix::process::CommandExt;
        let mut args = std::env::args_os();
        let mut cmd = std::process::Command::new("/proc/self/exe");
        if let Some(argv0) = args.next() {
            cmd.arg0(argv0);
        }
        // exec only returns on failure: go on in this process, whose
        // children at least get the fixed layout.
        let _ = cmd.args(args).exec();
    }
}

/// Whether this process runs with a fixed layout: randomisation off for
/// it, or for the whole machine (`kernel.randomize_va_space = 0`).
pub fn is_fixed() -> bool {
    #[cfg(target_os = "linux")]
    {
        let off_here = persona().is_some_and(|p| p & NO_RANDOMIZE != 0);
        off_here
            || std::fs::read_to_string("/proc/sys/kernel/randomize_va_space")
                .is_ok_and(|s| s.trim() == "0")
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// The run's layout in words, as the fingerprint records it.
pub fn describe() -> String {
    use cryptobench_core::model::{LAYOUT_FIXED, LAYOUT_RANDOMIZED};
    if is_fixed() {
        LAYOUT_FIXED
    } else {
        LAYOUT_RANDOMIZED
    }
    .into()
}
