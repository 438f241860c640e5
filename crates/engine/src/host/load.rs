//! How busy the machine was while a case ran, read from /proc.
//!
//! On a shared machine a measurement means little without knowing whether
//! another process took half the CPU at the time. The engine reads the
//! kernel's CPU counters before and after each comparison group; the share
//! of CPU time spent outside this process and the ones it started, the
//! hypervisor's steal time and the load average go into every measurement,
//! and a busy moment becomes a warning on the cases measured during it.
//!
//! The processes it started count as its own: a runtime case runs in a
//! runner process that lives for the whole run, and counted as another
//! process it made every Go, Node.js or Python group read "machine busy:
//! other processes used 40-48% of the CPU time" on an idle machine.

use crate::sample::clock::process_cpu_ns;
use cryptobench_core::MachineLoad;

/// The counters at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Snapshot {
    /// Sum of every CPU state, in clock ticks (all CPUs).
    pub total_ticks: u64,
    /// Idle plus I/O wait ticks.
    pub idle_ticks: u64,
    /// Ticks stolen by the hypervisor.
    pub steal_ticks: u64,
    /// CPU time of this process and of the processes it started (running
    /// or waited for), ns.
    pub own_cpu_ns: u64,
}

/// Reads /proc/stat's aggregate `cpu` line; `None` where it is unreadable.
pub fn snapshot() -> Option<Snapshot> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let mut s = parse_proc_stat(&text)?;
    let children = children_cpu_ticks() as f64 / ticks_per_second() * 1e9;
    s.own_cpu_ns = process_cpu_ns().unwrap_or(0) + children as u64;
    Some(s)
}

/// CPU ticks of this process's children: those it waited for (its own
/// `cutime` and `cstime`) and those still running (theirs, with their own
/// waited-for children).
fn children_cpu_ticks() -> u64 {
    let waited = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|t| stat_ticks(&t))
        .map_or(0, |(_, children)| children);
    let running: u64 = child_pids()
        .into_iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|t| stat_ticks(&t))
        .map(|(own, children)| own + children)
        .sum();
    waited + running
}

/// The running children of this process, from every thread's
/// `/proc/self/task/TID/children`.
fn child_pids() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut pids: Vec<u32> = tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

/// From a `/proc/PID/stat` line: (utime + stime, cutime + cstime) in
/// ticks. The command name may hold spaces and parentheses, so fields are
/// counted from the last `)`.
fn stat_ticks(text: &str) -> Option<(u64, u64)> {
    let rest = &text[text.rfind(')')? + 1..];
    // After the name: state is field 3, utime 14, stime 15, cutime 16,
    // cstime 17.
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i)?.parse::<i64>().ok().map(|v| v.max(0) as u64);
    Some((tick(11)? + tick(12)?, tick(13)? + tick(14)?))
}

/// Parses the first (`cpu `) line of /proc/stat.
pub fn parse_proc_stat(text: &str) -> Option<Snapshot> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    // user nice system idle iowait irq softirq steal [guest guest_nice]:
    // guest time is already counted in user, so it is left out of the total.
    let field = |i: usize| v.get(i).copied().unwrap_or(0);
    let total: u64 = (0..8).map(field).sum();
    Some(Snapshot {
        total_ticks: total,
        idle_ticks: field(3) + field(4),
        steal_ticks: field(7),
        own_cpu_ns: 0,
    })
}

/// The 1-minute load average.
pub fn load1() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().and_then(|x| x.parse().ok()))
        .unwrap_or(0.0)
}

/// Clock ticks per second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
fn ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

