//! The handshake's parts rustls lets the suite replace, for the measured
//! breakdown of a server's time, and the client's recording verifier.
//!
//! - [`NullShare`]: a key exchange that does no arithmetic (a fixed
//!   32-byte share and secret, under a private-use group code), so a
//!   handshake with it costs everything but the key share.
//! - [`NullKey`]: a server key that "signs" with fixed bytes as long as
//!   the real signature, so a handshake with it costs everything but the
//!   CertificateVerify signature (the client then accepts any signature).
//! - [`Recording`]: the client's certificate verifier (webpki), which also
//!   notes the CertificateVerify scheme the server used, the check that
//!   the row's signature is the one asked for.
//!
//! The stand-ins only ever meet each other in one process; they are
//! never offered to another TLS implementation.

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{ActiveKeyExchange, SharedSecret, SupportedKxGroup};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::sign::{CertifiedKey, Signer, SigningKey};
use rustls::{DigitallySignedStruct, NamedGroup, SignatureAlgorithm, SignatureScheme};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;

/// The null key share's group code, from TLS 1.3's private-use range
/// (RFC 8446 section 4.2.7, `ecdhe_private_use` 0xFE00-0xFEFF).
pub const NULL_GROUP: NamedGroup = NamedGroup::Unknown(0xFE00);
/// Bytes of the null share: X25519's, so the messages keep their size.
const NULL_SHARE: [u8; 32] = [0x5a; 32];

/// A key exchange without arithmetic.
#[derive(Debug)]
pub struct NullShare;

/// One side of a null key exchange.
#[derive(Debug)]
struct NullActive;

impl SupportedKxGroup for NullShare {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, rustls::Error> {
        Ok(Box::new(NullActive))
    }
    fn name(&self) -> NamedGroup {
        NULL_GROUP
    }
}

impl ActiveKeyExchange for NullActive {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, rustls::Error> {
        if peer != NULL_SHARE {
            return Err(rustls::Error::General(
                "null key share: unexpected peer share".into(),
            ));
        }
        Ok(SharedSecret::from(&NULL_SHARE[..]))
    }
    fn pub_key(&self) -> &[u8] {
        &NULL_SHARE
    }
    fn group(&self) -> NamedGroup {
        NULL_GROUP
    }
}

/// The null key share, as a provider lists its groups.
pub static NULL_SHARE_GROUP: &dyn SupportedKxGroup = &NullShare;

/// A server key whose signatures are fixed bytes of the real length.
#[derive(Debug)]
pub struct NullKey {
    scheme: SignatureScheme,
    algorithm: SignatureAlgorithm,
    signature_bytes: usize,
}

impl NullKey {
    /// Stands in for `real`, whose signatures (with `scheme`) are
    /// `signature_bytes` long.
    pub fn new(real: &dyn SigningKey, scheme: SignatureScheme, signature_bytes: usize) -> Self {
        Self {
            scheme,
            algorithm: real.algorithm(),
            signature_bytes,
        }
    }
}

impl SigningKey for NullKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&self.scheme).then(|| {
            Box::new(NullSigner {
                scheme: self.scheme,
                bytes: self.signature_bytes,
            }) as Box<dyn Signer>
        })
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        self.algorithm
    }
}

#[derive(Debug)]
struct NullSigner {
    scheme: SignatureScheme,
    bytes: usize,
}

impl Signer for NullSigner {
    fn sign(&self, _message: &[u8]) -> Result<Vec<u8>, rustls::Error> {
        Ok(vec![0x30; self.bytes])
    }
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}

/// A server key that signs with one scheme only, the row's: rustls'
/// own RSA key would pick RSA-PSS with SHA-512 first, while the row (and
/// the model) is RSA-PSS with SHA-256.
#[derive(Debug)]
pub struct OneScheme {
    inner: Arc<dyn SigningKey>,
    scheme: SignatureScheme,
}

impl OneScheme {
    /// `inner`, signing with `scheme` only.
    pub fn new(inner: Arc<dyn SigningKey>, scheme: SignatureScheme) -> Self {
        Self { inner, scheme }
    }
}

impl SigningKey for OneScheme {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        if offered.contains(&self.scheme) {
            self.inner.choose_scheme(&[self.scheme])
        } else {
            None
        }
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        self.inner.algorithm()
    }
}

/// A server that always presents one certified key.
#[derive(Debug)]
pub struct Fixed(pub Arc<CertifiedKey>);

impl rustls::server::ResolvesServerCert for Fixed {
    fn resolve(&self, _hello: rustls::server::ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// The client's verifier: webpki's, noting the CertificateVerify scheme.
#[derive(Debug)]
pub struct Recording {
    inner: Arc<WebPkiServerVerifier>,
    /// The last CertificateVerify scheme seen (0: none yet).
    scheme: AtomicU16,
    /// Accept any CertificateVerify signature (the null-signature rows);
    /// the certificate chain is still verified.
    accept_any_signature: bool,
}

impl Recording {
    /// Wraps webpki's verifier.
    pub fn new(inner: Arc<WebPkiServerVerifier>, accept_any_signature: bool) -> Self {
        Self {
            inner,
            scheme: AtomicU16::new(0),
            accept_any_signature,
        }
    }
    /// The last CertificateVerify scheme the server used, and forgets it.
    pub fn take_scheme(&self) -> Option<SignatureScheme> {
        match self.scheme.swap(0, Ordering::Relaxed) {
            0 => None,
            code => Some(SignatureScheme::from(code)),
        }
    }
}

impl ServerCertVerifier for Recording {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.scheme.store(u16::from(dss.scheme), Ordering::Relaxed);
        if self.accept_any_signature {
            return Ok(HandshakeSignatureValid::assertion());
        }
        self.inner.verify_tls13_signature(message, cert, dss)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}
