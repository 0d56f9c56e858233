//! Resuming after a cut: the tus project's own Python client resuming an upload whose
//! connection was cut, and a PATCH cut half-way keeping the bytes that arrived.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tuspy_resumes_an_upload_after_its_connection_is_cut() {
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("artifact.bin");
    let bytes = noise(6 * 1024 * 1024, 11);
    std::fs::write(&path, &bytes).unwrap();
    let chunk = 4 * 1024 * 1024;
    let script = format!("{}/python/tus_client.py", env!("CARGO_MANIFEST_DIR"));
    let output = tokio::process::Command::new(python())
        .args([
            &script,
            &stack.base,
            &key,
            path.to_str().unwrap(),
            &chunk.to_string(),
        ])
        .output()
        .await
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "tus_client.py failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("python tus client: ok"), "{stdout}");

    let line = |prefix: &str| -> serde_json::Value {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .expect(prefix);
        serde_json::from_str(line).unwrap()
    };
    // The first PATCH was cut half-way: the retry resumed from the bytes the server kept, not
    // from 0 and not from a chunk boundary.
    let offsets = line("patch offsets: ");
    let offsets: Vec<u64> = offsets
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(offsets[0], 0);
    let resumed = offsets[1];
    assert!(
        resumed > 0 && resumed < chunk as u64,
        "resumed at {resumed}: {offsets:?}"
    );

    let stored = line("stored: ");
    assert_eq!(stored["filename"], "pipeline-artifact.bin");
    assert_eq!(stored["size"], bytes.len());
    let shared = Client::new()
        .get(stored["url"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(shared.bytes().await.unwrap().to_vec(), bytes);
    assert_eq!(
        stack.calls_today(account).await,
        1,
        "one call per finished file"
    );
    assert_eq!(stack.storage_used(account).await, bytes.len() as i64);
}

/// A PATCH whose connection dies half-way keeps the bytes that arrived, and frees the upload
/// for the next PATCH at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_patch_keeps_what_arrived() {
    use tokio::io::AsyncWriteExt;
    let stack = Stack::start(quire_e2e::Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let bytes = noise(1 << 20, 3);
    let created = create(&stack, &key, bytes.len(), METADATA).await;
    let location = header(&created, "location").to_owned();
    let addr = stack.base.trim_start_matches("http://").to_owned();
    let mut socket = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "PATCH {location} HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {key}\r\n\
         tus-resumable: 1.0.0\r\ncontent-type: {OCTETS}\r\nupload-offset: 0\r\n\
         content-length: {}\r\n\r\n",
        bytes.len()
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(&bytes[..300_000]).await.unwrap();
    socket.flush().await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    drop(socket);

    let mut offset = 0;
    for _ in 0..100 {
        let now = head_offset(&stack, &key, &location).await;
        if now > 0 {
            offset = now;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(offset > 0 && offset <= 300_000, "kept {offset}");
    let rest = patch(
        &stack,
        &key,
        &location,
        offset as usize,
        &bytes[offset as usize..],
    )
    .await;
    assert_eq!(rest.status(), 204, "the upload is free again");
    assert_eq!(header(&rest, "upload-offset"), bytes.len().to_string());
}
