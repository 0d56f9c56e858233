//! Upload throughput and memory of the layouts Quire scales out to, each beside its reference
//! in one run (`scripts/bench.sh upload` runs this after the single-process bench):
//!
//! 1. **S3.** A fresh moto S3 server (the setup's venv) per run. boto3's `upload_file`, the
//!    standard client's multipart upload, puts the files straight into it: the server's own
//!    rate. Then the same files through `quire serve` with `QUIRE_STORE_URL=s3://…`, and
//!    through `quire serve` on its local store, in the same rounds.
//! 2. **Replicas.** On a fresh PostgreSQL database and one blob directory, an edge alone
//!    (`quire serve --core-url`) in front of one core, then of two. The cores are `quire serve`
//!    processes, reached on their gRPC port as a `quire-core` is (their own HTTP listener
//!    takes nothing).
//!
//! Every run uploads the same `FILES` files at once with curl, no scan (clamd's rate is the
//! single-process bench's). Each Quire process's RSS is sampled every 20 ms. Times are the
//! best of three interleaved rounds; RSS growth the worst. `cargo bench -p quire-edge --bench
//! upload_scale`; QUIRE_BENCH_MIB sets the total size (default 1024), QUIRE_BENCH_POSTGRES the
//! server (default postgres://root@127.0.0.1:5432).

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

mod common;

const MIB: u64 = 1024 * 1024;
/// Files uploaded at once: enough to keep two cores busy.
const FILES: u64 = 4;
const ROUNDS: usize = 3;

fn main() -> anyhow::Result<()> {
    let mib: u64 = std::env::var("QUIRE_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1024);
    let each = (mib / FILES).max(1) * MIB;
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let files: Vec<PathBuf> = (0..FILES)
        .map(|i| work.path().join(format!("source-{i}.bin")))
        .collect();
    for file in &files {
        common::write_noise(file, each)?;
    }
    println!(
        "scale-out upload benchmark: {FILES} files of {} MiB at once, {}",
        each / MIB,
        work.path().display()
    );
    let total = (each * FILES) as f64 / MIB as f64;

    let mut best: Vec<Run> = Vec::new();
    for round in 1..=ROUNDS {
        let runs = [
            boto3_run(work.path(), &files)?,
            quire_run(work.path(), &files, Store::S3)?,
            quire_run(work.path(), &files, Store::Local)?,
            replicas_run(work.path(), &files, 1, round)?,
            replicas_run(work.path(), &files, 2, round)?,
        ];
        let times: Vec<String> = runs
            .iter()
            .map(|r| format!("{} {:.2} s", r.name, r.elapsed.as_secs_f64()))
            .collect();
        println!("round {round}: {}", times.join(", "));
        best = if best.is_empty() {
            runs.into()
        } else {
            best.into_iter()
                .zip(runs)
                .map(|(a, b)| a.better(b))
                .collect()
        };
    }

    println!();
    println!("{:<52} {:>8}   RSS +MiB", "run", "MiB/s");
    for run in &best {
        let rss: Vec<String> = run
            .processes
            .iter()
            .map(|p| format!("{} {:.1}", p.name, p.growth_mib()))
            .collect();
        println!(
            "{:<52} {:>8.0}   {}",
            run.name,
            total / run.elapsed.as_secs_f64(),
            if rss.is_empty() {
                "-".into()
            } else {
                rss.join(", ")
            }
        );
    }
    let rate = |i: usize| total / best[i].elapsed.as_secs_f64();
    println!();
    println!(
        "ratios: quire on S3 {:.2}x boto3 to the same server, {:.2}x quire on local disk; \
         edge + 2 cores {:.2}x edge + 1 core",
        rate(1) / rate(0),
        rate(1) / rate(2),
        rate(4) / rate(3),
    );
    Ok(())
}

/// One run's time and the RSS growth of each Quire process in it.
struct Run {
    name: &'static str,
    elapsed: Duration,
    processes: Vec<Sampled>,
}

struct Sampled {
    name: &'static str,
    idle_kib: u64,
    peak_kib: u64,
}

impl Sampled {
    fn growth_mib(&self) -> f64 {
        self.peak_kib.saturating_sub(self.idle_kib) as f64 / 1024.0
    }
}

impl Run {
    /// The faster time, and each process's larger RSS growth (memory is not best-of).
    fn better(self, other: Run) -> Run {
        let processes = self
            .processes
            .into_iter()
            .zip(other.processes)
            .map(|(a, b)| {
                if b.growth_mib() > a.growth_mib() {
                    b
                } else {
                    a
                }
            })
            .collect();
        Run {
            name: self.name,
            elapsed: self.elapsed.min(other.elapsed),
            processes,
        }
    }
}

/// moto's S3 server on a free port with an empty bucket `bench`; its endpoint.
fn moto() -> anyhow::Result<(common::Process, String)> {
    let port = common::free_port()?;
    let child = Command::new(python())
        .args([
            "-m",
            "moto.server",
            "-H",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let process = common::Process(child);
    common::wait_listening(port)?;
    let endpoint = format!("http://127.0.0.1:{port}");
    let created = Command::new("curl")
        .args(["-sS", "--fail", "-X", "PUT"])
        .arg(format!("{endpoint}/bench"))
        .output()?;
    anyhow::ensure!(created.status.success(), "bucket not created");
    Ok((process, endpoint))
}

fn python() -> String {
    std::env::var("QUIRE_TEST_PYTHON").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/venv/bin/python").into()
    })
}

fn s3_env(endpoint: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ENDPOINT_URL", endpoint.to_owned()),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_ACCESS_KEY_ID", "bench".into()),
        ("AWS_SECRET_ACCESS_KEY", "bench".into()),
    ]
}

