//! Public-key cases on the pubkey suite's backends: X25519 with a fixed
//! vs a random scalar, ML-KEM-768 decapsulation of a valid vs an invalid
//! ciphertext (implicit rejection must not show: KyberSlash was a timing
//! leak of this kind), Ed25519 signing of a fixed vs a random message.

use crate::case::{check, LeakCase, LeakInfo, Planned, Role};
use crate::error::LeakError;
use cryptobench_core::{CaseSpec, CheckResult};
use cryptobench_suite_pubkey::engines::{
    self, AgreementSecret, Entry, Kem, KemSecret, KeyAgreement, Signer, SigningKey,
};
use cryptobench_suite_pubkey::error::PkError;
use std::hint::black_box;

/// Inputs prepared per class (keys, ciphertexts, messages).
pub const POOL: usize = 32;
/// The pubkey algorithms a screen knows.
pub const ALGORITHMS: &[&str] = &["X25519", "ML-KEM-768", "Ed25519"];

fn pk(what: &str) -> impl Fn(PkError) -> LeakError + '_ {
    move |e| match e {
        PkError::Unavailable(r) => LeakError::Unavailable(r),
        other => LeakError::failed(what, other),
    }
}

fn info(e: &dyn Entry, operation: &str, classes: [&str; 2], probes: &str) -> LeakInfo {
    LeakInfo {
        spec: CaseSpec::new(
            crate::SUITE,
            e.algorithm().name,
            e.backend(),
            e.version(),
            operation,
        ),
        classes: classes.map(str::to_string),
        probes: probes.into(),
        role: Role::Library,
    }
}

fn planned(available: Result<(), PkError>, i: LeakInfo, build: crate::case::Build) -> Planned {
    match available {
        Ok(()) => Planned::ready(i, build),
        Err(err) => Planned::unavailable(i, err.to_string()),
    }
}

fn wanted(e: &dyn Entry, alg: &str, backends: Option<&[String]>) -> bool {
    e.algorithm().name == alg && backends.is_none_or(|l| l.iter().any(|n| n == e.backend()))
}

/// X25519 shared secrets with fixed vs random secret scalars.
struct Agreement {
    secrets: [Vec<Box<dyn AgreementSecret>>; 2],
}

impl Agreement {
    fn build(entry: &dyn KeyAgreement) -> Result<Self, LeakError> {
        let peer = entry.generate().map_err(pk("peer key"))?.public_key();
        let fixed = entry
            .generate()
            .and_then(|s| s.secret_key())
            .map_err(pk("fixed key"))?;
        let mut secrets: [Vec<Box<dyn AgreementSecret>>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..POOL {
            let mut f = entry.import_secret(&fixed).map_err(pk("import"))?;
            let mut r = entry.generate().map_err(pk("random key"))?;
            f.prepare_peer(&peer).map_err(pk("peer"))?;
            r.prepare_peer(&peer).map_err(pk("peer"))?;
            secrets[0].push(f);
            secrets[1].push(r);
        }
        Ok(Self { secrets })
    }
}

impl LeakCase for Agreement {
    fn inputs(&self) -> usize {
        POOL
    }
    fn run(&mut self, class: usize, input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            let s = self.secrets[class][input].derive_prepared();
            black_box(s.map_err(pk("derive"))?);
        }
        Ok(())
    }
}

/// ML-KEM decapsulation of valid vs invalid ciphertexts.
struct Decaps {
    key: Box<dyn KemSecret>,
    ciphertexts: [Vec<Vec<u8>>; 2],
    secrets: Vec<Vec<u8>>,
    /// The ciphertext the timed call decapsulates.
    work: Vec<u8>,
}

impl Decaps {
    fn build(entry: &dyn Kem) -> Result<Self, LeakError> {
        let key = entry.generate().map_err(pk("key"))?;
        let public = entry
            .import_public(&key.public_key())
            .map_err(pk("public key"))?;
        let mut ciphertexts: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
        let mut secrets = Vec::new();
        for i in 0..POOL {
            let (ct, ss) = public.encaps().map_err(pk("encaps"))?;
            let mut bad = ct.clone();
            let at = (i * 97) % bad.len();
            bad[at] ^= 1;
            ciphertexts[0].push(ct);
            ciphertexts[1].push(bad);
            secrets.push(ss);
        }
        Ok(Self {
            key,
            work: ciphertexts[0][0].clone(),
            ciphertexts,
            secrets,
        })
    }
}

