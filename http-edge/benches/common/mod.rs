//! What the benchmarks and the binary's tests share: a real `quire serve` on fresh ports and
//! data with a Pro account and key, the server's resident memory, and a one-page text PDF.

// Each benchmark uses part of this module.
#![allow(dead_code)]

mod form;

#[allow(unused_imports)]
pub use form::{post_form, post_multipart};

use std::{
    io::Write,
    net::TcpListener,
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

/// A running `quire serve`, killed on drop.
pub struct Server {
    child: Child,
    http: u16,
    pub key: String,
}

/// The `quire` binary with its data in `data`, the settings in `env`, quiet logs (QUIRE_LOG
/// passes through, to read the server's timings while a bench runs) and the setup's PDFium.
pub fn quire(data: &Path, env: &[(&str, String)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_quire"));
    cmd.env("QUIRE_DATA_DIR", data)
        .env(
            "QUIRE_LOG",
            std::env::var("QUIRE_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .env(
            "QUIRE_PDFIUM_LIB",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/pdfium/libpdfium.so"),
        )
        .envs(env.iter().map(|(k, v)| (k, v)));
    cmd
}

/// Creates a Pro account with `quire admin` and returns a new key of it with `scopes`.
pub fn pro_key(data: &Path, env: &[(&str, String)], scopes: &str) -> anyhow::Result<String> {
    let admin = |args: &[&str]| -> anyhow::Result<String> {
        let out = quire(data, env).arg("admin").args(args).output()?;
        anyhow::ensure!(
            out.status.success(),
            "quire admin failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Ok(String::from_utf8(out.stdout)?)
    };
    let email = "bench@example.com";
    admin(&["account", "create", "--email", email, "--plan", "pro"])?;
    let key_json = admin(&[
        "key", "create", "--email", email, "--scopes", scopes, "--name", "bench", "--json",
    ])?;
    Ok(serde_json::from_str::<serde_json::Value>(&key_json)?["key"]
        .as_str()
        .unwrap_or_default()
        .to_owned())
}

impl Server {
    /// Starts `quire serve` with its data in `data`, the settings in `env`, and a Pro account
    /// whose key has `scopes`.
    pub fn start(data: &Path, env: &[(&str, String)], scopes: &str) -> anyhow::Result<Server> {
        let http = free_port()?;
        let grpc = free_port()?;
        let key = pro_key(data, env, scopes)?;
        let child = quire(data, env)
            .env("QUIRE_HTTP_ADDR", format!("127.0.0.1:{http}"))
            .env("QUIRE_GRPC_ADDR", format!("127.0.0.1:{grpc}"))
            .arg("serve")
            .stdout(Stdio::null())
            .spawn()?;
        let server = Server { child, http, key };
        wait_listening(http)?;
        // `quire serve` warms its worker pool up (PDFium, Tesseract) after it starts listening:
        // measuring before that ends would charge the warm-up to the first run.
        wait_settled(server.pid())?;
        Ok(server)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A child process, killed on drop.
pub struct Process(pub Child);

impl Process {
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The edge secret of a [`Cluster`]'s processes.
const EDGE_SECRET: &str = "bench-edge-secret-0123456789abcdef0123456789";

/// The scale-out layout as separate processes: an edge alone (`quire serve --core-url`) in
/// front of several cores (`quire serve` processes, reached on their gRPC port as a
/// `quire-core` is; their own HTTP listeners take nothing), on one PostgreSQL database and one
/// blob directory, with a Pro key. Killed on drop.
pub struct Cluster {
    pub cores: Vec<Process>,
    pub edge: Process,
    http: u16,
    pub key: String,
}

impl Cluster {
    /// Starts `cores` cores and their edge with the settings in `env`, their data under `work`,
    /// on the PostgreSQL `database`.
    pub fn start(
        work: &Path,
        env: &[(&str, String)],
        cores: usize,
        database: &str,
    ) -> anyhow::Result<Cluster> {
        let mut env = env.to_vec();
        env.extend([
            ("QUIRE_DATABASE_URL", database.to_owned()),
            (
                "QUIRE_STORE_URL",
                format!("file://{}/blobs", work.join("shared").display()),
            ),
            ("QUIRE_EDGE_SECRET", EDGE_SECRET.to_owned()),
        ]);
        let key = pro_key(&work.join("core-0"), &env, "upload,process")?;
        let mut processes = Vec::new();
        let mut urls = Vec::new();
        for i in 0..cores {
            let grpc = free_port()?;
            let child = quire(&work.join(format!("core-{i}")), &env)
                .env("QUIRE_HTTP_ADDR", format!("127.0.0.1:{}", free_port()?))
                .env("QUIRE_GRPC_ADDR", format!("127.0.0.1:{grpc}"))
                .arg("serve")
                .stdout(Stdio::null())
                .spawn()?;
            processes.push(Process(child));
            wait_listening(grpc)?;
            urls.push(format!("http://127.0.0.1:{grpc}"));
        }
        let http = free_port()?;
        let edge = quire(&work.join("edge"), &env)
            .env("QUIRE_HTTP_ADDR", format!("127.0.0.1:{http}"))
            .args(["serve", "--core-url", &urls.join(",")])
            .stdout(Stdio::null())
            .spawn()?;
        let edge = Process(edge);
        wait_listening(http)?;
        for process in &processes {
            wait_settled(process.pid())?;
        }
        // The edge checks each core's health (every 2 s) before it sends it calls.
        std::thread::sleep(Duration::from_secs(3));
        Ok(Cluster {
            cores: processes,
            edge,
            http,
            key,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.http)
    }
}

/// Creates an empty PostgreSQL database `name` on QUIRE_BENCH_POSTGRES (default the machine's
/// server) and returns its URL.
pub fn fresh_database(name: &str) -> anyhow::Result<String> {
    let server = std::env::var("QUIRE_BENCH_POSTGRES")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432".into());
    let out = Command::new("psql")
        .arg(format!("{server}/test"))
        .args(["-q", "-c", &format!("CREATE DATABASE {name}")])
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "cannot create database {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(format!("{server}/{name}"))
}

pub fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

pub fn wait_listening(port: u16) -> anyhow::Result<()> {
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    anyhow::bail!("quire serve did not start on port {port}")
}

/// Waits until the server and its workers use under 2 % of a core over 250 ms.
pub fn wait_settled(pid: u32) -> anyhow::Result<()> {
    let mut last = cpu_ticks_with_children(pid);
    for _ in 0..120 {
        std::thread::sleep(Duration::from_millis(250));
        let now = cpu_ticks_with_children(pid);
        // Clock ticks are 10 ms: at most one tick in 250 ms.
        if now.saturating_sub(last) <= 1 {
            return Ok(());
        }
        last = now;
    }
    anyhow::bail!("quire serve kept busy for 30 s after starting")
}

/// User + system clock ticks of a process and its direct children.
fn cpu_ticks_with_children(pid: u32) -> u64 {
    let ticks = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                // Fields after the parenthesised command; utime and stime are the 12th and 13th.
                let rest = stat.rsplit_once(')')?.1;
                let fields: Vec<&str> = rest.split_whitespace().collect();
                Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
            })
            .unwrap_or(0)
    };
    let children =
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    ticks(&pid.to_string()) + children.split_whitespace().map(ticks).sum::<u64>()
}

/// Resident memory of a process, in KiB.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// A one-page A4 PDF whose text layer says `text` (Helvetica 18 pt, ASCII).
pub fn pdf_with_text(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 50 750 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

/// Incompressible bytes (xorshift), so nothing downstream can shortcut them.
pub fn write_noise(path: &Path, size: u64) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut block = vec![0u8; 1 << 20];
    for _ in 0..size / (1 << 20) {
        for word in block.chunks_exact_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            word.copy_from_slice(&x.to_le_bytes());
        }
        out.write_all(&block)?;
    }
    out.flush()?;
    Ok(())
}

/// Flushes dirty pages and lets the disk go idle before a measurement.
pub fn settle() -> anyhow::Result<()> {
    anyhow::ensure!(Command::new("sync").status()?.success(), "sync failed");
    std::thread::sleep(Duration::from_secs(1));
    Ok(())
}
