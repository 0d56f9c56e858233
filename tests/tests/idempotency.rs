//! `Idempotency-Key` on the POST endpoints, over real HTTP: a retry gets the first answer again
//! (no second upload, no second charge), another request with the key gets 422, a retry while
//! the first still runs gets 409, and a failed first request keeps nothing.

use std::time::Duration;

use bytes::Bytes;
use object_store::ObjectStoreExt;
use quire_core::{db::idempotency_key, quota::Plan};
use quire_e2e::{Stack, both_databases, file_form, pdf_fixtures::text_pdf, problem};
use reqwest::{Client, Response, multipart::Form};
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

async fn post(stack: &Stack, key: &str, path: &str, idem: &str, form: Form) -> Response {
    Client::new()
        .post(stack.url(path))
        .bearer_auth(key)
        .header("idempotency-key", idem)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

both_databases!(
    a_retried_upload_gets_the_first_answer_and_is_counted_once,
    |db| {
        let stack = Stack::start(db).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let bytes = b"the same report, sent twice".to_vec();
        // The draft's Structured Field form, and the bare form most clients send.
        let idem = "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"";
        let first = post(
            &stack,
            &key,
            "/api/upload",
            idem,
            file_form("r.txt", bytes.clone()),
        )
        .await;
        assert_eq!(first.status(), 201);
        assert!(!first.headers().contains_key("idempotent-replayed"));
        let first: serde_json::Value = first.json().await.unwrap();

        let bare = "8e03978e-40d5-43e8-bc93-6894a57f9324";
        let again = post(
            &stack,
            &key,
            "/api/upload",
            bare,
            file_form("r.txt", bytes.clone()),
        )
        .await;
        assert_eq!(again.status(), 201);
        assert_eq!(again.headers()["idempotent-replayed"], "true");
        // Not counted, so no figures from the first call's quota.
        assert!(!again.headers().contains_key("x-ratelimit-remaining"));
        let again: serde_json::Value = again.json().await.unwrap();
        assert_eq!(again, first, "the same file, token and share link");

        assert_eq!(stack.calls_today(account).await, 1);
        assert_eq!(stack.file_rows().await, 1);
        assert_eq!(stack.storage_used(account).await, bytes.len() as i64);

        // The same key with another file, or on another endpoint: 422, nothing charged.
        let other = post(
            &stack,
            &key,
            "/api/upload",
            bare,
            file_form("r.txt", b"other".to_vec()),
        )
        .await;
        problem(other, 422, "idempotency-key-reused").await;
        let renamed = post(
            &stack,
            &key,
            "/api/upload",
            bare,
            file_form("s.txt", bytes.clone()),
        )
        .await;
        problem(renamed, 422, "idempotency-key-reused").await;
        let ocr = post(
            &stack,
            &key,
            "/api/v1/process/ocr",
            bare,
            file_form("r.txt", bytes.clone()),
        )
        .await;
        problem(ocr, 422, "idempotency-key-reused").await;
        assert_eq!(stack.calls_today(account).await, 1);
        assert_eq!(stack.file_rows().await, 1);

        // Keys belong to an account: another account's same key is a new request.
        let (_, stranger) = stack.account_with_key(Plan::Free, "upload").await;
        let theirs = post(
            &stack,
            &stranger,
            "/api/upload",
            bare,
            file_form("r.txt", bytes),
        )
        .await;
        assert_eq!(theirs.status(), 201);
        assert!(!theirs.headers().contains_key("idempotent-replayed"));
    }
);

both_databases!(a_retry_while_the_first_request_runs_gets_409, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Pro, "upload").await;
    // The first upload's body stays open until the second request has had its answer.
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    let body = reqwest::Body::wrap_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    let part = reqwest::multipart::Part::stream(body).file_name("slow.bin");
    let slow = tokio::spawn({
        let (url, key) = (stack.url("/api/upload"), key.clone());
        async move {
            Client::new()
                .post(url)
                .bearer_auth(key)
                .header("idempotency-key", "slow-1")
                .multipart(Form::new().part("file", part))
                .send()
                .await
                .unwrap()
        }
    });
    tx.send(Ok(Bytes::from(vec![b'a'; 64 * 1024])))
        .await
        .unwrap();
    // Wait until the first request holds its key.
    let db = stack.core.db.clone();
    let mut claimed = false;
    for _ in 0..200 {
        let running = idempotency_key::Entity::find()
            .filter(idempotency_key::Column::State.eq("running"))
            .count(&db)
            .await
            .unwrap();
        if running == 1 {
            claimed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(claimed, "the first upload claims its key as it starts");
    let conflict = post(
        &stack,
        &key,
        "/api/upload",
        "slow-1",
        file_form("x", b"x".to_vec()),
    )
    .await;
    assert_eq!(conflict.headers()["retry-after"], "2");
    problem(conflict, 409, "idempotency-key-in-use").await;

    tx.send(Ok(Bytes::from(vec![b'b'; 1024]))).await.unwrap();
    drop(tx);
    let first = slow.await.unwrap();
    assert_eq!(first.status(), 201);
    assert_eq!(stack.storage_used(account).await, 64 * 1024 + 1024);
});

// A key whose first request was running on a core replica that has died since is free again:
// the retry runs (as that call was given back), instead of 409 until the longest a request may
// run has passed. A key running on a live replica still gets 409.
both_databases!(
    a_key_left_running_by_a_dead_replica_is_claimed_afresh,
    |db| {
        use quire_core::quota::replicas;
        use sea_orm::{ActiveModelTrait, ActiveValue::Set};
        let stack = Stack::start(db).await;
        let (account, key) = stack.account_with_key(Plan::Pro, "upload").await;
        let now = chrono::Utc::now();
        let dead_after = chrono::Duration::from_std(replicas::DEAD_AFTER).unwrap();
        let started = now - dead_after - chrono::Duration::seconds(5);
        replicas::beat(&stack.core.db, "alive", now).await.unwrap();
        for (idem, replica) in [("on-dead", "dead"), ("on-alive", "alive")] {
            idempotency_key::ActiveModel {
                account_id: Set(account),
                key: Set(idem.to_owned()),
                state: Set("running".to_owned()),
                fingerprint: Set(String::new()),
                response: Set(None),
                metadata: Set(String::new()),
                body_key: Set(None),
                body_size: Set(0),
                created_at: Set(started),
                expires_at: Set(now + chrono::Duration::hours(1)),
                replica: Set(Some(replica.to_owned())),
                ..Default::default()
            }
            .insert(&stack.core.db)
            .await
            .unwrap();
        }
        let form = || file_form("r.txt", b"sent again".to_vec());
        let retried = post(&stack, &key, "/api/upload", "on-dead", form()).await;
        assert_eq!(retried.status(), 201);
        let waiting = post(&stack, &key, "/api/upload", "on-alive", form()).await;
        problem(waiting, 409, "idempotency-key-in-use").await;
    }
);

both_databases!(
    a_failed_first_request_keeps_nothing_and_its_retry_runs,
    |db| {
        let stack = Stack::start(db).await;
        let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
        let form = || {
            Form::new().part(
                "file",
                reqwest::multipart::Part::bytes(b"not a pdf".to_vec()).file_name("a.pdf"),
            )
        };
        let refused = post(
            &stack,
            &key,
            "/api/v1/process/compress-pdf",
            "k-fail",
            form(),
        )
        .await;
        problem(refused, 400, "unsupported-file-type").await;
        // At once: the key was let go before the error went out.
        let pdf = text_pdf(&[&["retry me"]], (595.0, 842.0));
        let retried = post(
            &stack,
            &key,
            "/api/v1/process/compress-pdf",
            "k-fail",
            file_form("a.pdf", pdf),
        )
        .await;
        assert_eq!(retried.status(), 200);
        assert!(!retried.headers().contains_key("idempotent-replayed"));
    }
);

both_databases!(a_retried_compression_gets_the_same_file_again, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let pdf = text_pdf(&[&["kept answers"], &["second page"]], (595.0, 842.0));
    let form = || file_form("doc.pdf", pdf.clone()).text("quality", "screen");
    let first = post(&stack, &key, "/api/v1/process/compress-pdf", "c-1", form()).await;
    assert_eq!(first.status(), 200);
    let headers = first.headers().clone();
    let first = first.bytes().await.unwrap();

    let again = post(&stack, &key, "/api/v1/process/compress-pdf", "c-1", form()).await;
    assert_eq!(again.status(), 200);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    for name in [
        "x-original-size",
        "x-compressed-size",
        "x-savings-percent",
        "content-type",
    ] {
        assert_eq!(again.headers()[name], headers[name], "{name}");
    }
    assert_eq!(again.bytes().await.unwrap(), first);
    assert_eq!(stack.calls_today(account).await, 1);

    // The same file at another quality is another request.
    let other = file_form("doc.pdf", pdf.clone()).text("quality", "printer");
    let other = post(&stack, &key, "/api/v1/process/compress-pdf", "c-1", other).await;
    problem(other, 422, "idempotency-key-reused").await;

    // pdf-to-images: a ZIP kept and sent again, byte for byte.
    let zip_form = || file_form("doc.pdf", pdf.clone()).text("dpi", "72");
    let zip = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        "z-1",
        zip_form(),
    )
    .await;
    assert_eq!(zip.status(), 200);
    let zip = zip.bytes().await.unwrap();
    let zip_again = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        "z-1",
        zip_form(),
    )
    .await;
    assert_eq!(zip_again.headers()["x-page-count"], "2");
    assert_eq!(zip_again.bytes().await.unwrap(), zip);
    assert_eq!(stack.calls_today(account).await, 2);
});

