//! The engine worker of test stacks. Test stacks run the core in the test process, whose own
//! binary has no `worker` subcommand, and cargo cannot hand a test the `quire` binary of
//! another package; this binary runs the very function `quire worker` runs.

use clap::{Parser, Subcommand};
use quire_core::workers::{WorkerArgs, worker};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Worker(WorkerArgs),
}

fn main() -> std::process::ExitCode {
    let Command::Worker(args) = Cli::parse().command;
    match worker::run(args) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("worker: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
