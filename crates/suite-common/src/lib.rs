//! Library identity the suites share: which library a backend is, its
//! version string, and the one-time initialisation it needs.
//!
//! Suites build their cases on these libraries directly; this crate only
//! holds what several suites share, so that "which OpenSSL is this" or "is
//! libsodium initialised" has one answer: OpenSSL's version and providers
//! ([`openssl_lib`]), libsodium's version and `sodium_init` ([`sodium`]),
//! RustCrypto crate versions ([`rustcrypto`]).
//!
//! It is a crate of its own, not a module of `core` or the engine, because
//! answering those questions links OpenSSL and libsodium: the model and the
//! measurement stay free of any cryptographic library, and only the suites
//! (and the runtime layer, the binary) that speak of these libraries link
//! them. CPU features are a fact about the host and live in the engine.
#![deny(missing_docs)]

/// Why a library cannot be initialised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// `sodium_init` returned an error.
    #[error("sodium_init failed")]
    SodiumInit,
    /// OpenSSL's default provider did not load.
    #[error("default provider: {0}")]
    DefaultProvider(String),
    /// OpenSSL's legacy provider (DES, Blowfish, RC4, ...) did not load.
    #[error("legacy provider not loadable: {0}")]
    LegacyProvider(String),
}

/// Strings are what the older runner code carries; `?` converts.
impl From<BackendError> for String {
    fn from(e: BackendError) -> Self {
        e.to_string()
    }
}

/// OpenSSL through the `openssl` crate (the system libssl).
pub mod openssl_lib {
    use super::BackendError;
    use std::sync::OnceLock;

    /// Backend name used on the command line and in results.
    pub const NAME: &str = "openssl";

    /// The library's own version string, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
    pub fn version() -> String {
        openssl::version::version().to_string()
    }

    /// OpenSSL as every suite's backend states it: each suite implements
    /// its own family trait (digest, cipher, AEAD, curves) for this type.
    pub struct OpenSsl;

    impl cryptobench_core::Library for OpenSsl {
        fn name(&self) -> &'static str {
            NAME
        }
        fn version(&self) -> String {
            version()
        }
    }

    /// Loads the default and legacy providers once for the whole process.
    /// Returns why the legacy provider is missing, if it is (the default
    /// provider stays usable either way).
    pub fn ensure_providers() -> Result<(), BackendError> {
        static LOADED: OnceLock<Result<(), BackendError>> = OnceLock::new();
        LOADED
            .get_or_init(|| {
                // Loading any provider explicitly stops OpenSSL from loading the
                // default one implicitly, so both are loaded and kept for good.
                let default = openssl::provider::Provider::try_load(None, "default", true)
                    .map_err(|e| BackendError::DefaultProvider(e.to_string()))?;
                std::mem::forget(default);
                let legacy = openssl::provider::Provider::try_load(None, "legacy", true)
                    .map_err(|e| BackendError::LegacyProvider(e.to_string()))?;
                std::mem::forget(legacy);
                Ok(())
            })
            .clone()
    }
}

/// libsodium through `libsodium-sys-stable` (vendored, not the system one).
pub mod sodium {
    use super::BackendError;
    use std::ffi::CStr;
    use std::sync::OnceLock;

    /// Backend name.
    pub const NAME: &str = "libsodium";

    /// Calls `sodium_init` once; returns why it failed, if it did.
    pub fn init() -> Result<(), BackendError> {
        static INIT: OnceLock<Result<(), BackendError>> = OnceLock::new();
        INIT.get_or_init(|| {
            // SAFETY: sodium_init is thread-safe and idempotent.
            let rc = unsafe { libsodium_sys::sodium_init() };
            if rc < 0 {
                Err(BackendError::SodiumInit)
            } else {
                Ok(())
            }
        })
        .clone()
    }

    /// `libsodium 1.0.x`, from the library itself.
    pub fn version() -> String {
        // SAFETY: returns a pointer to a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(libsodium_sys::sodium_version_string()) };
        format!("libsodium {}", v.to_string_lossy())
    }

    /// Whether libsodium runs here (`sodium_init` succeeded).
    pub fn availability() -> cryptobench_core::Availability {
        match init() {
            Ok(()) => cryptobench_core::Availability::Available,
            Err(why) => cryptobench_core::Availability::Unavailable(why.to_string()),
        }
    }

    /// libsodium as every suite's backend states it (see
    /// [`super::openssl_lib::OpenSsl`]).
    pub struct Sodium;

    impl cryptobench_core::Library for Sodium {
        fn name(&self) -> &'static str {
            NAME
        }
        fn version(&self) -> String {
            version()
        }
        fn availability(&self) -> cryptobench_core::Availability {
            availability()
        }
    }
}

/// RustCrypto crates: the version is the list of crates a suite uses.
pub mod rustcrypto {

    /// Backend name.
    pub const NAME: &str = "rustcrypto";

    /// The crates a suite uses and their versions, e.g. `[("sha2", "0.11")]`.
    pub type Crates = &'static [(&'static str, &'static str)];

    /// RustCrypto as a suite's backend: one library name, versioned by the
    /// crates that suite uses. A suite keeps one `const` of it and
    /// implements its family trait for this type.
    pub struct RustCrypto {
        crates: Crates,
    }

    impl RustCrypto {
        /// RustCrypto through `crates`.
        pub const fn new(crates: Crates) -> Self {
            Self { crates }
        }
    }

    impl cryptobench_core::Library for RustCrypto {
        fn name(&self) -> &'static str {
            NAME
        }
        /// `RustCrypto sha2 0.11, sha3 0.10`.
        fn version(&self) -> String {
            let list: Vec<String> = self
                .crates
                .iter()
                .map(|(n, v)| format!("{n} {v}"))
                .collect();
            format!("RustCrypto {}", list.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_come_from_the_libraries() {
        assert!(super::openssl_lib::version().starts_with("OpenSSL "));
        super::sodium::init().unwrap();
        assert!(super::sodium::version().starts_with("libsodium 1."));
    }

    #[test]
    fn legacy_provider_loads_and_default_stays() {
        super::openssl_lib::ensure_providers().unwrap();
        assert!(openssl::symm::Cipher::from_nid(openssl::nid::Nid::AES_128_CBC).is_some());
    }
}
