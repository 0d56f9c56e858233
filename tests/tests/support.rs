//! POST /api/workflows/support/auto and SupportService.AutoReply end to end: anonymized log,
//! summary and draft in both languages with no original value in them, stats per SPEC 2.3,
//! input errors naming the field, the configurable size limit, quota figures.

use quire_core::quota::Plan;
use quire_e2e::{Stack, both_databases, problem, test_config, v1};
use reqwest::Client;
use serde_json::{Value, json};
use tonic::{Code, Request};
use v1::support_service_client::SupportServiceClient;

const LOG: &str = "\
2024-03-12 08:59:58 INFO vpn client 5.1.2 starting on WS-042.corp.example.com
2024-03-12 09:00:01 ERROR vpn: auth failed for CORP\\jdoe from 10.20.30.40 (attempt 1/5)
2024-03-12 09:01:01 ERROR vpn: auth failed for CORP\\jdoe from 10.20.30.40 (attempt 2/5)
2024-03-12 09:02:01 WARN dns: no answer from 2001:db8::53 for intranet.example.com
2024-03-12 09:03:01 ERROR vpn: auth failed for CORP\\jdoe from 10.20.30.40 (attempt 3/5)
2024-03-12 09:03:02 INFO notified jane.doe+it@example.com
2024-03-12 09:47:15 ERROR vpn: tunnel down, gateway vpn-gw1.example.com unreachable
";

const CONTEXT: &str =
    "Le VPN refuse ma connexion depuis ce matin (poste de jane.doe+it@example.com).";

const SECRETS: &[&str] = &[
    "CORP\\jdoe",
    "10.20.30.40",
    "2001:db8::53",
    "jane.doe+it@example.com",
    "WS-042.corp.example.com",
    "intranet.example.com",
    "vpn-gw1.example.com",
];

async fn call(stack: &Stack, key: &str, body: Value) -> reqwest::Response {
    Client::new()
        .post(stack.url("/api/workflows/support/auto"))
        .bearer_auth(key)
        .json(&body)
        .send()
        .await
        .unwrap()
}

both_databases!(anonymizes_classifies_summarizes_and_drafts, |db| {
    let stack = Stack::start(db).await;
    let (account, key) = stack.account_with_key(Plan::Free, "read").await;

    let response = call(
        &stack,
        &key,
        json!({ "rawLog": LOG, "ticketContext": CONTEXT }),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-ratelimit-remaining"], "99");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["ok"], true);
    let result = &body["result"];
    let stats = &result["stats"];
    assert_eq!(stats["ipv4"], 3, "{stats}");
    assert_eq!(stats["ipv6"], 1, "{stats}");
    assert_eq!(stats["email"], 1, "{stats}");
    assert_eq!(stats["domainUser"], 3, "{stats}");
    assert_eq!(stats["fqdn"], 3, "{stats}");
    assert_eq!(stats["total"], 11, "{stats}");

    let anonymized = result["anonymized"].as_str().unwrap();
    let summary = result["summary"].as_str().unwrap();
    let draft = result["draftResponse"].as_str().unwrap();
    for text in [anonymized, summary, draft] {
        for secret in SECRETS {
            assert!(!text.contains(secret), "{secret} leaked into {text}");
        }
    }
    // The same value keeps its placeholder; the version number is not an address.
    assert_eq!(anonymized.matches("[IPV4_1]").count(), 3, "{anonymized}");
    assert!(anonymized.contains("vpn client 5.1.2"), "{anonymized}");

    // French by default: category, span, counts, the failing service, attempts, telling lines.
    assert!(
        summary.contains("Catégorie : réseau / VPN / DNS"),
        "{summary}"
    );
    assert!(
        summary.contains("du 2024-03-12 08:59:58 au 2024-03-12 09:47:15 (47 min)"),
        "{summary}"
    );
    assert!(summary.contains("4 erreurs, 1 avertissement"), "{summary}");
    assert!(
        summary.contains("Service en échec : VPN, 3 tentatives depuis 2024-03-12 09:00:01"),
        "{summary}"
    );
    assert!(summary.contains("[erreur ×3]"), "{summary}");
    assert!(
        summary.contains("[EMAIL_1]"),
        "the context's address is masked: {summary}"
    );
    assert!(draft.starts_with("Bonjour,"), "{draft}");
    assert!(
        draft.contains("le service VPN est en échec depuis 2024-03-12 09:00:01"),
        "{draft}"
    );
    // The log gives the time and the error; the context does not say how or where the user
    // connects, on what system, or whether others are affected: exactly those are asked.
    assert!(!draft.contains("depuis quand"), "{draft}");
    assert!(!draft.contains("message d'erreur exact"), "{draft}");
    assert!(draft.contains("type de connexion"), "{draft}");
    assert!(draft.contains("le système utilisé"), "{draft}");
    assert!(draft.contains("d'autres personnes"), "{draft}");

    // English on request; the same facts.
    let response = call(
        &stack,
        &key,
        json!({ "rawLog": LOG, "ticketContext": "Since this morning my VPN fails, on Windows 11 over home Wi-Fi; colleagues too.", "locale": "en" }),
    )
    .await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let summary = body["result"]["summary"].as_str().unwrap();
    let draft = body["result"]["draftResponse"].as_str().unwrap();
    assert!(
        summary.contains("Category: network / VPN / DNS"),
        "{summary}"
    );
    assert!(summary.contains("4 errors, 1 warning"), "{summary}");
    assert!(draft.starts_with("Hello,"), "{draft}");
    assert!(
        draft.contains("We have all the information we need"),
        "{draft}"
    );
    assert_eq!(stack.calls_today(account).await, 2);
});

both_databases!(bad_input_is_a_400_that_names_the_field, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "process").await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "rawLog"),
        (json!({ "rawLog": 42 }), "rawLog"),
        (
            json!({ "rawLog": "x", "ticketContext": ["a"] }),
            "ticketContext",
        ),
        (json!({ "rawLog": "x", "locale": "de" }), "locale"),
        (json!({ "rawLog": "x", "locale": 1 }), "locale"),
        (json!({ "rawLog": "x", "lang": "fr" }), "lang"),
        (json!(["rawLog"]), "rawLog"),
    ];
    for (body, field) in cases {
        let response = call(&stack, &key, body.clone()).await;
        let problem = problem(response, 400, "invalid-argument").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(field), "{body} → {detail}");
    }
    for (content_type, body) in [
        ("application/json", "{\"rawLog\": "),
        ("application/json", "{\"rawLog\": \"x\"} trailing"),
        ("text/plain", "{\"rawLog\": \"x\"}"),
    ] {
        let response = Client::new()
            .post(stack.url("/api/workflows/support/auto"))
            .bearer_auth(&key)
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        let problem = problem(response, 400, "invalid-argument").await;
        assert!(
            problem["detail"].as_str().unwrap().contains("JSON"),
            "{problem}"
        );
    }
    let response = Client::new()
        .post(stack.url("/api/workflows/support/auto"))
        .json(&json!({ "rawLog": "x" }))
        .send()
        .await
        .unwrap();
    problem(response, 401, "missing-api-key").await;
});

