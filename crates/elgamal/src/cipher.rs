//! EC-ElGamal itself, written once over [`Arithmetic`].
//!
//! Encrypt point M with a fresh k: y1 = k*G, y2 = M + k*Q, both k*G and k*Q
//! by fixed-base tables. Decrypt: M = y2 - d*y1, d*y1 by constant-time
//! variable-base multiplication. Work is split into parts by an
//! [`Executor`]; each part goes through its points in chunks of [`CHUNK`] and
//! brings every chunk to affine form with one inversion (Montgomery's trick).
//! Encoding and decoding are inside both operations, as in seed 002.

use crate::arith::Arithmetic;
use crate::curve::Curve;
use crate::encoding::{decode_x, write_bases, CharTable, Encoding};
use crate::executor::{map_parts, Executor};
use crate::keys::{in_range, KeyMaterial, RngSource, ScalarRng};
use cryptobench_core::Error;
use std::sync::Arc;
use zeroize::Zeroizing;

/// Points per batch of affine conversion.
pub const CHUNK: usize = 128;

/// A curve's arithmetic with what is computed once per process: G's table
/// (inside the arithmetic) and the 256 `char` points.
pub struct CurveEngine<A: Arithmetic> {
    arith: A,
    chars: CharTable<A>,
}

impl<A: Arithmetic> CurveEngine<A> {
    /// Precomputes the `char` points.
    pub fn new(arith: A) -> Result<Self, Error> {
        let chars = CharTable::new(&arith)?;
        Ok(Self { arith, chars })
    }
    /// The arithmetic.
    pub fn arith(&self) -> &A {
        &self.arith
    }
}

/// A ciphertext in memory: affine point pairs, one per plaintext chunk.
pub struct Ciphertext<A: Arithmetic> {
    /// The encoding of the plaintext.
    pub encoding: Encoding,
    /// Plaintext length in bytes.
    pub length: usize,
    /// (y1, y2) per point.
    pub pairs: Vec<(A::Point, A::Point)>,
}

/// A key loaded into an engine: Q with its fixed-base table, and d when it
/// is a secret key.
pub struct Keys<A: Arithmetic> {
    engine: Arc<CurveEngine<A>>,
    q: A::Point,
    q_table: A::Table,
    secret: Option<A::Scalar>,
    material: KeyMaterial,
}

impl<A: Arithmetic> Keys<A> {
    /// A fresh key pair: d uniform in [1, n-1], Q = d*G.
    pub fn generate(engine: Arc<CurveEngine<A>>, rng: RngSource) -> Result<Self, Error> {
        let curve = engine.arith.curve();
        let d = ScalarRng::new(curve, rng)?.secret_key();
        let mut s = engine.arith.scratch()?;
        let scalar = engine.arith.scalar(&d)?;
        let q = engine
            .arith
            .mul_fixed(engine.arith.generator_table(), &scalar, &mut s)?;
        let public = engine.arith.compress(&q, &mut s)?;
        Self::load(
            engine,
            &KeyMaterial {
                curve,
                public,
                secret: Some(d),
            },
        )
    }

    /// Loads stored key material, checking that Q is on the curve, that d
    /// is in [1, n-1] and that Q = d*G.
    pub fn load(engine: Arc<CurveEngine<A>>, material: &KeyMaterial) -> Result<Self, Error> {
        let arith = &engine.arith;
        let curve = arith.curve();
        if material.curve != curve {
            return Err(Error::usage(format!(
                "key is for {}, not {curve}",
                material.curve
            )));
        }
        let mut s = arith.scratch()?;
        let q = arith.decompress(&material.public, &mut s).ok_or_else(|| {
            Error::usage(format!(
                "public key is not a SEC1 compressed point on {curve} ({} bytes expected)",
                curve.compressed_len()
            ))
        })?;
        let secret = match &material.secret {
            None => None,
            Some(d) => {
                if !in_range(d, &curve.order_be()) {
                    return Err(Error::usage(format!(
                        "secret key must be {} big-endian bytes in [1, n-1]",
                        curve.scalar_bytes()
                    )));
                }
                let scalar = arith.scalar(d)?;
                let check = arith.mul_fixed(arith.generator_table(), &scalar, &mut s)?;
                if arith.compress(&check, &mut s)? != material.public {
                    return Err(Error::usage(
                        "secret and public key do not match (Q != d*G)",
                    ));
                }
                Some(scalar)
            }
        };
        let q_table = arith.table(&q, &mut s)?;
        Ok(Self {
            engine,
            q,
            q_table,
            secret,
            material: material.clone(),
        })
    }

