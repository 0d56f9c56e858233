//! Encrypted shares, what they refuse: wrong proofs (counted, then the share burned), a
//! challenge answered twice, late or replaced, malformed proofs, uploads that are no share's
//! ciphertext, another account's revocation, and an expired share. The helpers are
//! encrypted.rs's.

use super::*;

both_databases!(wrong_proofs_use_tries_then_delete_the_share, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = ciphertext(10_000, 7);
    let token = shared(
        &stack,
        &key,
        &bytes,
        ",sharePassword MQ==,maxDownloads Mw==",
    )
    .await;
    let facts: Value = info(&stack, &token).await.json().await.unwrap();
    assert_eq!(facts["password"], true);
    assert_eq!(facts["downloadsLeft"], 3);

    let wrong = [0x11u8; 32];
    for left in (1..=4).rev() {
        let refused = prove(&stack, &token, "claim", &wrong).await;
        assert_eq!(
            refused.headers()["x-share-tries-left"],
            left.to_string().as_str()
        );
        let body = problem(refused, 403, "share-secret-wrong").await;
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains(&format!("{left} tr"))
        );
    }
    // A wrong try uses no download: the right proof still opens and claims.
    assert_eq!(
        prove(&stack, &token, "open", &PROOF_KEY).await.status(),
        200
    );
    let claimed = prove(&stack, &token, "claim", &PROOF_KEY).await;
    assert_eq!(claimed.status(), 200);
    assert_eq!(claimed.bytes().await.unwrap().to_vec(), bytes);
    let facts: Value = info(&stack, &token).await.json().await.unwrap();
    assert_eq!(facts["downloadsLeft"], 2);
    assert_eq!(facts["triesLeft"], 1);

    let burned = prove(&stack, &token, "open", &wrong).await;
    let body = problem(burned, 410, "file-gone").await;
    assert!(
        body["detail"].as_str().unwrap().contains("wrong secrets"),
        "{body}"
    );
    wait_gone(&stack, account).await;
    let refused = answer(&stack, &token, "challenge", &json!({})).await;
    problem(refused, 410, "file-gone").await;
});

both_databases!(a_challenge_is_answered_once_and_in_time, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let token = shared(&stack, &key, &ciphertext(1000, 9), ",maxDownloads Mg==").await;

    let nonce = challenge(&stack, &token).await;
    let body = proof(&PROOF_KEY, &nonce);
    assert_eq!(answer(&stack, &token, "open", &body).await.status(), 200);
    problem(
        answer(&stack, &token, "open", &body).await,
        409,
        "share-challenge-stale",
    )
    .await;
    problem(
        answer(&stack, &token, "claim", &body).await,
        409,
        "share-challenge-stale",
    )
    .await;
    // A newer challenge replaces the older one.
    let older = challenge(&stack, &token).await;
    let _newer = challenge(&stack, &token).await;
    problem(
        answer(&stack, &token, "claim", &proof(&PROOF_KEY, &older)).await,
        409,
        "share-challenge-stale",
    )
    .await;
    // None of it used a download or a try.
    let facts: Value = info(&stack, &token).await.json().await.unwrap();
    assert_eq!(
        (facts["downloadsLeft"].as_u64(), facts["triesLeft"].as_u64()),
        (Some(2), Some(5))
    );

    for bad in [
        json!({"nonce": "!!", "proof": "AA"}),
        json!({"nonce": nonce}),
        json!([1]),
    ] {
        problem(
            answer(&stack, &token, "claim", &bad).await,
            400,
            "invalid-argument",
        )
        .await;
    }
    // A plain file's token is no share.
    let plain = Client::new()
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(quire_e2e::file_form("plain.txt", b"plain file".to_vec()))
        .send()
        .await
        .unwrap();
    let plain: Value = plain.json().await.unwrap();
    problem(info(&stack, &token_of(&plain)).await, 404, "file-not-found").await;
    problem(info(&stack, "nosuchtoken").await, 404, "file-not-found").await;
});

both_databases!(what_a_share_is_not_is_refused_and_leaves_nothing, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let good = ciphertext(5000, 11);
    // Two chunks, the second cut to fewer bytes than its tag: no plaintext encrypts to that.
    let cut = ciphertext(70_000, 12)[..31 + 65_552 + 10].to_vec();
    let cases: [(&str, Vec<u8>, String); 5] = [
        (
            "short proof key",
            good.clone(),
            format!(
                "shareProofKey {},shareMetadata {}",
                b64(&[1; 31]),
                b64(SEALED)
            ),
        ),
        (
            "metadata alone",
            good.clone(),
            format!("shareMetadata {}", b64(SEALED)),
        ),
        (
            "metadata too long",
            good.clone(),
            format!(
                "shareProofKey {},shareMetadata {}",
                b64(&PROOF_KEY),
                b64(&[1; 4097])
            ),
        ),
        ("not the format", noise(5000, 12), share_metadata("")),
        ("cut short", cut, share_metadata("")),
    ];
    for (case, bytes, metadata) in cases {
        let refused = send(&stack, &key, &bytes, &metadata).await.expect_err(case);
        problem(refused, 400, "invalid-argument").await;
    }
    assert_eq!(stack.storage_used(account).await, 0);
    assert_eq!(stack.file_rows().await, 0);
});

both_databases!(only_the_sender_sees_and_revokes_a_share, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let (_, other) = stack.account_with_key(Plan::Free, "upload").await;
    let token = shared(&stack, &key, &ciphertext(1000, 13), "").await;
    let mut files = FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let refused = files
        .delete_file(authed(
            DeleteFileRequest {
                token: token.clone(),
            },
            &other,
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::NotFound);
    assert_eq!(info(&stack, &token).await.status(), 200);
    files
        .delete_file(authed(
            DeleteFileRequest {
                token: token.clone(),
            },
            &key,
        ))
        .await
        .unwrap();
    problem(info(&stack, &token).await, 404, "file-not-found").await;
    assert_eq!(stack.storage_used(account).await, 0);
});

both_databases!(an_expired_share_answers_gone, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    // expiresIn 1 (second).
    let token = shared(&stack, &key, &ciphertext(1000, 15), ",expiresIn MQ==").await;
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let body = problem(info(&stack, &token).await, 410, "file-gone").await;
    assert!(body["detail"].as_str().unwrap().contains("expired"));
});
