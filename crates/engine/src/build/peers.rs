//! Peers measured in the same run: `openssl speed`, driven as an external
//! process and parsed from its machine-readable (`-mr`) output.
//!
//! `openssl speed` times with CPU (user) time by default; cryptobench
//! reports wall-clock time, so the peer always runs with `-elapsed` and both
//! sides use the same clock. Each sample is one `openssl speed` process of
//! `-seconds 1`: the per-op time is its elapsed time over its count.

use cryptobench_core::{BatchTime, Case, CaseError, CaseSpec, PlannedCase};
use std::process::Command;

pub use cryptobench_core::model::OPENSSL_SPEED;

/// Seconds per `openssl speed` invocation (its smallest unit).
const SECONDS: u32 = 1;

/// Why a peer cannot run or what its output lacked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeerError {
    /// The `openssl` executable is not on the PATH.
    #[error("openssl command not found ({0}); install the Debian package openssl")]
    OpensslMissing(String),
    /// `openssl version` ran and failed.
    #[error("`openssl version` failed")]
    VersionFailed,
    /// `openssl speed -mr` printed no result line of the wanted kind.
    #[error("no '{0}' line in openssl speed output")]
    NoResultLine(&'static str),
    /// A result line that does not parse, or reports nothing.
    #[error("{what} in '{line}'")]
    BadResultLine {
        /// What is wrong with it.
        what: &'static str,
        /// The line as printed.
        line: String,
    },
}

/// The `openssl` executable's version line, or why it is missing.
pub fn openssl_cli_version() -> Result<String, PeerError> {
    let out = Command::new("openssl")
        .arg("version")
        .output()
        .map_err(|e| PeerError::OpensslMissing(e.to_string()))?;
    if !out.status.success() {
        return Err(PeerError::VersionFailed);
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Which `-mr` result line carries the count for an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedLine {
    /// `+R:count:alg:secs` (EVP ciphers and digests).
    Evp,
    /// `+R1:count:bits:secs` (RSA sign).
    RsaSign,
    /// `+R2:count:bits:secs` (RSA verify).
    RsaVerify,
    /// `+R5:count:bits:secs` (ECDSA sign).
    EcdsaSign,
    /// `+R6:count:bits:secs` (ECDSA verify).
    EcdsaVerify,
    /// `+R7:count:bits:secs` (ECDH derive).
    Ecdh,
    /// `+R8:count:bits:secs` (EdDSA sign).
    EddsaSign,
    /// `+R9:count:bits:secs` (EdDSA verify).
    EddsaVerify,
}

impl SpeedLine {
    fn tag(self) -> &'static str {
        match self {
            SpeedLine::Evp => "+R:",
            SpeedLine::RsaSign => "+R1:",
            SpeedLine::RsaVerify => "+R2:",
            SpeedLine::EcdsaSign => "+R5:",
            SpeedLine::EcdsaVerify => "+R6:",
            SpeedLine::Ecdh => "+R7:",
            SpeedLine::EddsaSign => "+R8:",
            SpeedLine::EddsaVerify => "+R9:",
        }
    }
}

/// Parses `openssl speed -mr` output: (count, seconds) of the first line of
/// the wanted kind.
pub fn parse_mr(output: &str, line: SpeedLine) -> Result<(u64, f64), PeerError> {
    let tag = line.tag();
    let l = output
        .lines()
        .find(|l| l.starts_with(tag))
        .ok_or(PeerError::NoResultLine(tag))?;
    let bad = |what| PeerError::BadResultLine {
        what,
        line: l.to_string(),
    };
    let fields: Vec<&str> = l[tag.len()..].split(':').collect();
    let (count, secs) = match (fields.first(), fields.last()) {
        (Some(c), Some(s)) if fields.len() >= 3 => (c, s),
        _ => return Err(bad("malformed line")),
    };
    let count: u64 = count.parse().map_err(|_| bad("bad count"))?;
    let secs: f64 = secs.parse().map_err(|_| bad("bad time"))?;
    if count == 0 || secs.is_nan() || secs <= 0.0 {
        return Err(bad("empty measurement"));
    }
    Ok((count, secs))
}

/// A case that runs `openssl speed` once per sample.
struct SpeedCase {
    args: Vec<String>,
    line: SpeedLine,
}

impl Case for SpeedCase {
    fn run_batch(&mut self, _iters: u64) -> Result<(), CaseError> {
        Err(CaseError::Failed("openssl speed times itself".into()))
    }
    fn time_batch(&mut self, _iters: u64) -> Option<Result<BatchTime, CaseError>> {
        Some(self.once())
    }
    fn fixed_iterations(&self) -> Option<u64> {
        Some(1)
    }
    fn calibration_is_a_sample(&self) -> bool {
        true
    }
    fn placement_free(&self) -> bool {
        true
    }
}

impl SpeedCase {
    fn once(&self) -> Result<BatchTime, CaseError> {
        let out = Command::new("openssl")
            .args(&self.args)
            .output()
            .map_err(|e| CaseError::Skipped(format!("cannot run openssl: {e}")))?;
        // `-mr` prints the +R count lines on stderr and the +F rates on stdout.
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(CaseError::Skipped(format!(
                "`openssl {}` failed: {}",
                self.args.join(" "),
                err.lines().next().unwrap_or("")
            )));
        }
        let (count, secs) =
            parse_mr(&text, self.line).map_err(|e| CaseError::Failed(e.to_string()))?;
        Ok(BatchTime {
            iters: count,
            wall_ns: secs * 1e9,
            cpu_ns: None,
            process: None,
        })
    }
}

