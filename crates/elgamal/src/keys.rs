//! Key material and the randomness that makes scalars.
//!
//! A secret key d is uniform in [1, n-1] (rejection sampling: draw as many
//! bits as n has, keep the value when 1 <= v < n), the public key is
//! Q = d * G. Ephemeral scalars k are drawn the same way, one per point,
//! from a ChaCha20 CSPRNG that each worker seeds from the operating system.
//!
//! With a test seed (`--seed`, [`RngSource::Seeded`]) every point i draws
//! its k from ChaCha20 stream i of a key derived from the seed, so a seeded
//! ciphertext is the same whichever executor and thread count produced it:
//! that is what the known-answer test pins down. Never use a seed for data.

use crate::curve::Curve;
use cryptobench_core::Error;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use zeroize::Zeroizing;

/// Where scalars come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RngSource {
    /// ChaCha20 seeded from the operating system, per worker.
    Os,
    /// Reproducible, for tests only (`--seed`).
    Seeded(u64),
}

/// Stream used for key generation under a seed (points use 0, 1, 2, ...).
const KEYGEN_STREAM: u64 = u64::MAX;

/// A scalar generator for one worker.
pub struct ScalarRng {
    rng: ChaCha20Rng,
    seeded: bool,
    order: Vec<u8>,
    top_mask: u8,
}

fn seed_bytes(seed: u64) -> [u8; 32] {
    // The seed is spread into a ChaCha key with a fixed label so that
    // `--seed 1` here and elsewhere in cryptobench give unrelated streams.
    let mut key = *b"cryptobench-elgamal-seed:_______";
    key[24..32].copy_from_slice(&seed.to_le_bytes());
    key
}

impl ScalarRng {
    /// A generator of scalars modulo the order of `curve`.
    pub fn new(curve: Curve, source: RngSource) -> Result<Self, Error> {
        let (rng, seeded) = match source {
            RngSource::Os => (
                ChaCha20Rng::try_from_os_rng().map_err(|e| {
                    Error::io(
                        "operating-system randomness",
                        std::io::Error::other(e.to_string()),
                    )
                })?,
                false,
            ),
            RngSource::Seeded(seed) => (ChaCha20Rng::from_seed(seed_bytes(seed)), true),
        };
        let order = curve.order_be();
        let top_mask = 0xffu8 >> order[0].leading_zeros();
        Ok(Self {
            rng,
            seeded,
            order,
            top_mask,
        })
    }

    /// The k of point `index`: uniform in [1, n-1], big-endian.
    pub fn scalar_for(&mut self, index: u64) -> Zeroizing<Vec<u8>> {
        let mut v = Zeroizing::new(vec![0u8; self.order.len()]);
        self.fill_scalar(index, &mut v);
        v
    }

    /// Writes the k of point `index` into `out` (`scalar_bytes` long), so a
    /// worker reuses one buffer instead of allocating per point.
    pub fn fill_scalar(&mut self, index: u64, out: &mut [u8]) {
        if self.seeded {
            self.rng.set_stream(index);
            self.rng.set_word_pos(0);
        }
        self.fill_uniform(out);
    }

    /// A secret key d: uniform in [1, n-1], big-endian.
    pub fn secret_key(&mut self) -> Zeroizing<Vec<u8>> {
        if self.seeded {
            self.rng.set_stream(KEYGEN_STREAM);
            self.rng.set_word_pos(0);
        }
        self.uniform()
    }

    fn uniform(&mut self) -> Zeroizing<Vec<u8>> {
        let mut v = Zeroizing::new(vec![0u8; self.order.len()]);
        self.fill_uniform(&mut v);
        v
    }

    fn fill_uniform(&mut self, v: &mut [u8]) {
        loop {
            self.rng.fill_bytes(v);
            v[0] &= self.top_mask;
            if in_range(v, &self.order) {
                return;
            }
        }
    }
}

/// Whether big-endian `v` (same length as `order`) is in [1, order-1].
pub fn in_range(v: &[u8], order: &[u8]) -> bool {
    v.len() == order.len() && v.iter().any(|&b| b != 0) && v < order
}

/// A key as stored: the curve, Q compressed, and d when it is a secret key.
#[derive(Clone)]
pub struct KeyMaterial {
    /// The curve.
    pub curve: Curve,
    /// SEC1 compressed Q.
    pub public: Vec<u8>,
    /// Big-endian d (`scalar_bytes` long), absent in a public key.
    pub secret: Option<Zeroizing<Vec<u8>>>,
}

impl std::fmt::Debug for KeyMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyMaterial")
            .field("curve", &self.curve)
            .field("public", &hex::encode(&self.public))
            .field("secret", &self.secret.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

impl KeyMaterial {
    /// The public half.
    pub fn public_only(&self) -> KeyMaterial {
        KeyMaterial {
            curve: self.curve,
            public: self.public.clone(),
            secret: None,
        }
    }
}
