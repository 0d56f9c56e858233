//! A real S3 server for the tests of the S3 blob store: moto's (PyPI, in .cache/venv), the one
//! `scripts/test.sh` starts for the run or one per test that asks, on a free port; each stack
//! with a bucket of its own. S3's own listing of
//! open multipart uploads (`GET /bucket?uploads`) proves what an upload left behind.

use std::{
    process::{Child, Command, Stdio},
    time::Duration,
};

use quire_core::CoreConfig;

pub struct S3Server {
    /// The server's process, when this handle started it (and stops it when dropped).
    child: Option<Child>,
    /// http://127.0.0.1:port
    pub endpoint: String,
    http: reqwest::Client,
}

impl S3Server {
    pub async fn start() -> S3Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(crate::python())
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
            .spawn()
            .expect("moto runs (scripts/setup.sh --tests installs it into .cache/venv)");
        let server = S3Server {
            child: Some(child),
            endpoint: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
        };
        for _ in 0..300 {
            if server.http.get(&server.endpoint).send().await.is_ok() {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("moto's S3 server did not answer on {}", server.endpoint);
    }

    /// The server `scripts/test.sh` started for the whole run (`QUIRE_TEST_S3_ENDPOINT`), if
    /// any: one moto for every test instead of one per test process.
    pub fn shared() -> Option<S3Server> {
        let endpoint = std::env::var("QUIRE_TEST_S3_ENDPOINT").ok()?;
        Some(S3Server {
            child: None,
            endpoint,
            http: reqwest::Client::new(),
        })
    }

    /// Another handle on this server, which leaves it running when dropped.
    pub fn handle(&self) -> S3Server {
        S3Server {
            child: None,
            endpoint: self.endpoint.clone(),
            http: self.http.clone(),
        }
    }

    /// A new, empty bucket.
    pub async fn bucket(&self, name: &str) -> String {
        let response = self
            .http
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .expect("create bucket");
        assert!(
            response.status().is_success(),
            "create bucket {name}: {}",
            response.status()
        );
        name.to_owned()
    }

    /// `config` storing its blobs in `bucket` under `prefix` on this server.
    pub fn store_in(&self, mut config: CoreConfig, bucket: &str, prefix: &str) -> CoreConfig {
        config.store_url = Some(format!("s3://{bucket}/{prefix}"));
        config.store_options = [
            ("aws_endpoint", self.endpoint.as_str()),
            ("aws_allow_http", "true"),
            ("aws_region", "us-east-1"),
            ("aws_access_key_id", "quire-test"),
            ("aws_secret_access_key", "quire-test"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        config
    }

    /// The keys of the bucket's objects, as S3 lists them, but the health check's probe (which
    /// every core writes every 5 s).
    pub async fn keys(&self, bucket: &str) -> Vec<String> {
        let mut keys = self
            .xml_values(&format!("{bucket}?list-type=2"), "Key")
            .await;
        keys.retain(|k| !k.ends_with("health/probe"));
        keys
    }

    /// The keys of the bucket's open multipart uploads, as S3 lists them.
    pub async fn open_uploads(&self, bucket: &str) -> Vec<String> {
        self.xml_values(&format!("{bucket}?uploads"), "Key").await
    }

    async fn xml_values(&self, query: &str, tag: &str) -> Vec<String> {
        let body = self
            .http
            .get(format!("{}/{query}", self.endpoint))
            .send()
            .await
            .expect("list")
            .text()
            .await
            .expect("list body");
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        body.split(&open)
            .skip(1)
            .filter_map(|rest| rest.split_once(&close).map(|(value, _)| value.to_owned()))
            .collect()
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
