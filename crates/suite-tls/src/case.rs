//! The rustls cases: what one timed operation is, per role.
//!
//! Every role runs complete in-memory handshakes ([`crate::exchange`]);
//! they differ in whose time a sample holds:
//!
//! - `server`, `client`: the sum of that side's steps over the batch's
//!   handshakes (the case times itself; the other side runs untimed);
//! - `server-single`: one handshake per sample, the server's steps only,
//!   for its tail quantiles;
//! - `handshake`: both sides, timed by the engine as a whole, the unit of
//!   the multi-core rows (handshakes per second on every core).
//!
//! Building a case makes its pair and runs its checks; the bytes of the
//! checked handshake go with the measurement (`extra`).

use crate::checks::check_pair;
use crate::exchange::{Pair, PairSpec, Sides, Wire};
use cryptobench_core::{BatchTime, Case, CaseError, CheckResult};

/// Whose time a sample holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The server's steps.
    Server,
    /// The client's steps.
    Client,
    /// The server's steps of one handshake per sample.
    ServerSingle,
    /// Both sides, the whole exchange.
    Handshake,
}

impl Role {
    /// The operation name in results.
    pub fn operation(self) -> &'static str {
        match self {
            Role::Server => "server",
            Role::Client => "client",
            Role::ServerSingle => "server-single",
            Role::Handshake => "handshake",
        }
    }
}

/// `extra` keys of the bytes each flight put on the wire.
pub const CLIENT_HELLO_BYTES: &str = "client_hello_bytes";
/// The server's flight.
pub const SERVER_FLIGHT_BYTES: &str = "server_flight_bytes";
/// The client's Finished.
pub const CLIENT_FINISHED_BYTES: &str = "client_finished_bytes";
/// What the server sent after the handshake (tickets).
pub const SERVER_AFTER_BYTES: &str = "server_after_bytes";

/// One rustls row, prepared and checked.
pub struct TlsCase {
    pair: Pair,
    role: Role,
    checks: Vec<CheckResult>,
    wire: Option<Wire>,
}

impl TlsCase {
    /// Makes the pair and checks it.
    pub fn new(spec: PairSpec, role: Role) -> Result<Self, CaseError> {
        let mut pair = Pair::new(spec)?;
        let (checks, wire) = check_pair(&mut pair);
        Ok(Self {
            pair,
            role,
            checks,
            wire,
        })
    }

    fn handshakes(&mut self, iters: u64) -> Result<Sides, CaseError> {
        let mut sum = Sides::default();
        for _ in 0..iters {
            let s = self.pair.timed()?;
            sum.server_ns += s.server_ns;
            sum.client_ns += s.client_ns;
        }
        Ok(sum)
    }
}

impl Case for TlsCase {
    fn checks(&mut self) -> Vec<CheckResult> {
        self.checks.clone()
    }

    fn run_batch(&mut self, iters: u64) -> Result<(), CaseError> {
        self.handshakes(iters).map(|_| ())
    }

    fn time_batch(&mut self, iters: u64) -> Option<Result<BatchTime, CaseError>> {
        let side = match self.role {
            Role::Handshake => return None,
            Role::Server | Role::ServerSingle => |s: Sides| s.server_ns,
            Role::Client => |s: Sides| s.client_ns,
        };
        Some(self.handshakes(iters).map(|s| BatchTime {
            iters,
            wall_ns: side(s) as f64,
            cpu_ns: None,
            process: None,
        }))
    }

    fn fixed_iterations(&self) -> Option<u64> {
        (self.role == Role::ServerSingle).then_some(1)
    }

    fn extra(&self) -> Vec<(String, f64)> {
        let Some(w) = self.wire else {
            return Vec::new();
        };
        [
            (CLIENT_HELLO_BYTES, w.client_hello),
            (SERVER_FLIGHT_BYTES, w.server_flight),
            (CLIENT_FINISHED_BYTES, w.client_finished),
            (SERVER_AFTER_BYTES, w.server_after),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v as f64))
        .collect()
    }
}
