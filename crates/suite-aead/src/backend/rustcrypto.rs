//! RustCrypto's pure-Rust AEADs, all from one generation (aead 0.6, aes 0.9):
//! `aes-gcm`, `ccm`, `ocb3`, `aes-gcm-siv`, `aes-siv` and `chacha20poly1305`.
//!
//! Nonce and tag sizes are type parameters in these crates, so only the sizes
//! listed in `RustCrypto::keyed` are compiled in; any other size is reported as
//! unsupported (a skipped Wycheproof group, a skipped benchmark cell) rather
//! than growing the binary with every combination.

use super::{AeadBackend, Keyed, Opening, Params, Rejected, Sealing, Unsupported};
use crate::algorithms::{Algorithm, Family};
use aead::array::Array;
use aead::consts::{U10, U11, U12, U13, U14, U16, U4, U6, U7, U8, U9};
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use aes::{Aes128, Aes192, Aes256};
use cryptobench_core::Offer;
use cryptobench_suite_common::rustcrypto::{Crates, RustCrypto};

/// The crates and versions behind this backend.
const CRATES: Crates = &[
    ("aes-gcm", "0.11"),
    ("ccm", "0.6"),
    ("ocb3", "0.2"),
    ("aes-gcm-siv", "0.12"),
    ("aes-siv", "0.8"),
    ("chacha20poly1305", "0.11"),
];

/// A RustCrypto cipher instance (its key schedule).
struct RustCryptoKeyed<A>(A);

/// `p`'s key in cipher type `A`, whose nonce and tag types are `p`'s
/// lengths (the caller picked `A` by them).
fn keyed<A>(p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported>
where
    A: AeadInOut + KeyInit + Send + 'static,
{
    let cipher = A::new_from_slice(p.key).map_err(|_| Unsupported("key length rejected".into()))?;
    Ok(Box::new(RustCryptoKeyed(cipher)))
}

impl<A: AeadInOut + Send> Keyed for RustCryptoKeyed<A> {
    fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
        let nonce = Array::try_from(m.nonce).map_err(|_| Rejected)?;
        let buf = InOutBuf::new(m.msg, m.ct).map_err(|_| Rejected)?;
        let tag = self
            .0
            .encrypt_inout_detached(&nonce, m.aad, buf)
            .map_err(|_| Rejected)?;
        m.tag.copy_from_slice(&tag);
        Ok(())
    }

    fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
        let nonce = Array::try_from(m.nonce).map_err(|_| Rejected)?;
        let tag = Array::try_from(m.tag).map_err(|_| Rejected)?;
        let buf = InOutBuf::new(m.ct, m.out).map_err(|_| Rejected)?;
        self.0
            .decrypt_inout_detached(&nonce, m.aad, buf, &tag)
            .map_err(|_| Rejected)
    }
}

/// AES-SIV through `aes_siv::siv::Siv`, whose S2V takes any list of
/// associated-data components: `[aad, nonce]`, or `[aad]` alone for a
/// zero-length nonce (the deterministic mode). The crate's AEAD type would
/// fix the nonce length in the type and rebuild the key schedule on every
/// call; this instance keeps it, as the other backends keep theirs.
struct SivKeyed<S>(S);

/// The S2V components for one message.
fn siv_headers<'a>(aad: &'a [u8], nonce: &'a [u8]) -> impl Iterator<Item = &'a [u8]> {
    std::iter::once(aad).chain((!nonce.is_empty()).then_some(nonce))
}

