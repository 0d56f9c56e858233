//! The storage quota and unfinished uploads: a declared length is reserved from creation until
//! the upload is finished, terminated or expired, and open uploads are capped per account.

use super::*;

async fn terminate(stack: &Stack, key: &str, location: &str) -> Response {
    tus(Client::new().delete(stack.url(location)), key)
        .send()
        .await
        .unwrap()
}

/// The resumable uploads' parts in the store.
async fn parts_stored(stack: &Stack) -> usize {
    use futures::TryStreamExt;
    let prefix = object_store::path::Path::from("resumable");
    let listed: Vec<_> = stack
        .core
        .store
        .list(Some(&prefix))
        .try_collect()
        .await
        .unwrap();
    listed.len()
}

/// Makes every resumable upload's expiry a second ago.
async fn expire_uploads(stack: &Stack) {
    use quire_core::db::resumable_upload;
    use sea_orm::{EntityTrait, sea_query::Expr};
    let past = chrono::Utc::now() - chrono::Duration::seconds(1);
    resumable_upload::Entity::update_many()
        .col_expr(resumable_upload::Column::ExpiresAt, Expr::value(past))
        .exec(&stack.core.db)
        .await
        .unwrap();
}

// The probe's case scaled down: four uploads of 500 on a quota of 1024 (four of 500 MiB on
// 1 GiB). Each reserves its length when it is created, so the third is refused, a plain
// upload cannot take the reserved room either, and the reservation becomes the file's storage
// when the upload finishes.
both_databases!(
    uploads_reserve_their_length_in_the_storage_quota_at_creation,
    |db| {
        let config = quire_e2e::test_config(&["--free-storage-quota", "1024"]);
        let stack = Stack::start_with(db, config).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let first = create(&stack, &key, 500, METADATA).await;
        assert_eq!(first.status(), 201);
        let first = header(&first, "location").to_owned();
        let second = create(&stack, &key, 500, METADATA).await;
        assert_eq!(second.status(), 201);
        let second = header(&second, "location").to_owned();
        for _ in 0..2 {
            let body = problem(
                create(&stack, &key, 500, METADATA).await,
                413,
                "storage-quota-exceeded",
            )
            .await;
            let detail = body["detail"].as_str().unwrap();
            assert!(
                detail.contains("1000 reserved by 2 unfinished resumable upload(s)")
                    && detail.contains("1024")
                    && detail.contains("DELETE /api/tus/"),
                "{detail}"
            );
        }
        assert_eq!(stack.storage_figures(account).await, (1000, 1000));
        let plain = Client::new()
            .post(stack.url("/api/upload"))
            .bearer_auth(&key)
            .multipart(quire_e2e::file_form("n.bin", noise(100, 1)))
            .send()
            .await
            .unwrap();
        problem(plain, 413, "storage-quota-exceeded").await;

        // Finishing turns the reservation into the file's storage: the room stays taken.
        let bytes = noise(500, 5);
        assert_eq!(
            patch(&stack, &key, &first, 0, &bytes[..200]).await.status(),
            204
        );
        assert_eq!(stack.storage_figures(account).await, (1000, 1000));
        let last = patch(&stack, &key, &first, 200, &bytes[200..]).await;
        assert_eq!(last.status(), 204);
        assert_eq!(stack.storage_used(account).await, 500);
        assert_eq!(stack.storage_figures(account).await, (1000, 500));
        problem(
            create(&stack, &key, 500, METADATA).await,
            413,
            "storage-quota-exceeded",
        )
        .await;

        // Terminating gives the room back.
        assert_eq!(terminate(&stack, &key, &second).await.status(), 204);
        assert_eq!(stack.storage_figures(account).await, (500, 0));
        assert_eq!(create(&stack, &key, 500, METADATA).await.status(), 201);
        problem(
            create(&stack, &key, 25, METADATA).await,
            413,
            "storage-quota-exceeded",
        )
        .await;
        assert_eq!(create(&stack, &key, 24, METADATA).await.status(), 201);
    }
);

// Twenty creations of 100 race for a quota of 1000: exactly ten fit, whichever they are.
both_databases!(
    concurrent_creations_cannot_share_the_last_free_bytes,
    |db| {
        let config =
            quire_e2e::test_config(&["--free-storage-quota", "1000", "--free-open-uploads", "100"]);
        let stack = Stack::start_with(db, config).await;
        let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
        let creations = (0..20).map(|_| create(&stack, &key, 100, ""));
        let mut statuses: Vec<u16> = futures::future::join_all(creations)
            .await
            .iter()
            .map(|r| r.status().as_u16())
            .collect();
        statuses.sort();
        assert_eq!(statuses, [[201u16; 10], [413u16; 10]].concat());
        assert_eq!(stack.storage_figures(account).await, (1000, 1000));
    }
);

