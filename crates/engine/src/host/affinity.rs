//! One core for one-core measurements.
//!
//! Left to the scheduler, the measuring thread and the processes it
//! starts (runtime runners, `openssl speed`, the argon2 CLI) land on
//! whichever core is idle, and on a VM the two cores are not alike from
//! minute to minute: the host lends one elsewhere for seconds to minutes
//! (docs/methodology.md, section 3a). A runner answering on the lent core
//! is slow for a whole group while the canary, on the other, is not; two
//! runs then differ by which core each case happened to get. Three A/A
//! pairs of quick runs each way, alternated in one hour on this project's
//! 2-core VM: pinned 90%, 93%, 93% of cases unchanged, left to the
//! scheduler 92%, 89%, 89% (Argon2 cases 69-84% against 58-78%). A modest
//! gain, and the cases stop depending on placement.
//!
//! So while a plan runs, the measuring thread keeps to one core (the first
//! it may use, or `CRYPTOBENCH_CPU`), and what it starts inherits that.
//! A multi-core case needs the others: its group's rounds, its build (a
//! rayon pool's threads are made then) and the multi-thread runner widen
//! the thread to every core it may use and narrow it again after, and a
//! runner process serving a multi-core case has every thread of it
//! widened before the batch ([`set_process`]). `CRYPTOBENCH_CPU=all`
//! leaves placement to the scheduler.

use std::sync::OnceLock;

/// The variable that picks the measuring core (a CPU number), or `all`.
pub const CPU_VAR: &str = "CRYPTOBENCH_CPU";

/// Where one-core measurements run, and every core they may widen to.
#[derive(Clone, Copy)]
struct Plan {
    one: usize,
    all: libc::cpu_set_t,
}

fn allowed() -> Option<libc::cpu_set_t> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; the kernel fills it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid, writable cpu_set_t of `size` bytes.
    (unsafe { libc::sched_getaffinity(0, size, &mut set) } == 0).then_some(set)
}

fn cpus(set: &libc::cpu_set_t) -> Vec<usize> {
    // SAFETY: CPU_ISSET only reads the set.
    (0..libc::CPU_SETSIZE as usize)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, set) })
        .collect()
}

/// Whether `CRYPTOBENCH_CPU` names a core this process may use, or `all`;
/// the message says what was wrong and what is accepted.
pub fn check_env() -> Result<(), String> {
    let Ok(value) = std::env::var(CPU_VAR) else {
        return Ok(());
    };
    let usable = allowed().map(|s| cpus(&s)).unwrap_or_default();
    let v = value.trim();
    if v.eq_ignore_ascii_case("all") || v.parse::<usize>().is_ok_and(|c| usable.contains(&c)) {
        return Ok(());
    }
    let list: Vec<String> = usable.iter().map(usize::to_string).collect();
    Err(format!(
        "{CPU_VAR}={value:?} is not a CPU this process may use; accepted: one of {} (the core one-core cases run on), or `all` (no pinning)",
        list.join(", ")
    ))
}

/// The plan, decided once per process from the mask it started with:
/// `None` with one core, `CRYPTOBENCH_CPU=all`, or where the kernel
/// refuses.
fn plan() -> Option<Plan> {
    static PLAN: OnceLock<Option<Plan>> = OnceLock::new();
    *PLAN.get_or_init(|| {
        let all = allowed()?;
        let usable = cpus(&all);
        if usable.len() < 2 {
            return None;
        }
        let one = match std::env::var(CPU_VAR) {
            Ok(v) if v.trim().eq_ignore_ascii_case("all") => return None,
            // `check_env` refused anything else before a run began.
            Ok(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|c| usable.contains(c))
                .unwrap_or(usable[0]),
            Err(_) => usable[0],
        };
        Some(Plan { one, all })
    })
}

fn set_thread(tid: libc::pid_t, set: &libc::cpu_set_t) -> bool {
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: `set` is a valid cpu_set_t of `size` bytes.
    unsafe { libc::sched_setaffinity(tid, size, set) == 0 }
}

