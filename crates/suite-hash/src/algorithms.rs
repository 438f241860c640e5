//! The digest algorithms and their known-answer vectors (source next to
//! each); the libraries that compute them are in [`crate::backend`].

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
