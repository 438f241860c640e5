//! `vzeroupper` after OpenSSL 3.0's ChaCha20-Poly1305 calls.
//!
//! On CPUs with AVX-512 IFMA, OpenSSL 3.0 hashes short Poly1305 inputs
//! (the final call's padding and length block, associated data, a
//! message's last blocks) with `poly1305_blocks_vpmadd52`, which uses ymm0-5
//! and returns without `vzeroupper`. The CPU is left in its "dirty upper"
//! state, and the next legacy-SSE instruction pays a state transition: the
//! `OSSL_PARAM` copies in `EVP_CIPHER_CTX_ctrl` and the IV-length query in
//! `EVP_EncryptInit_ex` are SSE code. Measured here on OpenSSL 3.0.19 that
//! is 120 to 330 ns per sealed message (more when the tag is read through
//! `EVP_CIPHER_CTX_ctrl`), 3 to 7% of a 16 KiB one, spent on no
//! cryptographic work. One `vzeroupper` after each call (about a
//! nanosecond) removes it. OpenSSL 3.0's AES-GCM, CCM and OCB code ends with
//! `vzeroupper` or uses no 256-bit registers, so it is left alone.

/// Whether `vzeroupper` exists on this CPU.
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Clears the upper halves of ymm0-15. Call only where [`available`]
/// returned true.
#[inline]
pub(super) fn clear() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: only reached when `available()` saw AVX.
    unsafe {
        zero_upper()
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn zero_upper() {
    std::arch::x86_64::_mm256_zeroupper();
}
