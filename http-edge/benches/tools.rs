//! `scripts/bench.sh tools`: the web toolbox's page tools through a real `quire serve` (HTTP,
//! session and anti-CSRF token, gRPC, clamd scan of every input, the worker) against the qpdf
//! CLI on the same real-world files, in the same run, one file after another: merge (each file
//! with the next), split into single pages, rotate every page. Goal: total time ≤ 1.0× qpdf's.

mod common;

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use common::Server;

fn main() -> anyhow::Result<()> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/compress-corpus");
    anyhow::ensure!(
        corpus.join(".done").exists(),
        "no corpus in {}: run scripts/setup.sh --corpus",
        corpus.display()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "pdf"));
    files.sort();
    // Files qpdf itself cannot read are left out of both sides.
    files.retain(|f| qpdf(&[f.as_os_str().to_str().unwrap_or_default(), "--check"]).is_ok());

    let data = tempfile::tempdir()?;
    let clamd = std::env::var("QUIRE_CLAMD").unwrap_or_else(|_| "tcp://127.0.0.1:3312".into());
    let server = Server::start(data.path(), &[("QUIRE_CLAMD", clamd)], "upload")?;
    let web = WebSession::sign_up(&server)?;
    // Pro: the run makes more calls than a Free day allows.
    let plan = Command::new(env!("CARGO_BIN_EXE_quire"))
        .env("QUIRE_DATA_DIR", data.path())
        .args([
            "admin", "account", "set-plan", "--email", WEB_EMAIL, "--plan", "pro",
        ])
        .output()?;
    anyhow::ensure!(
        plan.status.success(),
        "set-plan failed: {}",
        String::from_utf8_lossy(&plan.stderr)
    );
    let out = tempfile::tempdir()?;
    let dir = out.path();

    println!(
        "\nToolbox page tools on {} real-world PDFs (.cache/compress-corpus), Quire (HTTP, \
         session, scan, worker) and the qpdf CLI in the same run",
        files.len()
    );
    println!(
        "{:<8} {:>6} {:>12} {:>12} {:>8}",
        "tool", "files", "quire s", "qpdf s", "ratio"
    );
    let pairs: Vec<(&PathBuf, &PathBuf)> = files.iter().zip(files.iter().cycle().skip(1)).collect();
    let mut merge = (0.0, 0.0);
    for (a, b) in &pairs {
        merge.0 += timed(|| web.run("merge", &[], &[a, b], &dir.join("q.pdf")))?;
        merge.1 += timed(|| {
            qpdf(&[
                "--empty",
                "--pages",
                s(a),
                s(b),
                "--",
                s(&dir.join("g.pdf")),
            ])
        })?;
    }
    report("merge", pairs.len(), merge);
    let mut split = (0.0, 0.0);
    for file in &files {
        split.0 += timed(|| {
            web.run(
                "split",
                &["mode=every", "every=1"],
                &[file],
                &dir.join("q.zip"),
            )
        })?;
        let pattern = dir.join("g-%d.pdf");
        split.1 += timed(|| qpdf(&[s(file), "--split-pages=1", s(&pattern)]))?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("g-"))
            {
                std::fs::remove_file(path)?;
            }
        }
    }
    report("split", files.len(), split);
    let mut rotate = (0.0, 0.0);
    for file in &files {
        rotate.0 += timed(|| web.run("rotate", &["degrees=90"], &[file], &dir.join("q.pdf")))?;
        rotate.1 += timed(|| qpdf(&[s(file), "--rotate=+90", s(&dir.join("g.pdf"))]))?;
    }
    report("rotate", files.len(), rotate);
    Ok(())
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}

fn report(tool: &str, files: usize, (quire, qpdf): (f64, f64)) {
    println!(
        "{tool:<8} {files:>6} {quire:>12.2} {qpdf:>12.2} {:>7.2}×",
        quire / qpdf
    );
}

fn timed(f: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<f64> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed().as_secs_f64())
}

/// qpdf as its manual runs it; exit code 3 is "succeeded with warnings" (a repaired file).
fn qpdf(args: &[&str]) -> anyhow::Result<()> {
    let out = Command::new("qpdf").args(args).output()?;
    anyhow::ensure!(
        matches!(out.status.code(), Some(0 | 3)),
        "qpdf {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

const WEB_EMAIL: &str = "web-bench@example.com";

/// A web account's session: the cookie and the anti-CSRF token its pages carry.
struct WebSession<'a> {
    server: &'a Server,
    cookie: String,
    csrf: String,
}

impl<'a> WebSession<'a> {
    fn sign_up(server: &'a Server) -> anyhow::Result<WebSession<'a>> {
        let origin = server.url("");
        let out = Command::new("curl")
            .args(["-sS", "-D", "-", "-o", "/dev/null", "-H"])
            .arg(format!("Origin: {origin}"))
            .args([
                "--data-urlencode",
                &format!("email={WEB_EMAIL}"),
                "--data-urlencode",
                "password=correct horse battery staple",
            ])
            .arg(server.url("/signup"))
            .output()?;
        let headers = String::from_utf8(out.stdout)?;
        let cookie = headers
            .lines()
            .find(|l| {
                l.to_ascii_lowercase()
                    .starts_with("set-cookie: quire_session=")
            })
            .and_then(|l| l.split_once(": ")?.1.split(';').next().map(str::to_owned))
            .ok_or_else(|| anyhow::anyhow!("sign-up gave no session cookie:\n{headers}"))?;
        let page = Command::new("curl")
            .args(["-sS", "-H"])
            .arg(format!("Cookie: {cookie}"))
            .arg(server.url("/tools/merge"))
            .output()?;
        let page = String::from_utf8(page.stdout)?;
        let csrf = page
            .split("name=\"csrf-token\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .ok_or_else(|| anyhow::anyhow!("no anti-CSRF token in the tool page"))?
            .to_owned();
        Ok(WebSession {
            server,
            cookie,
            csrf,
        })
    }

    fn run(
        &self,
        slug: &str,
        fields: &[&str],
        files: &[&Path],
        output: &Path,
    ) -> anyhow::Result<()> {
        let mut curl = Command::new("curl");
        curl.args(["-sS", "--fail-with-body", "-o"])
            .arg(output)
            .arg("-H")
            .arg(format!("Cookie: {}", self.cookie))
            .arg("-H")
            .arg(format!("Origin: {}", self.server.url("")))
            .arg("-H")
            .arg(format!("X-CSRF-Token: {}", self.csrf));
        for field in fields {
            curl.arg("-F").arg(field);
        }
        for file in files {
            curl.arg("-F").arg(format!("file=@{}", file.display()));
        }
        let out = curl
            .arg(self.server.url(&format!("/tools/{slug}/run")))
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "{slug} failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(output).unwrap_or_default()
        );
        Ok(())
    }
}