impl LeakCase for Decaps {
    fn inputs(&self) -> usize {
        POOL
    }
    fn checks(&mut self) -> Vec<CheckResult> {
        let mut valid = true;
        let mut rejected = true;
        for i in 0..POOL {
            valid &=
                self.key.decaps(&self.ciphertexts[0][i]).ok().as_ref() == Some(&self.secrets[i]);
            rejected &=
                self.key.decaps(&self.ciphertexts[1][i]).ok().as_ref() != Some(&self.secrets[i]);
        }
        vec![
            check(
                "valid",
                valid,
                "valid ciphertexts give the encapsulated secret",
            ),
            check(
                "invalid",
                rejected,
                "a flipped bit gives another secret (implicit rejection)",
            ),
        ]
    }
    fn prepare(&mut self, class: usize, input: usize) {
        self.work.copy_from_slice(&self.ciphertexts[class][input]);
    }
    fn run(&mut self, _class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            let s = self.key.decaps(black_box(&self.work));
            black_box(s.map_err(pk("decaps"))?);
        }
        Ok(())
    }
}

/// Ed25519 signatures of a fixed vs random 32-byte messages.
struct Sign {
    key: Box<dyn SigningKey>,
    messages: [Vec<[u8; 32]>; 2],
    /// The message the timed call signs.
    work: [u8; 32],
}

impl LeakCase for Sign {
    fn inputs(&self) -> usize {
        POOL
    }
    fn prepare(&mut self, class: usize, input: usize) {
        self.work = self.messages[class][input];
    }
    fn run(&mut self, _class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            let s = self.key.sign(black_box(&self.work));
            black_box(s.map_err(pk("sign"))?);
        }
        Ok(())
    }
}

fn sign_case(entry: &dyn Signer) -> Result<Sign, LeakError> {
    let key = entry.generate().map_err(pk("key"))?;
    let fixed = [0x42u8; 32];
    let messages = [
        vec![fixed; POOL],
        (0..POOL).map(|_| engines::random::<32>()).collect(),
    ];
    Ok(Sign {
        key,
        messages,
        work: fixed,
    })
}

/// The screens of `alg` (one of [`ALGORITHMS`]) on every backend that has
/// it (and is in `backends`, when given).
pub fn plan(alg: &str, backends: Option<&[String]>) -> Vec<Planned> {
    let mut out = Vec::new();
    let keep = |e: &dyn Entry| wanted(e, alg, backends);
    for e in engines::agreements()
        .into_iter()
        .filter(|e| keep(e.as_ref()))
    {
        let i = info(
            e.as_ref(),
            "derive",
            ["fixed scalar", "random scalar"],
            "whether the scalar multiplication's time depends on the secret scalar",
        );
        let available = e.available();
        let p = planned(
            available,
            i,
            Box::new(move || Ok(Box::new(Agreement::build(e.as_ref())?) as Box<dyn LeakCase>)),
        );
        out.push(p);
    }
    for e in engines::base_kems()
        .into_iter()
        .filter(|e| keep(e.as_ref()))
    {
        let i = info(
            e.as_ref(),
            "decaps",
            ["valid ciphertext", "invalid ciphertext"],
            "whether implicit rejection shows in the time (a decryption-failure oracle)",
        );
        let available = e.available();
        let p = planned(
            available,
            i,
            Box::new(move || Ok(Box::new(Decaps::build(e.as_ref())?) as Box<dyn LeakCase>)),
        );
        out.push(p);
    }
    for e in engines::signers().into_iter().filter(|e| keep(e.as_ref())) {
        let i = info(
            e.as_ref(),
            "sign",
            ["fixed message", "random message"],
            "whether signing time depends on the message (and the nonce derived from it)",
        );
        let available = e.available();
        let p = planned(
            available,
            i,
            Box::new(move || Ok(Box::new(sign_case(e.as_ref())?) as Box<dyn LeakCase>)),
        );
        out.push(p);
    }
    out
}

/// Every pubkey backend's name.
pub fn backend_names() -> Vec<&'static str> {
    engines::backend_names()
}
