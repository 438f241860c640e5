//! `cryptobench`: parse arguments, dispatch, map errors to exit codes.
//! Everything else lives in the library crates.

mod advice;
mod app;
mod args;
mod commands;
mod dryrun;
mod fleet;
mod output;
mod registry;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Under mpirun every rank joins the MPI world first; alone this is a
    // world of one and makes no MPI call.
    let world = cryptobench_mpi::init().unwrap_or_else(|e| cryptobench_mpi::abort(&e.to_string()));
    let cli = args::Cli::parse();
    cryptobench_report::text::set_width(if cli.global.wide {
        cryptobench_report::text::Width::Unlimited
    } else {
        cryptobench_report::text::Width::Terminal
    });
    let code = match commands::dispatch(cli, &world) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(app::exit_code_for(&e))
        }
    };
    // MPI_Finalize before the process ends: mpirun treats a rank that never
    // finalised as failed.
    drop(world);
    code
}
