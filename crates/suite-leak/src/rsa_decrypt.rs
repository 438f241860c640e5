//! RSA-2048 PKCS#1 v1.5 decryption of a valid vs an invalid padding (the
//! Bleichenbacher and Marvin oracles: a server whose decryption time
//! tells a well-padded ciphertext from a badly padded one lets an attacker
//! decrypt), on OpenSSL, aws-lc-rs and RustCrypto `rsa`. RUSTSEC-2023-0071
//! records a timing side channel in RustCrypto `rsa` (its big-integer
//! arithmetic is not constant time; no fixed release); its `decrypt`
//! without blinding is screened as a caller would use it.
//!
//! One key (made by OpenSSL, handed to the others as PKCS#8), 32
//! ciphertexts per class: class 0 the encryption of 32 random bytes,
//! class 1 a raw RSA encryption of a block that starts `00 02` but has no
//! zero byte ending the padding.

use crate::case::{check, LeakCase, LeakInfo, Planned, Role};
use crate::error::LeakError;
use cryptobench_core::{CaseSpec, CheckResult};
use openssl::pkey::{PKey, Private};
use openssl::rsa::{Padding, Rsa};
use std::hint::black_box;

/// The screen's name for it.
pub const NAME: &str = "RSA-2048-PKCS1";
/// Ciphertexts per class.
pub const POOL: usize = 32;
const BYTES: usize = 256;

/// The backends screened, in table order.
pub const BACKENDS: [&str; 3] = ["openssl", "aws-lc-rs", "rustcrypto"];

/// One backend's private key, ready to decrypt.
enum Key {
    OpenSsl(Rsa<Private>),
    AwsLc(aws_lc_rs::rsa::Pkcs1PrivateDecryptingKey),
    RustCrypto(Box<rsa::RsaPrivateKey>),
}

impl Key {
    /// The message, or `None` when the padding is refused.
    fn decrypt(&self, ct: &[u8], out: &mut [u8]) -> Option<usize> {
        match self {
            Key::OpenSsl(k) => k.private_decrypt(ct, out, Padding::PKCS1).ok(),
            Key::AwsLc(k) => k.decrypt(ct, out).ok().map(|m| m.len()),
            Key::RustCrypto(k) => k.decrypt(rsa::Pkcs1v15Encrypt, ct).ok().map(|m| {
                out[..m.len()].copy_from_slice(&m);
                m.len()
            }),
        }
    }
}

struct Decrypt {
    key: Key,
    ciphertexts: [Vec<Vec<u8>>; 2],
    messages: Vec<Vec<u8>>,
    work: Vec<u8>,
    out: Vec<u8>,
}

fn ossl(what: &str) -> impl Fn(openssl::error::ErrorStack) -> LeakError + '_ {
    move |e| LeakError::failed(what, e)
}

fn random(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    openssl::rand::rand_bytes(&mut v).expect("the system's random bytes");
    v
}

impl Decrypt {
    fn build(backend: &str) -> Result<Self, LeakError> {
        let rsa = Rsa::generate(2048).map_err(ossl("RSA key"))?;
        let pkcs8 = PKey::from_rsa(rsa.clone())
            .and_then(|k| k.private_key_to_pkcs8())
            .map_err(ossl("PKCS#8"))?;
        let mut ciphertexts: [Vec<Vec<u8>>; 2] = [Vec::new(), Vec::new()];
        let mut messages = Vec::new();
        for _ in 0..POOL {
            let msg = random(32);
            let mut ct = vec![0u8; BYTES];
            rsa.public_encrypt(&msg, &mut ct, Padding::PKCS1)
                .map_err(ossl("encrypt"))?;
            let mut block: Vec<u8> = random(BYTES).into_iter().map(|b| b | 1).collect();
            block[0] = 0;
            block[1] = 2;
            let mut bad = vec![0u8; BYTES];
            rsa.public_encrypt(&block, &mut bad, Padding::NONE)
                .map_err(ossl("raw encrypt"))?;
            ciphertexts[0].push(ct);
            ciphertexts[1].push(bad);
            messages.push(msg);
        }
        let key = match backend {
            "openssl" => Key::OpenSsl(rsa),
            "aws-lc-rs" => {
                let k = aws_lc_rs::rsa::PrivateDecryptingKey::from_pkcs8(&pkcs8)
                    .map_err(|e| LeakError::failed("aws-lc-rs key", e))?;
                Key::AwsLc(
                    aws_lc_rs::rsa::Pkcs1PrivateDecryptingKey::new(k)
                        .map_err(|e| LeakError::failed("aws-lc-rs key", e))?,
                )
            }
            _ => {
                use rsa::pkcs8::DecodePrivateKey;
                Key::RustCrypto(Box::new(
                    rsa::RsaPrivateKey::from_pkcs8_der(&pkcs8)
                        .map_err(|e| LeakError::failed("rsa key", e))?,
                ))
            }
        };
        Ok(Self {
            key,
            work: ciphertexts[0][0].clone(),
            ciphertexts,
            messages,
            out: vec![0u8; BYTES],
        })
    }
}

impl LeakCase for Decrypt {
    fn inputs(&self) -> usize {
        POOL
    }
    fn checks(&mut self) -> Vec<CheckResult> {
        let (mut valid, mut invalid) = (true, true);
        for i in 0..POOL {
            let got = self.key.decrypt(&self.ciphertexts[0][i], &mut self.out);
            valid &= got.is_some_and(|n| self.out[..n] == self.messages[i][..]);
            let bad = self.key.decrypt(&self.ciphertexts[1][i], &mut self.out);
            // Refused, or (implicit rejection) a message that is not one of ours.
            invalid &= bad.is_none_or(|n| n != BYTES - 11 || self.out[..n] != self.messages[i][..]);
        }
        vec![
            check("valid", valid, "valid paddings decrypt to their message"),
            check(
                "invalid",
                invalid,
                "a padding without its zero byte is refused or gives another message",
            ),
        ]
    }
    fn prepare(&mut self, class: usize, input: usize) {
        self.work.copy_from_slice(&self.ciphertexts[class][input]);
    }
    fn run(&mut self, _class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            black_box(self.key.decrypt(black_box(&self.work), &mut self.out));
        }
        Ok(())
    }
}

fn version(backend: &str) -> String {
    match backend {
        "openssl" => openssl::version::version().to_string(),
        "aws-lc-rs" => "aws-lc-rs 1.19".into(),
        _ => "rsa 0.9".into(),
    }
}

/// The screens on every backend (in `backends`, when given).
pub fn plan(backends: Option<&[String]>) -> Vec<Planned> {
    BACKENDS
        .iter()
        .filter(|b| backends.is_none_or(|l| l.iter().any(|n| n == *b)))
        .map(|&b| {
            let info = LeakInfo {
                spec: CaseSpec::new(crate::SUITE, NAME, b, version(b), "decrypt")
                    .size(BYTES as u64),
                classes: ["valid padding".into(), "invalid padding".into()],
                probes:
                    "whether a padding check's outcome shows in the time (Bleichenbacher, Marvin)"
                        .into(),
                role: Role::Library,
            };
            Planned::ready(
                info,
                Box::new(move || Ok(Box::new(Decrypt::build(b)?) as Box<dyn LeakCase>)),
            )
        })
        .collect()
}
