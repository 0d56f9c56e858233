//! GET /f/{token}: headers, byte ranges, conditional requests, safe handling of active content,
//! 404 for unknown tokens, 410 for expired or used-up links (`maxDownloads`).

use std::time::Duration;

use quire_core::quota::Plan;
use quire_e2e::{Stack, both_databases, file_form, noise, problem};
use reqwest::Client;

#[path = "share/encrypted.rs"]
mod encrypted;

/// POST /api/upload with `form`.
async fn upload(stack: &Stack, key: &str, form: reqwest::multipart::Form) -> reqwest::Response {
    Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

async fn share(stack: &Stack, key: &str, name: &str, bytes: Vec<u8>) -> String {
    let response = upload(stack, key, file_form(name, bytes)).await;
    assert_eq!(response.status(), 201);
    response.json::<serde_json::Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned()
}

both_databases!(share_links_serve_ranges_and_validators, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = noise(1_000_000, 9);
    let url = share(&stack, &key, "données été.bin", bytes.clone()).await;
    let client = Client::new();

    let full = client.get(&url).send().await.unwrap();
    assert_eq!(full.status(), 200);
    let headers = full.headers().clone();
    assert_eq!(headers["content-length"], "1000000");
    assert_eq!(headers["accept-ranges"], "bytes");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["content-type"], "application/octet-stream");
    assert_eq!(
        headers["content-disposition"],
        "attachment; filename=\"donn_es _t_.bin\"; filename*=UTF-8''donn%C3%A9es%20%C3%A9t%C3%A9.bin"
    );
    let etag = headers["etag"].to_str().unwrap().to_owned();
    assert_eq!(etag, format!("\"{}\"", quire_e2e::digest_of(&bytes)));
    assert!(headers.contains_key("last-modified"));
    assert_eq!(full.bytes().await.unwrap().to_vec(), bytes);

    let part = client
        .get(&url)
        .header("range", "bytes=100-199")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(part.headers()["content-range"], "bytes 100-199/1000000");
    assert_eq!(part.headers()["content-length"], "100");
    assert_eq!(part.bytes().await.unwrap().to_vec(), bytes[100..200]);

    let tail = client
        .get(&url)
        .header("range", "bytes=-10")
        .send()
        .await
        .unwrap();
    assert_eq!(tail.status(), 206);
    assert_eq!(
        tail.bytes().await.unwrap().to_vec(),
        bytes[bytes.len() - 10..]
    );

    let open = client
        .get(&url)
        .header("range", "bytes=999990-")
        .send()
        .await
        .unwrap();
    assert_eq!(
        open.headers()["content-range"],
        "bytes 999990-999999/1000000"
    );

    let outside = client
        .get(&url)
        .header("range", "bytes=2000000-")
        .send()
        .await
        .unwrap();
    assert_eq!(outside.headers()["content-range"], "bytes */1000000");
    problem(outside, 416, "range-not-satisfiable").await;

    let stale_range = client
        .get(&url)
        .header("range", "bytes=0-9")
        .header("if-range", "\"not-the-etag\"")
        .send()
        .await
        .unwrap();
    assert_eq!(
        stale_range.status(),
        200,
        "If-Range mismatch serves the whole file"
    );

    let downloads = || async {
        use sea_orm::EntityTrait;
        let token = url.rsplit('/').next().unwrap().to_owned();
        let rows = quire_core::db::file::Entity::find()
            .all(&stack.core.db)
            .await
            .unwrap();
        rows.into_iter()
            .find(|f| f.token == token)
            .unwrap()
            .downloads
    };
    // Downloads are counted off the request path; let the count settle.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let before = downloads().await;
    assert!(before >= 5, "the GETs above were counted: {before}");
    let head = client.head(&url).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-length"], "1000000");
    assert_eq!(head.headers()["etag"], etag.as_str());
    assert!(head.bytes().await.unwrap().is_empty());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert_eq!(downloads().await, before, "HEAD is not a download");

    let cached = client
        .get(&url)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(cached.status(), 304);
    assert_eq!(cached.headers()["etag"], etag.as_str());

    // A stale If-Range drops the range before it is judged: the whole file, not a 416.
    let stale_outside = client
        .get(&url)
        .header("range", "bytes=2000000-")
        .header("if-range", "\"old\"")
        .send()
        .await
        .unwrap();
    assert_eq!(stale_outside.status(), 200);
    assert_eq!(stale_outside.bytes().await.unwrap().len(), bytes.len());
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    // HEAD and the 304 counted nothing; the stale If-Range GET counted once, not twice.
    assert_eq!(downloads().await, before + 1);
});

both_databases!(active_content_is_never_rendered_inline, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let client = Client::new();
    for (name, body, mime) in [
        (
            "page.txt",
            &b"<!DOCTYPE html><script>alert(1)</script>"[..],
            "text/html",
        ),
        (
            "pic.png",
            &b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"[..],
            "image/svg+xml",
        ),
    ] {
        let url = share(&stack, &key, name, body.to_vec()).await;
        let response = client.get(&url).send().await.unwrap();
        let headers = response.headers();
        assert_eq!(headers["content-type"], mime);
        assert!(
            headers["content-disposition"]
                .to_str()
                .unwrap()
                .starts_with("attachment;")
        );
        assert_eq!(headers["content-security-policy"], "sandbox");
        assert_eq!(headers["x-content-type-options"], "nosniff");
    }
    let url = share(&stack, &key, "notes.txt", b"plain words".to_vec()).await;
    let response = client.get(&url).send().await.unwrap();
    assert!(
        response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .starts_with("inline;")
    );
});

