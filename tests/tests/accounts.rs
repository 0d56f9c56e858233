//! quire.v1.AccountService over real gRPC, as the web dashboard uses it: sign-up, sessions,
//! keys made and revoked from a session (and what the REST API then answers to those keys),
//! files listed and deleted, password change, and the limits on failed logins (sessions, sign-up
//! limits, back-off and hostile requests in accounts/).

use quire_core::quota::Plan;
use quire_e2e::{Stack, as_edge, both_databases, file_form, in_session, noise, problem, v1};
use sea_orm::{ColumnTrait, QueryFilter};
use tonic::{Code, transport::Channel};
use tonic_types::StatusExt;
use v1::{account_service_client::AccountServiceClient, file_service_client::FileServiceClient};

#[path = "accounts/backoff.rs"]
mod backoff;
#[path = "accounts/client_address.rs"]
mod client_address;
#[path = "accounts/hostile_requests.rs"]
mod hostile_requests;
#[path = "accounts/sessions.rs"]
mod sessions;
#[path = "accounts/sign_up_limits.rs"]
mod sign_up_limits;
#[path = "accounts/sign_up_privacy.rs"]
mod sign_up_privacy;

const PASSWORD: &str = "correct horse battery staple";

fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

async fn accounts(stack: &Stack) -> AccountServiceClient<Channel> {
    AccountServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap()
}

