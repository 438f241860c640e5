//! What the cipher suite publishes for language runtimes: an OpenSSL cipher
//! name or alias, as a runtime lists it (PHP's
//! `openssl_get_cipher_methods()` gives `aes-128-cbc`, `bf-cbc`,
//! `id-aes128-wrap`), resolved to this suite's description of it. A
//! runtime's rows then carry the suite's own canonical name, mode, key
//! strength, labels ([`crate::catalog::labels`]) and size rules
//! ([`crate::catalog::size_rule`]) instead of a copy of them.

use crate::catalog::CipherDesc;
use crate::openssl_backend;

/// The OpenSSL backend's description of the cipher `name` (any OpenSSL
/// name or alias, compared case-insensitively); `None` when the providers
/// offer no such cipher.
pub fn openssl_cipher(name: &str) -> Option<CipherDesc> {
    let aliases = openssl_backend::aliases();
    let canonical = aliases
        .get(name)
        .or_else(|| {
            aliases
                .iter()
                .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
                .map(|(_, canonical)| canonical)
        })
        .cloned()
        .unwrap_or_else(|| name.to_string());
    openssl_backend::ciphers()
        .into_iter()
        .find(|d| d.name.eq_ignore_ascii_case(&canonical))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Mode;

    #[test]
    fn runtime_spellings_resolve_to_the_suites_description() {
        let cbc = openssl_cipher("aes-128-cbc").expect("aes-128-cbc");
        assert_eq!((cbc.name.as_str(), cbc.mode), ("AES-128-CBC", Mode::Cbc));
        let chacha = openssl_cipher("chacha20").expect("chacha20");
        assert_eq!(chacha.name, "ChaCha20");
        let tdes = openssl_cipher("des-ede3-cbc").expect("des-ede3-cbc");
        assert_eq!((tdes.family.as_str(), tdes.key_bits), ("DES-EDE3", 168));
        assert!(openssl_cipher("no-such-cipher").is_none());
    }
}
