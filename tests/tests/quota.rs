//! Plans and quotas: exactly 100 of 140 concurrent Free calls pass (also across two core
//! replicas on one PostgreSQL database), rate-limit headers, calls a dead replica left given
//! back, storage quota and size cap.

use std::{collections::BTreeSet, time::Duration};

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, both_databases, file_form, fresh_postgres_database, problem, test_config,
};
use reqwest::Client;

/// Fires 140 uploads at once, spread over `stacks`; returns (statuses, remaining headers).
async fn burst(stacks: &[&Stack], key: &str) -> (Vec<u16>, Vec<u64>) {
    let client = Client::new();
    let calls = (0..140).map(|i| {
        let request = client
            .post(stacks[i % stacks.len()].url("/api/upload"))
            .bearer_auth(key)
            .multipart(file_form("n.txt", format!("call {i}").into_bytes()));
        async move { request.send().await.unwrap() }
    });
    let responses = futures::future::join_all(calls).await;
    let mut statuses = Vec::new();
    let mut remaining = Vec::new();
    for response in responses {
        let status = response.status().as_u16();
        let headers = response.headers();
        assert_eq!(headers["x-ratelimit-limit"], "100");
        assert_eq!(headers["ratelimit-policy"], "\"daily\";q=100;w=86400");
        let reset: i64 = headers["x-ratelimit-reset"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(reset % 86_400, 0, "reset is a UTC midnight");
        assert!(reset > chrono::Utc::now().timestamp());
        let left: u64 = headers["x-ratelimit-remaining"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let ietf = headers["ratelimit"].to_str().unwrap();
        assert!(
            ietf.starts_with(&format!("\"daily\";r={left};t=")),
            "{ietf} against {left} left"
        );
        if status == 429 {
            let retry: i64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
            assert!(retry > 0 && retry <= 86_400, "{retry}");
            assert_eq!(left, 0);
            problem(response, 429, "daily-quota-exceeded").await;
        } else {
            remaining.push(left);
        }
        statuses.push(status);
    }
    (statuses, remaining)
}

fn assert_exactly_100_pass(statuses: &[u16], remaining: &[u64]) {
    let ok = statuses.iter().filter(|&&s| s == 201).count();
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!((ok, limited), (100, 40), "statuses: {statuses:?}");
    // Each successful call saw a distinct count: no two calls were given the same slot.
    let distinct: BTreeSet<u64> = remaining.iter().copied().collect();
    assert_eq!(distinct, (0..100).collect::<BTreeSet<u64>>());
}

both_databases!(free_plan_allows_exactly_100_of_140_concurrent_calls, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let (statuses, remaining) = burst(&[&stack], &key).await;
    assert_exactly_100_pass(&statuses, &remaining);
    assert_eq!(
        stack.calls_today(account).await,
        100,
        "refused calls are not counted"
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_core_replicas_on_one_postgres_share_the_cap() {
    let url = fresh_postgres_database().await;
    let a = Stack::start_on(Db::Postgres, test_config(&[]), Some(url.clone())).await;
    let b = Stack::start_on(Db::Postgres, test_config(&[]), Some(url)).await;
    let (account, key) = a.account_with_key(Plan::Free, "upload").await;
    let (statuses, remaining) = burst(&[&a, &b], &key).await;
    assert_exactly_100_pass(&statuses, &remaining);
    assert_eq!(b.calls_today(account).await, 100);
}

// A replica killed mid-call never ends its calls' tickets; once it has been silent for
// `DEAD_AFTER`, another replica gives those calls back, each once however many notice at the
// same time, and leaves a live replica's calls alone.
both_databases!(calls_a_dead_replica_left_in_flight_are_given_back, |db| {
    use quire_core::quota::{charge_call, replicas};
    let stack = Stack::start(db).await;
    let (account, _) = stack.account_with_key(Plan::Free, "upload").await;
    let db = &stack.core.db;
    let now = chrono::Utc::now();
    let second = chrono::Duration::seconds(1);
    let dead_after = chrono::Duration::from_std(replicas::DEAD_AFTER).unwrap();
    replicas::beat(db, "dead", now).await.unwrap();
    replicas::beat(db, "alive", now + dead_after + second * 5)
        .await
        .unwrap();
    for replica in ["dead", "dead", "alive"] {
        let charged = charge_call(db, replica, account, Some(100), now)
            .await
            .unwrap();
        // As in a killed process: the ticket is never ended.
        std::mem::forget(charged.ticket);
    }
    assert_eq!(stack.calls_today(account).await, 3);
    assert_eq!(
        replicas::give_back_dead(db, now + second * 5)
            .await
            .unwrap(),
        0,
        "a replica silent for less than DEAD_AFTER is alive"
    );
    let later = now + dead_after + second;
    let (a, b) = tokio::join!(
        replicas::give_back_dead(db, later),
        replicas::give_back_dead(db, later)
    );
    assert_eq!(a.unwrap() + b.unwrap(), 2);
    assert_eq!(stack.calls_today(account).await, 1);
    assert_eq!(stack.account(account).await.calls_total, 1);
});

both_databases!(pro_plan_has_no_daily_cap, |db| {
    let stack = Stack::start_with(db, test_config(&["--free-daily-calls", "1"])).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    for _ in 0..3 {
        let response = Client::new()
            .post(stack.url("/api/upload"))
            .bearer_auth(&key)
            .multipart(file_form("a.txt", b"pro".to_vec()))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        assert!(!response.headers().contains_key("x-ratelimit-remaining"));
    }
});

both_databases!(storage_quota_is_reserved_and_released, |db| {
    let stack = Stack::start_with(db, test_config(&["--free-storage-quota", "1000"])).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let client = Client::new();
    let upload = |len: usize| {
        client
            .post(stack.url("/api/upload"))
            .bearer_auth(&key)
            .multipart(file_form("blob.bin", quire_e2e::noise(len, len as u64)))
            .send()
    };
    let first = upload(600).await.unwrap();
    assert_eq!(first.status(), 201);
    let token = first.json::<serde_json::Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let body = problem(upload(600).await.unwrap(), 413, "storage-quota-exceeded").await;
    assert!(body["detail"].as_str().unwrap().contains("1000"), "{body}");
    assert_eq!(stack.storage_used(account).await, 600);
    assert_eq!(stack.file_rows().await, 1);

    // Deleting the file gives its bytes back.
    let mut files =
        quire_proto::v1::file_service_client::FileServiceClient::connect(stack.grpc.clone())
            .await
            .unwrap();
    let mut request = tonic::Request::new(quire_proto::v1::DeleteFileRequest { token });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {key}").parse().unwrap());
    files.delete_file(request).await.unwrap();
    assert_eq!(stack.storage_used(account).await, 0);
    assert_eq!(upload(600).await.unwrap().status(), 201);
});

both_databases!(files_over_the_upload_cap_get_413_and_leave_nothing, |db| {
    let stack = Stack::start_with(db, test_config(&["--max-upload-size", "100000"])).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let response = Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("big.bin", quire_e2e::noise(300_000, 7)))
        .send()
        .await
        .unwrap();
    let body = problem(response, 413, "file-too-large").await;
    assert!(
        body["detail"].as_str().unwrap().contains("100000"),
        "{body}"
    );
    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
});

// The file of an answer kept for Idempotency-Key retries counts in the storage quota until it
// expires: one that does not fit is refused (the same request without a key is answered), and
// the sweeper's expiry gives its bytes back.
both_databases!(kept_idempotent_answers_count_in_the_storage_quota, |db| {
    let stack = Stack::start_with(db, test_config(&["--free-storage-quota", "200000"])).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let pdf = quire_e2e::pdf_fixtures::text_pdf(&[&["kept for retries"]], (595.0, 842.0));
    let compress = |idem: Option<&str>| {
        let mut request = Client::new()
            .post(stack.url("/api/v1/process/compress-pdf"))
            .bearer_auth(&key)
            .multipart(file_form("doc.pdf", pdf.clone()));
        if let Some(idem) = idem {
            request = request.header("idempotency-key", idem);
        }
        request.send()
    };
    let first = compress(Some("first")).await.unwrap();
    assert_eq!(first.status(), 200);
    let answer = first.bytes().await.unwrap();
    let kept = answer.len() as u64;
    assert_eq!(stack.storage_figures(account).await, (kept, kept));

    // Files take all but half an answer's room.
    let filler = (200_000 - kept - kept / 2) as usize;
    let stored = Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("filler.bin", quire_e2e::noise(filler, 9)))
        .send()
        .await
        .unwrap();
    assert_eq!(stored.status(), 201);
    let refused = problem(
        compress(Some("second")).await.unwrap(),
        413,
        "storage-quota-exceeded",
    )
    .await;
    let detail = refused["detail"].as_str().unwrap();
    assert!(
        detail.contains("Idempotency-Key") && detail.contains("200000"),
        "{detail}"
    );
    assert_eq!(compress(None).await.unwrap().status(), 200);
    let replayed = compress(Some("first")).await.unwrap();
    assert_eq!(replayed.headers()["idempotent-replayed"], "true");
    assert_eq!(replayed.bytes().await.unwrap(), answer);
    assert_eq!(
        stack.storage_figures(account).await,
        (filler as u64 + kept, kept)
    );

    let later = chrono::Utc::now() + chrono::Duration::hours(25);
    quire_core::idempotency::ledger::sweep(&stack.core, later)
        .await
        .unwrap();
    assert_eq!(stack.storage_figures(account).await, (filler as u64, 0));
    assert_eq!(compress(Some("second")).await.unwrap().status(), 200);
});
