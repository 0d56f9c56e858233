//! What must hold across replicas, not only within one: the daily calls and the storage quota
//! under concurrent calls spread over two replicas, sign-up and log-in limits under a burst
//! sent to both, and replicas that start together on a new database.

use std::collections::BTreeMap;

use futures::future::join_all;
use quire_core::quota::Plan;
use quire_e2e::{Db, Stack, as_edge, fresh_postgres_database, test_config, v1};
use tonic::transport::Channel;
use tonic_types::StatusExt;
use v1::account_service_client::AccountServiceClient;

use super::cluster::{Cluster, upload};

const PASSWORD: &str = "correct horse battery staple";

/// Each answer's status and, for a 201, which replica stored the file.
async fn statuses(
    cluster: &Cluster,
    key: &str,
    calls: u64,
    len: usize,
) -> (BTreeMap<u16, usize>, [usize; 2]) {
    let answers = join_all((0..calls).map(|seed| upload(&cluster.edge.base, key, len, seed))).await;
    let mut counts = BTreeMap::new();
    let mut by = [0, 0];
    for answer in answers {
        let status = answer.status().as_u16();
        *counts.entry(status).or_default() += 1;
        if status == 201 {
            let body: serde_json::Value = answer.json().await.unwrap();
            by[cluster.replica_of(body["url"].as_str().unwrap())] += 1;
        }
    }
    (counts, by)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_free_key_gets_exactly_its_daily_calls_across_two_replicas() {
    let cluster = Cluster::start("daily", &[]).await;
    let (account, key) = cluster.a.account_with_key(Plan::Free, "upload").await;
    let (counts, by) = statuses(&cluster, &key, 140, 1024).await;
    assert_eq!(counts, BTreeMap::from([(201, 100), (429, 40)]));
    assert!(by[0] > 0 && by[1] > 0, "both replicas took calls: {by:?}");
    assert_eq!(cluster.b.calls_today(account).await, 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_storage_quota_holds_under_uploads_on_two_replicas() {
    const MIB: usize = 1024 * 1024;
    let quota = (10 * MIB).to_string();
    let cluster = Cluster::start("quota", &["--free-storage-quota", &quota]).await;
    let (account, key) = cluster.a.account_with_key(Plan::Free, "upload").await;
    let (counts, by) = statuses(&cluster, &key, 16, MIB).await;
    assert_eq!(counts, BTreeMap::from([(201, 10), (413, 6)]));
    assert!(by[0] > 0 && by[1] > 0, "both replicas took uploads: {by:?}");
    assert_eq!(cluster.b.storage_used(account).await, 10 * MIB as i64);
}

fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

async fn account_clients(cluster: &Cluster) -> [AccountServiceClient<Channel>; 2] {
    let connect = |grpc: String| async move { AccountServiceClient::connect(grpc).await.unwrap() };
    [
        connect(cluster.a.grpc.clone()).await,
        connect(cluster.b.grpc.clone()).await,
    ]
}

/// Twelve sign-ups from one address at once, alternating between the replicas: the window's
/// five go through, whichever replica took them. A try counts before it is decided, so a burst
/// cannot slip past a count that was made before the others were recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_sign_ups_on_two_replicas_gets_the_window_s_five() {
    let cluster = Cluster::start("sign-ups", &[]).await;
    let clients = account_clients(&cluster).await;
    let tries = (0..12).map(|i| {
        let mut client = clients[i % 2].clone();
        async move {
            client
                .sign_up(as_edge(v1::SignUpRequest {
                    email: format!("burst{i}@example.com"),
                    password: PASSWORD.into(),
                    client_address: "198.51.100.20".into(),
                }))
                .await
        }
    });
    let answers = join_all(tries).await;
    let signed_up = answers.iter().filter(|a| a.is_ok()).count();
    let limited: Vec<String> = answers
        .iter()
        .filter_map(|a| a.as_ref().err())
        .map(reason)
        .collect();
    assert!(
        (1..=5).contains(&signed_up),
        "{signed_up} sign-ups went through"
    );
    assert!(
        limited.iter().all(|r| r == "too-many-sign-ups"),
        "{limited:?}"
    );
}

/// Twelve wrong passwords for one account from one address at once, on both replicas: no more
/// than the pair's three free tries are checked, the rest wait; and the right password, once
/// the wait is over, still logs in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_wrong_passwords_on_two_replicas_gets_three_tries() {
    let cluster = Cluster::start("log-ins", &[]).await;
    let mut clients = account_clients(&cluster).await;
    clients[0]
        .sign_up(as_edge(v1::SignUpRequest {
            email: "owner@example.com".into(),
            password: PASSWORD.into(),
            client_address: "192.0.2.1".into(),
        }))
        .await
        .unwrap();
    let log_in = |i: usize, password: &'static str| {
        let mut client = clients[i % 2].clone();
        async move {
            client
                .log_in(as_edge(v1::LogInRequest {
                    email: "owner@example.com".into(),
                    password: password.into(),
                    client_address: "203.0.113.7".into(),
                }))
                .await
        }
    };
    let answers = join_all((0..12).map(|i| log_in(i, "wrong guess 123456"))).await;
    let reasons: Vec<String> = answers
        .iter()
        .map(|a| reason(a.as_ref().expect_err("a wrong password logged in")))
        .collect();
    let checked = reasons
        .iter()
        .filter(|r| *r == "invalid-credentials")
        .count();
    let waited = reasons
        .iter()
        .filter(|r| *r == "too-many-login-attempts")
        .count();
    assert!((1..=3).contains(&checked), "{reasons:?}");
    assert_eq!(checked + waited, 12, "{reasons:?}");
    // Three failures are free and the wait after them is 1 s.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    log_in(1, PASSWORD).await.unwrap();
}

/// Every replica brings the schema up to date as it starts; on a new database, four starting
/// at once (each on a thread of its own) take turns under PostgreSQL's advisory lock instead of
/// running the same migration together, where all but one would fail to start.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_starting_together_on_a_new_database_all_start() {
    let database = fresh_postgres_database().await;
    let starts: Vec<_> = (0..4)
        .map(|_| {
            let url = database.clone();
            tokio::spawn(async move { quire_core::db::connect(&url).await.map(|_| ()) })
        })
        .collect();
    for start in join_all(starts).await {
        start.unwrap().expect("a replica failed to migrate");
    }
    let stack = Stack::start_on(Db::Postgres, test_config(&[]), Some(database)).await;
    let (account, _) = stack.account_with_key(Plan::Free, "upload").await;
    assert_eq!(stack.account(account).await.id, account);
}