fn planned(spec: CaseSpec, args: Vec<String>, line: SpeedLine) -> PlannedCase {
    // One sample is one process of SECONDS: what the dry run and the pacer cost.
    let spec = spec
        .param("command", format!("openssl {}", args.join(" ")))
        .expect_ns(f64::from(SECONDS) * 1e9);
    match openssl_cli_version() {
        Ok(_) => PlannedCase::ready(spec, move || {
            Ok(Box::new(SpeedCase {
                args: args.clone(),
                line,
            }) as Box<dyn Case>)
        }),
        Err(why) => PlannedCase::unavailable(spec, why.to_string()),
    }
}

fn version() -> String {
    openssl_cli_version().unwrap_or_else(|_| "unavailable".into())
}

/// `openssl speed -elapsed -mr -seconds 1` followed by `what` (the
/// algorithm and its options).
fn speed_args(what: &[&str]) -> Vec<String> {
    let head = ["speed", "-elapsed", "-mr", "-seconds", &SECONDS.to_string()].map(String::from);
    head.into_iter()
        .chain(what.iter().map(|s| s.to_string()))
        .collect()
}

/// `openssl speed -elapsed -mr -seconds 1 -evp EVP_NAME -bytes BYTES`, stored as
/// backend `peer:openssl-speed` for `primitive`/`operation` in `suite`.
pub fn openssl_speed_evp(
    suite: &str,
    primitive: &str,
    evp_name: &str,
    operation: &str,
    bytes: u64,
) -> PlannedCase {
    let args = speed_args(&["-evp", evp_name, "-bytes", &bytes.to_string()]);
    let spec = CaseSpec::new(suite, primitive, OPENSSL_SPEED, version(), operation).size(bytes);
    planned(spec, args, SpeedLine::Evp)
}

/// `openssl speed -elapsed -mr -seconds 1 ALG` for public-key algorithms
/// (`ecdsap256`, `ecdhp256`, `ed25519`, ...); `line` picks which figure
/// (sign, verify, derive) becomes the measurement.
pub fn openssl_speed_alg(
    suite: &str,
    primitive: &str,
    alg: &str,
    operation: &str,
    line: SpeedLine,
) -> PlannedCase {
    let args = speed_args(&[alg]);
    let spec =
        CaseSpec::new(suite, primitive, OPENSSL_SPEED, version(), operation).param("alg", alg);
    planned(spec, args, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Captured from `openssl speed -elapsed -mr` (OpenSSL 3.0.19).
    const EVP: &str = "+DT:AES-128-CTR:1:16384\n+R:537669:AES-128-CTR:0.960000\n+H:16384\n+F:25:AES-128-CTR:9176217600.00\n";
    const ECDSA: &str = "+DTP:256:sign:ecdsa:1\n+R5:46643:256:0.97\n+DTP:256:verify:ecdsa:1\n+R6:14949:256:0.96\n+F4:3:256:48085.567010:15571.875000\n";

    #[test]
    fn parses_machine_readable_lines() {
        assert_eq!(parse_mr(EVP, SpeedLine::Evp).unwrap(), (537669, 0.96));
        assert_eq!(
            parse_mr(ECDSA, SpeedLine::EcdsaSign).unwrap(),
            (46643, 0.97)
        );
        assert_eq!(
            parse_mr(ECDSA, SpeedLine::EcdsaVerify).unwrap(),
            (14949, 0.96)
        );
        assert!(parse_mr(ECDSA, SpeedLine::Ecdh).is_err());
        assert!(parse_mr("+R:x:AES:1.0", SpeedLine::Evp).is_err());
        assert!(parse_mr("+R:0:AES:1.0", SpeedLine::Evp).is_err());
    }

    #[test]
    fn runs_the_real_openssl_speed() {
        if let Err(why) = openssl_cli_version() {
            panic!("{why}");
        }
        let p = openssl_speed_evp("hash", "SHA-256", "sha256", "digest", 16);
        let cryptobench_core::Setup::Ready(f) = p.setup else {
            panic!("openssl present but case not ready")
        };
        let mut case = f().unwrap();
        let t = case.time_batch(1).unwrap().unwrap();
        assert!(t.iters > 1000 && t.wall_ns > 5e8, "{t:?}");
        assert_eq!(p.spec.backend, OPENSSL_SPEED);
        assert!(p.spec.params["command"].contains("-elapsed"));
    }
}
