//! One file per library. Each exposes `kems()`, `agreements()` and
//! `signers()` (those it has) for the registry lists in [`crate::engines`].

pub mod awslc;
pub mod libcrux;
pub mod liboqs;
pub mod openssl;
pub mod rustcrypto;
