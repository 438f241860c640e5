//! The top layer: which groups run when. The runner walks a suite's
//! planned cases, interleaves groups, paces them to the run's budget and
//! measures disturbed groups again; one case alone, and the A/A test, are
//! schedules of a single group.

pub mod interleave;
pub mod measure;
pub mod noise;
pub mod pace;
pub mod remeasure;
pub mod runner;
