//! Comparison groups: members measured in rounds, in a fresh random order
//! each round, until each is precise enough or out of budget; the canary
//! that watches the machine's drift through the rounds.

pub mod canary;
pub mod rounds;
