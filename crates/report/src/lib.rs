//! Reporting: how results look, never how they are measured.
//!
//! [`text`] renders a [`Table`](cryptobench_core::Table) for the terminal or
//! as Markdown; [`tables`] builds the generic per-case tables, the run
//! header and the run-to-run comparison. Suites hand their own tables in as
//! plain `Table`s, so every renderer shows the same figures.
#![deny(missing_docs)]

pub mod tables;
pub mod text;