both_databases!(unknown_tokens_are_404_and_expired_links_410, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let client = Client::new();
    for path in ["/f/AAAAAAAAAAAAAAAA", "/f/..%2F..%2Fetc", "/f/x"] {
        problem(
            client.get(stack.url(path)).send().await.unwrap(),
            404,
            "file-not-found",
        )
        .await;
    }
    let form = reqwest::multipart::Form::new().text("expiresIn", "1").part(
        "file",
        reqwest::multipart::Part::bytes(b"short-lived".to_vec()).file_name("a.txt"),
    );
    let response = upload(&stack, &key, form).await;
    let url = response.json::<serde_json::Value>().await.unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(client.get(&url).send().await.unwrap().status(), 200);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let gone = problem(client.get(&url).send().await.unwrap(), 410, "file-gone").await;
    assert!(
        gone["detail"].as_str().unwrap().contains("expired"),
        "{gone}"
    );
    // The sweeper deletes the blob and gives the storage back; the link still says 410.
    quire_core::files::sweeper::sweep_once(&stack.core)
        .await
        .unwrap();
    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
    problem(client.get(&url).send().await.unwrap(), 410, "file-gone").await;
});

/// Uploads `bytes` with `maxDownloads`; returns the answer's JSON.
async fn share_limited(stack: &Stack, key: &str, max: &str, bytes: Vec<u8>) -> serde_json::Value {
    let form = reqwest::multipart::Form::new()
        .text("maxDownloads", max.to_owned())
        .part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name("once.bin"),
        );
    let response = upload(stack, key, form).await;
    assert_eq!(response.status(), 201);
    response.json().await.unwrap()
}

both_databases!(a_limited_link_serves_its_downloads_then_answers_410, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = noise(300_000, 4);
    let answer = share_limited(&stack, &key, "2", bytes.clone()).await;
    assert_eq!(answer["maxDownloads"], 2);
    assert_eq!(answer["downloadsLeft"], 2);
    let url = answer["url"].as_str().unwrap().to_owned();
    let client = Client::new();
    // HEAD, a range and a 304 use no download.
    assert_eq!(client.head(&url).send().await.unwrap().status(), 200);
    let range = client
        .get(&url)
        .header("range", "bytes=0-99")
        .send()
        .await
        .unwrap();
    assert_eq!(range.status(), 206);
    let etag = range.headers()["etag"].to_str().unwrap().to_owned();
    let cached = client
        .get(&url)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(cached.status(), 304);
    for _ in 0..2 {
        let full = client.get(&url).send().await.unwrap();
        assert_eq!(full.status(), 200);
        assert_eq!(full.bytes().await.unwrap(), bytes);
    }
    let used = problem(client.get(&url).send().await.unwrap(), 410, "file-gone").await;
    assert!(
        used["detail"].as_str().unwrap().contains("used up"),
        "{used}"
    );
    assert_eq!(client.head(&url).send().await.unwrap().status(), 410);
    // The last download deleted the file and gave its storage back, without a sweep.
    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
});

both_databases!(parallel_requests_for_a_one_time_link_get_it_once, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let answer = share_limited(&stack, &key, "1", noise(200_000, 5)).await;
    let url = answer["url"].as_str().unwrap().to_owned();
    let client = Client::new();
    let requests = (0..8).map(|_| {
        let (client, url) = (client.clone(), url.clone());
        async move {
            let response = client.get(&url).send().await.unwrap();
            let status = response.status().as_u16();
            // Read whole, so that a 200 really delivered the file.
            let body = response.bytes().await.unwrap();
            (status, body.len())
        }
    });
    let outcomes = futures::future::join_all(requests).await;
    let served: Vec<_> = outcomes.iter().filter(|(s, _)| *s == 200).collect();
    assert_eq!(served.len(), 1, "{outcomes:?}");
    assert_eq!(served[0].1, 200_000);
    assert!(
        outcomes.iter().all(|(s, _)| *s == 200 || *s == 410),
        "{outcomes:?}"
    );
});

both_databases!(a_download_limit_outside_its_range_is_refused, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    for bad in ["0", "1000001", "two", "-1"] {
        let form = reqwest::multipart::Form::new()
            .part(
                "file",
                reqwest::multipart::Part::bytes(b"data".to_vec()).file_name("a.txt"),
            )
            .text("maxDownloads", bad);
        let body = problem(upload(&stack, &key, form).await, 400, "invalid-argument").await;
        assert!(
            body["detail"].as_str().unwrap().contains("maxDownloads"),
            "{bad}: {body}"
        );
    }
    stack
        .assert_nothing_left(account, Duration::from_secs(5))
        .await;
});
