//! The `openssl s_time` peer as a case: what one sample is, and the checks
//! that run against the server before any sample.
//!
//! One sample is one `openssl s_time -new -time 1` run against the
//! suite's `s_server` (both on this machine, over loopback TCP, on the
//! measuring core the run pinned cryptobench to): s_time opens as many
//! fresh connections as fit in its second, each a full TLS 1.3 handshake,
//! and closes each at once. The figure stored per handshake is the
//! server's CPU time (user + system, from its CPU-time clock) over the
//! run divided by the connections s_time counted: the server's cost of a
//! handshake, comparable to the rustls rows' server time except that it
//! also holds the kernel's work for accept, the TCP segments and close.
//! s_time's own CPU per connection (its client's cost) is kept beside it.
//!
//! Checks: a rustls client (aws-lc-rs, the row's group only, trusting the
//! suite's root) connects over TCP and must negotiate the group and the
//! certificate's scheme and get its message back reversed (`s_server
//! -rev`); the same client must refuse a server flight with one flipped
//! bit; `openssl s_client` under the peer's configuration must get one
//! ServerHello (no retry), the row's group and the certificate's
//! signature type, as s_time's handshakes will.

use crate::catalog::{Cert, Group, KeyKind};
use crate::certs;
use crate::checks::flip_first_encrypted;
use crate::error::TlsError;
use crate::exchange::{Pair, PairSpec};
use crate::peer::{self, PeerFiles, SServer, LOOPBACK};
use cryptobench_core::{BatchTime, Case, CaseError, CheckResult};
use rustls::ClientConnection;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Seconds of one s_time run (its smallest unit; a run lasts one to two).
const SECONDS: &str = "1";
/// The longest an s_time or s_client run may take.
const DEADLINE: Duration = Duration::from_secs(20);
/// Connections one s_time run makes at most, for restarting the server
/// before `-naccept` ends it mid-run.
const MOST_PER_RUN: u64 = 50_000;

/// The s_time peer of one (group, certificate) row.
pub struct STimeCase {
    files: PeerFiles,
    server: SServer,
    checks: Vec<CheckResult>,
    runs: u64,
    connections: u64,
    client_cpu_ns: u64,
    wall_ns: u64,
}

impl STimeCase {
    /// Writes the files, starts the server and runs the checks.
    pub fn new(group: &'static Group, cert: &'static Cert) -> Result<Self, TlsError> {
        let set = certs::get(cert)?;
        let files = PeerFiles::write(&set, group)?;
        let mut server = SServer::start(LOOPBACK, &files)?;
        let mut checks = rustls_checks(&mut server, group, cert);
        checks.push(openssl_client_check(&mut server, &files, group, cert));
        Ok(Self {
            files,
            server,
            checks,
            runs: 0,
            connections: 0,
            client_cpu_ns: 0,
            wall_ns: 0,
        })
    }

    fn once(&mut self) -> Result<BatchTime, TlsError> {
        if !self.server.room_for(MOST_PER_RUN) {
            self.server = SServer::start(LOOPBACK, &self.files)?;
        }
        let before = self.server.cpu_ns()?;
        let connect = format!("{LOOPBACK}:{}", self.server.port());
        let ca = self.files.ca.display().to_string();
        let args = [
            "s_time",
            "-connect",
            &connect,
            "-new",
            "-time",
            SECONDS,
            "-ciphersuites",
            peer::CIPHER_SUITE,
            "-CAfile",
            &ca,
            "-verify",
            "1",
        ];
        let ran = peer::run(&self.files, &args, DEADLINE)?;
        // The server may still be reading the last connection's Finished.
        std::thread::sleep(Duration::from_millis(10));
        let after = self.server.cpu_ns()?;
        let connections = connections(&ran.stdout).ok_or_else(|| {
            TlsError::peer(
                "s_time",
                format!(
                    "no connection count in its output (server: {}; s_time: {})",
                    self.server.error_tail(),
                    last_line(&ran.stderr)
                ),
            )
        })?;
        if !ran.success || connections == 0 {
            return Err(TlsError::peer(
                "s_time",
                format!("{connections} connections: {}", last_line(&ran.stderr)),
            ));
        }
        self.server.connections += connections;
        self.runs += 1;
        self.connections += connections;
        self.client_cpu_ns += ran.cpu_ns;
        self.wall_ns += ran.wall_ns;
        Ok(BatchTime {
            iters: connections,
            wall_ns: after.saturating_sub(before) as f64,
            cpu_ns: None,
            process: None,
        })
    }
}

