//! The `pubkey` suite: key encapsulation, key agreement and signatures for
//! the post-quantum transition, and what a TLS 1.3 handshake costs.
#![deny(missing_docs)]

pub mod algorithms;
pub mod backend;
pub mod checks;
pub mod engines;
pub mod error;
pub mod hybrid;
pub mod keys;
pub mod vectors;

#[cfg(test)]
mod tests;
