//! The S3 blob store end to end: uploads (plain and tus), downloads with ranges, scans and the
//! sweeper, on PostgreSQL with blobs in a bucket of moto's S3 server.

use std::time::Duration;

use object_store::{ObjectStoreExt, path::Path};
use quire_core::quota::Plan;
use quire_e2e::{
    Db, S3Server, Stack, eicar, file_form, fresh_postgres_database, noise, problem, test_config,
};
use reqwest::Client;

/// One core on a fresh database with its blobs in `bucket` of `s3`, so that the bucket holds
/// only what this test's calls made.
async fn stack_on_s3(s3: &S3Server, bucket: &str, extra: &[&str]) -> Stack {
    let bucket = s3.bucket(bucket).await;
    Stack::start_on(
        Db::Postgres,
        s3.store_in(test_config(extra), &bucket, "quire"),
        Some(fresh_postgres_database().await),
    )
    .await
}

async fn upload(stack: &Stack, key: &str, bytes: Vec<u8>) -> reqwest::Response {
    Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(key)
        .multipart(file_form("data.bin", bytes))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_file_goes_to_the_bucket_whole_and_comes_back_by_range() {
    let s3 = S3Server::start().await;
    let stack = stack_on_s3(&s3, "files", &[]).await;
    let (account, key) = stack.account_with_key(Plan::Pro, "upload").await;
    // Over two S3 parts of 5 MiB and a tail.
    let bytes = noise(12 * 1024 * 1024 + 77, 3);
    let response = upload(&stack, &key, bytes.clone()).await;
    assert_eq!(response.status(), 201);
    let body: serde_json::Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap();
    assert_eq!(
        s3.keys("files").await,
        [format!("quire/files/{token}")],
        "the object, under the prefix, and no marker left"
    );
    assert_eq!(s3.open_uploads("files").await, Vec::<String>::new());
    assert_eq!(stack.storage_used(account).await, bytes.len() as i64);

    let link = body["url"].as_str().unwrap();
    let whole = Client::new().get(link).send().await.unwrap();
    assert_eq!(whole.status(), 200);
    assert!(whole.bytes().await.unwrap() == bytes, "the same bytes back");
    let part = Client::new()
        .get(link)
        .header("range", "bytes=5242870-5242889")
        .send()
        .await
        .unwrap();
    assert_eq!(part.status(), 206);
    assert_eq!(
        part.headers()["content-range"],
        format!("bytes 5242870-5242889/{}", bytes.len())
    );
    assert_eq!(
        part.bytes().await.unwrap(),
        bytes[5_242_870..5_242_890],
        "across a part boundary"
    );
}

#[tokio::test]
async fn a_virus_leaves_no_object_and_no_open_upload() {
    let s3 = S3Server::start().await;
    let stack = stack_on_s3(&s3, "scanned", &[]).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    // EICAR after 6 MiB: one part is already in S3 when the scan's verdict comes.
    let mut bytes = noise(6 * 1024 * 1024, 4);
    bytes.extend(eicar());
    problem(upload(&stack, &key, bytes).await, 422, "virus-found").await;
    assert_eq!(s3.keys("scanned").await, Vec::<String>::new());
    assert_eq!(s3.open_uploads("scanned").await, Vec::<String>::new());
    assert_eq!(stack.storage_used(account).await, 0);
    assert_eq!(stack.file_rows().await, 0);
}

#[tokio::test]
async fn a_tus_upload_resumes_into_the_bucket() {
    let s3 = S3Server::start().await;
    let stack = stack_on_s3(&s3, "resumable", &[]).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let bytes = noise(7 * 1024 * 1024 + 5, 5);
    let tus = |request: reqwest::RequestBuilder| {
        request.bearer_auth(&key).header("tus-resumable", "1.0.0")
    };
    let created = tus(Client::new().post(stack.url("/api/tus")))
        .header("upload-length", bytes.len())
        .header("upload-metadata", "filename ZGF0YS5iaW4=")
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let location = created.headers()["location"].to_str().unwrap().to_owned();
    let cut = 6 * 1024 * 1024 + 1;
    for (offset, piece) in [(0, &bytes[..cut]), (cut, &bytes[cut..])] {
        let patched = tus(Client::new().patch(stack.url(&location)))
            .header("content-type", "application/offset+octet-stream")
            .header("upload-offset", offset)
            .body(piece.to_vec())
            .send()
            .await
            .unwrap();
        assert_eq!(patched.status(), 204, "{}", patched.text().await.unwrap());
        // The parts are named by the open upload, then by its file: never orphans, however old.
        assert_eq!(sweep_orphans(&stack, Duration::ZERO).await, 0);
    }
    // The file is its parts, handed over as they are: both in the bucket, under the prefix.
    let keys = s3.keys("resumable").await;
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(
        keys.iter().all(|k| k.starts_with("quire/resumable/")),
        "{keys:?}"
    );
    assert_eq!(s3.open_uploads("resumable").await, Vec::<String>::new());
    let stored: serde_json::Value = tus(Client::new().get(stack.url(&location)))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let back = Client::new()
        .get(stored["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(back == bytes, "the same bytes back, across the two parts");
}

/// A process killed mid-upload leaves S3 a multipart upload with parts and no completion; its
/// marker lets the sweeper find and abort it once older than the upload timeout.
#[tokio::test]
async fn the_sweeper_aborts_a_multipart_upload_a_crash_left_open() {
    let s3 = S3Server::start().await;
    // The stack's own sweeper runs once as it starts: the timeout leaves it well behind the
    // upload below even on a loaded machine (with 1 s, it once aborted the upload while its
    // part was still being sent).
    let stack = stack_on_s3(&s3, "crashed", &["--upload-timeout", "3"]).await;
    let mut writer = stack.core.store.writer("files/crashed").await.unwrap();
    writer.put(noise(6 * 1024 * 1024, 6).into());
    writer.wait_for_capacity(0).await.unwrap();
    // The process dies here: nothing completes or aborts the upload.
    std::mem::forget(writer);
    assert_eq!(s3.open_uploads("crashed").await, ["quire/files/crashed"]);
    assert_eq!(s3.keys("crashed").await.len(), 1, "its marker");

    tokio::time::sleep(Duration::from_millis(3500)).await;
    quire_core::files::sweeper::sweep_once(&stack.core)
        .await
        .unwrap();
    assert_eq!(s3.open_uploads("crashed").await, Vec::<String>::new());
    assert_eq!(
        s3.keys("crashed").await,
        Vec::<String>::new(),
        "the marker gone too"
    );
}

async fn sweep_orphans(stack: &Stack, older_than: Duration) -> usize {
    quire_core::files::orphans::sweep(&stack.core, older_than)
        .await
        .unwrap()
}

/// What a crash between writing a blob and recording it, or a failed delete, leaves: blobs no
/// row names, deleted by the sweep once older than the upload timeout. A stored file's blob,
/// a blob too young to judge and the store's own markers stay.
#[tokio::test]
async fn blobs_no_row_names_are_swept_once_old_enough() {
    let s3 = S3Server::start().await;
    let stack = stack_on_s3(&s3, "orphans", &[]).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let response = upload(&stack, &key, noise(1000, 7)).await;
    assert_eq!(response.status(), 201);
    let body: serde_json::Value = response.json().await.unwrap();
    let token = body["token"].as_str().unwrap();
    let put = |key: &'static str| {
        let store = stack.core.store.clone();
        async move {
            store
                .put(&Path::from(key), noise(100, 8).into())
                .await
                .unwrap();
        }
    };
    for orphan in ["files/lost", "resumable/lost/000000", "idempotency/lost"] {
        put(orphan).await;
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    put("files/young").await;
    assert_eq!(sweep_orphans(&stack, Duration::from_secs(1)).await, 3);
    let mut keys = s3.keys("orphans").await;
    keys.sort();
    let mut expected = vec![
        format!("quire/files/{token}"),
        "quire/files/young".to_owned(),
    ];
    expected.sort();
    assert_eq!(keys, expected);
    // The file's row is what names its blob: without it, the blob is an orphan too.
    assert_eq!(
        sweep_orphans(&stack, Duration::ZERO).await,
        1,
        "files/young"
    );
}
