//! The example binary under real `mpirun`: 2 ranks, 4 ranks oversubscribed,
//! failures that must end the job (never hang) and fleet gathering. The
//! scaling model is tested deterministically in `model.rs`; its live figure
//! on this machine comes from `scripts/mpi-model-check`.
//!
//! Every launch has a 60-second limit; a job still running then is killed
//! and the test fails as a hang. Nothing is skipped: without `mpirun` the
//! tests fail and say how to install it.

use cryptobench_core::Measurement;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One job at a time: the machine is small.
static ONE_JOB: Mutex<()> = Mutex::new(());

const LIMIT: Duration = Duration::from_secs(60);

fn example() -> PathBuf {
    // target/<profile>/deps/mpirun-<hash> -> target/<profile>/examples/
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target directory");
    let path = dir.join("examples").join("mpi_elgamal");
    assert!(
        path.exists(),
        "{} is missing: `cargo test -p cryptobench-mpi` builds it",
        path.display()
    );
    path
}

fn mpirun_available() {
    let found = Command::new("mpirun")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        found,
        "mpirun not found: install OpenMPI with `apt-get install -y openmpi-bin libopenmpi-dev` \
         (scripts/install-deps does it)"
    );
}

struct Job {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

fn wait_limited(mut cmd: Command) -> Job {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the job");
    loop {
        if child.try_wait().expect("poll the job").is_some() {
            break;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let out = child.wait_with_output().expect("collect the killed job");
            panic!(
                "the job hung: still running after {LIMIT:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("collect the job");
    Job {
        code: status.code(),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// `mpirun -n RANKS` the example with `args`.
fn mpirun(ranks: usize, args: &[&str]) -> Job {
    mpirun_with(&[], ranks, args)
}

/// As [`mpirun`], with `mpirun_args` (e.g. `-x NAME=VALUE`) before `-n`.
fn mpirun_with(mpirun_args: &[&str], ranks: usize, args: &[&str]) -> Job {
    mpirun_available();
    let _one = ONE_JOB.lock().unwrap_or_else(|e| e.into_inner());
    let mut cmd = Command::new("mpirun");
    cmd.args([
        "--allow-run-as-root",
        "--oversubscribe",
        "--bind-to",
        "none",
    ])
    .args(mpirun_args)
    .args(["-n", &ranks.to_string()])
    .arg(example())
    .args(args);
    wait_limited(cmd)
}

fn measurements(path: &std::path::Path) -> Vec<Measurement> {
    let text = std::fs::read_to_string(path).expect("rank 0 wrote the JSON");
    serde_json::from_str(&text).expect("measurements parse")
}

fn ok(job: &Job) {
    assert_eq!(
        job.code,
        Some(0),
        "stdout:\n{}\nstderr:\n{}",
        job.stdout,
        job.stderr
    );
}

fn failed_with(job: &Job, needle: &str) {
    assert!(
        job.code != Some(0),
        "the job should fail; stdout:\n{}",
        job.stdout
    );
    let all = format!("{}\n{}", job.stdout, job.stderr);
    assert!(
        all.contains(needle),
        "expected '{needle}' in the output:\n{all}"
    );
    assert!(job.elapsed < LIMIT);
}

#[test]
fn two_ranks_run_every_mode_and_only_rank_0_reports() {
    let dir = tempfile_dir("two");
    let json = dir.join("m.json");
    let job = mpirun(
        2,
        &[
            "--lengths",
            "300",
            "--mode",
            "serial,threads,mpi,hybrid",
            "--threads",
            "1,2",
            "--samples",
            "2",
            "--warmup",
            "0",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    ok(&job);
    assert_eq!(
        job.stdout.matches("EC-ElGamal:").count(),
        1,
        "{}",
        job.stdout
    );
    assert!(job.stdout.starts_with("2 rank(s)"), "{}", job.stdout);
    let ms = measurements(&json);
    // serial, threads x2, mpi, hybrid x2; encrypt and decrypt each.
    assert_eq!(ms.len(), 12);
    for m in &ms {
        assert_eq!(m.suite, "elgamal");
        assert_eq!(m.primitive, "P-256");
        assert_eq!(m.input_bytes, 300);
        assert_eq!(m.samples_ns.len(), 2);
        assert!(m
            .checks
            .iter()
            .all(|c| c.outcome == cryptobench_core::CheckOutcome::Pass));
        let mode = m.param("mode").unwrap();
        let ranks = m.param("ranks").unwrap();
        if mode == "mpi" || mode == "hybrid" {
            assert_eq!(ranks, "2");
            for k in [
                "compute_s",
                "communication_s",
                "imbalance_s",
                "comm_fraction",
            ] {
                assert!(m.extra.contains_key(k), "{k} missing in {mode}");
            }
            assert!(m.extra.contains_key("rank1_compute_s"));
            assert!(m.checks.iter().any(|c| c.name == "gathered-ciphertext"));
        } else {
            assert_eq!(ranks, "1");
        }
    }
    let enc = ms
        .iter()
        .find(|m| m.param("mode") == Some("mpi") && m.operation == "encrypt")
        .unwrap();
    // 1 byte scattered + two 33-byte compressed points gathered per char.
    assert_eq!(enc.extra["bytes_moved_per_char"], 67.0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn four_ranks_oversubscribed_with_uneven_shares() {
    // 35 chars over 4 ranks: 8, 9, 9, 9 (char); packed: 100 bytes = 4 units
    // of 30 bytes, one per rank, the last one short.
    for (enc, len) in [("char", "35"), ("packed", "100")] {
        let job = mpirun(
            4,
            &[
                "--encoding",
                enc,
                "--lengths",
                len,
                "--mode",
                "mpi,hybrid",
                "--threads",
                "2",
                "--samples",
                "1",
                "--warmup",
                "0",
            ],
        );
        ok(&job);
        assert!(job.stdout.starts_with("4 rank(s)"), "{}", job.stdout);
        let hybrid_rows = job
            .stdout
            .lines()
            .filter(|l| l.starts_with("P-256") && l.contains(" hybrid "))
            .count();
        assert_eq!(hybrid_rows, 2, "{}", job.stdout);
    }
}

#[test]
fn bad_input_on_rank_0_aborts_the_job() {
    let job = mpirun(
        2,
        &["--message", "/nonexistent/message.txt", "--mode", "mpi"],
    );
    failed_with(
        &job,
        "rank 0 of 2 failed: message file /nonexistent/message.txt: cannot read",
    );
    failed_with(&job, "aborting the MPI job");
}

/// A panic on rank 1, a panic inside one of its worker threads, and rank 1
/// killed: each ends the whole job with the reason.
#[test]
fn a_fault_on_rank_1_ends_the_job() {
    let faults: [(&[&str], &str); 3] = [
        (
            &["--lengths", "64", "--mode", "mpi", "--inject", "panic:1"],
            "rank 1 of 2 failed: panic: injected fault",
        ),
        (
            &[
                "--lengths",
                "64",
                "--mode",
                "hybrid",
                "--threads",
                "2",
                "--inject",
                "worker-panic:1",
            ],
            "rank 1 of 2 failed: panic: injected fault: a worker thread",
        ),
        (
            &["--lengths", "64", "--mode", "mpi", "--inject", "kill:1"],
            "signal 9",
        ),
    ];
    for (args, needle) in faults {
        failed_with(&mpirun(2, args), needle);
    }
}

#[test]
fn a_bad_key_file_on_rank_0_aborts_the_job() {
    // Not JSON: rank 1 is waiting in the key broadcast when rank 0 fails.
    let dir = tempfile_dir("badkey");
    let key = dir.join("key.json");
    std::fs::write(&key, "not a key").unwrap();
    let job = mpirun(
        2,
        &[
            "--key",
            key.to_str().unwrap(),
            "--mode",
            "hybrid",
            "--threads",
            "2",
        ],
    );
    let _ = std::fs::remove_dir_all(dir);
    failed_with(&job, "rank 0 of 2 failed: key is not a valid key file");
}

#[test]
fn a_stopped_rank_is_ended_by_the_watchdog() {
    let job = mpirun_with(
        &["-x", "CRYPTOBENCH_MPI_WATCHDOG=3"],
        2,
        &["--lengths", "64", "--mode", "mpi", "--inject", "stop:1"],
    );
    failed_with(&job, "rank 0 of 2 failed: waited");
    assert!(
        job.stderr
            .contains("bound of 3 s (CRYPTOBENCH_MPI_WATCHDOG)"),
        "{}",
        job.stderr
    );
    assert!(job.elapsed < Duration::from_secs(30), "{:?}", job.elapsed);
}

#[test]
fn fleet_runs_reach_rank_0_in_rank_order() {
    let job = mpirun(2, &["--fleet-demo"]);
    ok(&job);
    let lines: Vec<&str> = job
        .stdout
        .lines()
        .filter(|l| l.starts_with("fleet run"))
        .collect();
    assert_eq!(lines.len(), 2, "{}", job.stdout);
    assert!(lines[0].contains("demo-rank0-r0 from host-of-rank-0"));
    assert!(lines[1].contains("demo-rank1-r1 from host-of-rank-1"));
    assert!(lines.iter().all(|l| l.ends_with("fleet-demo-rank0-h2")));
}

#[test]
fn alone_it_is_one_rank_without_mpi() {
    let mut cmd = Command::new(example());
    cmd.args(["--lengths", "40", "--mode", "serial,mpi", "--samples", "1"]);
    for v in cryptobench_mpi::world::LAUNCHER_VARS {
        cmd.env_remove(v);
    }
    let job = wait_limited(cmd);
    ok(&job);
    assert!(job.stdout.starts_with("1 rank(s)"), "{}", job.stdout);
}

#[test]
fn usage_errors_name_what_is_accepted() {
    let mut cmd = Command::new(example());
    cmd.args(["--mode", "hybird"]);
    let job = wait_limited(cmd);
    assert_eq!(job.code, Some(2), "{}", job.stderr);
    assert!(job.stderr.contains("hybrid"), "{}", job.stderr);
}

fn tempfile_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cryptobench-mpi-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
