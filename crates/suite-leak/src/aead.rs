//! AEAD open on every AEAD backend of the aead suite, with a valid tag or
//! a tag wrong at its first or its last byte.
//!
//! Two screens per backend and algorithm: valid vs wrong at the first
//! byte (does rejecting take another time than opening? a library that
//! checks the tag before decrypting rejects faster, which tells an
//! attacker only what the failure itself does), and wrong at the first
//! vs wrong at the last byte (does the tag comparison stop at the first
//! difference? that would let a forger learn the tag byte by byte).

use crate::case::{check, LeakCase, LeakInfo, Planned, Role};
use crate::error::LeakError;
use cryptobench_core::{CaseSpec, CheckResult, Offer};
use cryptobench_suite_aead::algorithms::Algorithm;
use cryptobench_suite_aead::backend::{self, seal_vec, Backend, Params, Sealer};
use std::hint::black_box;

/// Message bytes: short, so the tag check is a large share of the open.
pub const MESSAGE: usize = 64;
/// The algorithms of a default screen.
pub const DEFAULT: &[&str] = &["AES-128-GCM", "ChaCha20-Poly1305", "AEGIS-128L"];

/// Which tag each class opens with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Valid,
    WrongFirst,
    WrongLast,
}

impl Tag {
    fn name(self) -> &'static str {
        match self {
            Tag::Valid => "valid tag",
            Tag::WrongFirst => "tag wrong at its first byte",
            Tag::WrongLast => "tag wrong at its last byte",
        }
    }
}

struct Open {
    sealer: Sealer,
    nonce: Vec<u8>,
    /// Class 0's and class 1's `ciphertext || tag`.
    sealed: [Vec<u8>; 2],
    tags: [Tag; 2],
    /// The input the timed call opens, rewritten before each measurement.
    work: Vec<u8>,
    out: Vec<u8>,
}

impl Open {
    fn build(b: Backend, alg: &Algorithm, tags: [Tag; 2]) -> Result<Self, LeakError> {
        let key: Vec<u8> = (0..alg.key_len).map(|i| (i * 29 + 7) as u8).collect();
        let params = Params {
            key: &key,
            nonce_len: alg.nonce_len,
            tag_len: alg.default_tag,
        };
        let mut sealer = b
            .build(alg, &params)
            .map_err(|e| LeakError::Unavailable(e.to_string()))?;
        let nonce: Vec<u8> = (0..alg.nonce_len).map(|i| i as u8).collect();
        let msg: Vec<u8> = (0..MESSAGE).map(|i| (i * 13) as u8).collect();
        let valid = seal_vec(&mut sealer, &nonce, b"", &msg)
            .map_err(|_| LeakError::Failed(format!("{} {} seal failed", b.name(), alg.name)))?;
        let sealed = tags.map(|t| {
            let mut v = valid.clone();
            let tag_at = v.len() - alg.default_tag;
            match t {
                Tag::Valid => {}
                Tag::WrongFirst => v[tag_at] ^= 1,
                Tag::WrongLast => *v.last_mut().expect("a tag") ^= 1,
            }
            v
        });
        Ok(Self {
            sealer,
            nonce,
            sealed,
            tags,
            work: valid,
            out: vec![0; MESSAGE],
        })
    }

    fn opens(&mut self, class: usize) -> bool {
        self.sealer
            .open(&self.nonce, b"", &self.sealed[class], &mut self.out)
            .is_ok()
    }
}

impl LeakCase for Open {
    fn inputs(&self) -> usize {
        1
    }
    fn checks(&mut self) -> Vec<CheckResult> {
        (0..2)
            .map(|class| {
                let want = self.tags[class] == Tag::Valid;
                let got = self.opens(class);
                check(
                    "tag",
                    got == want,
                    format!(
                        "{} {}",
                        self.tags[class].name(),
                        if got { "opens" } else { "is rejected" }
                    ),
                )
            })
            .collect()
    }
    fn prepare(&mut self, class: usize, _input: usize) {
        self.work.copy_from_slice(&self.sealed[class]);
    }
    fn run(&mut self, _class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            let r = self
                .sealer
                .open(&self.nonce, b"", black_box(&self.work), &mut self.out);
            black_box(r.is_ok());
        }
        Ok(())
    }
}

fn info(b: Backend, alg: &Algorithm, tags: [Tag; 2], probes: &str) -> LeakInfo {
    LeakInfo {
        spec: CaseSpec::new(crate::SUITE, alg.name, b.name(), b.version(), "open")
            .size(MESSAGE as u64),
        classes: tags.map(|t| t.name().to_string()),
        probes: probes.into(),
        role: Role::Library,
    }
}

/// The screens of `alg` on every backend that offers it (and in
/// `backends`, when given).
pub fn plan(alg: &'static Algorithm, backends: Option<&[String]>) -> Vec<Planned> {
    let pairs = [
        (
            [Tag::Valid, Tag::WrongFirst],
            "whether rejecting a forgery takes another time than opening",
        ),
        (
            [Tag::WrongFirst, Tag::WrongLast],
            "whether the tag comparison stops at the first wrong byte",
        ),
    ];
    let mut out = Vec::new();
    for &b in backend::all() {
        if backends.is_some_and(|l| !l.iter().any(|n| n == b.name())) {
            continue;
        }
        let offer = b.offers(alg);
        if offer == Offer::NotOffered {
            continue;
        }
        for (tags, probes) in pairs {
            let i = info(b, alg, tags, probes);
            out.push(match &offer {
                Offer::Unavailable(reason) => Planned::unavailable(i, reason.clone()),
                _ => Planned::ready(
                    i,
                    Box::new(move || Ok(Box::new(Open::build(b, alg, tags)?) as Box<dyn LeakCase>)),
                ),
            });
        }
    }
    out
}

/// Every AEAD backend's name.
pub fn backend_names() -> Vec<&'static str> {
    backend::all().iter().map(|b| b.name()).collect()
}
