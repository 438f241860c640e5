//! The `elgamal` suite: cases per curve x arithmetic x encoding x length x
//! executor x operation, as seed 002 measures them.
//!
//! One operation is the whole message: encrypt = encode every chunk and
//! encrypt it; decrypt = decrypt every pair and decode it, then compare with
//! the input (every timed decryption is asserted equal to the message, as
//! the seed asserts each character). `input_bytes` is the message length,
//! so the engine's bytes/s is the seed's throughput in characters per
//! second. The worker count is a parameter (`threads`), not the engine's
//! multi-thread runner: one operation uses all its workers.

use crate::arith::{self, Arithmetic, Backend, EngineTask};
use crate::cipher::{Ciphertext, CurveEngine, Keys};
use crate::curve::Curve;
use crate::encoding::Encoding;
use crate::executor::{Executor, ExecutorSpec, Serial};
use crate::keys::RngSource;
use crate::{charts, summary};
use cryptobench_core::{
    BackendInfo, Case, CaseError, CaseSpec, CheckResult, Error, PlannedCase, RunConfig, Suite,
    SuiteProfile,
};
use std::hint::black_box;
use std::sync::{Arc, OnceLock};

/// Suite name.
pub const SUITE: &str = "elgamal";
/// The suite in one line, for `list` and `--help`.
const ABOUT: &str =
    "EC-ElGamal (seed 002): per-character encryption on P-256, secp256k1, toy64; serial vs threads";
/// Label on every case: what this scheme is and is not.
pub const SCHEME_LABEL: &str =
    "insecure: per-character ElGamal is malleable and leaks length (reproduces seed 002)";

/// Encrypt or decrypt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Encode + encrypt the whole message.
    Encrypt,
    /// Decrypt + decode the whole message, asserted equal to the input.
    Decrypt,
}

impl Op {
    /// Name in results.
    pub fn name(self) -> &'static str {
        match self {
            Op::Encrypt => "encrypt",
            Op::Decrypt => "decrypt",
        }
    }
}

/// What to measure; `None` fields take the defaults of the run mode.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Grid {
    /// Curves.
    pub curves: Option<Vec<Curve>>,
    /// Encodings.
    pub encodings: Option<Vec<Encoding>>,
    /// Message lengths in characters.
    pub lengths: Option<Vec<usize>>,
    /// Executors.
    pub executors: Option<Vec<ExecutorSpec>>,
    /// Arithmetic backends (default: the fastest per curve).
    pub ariths: Option<Vec<Backend>>,
    /// Whether to add the `openssl speed ecdhp256` peer (default yes when P-256 runs).
    pub peer: Option<bool>,
}

/// The seed's message lengths (seed 002, section IV.C).
pub const SEED_LENGTHS: [usize; 5] = [1024, 4096, 16384, 32768, 65536];
/// The default run's lengths: the seed's two shortest.
pub const DEFAULT_LENGTHS: [usize; 2] = [1024, 4096];
/// The seed's thread counts (seed 002, section IV.C).
pub const SEED_THREADS: [usize; 5] = [2, 4, 10, 100, 1000];

impl Grid {
    /// The grid with defaults filled in for `cfg` (quick / default / full).
    pub fn resolved(&self, cfg: &RunConfig) -> Grid {
        // The seed's toy curve and P-256, as `paper ecelgamal-parallel`:
        // secp256k1's per-character sweep costs as much as P-256's (seven
        // minutes of `--full`'s hour) for the same 256-bit answer, so it is
        // measured when named (`elgamal --curve secp256k1`).
        let curves = self
            .curves
            .clone()
            .unwrap_or_else(|| vec![Curve::Toy64, Curve::P256]);
        let encodings = self.encodings.clone().unwrap_or_else(|| {
            if cfg.full {
                Encoding::ALL.to_vec()
            } else {
                vec![Encoding::Char]
            }
        });
        let lengths = self.lengths.clone().unwrap_or_else(|| {
            if cfg.quick {
                vec![256]
            } else if cfg.full {
                SEED_LENGTHS.to_vec()
            } else {
                // The seed's two shortest lengths: one P-256 decryption of
                // 16 KiB takes seconds, so the longer ones (and the three
                // lengths the "length does not matter" claim needs) are
                // `--full`'s and `paper ecelgamal-parallel`'s.
                DEFAULT_LENGTHS.to_vec()
            }
        });
        let executors = self.executors.clone().unwrap_or_else(|| {
            let mut v = vec![ExecutorSpec::Serial];
            if cfg.full {
                v.extend(SEED_THREADS.iter().map(|&n| ExecutorSpec::Threads(n)));
            } else {
                v.push(ExecutorSpec::Threads((cfg.threads as usize).max(2)));
            }
            v
        });
        Grid {
            curves: Some(curves),
            encodings: Some(encodings),
            lengths: Some(lengths),
            executors: Some(executors),
            ariths: self.ariths.clone(),
            peer: Some(self.peer.unwrap_or(true)),
        }
    }
}

