//! How long one committed measurement costs (fsync included): the pause the
//! store adds between two cases. `cargo run --release -p cryptobench-store --example commit_cost [N]`
#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let dir = std::env::temp_dir().join(format!("cryptobench-commit-cost-{}", std::process::id()));
    let path = dir.join("results.db");
    let store = cryptobench_store::Store::open(&path).expect("open");
    let run = common::run("commit-cost", "2026-11-22T00:00:00Z", vec![]);
    store.begin_run(&run).expect("begin");
    let m = common::measured();
    let mut each: Vec<f64> = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        store.add_measurement(&run.id, &m).expect("add");
        each.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let t = Instant::now();
    let loaded = store.load_run(&run.id).expect("load");
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    each.sort_by(f64::total_cmp);
    println!(
        "{n} commits: median {:.3} ms, max {:.3} ms; load_run of {} measurements {:.2} ms",
        each[n / 2],
        each[n - 1],
        loaded.measurements.len(),
        load_ms
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