impl Case for STimeCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.clone()
    }
    fn run_batch(&mut self, _iters: u64) -> Result<(), CaseError> {
        Err(CaseError::Failed("s_time times itself".into()))
    }
    fn time_batch(&mut self, _iters: u64) -> Option<Result<BatchTime, CaseError>> {
        Some(self.once().map_err(CaseError::from))
    }
    fn fixed_iterations(&self) -> Option<u64> {
        Some(1)
    }
    fn calibration_is_a_sample(&self) -> bool {
        true
    }
    fn placement_free(&self) -> bool {
        true
    }
    fn extra(&self) -> Vec<(String, f64)> {
        if self.connections == 0 {
            return Vec::new();
        }
        let per = |ns: u64| ns as f64 / self.connections as f64;
        vec![
            ("peer_client_cpu_ns".into(), per(self.client_cpu_ns)),
            ("peer_wall_ns".into(), per(self.wall_ns)),
            (
                "peer_connections_per_run".into(),
                self.connections as f64 / self.runs as f64,
            ),
        ]
    }
}

/// `N connections in 0.20s; ...`: N.
fn connections(stdout: &str) -> Option<u64> {
    stdout
        .lines()
        .find(|l| l.contains("connections in") && l.contains("user sec"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("(nothing)")
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect()
}

/// The rustls client's checks against the server.
fn rustls_checks(
    server: &mut SServer,
    group: &'static Group,
    cert: &'static Cert,
) -> Vec<CheckResult> {
    let spec = PairSpec {
        provider: &crate::provider::AwsLcRs,
        group: Some(group),
        cert,
        null_signature: false,
        resumed: false,
    };
    let pair = match Pair::new(spec) {
        Ok(p) => p,
        Err(e) => return vec![CheckResult::fail("peer handshake", e.to_string())],
    };
    let mut out = Vec::new();
    server.connections += 2;
    out.push(match over_tcp(&pair, server.port(), false) {
        Ok((conn, echoed)) => {
            let negotiated = conn.negotiated_key_exchange_group().map(|g| g.name());
            let scheme = pair.verifier().take_scheme();
            let ok = negotiated == Some(group.code) && scheme == Some(cert.scheme) && echoed;
            CheckResult::from_bool(
                "peer handshake",
                ok,
                format!(
                    "rustls client to s_server: group {negotiated:?} (asked {:?}), scheme {scheme:?} \
                     (asked {:?}), message returned reversed: {echoed}",
                    group.code, cert.scheme
                ),
            )
        }
        Err(e) => CheckResult::fail("peer handshake", e.to_string()),
    });
    out.push(match over_tcp(&pair, server.port(), true) {
        Ok(_) => CheckResult::fail(
            "peer tampered flight",
            "a flight from s_server with a flipped bit was accepted",
        ),
        Err(e) => CheckResult::pass(
            "peer tampered flight",
            format!("s_server's flight with one flipped bit refused ({e})"),
        ),
    });
    out
}

/// A handshake with the server over TCP, then a line sent and read back
/// (`s_server -rev` returns it reversed); with `tamper`, the first
/// encrypted record from the server gets a flipped bit.
fn over_tcp(pair: &Pair, port: u16, tamper: bool) -> Result<(ClientConnection, bool), TlsError> {
    let mut conn = pair.client_connection()?;
    let addr = SocketAddr::new(LOOPBACK, port);
    let mut tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(2))
        .map_err(TlsError::io("connecting to s_server"))?;
    tcp.set_read_timeout(Some(Duration::from_secs(5)))
        .and_then(|()| tcp.set_write_timeout(Some(Duration::from_secs(5))))
        .map_err(TlsError::io("setting socket timeouts"))?;
    let mut tampered = !tamper;
    while conn.is_handshaking() {
        flush(&mut conn, &mut tcp)?;
        let mut record = read_record(&mut tcp)?;
        if !tampered {
            tampered = flip_first_encrypted(&mut record);
        }
        conn.read_tls(&mut &record[..])
            .map_err(TlsError::io("reading s_server's records"))?;
        conn.process_new_packets()
            .map_err(TlsError::rustls("client reads s_server's flight"))?;
    }
    const LINE: &[u8] = b"cryptobench\n";
    conn.writer()
        .write_all(LINE)
        .map_err(TlsError::io("writing to s_server"))?;
    flush(&mut conn, &mut tcp)?;
    let mut got = Vec::new();
    while !got.ends_with(b"\n") && got.len() < 64 {
        let record = read_record(&mut tcp)?;
        conn.read_tls(&mut &record[..])
            .map_err(TlsError::io("reading s_server's reply"))?;
        conn.process_new_packets()
            .map_err(TlsError::rustls("client reads s_server's reply"))?;
        let mut buf = [0u8; 64];
        match conn.reader().read(&mut buf) {
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(TlsError::io("reading s_server's reply")(e)),
        }
    }
    let want: Vec<u8> = LINE[..LINE.len() - 1].iter().rev().copied().collect();
    Ok((conn, got.starts_with(&want)))
}

fn flush(conn: &mut ClientConnection, tcp: &mut TcpStream) -> Result<(), TlsError> {
    while conn.wants_write() {
        conn.write_tls(tcp)
            .map_err(TlsError::io("writing to s_server"))?;
    }
    Ok(())
}

/// One TLS record (header and body) from the socket.
fn read_record(tcp: &mut TcpStream) -> Result<Vec<u8>, TlsError> {
    let mut record = vec![0u8; 5];
    tcp.read_exact(&mut record)
        .map_err(TlsError::io("reading a record header from s_server"))?;
    let len = usize::from(u16::from_be_bytes([record[3], record[4]]));
    if len > 16384 + 256 {
        return Err(TlsError::peer(
            "s_server",
            format!("a record of {len} bytes"),
        ));
    }
    record.resize(5 + len, 0);
    tcp.read_exact(&mut record[5..])
        .map_err(TlsError::io("reading a record from s_server"))?;
    Ok(record)
}

/// `openssl s_client` under the peer's configuration: one ServerHello,
/// the row's group, the certificate's signature type.
fn openssl_client_check(
    server: &mut SServer,
    files: &PeerFiles,
    group: &Group,
    cert: &Cert,
) -> CheckResult {
    const NAME: &str = "peer client config";
    let connect = format!("{LOOPBACK}:{}", server.port());
    let ca = files.ca.display().to_string();
    let args = [
        "s_client",
        "-connect",
        &connect,
        "-servername",
        certs::SERVER_NAME,
        "-msg",
        "-CAfile",
        &ca,
        "-verify_return_error",
    ];
    server.connections += 1;
    let ran = match peer::run(files, &args, DEADLINE) {
        Ok(r) => r,
        Err(e) => return CheckResult::fail(NAME, e.to_string()),
    };
    let text = format!("{}\n{}", ran.stdout, ran.stderr);
    let hellos = text
        .lines()
        .filter(|l| l.starts_with("<<<") && l.ends_with("ServerHello"))
        .count();
    let key = match group.name {
        "X25519" => "Server Temp Key: X25519",
        _ => "Server Temp Key: ECDH, prime256v1",
    };
    let signature = match cert.key {
        KeyKind::EcdsaP256 => "Peer signature type: ECDSA",
        KeyKind::Ed25519 => "Peer signature type: Ed25519",
        KeyKind::Rsa2048 => "Peer signature type: RSA-PSS",
    };
    let verified = text.contains("Verify return code: 0 (ok)");
    let ok = hellos == 1 && text.contains(key) && text.contains(signature) && verified;
    CheckResult::from_bool(
        NAME,
        ok,
        format!(
            "openssl s_client with s_time's configuration: {hellos} ServerHello (1 wanted), \
             '{key}': {}, '{signature}': {}, chain verified: {verified}",
            text.contains(key),
            text.contains(signature)
        ),
    )
}
