//! Cases built and made ready to time: built and checked (a case failing a
//! check is never timed), placed where they run fastest, run on several
//! threads, or timed by a peer program.

pub mod checked;
pub mod peers;
pub mod placement;
pub mod threads;
