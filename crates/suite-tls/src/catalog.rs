//! What the suite measures: the key-exchange groups and the server
//! certificates, with the names the pubkey suite's handshake model gives
//! the same key share and signature, and the names OpenSSL uses for them.
//!
//! One table row per group or certificate: every other module (providers,
//! the model, the peer, the CLI's name resolution) reads these rows, so a
//! group is added in one place.

use cryptobench_core::{names, Error};
use rustls::{NamedGroup, SignatureScheme};

/// A TLS 1.3 key-exchange group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// The name on the command line and in results (the IANA name).
    pub name: &'static str,
    /// The TLS code point.
    pub code: NamedGroup,
    /// The pubkey suite's name for this key share (its handshake model).
    pub model_share: &'static str,
    /// The name `openssl s_server -groups` takes, when OpenSSL 3.0 has it.
    pub openssl: Option<&'static str>,
    /// Bytes of the client's key share (the `key_exchange` field).
    pub client_share_bytes: usize,
    /// Bytes of the server's key share.
    pub server_share_bytes: usize,
    /// Post-quantum (or hybrid with a post-quantum part).
    pub post_quantum: bool,
}

/// Every group, in report order.
pub static GROUPS: &[Group] = &[
    Group {
        name: "X25519",
        code: NamedGroup::X25519,
        model_share: "X25519",
        openssl: Some("X25519"),
        client_share_bytes: 32,
        server_share_bytes: 32,
        post_quantum: false,
    },
    Group {
        name: "secp256r1",
        code: NamedGroup::secp256r1,
        model_share: "ECDH-P256",
        openssl: Some("P-256"),
        client_share_bytes: 65,
        server_share_bytes: 65,
        post_quantum: false,
    },
    // draft-ietf-tls-ecdhe-mlkem: ML-KEM-768 ek || X25519, ct || X25519.
    Group {
        name: "X25519MLKEM768",
        code: NamedGroup::X25519MLKEM768,
        model_share: "X25519MLKEM768",
        openssl: None,
        client_share_bytes: 1216,
        server_share_bytes: 1120,
        post_quantum: true,
    },
    Group {
        name: "MLKEM768",
        code: NamedGroup::MLKEM768,
        model_share: "ML-KEM-768",
        openssl: None,
        client_share_bytes: 1184,
        server_share_bytes: 1088,
        post_quantum: true,
    },
];

/// The kind of key behind a certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// ECDSA over P-256 with SHA-256.
    EcdsaP256,
    /// Ed25519.
    Ed25519,
    /// RSA with 2048-bit modulus (TLS 1.3 signs with PSS).
    Rsa2048,
}

/// A server certificate (a leaf signed by a root of the same kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cert {
    /// The name on the command line and in results.
    pub name: &'static str,
    /// Its key.
    pub key: KeyKind,
    /// The CertificateVerify scheme a TLS 1.3 server signs with.
    pub scheme: SignatureScheme,
    /// The pubkey suite's name for that signature (its handshake model).
    pub model_signature: &'static str,
}

/// Every certificate, in report order.
pub static CERTS: &[Cert] = &[
    Cert {
        name: "ECDSA-P256",
        key: KeyKind::EcdsaP256,
        scheme: SignatureScheme::ECDSA_NISTP256_SHA256,
        model_signature: "ECDSA-P256",
    },
    Cert {
        name: "Ed25519",
        key: KeyKind::Ed25519,
        scheme: SignatureScheme::ED25519,
        model_signature: "Ed25519",
    },
    Cert {
        name: "RSA-2048",
        key: KeyKind::Rsa2048,
        scheme: SignatureScheme::RSA_PSS_SHA256,
        model_signature: "RSA-2048-PSS",
    },
];

/// The group named `name` exactly (canonical spelling).
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// The certificate named `name` exactly (canonical spelling).
pub fn cert(name: &str) -> Option<&'static Cert> {
    CERTS.iter().find(|c| c.name == name)
}

/// Resolves a user's comma-separated list of groups (case-insensitive,
/// "did you mean" on a miss; `P-256` and `ML-KEM-768` are accepted as
/// the pubkey suite spells them).
pub fn resolve_groups(list: &str) -> Result<Vec<&'static Group>, Error> {
    let mut out: Vec<&'static Group> = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let g = GROUPS
            .iter()
            .find(|g| {
                let want = names::fold(part);
                [g.name, g.model_share]
                    .into_iter()
                    .chain(g.openssl)
                    .any(|n| names::fold(n) == want)
            })
            .ok_or_else(|| names::unknown("group", part, &group_names()))?;
        if !out.contains(&g) {
            out.push(g);
        }
    }
    if out.is_empty() {
        return Err(Error::usage(format!(
            "--groups: an empty list (accepted: {}, comma-separated; omit the flag for all)",
            group_names().join(", ")
        )));
    }
    Ok(out)
}

/// Resolves a user's comma-separated list of certificates.
pub fn resolve_certs(list: &str) -> Result<Vec<&'static Cert>, Error> {
    let all = cert_names();
    let mut out: Vec<&'static Cert> = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let name = names::resolve("certificate", part, &all)?;
        let c = cert(name).expect("a name from the table");
        if !out.contains(&c) {
            out.push(c);
        }
    }
    if out.is_empty() {
        return Err(Error::usage(format!(
            "--certs: an empty list (accepted: {}, comma-separated; omit the flag for all)",
            all.join(", ")
        )));
    }
    Ok(out)
}

/// The groups' canonical names.
pub fn group_names() -> Vec<&'static str> {
    GROUPS.iter().map(|g| g.name).collect()
}

/// The certificates' canonical names.
pub fn cert_names() -> Vec<&'static str> {
    CERTS.iter().map(|c| c.name).collect()
}
