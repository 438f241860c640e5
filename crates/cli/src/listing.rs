//! `cryptobench list`: what this machine offers. Every backend of every
//! suite, every runtime that twins the native cases, the peers and the
//! executors (serial, threads, MPI), each with its version or the reason it
//! cannot be used here.

use crate::args::{Global, ListArgs};
use crate::registry;
use anyhow::Result;
use cryptobench_core::{names, BackendInfo, Table};

/// The three listings, in the order `list` prints them.
const WHAT: [&str; 3] = ["suites", "backends", "primitives"];

/// `cryptobench list [suites|backends|primitives]`.
pub fn list(g: &Global, a: &ListArgs) -> Result<u8> {
    let what = match &a.what {
        Some(w) => vec![names::resolve("list", w, &WHAT)?],
        None => WHAT.to_vec(),
    };
    let suites = registry::suites();
    let mut tables = Vec::new();
    if what.contains(&"suites") {
        let mut t = Table::new("Suites", ["suite", "about"]);
        for s in &suites {
            t.row([s.name().to_string(), s.about().to_string()]);
        }
        tables.push(t);
    }
    if what.contains(&"backends") {
        tables.push(backends_table(&suites));
    }
    if what.contains(&"primitives") {
        let mut t = Table::new("Primitives", ["suite", "primitives"]);
        for s in &suites {
            t.row([s.name().to_string(), s.primitives().join(", ")]);
        }
        tables.push(t);
    }
    crate::formats::print_tables(
        g,
        &tables,
        "name one: `list suites`, `list backends` or `list primitives`",
    )?;
    Ok(0)
}

fn availability(unavailable: Option<String>) -> String {
    unavailable
        .map(|r| format!("unavailable: {r}"))
        .unwrap_or_else(|| "available".into())
}

/// Every backend, runtime, peer and executor with version and availability.
fn backends_table(suites: &[Box<dyn cryptobench_core::Suite>]) -> Table {
    let mut t = Table::new(
        "Backends, runtimes, peers and executors",
        ["kind", "name", "version", "availability", "used by"],
    );
    // One row per backend, with the suites that use it.
    let mut backends: Vec<(BackendInfo, Vec<&str>)> = Vec::new();
    for s in suites {
        for b in s.backends() {
            match backends.iter_mut().find(|(x, _)| x.name == b.name) {
                Some((_, used_by)) => used_by.push(s.name()),
                None => backends.push((b, vec![s.name()])),
            }
        }
    }
    for (b, used_by) in backends {
        t.row([
            "backend".to_string(),
            b.name,
            b.version,
            availability(b.unavailable),
            used_by.join(", "),
        ]);
    }
    for rt in registry::runtimes() {
        let b = rt.backend_info();
        t.row([
            "runtime".to_string(),
            b.name,
            b.version,
            availability(b.unavailable),
            "twins of the native cases".into(),
        ]);
    }
    let peer = cryptobench_engine::build::peers::openssl_cli_version();
    t.row([
        "peer".to_string(),
        cryptobench_core::model::OPENSSL_SPEED.into(),
        peer.clone().unwrap_or_default(),
        availability(peer.err().map(|e| e.to_string())),
        "hash, cipher, aead, ecc".into(),
    ]);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    t.row([
        "executor",
        "serial",
        "-",
        "available",
        "every suite (the default)",
    ]);
    t.row([
        "executor".to_string(),
        "threads".into(),
        "-".into(),
        format!("available ({cpus} logical CPUs)"),
        "every suite (--threads N), elgamal --workers".into(),
    ]);
    let (version, why) = match mpirun_version() {
        Ok(v) => (v, None),
        Err(why) => (String::new(), Some(why)),
    };
    for (name, about) in [
        ("mpi", "elgamal --mode mpi, run --fleet (docs/mpi.md)"),
        ("hybrid", "elgamal --mode hybrid"),
    ] {
        t.row([
            "executor".to_string(),
            name.into(),
            version.clone(),
            match &why {
                None => "available under mpirun".to_string(),
                Some(why) => format!("unavailable: {why}"),
            },
            about.into(),
        ]);
    }
    t
}

/// `mpirun --version`'s first line, or why there is none.
fn mpirun_version() -> Result<String, String> {
    let out = std::process::Command::new("mpirun")
        .arg("--version")
        .output()
        .map_err(|_| {
            "mpirun not found (install: apt-get install openmpi-bin libopenmpi-dev)".to_string()
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .next()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .ok_or_else(|| "mpirun --version printed nothing".to_string())
}
