//! The hidden `worker` subcommand: a process that loads the native engines once, limits its
//! own memory, then answers jobs from stdin on stdout until stdin closes.

use std::{
    io::{self, BufReader, BufWriter},
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
    time::Duration,
};

use clap::Args;

use super::{
    engines::Engines,
    protocol::{self, Answer, Failure, FailureKind, Job, Outcome},
    toolbox::EngineSettings,
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
    /// The pool's time limit of one job, in seconds.
    #[arg(long, default_value_t = 120)]
    pub job_timeout: u64,
    /// LibreOffice's program folder (soffice.bin).
    #[arg(long, default_value = "/usr/lib/libreoffice/program")]
    pub office_dir: PathBuf,
    /// A Python that has LibreOffice's UNO bindings.
    #[arg(long, default_value = "/usr/bin/python3")]
    pub office_python: PathBuf,
    #[arg(long, default_value = "/usr/lib/chromium/chromium")]
    pub chromium: PathBuf,
    /// Where the warm engines keep their profiles; each worker uses `<dir>/<pid>`.
    #[arg(long)]
    pub engine_dir: PathBuf,
    /// Engines to start with the worker instead of at their first job (`office`, `html`).
    #[arg(long, value_delimiter = ',')]
    pub prewarm: Vec<String>,
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
    let settings = EngineSettings {
        office_dir: args.office_dir,
        office_python: args.office_python,
        chromium: args.chromium,
        profiles: profiles(&args.engine_dir),
        job_timeout: Duration::from_secs(args.job_timeout.max(1)),
        memory: args.memory_limit,
    };
    let mut engines = Engines::new(args.pdfium_lib, args.tessdata, settings);
    engines.preload(args.preload_lang.as_deref(), &args.prewarm)?;
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
        engines.idle();
    }
    Ok(())
}

/// This worker's folder for engine profiles, `<dir>/<pid>`. A worker killed at its time limit
/// leaves its folder behind: those of workers no longer running are removed here.
fn profiles(dir: &Path) -> PathBuf {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let gone = name
                .to_str()
                .and_then(|pid| pid.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
            if gone {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    dir.join(std::process::id().to_string())
}

/// A job that would need more memory fails its allocation and the worker aborts; the pool
/// reports that as the input's fault and starts a fresh worker. Only the soft limit is set:
/// the warm engines the worker starts (LibreOffice, Chromium) lift it for themselves, since
/// Chromium reserves far more address space than it uses, and are bounded by the resident
/// size of their process tree instead (`quire_convert::process`).
fn limit_memory(bytes: u64) -> anyhow::Result<()> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let hard = getrlimit(Resource::As).maximum;
    setrlimit(
        Resource::As,
        Rlimit {
            current: Some(hard.map_or(bytes, |hard| hard.min(bytes))),
            maximum: hard,
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot limit worker memory to {bytes} bytes: {e}"))
}
