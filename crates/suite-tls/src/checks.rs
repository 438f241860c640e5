//! What every row's handshakes must show before any of them is timed:
//! the handshake finishes in one round trip; both sides negotiated the
//! group asked for; the server signed its CertificateVerify with the
//! certificate's scheme (full rows) or resumed from its ticket (resumed
//! rows); application data crosses both ways intact; a server flight with
//! one flipped bit in its first encrypted record is refused.

use crate::exchange::{Pair, Wire};
use cryptobench_core::CheckResult;
use rustls::HandshakeKind;

/// Application data sent each way after the handshake.
const MESSAGE: &[u8] = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n";

/// The checks of one pair, and the bytes its checked handshake put on the
/// wire (`None` when it did not finish).
pub fn check_pair(pair: &mut Pair) -> (Vec<CheckResult>, Option<Wire>) {
    let mut out = Vec::new();
    let mut done = match pair.handshake(false) {
        Ok(done) => done,
        Err(e) => {
            out.push(CheckResult::fail("handshake", e.to_string()));
            return (out, None);
        }
    };
    out.push(CheckResult::pass(
        "handshake",
        format!(
            "finished in one round trip: ClientHello {} B, server flight {} B, client Finished {} B",
            done.wire.client_hello, done.wire.server_flight, done.wire.client_finished
        ),
    ));
    out.push(group_check(pair, &done));
    out.push(kind_and_scheme_check(pair, &done));
    out.push(match pair.round_trip(&mut done, MESSAGE) {
        Ok(ok) => CheckResult::from_bool(
            "application data",
            ok,
            format!("{} B each way, intact: {ok}", MESSAGE.len()),
        ),
        Err(e) => CheckResult::fail("application data", e.to_string()),
    });
    let wire = done.wire;
    drop(done);
    out.push(tamper_check(pair));
    (out, Some(wire))
}

/// Both sides negotiated the asked group.
pub fn group_check(pair: &Pair, done: &crate::exchange::Finished) -> CheckResult {
    let want = pair.expected_group();
    let server = done
        .server
        .negotiated_key_exchange_group()
        .map(|g| g.name());
    let client = done
        .client
        .negotiated_key_exchange_group()
        .map(|g| g.name());
    CheckResult::from_bool(
        "group",
        server == Some(want) && client == Some(want),
        format!("asked {want:?}; server negotiated {server:?}, client {client:?}"),
    )
}

/// A full handshake signed with the certificate's scheme and no retry; a
/// resumed one resumed.
fn kind_and_scheme_check(pair: &Pair, done: &crate::exchange::Finished) -> CheckResult {
    let kind = done.client.handshake_kind();
    let scheme = pair.verifier().take_scheme();
    if pair.spec.resumed {
        return CheckResult::from_bool(
            "resumed",
            kind == Some(HandshakeKind::Resumed)
                && done.server.handshake_kind() == Some(HandshakeKind::Resumed)
                && scheme.is_none(),
            format!("handshake kind {kind:?}, CertificateVerify {scheme:?}"),
        );
    }
    let want = pair.spec.cert.scheme;
    CheckResult::from_bool(
        "signature scheme",
        kind == Some(HandshakeKind::Full) && scheme == Some(want),
        format!("asked {want:?} in a full handshake; got {scheme:?} in {kind:?}"),
    )
}

/// A flipped bit in the server flight ends the handshake with an error.
pub fn tamper_check(pair: &mut Pair) -> CheckResult {
    match pair.handshake(true) {
        Ok(_) => CheckResult::fail(
            "tampered server flight",
            "a server flight with a flipped bit was accepted",
        ),
        Err(e) => CheckResult::pass(
            "tampered server flight",
            format!("one flipped bit in the first encrypted record: refused ({e})"),
        ),
    }
}

/// Flips the last bit of the first encrypted record (content type 23) in
/// a run of TLS records; false when there is none.
pub fn flip_first_encrypted(records: &mut [u8]) -> bool {
    let mut at = 0;
    while at + 5 <= records.len() {
        let len = usize::from(u16::from_be_bytes([records[at + 3], records[at + 4]]));
        let end = at + 5 + len;
        if end > records.len() {
            return false;
        }
        if records[at] == 23 && len > 0 {
            records[end - 1] ^= 1;
            return true;
        }
        at = end;
    }
    false
}
