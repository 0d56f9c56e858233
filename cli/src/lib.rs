//! The `quire` client for scripts and CI pipelines: `quire upload`, `ocr`, `compress`,
//! `pdf-to-images` and `support` call a Quire server's REST API (SPEC.md) with the key in
//! `QUIRE_API_KEY`, retry what is worth retrying, and exit with a code a pipeline can branch
//! on ([`Exit`]). It speaks HTTP only: no engine and no part of the server is linked in, so the
//! slim `quire` build (no `embedded-core`) carries it.
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod answer;
mod args;
mod client;
mod commands;
mod error;
mod exit;
mod input;
mod output;
mod problem;
mod progress;
mod retry;
mod retry_after;

use std::process::ExitCode;

pub use args::Command;
pub use exit::Exit;

/// Runs one client command to the end: prints its result, or its error on stderr (and as
/// JSON on stdout with `--json`), and returns its exit code.
pub fn run(command: Command) -> ExitCode {
    let json = command.client().json;
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("quire: cannot start: {error}");
            return Exit::Internal.into();
        }
    };
    let outcome = runtime.block_on(async {
        tokio::select! {
            outcome = commands::run(command) => Some(outcome),
            // Dropping the command's future removes a half-written output's temporary file.
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    match outcome {
        Some(Ok(())) => Exit::Ok.into(),
        Some(Err(error)) => {
            eprintln!("{}", error.message());
            if json {
                // Stdout may be gone already (a closed pipe): the exit code still tells.
                let _ = answer::print_json(&error.to_json());
            }
            error.exit().into()
        }
        None => {
            eprintln!("quire: interrupted");
            // 128 + SIGINT, as a shell reports a command Ctrl-C stopped.
            ExitCode::from(130)
        }
    }
}
