//! The binary under mpirun: `elgamal bench --mode mpi` with two ranks gives
//! one run on rank 0 with the distributed rows, and nothing from rank 1.

use std::process::Command;
use std::time::Duration;

#[test]
fn elgamal_mpi_bench_under_mpirun_reports_on_rank_0_only() {
    let mpirun = Command::new("mpirun").arg("--version").output();
    assert!(mpirun.is_ok(), "mpirun is missing: apt-get install -y openmpi-bin libopenmpi-dev (scripts/install-deps does)");
    let exe = assert_cmd::cargo::cargo_bin("cryptobench");
    let mut child = Command::new("timeout")
        .args([
            "120",
            "mpirun",
            "--allow-run-as-root",
            "--oversubscribe",
            "--bind-to",
            "none",
            "-n",
            "2",
        ])
        .arg(&exe)
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
