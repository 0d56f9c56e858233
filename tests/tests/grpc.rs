//! The gRPC API directly, as an internal service in any language uses it: same auth, quota
//! metadata, errors as google.rpc.Status with an ErrorInfo reason, streaming both ways.

use quire_core::quota::Plan;
use quire_e2e::{Stack, authed, both_databases, eicar, noise, v1};
use tonic::{Code, Request, transport::Channel};
use tonic_types::StatusExt;
use v1::file_service_client::FileServiceClient;

fn upload_messages(name: &str, bytes: &[u8], declared: Option<u64>) -> Vec<v1::UploadRequest> {
    let mut messages = vec![v1::UploadRequest {
        payload: Some(v1::upload_request::Payload::Metadata(v1::UploadMetadata {
            filename: name.into(),
            expires_in_seconds: None,
            size: declared,
            max_downloads: None,
        })),
    }];
    messages.extend(bytes.chunks(256 * 1024).map(|chunk| v1::UploadRequest {
        payload: Some(v1::upload_request::Payload::Chunk(
            bytes::Bytes::copy_from_slice(chunk),
        )),
    }));
    messages
}

fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| {
            assert_eq!(info.domain, "quire");
            info.reason
        })
        .unwrap_or_default()
}

async fn client(stack: &Stack) -> FileServiceClient<Channel> {
    FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap()
}

both_databases!(grpc_upload_get_download_delete, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload,read").await;
    let mut files = client(&stack).await;
    let bytes = noise(700_000, 11);

    let messages = upload_messages("data.bin", &bytes, Some(bytes.len() as u64));
    let response = files
        .upload(authed(futures::stream::iter(messages), &key))
        .await
        .unwrap();
    assert_eq!(
        response.metadata().get("x-ratelimit-remaining").unwrap(),
        "99"
    );
    let file = response.into_inner().file.unwrap();
    assert_eq!(file.size, 700_000);
    assert_eq!(file.url, stack.url(&format!("/f/{}", file.token)));
    assert_eq!(file.digest, quire_e2e::digest_of(&bytes));

    let got = files
        .get_file(authed(
            v1::GetFileRequest {
                token: file.token.clone(),
            },
            &key,
        ))
        .await
        .unwrap()
        .into_inner()
        .file
        .unwrap();
    assert_eq!(got, file);

    let mut stream = files
        .download(Request::new(v1::DownloadRequest {
            token: file.token.clone(),
            metadata_only: false,
            range: Some(v1::ByteRange {
                first: Some(1000),
                last: Some(299_999),
            }),
        }))
        .await
        .unwrap()
        .into_inner();
    let mut received = Vec::new();
    let mut meta = None;
    while let Some(message) = stream.message().await.unwrap() {
        match message.payload.unwrap() {
            v1::download_response::Payload::Metadata(m) => meta = Some(m),
            v1::download_response::Payload::Chunk(chunk) => received.extend_from_slice(&chunk),
        }
    }
    let meta = meta.unwrap();
    assert_eq!(
        (meta.offset, meta.length, meta.partial),
        (1000, 299_000, true)
    );
    assert_eq!(received, bytes[1000..300_000]);

    files
        .delete_file(authed(
            v1::DeleteFileRequest {
                token: file.token.clone(),
            },
            &key,
        ))
        .await
        .unwrap();
    let gone = files
        .get_file(authed(v1::GetFileRequest { token: file.token }, &key))
        .await
        .unwrap_err();
    assert_eq!(
        (gone.code(), reason(&gone).as_str()),
        (Code::NotFound, "file-not-found")
    );
    assert_eq!(stack.storage_used(account).await, 0);
});

both_databases!(grpc_errors_carry_a_stable_reason, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload").await;
    let mut files = client(&stack).await;

    let status = files
        .upload(Request::new(futures::stream::iter(upload_messages(
            "a", b"abc", None,
        ))))
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::Unauthenticated, "missing-api-key")
    );

    let status = files
        .upload(authed(
            futures::stream::iter(upload_messages("e", &eicar(), None)),
            &key,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "virus-found");
    assert_eq!(
        status.metadata().get("x-ratelimit-remaining").unwrap(),
        "99"
    );

    let status = files
        .upload(authed(
            futures::stream::iter(upload_messages("m", b"abc", Some(10))),
            &key,
        ))
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::InvalidArgument, "size-mismatch")
    );

    let only_chunks = upload_messages("c", b"abc", None).split_off(1);
    let status = files
        .upload(authed(futures::stream::iter(only_chunks), &key))
        .await
        .unwrap_err();
    assert_eq!(reason(&status), "invalid-argument");

    let read_only = stack.key_for(account, "read").await;
    let status = files
        .upload(authed(
            futures::stream::iter(upload_messages("r", b"abc", None)),
            &read_only,
        ))
        .await
        .unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::PermissionDenied, "missing-scope")
    );

    let mut process = v1::process_service_client::ProcessServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let ocr = futures::stream::iter(vec![v1::OcrRequest {
        payload: Some(v1::ocr_request::Payload::Options(v1::OcrOptions::default())),
    }]);
    let status = process.ocr(authed(ocr, &key)).await.unwrap_err();
    assert_eq!(
        (status.code(), reason(&status).as_str()),
        (Code::InvalidArgument, "empty-file")
    );
    stack
        .assert_nothing_left(account, std::time::Duration::from_secs(5))
        .await;
});

/// The whole file through Download: its bytes, or the error status.
async fn download_whole(
    files: &mut FileServiceClient<Channel>,
    token: &str,
) -> Result<Vec<u8>, tonic::Status> {
    let mut stream = files
        .download(Request::new(v1::DownloadRequest {
            token: token.to_owned(),
            metadata_only: false,
            range: None,
        }))
        .await?
        .into_inner();
    let mut received = Vec::new();
    while let Some(message) = stream.message().await? {
        if let Some(v1::download_response::Payload::Chunk(chunk)) = message.payload {
            received.extend_from_slice(&chunk);
        }
    }
    Ok(received)
}

both_databases!(grpc_download_limit_set_after_the_bytes_is_kept, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "upload,read").await;
    let mut files = client(&stack).await;
    let bytes = noise(100_000, 3);
    // The limit comes in the trailing metadata message, after the bytes.
    let mut messages = upload_messages("once.bin", &bytes, None);
    messages.push(v1::UploadRequest {
        payload: Some(v1::upload_request::Payload::Metadata(v1::UploadMetadata {
            max_downloads: Some(1),
            ..Default::default()
        })),
    });
    let file = files
        .upload(authed(futures::stream::iter(messages), &key))
        .await
        .unwrap()
        .into_inner()
        .file
        .unwrap();
    assert_eq!(
        (file.max_downloads, file.downloads_left),
        (Some(1), Some(1))
    );
    assert_eq!(
        download_whole(&mut files, &file.token).await.unwrap(),
        bytes
    );
    let used = download_whole(&mut files, &file.token).await.unwrap_err();
    assert_eq!(
        (used.code(), reason(&used).as_str()),
        (Code::NotFound, "file-gone")
    );
    stack
        .assert_nothing_left(account, std::time::Duration::from_secs(5))
        .await;
});