fn one_core(cpu: usize) -> libc::cpu_set_t {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; CPU_SET writes
    // within it for cpu < CPU_SETSIZE, which `cpus` guarantees.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    unsafe { libc::CPU_SET(cpu, &mut set) };
    set
}

/// Confines the calling thread (and the threads it starts from now on)
/// to the first core this process may use, whatever the plan; false
/// where the kernel refuses. For tests that need threads to share a core.
#[cfg(test)]
pub(crate) fn confine_to_first_core() -> bool {
    let Some(first) = allowed().and_then(|s| cpus(&s).first().copied()) else {
        return false;
    };
    set_thread(0, &one_core(first))
}

/// The cores a multi-core case may use: every core this process started
/// with, whether or not the calling thread is on one of them now
/// (`available_parallelism` answers for the calling thread's mask).
pub fn cores() -> usize {
    match plan() {
        Some(p) => cpus(&p.all).len(),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// What one-core measurements are pinned to, for the run's fingerprint:
/// `cpu N` or `all cpus`.
pub fn describe() -> String {
    match plan() {
        Some(p) => format!("cpu {}", p.one),
        None => "all cpus".into(),
    }
}

/// Keeps the calling thread on the measuring core until dropped, then
/// gives it back every core it had.
pub struct Pinned(bool);

impl Drop for Pinned {
    fn drop(&mut self) {
        if let (true, Some(p)) = (self.0, plan()) {
            set_thread(0, &p.all);
        }
    }
}

/// Pins the calling thread (and what it starts from now on) to the
/// measuring core for as long as the guard lives.
pub fn pin() -> Pinned {
    Pinned(plan().is_some_and(|p| set_thread(0, &one_core(p.one))))
}

/// Runs `f` with the calling thread on every core it may use (a
/// multi-core case), then back on the measuring core if it was there.
pub fn widened<T>(f: impl FnOnce() -> T) -> T {
    let Some(p) = plan() else { return f() };
    let before = allowed();
    let was_narrow = before.is_some_and(|b| cpus(&b) == [p.one]);
    if was_narrow {
        set_thread(0, &p.all);
    }
    let out = f();
    if was_narrow {
        set_thread(0, &one_core(p.one));
    }
    out
}

/// Puts every thread of process `pid` on the measuring core (`wide`
/// false) or on every core (`wide` true); threads it starts later inherit
/// from the thread that starts them. Does nothing when nothing is pinned.
/// Returns false when a thread could not be moved.
pub fn set_process(pid: u32, wide: bool) -> bool {
    let Some(p) = plan() else { return true };
    let set = if wide { p.all } else { one_core(p.one) };
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    // Every thread is moved even after one refuses.
    let mut all_moved = true;
    for tid in tasks.filter_map(|t| t.ok()?.file_name().to_str()?.parse::<libc::pid_t>().ok()) {
        all_moved &= set_thread(tid, &set);
    }
    all_moved
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the calling thread is on the measuring core now.
    fn on_one_core() -> bool {
        plan().is_some_and(|p| allowed().is_some_and(|b| cpus(&b) == [p.one]))
    }

    #[test]
    fn a_pinned_thread_widens_for_a_multi_core_case_and_gets_its_cores_back() {
        let cores = allowed().map(|s| cpus(&s).len()).unwrap_or(1);
        std::thread::spawn(move || {
            {
                let _pin = pin();
                if cores >= 2 {
                    assert!(on_one_core(), "pinned to {}", describe());
                    assert_eq!(super::cores(), cores, "all cores, though on one now");
                    let inside = widened(|| allowed().map(|s| cpus(&s).len()));
                    assert_eq!(inside, Some(cores));
                    assert!(on_one_core(), "narrow again after the case");
                    // A child thread inherits the narrow mask.
                    let child = std::thread::spawn(on_one_core).join().unwrap();
                    assert!(child);
                } else {
                    // One core: nothing to choose between, nothing pinned.
                    assert!(!on_one_core());
                    assert_eq!(describe(), "all cpus");
                }
            }
            assert_eq!(allowed().map(|s| cpus(&s).len()), Some(cores));
        })
        .join()
        .unwrap();
    }
}
