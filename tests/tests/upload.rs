//! POST /api/upload: the SPEC 2.1 body, sniffed types, expiry, and every 400 it can give.

use quire_core::quota::Plan;
use quire_e2e::{Stack, both_databases, file_form, problem};
use reqwest::Client;

both_databases!(
    upload_returns_a_share_link_that_serves_the_same_bytes,
    |db| {
        let stack = Stack::start(db).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let bytes = b"%PDF-1.4\n% not really a pdf but it starts like one\n".to_vec();
        let response = Client::new()
            .post(stack.url("/api/upload"))
            .bearer_auth(&key)
            // The client claims text/plain; the service must sniff the content instead.
            .multipart(file_form("../../secret/report.pdf", bytes.clone()))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        assert_eq!(response.headers()["x-ratelimit-remaining"], "99");
        assert_eq!(response.headers()["x-ratelimit-limit"], "100");
        assert!(response.headers().contains_key("x-request-id"));
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["success"], true);
        assert_eq!(body["filename"], "report.pdf");
        assert_eq!(body["size"], bytes.len());
        assert_eq!(body["mimeType"], "application/pdf");
        assert!(body["expiresAt"].is_null());
        let token = body["token"].as_str().unwrap();
        assert!(token.len() >= 16, "64+ random bits: {token}");
        assert_eq!(body["url"], stack.url(&format!("/f/{token}")));
        assert_eq!(stack.storage_used(account).await, bytes.len() as i64);

        let shared = Client::new()
            .get(body["url"].as_str().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(shared.status(), 200);
        assert_eq!(shared.bytes().await.unwrap().to_vec(), bytes);
    }
);

both_databases!(
    expires_in_sets_an_rfc3339_expiry_before_or_after_the_file,
    |db| {
        let stack = Stack::start(db).await;
        let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
        let file = || reqwest::multipart::Part::bytes(b"hello".to_vec()).file_name("a.txt");
        let before = reqwest::multipart::Form::new()
            .text("expiresIn", "3600")
            .part("file", file());
        // curl -F file=@a.txt -F expiresIn=7200: the field after the file.
        let after = reqwest::multipart::Form::new()
            .part("file", file())
            .text("expiresIn", "7200");
        for (form, lifetime) in [(before, 3600), (after, 7200)] {
            let response = Client::new()
                .post(stack.url("/api/upload"))
                .bearer_auth(&key)
                .multipart(form)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 201);
            assert!(
                !response.headers().contains_key("x-ratelimit-remaining"),
                "pro has no daily cap"
            );
            let body: serde_json::Value = response.json().await.unwrap();
            let expires =
                chrono::DateTime::parse_from_rfc3339(body["expiresAt"].as_str().unwrap()).unwrap();
            let delta = expires.timestamp() - chrono::Utc::now().timestamp();
            assert!((lifetime - 10..=lifetime + 10).contains(&delta), "{delta}");
            assert_eq!(body["mimeType"], "text/plain; charset=utf-8");
        }
    }
);

both_databases!(bad_uploads_get_a_400_that_says_what_to_fix, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let client = Client::new();
    let post = || client.post(stack.url("/api/upload")).bearer_auth(&key);

    let no_file = reqwest::multipart::Form::new().text("expiresIn", "60");
    problem(
        post().multipart(no_file).send().await.unwrap(),
        400,
        "missing-file",
    )
    .await;

    problem(
        post()
            .multipart(file_form("empty.txt", vec![]))
            .send()
            .await
            .unwrap(),
        400,
        "empty-file",
    )
    .await;

    let not_multipart = post()
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    problem(not_multipart, 400, "invalid-multipart").await;

    let bad_expiry = reqwest::multipart::Form::new()
        .text("expiresIn", "tomorrow")
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"x".to_vec()).file_name("a"),
        );
    problem(
        post().multipart(bad_expiry).send().await.unwrap(),
        400,
        "invalid-argument",
    )
    .await;

    let unknown_field = reqwest::multipart::Form::new().text("expires", "60").part(
        "file",
        reqwest::multipart::Part::bytes(b"x".to_vec()).file_name("a"),
    );
    let body = problem(
        post().multipart(unknown_field).send().await.unwrap(),
        400,
        "invalid-argument",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("expiresIn"),
        "{body}"
    );

    let part = || reqwest::multipart::Part::bytes(b"x".to_vec()).file_name("a");
    let trailing = |name: &str, value: &str| {
        reqwest::multipart::Form::new()
            .part("file", part())
            .text(name.to_owned(), value.to_owned())
    };
    for (name, value) in [("expiresIn", "soon"), ("expiresIn", "0"), ("comment", "hi")] {
        let response = post()
            .multipart(trailing(name, value))
            .send()
            .await
            .unwrap();
        problem(response, 400, "invalid-argument").await;
    }
    let two_files = reqwest::multipart::Form::new()
        .part("file", part())
        .part("file", part());
    problem(
        post().multipart(two_files).send().await.unwrap(),
        400,
        "invalid-argument",
    )
    .await;

    let truncated = post()
        .header("content-type", "multipart/form-data; boundary=XyZ")
        .body("--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\nhalf a fi")
        .send()
        .await
        .unwrap();
    problem(truncated, 400, "invalid-multipart").await;

    stack
        .assert_nothing_left(account, std::time::Duration::from_secs(5))
        .await;
});

// A body that arrives faster than it is forwarded once made the edge send one oversized gRPC
// message (the 16 MiB limit refused it: a 500). Every message must stay one 256 KiB chunk.
both_databases!(large_files_arriving_fast_stream_through_intact, |db| {
    let stack = Stack::start_with(
        db,
        quire_e2e::test_config(&["--insecure-no-scan", "--max-upload-size", "200000000"]),
    )
    .await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let bytes = quire_e2e::noise(48 << 20, 13);
    let response = Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("large.bin", bytes.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let url = response.json::<serde_json::Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let shared = Client::new()
        .get(url)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(
        shared.len() == bytes.len() && shared[..] == bytes[..],
        "downloaded bytes differ"
    );
});
