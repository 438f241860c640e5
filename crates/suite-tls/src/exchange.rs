//! One in-memory TLS 1.3 exchange: a rustls client and server in one
//! thread, bytes handed over through two buffers, each side's steps timed
//! apart.
//!
//! A full handshake is four steps: the client makes its ClientHello (key
//! share generated), the server answers with its flight (ServerHello,
//! EncryptedExtensions, Certificate, CertificateVerify, Finished: key
//! share, signature, key schedule, record encryption), the client reads
//! it (key share, certificate chain and signature verified) and sends its
//! Finished, the server reads that (and, for resumed rows, issues the next
//! ticket, which the client then stores). Each step's time goes to the
//! side that ran it, from the monotonic clock read at its start and end;
//! nothing else runs in the thread, so a side's sum is the CPU time it
//! spent (four clock reads a handshake, tens of nanoseconds, on top).
//! Dropping each connection is timed on its side too: a server frees its
//! connection state. Making the configurations (certificates, keys,
//! trust anchors) happens once per case, untimed.

use crate::catalog::{Cert, Group};
use crate::certs::{self, SERVER_NAME};
use crate::error::TlsError;
use crate::parts::{Fixed, NullKey, OneScheme, Recording, NULL_SHARE_GROUP};
use crate::provider::Provider;
use rustls::client::{Resumption, WebPkiServerVerifier};
use rustls::crypto::SupportedKxGroup;
use rustls::pki_types::ServerName;
use rustls::sign::{CertifiedKey, SigningKey};
use rustls::{ClientConfig, ClientConnection, ConnectionCommon, RootCertStore, ServerConfig};
use rustls::{ServerConnection, SideData};
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Instant;

/// What one row's handshakes are.
#[derive(Clone, Copy)]
pub struct PairSpec {
    /// The rustls provider on both sides.
    pub provider: &'static dyn Provider,
    /// The key-exchange group; `None`: the null key share.
    pub group: Option<&'static Group>,
    /// The server's certificate.
    pub cert: &'static Cert,
    /// The server signs with fixed bytes (breakdown rows).
    pub null_signature: bool,
    /// Resumed (PSK with a fresh key share) instead of full handshakes.
    pub resumed: bool,
}

/// Bytes each flight put on the wire (TLS records, headers included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wire {
    /// The client's first flight (ClientHello).
    pub client_hello: usize,
    /// The server's flight (ServerHello .. Finished).
    pub server_flight: usize,
    /// The client's second flight (Finished).
    pub client_finished: usize,
    /// What the server sent after the handshake (session tickets).
    pub server_after: usize,
}

/// Each side's time in one or more handshakes, ns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sides {
    /// The server's steps.
    pub server_ns: u64,
    /// The client's steps.
    pub client_ns: u64,
}

/// A finished handshake, both connections still open.
pub struct Finished {
    /// The client.
    pub client: ClientConnection,
    /// The server.
    pub server: ServerConnection,
    /// Bytes per flight.
    pub wire: Wire,
    /// Each side's time.
    pub sides: Sides,
}

/// A client and a server configured for one row.
pub struct Pair {
    /// What it is.
    pub spec: PairSpec,
    server: Arc<ServerConfig>,
    client: Arc<ClientConfig>,
    verifier: Arc<Recording>,
    name: ServerName<'static>,
    to_server: Vec<u8>,
    to_client: Vec<u8>,
}