/// The elgamal suite.
#[derive(Debug, Clone, Default)]
pub struct ElgamalSuite {
    /// What to measure.
    pub grid: Grid,
}

impl ElgamalSuite {
    /// A suite over `grid`.
    pub fn new(grid: Grid) -> Self {
        Self { grid }
    }
}

/// A deterministic printable message (the seed encrypts text).
pub fn message(len: usize) -> Vec<u8> {
    const TEXT: &[u8] =
        b"Elliptic Curve ElGamal, each character encoded, encrypted, decrypted, decoded. ";
    TEXT.iter().copied().cycle().take(len).collect()
}

/// A rough time per character, for the progress estimate (ns).
fn expected_ns_per_char(curve: Curve, enc: Encoding, op: Op) -> f64 {
    let base = match (curve, op) {
        (Curve::Toy64, Op::Encrypt) => 1_500.0,
        (Curve::Toy64, Op::Decrypt) => 6_000.0,
        (_, Op::Encrypt) => 40_000.0,
        (_, Op::Decrypt) => 60_000.0,
    };
    base / enc.chunk_bytes(curve) as f64
}

impl Suite for ElgamalSuite {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new(SUITE, ABOUT).views(summary::tables, summary::headline, charts::charts)
    }
    fn backends(&self) -> Vec<BackendInfo> {
        arith::all().into_iter().map(arith::backend::info).collect()
    }
    fn primitives(&self) -> Vec<String> {
        Curve::NAMES.iter().map(|s| s.to_string()).collect()
    }
    fn plan(&self, cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        let g = self.grid.resolved(cfg);
        let mut out = Vec::new();
        let curves = g.curves.unwrap_or_default();
        for &curve in &curves {
            let ariths = match &g.ariths {
                Some(list) => list.clone(),
                None => vec![arith::default_for(curve)],
            };
            for &kind in &ariths {
                if !cfg.wants_backend(kind.name()) {
                    continue;
                }
                let keys = Arc::new(OnceLock::new());
                for &enc in g.encodings.as_deref().unwrap_or_default() {
                    for &len in g.lengths.as_deref().unwrap_or_default() {
                        for &exec in g.executors.as_deref().unwrap_or_default() {
                            for op in [Op::Encrypt, Op::Decrypt] {
                                let params = CaseParams {
                                    enc,
                                    len,
                                    exec,
                                    op,
                                    rng: cfg.seed.map_or(RngSource::Os, RngSource::Seeded),
                                };
                                out.push(plan_case(curve, kind, params, keys.clone()));
                            }
                        }
                    }
                }
            }
        }
        if g.peer.unwrap_or(true)
            && curves.contains(&Curve::P256)
            && cfg.wants_backend(cryptobench_engine::build::peers::OPENSSL_SPEED)
        {
            out.push(cryptobench_engine::build::peers::openssl_speed_alg(
                SUITE,
                "P-256",
                "ecdhp256",
                "derive",
                cryptobench_engine::build::peers::SpeedLine::Ecdh,
            ));
        }
        Ok(out)
    }
}

/// Keys shared by every case of one (curve, arithmetic): generated once.
type SharedKeys = Arc<OnceLock<Result<Arc<dyn std::any::Any + Send + Sync>, String>>>;

fn plan_case(curve: Curve, kind: Backend, params: CaseParams, keys: SharedKeys) -> PlannedCase {
    let CaseParams {
        enc, len, exec, op, ..
    } = params;
    let mut spec = CaseSpec::new(SUITE, curve.name(), kind.name(), kind.version(), op.name())
        .size(len as u64)
        .param("encoding", enc.name())
        .param("mode", exec.mode())
        .param("threads", exec.workers())
        .labels(curve.labels())
        .label(SCHEME_LABEL)
        .expect_ns(expected_ns_per_char(curve, enc, op) * len as f64);
    if curve.is_toy() {
        spec = spec.param("security", "breakable");
    }
    if let Some(reason) = arith::backend::unsupported_reason(kind, curve) {
        return PlannedCase::unavailable(spec, reason);
    }
    PlannedCase::ready(spec, move || {
        arith::backend::run(
            kind,
            curve,
            BuildCase {
                keys: keys.clone(),
                params,
            },
        )
        .map_err(failed)
        .and_then(|built| built)
    })
}

#[derive(Clone, Copy)]
struct CaseParams {
    enc: Encoding,
    len: usize,
    exec: ExecutorSpec,
    op: Op,
    rng: RngSource,
}

fn failed(e: impl std::fmt::Display) -> CaseError {
    CaseError::Failed(e.to_string())
}

/// Builds one case on a backend's engine, with the keys of its
/// (curve, arithmetic) generated by the first case that needs them.
struct BuildCase {
    keys: SharedKeys,
    params: CaseParams,
}