    /// The key as stored.
    pub fn material(&self) -> &KeyMaterial {
        &self.material
    }
    /// The curve.
    pub fn curve(&self) -> Curve {
        self.engine.arith.curve()
    }
    /// The arithmetic.
    pub fn arith(&self) -> &A {
        &self.engine.arith
    }
    /// Q.
    pub fn public_point(&self) -> &A::Point {
        &self.q
    }

    /// Encrypts `msg` point by point on `exec`.
    pub fn encrypt(
        &self,
        msg: &[u8],
        encoding: Encoding,
        exec: &dyn Executor,
        rng: RngSource,
    ) -> Result<Ciphertext<A>, Error> {
        let curve = self.curve();
        let c = encoding.chunk_bytes(curve);
        let points = encoding.points_for(curve, msg.len());
        let parts = map_parts(exec, points, |range| {
            let arith = &self.engine.arith;
            let mut s = arith.scratch()?;
            let mut rng = ScalarRng::new(curve, rng)?;
            let width = curve.scalar_bytes();
            // The chunk's k values (big-endian), and one scalar overwritten
            // with each in turn: no allocation per point.
            let mut ks = Zeroizing::new(Vec::with_capacity(CHUNK * width));
            let mut k = {
                let mut one = vec![0u8; width];
                one[width - 1] = 1;
                arith.scalar(&one)?
            };
            let mut out = Vec::with_capacity(range.len());
            // `packed`: the chunk's Koblitz bases and points, encoded together
            // (a backend may search many candidates at once).
            let mut bases = Vec::new();
            let mut packed = Vec::with_capacity(CHUNK);
            let mut start = range.start;
            while start < range.end {
                let end = (start + CHUNK).min(range.end);
                let mut y1s = Vec::with_capacity(end - start);
                let mut y2s = Vec::with_capacity(end - start);
                if encoding == Encoding::Packed {
                    write_bases(msg, c, curve.field_bytes(), start..end, &mut bases);
                    packed.clear();
                    arith.encode_many(&bases, &mut packed, &mut s)?;
                    if packed.len() != end - start {
                        return Err(Error::Encoding(
                            "encoding returned the wrong number of points",
                        ));
                    }
                }
                // All k * G of the chunk, then all k * Q: one fixed-base
                // table (150 KB on P-256) is read at a time. Alternating
                // the two tables point by point made two threads scale 4%
                // worse on a 2-core machine, where they compete for cache.
                ks.resize((end - start) * width, 0);
                for (i, k_out) in (start..end).zip(ks.chunks_exact_mut(width)) {
                    rng.fill_scalar(i as u64, k_out);
                    arith.set_scalar(&mut k, k_out)?;
                    y1s.push(arith.mul_fixed(arith.generator_table(), &k, &mut s)?);
                }
                for (i, k_in) in (start..end).zip(ks.chunks_exact(width)) {
                    let m = match encoding {
                        Encoding::Char => self.engine.chars.point(msg[i]),
                        Encoding::Packed => &packed[i - start],
                    };
                    arith.set_scalar(&mut k, k_in)?;
                    y2s.push(arith.mul_fixed_add(&self.q_table, &k, m, &mut s)?);
                }
                arith.normalize(&mut y1s, &mut s)?;
                arith.normalize(&mut y2s, &mut s)?;
                out.extend(y1s.into_iter().zip(y2s));
                start = end;
            }
            Ok(out)
        })?;
        Ok(Ciphertext {
            encoding,
            length: msg.len(),
            pairs: parts.into_iter().flatten().collect(),
        })
    }

