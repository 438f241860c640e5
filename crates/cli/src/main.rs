//! `cryptobench`: parse arguments, dispatch, map errors to exit codes.
//! Everything else lives in the library crates.

// First, so its `outln!` is visible in every module below.
#[macro_use]
mod output;
mod ab;
mod across;
mod advice;
mod app;
mod args;
mod commands;
mod dryrun;
mod fleet;
mod formats;
mod history;
mod inject;
mod leak;
mod listing;
mod registry;
mod serve;

use clap::FromArgMatches;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Before anything else (threads, MPI): a re-exec with one address
    // layout makes two runs comparable case by case.
    cryptobench_engine::host::layout::fix_for_this_process();
    // Also before any thread: blocks of 4 MiB or more mapped fresh, smaller
    // ones recycled, so neither depends on what the process allocated before.
    cryptobench_engine::host::heap::fix_for_this_process();
    output::quiet_on_closed_stdout();
    // Under mpirun every rank joins the MPI world first; alone this is a
    // world of one and makes no MPI call.
    let world = cryptobench_mpi::init().unwrap_or_else(|e| cryptobench_mpi::abort(&e.to_string()));
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = args::Cli::from_arg_matches(&args::command(&argv).get_matches_from(&argv))
        .unwrap_or_else(|e| e.exit());
    if let Err(why) = cryptobench_engine::host::affinity::check_env() {
        eprintln!("error: {why}");
        return ExitCode::from(2);
    }
    cryptobench_report::text::set_width(if cli.global.wide {
        cryptobench_report::text::Width::Unlimited
    } else {
        cryptobench_report::text::Width::Terminal
    });
    let code = match commands::dispatch(cli, &world) {
        Ok(code) => ExitCode::from(code),
        // `cryptobench runs | head -1`: the reader has all it wanted.
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Messages quote ids, hosts and names read from files.
            let text = format!("{e:#}");
            eprintln!("error: {}", cryptobench_core::names::printable_lines(&text));
            ExitCode::from(app::exit_code_for(&e))
        }
    };
    // MPI_Finalize before the process ends: mpirun treats a rank that never
    // finalised as failed.
    drop(world);
    code
}