fn elapsed(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// Everything `conn` wants to send, appended to `out`.
fn drain<D: SideData>(conn: &mut ConnectionCommon<D>, out: &mut Vec<u8>) -> Result<(), TlsError> {
    while conn.wants_write() {
        conn.write_tls(out)
            .map_err(TlsError::io("writing records"))?;
    }
    Ok(())
}

/// `bytes` read and processed by `conn`.
fn feed<D: SideData>(
    conn: &mut ConnectionCommon<D>,
    mut bytes: &[u8],
    step: &'static str,
) -> Result<(), TlsError> {
    while !bytes.is_empty() {
        conn.read_tls(&mut bytes).map_err(TlsError::io(step))?;
        conn.process_new_packets().map_err(TlsError::rustls(step))?;
    }
    Ok(())
}

impl Pair {
    /// Both configurations for `spec`, each side offering only its group.
    pub fn new(spec: PairSpec) -> Result<Self, TlsError> {
        let kx = Self::kx(&spec, spec.group)?;
        Self::build(spec, kx.clone(), kx)
    }

    /// A pair whose server has `server_groups` while the client offers the
    /// asked group first and then those: a handshake that does not end on
    /// the asked group, for testing the checks.
    pub fn with_server_groups(
        spec: PairSpec,
        server_groups: &[&'static Group],
    ) -> Result<Self, TlsError> {
        let mut client = Self::kx(&spec, spec.group)?;
        let mut server = Vec::new();
        for g in server_groups {
            server.extend(Self::kx(&spec, Some(g))?);
        }
        client.extend(server.iter().copied());
        Self::build(spec, client, server)
    }

    fn kx(
        spec: &PairSpec,
        group: Option<&'static Group>,
    ) -> Result<Vec<&'static dyn SupportedKxGroup>, TlsError> {
        Ok(vec![match group {
            None => NULL_SHARE_GROUP,
            Some(g) => spec.provider.kx_group(g).ok_or(TlsError::NotOffered {
                provider: spec.provider.name(),
                group: g.name,
            })?,
        }])
    }

    fn build(
        spec: PairSpec,
        client_kx: Vec<&'static dyn SupportedKxGroup>,
        server_kx: Vec<&'static dyn SupportedKxGroup>,
    ) -> Result<Self, TlsError> {
        let set = certs::get(spec.cert)?;
        let server_crypto = spec.provider.with_groups(server_kx);
        let key = server_crypto
            .key_provider
            .load_private_key(set.key_der())
            .map_err(TlsError::rustls("loading the server key"))?;
        let key: Arc<dyn SigningKey> = if spec.null_signature {
            Arc::new(NullKey::new(
                key.as_ref(),
                spec.cert.scheme,
                signature_bytes(key.as_ref(), spec.cert)?,
            ))
        } else {
            Arc::new(OneScheme::new(key, spec.cert.scheme))
        };
        let certified = CertifiedKey::new(vec![set.leaf.clone()], key);
        let mut server = ServerConfig::builder_with_provider(server_crypto)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(TlsError::rustls("server config"))?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(Fixed(Arc::new(certified))));
        // Full rows issue no ticket (a full handshake is the unit); resumed
        // rows one per handshake, which the next handshake then uses.
        server.send_tls13_tickets = usize::from(spec.resumed);
        if spec.resumed {
            server.ticketer = spec.provider.ticketer()?;
        }

        let client_crypto = spec.provider.with_groups(client_kx);
        let mut roots = RootCertStore::empty();
        roots
            .add(set.root.clone())
            .map_err(TlsError::rustls("adding the trust anchor"))?;
        let webpki =
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), client_crypto.clone())
                .build()
                .map_err(|e| TlsError::Mismatch(format!("client verifier: {e}")))?;
        let verifier = Arc::new(Recording::new(webpki, spec.null_signature));
        let mut client = ClientConfig::builder_with_provider(client_crypto)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .map_err(TlsError::rustls("client config"))?
            .dangerous()
            .with_custom_certificate_verifier(verifier.clone())
            .with_no_client_auth();
        client.resumption = if spec.resumed {
            Resumption::in_memory_sessions(8)
        } else {
            Resumption::disabled()
        };
        let name = ServerName::try_from(SERVER_NAME)
            .map_err(|e| TlsError::Mismatch(format!("server name: {e}")))?;
        let mut pair = Self {
            spec,
            server: Arc::new(server),
            client: Arc::new(client),
            verifier,
            name,
            to_server: Vec::with_capacity(4096),
            to_client: Vec::with_capacity(8192),
        };
        if spec.resumed {
            // The first handshake is full and leaves the ticket the timed
            // ones resume from.
            pair.handshake(false)?;
            pair.verifier.take_scheme();
        }
        Ok(pair)
    }

    /// A fresh client connection of this pair (for a peer over TCP).
    pub fn client_connection(&self) -> Result<ClientConnection, TlsError> {
        ClientConnection::new(self.client.clone(), self.name.clone())
            .map_err(TlsError::rustls("client connection"))
    }

    /// The client's verifier (the CertificateVerify scheme it saw).
    pub fn verifier(&self) -> &Recording {
        &self.verifier
    }

    /// The negotiated group code the rows expect.
    pub fn expected_group(&self) -> rustls::NamedGroup {
        self.spec
            .group
            .map(|g| g.code)
            .unwrap_or(crate::parts::NULL_GROUP)
    }

    /// One handshake; with `tamper`, the last byte of the server flight's
    /// first encrypted record is flipped on its way to the client.
    pub fn handshake(&mut self, tamper: bool) -> Result<Finished, TlsError> {
        let mut sides = Sides::default();
        let mut wire = Wire::default();
        self.to_server.clear();
        self.to_client.clear();

        let t = Instant::now();
        let mut client = ClientConnection::new(self.client.clone(), self.name.clone())
            .map_err(TlsError::rustls("client makes its ClientHello"))?;
        drain(&mut client, &mut self.to_server)?;
        sides.client_ns += elapsed(t);
        wire.client_hello = self.to_server.len();

        let t = Instant::now();
        let mut server = ServerConnection::new(self.server.clone())
            .map_err(TlsError::rustls("server connection"))?;
        feed(&mut server, &self.to_server, "server reads the ClientHello")?;
        drain(&mut server, &mut self.to_client)?;
        sides.server_ns += elapsed(t);
        wire.server_flight = self.to_client.len();
        if tamper && !crate::checks::flip_first_encrypted(&mut self.to_client) {
            return Err(TlsError::Mismatch(
                "the server flight holds no encrypted record to tamper with".into(),
            ));
        }

        self.to_server.clear();
        let t = Instant::now();
        feed(
            &mut client,
            &self.to_client,
            "client reads the server flight",
        )?;
        drain(&mut client, &mut self.to_server)?;
        sides.client_ns += elapsed(t);
        wire.client_finished = self.to_server.len();

        self.to_client.clear();
        let t = Instant::now();
        feed(
            &mut server,
            &self.to_server,
            "server reads the client Finished",
        )?;
        drain(&mut server, &mut self.to_client)?;
        sides.server_ns += elapsed(t);
        wire.server_after = self.to_client.len();

        if !self.to_client.is_empty() {
            let t = Instant::now();
            feed(
                &mut client,
                &self.to_client,
                "client reads the session ticket",
            )?;
            sides.client_ns += elapsed(t);
        }
        if client.is_handshaking() || server.is_handshaking() {
            return Err(TlsError::Mismatch(
                "the handshake did not finish in one round trip (a HelloRetryRequest?)".into(),
            ));
        }
        Ok(Finished {
            client,
            server,
            wire,
            sides,
        })
    }

    /// One handshake as timed: each side's steps, freeing its connection
    /// included.
    pub fn timed(&mut self) -> Result<Sides, TlsError> {
        let Finished {
            client,
            server,
            mut sides,
            ..
        } = self.handshake(false)?;
        let t = Instant::now();
        drop(std::hint::black_box(server));
        sides.server_ns += elapsed(t);
        let t = Instant::now();
        drop(std::hint::black_box(client));
        sides.client_ns += elapsed(t);
        Ok(sides)
    }

    /// Sends `message` from the client and its reverse back from the
    /// server over a finished handshake: whether both arrived intact.
    pub fn round_trip(&mut self, done: &mut Finished, message: &[u8]) -> Result<bool, TlsError> {
        let to_server = send(
            &mut done.client,
            &mut done.server,
            message,
            &mut self.to_server,
        )?;
        let reply: Vec<u8> = to_server.iter().rev().copied().collect();
        let back = send(
            &mut done.server,
            &mut done.client,
            &reply,
            &mut self.to_client,
        )?;
        let expected: Vec<u8> = message.iter().rev().copied().collect();
        Ok(to_server == message && back == expected)
    }
}

