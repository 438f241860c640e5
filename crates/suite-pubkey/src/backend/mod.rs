//! One file per library. Each exposes its `LISTS` (its `kems()`,
//! `agreements()` and `signers()`) for the registry in [`crate::engines`].

pub mod awslc;
pub mod libcrux;
pub mod liboqs;
pub mod openssl;
pub mod rustcrypto;
