//! The hidden `worker` subcommand: a process that loads the native engines once, limits its
//! own memory, then answers jobs from stdin on stdout until stdin closes.

use std::{
    io::{self, BufReader, BufWriter},
    panic::{AssertUnwindSafe, catch_unwind},
    path::PathBuf,
};

use clap::Args;

use super::{
    engines::Engines,
    protocol::{self, Answer, Failure, FailureKind, Job, Outcome},
};

#[derive(Args, Clone, Debug)]
pub struct WorkerArgs {
    #[arg(long)]
    pub pdfium_lib: PathBuf,
    #[arg(long)]
    pub tessdata: PathBuf,
    /// Address-space limit of the process, in bytes (0: none).
    #[arg(long, default_value_t = 0)]
    pub memory_limit: u64,
    /// Tesseract language to load before the first job.
    #[arg(long)]
    pub preload_lang: Option<String>,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<()> {
    // The default panic report resolves a backtrace when RUST_BACKTRACE is set: that needs
    // tens of megabytes in a process that may be panicking because its memory ran out, and it
    // kept such a worker hung until the job's time limit. One line is enough: the job's failure
    // carries the message to the caller.
    std::panic::set_hook(Box::new(|info| eprintln!("worker panic: {info}")));
    if args.memory_limit > 0 {
        limit_memory(args.memory_limit)?;
    }
    let mut engines = Engines::new(args.pdfium_lib, args.tessdata);
    engines.preload(args.preload_lang.as_deref())?;
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = BufWriter::new(io::stdout().lock());
    // An outcome without an answer: "engines loaded, ready for jobs".
    protocol::write_frame(&mut output, &Outcome { answer: None })?;
    while let Some(job) = protocol::read_frame::<Job>(&mut input)? {
        let answer = catch_unwind(AssertUnwindSafe(|| engines.run(job))).unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Answer::Failure(Failure::new(
                FailureKind::Engine,
                format!("the engine failed on this input: {message}"),
            ))
        });
        protocol::write_frame(
            &mut output,
            &Outcome {
                answer: Some(answer),
            },
        )?;
    }
    Ok(())
}

/// A job that would need more memory fails its allocation and the worker aborts; the pool
/// reports that as the input's fault and starts a fresh worker.
fn limit_memory(bytes: u64) -> anyhow::Result<()> {
    use rustix::process::{Resource, Rlimit, setrlimit};
    setrlimit(
        Resource::As,
        Rlimit {
            current: Some(bytes),
            maximum: Some(bytes),
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot limit worker memory to {bytes} bytes: {e}"))
}
