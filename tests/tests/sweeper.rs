//! What a crash leaves (an unfinished upload row, storage reserved for a commit that never
//! finished) is removed by the sweeper once older than the upload timeout, and the storage
//! given back; younger unfinished uploads, which may still be streaming, are left alone.

use chrono::{Duration, Utc};
use quire_core::{
    db::file::{self, STATE_COMMITTING, STATE_PENDING},
    files::sweeper,
    quota::{Plan, storage},
};
use quire_e2e::{Stack, both_databases};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, TransactionTrait};

async fn unfinished(stack: &Stack, account: i64, state: &str, size: i64, age: Duration) {
    let token = quire_core::files::names::new_token();
    file::ActiveModel {
        token: Set(token.clone()),
        account_id: Set(account),
        key_id: Set(None),
        filename: Set("crashed.bin".into()),
        mime_type: Set("application/octet-stream".into()),
        size: Set(size),
        digest: Set(String::new()),
        blob_key: Set(format!("files/{token}")),
        state: Set(state.into()),
        created_at: Set(Utc::now() - age),
        expires_at: Set(None),
        downloads: Set(0),
        ..Default::default()
    }
    .insert(&stack.core.db)
    .await
    .unwrap();
}

both_databases!(sweeper_removes_what_a_crash_left_behind, |db| {
    let stack = Stack::start_with(db, quire_e2e::test_config(&["--upload-timeout", "60"])).await;
    let (account, _) = stack.account_with_key(Plan::Free, "upload").await;
    // A crash after the reservation: 500 bytes reserved for a commit that never finished.
    let txn = stack.core.db.begin().await.unwrap();
    storage::reserve(&txn, &stack.core.config, account, 500, None)
        .await
        .unwrap();
    txn.commit().await.unwrap();
    unfinished(&stack, account, STATE_COMMITTING, 500, Duration::minutes(5)).await;
    unfinished(&stack, account, STATE_PENDING, 0, Duration::minutes(5)).await;
    // Still within the upload timeout: maybe streaming into another replica right now.
    unfinished(&stack, account, STATE_PENDING, 0, Duration::seconds(5)).await;

    // The stack's own sweeper may be removing the same rows at this moment: whoever wins, the
    // end state must come within a moment.
    let (expired, _) = sweeper::sweep_once(&stack.core).await.unwrap();
    assert_eq!(expired, 0);
    for _ in 0..100 {
        if stack.file_rows().await == 1 && stack.storage_used(account).await == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!(
        "left: {} rows, {} bytes reserved",
        stack.file_rows().await,
        stack.storage_used(account).await
    );
});
