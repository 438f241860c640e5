//! The binary under mpirun: `elgamal bench --mode mpi` with two ranks gives
//! one run on rank 0 with the distributed rows, and nothing from rank 1.

use std::process::Command;
use std::time::Duration;

/// The binary on two ranks under mpirun, killed after `seconds`; fails with
/// the install command when mpirun is missing.
fn two_ranks(seconds: u32) -> Command {
    let mpirun = Command::new("mpirun").arg("--version").output();
    assert!(mpirun.is_ok(), "mpirun is missing: apt-get install -y openmpi-bin libopenmpi-dev (scripts/install-deps does)");
    let mut c = Command::new("timeout");
    c.arg(seconds.to_string())
        .args(["mpirun", "--allow-run-as-root", "--oversubscribe"])
        .args(["--bind-to", "none", "-n", "2"])
        .arg(assert_cmd::cargo::cargo_bin("cryptobench"));
    c
}

#[test]
fn elgamal_mpi_bench_under_mpirun_reports_on_rank_0_only() {
    let mut child = two_ranks(120)
        .args([
            "--no-db",
            "--quick",
            "-o",
            "json:-",
            "--quiet",
            "elgamal",
            "bench",
            "--curve",
            "toy64",
            "--lengths",
            "2048",
            "--mode",
            "serial,mpi",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(150), "mpirun hung");
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Exactly one JSON document: rank 1 prints nothing.
    let run: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("one JSON run on stdout");
    let ms = run["measurements"].as_array().unwrap();
    let mpi: Vec<_> = ms.iter().filter(|m| m["params"]["mode"] == "mpi").collect();
    assert_eq!(mpi.len(), 2, "encrypt and decrypt with mode=mpi");
    for m in mpi {
        assert_eq!(m["params"]["ranks"], "2");
        assert_eq!(m["status"], "measured");
        assert!(m["extra"]["comm_fraction"].as_f64().is_some());
    }
}

/// `mpirun -n 2 cryptobench run --fleet`: both ranks measure, rank 0 stores
/// two runs of one fleet in the database and prints the fleet table.
#[test]
fn fleet_run_under_mpirun_stores_one_run_per_rank() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fleet.db");
    let out = two_ranks(150)
        .arg("--db")
        .arg(&db)
        .args([
            "--quick",
            "--time",
            "50ms",
            "run",
            "--fleet",
            "--suite",
            "hash",
            "--no-report",
            "--backend",
            "openssl,rustcrypto",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One fleet table, printed once (rank 1 prints nothing).
    assert_eq!(stdout.matches("Fleet fleet-").count(), 1, "{stdout}");
    assert!(stdout.contains("r1/r0"), "{stdout}");
    // Full width: each run's fleet must sit on the run's own line.
    let runs = Command::new(assert_cmd::cargo::cargo_bin("cryptobench"))
        .arg("--db")
        .arg(&db)
        .args(["runs", "--wide"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&runs.stdout);
    let lines: Vec<&str> = listed
        .lines()
        .filter(|l| l.contains("-r0 ") || l.contains("-r1 "))
        .collect();
    assert_eq!(lines.len(), 2, "{listed}");
    for line in &lines {
        assert!(line.contains("complete"), "{listed}");
        assert!(
            line.contains("-h2"),
            "both runs belong to one fleet of 2: {listed}"
        );
    }
}

/// Without --fleet, `run` under mpirun refuses (every rank would measure
/// and store the same run) with a usage error instead of doing it twice.
#[test]
fn run_under_mpirun_without_fleet_is_a_usage_error() {
    let out = two_ranks(60)
        .args([
            "--no-db",
            "--quick",
            "run",
            "--suite",
            "hash",
            "--no-report",
            "--backend",
            "openssl,rustcrypto",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("add --fleet"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
