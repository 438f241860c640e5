//! EC-ElGamal as seed 002 runs it, as a library, a command and a suite.
//!
//! Each plaintext chunk (one byte with `char`, up to 30 with `packed`) is
//! Koblitz-encoded as a curve point M and encrypted as (k*G, M + k*Q) with a
//! fresh k; decryption computes M = y2 - d*y1 and decodes. The point is to
//! measure how fast that goes and how it scales with threads, on three
//! curves: P-256, secp256k1 and the breakable 64-bit `toy64`.
//!
//! Layers, bottom up: [`curve`] (names and parameters), [`arith`] (one trait,
//! backends over OpenSSL, RustCrypto and this crate's [`toy64`] code),
//! [`encoding`] (Koblitz), [`keys`] (key material, randomness), [`cipher`]
//! (the scheme, generic over the arithmetic), [`executor`] (serial, threads;
//! the seam for MPI), [`format`] (JSON files), [`scheme`] (object-safe entry
//! for the command line), then the suite, the paper and the CLI.
//!
//! Per-character ElGamal is malleable, leaks the length and lets pairs be
//! reordered: it reproduces the paper, it is not how to encrypt data
//! (docs/elgamal-security.md shows the recommended ECIES path).
#![deny(missing_docs)]

pub mod arith;
mod charts;
pub mod checks;
pub mod cipher;
pub mod cli;
pub mod curve;
pub mod encoding;
pub mod executor;
pub mod format;
pub mod keys;
pub mod paper;
mod paper_tables;
pub mod scheme;
pub mod suite;
pub mod summary;
pub mod toy64;

pub use suite::ElgamalSuite;

/// Seed experiments this suite reproduces (`cryptobench paper ecelgamal-parallel`).
pub fn papers() -> Vec<Box<dyn cryptobench_core::Paper>> {
    vec![Box::new(paper::EcElgamalParallel)]
}
