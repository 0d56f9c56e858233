//! What the client tests share: `quire` run as a pipeline runs it (a subprocess with its
//! environment, stdin, exit code and both outputs), the inputs they send, a ZIP reader for the
//! answers, and a scripted HTTP server for what a real one does not do on demand.

use std::{
    io::{Read, Write},
    net::TcpListener,
    path::Path,
    process::{Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// How long one client run may take before the test fails instead of hanging.
const RUN_LIMIT: Duration = Duration::from_secs(180);

/// One finished `quire` client run.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Stdout as the one JSON line `--json` prints.
    pub fn json(&self) -> serde_json::Value {
        let text = self.stdout_text();
        assert_eq!(text.lines().count(), 1, "one JSON line expected: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// Fails with everything the run printed unless it exited with `code`.
    #[track_caller]
    pub fn expect(self, code: i32) -> Run {
        assert_eq!(
            self.code,
            code,
            "exit code; stderr: {}\nstdout: {}",
            self.stderr,
            String::from_utf8_lossy(&self.stdout[..self.stdout.len().min(2000)])
        );
        self
    }
}

/// The `quire` client pointed at a server, with a key, as a pipeline's job sets it up.
pub struct Client {
    pub url: String,
    pub key: Option<String>,
}

impl Client {
    pub fn new(url: &str, key: &str) -> Client {
        Client {
            url: url.to_owned(),
            key: Some(key.to_owned()),
        }
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, &[])
    }

    pub fn run_with_stdin(&self, args: &[&str], stdin: &[u8]) -> Run {
        self.run_in(args, stdin, None)
    }

    /// Runs `quire args...` in `dir` (or the test's directory) with `stdin` as its input.
    pub fn run_in(&self, args: &[&str], stdin: &[u8], dir: Option<&Path>) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
        command
            .args(args)
            .env("QUIRE_URL", &self.url)
            .env_remove("QUIRE_API_KEY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(key) = &self.key {
            command.env("QUIRE_API_KEY", key);
        }
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let started = Instant::now();
        let mut child = command.spawn().expect("quire starts");
        let mut input = child.stdin.take().unwrap();
        let stdin = stdin.to_vec();
        let writer = std::thread::spawn(move || {
            // The client may exit without reading it all (a usage error): not a failure here.
            let _ = input.write_all(&stdin);
        });
        let mut out = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            out.read_to_end(&mut bytes).unwrap();
            bytes
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            err.read_to_string(&mut text).unwrap();
            text
        });
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > RUN_LIMIT {
                let _ = child.kill();
                panic!("quire {args:?} ran for more than {RUN_LIMIT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let elapsed = started.elapsed();
        writer.join().unwrap();
        Run {
            code: status.code().expect("quire exited, not killed by a signal"),
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
            elapsed,
        }
    }
}

/// Runs `quire admin ...` on the database in `data` (a running server's).
pub fn admin(data: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("admin")
        .args(args)
        .env("QUIRE_DATA_DIR", data)
        .env("QUIRE_LOG", "warn")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "quire admin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A new account on `plan` with one key of `scopes`; returns the key.
pub fn account_with_key(data: &Path, email: &str, plan: &str, scopes: &str) -> String {
    admin(
        data,
        &["account", "create", "--email", email, "--plan", plan],
    );
    let json = admin(
        data,
        &[
            "key", "create", "--email", email, "--scopes", scopes, "--name", "ci", "--json",
        ],
    );
    let key: serde_json::Value = serde_json::from_str(&json).unwrap();
    key["key"].as_str().unwrap().to_owned()
}

/// A port nothing listens on (bound, then released).
pub fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The EICAR test string, built at run time so no file in the repository trips a scanner.
pub fn eicar() -> Vec<u8> {
    [
        "X5O!P%@AP[4\\PZX54(P^)7CC)7}$",
        "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*",
    ]
    .concat()
    .into_bytes()
}

/// The entries of a ZIP whose members are stored (as the server writes them): (name, bytes),
/// read from the central directory.
pub fn unzip(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([zip[at], zip[at + 1]]));
    let u32_at = |at: usize| u32::from_le_bytes(zip[at..at + 4].try_into().unwrap()) as usize;
    let end = zip
        .windows(4)
        .rposition(|w| w == b"PK\x05\x06")
        .expect("a ZIP ends with its central directory");
    let mut at = u32_at(end + 16);
    let mut entries = Vec::new();
    for _ in 0..u16_at(end + 10) {
        assert_eq!(&zip[at..at + 4], b"PK\x01\x02", "central directory entry");
        assert_eq!(u16_at(at + 10), 0, "stored, not deflated");
        let size = u32_at(at + 20);
        let (name_len, extra_len, comment_len) =
            (u16_at(at + 28), u16_at(at + 30), u16_at(at + 32));
        let local = u32_at(at + 42);
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        assert_eq!(
            &zip[local..local + 4],
            b"PK\x03\x04",
            "local header of {name}"
        );
        let data = local + 30 + u16_at(local + 26) + u16_at(local + 28);
        entries.push((name, zip[data..data + size].to_vec()));
        at += 46 + name_len + extra_len + comment_len;
    }
    entries
}

/// Width and height from a PNG's header.
pub fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// One request the scripted server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub at: Instant,
    pub path: String,
    pub authorization: Option<String>,
    pub idempotency_key: Option<String>,
    pub body: Vec<u8>,
}

/// One scripted answer: status, headers, body.
pub type Answer = (u16, Vec<(&'static str, String)>, String);

/// An HTTP server that gives its answers in order (the last one again once they run out) and
/// records each request, for what a real server will not do on demand (a 503 then a 201).
pub struct Scripted {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    _runtime: tokio::runtime::Runtime,
}

impl Scripted {
    pub fn start(answers: Vec<Answer>) -> Scripted {
        use axum::{
            body::Bytes,
            extract::State,
            http::{HeaderMap, StatusCode, Uri},
            response::IntoResponse,
        };
        type Shared = (Arc<Mutex<Vec<Seen>>>, Arc<Vec<Answer>>);
        async fn answer(
            State((seen, answers)): State<Shared>,
            uri: Uri,
            headers: HeaderMap,
            body: Bytes,
        ) -> impl IntoResponse {
            let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
            let mut seen = seen.lock().unwrap();
            seen.push(Seen {
                at: Instant::now(),
                path: uri.path().to_owned(),
                authorization: header("authorization"),
                idempotency_key: header("idempotency-key"),
                body: body.to_vec(),
            });
            let (status, headers, body) = answers[(seen.len() - 1).min(answers.len() - 1)].clone();
            let mut response = (StatusCode::from_u16(status).unwrap(), body).into_response();
            for (name, value) in headers {
                response.headers_mut().insert(name, value.parse().unwrap());
            }
            response
        }

        let runtime = tokio::runtime::Runtime::new().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        listener.set_nonblocking(true).unwrap();
        let app = axum::Router::new()
            .fallback(answer)
            .with_state((seen.clone(), Arc::new(answers)));
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
        Scripted {
            url,
            seen,
            _runtime: runtime,
        }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// A problem+json answer with `code`, and more headers.
pub fn problem(status: u16, code: &str, title: &str, headers: &[(&'static str, &str)]) -> Answer {
    let mut all = vec![("content-type", "application/problem+json".to_owned())];
    all.extend(headers.iter().map(|(k, v)| (*k, (*v).to_owned())));
    let body = serde_json::json!({
        "type": format!("/problems/{code}"), "title": title, "status": status,
        "detail": format!("scripted {code}"), "code": code,
    });
    (status, all, body.to_string())
}
