//! Resumable uploads with tus 1.0 at /api/tus, over real HTTP: the protocol's headers and
//! errors, the same key, scope, quotas and scan as POST /api/upload, and the tus project's own
//! Python client resuming an upload whose connection was cut.

use quire_core::quota::Plan;
use quire_e2e::{Stack, both_databases, digest_of, eicar, noise, problem, python};
use reqwest::{Client, RequestBuilder, Response};

#[path = "tus/reservations.rs"]
mod reservations;
#[path = "tus/resumption.rs"]
mod resumption;

const OCTETS: &str = "application/offset+octet-stream";

fn tus(request: RequestBuilder, key: &str) -> RequestBuilder {
    request.bearer_auth(key).header("tus-resumable", "1.0.0")
}

async fn create(stack: &Stack, key: &str, length: usize, metadata: &str) -> Response {
    tus(Client::new().post(stack.url("/api/tus")), key)
        .header("upload-length", length)
        .header("upload-metadata", metadata)
        .send()
        .await
        .unwrap()
}

async fn patch(stack: &Stack, key: &str, location: &str, offset: usize, bytes: &[u8]) -> Response {
    tus(Client::new().patch(stack.url(location)), key)
        .header("content-type", OCTETS)
        .header("upload-offset", offset)
        .body(bytes.to_vec())
        .send()
        .await
        .unwrap()
}

async fn head(stack: &Stack, key: &str, location: &str) -> Response {
    tus(Client::new().head(stack.url(location)), key)
        .send()
        .await
        .unwrap()
}

fn header<'a>(response: &'a Response, name: &str) -> &'a str {
    response.headers()[name].to_str().unwrap()
}

/// "filename report.bin,expiresIn 3600,maxDownloads 2", base64 values.
const METADATA: &str = "filename cmVwb3J0LmJpbg==,expiresIn MzYwMA==,maxDownloads Mg==";

