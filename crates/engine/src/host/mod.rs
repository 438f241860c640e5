//! Facts about the host, read beside the measurement: where memory and
//! code sit, which cores run what, how loaded the machine is, which CPU
//! features it has, and the fingerprint a run records. They use only the
//! clock below them.

pub mod affinity;
pub mod cpu;
pub mod fingerprint;
pub mod heap;
pub mod layout;
pub mod load;
