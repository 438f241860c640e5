//! libcrux's ML-KEM: formally verified (hax / F*), with portable, AVX2 and
//! NEON code chosen at run time. Coins come from the OS inside the timed
//! region, as every other backend draws its own.

use crate::engines::{impl_entry, random, BackendLists, Entry, Kem, KemPublic, KemSecret};
use crate::error::{expect_len, PkError};

/// Backend name.
pub const NAME: &str = "libcrux";

/// This backend's lists, for the registry in [`crate::engines`].
pub const LISTS: BackendLists = BackendLists::new(kems, Vec::new, Vec::new);

fn version() -> String {
    "libcrux-ml-kem 0.0.11".into()
}

macro_rules! libcrux_kem {
    ($entry:ident, $secret:ident, $public:ident, $m:ident, $kp:ident, $sk:ident, $pk:ident, $ct:ident) => {
        struct $entry(&'static str);
        struct $secret(libcrux_ml_kem::$m::$kp);
        struct $public(libcrux_ml_kem::$m::$pk);
        impl_entry!($entry, NAME, |_| version());

        impl Kem for $entry {
            fn generate(&self) -> Result<Box<dyn KemSecret>, PkError> {
                Ok(Box::new($secret(libcrux_ml_kem::$m::generate_key_pair(
                    random(),
                ))))
            }
            fn generate_from_seed(&self, seed: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
                let seed: [u8; 64] = seed
                    .try_into()
                    .map_err(|_| PkError::encoding("ML-KEM seed d || z must be 64 bytes"))?;
                Ok(Box::new($secret(libcrux_ml_kem::$m::generate_key_pair(
                    seed,
                ))))
            }
            fn import_secret(&self, secret: &[u8]) -> Result<Box<dyn KemSecret>, PkError> {
                use libcrux_ml_kem::$m as m;
                let sk = m::$sk::try_from(secret).map_err(|_| {
                    PkError::encoding(format!(
                        "{} decapsulation key has {} bytes; expected the FIPS 203 encoding",
                        self.0,
                        secret.len()
                    ))
                })?;
                let zero_ct = vec![0u8; self.algorithm().output_bytes];
                let probe = m::$ct::try_from(zero_ct.as_slice())
                    .map_err(|_| PkError::encoding("ciphertext length"))?;
                if !m::validate_private_key(&sk, &probe) {
                    return Err(PkError::encoding(
                        "decapsulation key fails the FIPS 203 hash check",
                    ));
                }
                // FIPS 203 dk = dk_pke || ek || H(ek) || z: ek sits at 384k.
                let k = self.algorithm().public_bytes;
                let ek_start = secret.len() - k - 64;
                let pk = m::$pk::try_from(&secret[ek_start..ek_start + k])
                    .map_err(|_| PkError::encoding("embedded encapsulation key"))?;
                Ok(Box::new($secret(m::$kp::from(sk, pk))))
            }
            fn import_public(&self, public: &[u8]) -> Result<Box<dyn KemPublic>, PkError> {
                use libcrux_ml_kem::$m as m;
                expect_len("encapsulation key", public, self.algorithm().public_bytes)?;
                let pk = m::$pk::try_from(public)
                    .map_err(|_| PkError::encoding("encapsulation key length"))?;
                // FIPS 203 7.2: the modulus check, outside the timed region.
                if !m::validate_public_key(&pk) {
                    return Err(PkError::encoding(
                        "encapsulation key fails the FIPS 203 modulus check",
                    ));
                }
                Ok(Box::new($public(pk)))
            }
        }

        impl KemSecret for $secret {
            fn public_key(&self) -> Vec<u8> {
                self.0.public_key().as_slice().to_vec()
            }
            fn secret_key(&self) -> Result<Vec<u8>, PkError> {
                Ok(self.0.private_key().as_slice().to_vec())
            }
            fn decaps(&self, ciphertext: &[u8]) -> Result<Vec<u8>, PkError> {
                let ct = libcrux_ml_kem::$m::$ct::try_from(ciphertext).map_err(|_| {
                    PkError::encoding(format!(
                        "ciphertext has {} bytes; expected the FIPS 203 length",
                        ciphertext.len()
                    ))
                })?;
                Ok(libcrux_ml_kem::$m::decapsulate(self.0.private_key(), &ct).to_vec())
            }
        }

        impl KemPublic for $public {
            fn encaps(&self) -> Result<(Vec<u8>, Vec<u8>), PkError> {
                let (ct, ss) = libcrux_ml_kem::$m::encapsulate(&self.0, random());
                Ok((ct.as_slice().to_vec(), ss.to_vec()))
            }
        }
    };
}

libcrux_kem!(
    MlKem512,
    MlKem512Secret,
    MlKem512Public,
    mlkem512,
    MlKem512KeyPair,
    MlKem512PrivateKey,
    MlKem512PublicKey,
    MlKem512Ciphertext
);
libcrux_kem!(
    MlKem768,
    MlKem768Secret,
    MlKem768Public,
    mlkem768,
    MlKem768KeyPair,
    MlKem768PrivateKey,
    MlKem768PublicKey,
    MlKem768Ciphertext
);
libcrux_kem!(
    MlKem1024,
    MlKem1024Secret,
    MlKem1024Public,
    mlkem1024,
    MlKem1024KeyPair,
    MlKem1024PrivateKey,
    MlKem1024PublicKey,
    MlKem1024Ciphertext
);

/// libcrux's KEMs.
pub fn kems() -> Vec<Box<dyn Kem>> {
    vec![
        Box::new(MlKem512("ML-KEM-512")),
        Box::new(MlKem768("ML-KEM-768")),
        Box::new(MlKem1024("ML-KEM-1024")),
    ]
}