/// The files put into the bucket at once by boto3, timed inside Python (its imports excluded).
fn boto3_run(work: &Path, files: &[PathBuf]) -> anyhow::Result<Run> {
    let (_moto, endpoint) = moto()?;
    common::settle()?;
    let script = r#"
import sys, time, boto3
from concurrent.futures import ThreadPoolExecutor
s3 = boto3.client("s3")
started = time.monotonic()
with ThreadPoolExecutor(len(sys.argv) - 1) as pool:
    list(pool.map(lambda p: s3.upload_file(p, "bench", p.rsplit("/", 1)[1]), sys.argv[1:]))
print(time.monotonic() - started)
"#;
    let out = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(files)
        .envs(s3_env(&endpoint))
        .current_dir(work)
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "boto3 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seconds: f64 = String::from_utf8(out.stdout)?.trim().parse()?;
    Ok(Run {
        name: "boto3 upload_file to moto (S3 reference)",
        elapsed: Duration::from_secs_f64(seconds),
        processes: Vec::new(),
    })
}

enum Store {
    S3,
    Local,
}

/// One `quire serve` on SQLite and the store, taking the files at once.
fn quire_run(work: &Path, files: &[PathBuf], store: Store) -> anyhow::Result<Run> {
    let data = work.join("data-single");
    let mut env = limits();
    env.push(("QUIRE_INSECURE_NO_SCAN", "true".into()));
    let (moto, name) = match store {
        Store::S3 => {
            let (moto, endpoint) = moto()?;
            env.extend(s3_env(&endpoint));
            env.push(("QUIRE_STORE_URL", "s3://bench/quire".into()));
            (Some(moto), "quire serve, S3 store (moto)")
        }
        Store::Local => (None, "quire serve, local store"),
    };
    let server = common::Server::start(&data, &env, "upload")?;
    let run = upload_all(
        name,
        &server.url("/api/upload"),
        &server.key,
        files,
        &[("quire", server.pid())],
    )?;
    drop(server);
    drop(moto);
    std::fs::remove_dir_all(&data)?;
    Ok(run)
}

/// An edge alone in front of `cores` cores, on a new PostgreSQL database and one blob
/// directory, taking the files at once.
fn replicas_run(work: &Path, files: &[PathBuf], cores: usize, round: usize) -> anyhow::Result<Run> {
    let database = common::fresh_database(&format!(
        "quire_bench_{}_{cores}_{round}",
        std::process::id()
    ))?;
    let mut env = limits();
    env.push(("QUIRE_INSECURE_NO_SCAN", "true".into()));
    let cluster = common::Cluster::start(work, &env, cores, &database)?;
    let names = ["core a", "core b"];
    let mut pids = vec![("edge", cluster.edge.pid())];
    pids.extend(
        cluster
            .cores
            .iter()
            .enumerate()
            .map(|(i, p)| (names[i], p.pid())),
    );
    let name = if cores == 1 {
        "edge + 1 core, PostgreSQL, shared dir"
    } else {
        "edge + 2 cores, PostgreSQL, shared dir"
    };
    let run = upload_all(
        name,
        &cluster.url("/api/upload"),
        &cluster.key,
        files,
        &pids,
    )?;
    drop(cluster);
    for dir in ["shared", "edge", "core-0", "core-1"] {
        let _ = std::fs::remove_dir_all(work.join(dir));
    }
    Ok(run)
}

fn limits() -> Vec<(&'static str, String)> {
    vec![
        ("QUIRE_MAX_UPLOAD_SIZE", (4096 * MIB).to_string()),
        ("QUIRE_PRO_STORAGE_QUOTA", (65536 * MIB).to_string()),
    ]
}

/// Uploads every file at once with curl and samples the RSS of `pids` meanwhile.
fn upload_all(
    name: &'static str,
    url: &str,
    key: &str,
    files: &[PathBuf],
    pids: &[(&'static str, u32)],
) -> anyhow::Result<Run> {
    common::settle()?;
    let idle: Vec<u64> = pids.iter().map(|(_, pid)| common::rss_kib(*pid)).collect();
    let peaks: Arc<Vec<AtomicU64>> = Arc::new(idle.iter().map(|&k| AtomicU64::new(k)).collect());
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peaks, done) = (peaks.clone(), done.clone());
        let pids: Vec<u32> = pids.iter().map(|(_, pid)| *pid).collect();
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                for (peak, pid) in peaks.iter().zip(&pids) {
                    peak.fetch_max(common::rss_kib(*pid), Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let started = Instant::now();
    let curls = files
        .iter()
        .map(|file| {
            Command::new("curl")
                .args(["-sS", "--fail-with-body", "-H"])
                .arg(format!("Authorization: Bearer {key}"))
                .arg("-F")
                .arg(format!("file=@{}", file.display()))
                .arg(url)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut failures = Vec::new();
    for curl in curls {
        let out = curl.wait_with_output()?;
        if !out.status.success() {
            failures.push(format!(
                "{}{}",
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = sampler.join();
    anyhow::ensure!(failures.is_empty(), "{name}: uploads failed: {failures:?}");
    let processes = pids
        .iter()
        .zip(idle)
        .zip(peaks.iter())
        .map(|(((name, _), idle_kib), peak)| Sampled {
            name,
            idle_kib,
            peak_kib: peak.load(Ordering::Relaxed),
        })
        .collect();
    Ok(Run {
        name,
        elapsed,
        processes,
    })
}
