//! `cryptobench`: parse arguments, dispatch, map errors to exit codes.
//! Everything else lives in the library crates.

mod app;
mod args;
mod commands;
mod output;
mod registry;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(app::exit_code_for(&e))
        }
    }
}