/// The machine's load between two snapshots (no canary figure yet).
pub fn between(a: &Snapshot, b: &Snapshot, load1: f64) -> MachineLoad {
    let total = b.total_ticks.saturating_sub(a.total_ticks) as f64;
    if total <= 0.0 {
        return MachineLoad {
            load1,
            ..MachineLoad::default()
        };
    }
    let busy = total - b.idle_ticks.saturating_sub(a.idle_ticks) as f64;
    let steal = b.steal_ticks.saturating_sub(a.steal_ticks) as f64;
    let own_ticks = b.own_cpu_ns.saturating_sub(a.own_cpu_ns) as f64 / 1e9 * ticks_per_second();
    let other = (busy - steal - own_ticks).max(0.0);
    MachineLoad {
        load1,
        other_cpu: (other / total).clamp(0.0, 1.0),
        steal: (steal / total).clamp(0.0, 1.0),
        canary_ns: None,
        first_canary_ns: None,
        parallel_canary_ns: None,
        memory_probe_ns: None,
    }
}

/// A warning when the machine was busy, else `None`.
pub fn busy_warning(load: &MachineLoad) -> Option<String> {
    if load.busy() {
        Some(format!(
            "machine busy while measured: other processes used {:.0}% of the CPU time, \
             steal {:.0}%, load {:.2}",
            load.other_cpu * 100.0,
            load.steal * 100.0,
            load.load1
        ))
    } else {
        load.cores_shared().map(|shared| {
            format!(
                "cores shared while measured: the canary on this case's cores at once took \
                 {shared:.2}x its time on one core (the host lent a core elsewhere; the guest \
                 sees no steal for it), so a multi-core figure here is low"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_processes_and_steal_are_shares_of_all_cpu_time() {
        let a = parse_proc_stat("cpu  100 0 100 1000 0 0 0 0 0 0\ncpu0 1 2 3").unwrap();
        let b = parse_proc_stat("cpu  200 0 200 1100 0 0 0 100 50 0\n").unwrap();
        // 400 ticks passed: 200 busy (100 user + 100 system), 100 idle, 100 steal.
        let l = between(&a, &b, 1.5);
        assert!((l.steal - 0.25).abs() < 1e-12, "{l:?}");
        assert!((l.other_cpu - 0.5).abs() < 1e-12, "{l:?}");
        assert!(busy_warning(&l).unwrap().contains("50%"));
        assert!(busy_warning(&MachineLoad::default()).is_none());
    }

    #[test]
    fn a_multi_core_canary_far_slower_than_one_core_warns_of_shared_cores() {
        let with = |one: f64, many: Option<f64>| MachineLoad {
            canary_ns: Some(one),
            parallel_canary_ns: many,
            ..MachineLoad::default()
        };
        assert!(busy_warning(&with(100.0, None)).is_none());
        assert!(busy_warning(&with(100.0, Some(108.0))).is_none());
        let w = busy_warning(&with(100.0, Some(160.0))).expect("1.6x warns");
        assert!(w.contains("1.60x"), "{w}");
    }

    #[test]
    fn a_stat_line_gives_own_and_waited_for_childrens_ticks() {
        let line = "4242 (a (b) c) S 1 4242 4242 0 -1 4194304 100 0 0 0 37 5 11 2 20 0 1 0 99";
        assert_eq!(stat_ticks(line), Some((42, 13)));
        assert_eq!(stat_ticks("4242 (cut"), None);
    }

    #[test]
    fn a_busy_child_counts_as_this_process() {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg("while :; do :; done")
            .spawn()
            .expect("sh runs");
        let ticks = |pid: u32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|t| stat_ticks(&t))
                .map_or(0, |(own, _)| own)
        };
        // Until the child has used 5 ticks of CPU (50 ms), however slow
        // the machine is at the moment.
        let start = std::time::Instant::now();
        while ticks(child.id()) < 5 && start.elapsed() < std::time::Duration::from_secs(60) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(child_pids().contains(&child.id()));
        let running = children_cpu_ticks();
        assert!(running >= 5, "a running child's ticks count: {running}");
        child.kill().expect("kill");
        child.wait().expect("wait");
        let waited = children_cpu_ticks();
        assert!(waited >= 5, "a waited-for child's ticks count: {waited}");
    }

    #[test]
    fn this_machine_has_readable_counters() {
        let s = snapshot().expect("/proc/stat is readable on Linux");
        assert!(s.total_ticks > 0);
    }
}
