//! The three ways an edge reaches the core give the same answers: in process (`quire serve`,
//! the harness's own edge), over TCP and over a unix socket (an edge on its own, `--core-url`).

use quire_core::quota::Plan;
use quire_e2e::{Db, RemoteEdge, Stack, file_form, problem, test_config};
use reqwest::Client;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_and_errors_are_the_same_in_process_over_tcp_and_over_a_unix_socket() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("core.sock");
    let socket_arg = socket.display().to_string();
    let stack = Stack::start_with(Db::Sqlite, test_config(&["--grpc-socket", &socket_arg])).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let limits = quire_edge::serve::EdgeSettings::of(&stack.core.config);
    let tcp = RemoteEdge::start(&stack.grpc, limits.clone()).await;
    let unix = RemoteEdge::start(&format!("unix://{socket_arg}"), limits).await;

    let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let mut remaining = 100;
    for base in [&stack.base, &tcp.base, &unix.base] {
        let response = Client::new()
            .post(format!("{base}/api/upload"))
            .bearer_auth(&key)
            .multipart(file_form("data.bin", bytes.clone()))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201, "through {base}");
        remaining -= 1;
        assert_eq!(
            response.headers()["x-ratelimit-remaining"],
            remaining.to_string().as_str(),
            "through {base}"
        );
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["size"], bytes.len(), "through {base}");
        let token = body["token"].as_str().unwrap();
        let shared = Client::new()
            .get(format!("{base}/f/{token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(shared.status(), 200);
        assert!(shared.bytes().await.unwrap() == bytes, "through {base}");

        // An error keeps its code and status on every transport.
        let refused = Client::new()
            .post(format!("{base}/api/upload"))
            .bearer_auth("qk_not_a_real_key_at_all_0123456789abcdef")
            .multipart(file_form("a.txt", b"a".to_vec()))
            .send()
            .await
            .unwrap();
        problem(refused, 401, "invalid-api-key").await;
    }

    drop((tcp, unix));
    drop(stack);
    assert!(!socket.exists(), "the socket's file goes with the core");
}
