//! Fixed RSA test keys (PKCS#8 DER), made once with `openssl genpkey` for
//! this suite and public in its source: never use them for anything else.
//!
//! They spare the checks and the sign/verify cases an RSA key generation
//! (a 15360-bit key took OpenSSL two minutes of CPU), and give every
//! backend the same key, so interop needs no keygen at all.

/// The PKCS#8 DER test key of `bits`, when the suite carries one.
pub fn rsa_test_key(bits: usize) -> Option<&'static [u8]> {
    Some(match bits {
        2048 => include_bytes!("../keys/rsa-2048.pk8.der"),
        3072 => include_bytes!("../keys/rsa-3072.pk8.der"),
        4096 => include_bytes!("../keys/rsa-4096.pk8.der"),
        7680 => include_bytes!("../keys/rsa-7680.pk8.der"),
        15360 => include_bytes!("../keys/rsa-15360.pk8.der"),
        _ => return None,
    })
}