/// `p`'s key as SIV type `S` (`Aes128Siv` or `Aes256Siv`).
fn siv_keyed<S>(p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported>
where
    S: KeyInit + Send + 'static,
    SivKeyed<S>: Keyed,
{
    if p.tag_len != 16 {
        return Err(Unsupported(
            "AES-SIV's tag is its 16-byte synthetic IV".into(),
        ));
    }
    let siv = S::new_from_slice(p.key).map_err(|_| Unsupported("key length rejected".into()))?;
    Ok(Box::new(SivKeyed(siv)))
}

/// `Keyed` for each SIV key size (the crate's `Siv` methods are inherent,
/// not a trait).
macro_rules! siv_keyed_impl {
    ($($siv:ty),*) => {$(
        impl Keyed for SivKeyed<$siv> {
            fn seal_detached(&mut self, m: Sealing<'_>) -> Result<(), Rejected> {
                let buf = InOutBuf::new(m.msg, m.ct).map_err(|_| Rejected)?;
                let tag = self
                    .0
                    .encrypt_inout_detached(siv_headers(m.aad, m.nonce), buf)
                    .map_err(|_| Rejected)?;
                m.tag.copy_from_slice(&tag);
                Ok(())
            }

            fn open_detached(&mut self, m: Opening<'_>) -> Result<(), Rejected> {
                let tag = Array::try_from(m.tag).map_err(|_| Rejected)?;
                let buf = InOutBuf::new(m.ct, m.out).map_err(|_| Rejected)?;
                self.0
                    .decrypt_inout_detached(siv_headers(m.aad, m.nonce), buf, &tag)
                    .map_err(|_| Rejected)
            }
        }
    )*};
}

siv_keyed_impl!(aes_siv::siv::Aes128Siv, aes_siv::siv::Aes256Siv);

/// Dispatches a run-time (key length, nonce, tag) to the compiled type:
/// `$mode<Aes, Nonce, Tag>` for each AES key length listed and each
/// (nonce, tag) pair listed, the same pairs for every key length.
macro_rules! by_sizes {
    ($p:expr, $alg:expr, $mode:ident, [$($key:literal => $aes:ty),*], $sizes:tt) => {
        match $alg.key_len {
            $($key => by_sizes!(@pairs $p, $alg, $mode<$aes>, $sizes),)*
            _ => Err(Unsupported(format!("RustCrypto has no {} here", $alg.name))),
        }
    };
    (@pairs $p:expr, $alg:expr, $mode:ident<$aes:ty>, [$(($n:literal, $t:literal, $N:ty, $T:ty)),* $(,)?]) => {
        match ($p.nonce_len, $p.tag_len) {
            $(($n, $t) => keyed::<$mode<$aes, $N, $T>>($p),)*
            _ => Err(Unsupported(format!(
                "RustCrypto {} is compiled here for nonce/tag bytes {} only",
                $alg.name,
                [$(concat!($n, "/", $t)),*].join(", ")
            ))),
        }
    };
}

type Gcm<A, N, T> = aes_gcm::AesGcm<A, N, T>;
type Ccm<A, N, T> = ccm::Ccm<A, T, N>;
type Ocb<A, N, T> = ocb3::Ocb3<A, N, T>;

/// RustCrypto's pure-Rust crates.
pub(super) const RUST_CRYPTO: RustCrypto = RustCrypto::new(CRATES);

impl AeadBackend for RustCrypto {
    fn offers(&self, alg: &Algorithm) -> Offer {
        match alg.family {
            Family::Gcm | Family::Ccm | Family::Ocb | Family::GcmSiv | Family::Siv => Offer::Runs,
            Family::ChaChaIetf | Family::XChaCha => Offer::Runs,
            Family::ChaChaOriginal => Offer::Unavailable(
                "chacha20poly1305 implements the IETF and X variants, not the original 64-bit \
                 nonce one"
                    .into(),
            ),
            _ => Offer::NotOffered,
        }
    }

    fn keyed(&self, alg: &Algorithm, p: &Params<'_>) -> Result<Box<dyn Keyed>, Unsupported> {
        let fixed = |nonce: usize| -> Result<(), Unsupported> {
            if p.nonce_len != nonce || p.tag_len != 16 {
                return Err(Unsupported(format!(
                    "RustCrypto {} takes {nonce}-byte nonces and 16-byte tags only",
                    alg.name
                )));
            }
            Ok(())
        };
        match (alg.family, alg.key_len) {
            (Family::Gcm, _) => by_sizes!(
                p,
                alg,
                Gcm,
                [16 => Aes128, 24 => Aes192, 32 => Aes256],
                [(12, 16, U12, U16), (16, 16, U16, U16), (12, 12, U12, U12)]
            ),
            (Family::Ccm, _) => by_sizes!(
                p,
                alg,
                Ccm,
                [16 => Aes128, 32 => Aes256],
                [
                    (12, 16, U12, U16),
                    (12, 14, U12, U14),
                    (12, 12, U12, U12),
                    (12, 10, U12, U10),
                    (12, 8, U12, U8),
                    (12, 6, U12, U6),
                    (12, 4, U12, U4),
                    (7, 16, U7, U16),
                    (8, 16, U8, U16),
                    (9, 16, U9, U16),
                    (10, 16, U10, U16),
                    (11, 16, U11, U16),
                    (13, 16, U13, U16),
                ]
            ),
            (Family::Ocb, _) => by_sizes!(
                p,
                alg,
                Ocb,
                [16 => Aes128, 32 => Aes256],
                [(12, 16, U12, U16), (12, 12, U12, U12), (12, 8, U12, U8)]
            ),
            (Family::GcmSiv, 16) => fixed(12).and_then(|_| keyed::<aes_gcm_siv::Aes128GcmSiv>(p)),
            (Family::GcmSiv, 32) => fixed(12).and_then(|_| keyed::<aes_gcm_siv::Aes256GcmSiv>(p)),
            (Family::Siv, 32) => siv_keyed::<aes_siv::siv::Aes128Siv>(p),
            (Family::Siv, 64) => siv_keyed::<aes_siv::siv::Aes256Siv>(p),
            (Family::ChaChaIetf, _) => {
                fixed(12).and_then(|_| keyed::<chacha20poly1305::ChaCha20Poly1305>(p))
            }
            (Family::XChaCha, _) => {
                fixed(24).and_then(|_| keyed::<chacha20poly1305::XChaCha20Poly1305>(p))
            }
            _ => Err(Unsupported(format!("RustCrypto has no {} here", alg.name))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5297 A.2 (two associated-data components, then the nonce) on
    /// the `Siv` type the sealer wraps: the sealer's `[aad, nonce]` is the
    /// same call with one component fewer.
    #[test]
    fn siv_takes_its_components_in_order_as_rfc_5297_a2() {
        use crate::backend::rfc5297_a2::{assert_output, components, key, plaintext};
        let (key, components, pt) = (key(), components(), plaintext());
        let mut siv = aes_siv::siv::Aes128Siv::new_from_slice(&key).unwrap();
        let mut ct = vec![0u8; pt.len()];
        let tag = siv
            .encrypt_inout_detached(&components, InOutBuf::new(&pt, &mut ct).unwrap())
            .unwrap();
        assert_output(&tag, &ct);
    }
}