/// `message` written by `from`, carried as records, read by `to`.
fn send<A: SideData, B: SideData>(
    from: &mut ConnectionCommon<A>,
    to: &mut ConnectionCommon<B>,
    message: &[u8],
    buf: &mut Vec<u8>,
) -> Result<Vec<u8>, TlsError> {
    buf.clear();
    from.writer()
        .write_all(message)
        .map_err(TlsError::io("writing application data"))?;
    drain(from, buf)?;
    feed(to, buf, "reading application data")?;
    let mut got = vec![0u8; message.len() + 1];
    let mut n = 0;
    while n < got.len() {
        match to.reader().read(&mut got[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => {
                return Err(TlsError::Io {
                    step: "reading application data",
                    source: e,
                })
            }
        }
    }
    got.truncate(n);
    Ok(got)
}

/// The length of the real key's signature, which the null key copies.
fn signature_bytes(key: &dyn SigningKey, cert: &Cert) -> Result<usize, TlsError> {
    let signer = key.choose_scheme(&[cert.scheme]).ok_or_else(|| {
        TlsError::Mismatch(format!(
            "the {} key cannot sign with {:?}",
            cert.name, cert.scheme
        ))
    })?;
    let signature = signer
        .sign(b"the length of one signature")
        .map_err(TlsError::rustls("signing once for the null key's length"))?;
    Ok(signature.len())
}
