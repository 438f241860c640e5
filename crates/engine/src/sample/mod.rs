//! The bottom layer: the clock, the stop flag, and timing one case's
//! batches into samples and a summary. Everything above measures through
//! these; they import nothing else of the engine.

pub mod clock;
pub mod interrupt;
pub mod sampling;