both_databases!(
    an_upload_in_three_appends_becomes_a_scanned_counted_file,
    |db| {
        let stack = Stack::start(db).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let bytes = noise(300_000, 7);

        let options = Client::new()
            .request(reqwest::Method::OPTIONS, stack.url("/api/tus"))
            .send()
            .await
            .unwrap();
        assert_eq!(options.status(), 204);
        assert_eq!(header(&options, "tus-version"), "1.0.0");
        assert_eq!(
            header(&options, "tus-extension"),
            "creation,termination,expiration"
        );

        let created = create(&stack, &key, bytes.len(), METADATA).await;
        assert_eq!(created.status(), 201);
        assert_eq!(header(&created, "tus-resumable"), "1.0.0");
        let location = header(&created, "location").to_owned();
        assert!(location.starts_with("/api/tus/"), "{location}");
        let expires = header(&created, "upload-expires");
        assert!(expires.ends_with(" GMT"), "{expires}");
        assert_eq!(
            stack.calls_today(account).await,
            0,
            "counted when the file is stored"
        );

        let fresh = head(&stack, &key, &location).await;
        assert_eq!(fresh.status(), 200);
        assert_eq!(header(&fresh, "upload-offset"), "0");
        assert_eq!(header(&fresh, "upload-length"), bytes.len().to_string());
        assert_eq!(header(&fresh, "cache-control"), "no-store");

        let first = patch(&stack, &key, &location, 0, &bytes[..100_000]).await;
        assert_eq!(first.status(), 204);
        assert_eq!(header(&first, "upload-offset"), "100000");
        // Not where the server is: 409, and the offset to resume from in the detail.
        let stale = patch(&stack, &key, &location, 0, &bytes[..10]).await;
        let body = problem(stale, 409, "upload-offset-mismatch").await;
        assert!(
            body["detail"].as_str().unwrap().contains("100000"),
            "{body}"
        );
        let unfinished = tus(Client::new().get(stack.url(&location)), &key)
            .send()
            .await
            .unwrap();
        problem(unfinished, 409, "upload-incomplete").await;

        let second = patch(&stack, &key, &location, 100_000, &bytes[100_000..250_000]).await;
        assert_eq!(header(&second, "upload-offset"), "250000");
        let last = patch(&stack, &key, &location, 250_000, &bytes[250_000..]).await;
        assert_eq!(last.status(), 204);
        assert_eq!(header(&last, "upload-offset"), bytes.len().to_string());
        assert_eq!(header(&last, "x-ratelimit-remaining"), "99");
        assert!(
            !last.headers().contains_key("upload-expires"),
            "a stored file has its own"
        );

        let stored = tus(Client::new().get(stack.url(&location)), &key)
            .send()
            .await
            .unwrap();
        assert_eq!(stored.status(), 200);
        let file: serde_json::Value = stored.json().await.unwrap();
        assert_eq!(file["success"], true);
        assert_eq!(file["filename"], "report.bin");
        assert_eq!(file["size"], bytes.len());
        assert!(file["expiresAt"].is_string());
        assert_eq!(
            (
                file["maxDownloads"].as_u64(),
                file["downloadsLeft"].as_u64()
            ),
            (Some(2), Some(2))
        );
        let shared = Client::new()
            .get(file["url"].as_str().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(
            shared.headers()["etag"].to_str().unwrap(),
            format!("\"{}\"", digest_of(&bytes))
        );
        assert_eq!(shared.bytes().await.unwrap().to_vec(), bytes);
        // The file keeps the three appends' parts, not a copy of them; a range across them
        // reads on from one part into the next (and uses no download).
        assert_eq!(stack.blob_count().await, 3);
        let across = Client::new()
            .get(file["url"].as_str().unwrap())
            .header("range", "bytes=99990-250009")
            .send()
            .await
            .unwrap();
        assert_eq!(across.status(), 206);
        assert_eq!(
            header(&across, "content-range"),
            format!("bytes 99990-250009/{}", bytes.len())
        );
        assert_eq!(across.bytes().await.unwrap(), &bytes[99_990..250_010]);
        assert_eq!(stack.calls_today(account).await, 1);
        assert_eq!(stack.storage_used(account).await, bytes.len() as i64);
        assert_eq!(stack.file_rows().await, 1);
        // The link took the upload's download limit: one download left, then 410.
        let url = file["url"].as_str().unwrap();
        assert_eq!(Client::new().get(url).send().await.unwrap().status(), 200);
        problem(
            Client::new().get(url).send().await.unwrap(),
            410,
            "file-gone",
        )
        .await;
        // The last download deletes the parts as its answer ends, maybe just after the 410.
        for _ in 0..50 {
            if stack.blob_count().await == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(
            stack.blob_count().await,
            0,
            "the used-up file's parts are deleted"
        );

        // Someone else's upload is not found; a finished one cannot be terminated.
        let (_, stranger) = stack.account_with_key(Plan::Free, "upload").await;
        problem(
            tus(Client::new().get(stack.url(&location)), &stranger)
                .send()
                .await
                .unwrap(),
            404,
            "upload-not-found",
        )
        .await;
        let done = tus(Client::new().delete(stack.url(&location)), &key)
            .send()
            .await
            .unwrap();
        problem(done, 409, "upload-incomplete").await;
    }
);

both_databases!(
    protocol_errors_are_problems_and_termination_frees_the_bytes,
    |db| {
        let stack = Stack::start(db).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let no_version = Client::new()
            .post(stack.url("/api/tus"))
            .bearer_auth(&key)
            .header("upload-length", 10)
            .send()
            .await
            .unwrap();
        assert_eq!(header(&no_version, "tus-version"), "1.0.0");
        problem(no_version, 412, "tus-version-unsupported").await;
        let no_length = tus(Client::new().post(stack.url("/api/tus")), &key)
            .send()
            .await
            .unwrap();
        problem(no_length, 400, "invalid-argument").await;
        problem(create(&stack, &key, 0, "").await, 400, "empty-file").await;
        let huge = create(&stack, &key, 600 * 1024 * 1024, "").await;
        problem(huge, 413, "file-too-large").await;
        let over_quota = create(&stack, &key, 2 * 1024 * 1024 * 1024 - 1, "").await;
        assert_eq!(over_quota.status(), 413);
        let (_, reader) = stack.account_with_key(Plan::Free, "read").await;
        problem(create(&stack, &reader, 10, "").await, 403, "missing-scope").await;
        let bad = tus(Client::new().post(stack.url("/api/tus")), &key)
            .header("upload-length", 10)
            .header("upload-metadata", "filename not-base64!")
            .send()
            .await
            .unwrap();
        problem(bad, 400, "invalid-argument").await;

        let created = create(&stack, &key, 1000, METADATA).await;
        let location = header(&created, "location").to_owned();
        let wrong_type = tus(Client::new().patch(stack.url(&location)), &key)
            .header("content-type", "application/octet-stream")
            .header("upload-offset", 0)
            .body(vec![0; 10])
            .send()
            .await
            .unwrap();
        problem(wrong_type, 415, "unsupported-media-type").await;
        assert_eq!(
            header(
                &patch(&stack, &key, &location, 0, &[1; 400]).await,
                "upload-offset"
            ),
            "400"
        );

        let terminated = tus(Client::new().delete(stack.url(&location)), &key)
            .send()
            .await
            .unwrap();
        assert_eq!(terminated.status(), 204);
        assert_eq!(
            head(&stack, &key, &location).await.status(),
            404,
            "HEAD: no body"
        );
        assert_eq!(stack.calls_today(account).await, 0);
        assert_eq!(stack.blob_count().await, 0);
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_infected_upload_is_refused_at_its_last_byte_and_nothing_is_kept() {
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (account, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let virus = eicar();
    let created = create(&stack, &key, virus.len(), "filename ZWljYXIuY29t").await;
    let location = header(&created, "location").to_owned();
    let half = virus.len() / 2;
    assert_eq!(
        patch(&stack, &key, &location, 0, &virus[..half])
            .await
            .status(),
        204
    );
    let last = patch(&stack, &key, &location, half, &virus[half..]).await;
    problem(last, 422, "virus-found").await;
    assert_eq!(
        head(&stack, &key, &location).await.status(),
        404,
        "HEAD: no body"
    );
    assert_eq!(stack.file_rows().await, 0);
    assert_eq!(stack.storage_used(account).await, 0);
    assert_eq!(stack.blob_count().await, 0);
}

async fn head_offset(stack: &Stack, key: &str, location: &str) -> u64 {
    let response = head(stack, key, location).await;
    header(&response, "upload-offset").parse().unwrap()
}
