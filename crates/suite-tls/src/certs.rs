//! The certificates, made at setup and never timed: for each kind a root
//! (self-signed, the client's one trust anchor) and a leaf for
//! `localhost` signed by it, both of the kind's key type, so a client
//! verifies one certificate signature and one CertificateVerify per full
//! handshake. rcgen generates every key on aws-lc-rs (RSA-2048 included).
//!
//! Each kind is made once per process and shared by every case; the peer
//! writes the same certificates as PEM into a private directory.

use crate::catalog::{Cert, KeyKind};
use crate::error::TlsError;
use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::sync::{Arc, Mutex, OnceLock};

/// The name the leaf is issued for and clients ask for.
pub const SERVER_NAME: &str = "localhost";

/// One certificate kind, made.
pub struct CertSet {
    /// The root (DER), the client's trust anchor.
    pub root: CertificateDer<'static>,
    /// The leaf (DER), what the server sends.
    pub leaf: CertificateDer<'static>,
    /// The leaf's key, PKCS#8 DER.
    pub leaf_key: Vec<u8>,
    /// The root as PEM (for `openssl -CAfile`).
    pub root_pem: String,
    /// The leaf as PEM.
    pub leaf_pem: String,
    /// The leaf's key as PEM.
    pub leaf_key_pem: String,
}

impl CertSet {
    /// The leaf's key in the form rustls loads.
    pub fn key_der(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.leaf_key.clone()))
    }
}

fn algorithm(kind: KeyKind) -> &'static rcgen::SignatureAlgorithm {
    match kind {
        KeyKind::EcdsaP256 => &rcgen::PKCS_ECDSA_P256_SHA256,
        KeyKind::Ed25519 => &rcgen::PKCS_ED25519,
        KeyKind::Rsa2048 => &rcgen::PKCS_RSA_SHA256,
    }
}

fn make(cert: &Cert) -> Result<CertSet, TlsError> {
    let failed = |source| TlsError::Certificate {
        what: cert.name,
        source,
    };
    let alg = algorithm(cert.key);
    let root_key = KeyPair::generate_for(alg).map_err(failed)?;
    let mut root = CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
    root.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    root.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    root.distinguished_name = named(&format!("cryptobench tls test root {}", cert.name));
    let root = root.self_signed(&root_key).map_err(failed)?;

    let leaf_key = KeyPair::generate_for(alg).map_err(failed)?;
    let mut leaf = CertificateParams::new(vec![SERVER_NAME.to_string()]).map_err(failed)?;
    leaf.distinguished_name = named(SERVER_NAME);
    leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let leaf = leaf
        .signed_by(&leaf_key, &root, &root_key)
        .map_err(failed)?;
    Ok(CertSet {
        root: root.der().clone(),
        leaf: leaf.der().clone(),
        leaf_key: leaf_key.serialize_der(),
        root_pem: root.pem(),
        leaf_pem: leaf.pem(),
        leaf_key_pem: leaf_key.serialize_pem(),
    })
}

fn named(common_name: &str) -> DistinguishedName {
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, common_name);
    dn
}

/// Certificates made so far, one slot per kind in [`crate::catalog::CERTS`]
/// order.
type Made = Mutex<Vec<(&'static str, Arc<CertSet>)>>;

/// The certificate set of `cert`, made on first use and shared after.
pub fn get(cert: &'static Cert) -> Result<Arc<CertSet>, TlsError> {
    static MADE: OnceLock<Made> = OnceLock::new();
    let made = MADE.get_or_init(|| Mutex::new(Vec::new()));
    // Held while making: two cases asking at once get one key, not two.
    let mut made = made.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, set)) = made.iter().find(|(n, _)| *n == cert.name) {
        return Ok(set.clone());
    }
    let set = Arc::new(make(cert)?);
    made.push((cert.name, set.clone()));
    Ok(set)
}
