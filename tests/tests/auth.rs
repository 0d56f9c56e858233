//! API keys and scopes: 401 for missing, malformed, unknown and revoked keys; 403 for a
//! missing scope; revocation takes effect on the very next call.

use quire_core::{auth::accounts, quota::Plan};
use quire_e2e::{Stack, both_databases, file_form, problem};
use reqwest::Client;

both_databases!(keys_are_checked_on_every_call, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let client = Client::new();
    let upload = |auth: Option<&str>| {
        let request = client
            .post(stack.url("/api/upload"))
            .multipart(file_form("a.txt", b"abc".to_vec()));
        match auth {
            Some(value) => request.header("authorization", value),
            None => request,
        }
    };

    problem(upload(None).send().await.unwrap(), 401, "missing-api-key").await;
    problem(
        upload(Some("Basic dXNlcjpwYXNz")).send().await.unwrap(),
        401,
        "invalid-api-key",
    )
    .await;
    problem(
        upload(Some("Bearer qk_tooshort")).send().await.unwrap(),
        401,
        "invalid-api-key",
    )
    .await;
    let unknown = format!("Bearer qk_{}", "A".repeat(40));
    problem(
        upload(Some(&unknown)).send().await.unwrap(),
        401,
        "invalid-api-key",
    )
    .await;

    let good = format!("Bearer {key}");
    assert_eq!(upload(Some(&good)).send().await.unwrap().status(), 201);
    let keys = accounts::list_keys(&stack.core.db, &stack.account(account).await.email)
        .await
        .unwrap();
    accounts::revoke_key(&stack.core.db, keys[0].id)
        .await
        .unwrap();
    problem(
        upload(Some(&good)).send().await.unwrap(),
        401,
        "revoked-api-key",
    )
    .await;
    // Refused calls are not counted.
    assert_eq!(stack.calls_today(account).await, 1);
});

both_databases!(scopes_decide_what_a_key_may_call, |db| {
    let stack = Stack::start(db).await;
    let (account, read_key) = stack.account_with_key(Plan::Free, "read").await;
    let client = Client::new();
    let response = client
        .post(stack.url("/api/upload"))
        .bearer_auth(&read_key)
        .multipart(file_form("a.txt", b"abc".to_vec()))
        .send()
        .await
        .unwrap();
    let body = problem(response, 403, "missing-scope").await;
    assert!(
        body["detail"].as_str().unwrap().contains("upload"),
        "{body}"
    );
    for path in [
        "/api/v1/process/ocr",
        "/api/v1/process/compress-pdf",
        "/api/v1/process/pdf-to-images",
    ] {
        let response = client
            .post(stack.url(path))
            .bearer_auth(&read_key)
            .multipart(file_form("a.pdf", b"%PDF-1.4".to_vec()))
            .send()
            .await
            .unwrap();
        problem(response, 403, "missing-scope").await;
    }
    // The support workflow accepts read, upload or process.
    for scopes in ["read", "upload", "process"] {
        let key = stack.key_for(account, scopes).await;
        let response = client
            .post(stack.url("/api/workflows/support/auto"))
            .bearer_auth(&key)
            .json(&serde_json::json!({ "rawLog": "error at 10.0.0.1" }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "scopes {scopes}");
    }
    let process_key = stack.key_for(account, "process").await;
    let response = client
        .post(stack.url("/api/v1/process/ocr"))
        .bearer_auth(&process_key)
        .multipart(file_form("a.png", b"png".to_vec()))
        .send()
        .await
        .unwrap();
    problem(response, 403, "missing-scope").await;
    let upload_key = stack.key_for(account, "upload").await;
    let response = client
        .post(stack.url("/api/v1/process/compress-pdf"))
        .bearer_auth(&upload_key)
        .multipart(file_form("a.pdf", b"%PDF-1.4".to_vec()))
        .send()
        .await
        .unwrap();
    problem(response, 400, "invalid-file").await;
    // Options may follow the file part; an invalid one is a 400 that lists the values.
    let after = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"%PDF-1.4".to_vec()).file_name("a.pdf"),
        )
        .text("quality", "screen");
    let response = client
        .post(stack.url("/api/v1/process/compress-pdf"))
        .bearer_auth(&upload_key)
        .multipart(after)
        .send()
        .await
        .unwrap();
    problem(response, 400, "invalid-file").await;
    let invalid = reqwest::multipart::Form::new()
        .text("quality", "tiny")
        .part(
            "file",
            reqwest::multipart::Part::bytes(b"%PDF-1.4".to_vec()).file_name("a.pdf"),
        );
    let response = client
        .post(stack.url("/api/v1/process/compress-pdf"))
        .bearer_auth(&upload_key)
        .multipart(invalid)
        .send()
        .await
        .unwrap();
    let body = problem(response, 400, "invalid-argument").await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("screen, ebook, printer, prepress"),
        "{body}"
    );
    // The three support calls and the two compressions reached the engines and count; the
    // refused scope and the quality the edge refused do not.
    assert_eq!(stack.calls_today(account).await, 5);
});
