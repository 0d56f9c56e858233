//! Two core replicas on one PostgreSQL database and one S3 bucket, behind one edge whose
//! `--core-url` lists both: the layout `docs/deploy.md` describes, in one test process.

use std::time::Duration;

use quire_e2e::{
    Db, RemoteEdge, S3Server, Stack, file_form, fresh_postgres_database, noise, test_config,
};
use reqwest::Client;

pub struct Cluster {
    pub a: Stack,
    pub b: Stack,
    pub edge: RemoteEdge,
    _s3: S3Server,
}

impl Cluster {
    /// Starts both replicas with the core flags `extra` and waits until the edge can reach
    /// both.
    pub async fn start(bucket: &str, extra: &[&str]) -> Cluster {
        let s3 = S3Server::start().await;
        let bucket = s3.bucket(bucket).await;
        let database = fresh_postgres_database().await;
        let replica = || {
            Stack::start_on(
                Db::Postgres,
                s3.store_in(test_config(extra), &bucket, "q"),
                Some(database.clone()),
            )
        };
        let (a, b) = (replica().await, replica().await);
        let edge = RemoteEdge::start(
            &format!("{},{}", a.grpc, b.grpc),
            quire_edge::serve::EdgeSettings::of(&a.core.config),
        )
        .await;
        // A replica takes calls once its health service says SERVING and the edge has seen it.
        for stack in [&a, &b] {
            serving(&stack.grpc).await;
        }
        tokio::time::sleep(Duration::from_millis(700)).await;
        Cluster {
            a,
            b,
            edge,
            _s3: s3,
        }
    }

    /// Which replica a share link came from: each writes its own base URL into its links.
    pub fn replica_of(&self, link: &str) -> usize {
        usize::from(link.starts_with(&self.b.base))
    }
}

/// Uploads `len` bytes of noise through the edge at `base`.
pub async fn upload(base: &str, key: &str, len: usize, seed: u64) -> reqwest::Response {
    Client::new()
        .post(format!("{base}/api/upload"))
        .bearer_auth(key)
        .multipart(file_form("data.bin", noise(len, seed)))
        .send()
        .await
        .unwrap()
}

/// Waits until the core at `grpc` says SERVING on the standard health service.
async fn serving(grpc: &str) {
    let channel = tonic::transport::Channel::from_shared(grpc.to_owned())
        .unwrap()
        .connect_lazy();
    let mut client = tonic_health::pb::health_client::HealthClient::new(channel);
    for _ in 0..100 {
        let request = tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        };
        if let Ok(answer) = client.check(request).await
            && answer.get_ref().status()
                == tonic_health::pb::health_check_response::ServingStatus::Serving
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{grpc} never said SERVING");
}
