//! libaegis, the reference C implementation of the AEGIS family, compiled by
//! the `aegis` crate with run-time dispatch to AES-NI, VAES/AVX2 and
//! AVX-512 code paths.
//!
//! The crate's safe API encrypts either in place or into a fresh vector;
//! both would add a copy or an allocation to the timed region. The one-shot
//! detached C functions it links (declared below from libaegis' public
//! headers) take separate input and output buffers, which is what the other
//! backends get too.

use super::{zero_ok, AeadBackend, Keyed, Opening, Params, Rejected, Sealing, Unsupported};
use crate::algorithms::{Algorithm, Family};
use cryptobench_core::{Library, Offer};
use std::ffi::c_int;
use std::sync::Once;

/// The `aegis` crate bundles libaegis; its version names both.
const VERSION: &str = "libaegis (aegis crate 0.9.20)";

type EncryptDetached = unsafe extern "C" fn(
    *mut u8,
    *mut u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    *const u8,
) -> c_int;
type DecryptDetached = unsafe extern "C" fn(
    *mut u8,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
    *const u8,
) -> c_int;

macro_rules! libaegis_fns {
    ($($enc:ident, $dec:ident;)*) => {
        extern "C" {
            $(
                fn $enc(c: *mut u8, mac: *mut u8, maclen: usize, m: *const u8, mlen: usize,
                        ad: *const u8, adlen: usize, npub: *const u8, k: *const u8) -> c_int;
                fn $dec(m: *mut u8, c: *const u8, clen: usize, mac: *const u8, maclen: usize,
                        ad: *const u8, adlen: usize, npub: *const u8, k: *const u8) -> c_int;
            )*
        }
    };
}

libaegis_fns! {
    aegis128l_encrypt_detached, aegis128l_decrypt_detached;
    aegis128x2_encrypt_detached, aegis128x2_decrypt_detached;
    aegis128x4_encrypt_detached, aegis128x4_decrypt_detached;
    aegis256_encrypt_detached, aegis256_decrypt_detached;
    aegis256x2_encrypt_detached, aegis256x2_decrypt_detached;
    aegis256x4_encrypt_detached, aegis256x4_decrypt_detached;
}

/// libaegis picks its code path (AES-NI, VAES, AVX-512) once, in
/// `aegis_init`, which the crate runs the first time a state is made; making
/// one here also keeps the crate (and the C library it bundles) linked.
fn init() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let _ = aegis::aegis128l::Aegis128L::<16>::new(&[0; 16], &[0; 16]);
    });
}

/// libaegis through the `aegis` crate.
pub(super) struct LibAegis;

impl Library for LibAegis {
    fn name(&self) -> &'static str {
        "libaegis"
    }
    fn version(&self) -> String {
        VERSION.to_string()
    }
}

impl AeadBackend for LibAegis {
    fn offers(&self, alg: &Algorithm) -> Offer {
        Offer::when(super::is_aegis(alg.family))
    }

    fn keyed(&self, alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported> {
        init();
        let (encrypt, decrypt): (EncryptDetached, DecryptDetached) = match alg.family {
            Family::Aegis128L => (aegis128l_encrypt_detached, aegis128l_decrypt_detached),
            Family::Aegis128X2 => (aegis128x2_encrypt_detached, aegis128x2_decrypt_detached),
            Family::Aegis128X4 => (aegis128x4_encrypt_detached, aegis128x4_decrypt_detached),
            Family::Aegis256 => (aegis256_encrypt_detached, aegis256_decrypt_detached),
            Family::Aegis256X2 => (aegis256x2_encrypt_detached, aegis256x2_decrypt_detached),
            Family::Aegis256X4 => (aegis256x4_encrypt_detached, aegis256x4_decrypt_detached),
            _ => return Err(Unsupported(format!("libaegis has no {}", alg.name))),
        };
        if p.nonce_len != alg.nonce_len {
            return Err(Unsupported(format!(
                "{} takes {}-byte nonces only",
                alg.name, alg.nonce_len
            )));
        }
        if p.tag_len != 16 && p.tag_len != 32 {
            return Err(Unsupported(format!(
                "AEGIS tags are 16 or 32 bytes, not {}",
                p.tag_len
            )));
        }
        Ok(Box::new(AegisKeyed {
            key: p.key.to_vec(),
            encrypt,
            decrypt,
        }))
    }
}

struct AegisKeyed {
    key: Vec<u8>,
    encrypt: EncryptDetached,
    decrypt: DecryptDetached,
}

impl Keyed for AegisKeyed {
    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
        // SAFETY: each pointer covers the length passed with it; key and
        // nonce lengths are the algorithm's (checked at build and by `seal`).
        let rc = unsafe {
            (self.encrypt)(
                m.ct.as_mut_ptr(),
                m.tag.as_mut_ptr(),
                m.tag.len(),
                m.msg.as_ptr(),
                m.msg.len(),
                m.aad.as_ptr(),
                m.aad.len(),
                m.nonce.as_ptr(),
                self.key.as_ptr(),
            )
        };
        zero_ok(rc)
    }

    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
        // SAFETY: as in `seal_detached`; `out` is exactly as long as `ct`.
        let rc = unsafe {
            (self.decrypt)(
                m.out.as_mut_ptr(),
                m.ct.as_ptr(),
                m.ct.len(),
                m.tag.as_ptr(),
                m.tag.len(),
                m.aad.as_ptr(),
                m.aad.len(),
                m.nonce.as_ptr(),
                self.key.as_ptr(),
            )
        };
        zero_ok(rc)
    }
}