impl EngineTask for BuildCase {
    type Output = Result<Box<dyn Case>, CaseError>;
    fn run<A: Arithmetic>(self, engine: Arc<CurveEngine<A>>) -> Result<Self::Output, Error> {
        Ok(build(engine, &self.keys, self.params))
    }
}

fn build<A: Arithmetic>(
    engine: Arc<CurveEngine<A>>,
    shared: &SharedKeys,
    p: CaseParams,
) -> Result<Box<dyn Case>, CaseError> {
    let any = shared
        .get_or_init(|| {
            Keys::generate(engine, p.rng)
                .map(|k| Arc::new(k) as Arc<dyn std::any::Any + Send + Sync>)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(CaseError::Failed)?;
    let keys: Arc<Keys<A>> = any
        .downcast::<Keys<A>>()
        .map_err(|_| CaseError::Failed("key type mismatch".into()))?;
    let exec = p.exec.build().map_err(failed)?;
    let msg = message(p.len);
    let ct = match p.op {
        Op::Decrypt => Some(keys.encrypt(&msg, p.enc, &Serial, p.rng).map_err(failed)?),
        Op::Encrypt => None,
    };
    Ok(Box::new(ElgamalCase {
        keys,
        msg,
        p,
        exec,
        ct,
        verified: false,
    }))
}

struct ElgamalCase<A: Arithmetic> {
    keys: Arc<Keys<A>>,
    msg: Vec<u8>,
    p: CaseParams,
    exec: Box<dyn Executor>,
    /// Decrypt: the ciphertext to decrypt. Encrypt: the last output.
    ct: Option<Ciphertext<A>>,
    verified: bool,
}

impl<A: Arithmetic> ElgamalCase<A> {
    fn roundtrip_check(&self) -> CheckResult {
        let name = "roundtrip";
        let ct = match self
            .keys
            .encrypt(&self.msg, self.p.enc, self.exec.as_ref(), self.p.rng)
        {
            Ok(ct) => ct,
            Err(e) => return CheckResult::fail(name, format!("encrypt: {e}")),
        };
        match self.keys.decrypt(&ct, self.exec.as_ref()) {
            Ok(pt) if pt == self.msg => CheckResult::pass(
                name,
                format!(
                    "{} characters encrypted and decrypted on {}, equal",
                    self.msg.len(),
                    self.p.exec
                ),
            ),
            Ok(_) => CheckResult::fail(name, "decryption differs from the message"),
            Err(e) => CheckResult::fail(name, format!("decrypt: {e}")),
        }
    }
}

impl<A: Arithmetic> Case for ElgamalCase<A> {
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut out = vec![self.roundtrip_check()];
        out.extend(crate::checks::curve_checks(self.keys.curve()));
        out
    }
    fn prepare_batch(&mut self, _iters: u64) -> Result<(), CaseError> {
        // Once per case, the output of a timed encryption is decrypted and
        // compared (untimed), so what was timed is known to be right.
        if self.p.op == Op::Encrypt && !self.verified {
            if let Some(ct) = &self.ct {
                let pt = self.keys.decrypt(ct, &Serial).map_err(failed)?;
                if pt != self.msg {
                    return Err(CaseError::Failed(
                        "a timed encryption does not decrypt to the message".into(),
                    ));
                }
                self.verified = true;
            }
        }
        Ok(())
    }
    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        for _ in 0..iters {
            match self.p.op {
                Op::Encrypt => {
                    let ct = self
                        .keys
                        .encrypt(&self.msg, self.p.enc, self.exec.as_ref(), self.p.rng)
                        .map_err(failed)?;
                    self.ct = Some(black_box(ct));
                }
                Op::Decrypt => {
                    let ct = self
                        .ct
                        .as_ref()
                        .ok_or_else(|| CaseError::Failed("no ciphertext".into()))?;
                    let pt = self.keys.decrypt(ct, self.exec.as_ref()).map_err(failed)?;
                    if black_box(pt) != self.msg {
                        return Err(CaseError::Failed(
                            "decryption differs from the message".into(),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Runs one case outside the engine (examples, the paper's quick checks):
/// median-free, a single timed operation, in seconds.
pub fn time_once(
    curve: Curve,
    kind: Backend,
    enc: Encoding,
    len: usize,
    exec: ExecutorSpec,
    op: Op,
) -> Result<f64, Error> {
    let params = CaseParams {
        enc,
        len,
        exec,
        op,
        rng: RngSource::Os,
    };
    let planned = plan_case(curve, kind, params, Arc::new(OnceLock::new()));
    let cryptobench_core::Setup::Ready(factory) = planned.setup else {
        return Err(Error::usage(format!("{} cannot run {curve}", kind.name())));
    };
    let mut case = factory()?;
    let t = std::time::Instant::now();
    case.run_batch(1)?;
    Ok(t.elapsed().as_secs_f64())
}
