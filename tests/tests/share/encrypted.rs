//! End-to-end encrypted shares, the server's side, over real HTTP and gRPC: what the sender's
//! page uploads (tus with a seal) is stored as sent, unscanned, counted in the quotas; the
//! recipient's routes change nothing until a proof of the secret answers a challenge; a
//! one-time share is claimed once however many ask at once; wrong proofs burn the share; the
//! last download, a burn or the expiry deletes the ciphertext at once. The browser's side
//! (encryption, the pages) is tests/web/share.test.mjs.

use base64::{Engine, engine::general_purpose::STANDARD, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use quire_core::quota::Plan;
use quire_e2e::{Stack, authed, both_databases, noise, problem};
use quire_proto::v1::{
    ChallengeShareRequest, ClaimShareRequest, DeleteFileRequest, GetFileRequest, GetShareRequest,
    ShareProof, claim_share_response::Payload, file_service_client::FileServiceClient,
    share_service_client::ShareServiceClient,
};
use reqwest::{Client, Response};
use serde_json::{Value, json};
use sha2::Sha256;

#[path = "encrypted_refusals.rs"]
mod refusals;

const PROOF_KEY: [u8; 32] = [0x5a; 32];
const SEALED: &[u8] = b"sealed metadata: the page encrypts name, type and size";

/// Bytes shaped as the format's output for `plain` bytes of plaintext (header, 64 KiB chunks
/// with their tags): the server cannot tell them from real ciphertext, which is the point.
fn ciphertext(plain: usize, seed: u64) -> Vec<u8> {
    let chunks = plain.div_ceil(65536).max(1);
    let mut bytes = b"QSH1".to_vec();
    bytes.extend_from_slice(&65536u32.to_be_bytes());
    bytes.extend_from_slice(&noise(23, seed + 1));
    bytes.extend_from_slice(&noise(plain + 16 * chunks, seed));
    bytes
}

fn b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// The tus metadata of a share with `extra` pairs.
fn share_metadata(extra: &str) -> String {
    format!(
        "shareProofKey {},shareMetadata {}{extra}",
        b64(&PROOF_KEY),
        b64(SEALED)
    )
}

/// Creates and sends a share through tus; the stored file's JSON (as GET /api/tus/{id}).
async fn send(stack: &Stack, key: &str, bytes: &[u8], metadata: &str) -> Result<Value, Response> {
    send_in(stack, key, bytes, metadata, &[]).await
}

/// As [`send`], in one PATCH per piece between the offsets `cuts`.
async fn send_in(
    stack: &Stack,
    key: &str,
    bytes: &[u8],
    metadata: &str,
    cuts: &[usize],
) -> Result<Value, Response> {
    let client = Client::new();
    let created = client
        .post(stack.url("/api/tus"))
        .bearer_auth(key)
        .header("tus-resumable", "1.0.0")
        .header("upload-length", bytes.len())
        .header("upload-metadata", metadata)
        .send()
        .await
        .unwrap();
    if created.status() != 201 {
        return Err(created);
    }
    let location = created.headers()["location"].to_str().unwrap().to_owned();
    let ends = cuts.iter().copied().chain([bytes.len()]);
    let mut from = 0;
    for to in ends {
        let patched = client
            .patch(stack.url(&location))
            .bearer_auth(key)
            .header("tus-resumable", "1.0.0")
            .header("content-type", "application/offset+octet-stream")
            .header("upload-offset", from)
            .body(bytes[from..to].to_vec())
            .send()
            .await
            .unwrap();
        if patched.status() != 204 {
            return Err(patched);
        }
        from = to;
    }
    let file = client
        .get(stack.url(&location))
        .bearer_auth(key)
        .header("tus-resumable", "1.0.0")
        .send()
        .await
        .unwrap();
    assert_eq!(file.status(), 200);
    Ok(file.json().await.unwrap())
}

async fn info(stack: &Stack, token: &str) -> Response {
    Client::new()
        .get(stack.url(&format!("/s/{token}/info")))
        .send()
        .await
        .unwrap()
}

async fn challenge(stack: &Stack, token: &str) -> String {
    let answer = Client::new()
        .post(stack.url(&format!("/s/{token}/challenge")))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    answer.json::<Value>().await.unwrap()["nonce"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn hmac(key: &[u8], nonce: &[u8]) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap();
    mac.update(nonce);
    mac.finalize().into_bytes().to_vec()
}

/// The page's answer to `nonce` with `key`.
fn proof(key: &[u8], nonce: &str) -> Value {
    let raw = URL_SAFE_NO_PAD.decode(nonce).unwrap();
    json!({ "nonce": nonce, "proof": URL_SAFE_NO_PAD.encode(hmac(key, &raw)) })
}

async fn answer(stack: &Stack, token: &str, what: &str, body: &Value) -> Response {
    Client::new()
        .post(stack.url(&format!("/s/{token}/{what}")))
        .json(body)
        .send()
        .await
        .unwrap()
}

/// A fresh challenge answered with `key` at `/s/{token}/{what}`.
async fn prove(stack: &Stack, token: &str, what: &str, key: &[u8]) -> Response {
    let nonce = challenge(stack, token).await;
    answer(stack, token, what, &proof(key, &nonce)).await
}

/// Sends `bytes` as a share with the seal and `extra` metadata pairs; its token.
async fn shared(stack: &Stack, key: &str, bytes: &[u8], extra: &str) -> String {
    token_of(
        &send(stack, key, bytes, &share_metadata(extra))
            .await
            .unwrap(),
    )
}

fn token_of(file: &Value) -> String {
    file["token"].as_str().unwrap().to_owned()
}

/// Waits for the share's ciphertext to go (the last body's drop retires it in a task).
async fn wait_gone(stack: &Stack, account: i64) {
    for _ in 0..100 {
        if stack.storage_used(account).await == 0 && stack.blob_count().await == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the share's ciphertext is still stored");
}

both_databases!(a_share_is_stored_as_sent_and_read_once, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = ciphertext(300_000, 3);
    let calls = stack.calls_today(account).await;
    let file = send(
        &stack,
        &key,
        &bytes,
        &share_metadata(",filename c2VjcmV0LnBkZg=="),
    )
    .await
    .unwrap();
    assert_eq!(file["encrypted"], true);
    // The name the sender's tus client may add is not kept: only the sealed metadata has it.
    assert_eq!(file["filename"], "encrypted share");
    assert_eq!(file["maxDownloads"], 1);
    assert!(file["expiresAt"].is_string(), "a share always expires");
    let token = token_of(&file);
    assert_eq!(file["url"], stack.url(&format!("/s/{token}")));
    assert_eq!(stack.calls_today(account).await, calls + 1);
    assert_eq!(stack.storage_used(account).await, bytes.len() as i64);

    // Looking changes nothing, however often; the share is no plain link.
    for _ in 0..3 {
        let facts = info(&stack, &token).await;
        assert_eq!(facts.status(), 200);
        assert_eq!(facts.headers()["cache-control"], "no-store");
        let facts: Value = facts.json().await.unwrap();
        assert_eq!(facts["size"], bytes.len());
        assert_eq!(facts["downloadsLeft"], 1);
        assert_eq!(facts["password"], false);
        assert_eq!(facts["triesLeft"], 5);
        let salt = URL_SAFE_NO_PAD
            .decode(facts["salt"].as_str().unwrap())
            .unwrap();
        assert_eq!(salt, bytes[15..31], "the header's salt");
    }
    let plain = Client::new()
        .get(stack.url(&format!("/f/{token}")))
        .send()
        .await
        .unwrap();
    problem(plain, 404, "file-not-found").await;

    // The proof opens the metadata without using the download.
    let opened = prove(&stack, &token, "open", &PROOF_KEY).await;
    assert_eq!(opened.status(), 200);
    let opened: Value = opened.json().await.unwrap();
    assert_eq!(
        URL_SAFE_NO_PAD
            .decode(opened["metadata"].as_str().unwrap())
            .unwrap(),
        SEALED
    );
    assert_eq!(opened["downloadsLeft"], 1);

    let claimed = prove(&stack, &token, "claim", &PROOF_KEY).await;
    assert_eq!(claimed.status(), 200);
    assert_eq!(
        claimed.headers()["content-length"],
        bytes.len().to_string().as_str()
    );
    assert_eq!(claimed.headers()["x-share-downloads-left"], "0");
    assert_eq!(
        claimed.bytes().await.unwrap().to_vec(),
        bytes,
        "stored as sent"
    );
    wait_gone(&stack, account).await;
    problem(info(&stack, &token).await, 410, "file-gone").await;
    let nonce_refused = answer(&stack, &token, "challenge", &json!({})).await;
    problem(nonce_refused, 410, "file-gone").await;
});

// A share sent in PATCHes that split its header (a client cut off early, then resumed) is kept
// in as many parts; its salt and its bytes read across them.
both_databases!(a_share_whose_header_spans_parts_reads_whole, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = ciphertext(100_000, 6);
    let file = send_in(&stack, &key, &bytes, &share_metadata(""), &[10, 20, 40_000])
        .await
        .unwrap();
    let token = token_of(&file);
    let facts: Value = info(&stack, &token).await.json().await.unwrap();
    let salt = URL_SAFE_NO_PAD
        .decode(facts["salt"].as_str().unwrap())
        .unwrap();
    assert_eq!(salt, bytes[15..31]);
    // The digest, hashed part by part as the PATCHes came (only the header is read back).
    let mut files = FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let stored = files
        .get_file(authed(
            GetFileRequest {
                token: token.clone(),
            },
            &key,
        ))
        .await
        .unwrap()
        .into_inner()
        .file
        .unwrap();
    assert_eq!(stored.digest, quire_e2e::digest_of(&bytes));
    let claimed = prove(&stack, &token, "claim", &PROOF_KEY).await;
    assert_eq!(claimed.status(), 200);
    assert_eq!(claimed.bytes().await.unwrap().to_vec(), bytes);
    wait_gone(&stack, account).await;
});

both_databases!(parallel_claims_of_a_one_time_share_give_it_once, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = ciphertext(200_000, 5);
    let token = shared(&stack, &key, &bytes, "").await;
    let nonce = challenge(&stack, &token).await;
    let body = proof(&PROOF_KEY, &nonce);
    let claims = (0..8).map(|_| {
        let (stack, token, body) = (&stack, &token, &body);
        async move {
            let response = answer(stack, token, "claim", body).await;
            let status = response.status().as_u16();
            (status, response.bytes().await.unwrap_or_default())
        }
    });
    let results = futures::future::join_all(claims).await;
    let won: Vec<_> = results
        .iter()
        .filter(|(status, _)| *status == 200)
        .collect();
    assert_eq!(
        won.len(),
        1,
        "{:?}",
        results.iter().map(|r| r.0).collect::<Vec<_>>()
    );
    assert_eq!(won[0].1.to_vec(), bytes);
    for (status, _) in &results {
        assert!(matches!(status, 200 | 409 | 410), "{status}");
    }
    wait_gone(&stack, account).await;
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_share_service_answers_over_grpc() {
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let bytes = ciphertext(150_000, 17);
    let token = shared(&stack, &key, &bytes, "").await;
    let mut shares = ShareServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let share = shares
        .get_share(GetShareRequest {
            token: token.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .share
        .unwrap();
    assert_eq!((share.size, share.downloads_left), (bytes.len() as u64, 1));
    let nonce = shares
        .challenge_share(ChallengeShareRequest {
            token: token.clone(),
        })
        .await
        .unwrap()
        .into_inner()
        .nonce;
    let proof = ShareProof {
        token: token.clone(),
        proof: hmac(&PROOF_KEY, &nonce).into(),
        nonce,
    };
    let mut stream = shares
        .claim_share(ClaimShareRequest { proof: Some(proof) })
        .await
        .unwrap()
        .into_inner();
    let mut got = Vec::new();
    let mut first = true;
    while let Some(message) = stream.message().await.unwrap() {
        match message.payload.unwrap() {
            Payload::Share(share) if first => assert_eq!(share.downloads_left, 0),
            Payload::Chunk(chunk) => got.extend_from_slice(&chunk),
            other => panic!("unexpected {other:?}"),
        }
        first = false;
    }
    assert_eq!(got, bytes);
    let gone = shares
        .get_share(GetShareRequest { token })
        .await
        .unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound);
}
