//! /healthz, /readyz (database, store, clamd and core), grpc.health.v1 and reflection, and
//! problem+json for unknown routes.

use std::time::Duration;

use quire_e2e::{Db, RemoteEdge, Stack, problem, test_config};
use reqwest::Client;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

/// Polls /readyz until it answers `want` with every check settled as `checks` says.
async fn readyz_until(stack: &Stack, want: u16, checks: &[(&str, &str)]) {
    let mut last = serde_json::Value::Null;
    for _ in 0..100 {
        let response = Client::new()
            .get(stack.url("/readyz"))
            .send()
            .await
            .unwrap();
        let status = response.status();
        last = response.json().await.unwrap();
        if status == want
            && checks
                .iter()
                .all(|(name, value)| last["checks"][name] == *value)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("/readyz never answered {want} with {checks:?}; last: {last}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ready_when_every_dependency_answers() {
    let stack = Stack::start(Db::Sqlite).await;
    let alive = Client::new()
        .get(stack.url("/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(alive.status(), 200);
    let all_ok = [
        ("core", "ok"),
        ("database", "ok"),
        ("store", "ok"),
        ("scanner", "ok"),
    ];
    readyz_until(&stack, 200, &all_ok).await;

    let channel = tonic::transport::Endpoint::from_shared(stack.grpc.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = HealthClient::new(channel);
    let status = health
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .status;
    assert_eq!(status, 1, "SERVING");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_while_clamd_is_down() {
    let stack = Stack::start_with(
        Db::Sqlite,
        test_config(&["--clamd", "tcp://127.0.0.1:9", "--clamd-timeout", "1"]),
    )
    .await;
    let settled = [
        ("database", "ok"),
        ("store", "ok"),
        ("scanner", "unavailable"),
    ];
    readyz_until(&stack, 503, &settled).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_ready_while_the_core_is_unreachable() {
    let stack = Stack::start(Db::Sqlite).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let edge = RemoteEdge::start(&format!("http://{addr}"), Default::default()).await;
    let base = &edge.base;
    let response = Client::new()
        .get(format!("{base}/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    let upload = Client::new()
        .post(format!("{base}/api/upload"))
        .bearer_auth("qk_x")
        .multipart(quire_e2e::file_form("a", b"a".to_vec()))
        .send()
        .await
        .unwrap();
    assert!(upload.headers().contains_key("retry-after"));
    problem(upload, 503, "core-unavailable").await;
    drop(stack);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_routes_and_methods_are_problems() {
    let stack = Stack::start(Db::Sqlite).await;
    problem(
        Client::new().get(stack.url("/nope")).send().await.unwrap(),
        404,
        "not-found",
    )
    .await;
    problem(
        Client::new()
            .get(stack.url("/api/upload"))
            .send()
            .await
            .unwrap(),
        405,
        "method-not-allowed",
    )
    .await;
    let doc: serde_json::Value = Client::new()
        .get(stack.url("/problems/daily-quota-exceeded"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["status"], 429);
}

/// Reflection v1 (grpcurl, buf curl, Postman): the services, and a symbol's file with the
/// imports the stream has not sent yet, so that one answer is enough to build its messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_answers_a_file_with_its_unsent_imports() {
    use prost::Message;
    use tonic_reflection::pb::v1::{
        ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
        server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
    };

    let stack = Stack::start(Db::Sqlite).await;
    let channel = tonic::transport::Endpoint::from_shared(stack.grpc.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = ServerReflectionClient::new(channel);
    let ask = |request: MessageRequest| ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    let requests = vec![
        ask(MessageRequest::ListServices(String::new())),
        ask(MessageRequest::FileContainingSymbol(
            "quire.v1.FileService".into(),
        )),
        ask(MessageRequest::FileContainingSymbol(
            "quire.v1.AccountService".into(),
        )),
        ask(MessageRequest::FileContainingSymbol("quire.v1.Nope".into())),
    ];
    let mut answers = client
        .server_reflection_info(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let mut next = async || answers.message().await.unwrap().unwrap().message_response;
    let Some(MessageResponse::ListServicesResponse(list)) = next().await else {
        panic!("no service list");
    };
    let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"quire.v1.FileService") && names.contains(&"grpc.health.v1.Health"));
    let files = |answer: Option<MessageResponse>| -> Vec<String> {
        let Some(MessageResponse::FileDescriptorResponse(files)) = answer else {
            panic!("no files: {answer:?}");
        };
        files
            .file_descriptor_proto
            .iter()
            .map(|b| {
                prost_types::FileDescriptorProto::decode(b.as_slice())
                    .unwrap()
                    .name()
                    .to_owned()
            })
            .collect()
    };
    let first = files(next().await);
    assert_eq!(first[0], "quire/v1/file_service.proto");
    assert!(
        first.contains(&"quire/v1/file.proto".to_owned()),
        "{first:?}"
    );
    // The account service's file imports file.proto too: not sent again on this stream.
    let second = files(next().await);
    assert_eq!(second[0], "quire/v1/account_service.proto");
    assert!(
        !second.contains(&"quire/v1/file.proto".to_owned()),
        "{second:?}"
    );
    let Some(MessageResponse::ErrorResponse(error)) = next().await else {
        panic!("an unknown symbol is an error answer");
    };
    assert_eq!(error.error_code, tonic::Code::NotFound as i32);
}
