//! Java: the JCA (the JDK's own providers) and Bouncy Castle, timed with
//! `System.nanoTime`. The runner is java/Runner.java, compiled by `javac`
//! on first use into the runner cache, with Debian's bcprov.jar on the
//! class path when installed (Bouncy Castle is loaded by reflection, so
//! the classes do not depend on it). Launched as a single source file,
//! every JVM compiled the runner again: 2.8 s a start against 0.4 s, and
//! a run starts two JVMs per suite. Without a `javac` beside `java` (a JRE
//! alone) it is still run as a single source file (Java 11+).
//!
//! JIT warm-up is part of calibration: each `prepare` runs the case until,
//! past 50,000 calls or 0.2 s, three 5 ms batches in a row come out no 3%
//! faster per call than the last batch that did, while HotSpot finishes no
//! compilation and its other threads (compilers, GC) use under a tenth of
//! a core (at most 2 s; node/runner.js waits for three batches within 3%
//! without the compiler signals, 0.3 s at most), and the engine's own
//! warm-up and calibration batches follow. The CPU signal matters on 2
//! cores: a C2 compilation still running ends no compilation, and with
//! the compile counter alone half the processes measured AES at 16 B at
//! 170-760 ns per call, still warming, against 85-95 ns settled. The answer's `warmup` says how
//! many calls it took and whether the time settled.

use crate::cache;
use crate::cell::{build_inputs, entry, overhead_cell, RuntimeSpec};
use crate::discover::Program;
use crate::script::{embedded, run_build, EmbeddedScript, ScriptError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's libbcprov-java puts Bouncy Castle.
pub const BCPROV: &str = "/usr/share/java/bcprov.jar";

/// Java as a cell-driven runtime.
pub static SPEC: RuntimeSpec = RuntimeSpec {
    name: "java",
    title: "Java",
    program: Program {
        runtime: "java",
        default_name: "java",
        env_override: "CRYPTOBENCH_JAVA",
        install: "apt-get install default-jdk-headless libbcprov-java",
    },
    preferred: &[],
    files: &[embedded!("java", "Runner.java")],
    launch,
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};

/// Starts the runner from its compiled classes in `dir`, compiling them
/// first unless the ones there are the recorded build of these sources,
/// unchanged since (docs/security.md).
fn launch(
    java: &Path,
    dir: &Path,
    files: &[EmbeddedScript],
) -> Result<(PathBuf, Vec<OsString>), ScriptError> {
    let entry = entry(files);
    let classes = compiled(java, dir, files)?;
    let mut class_path: Vec<PathBuf> = Vec::new();
    if Path::new(BCPROV).is_file() {
        class_path.push(BCPROV.into());
    }
    class_path.extend(classes.clone());
    // Compile in the calling thread, not in the background: the runner
    // shares the measuring core, and a C2 compilation still running after
    // a batch returned ran inside the next member's batch.
    let mut args: Vec<OsString> = vec!["-Xbatch".into()];
    if !class_path.is_empty() {
        let joined = std::env::join_paths(&class_path)
            .map_err(|e| ScriptError::io("put on the class path", dir, std::io::Error::other(e)))?;
        args.extend(["-cp".into(), joined]);
    }
    args.push(match classes {
        Some(_) => main_class(entry).into(),
        None => dir.join(entry).into_os_string(),
    });
    Ok((java.to_path_buf(), args))
}

/// The directory of the runner's compiled classes under `dir`, compiled
/// now if needed; `None` when no `javac` sits beside `java`.
fn compiled(
    java: &Path,
    dir: &Path,
    files: &[EmbeddedScript],
) -> Result<Option<PathBuf>, ScriptError> {
    let entry = entry(files);
    let classes = dir.join("classes");
    let Some(javac) = javac_beside(java) else {
        return Ok(None);
    };
    let inputs = build_inputs(files, &format!("javac {}", javac.display()));
    if cache::built_is_current(dir, "classes", &inputs)? {
        return Ok(Some(classes));
    }
    // Compiled under a private name and renamed: a concurrent run never
    // loads half the classes.
    let tmp = dir.join(format!(".classes.{}.tmp", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let mut cmd = Command::new(&javac);
    cmd.arg("-nowarn").arg("-d").arg(&tmp).arg(dir.join(entry));
    let digest = run_build(&mut cmd, "javac", &javac, "default-jdk-headless")
        .and_then(|()| cache::seal_built(&tmp));
    let digest = match digest {
        Ok(d) => d,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    match std::fs::rename(&tmp, &classes) {
        Ok(()) => cache::record_built(dir, "classes", &inputs, &digest)?,
        // Another run placed them first (and records them): theirs are
        // the same classes.
        Err(_) if classes.is_dir() => {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        Err(e) => return Err(ScriptError::io("place", &classes, e)),
    }
    Ok(Some(classes))
}

/// `javac` from the same JDK as `java`: beside its real path first (the
/// JDK's own bin/), then beside the path given. One from elsewhere on the
/// path could be another JDK, whose classes this `java` may refuse.
fn javac_beside(java: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(java).ok();
    [real, Some(java.to_path_buf())]
        .into_iter()
        .flatten()
        .filter_map(|p| p.parent().map(|d| d.join("javac")))
        .find(|p| p.is_file())
}

/// `Runner.java` -> `Runner`.
fn main_class(entry: &str) -> &str {
    entry.strip_suffix(".java").unwrap_or(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_class_is_the_entry_without_its_suffix() {
        assert_eq!(main_class("Runner.java"), "Runner");
        assert_eq!(main_class("Runner"), "Runner");
    }
}