both_databases!(the_ticket_size_limit_is_configurable, |db| {
    let stack = Stack::start_with(db, test_config(&["--max-ticket-size", "65536"])).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "read").await;
    let fits = "x".repeat(60_000);
    let response = call(&stack, &key, json!({ "rawLog": fits })).await;
    assert_eq!(response.status(), 200);
    let too_big = "x".repeat(70_000);
    let response = call(&stack, &key, json!({ "rawLog": too_big })).await;
    let body = problem(response, 413, "ticket-too-large").await;
    assert!(body["detail"].as_str().unwrap().contains("65536"), "{body}");

    // gRPC callers meet the same limit in the core.
    let mut client = SupportServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let mut request = Request::new(v1::AutoReplyRequest {
        raw_log: "y".repeat(40_000),
        ticket_context: Some("z".repeat(40_000)),
        locale: String::new(),
    });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {key}").parse().unwrap());
    let status = client.auto_reply(request).await.unwrap_err();
    assert_eq!(status.code(), Code::ResourceExhausted);
    assert!(status.message().contains("65536"), "{status:?}");
});

both_databases!(grpc_auto_reply_matches_rest, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let mut client = SupportServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let mut request = Request::new(v1::AutoReplyRequest {
        raw_log: LOG.into(),
        ticket_context: Some(CONTEXT.into()),
        locale: "en".into(),
    });
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {key}").parse().unwrap());
    let response = client.auto_reply(request).await.unwrap();
    assert_eq!(
        response.metadata().get("x-ratelimit-remaining").unwrap(),
        "99"
    );
    let reply = response.into_inner();
    let stats = reply.stats.unwrap();
    assert_eq!((stats.ipv4, stats.total), (3, 11));
    assert!(
        reply.summary.starts_with("Category: network"),
        "{}",
        reply.summary
    );

    let rest: Value = call(
        &stack,
        &key,
        json!({ "rawLog": LOG, "ticketContext": CONTEXT, "locale": "en" }),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(rest["result"]["anonymized"], reply.anonymized);
    assert_eq!(rest["result"]["summary"], reply.summary);
    assert_eq!(rest["result"]["draftResponse"], reply.draft_response);
});
