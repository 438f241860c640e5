//! Go: the standard library (crypto/aes and crypto/des with crypto/cipher's
//! modes, cipher.NewGCM, sha256, ecdsa, ed25519) and golang.org/x/crypto
//! (chacha20, chacha20poly1305, argon2, blake2b, sha3, curve25519), timed with `time.Now` (monotonic in Go). The runner,
//! go/runner/, is compiled on first use into the runner cache.
//!
//! The built binary is checked against the record of its build before
//! every start (see [`crate::cache`]); a changed one is built again.
//!
//! The build takes Debian's golang-golang-x-crypto-dev sources when they
//! are installed (GOPATH mode, no network); otherwise module mode, with
//! go.sum pinning what the module proxy serves.

use crate::cache;
use crate::cell::{build_inputs, overhead_cell, RuntimeSpec};
use crate::discover::Program;
use crate::script::{embedded, run_build, EmbeddedScript, ScriptError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's golang-*-dev packages put their sources.
const DEBIAN_GOPATH: &str = "/usr/share/gocode";

/// Go as a cell-driven runtime.
pub static SPEC: RuntimeSpec = RuntimeSpec {
    name: "go",
    title: "Go",
    program: Program {
        runtime: "go",
        default_name: "go",
        env_override: "CRYPTOBENCH_GO",
        install: "apt-get install golang-go golang-golang-x-crypto-dev",
    },
    preferred: &[],
    files: &[
        embedded!("go/runner", "main.go"),
        embedded!("go/runner", "cipher.go"),
        embedded!("go/runner", "phc.go"),
        embedded!("go/runner", "go.mod"),
        embedded!("go/runner", "go.sum"),
    ],
    launch: build,
    suites: &["hash", "cipher", "aead", "ecc", "argon2"],
    headline: overhead_cell,
};

/// Builds `dir`'s runner unless the one there is the build of these
/// sources recorded beside it, unchanged since (docs/security.md), and
/// starts it.
fn build(
    go: &Path,
    dir: &Path,
    files: &[EmbeddedScript],
) -> Result<(PathBuf, Vec<OsString>), ScriptError> {
    let binary = dir.join("runner");
    let debian = Path::new(DEBIAN_GOPATH)
        .join("src/golang.org/x/crypto")
        .is_dir();
    let how = format!(
        "go build {}, {}",
        go.display(),
        if debian { "GOPATH mode" } else { "module mode" }
    );
    let inputs = build_inputs(files, &how);
    if cache::built_is_current(dir, "runner", &inputs)? {
        return Ok((binary, Vec::new()));
    }
    // Built under a private name and renamed: a concurrent run never
    // starts half a binary.
    let tmp = dir.join(format!(".runner.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let mut cmd = Command::new(go);
    cmd.current_dir(dir).arg("build").arg("-o").arg(&tmp);
    if debian {
        cmd.env("GO111MODULE", "off").env("GOPATH", DEBIAN_GOPATH);
        if let Some(v) = debian_version("golang-golang-x-crypto-dev") {
            cmd.arg(format!("-ldflags=-X main.xcrypto={v}"));
        }
    } else {
        cmd.env("GO111MODULE", "on").env("GOFLAGS", "-mod=mod");
    }
    cmd.arg(".");
    if std::env::var_os("GOCACHE").is_none() && std::env::var_os("HOME").is_none() {
        cmd.env("GOCACHE", dir.join(".gocache"));
    }
    let placed = run_build(
        &mut cmd,
        "go build",
        go,
        "golang-go and golang-golang-x-crypto-dev",
    )
    .and_then(|()| cache::seal_built(&tmp))
    .and_then(|digest| {
        std::fs::rename(&tmp, &binary).map_err(|e| ScriptError::io("place", &binary, e))?;
        cache::record_built(dir, "runner", &inputs, &digest)
    });
    if let Err(e) = placed {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok((binary, Vec::new()))
}

/// The installed version of a Debian package, e.g. `1:0.4.0-1`.
fn debian_version(package: &str) -> Option<String> {
    let out = Command::new("dpkg-query")
        .args(["-W", "-f=${Version}", package])
        .output()
        .ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty() && !v.contains(char::is_whitespace))
        .then(|| format!("{v}-debian"))
}