    /// Decrypts and decodes; an error when the key is public only or a pair
    /// does not decode (wrong key, altered ciphertext).
    pub fn decrypt(&self, ct: &Ciphertext<A>, exec: &dyn Executor) -> Result<Vec<u8>, Error> {
        let d = self.secret.as_ref().ok_or_else(|| {
            Error::usage(
                "this key file holds only a public key; decrypting needs the secret key \
                 file written by `elgamal keygen -o`",
            )
        })?;
        let curve = self.curve();
        let c = ct.encoding.chunk_bytes(curve);
        if ct.pairs.len() != ct.encoding.points_for(curve, ct.length) {
            return Err(Error::usage(format!(
                "ciphertext has {} pairs; a {}-byte message in '{}' encoding needs {}",
                ct.pairs.len(),
                ct.length,
                ct.encoding,
                ct.encoding.points_for(curve, ct.length)
            )));
        }
        let parts = map_parts(exec, ct.pairs.len(), |range| {
            let arith = &self.engine.arith;
            let mut s = arith.scratch()?;
            let mut out = vec![0u8; range.len() * c];
            let mut x = vec![0u8; curve.field_bytes()];
            let mut start = range.start;
            while start < range.end {
                let end = (start + CHUNK).min(range.end);
                let mut ms = Vec::with_capacity(end - start);
                for (y1, y2) in &ct.pairs[start..end] {
                    let shared = arith.mul_ct(y1, d, &mut s)?;
                    ms.push(arith.sub(y2, &shared, &mut s)?);
                }
                arith.normalize(&mut ms, &mut s)?;
                for (i, m) in ms.iter().enumerate() {
                    if !arith.affine_x(m, &mut x, &mut s)? {
                        return Err(Error::usage(format!(
                            "pair {} decrypts to the point at infinity (altered ciphertext)",
                            start + i
                        )));
                    }
                    let at = (start + i - range.start) * c;
                    decode_x(&x, c, &mut out[at..at + c])?;
                }
                start = end;
            }
            Ok(out)
        })?;
        let mut plain: Vec<u8> = parts.into_iter().flatten().collect();
        if plain[ct.length.min(plain.len())..].iter().any(|&b| b != 0) {
            return Err(Error::usage(
                "padding after the stated length is not zero (altered ciphertext or length)",
            ));
        }
        plain.truncate(ct.length);
        Ok(plain)
    }

    /// Parses the pairs of a ciphertext file (compressed points, validated).
    pub fn parse_pairs(
        &self,
        encoding: Encoding,
        length: usize,
        pairs: &[[Vec<u8>; 2]],
    ) -> Result<Ciphertext<A>, Error> {
        let arith = &self.engine.arith;
        let mut s = arith.scratch()?;
        let curve = self.curve();
        let mut out = Vec::with_capacity(pairs.len());
        for (i, [a, b]) in pairs.iter().enumerate() {
            let point = |bytes: &[u8], name: &str, s: &mut A::Scratch| {
                arith.decompress(bytes, s).ok_or_else(|| {
                    Error::usage(format!(
                        "pair {i}: {name} is not a SEC1 compressed point on {curve}"
                    ))
                })
            };
            let y1 = point(a, "y1", &mut s)?;
            let y2 = point(b, "y2", &mut s)?;
            out.push((y1, y2));
        }
        Ok(Ciphertext {
            encoding,
            length,
            pairs: out,
        })
    }

    /// Compressed pairs for a ciphertext file.
    pub fn serialize_pairs(&self, ct: &Ciphertext<A>) -> Result<Vec<[Vec<u8>; 2]>, Error> {
        let arith = &self.engine.arith;
        let mut s = arith.scratch()?;
        ct.pairs
            .iter()
            .map(|(a, b)| Ok([arith.compress(a, &mut s)?, arith.compress(b, &mut s)?]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::arith;
    use crate::curve::Curve;
    use crate::encoding::Encoding;
    use crate::executor::{Serial, Threads};
    use crate::keys::RngSource;
    use crate::scheme::open;

    /// `packed` on P-256 over several chunks of [`super::CHUNK`] points and
    /// a short last chunk: OpenSSL (which searches the Koblitz counters of
    /// a whole chunk together) and RustCrypto (one candidate at a time)
    /// produce the same ciphertext bit for bit, and it decrypts.
    #[test]
    fn packed_p256_batch_encoding_equals_one_at_a_time() {
        let rng = RngSource::Seeded(7);
        let msg: Vec<u8> = (0..30 * 300 + 17u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let threads = Threads::new(3).expect("3 threads");
        let mut outs = Vec::new();
        let p256 = arith::all()
            .into_iter()
            .filter(|b| arith::backend::implements(*b, Curve::P256));
        for kind in p256 {
            let keys = open(Curve::P256, kind, None, rng).expect("keys");
            let ct = keys
                .encrypt_raw(&msg, Encoding::Packed, &threads, rng)
                .expect("encrypt");
            assert_eq!(keys.decrypt_raw(&ct, &Serial).expect("decrypt"), msg);
            outs.push(ct);
        }
        assert!(outs.len() >= 2, "OpenSSL and RustCrypto both run P-256");
        assert_eq!(outs[0].pairs.len(), 301);
        assert!(outs.iter().all(|o| *o == outs[0]));
    }
}
