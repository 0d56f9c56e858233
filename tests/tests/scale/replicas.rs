//! Two core replicas on one PostgreSQL database and one S3 bucket behind one edge
//! (`--core-url` with both addresses): calls are shared between them, a file stored through
//! one is served through the other, and when one stops the calls go to the survivor.

use std::time::Duration;

use quire_core::quota::Plan;
use reqwest::Client;

use super::cluster::{Cluster, upload};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_shared_and_go_to_the_survivor_when_a_replica_stops() {
    let cluster = Cluster::start("shared", &[]).await;
    let Cluster { a, b, edge, .. } = &cluster;
    let (_, key) = a.account_with_key(Plan::Pro, "upload").await;

    // Each replica writes share links with its own base URL: the link says who stored the file.
    let mut by = [0, 0];
    let mut links = Vec::new();
    for seed in 0..20 {
        let response = upload(&edge.base, &key, 64 * 1024, seed).await;
        assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
        let body: serde_json::Value = response.json().await.unwrap();
        let link = body["url"].as_str().unwrap().to_owned();
        by[cluster.replica_of(&link)] += 1;
        links.push(link);
    }
    assert!(by[0] > 0 && by[1] > 0, "both replicas took calls: {by:?}");
    // Stored once, served by either: the same row, the same object.
    for link in &links {
        let token = link.rsplit('/').next().unwrap();
        for stack in [a, b] {
            let fetched = Client::new()
                .get(stack.url(&format!("/f/{token}")))
                .send()
                .await
                .unwrap();
            assert_eq!(fetched.status(), 200, "{link} through {}", stack.base);
        }
    }

    a.stop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    // At most the first call after the stop finds it gone (a clean 503); the rest go to b.
    let mut unavailable = 0;
    for seed in 100..110 {
        let response = upload(&edge.base, &key, 64 * 1024, seed).await;
        match response.status().as_u16() {
            201 => {
                let body: serde_json::Value = response.json().await.unwrap();
                assert!(body["url"].as_str().unwrap().starts_with(&b.base), "{body}");
            }
            503 => {
                assert_eq!(
                    response.headers()["content-type"],
                    "application/problem+json"
                );
                unavailable += 1;
            }
            other => panic!("{other}: {}", response.text().await.unwrap()),
        }
    }
    assert!(
        unavailable <= 1,
        "{unavailable} calls failed after the stop"
    );
}
