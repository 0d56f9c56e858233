//! An answer sent before the body was read (bad key, missing scope) must reach a client that is
//! still sending: the edge keeps reading and discarding the body for a while (lingering read)
//! instead of closing the connection under the client, which would show as a broken pipe or a
//! reset instead of the 401/403. Raw TCP, so the order of writes and reads is exact.

use std::time::Duration;

use quire_core::quota::Plan;
use quire_e2e::{Db, Stack};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::timeout,
};

const BODY: usize = 48 * 1024 * 1024;

/// Sends the headers and the first 64 KiB, reads the status line, then sends the rest.
async fn early_answer(stack: &Stack, authorization: &str) -> (String, std::io::Result<()>) {
    let addr = stack.base.trim_start_matches("http://").to_owned();
    let mut socket = TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /api/upload HTTP/1.1\r\nHost: {addr}\r\nAuthorization: {authorization}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: {BODY}\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    let mut body =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\n"
            .to_vec();
    body.resize(BODY, b'a');
    socket.write_all(&body[..64 * 1024]).await.unwrap();
    let mut answer = vec![0u8; 4096];
    let n = timeout(Duration::from_secs(10), socket.read(&mut answer))
        .await
        .expect("an answer before the body is complete")
        .unwrap();
    let status = String::from_utf8_lossy(&answer[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    // The client carries on sending, as simple clients do.
    let mut rest = Ok(());
    for chunk in body[64 * 1024..].chunks(256 * 1024) {
        if let Err(err) = socket.write_all(chunk).await {
            rest = Err(err);
            break;
        }
    }
    (status, rest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn early_refusals_reach_a_client_that_is_still_sending() {
    let stack = Stack::start(Db::Sqlite).await;
    let unknown = format!("Bearer qk_{}", "A".repeat(40));
    let (status, rest) = early_answer(&stack, &unknown).await;
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    rest.expect("the rest of the body is accepted (and discarded), not refused with a reset");

    let (_, read_only) = stack.account_with_key(Plan::Free, "read").await;
    let (status, rest) = early_answer(&stack, &format!("Bearer {read_only}")).await;
    assert_eq!(status, "HTTP/1.1 403 Forbidden");
    rest.expect("the rest of the body is accepted (and discarded), not refused with a reset");
}
