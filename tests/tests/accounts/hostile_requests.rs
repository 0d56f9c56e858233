//! What a hostile request sends besides credentials: a `next` that is not a path of this site,
//! a `Host` the service does not answer for (DNS rebinding), names with bidirectional controls.

use super::*;

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

both_databases!(log_in_goes_only_to_a_path_of_this_site, |db| {
    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;
    sign_up(&mut client, "next@example.com").await;
    let http = no_redirects();
    let cases = [
        ("/dashboard/files", "/dashboard/files"),
        ("/tools/ocr?lang=fra", "/tools/ocr?lang=fra"),
        // The probe's 500: a control character cannot be put in a header.
        ("/\u{1}", "/dashboard"),
        ("/\u{7f}", "/dashboard"),
        ("/\r\nset-cookie: quire_session=x", "/dashboard"),
        ("/\t/evil.example", "/dashboard"),
        ("//evil.example", "/dashboard"),
        ("/\\evil.example", "/dashboard"),
        ("https://evil.example/", "/dashboard"),
        ("javascript:alert(1)", "/dashboard"),
        ("/caf\u{e9}", "/dashboard"),
    ];
    for (next, expected) in cases {
        let page = http
            .get(stack.url("/login"))
            .query(&[("next", next)])
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200, "the form with next={next:?}");
        let answer = http
            .post(stack.url("/login"))
            .header("origin", stack.base.clone())
            .form(&[
                ("email", "next@example.com"),
                ("password", PASSWORD),
                ("next", next),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 303, "next={next:?}");
        assert_eq!(answer.headers()["location"], expected, "next={next:?}");
    }
    // The language switch goes back only to a path of this site too.
    for referer in [
        "http://x/\\evil.example",
        "http://x//evil.example",
        "http://x/\t",
    ] {
        let back = http
            .get(stack.url("/lang/fr"))
            .header("referer", referer)
            .send()
            .await;
        // A TAB cannot even be sent in a header by reqwest: the others come back to `/`.
        if let Ok(back) = back {
            assert_eq!(back.status(), 303, "{referer:?}");
            assert_eq!(back.headers()["location"], "/", "{referer:?}");
        }
    }
});

both_databases!(hosts_the_service_does_not_answer_for_are_refused, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let http = no_redirects();
    let port = stack.base.rsplit(':').next().unwrap().to_owned();
    // A name rebound to 127.0.0.1: pages, the API and share links all refuse it.
    for host in [
        format!("rebind.evil.example:{port}"),
        "evil.example".to_owned(),
    ] {
        let page = http
            .get(stack.url("/login"))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        let body = problem(page, 421, "misdirected-request").await;
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains("QUIRE_ALLOWED_HOSTS"),
            "{body}"
        );
        let upload = http
            .post(stack.url("/api/upload"))
            .header("host", &host)
            .bearer_auth(&key)
            .multipart(file_form("a.txt", b"hello".to_vec()))
            .send()
            .await
            .unwrap();
        problem(upload, 421, "misdirected-request").await;
        // Probes by address still get an answer.
        let alive = http
            .get(stack.url("/healthz"))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(alive.status(), 200);
    }
    assert_eq!(stack.file_rows().await, 0, "nothing was stored");
    // The base URL's host (127.0.0.1) and its loopback aliases are served.
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}")] {
        let page = http
            .get(stack.url("/login"))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200, "{host}");
    }
});

both_databases!(names_lose_their_bidirectional_controls, |db| {
    let stack = Stack::start(db).await;
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    let http = reqwest::Client::new();
    for control in ['\u{202e}', '\u{2067}', '\u{200f}', '\u{061c}', '\u{202a}'] {
        let uploaded = http
            .post(stack.url("/api/upload"))
            .bearer_auth(&key)
            .multipart(file_form(
                &format!("invoice{control}fdp.exe"),
                b"hello".to_vec(),
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(uploaded.status(), 201, "{control:?}");
        let body: serde_json::Value = uploaded.json().await.unwrap();
        assert_eq!(body["filename"], "invoicefdp.exe", "{control:?}");
    }

    let mut client = accounts(&stack).await;
    let session = sign_up(&mut client, "names@example.com").await;
    let created = client
        .create_api_key(in_session(
            v1::CreateApiKeyRequest {
                name: "deploy\u{2066}\u{202e}yek".into(),
                scopes: vec!["read".into()],
            },
            &session.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(created.key.unwrap().name, "deployyek");
    let hidden_only = client
        .create_api_key(in_session(
            v1::CreateApiKeyRequest {
                name: "\u{202e}\u{2069}".into(),
                scopes: vec!["read".into()],
            },
            &session.token,
        ))
        .await
        .unwrap_err();
    assert_eq!(hidden_only.code(), Code::InvalidArgument);
});
