//! A client that goes away mid-upload, over HTTP or gRPC, leaves no record, no blob (not even a
//! staging file) and no storage charged.

use std::time::Duration;

use quire_core::quota::Plan;
use quire_e2e::{Stack, both_databases, noise, v1};
use tokio::io::AsyncWriteExt;

async fn wait_for_pending_row(stack: &Stack) {
    for _ in 0..100 {
        if stack.file_rows().await == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the upload never started");
}

both_databases!(http_client_disconnect_mid_upload_leaves_nothing, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let addr = stack.base.trim_start_matches("http://").to_owned();
    let mut socket = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST /api/upload HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary=BOUNDARY\r\nContent-Length: 50000000\r\n\r\n\
         --BOUNDARY\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    socket.write_all(&noise(2 << 20, 5)).await.unwrap();
    socket.flush().await.unwrap();
    wait_for_pending_row(&stack).await;
    drop(socket);
    stack
        .assert_nothing_left(account, Duration::from_secs(10))
        .await;
});

both_databases!(grpc_client_cancel_mid_upload_leaves_nothing, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let mut client = v1::file_service_client::FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tx.send(v1::UploadRequest {
        payload: Some(v1::upload_request::Payload::Metadata(v1::UploadMetadata {
            filename: "cut.bin".into(),
            ..Default::default()
        })),
    })
    .await
    .unwrap();
    tx.send(v1::UploadRequest {
        payload: Some(v1::upload_request::Payload::Chunk(
            noise(256 * 1024, 6).into(),
        )),
    })
    .await
    .unwrap();
    let mut request = tonic::Request::new(tokio_stream::wrappers::ReceiverStream::new(rx));
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {key}").parse().unwrap());
    let call = tokio::spawn(async move { client.upload(request).await });
    wait_for_pending_row(&stack).await;
    call.abort();
    drop(tx);
    stack
        .assert_nothing_left(account, Duration::from_secs(10))
        .await;
});