#[tokio::test]
async fn support_and_ocr_answers_are_kept_and_bad_keys_refused() {
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let ticket = serde_json::json!({"rawLog": "user bob@example.com cannot log in from 10.0.0.7"});
    let send = |idem: &'static str, ticket: serde_json::Value| {
        Client::new()
            .post(stack.url("/api/workflows/support/auto"))
            .bearer_auth(&key)
            .header("idempotency-key", idem)
            .json(&ticket)
            .send()
    };
    let first = send("s-1", ticket.clone()).await.unwrap();
    assert_eq!(first.status(), 200);
    let first: serde_json::Value = first.json().await.unwrap();
    let again = send("s-1", ticket).await.unwrap();
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(again.json::<serde_json::Value>().await.unwrap(), first);
    let other = send("s-1", serde_json::json!({"rawLog": "another ticket"}))
        .await
        .unwrap();
    problem(other, 422, "idempotency-key-reused").await;
    assert_eq!(stack.calls_today(account).await, 1);

    let long = "k".repeat(256);
    let refused = Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .header("idempotency-key", long)
        .multipart(file_form("a.txt", b"a".to_vec()))
        .send()
        .await
        .unwrap();
    problem(refused, 400, "invalid-idempotency-key").await;
    assert_eq!(
        stack.calls_today(account).await,
        1,
        "a refused key is not counted"
    );
}

#[tokio::test]
async fn expired_keys_are_swept_with_their_kept_files() {
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let pdf = text_pdf(&[&["swept"]], (595.0, 842.0));
    let form = || file_form("doc.pdf", pdf.clone());
    let first = post(&stack, &key, "/api/v1/process/compress-pdf", "old", form()).await;
    assert_eq!(first.status(), 200);
    let row = idempotency_key::Entity::find()
        .one(&stack.core.db)
        .await
        .unwrap()
        .expect("kept answer");
    let body_key = row.body_key.clone().expect("a kept file");
    let store = stack.core.store.clone();
    let path = object_store::path::Path::from(body_key.as_str());
    assert!(store.head(&path).await.is_ok());

    let now = chrono::Utc::now();
    assert_eq!(
        quire_core::idempotency::ledger::sweep(&stack.core, now)
            .await
            .unwrap(),
        0
    );
    let later = now + chrono::Duration::hours(25);
    assert_eq!(
        quire_core::idempotency::ledger::sweep(&stack.core, later)
            .await
            .unwrap(),
        1
    );
    assert!(
        idempotency_key::Entity::find()
            .one(&stack.core.db)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store.head(&path).await.is_err(),
        "the kept file goes with its row"
    );
}