/// Signs up, then logs in (sign-up opens no session) and returns the session.
async fn sign_up(client: &mut AccountServiceClient<Channel>, email: &str) -> v1::Session {
    let answer = client
        .sign_up(as_edge(v1::SignUpRequest {
            email: email.into(),
            password: PASSWORD.into(),
            client_address: "192.0.2.1".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer, v1::SignUpResponse::default());
    log_in(client, email, PASSWORD, "192.0.2.1").await.unwrap()
}

async fn log_in(
    client: &mut AccountServiceClient<Channel>,
    email: &str,
    password: &str,
    address: &str,
) -> Result<v1::Session, tonic::Status> {
    client
        .log_in(as_edge(v1::LogInRequest {
            email: email.into(),
            password: password.into(),
            client_address: address.into(),
        }))
        .await
        .map(|r| r.into_inner().session.unwrap())
}

both_databases!(sign_up_keys_files_and_sessions, |db| {
    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;

    let weak = client
        .sign_up(v1::SignUpRequest {
            email: "ada@example.com".into(),
            password: "short".into(),
            client_address: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(weak.code(), Code::InvalidArgument);
    let session = sign_up(&mut client, "Ada@Example.com").await;
    assert!(session.token.starts_with("qs_"));
    assert!(session.csrf_token.len() >= 32);
    // A known address: the same empty answer as a new one (see backoff.rs for the whole case).
    let taken = client
        .sign_up(v1::SignUpRequest {
            email: "ada@example.com".into(),
            password: PASSWORD.into(),
            client_address: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(taken, v1::SignUpResponse::default());

    let me = client
        .get_account(in_session(v1::GetAccountRequest {}, &session.token))
        .await
        .unwrap()
        .into_inner();
    let account = me.account.unwrap();
    assert_eq!(account.email, "ada@example.com");
    assert_eq!(account.plan, "free");
    assert_eq!(account.daily_limit, Some(100));
    assert_eq!(account.calls_today, 0);
    assert_eq!(me.csrf_token, session.csrf_token);

    // A key with only `read`: upload is refused, the support workflow answers.
    let created = client
        .create_api_key(in_session(
            v1::CreateApiKeyRequest {
                name: "ci".into(),
                scopes: vec!["read".into()],
            },
            &session.token,
        ))
        .await
        .unwrap()
        .into_inner();
    let key = created.secret;
    let listed = created.key.unwrap();
    assert!(key.starts_with(&listed.display_prefix));
    assert_eq!(listed.scopes, ["read"]);
    let http = reqwest::Client::new();
    let upload = http
        .post(stack.url("/api/upload"))
        .bearer_auth(&key)
        .multipart(file_form("a.bin", noise(1000, 1)))
        .send()
        .await
        .unwrap();
    problem(upload, 403, "missing-scope").await;
    let support = || {
        http.post(stack.url("/api/workflows/support/auto"))
            .bearer_auth(&key)
            .json(&serde_json::json!({"rawLog": "ERROR vpn down", "locale": "en"}))
            .send()
    };
    assert_eq!(support().await.unwrap().status(), 200);

    let revoked = client
        .revoke_api_key(in_session(
            v1::RevokeApiKeyRequest { id: listed.id },
            &session.token,
        ))
        .await
        .unwrap()
        .into_inner()
        .key
        .unwrap();
    assert!(revoked.revoked_at.is_some());
    problem(support().await.unwrap(), 401, "revoked-api-key").await;
    let keys = client
        .list_api_keys(in_session(v1::ListApiKeysRequest {}, &session.token))
        .await
        .unwrap()
        .into_inner()
        .keys;
    assert_eq!(keys.len(), 1);
    assert!(keys[0].revoked_at.is_some());

    // The session itself calls the file API, counted like a key.
    let mut files = FileServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let messages = vec![
        v1::UploadRequest {
            payload: Some(v1::upload_request::Payload::Metadata(v1::UploadMetadata {
                filename: "notes.txt".into(),
                expires_in_seconds: None,
                size: None,
                max_downloads: None,
            })),
        },
        v1::UploadRequest {
            payload: Some(v1::upload_request::Payload::Chunk(
                bytes::Bytes::from_static(b"hello from the dashboard"),
            )),
        },
    ];
    let uploaded = files
        .upload(in_session(futures::stream::iter(messages), &session.token))
        .await
        .unwrap()
        .into_inner()
        .file
        .unwrap();
    let listed_files = client
        .list_files(in_session(v1::ListFilesRequest {}, &session.token))
        .await
        .unwrap()
        .into_inner()
        .files;
    assert_eq!(listed_files.len(), 1);
    assert_eq!(listed_files[0].token, uploaded.token);
    assert_eq!(listed_files[0].downloads, 0);
    let account = client
        .get_account(in_session(v1::GetAccountRequest {}, &session.token))
        .await
        .unwrap()
        .into_inner()
        .account
        .unwrap();
    assert_eq!(account.storage_used, 24);
    // Support call + upload (the refused upload and the call with a revoked key are not counted).
    assert_eq!(account.calls_today, 2);
    files
        .delete_file(in_session(
            v1::DeleteFileRequest {
                token: uploaded.token,
            },
            &session.token,
        ))
        .await
        .unwrap();
    let after = client
        .list_files(in_session(v1::ListFilesRequest {}, &session.token))
        .await
        .unwrap()
        .into_inner()
        .files;
    assert!(after.is_empty());

    // Log out ends the session; a new log-in opens another.
    client
        .log_out(in_session(v1::LogOutRequest {}, &session.token))
        .await
        .unwrap();
    let gone = client
        .get_account(in_session(v1::GetAccountRequest {}, &session.token))
        .await
        .unwrap_err();
    assert_eq!(gone.code(), Code::Unauthenticated);
    assert_eq!(reason(&gone), "invalid-session");
    let wrong = log_in(
        &mut client,
        "ada@example.com",
        "not the password",
        "192.0.2.1",
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&wrong), "invalid-credentials");
    let unknown = log_in(&mut client, "nobody@example.com", PASSWORD, "192.0.2.1")
        .await
        .unwrap_err();
    assert_eq!(reason(&unknown), "invalid-credentials");
    let first = log_in(&mut client, "ada@example.com", PASSWORD, "192.0.2.1")
        .await
        .unwrap();
    let second = log_in(&mut client, "ada@example.com", PASSWORD, "192.0.2.2")
        .await
        .unwrap();

    // A password change ends every session and opens a new one for the caller.
    let refused = client
        .change_password(in_session(
            v1::ChangePasswordRequest {
                current_password: "not the password".into(),
                new_password: "a brand new passphrase".into(),
                client_address: String::new(),
            },
            &first.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "invalid-credentials");
    let renewed = client
        .change_password(in_session(
            v1::ChangePasswordRequest {
                current_password: PASSWORD.into(),
                new_password: "a brand new passphrase".into(),
                client_address: String::new(),
            },
            &first.token,
        ))
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    client
        .get_account(in_session(v1::GetAccountRequest {}, &renewed.token))
        .await
        .unwrap();
    for token in [&first.token, &second.token] {
        let ended = client
            .get_account(in_session(v1::GetAccountRequest {}, token))
            .await
            .unwrap_err();
        assert_eq!(reason(&ended), "invalid-session");
    }
    assert!(
        log_in(&mut client, "ada@example.com", PASSWORD, "192.0.2.1")
            .await
            .is_err()
    );
    log_in(
        &mut client,
        "ada@example.com",
        "a brand new passphrase",
        "192.0.2.1",
    )
    .await
    .unwrap();
});

both_databases!(sessions_only_reach_their_own_account, |db| {
    let stack = Stack::start(db).await;
    let (_, other_key) = stack.account_with_key(Plan::Pro, "upload").await;
    let mut client = accounts(&stack).await;
    let session = sign_up(&mut client, "dan@example.com").await;
    // Someone else's key (the first one made, id 1): the same 404 as a key that does not exist.
    assert!(other_key.starts_with("qk_"));
    for id in [1, 999] {
        let status = client
            .revoke_api_key(in_session(v1::RevokeApiKeyRequest { id }, &session.token))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::NotFound);
    }
    // No session, a key instead, or a made-up token: 401.
    for auth in ["", "Bearer qk_x", "Session qs_madeup"] {
        let mut request = tonic::Request::new(v1::ListFilesRequest {});
        if !auth.is_empty() {
            request
                .metadata_mut()
                .insert("authorization", auth.parse().unwrap());
        }
        let status = client.list_files(request).await.unwrap_err();
        assert_eq!(status.code(), Code::Unauthenticated, "{auth}");
    }
});
