//! Reporting: how results look, never how they are measured.
//!
//! [`text`] renders a [`Table`](cryptobench_core::Table) for the terminal or
//! as Markdown; [`tables`] builds the generic per-case tables, the run
//! header and the run-to-run comparison; [`machines`] puts runs of several
//! machines side by side. [`html`] writes the self-contained
//! HTML report (`html::render_html`), drawing its charts with [`svg`] from
//! the suites' own [`Chart`](cryptobench_core::Chart)s and from the generic
//! rankings and peer ratios of [`charts`]. Suites hand their own tables in as
//! plain `Table`s, so every renderer shows the same figures.
#![deny(missing_docs)]

pub mod answer;
pub mod charts;
pub mod compare;
pub mod html;
mod html_extra;
pub mod machines;
pub mod overhead;
pub mod precision;
pub mod recommend;
pub mod recommend_record;
pub mod svg;
pub mod tables;
pub mod text;
