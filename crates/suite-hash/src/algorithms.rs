//! The digest algorithms, their known-answer vectors (source next to each)
//! and one `Hasher` type over both backends.

use crate::Backend;
use cryptobench_core::CaseError;
use openssl::md::Md;
use openssl::md_ctx::MdCtx;

/// A known-answer vector.
pub struct Kat {
    /// Where it comes from.
    pub source: &'static str,
    /// Input.
    pub message: &'static [u8],
    /// Expected digest, lower-case hex.
    pub digest: &'static str,
}

/// A digest algorithm.
pub struct Algorithm {
    /// Canonical name.
    pub name: &'static str,
    /// Name for `openssl speed -evp`.
    pub openssl_evp: &'static str,
    /// Name to fetch from the OpenSSL provider.
    pub openssl_fetch: &'static str,
    /// Known answers.
    pub vectors: &'static [Kat],
    /// Labels shown with every case.
    pub labels: &'static [&'static str],
    /// Whether the issue sets a fidelity target for it (SHA-256, SHA-512).
    pub fidelity_target: bool,
}

const TWO_BLOCK: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

/// Every algorithm of the suite.
pub static ALGORITHMS: [Algorithm; 4] = [
    Algorithm {
        name: "SHA-256",
        openssl_evp: "sha256",
        openssl_fetch: "SHA2-256",
        vectors: &[
            Kat { source: "FIPS 180-4 example \"abc\"", message: b"abc", digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
            Kat { source: "FIPS 180-4 example two-block", message: TWO_BLOCK, digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        ],
        labels: &[],
        fidelity_target: true,
    },
    Algorithm {
        name: "SHA-512",
        openssl_evp: "sha512",
        openssl_fetch: "SHA2-512",
        vectors: &[Kat {
            source: "FIPS 180-4 example \"abc\"",
            message: b"abc",
            digest: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        }],
        labels: &[],
        fidelity_target: true,
    },
    Algorithm {
        name: "SHA3-256",
        openssl_evp: "sha3-256",
        openssl_fetch: "SHA3-256",
        vectors: &[Kat { source: "FIPS 202 example \"abc\"", message: b"abc", digest: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" }],
        labels: &[],
        fidelity_target: false,
    },
    Algorithm {
        name: "BLAKE2b-512",
        openssl_evp: "blake2b512",
        openssl_fetch: "BLAKE2B-512",
        vectors: &[Kat {
            source: "RFC 7693 Appendix A \"abc\"",
            message: b"abc",
            digest: "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923",
        }],
        labels: &[],
        fidelity_target: false,
    },
];

/// A reusable digest context of one backend.
pub enum Hasher {
    /// OpenSSL's EVP_MD_CTX with an EVP_MD fetched once from the provider.
    OpenSsl(MdCtx, Md),
    /// RustCrypto SHA-256.
    Sha256,
    /// RustCrypto SHA-512.
    Sha512,
    /// RustCrypto SHA3-256.
    Sha3_256,
    /// RustCrypto BLAKE2b-512.
    Blake2b512,
}

impl Hasher {
    /// A context for `alg` on `backend`.
    pub fn new(alg: &Algorithm, backend: Backend) -> Result<Self, CaseError> {
        Ok(match backend {
            Backend::OpenSsl => {
                // Fetch the EVP_MD once, as `openssl speed` does: with OpenSSL 3 an
                // un-fetched digest (EVP_sha256()) is fetched again on every
                // init, which costs more than hashing a short message.
                let md = Md::fetch(None, alg.openssl_fetch, None).map_err(|e| {
                    CaseError::Skipped(format!("this OpenSSL has no {}: {e}", alg.name))
                })?;
                let ctx = MdCtx::new().map_err(|e| CaseError::Failed(e.to_string()))?;
                Hasher::OpenSsl(ctx, md)
            }
            Backend::RustCrypto => match alg.name {
                "SHA-256" => Hasher::Sha256,
                "SHA-512" => Hasher::Sha512,
                "SHA3-256" => Hasher::Sha3_256,
                "BLAKE2b-512" => Hasher::Blake2b512,
                other => return Err(CaseError::Skipped(format!("RustCrypto: no {other}"))),
            },
        })
    }

    /// Digest of `data` (one complete init-update-final).
    pub fn digest(&mut self, data: &[u8]) -> Vec<u8> {
        use sha2::Digest;
        match self {
            Hasher::OpenSsl(ctx, md) => {
                // These calls fail only on allocation or provider errors, which
                // the known-answer check exposes before anything is timed.
                let mut out = vec![0u8; md.size()];
                ctx.digest_init(md).expect("EVP_DigestInit_ex");
                ctx.digest_update(data).expect("EVP_DigestUpdate");
                ctx.digest_final(&mut out).expect("EVP_DigestFinal_ex");
                out
            }
            Hasher::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Hasher::Sha512 => sha2::Sha512::digest(data).to_vec(),
            Hasher::Sha3_256 => sha3::Sha3_256::digest(data).to_vec(),
            Hasher::Blake2b512 => blake2::Blake2b512::digest(data).to_vec(),
        }
    }
}