// A plan allows so many unfinished uploads at once; finished and terminated ones do not
// count, another account has its own, and another account cannot reach an upload at all.
both_databases!(the_open_uploads_cap_counts_unfinished_uploads, |db| {
    let config = quire_e2e::test_config(&["--free-open-uploads", "3"]);
    let stack = Stack::start_with(db, config).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let mut open = Vec::new();
    for _ in 0..3 {
        let created = create(&stack, &key, 10, METADATA).await;
        assert_eq!(created.status(), 201);
        open.push(header(&created, "location").to_owned());
    }
    let body = problem(
        create(&stack, &key, 10, METADATA).await,
        429,
        "too-many-open-uploads",
    )
    .await;
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("3 unfinished")
            && detail.contains("allows 3")
            && detail.contains("DELETE /api/tus/<id>"),
        "{detail}"
    );

    let (_, stranger) = stack.account_with_key(Plan::Free, "upload").await;
    assert_eq!(create(&stack, &stranger, 10, METADATA).await.status(), 201);
    problem(
        patch(&stack, &stranger, &open[0], 0, &[1; 10]).await,
        404,
        "upload-not-found",
    )
    .await;
    problem(
        terminate(&stack, &stranger, &open[0]).await,
        404,
        "upload-not-found",
    )
    .await;
    assert_eq!(head(&stack, &stranger, &open[0]).await.status(), 404);
    assert_eq!(head_offset(&stack, &key, &open[0]).await, 0);

    assert_eq!(terminate(&stack, &key, &open[0]).await.status(), 204);
    assert_eq!(create(&stack, &key, 10, METADATA).await.status(), 201);
    problem(
        create(&stack, &key, 10, METADATA).await,
        429,
        "too-many-open-uploads",
    )
    .await;
    let finished = patch(&stack, &key, &open[1], 0, &noise(10, 2)).await;
    assert_eq!(finished.status(), 204);
    assert_eq!(create(&stack, &key, 10, METADATA).await.status(), 201);
});

// An upload that expires stops reserving at once, and the sweeper deletes its bytes.
both_databases!(an_expired_upload_releases_its_reservation, |db| {
    let config = quire_e2e::test_config(&["--free-storage-quota", "1000"]);
    let stack = Stack::start_with(db, config).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let created = create(&stack, &key, 800, METADATA).await;
    let location = header(&created, "location").to_owned();
    assert_eq!(
        patch(&stack, &key, &location, 0, &noise(300, 4))
            .await
            .status(),
        204
    );
    problem(
        create(&stack, &key, 800, METADATA).await,
        413,
        "storage-quota-exceeded",
    )
    .await;

    expire_uploads(&stack).await;
    assert_eq!(stack.storage_figures(account).await, (0, 0));
    assert_eq!(head(&stack, &key, &location).await.status(), 404);
    // Its part waits for the sweeper; the stack's own sweep (one at start-up, then every
    // minute) may already have run on a loaded machine, so only the end state is asserted.
    assert!(parts_stored(&stack).await <= 1);
    quire_core::resumable::sweep(&stack.core, chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(parts_stored(&stack).await, 0);
    let again = create(&stack, &key, 800, METADATA).await;
    assert_eq!(again.status(), 201);
    assert_eq!(stack.storage_figures(account).await, (800, 800));
});

// A finished upload's file keeps the upload's parts as its bytes: the upload's expiry and the
// sweeper that forgets it leave them alone, and the file's deletion removes them.
both_databases!(a_finished_uploads_parts_become_its_files, |db| {
    use quire_proto::v1::{DeleteFileRequest, file_service_client::FileServiceClient};
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = noise(5000, 9);
    let created = create(&stack, &key, bytes.len(), METADATA).await;
    let location = header(&created, "location").to_owned();
    for (from, to) in [(0, 1000), (1000, 4000), (4000, 5000)] {
        let patched = patch(&stack, &key, &location, from, &bytes[from..to]).await;
        assert_eq!(patched.status(), 204);
    }
    let file: serde_json::Value = tus(Client::new().get(stack.url(&location)), &key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(parts_stored(&stack).await, 3);

    expire_uploads(&stack).await;
    quire_core::resumable::sweep(&stack.core, chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(parts_stored(&stack).await, 3, "the file's bytes stay");
    let url = file["url"].as_str().unwrap();
    let read = Client::new().get(url).send().await.unwrap();
    assert_eq!(read.bytes().await.unwrap(), bytes);

    let mut files = FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let token = url.rsplit('/').next().unwrap().to_owned();
    files
        .delete_file(quire_e2e::authed(DeleteFileRequest { token }, &key))
        .await
        .unwrap();
    assert_eq!(parts_stored(&stack).await, 0);
    assert_eq!(stack.storage_figures(account).await, (0, 0));
});

// A refusal at the last byte that may pass later (here clamd down) leaves the parts with the
// upload, not with the file that was being made of them: the bytes stay for a retry.
both_databases!(a_scanner_down_at_the_last_byte_keeps_the_parts, |db| {
    // Nothing listens on port 9 of the loopback: clamd is unreachable.
    let config = quire_e2e::test_config(&["--clamd", "tcp://127.0.0.1:9", "--clamd-timeout", "2"]);
    let stack = Stack::start_with(db, config).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = noise(3000, 10);
    let created = create(&stack, &key, bytes.len(), METADATA).await;
    let location = header(&created, "location").to_owned();
    assert_eq!(
        patch(&stack, &key, &location, 0, &bytes[..1000])
            .await
            .status(),
        204
    );
    let last = patch(&stack, &key, &location, 1000, &bytes[1000..]).await;
    problem(last, 503, "scanner-unavailable").await;
    assert_eq!(parts_stored(&stack).await, 2);
    assert_eq!(stack.file_rows().await, 0);
    assert_eq!(head_offset(&stack, &key, &location).await, 3000);
    assert_eq!(stack.storage_figures(account).await, (3000, 3000));
});
