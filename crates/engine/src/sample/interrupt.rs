//! Cooperative interruption: Ctrl-C sets a flag that the engine checks
//! between samples and cases, so the binary can mark the run interrupted and
//! keep everything already measured (each measurement is stored as it ends).

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks the engine to stop at the next sample boundary.
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}
