//! Antivirus: infected uploads get 422, an unreachable or refusing clamd 503, and in every
//! case nothing is kept: no blob, no record, no quota charged. With several clamd, one that is
//! down is passed over.

use std::time::Duration;

use quire_core::quota::Plan;
use quire_e2e::{
    Stack, both_databases, eicar, file_form, noise, problem, small_clamd_addr, test_config,
};
use reqwest::Client;

async fn upload(stack: &Stack, key: &str, bytes: Vec<u8>) -> reqwest::Response {
    Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(key)
        .multipart(file_form("sample.bin", bytes))
        .send()
        .await
        .unwrap()
}

both_databases!(infected_files_are_refused_and_leave_nothing, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;

    let body = problem(upload(&stack, &key, eicar()).await, 422, "virus-found").await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("Quire.Test.EICAR"),
        "{body}"
    );

    // EICAR in the middle of 3 MiB of other bytes: found by the body signature, across chunks.
    let mut big = noise(3 << 20, 1);
    let at = (3 << 20) / 2 - 10;
    big.splice(at..at + eicar().len(), eicar());
    problem(upload(&stack, &key, big).await, 422, "virus-found").await;

    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
    // A clean file still goes through afterwards.
    assert_eq!(upload(&stack, &key, noise(1 << 20, 2)).await.status(), 201);
});

/// With several clamd, one that is down is passed over: every scan lands on the one that
/// answers (a virus still found, a clean file still stored), whichever comes first in turn.
#[tokio::test]
async fn a_clamd_down_is_passed_over_for_the_next() {
    let clamd = format!("tcp://127.0.0.1:9,{}", quire_e2e::clamd_addr());
    let stack = Stack::start_with(
        quire_e2e::Db::Sqlite,
        test_config(&["--clamd", &clamd, "--clamd-timeout", "2"]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    for round in 0..3u64 {
        problem(upload(&stack, &key, eicar()).await, 422, "virus-found").await;
        let clean = upload(&stack, &key, noise(64 * 1024, round)).await;
        assert_eq!(clean.status(), 201, "round {round}");
    }
}

both_databases!(scanner_down_means_503_and_nothing_kept, |db| {
    // Nothing listens on port 9 of the loopback: clamd is unreachable.
    let stack = Stack::start_with(
        db,
        test_config(&["--clamd", "tcp://127.0.0.1:9", "--clamd-timeout", "2"]),
    )
    .await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let response = upload(&stack, &key, b"clean text".to_vec()).await;
    assert!(response.headers().contains_key("retry-after"));
    // A call the server failed is given back before the answer: not counted, and the figures
    // say so.
    assert_eq!(response.headers()["x-ratelimit-remaining"], "100");
    problem(response, 503, "scanner-unavailable").await;
    assert_eq!(stack.calls_today(account).await, 0);
    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
});

both_databases!(
    a_clamd_that_stops_answering_means_503_and_nothing_kept,
    |db| {
        // A peer that accepts the connection and then never reads or answers: a hung clamd.
        let hung = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = format!("tcp://{}", hung.local_addr().unwrap());
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = hung.accept().await {
                held.push(socket);
            }
        });
        let stack =
            Stack::start_with(db, test_config(&["--clamd", &addr, "--clamd-timeout", "1"])).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        // Big enough to fill the socket buffers, so the writes themselves time out.
        let response = upload(&stack, &key, noise(8 << 20, 8)).await;
        problem(response, 503, "scanner-unavailable").await;
        stack
            .assert_nothing_left(account, Duration::from_secs(5))
            .await;
    }
);

both_databases!(a_size_limit_answer_from_clamd_is_never_a_pass, |db| {
    // This clamd's StreamMaxLength/MaxFileSize/MaxScanSize are 1 MiB; the upload is 3 MiB.
    let stack = Stack::start_with(db, test_config(&["--clamd", &small_clamd_addr()])).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    assert_eq!(
        upload(&stack, &key, noise(1000, 3)).await.status(),
        201,
        "small files pass"
    );
    let first = stack.storage_used(account).await;
    problem(
        upload(&stack, &key, noise(3 << 20, 4)).await,
        503,
        "scanner-unavailable",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(stack.storage_used(account).await, first);
    assert_eq!(stack.file_rows().await, 1);
});
