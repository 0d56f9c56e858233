//! quire.v1.ToolService over real gRPC, as the web toolbox calls it, with a real worker,
//! clamd and database: each page tool does what it says (read back with PDFium), bad input
//! gets the API's errors, an API key is refused with `web-only-tool`, and the HTTP route takes
//! a session with its anti-CSRF token and nothing else.

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, authed, both_databases, csrf_token, eicar,
    pdf_check::facts,
    problem,
    toolbox::{Toolbox, labelled, messages, reason, texts, zip_entries},
    v1,
};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use tonic::Code;
use v1::{tool_options::Tool, tool_service_client::ToolServiceClient};

#[path = "toolbox/pdf_limits.rs"]
mod pdf_limits;

both_databases!(page_tools_do_what_they_say, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "pages@example.com").await;

    // Merge: pages in the order the files came, each file's bookmark named after it.
    let (summary, merged) = toolbox
        .run(
            Tool::Merge(v1::MergeOptions {}),
            &[
                ("b.pdf", labelled("Bravo", 2)),
                ("a.pdf", labelled("Alpha", 1)),
            ],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "b-merged.pdf");
    assert_eq!(summary.media_type, "application/pdf");
    assert_eq!((summary.page_count, summary.file_count), (3, 1));
    assert_eq!(summary.size, merged.len() as u64);
    let read = facts(merged).await.unwrap();
    assert_eq!(
        texts(&read),
        ["Bravo page 1", "Bravo page 2", "Alpha page 1"]
    );
    assert_eq!(read.outline, ["b", "a"]);

    // Split by ranges: one PDF per range, in a ZIP.
    let (summary, zip) = toolbox
        .run(
            Tool::Split(v1::SplitOptions {
                mode: Some(v1::split_options::Mode::Ranges("1, 3-".into())),
            }),
            &[("report.pdf", labelled("Report", 4))],
        )
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/zip");
    assert_eq!((summary.file_count, summary.page_count), (2, 3));
    let entries = zip_entries(&zip);
    assert_eq!(entries.len(), 2);
    let first = facts(entries[0].1.clone()).await.unwrap();
    let second = facts(entries[1].1.clone()).await.unwrap();
    assert_eq!(texts(&first), ["Report page 1"]);
    assert_eq!(texts(&second), ["Report page 3", "Report page 4"]);

    // Rotate only page 2.
    let (_, rotated) = toolbox
        .run(
            Tool::Rotate(v1::RotateOptions {
                degrees: 90,
                pages: "2".into(),
            }),
            &[("scan.pdf", labelled("Scan", 3))],
        )
        .await
        .unwrap();
    let doc = lopdf::Document::load_mem(&rotated).unwrap();
    let rotations: Vec<i64> = doc
        .get_pages()
        .values()
        .map(|id| {
            doc.get_dictionary(*id)
                .unwrap()
                .get(b"Rotate")
                .and_then(|r| r.as_i64())
                .unwrap_or(0)
        })
        .collect();
    assert_eq!(rotations, [0, 90, 0]);
    // PDFium shows the turned page landscape.
    let read = facts(rotated).await.unwrap();
    assert!(read.pages[1].size.0 > read.pages[1].size.1);

    // Organize: reorder, duplicate, delete, insert a blank page.
    let slot = |page: u32| v1::PageSlot {
        slot: Some(v1::page_slot::Slot::Page(page)),
    };
    let blank = v1::PageSlot {
        slot: Some(v1::page_slot::Slot::Blank(true)),
    };
    let (summary, organized) = toolbox
        .run(
            Tool::Organize(v1::OrganizeOptions {
                slots: vec![slot(3), slot(1), blank, slot(1)],
            }),
            &[("deck.pdf", labelled("Deck", 3))],
        )
        .await
        .unwrap();
    assert_eq!(summary.page_count, 4);
    let read = facts(organized).await.unwrap();
    assert_eq!(
        texts(&read),
        ["Deck page 3", "Deck page 1", "", "Deck page 1"]
    );

    // Every call was counted like a processing call.
    let account_id = quire_core::db::account::Entity::find()
        .filter(quire_core::db::account::Column::Email.eq("pages@example.com"))
        .one(&stack.core.db)
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(stack.calls_today(account_id).await, 4);
});

both_databases!(bad_input_gets_the_api_errors, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "errors@example.com").await;
    let rotate = |pages: &str| {
        Tool::Rotate(v1::RotateOptions {
            degrees: 90,
            pages: pages.into(),
        })
    };

    let virus = toolbox
        .run(rotate(""), &[("eicar.pdf", eicar())])
        .await
        .unwrap_err();
    assert_eq!(reason(&virus), "virus-found");
    // A real PDF carrying the test signature: the tool runs while clamd reads it, and what it
    // made is thrown away.
    let mut infected = labelled("Infected", 1);
    infected.extend_from_slice(b"\n");
    infected.extend_from_slice(&eicar());
    let virus = toolbox
        .run(rotate(""), &[("infected.pdf", infected)])
        .await
        .unwrap_err();
    assert_eq!(reason(&virus), "virus-found", "{virus:?}");
    let text = toolbox
        .run(rotate(""), &[("notes.pdf", b"just some text".to_vec())])
        .await
        .unwrap_err();
    assert_eq!(reason(&text), "unsupported-file-type");
    let past_the_end = toolbox
        .run(rotate("7"), &[("two.pdf", labelled("Two", 2))])
        .await
        .unwrap_err();
    assert_eq!(past_the_end.code(), Code::InvalidArgument);
    assert_eq!(reason(&past_the_end), "invalid-argument");
    assert!(
        past_the_end.message().contains('7'),
        "{}",
        past_the_end.message()
    );
    let one_file = toolbox
        .run(
            Tool::Merge(v1::MergeOptions {}),
            &[("one.pdf", labelled("One", 1))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&one_file), "invalid-argument");
    let no_bookmarks = toolbox
        .run(
            Tool::Split(v1::SplitOptions {
                mode: Some(v1::split_options::Mode::Bookmarks(true)),
            }),
            &[("flat.pdf", labelled("Flat", 2))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&no_bookmarks), "invalid-argument");
    let mut cut = labelled("Cut", 2);
    cut.truncate(cut.len() / 3);
    let cut = toolbox
        .run(rotate(""), &[("cut.pdf", cut)])
        .await
        .unwrap_err();
    assert!(
        ["invalid-file", "invalid-argument"].contains(&reason(&cut).as_str()),
        "{cut:?}"
    );
    // The staging directory holds nothing once the answers are out.
    let staging = &stack.core.processing.staging;
    let left: Vec<_> = std::fs::read_dir(staging)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_keys_are_refused_and_the_route_needs_a_session() {
    let stack = Stack::start(Db::Sqlite).await;
    let (account_id, key) = stack
        .account_with_key(Plan::Pro, "upload,read,process")
        .await;
    let mut client = ToolServiceClient::connect(stack.grpc.clone())
        .await
        .unwrap();
    let request = authed(
        futures::stream::iter(messages(
            Tool::Merge(v1::MergeOptions {}),
            &[("a.pdf", labelled("A", 1)), ("b.pdf", labelled("B", 1))],
        )),
        &key,
    );
    let refused = client.run_tool(request).await.unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    assert_eq!(reason(&refused), "web-only-tool");
    assert_eq!(
        stack.calls_today(account_id).await,
        0,
        "a refusal is not counted"
    );

    // Over HTTP: the key gets the same 403 as problem+json.
    // No redirects: the log-in's 303 carries the session cookie.
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let form = || {
        reqwest::multipart::Form::new().text("degrees", "180").part(
            "file",
            reqwest::multipart::Part::bytes(labelled("Web", 2)).file_name("web.pdf"),
        )
    };
    let with_key = http
        .post(stack.url("/tools/rotate/run"))
        .bearer_auth(&key)
        .multipart(form())
        .send()
        .await
        .unwrap();
    problem(with_key, 403, "web-only-tool").await;

    // A web session: without the anti-CSRF token, refused; with it, the rotated PDF.
    let cookie = stack.web_session(&http, "web@example.com").await;
    let page = http
        .get(stack.url("/tools/rotate"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("data-endpoint=\"/tools/rotate/run\""));
    let csrf = csrf_token(&html).expect("the page carries the anti-CSRF token");
    let without_token = http
        .post(stack.url("/tools/rotate/run"))
        .header("cookie", &cookie)
        .header("origin", stack.base.clone())
        .multipart(form())
        .send()
        .await
        .unwrap();
    problem(without_token, 403, "csrf-rejected").await;
    let done = http
        .post(stack.url("/tools/rotate/run"))
        .header("cookie", &cookie)
        .header("origin", stack.base.clone())
        .header("x-csrf-token", &csrf)
        .multipart(form())
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert_eq!(done.headers()["content-type"], "application/pdf");
    assert_eq!(done.headers()["x-page-count"], "2");
    let disposition = done.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(disposition.contains("web-rotated.pdf"), "{disposition}");
    let pdf = done.bytes().await.unwrap().to_vec();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    for id in doc.get_pages().values() {
        let rotate = doc.get_dictionary(*id).unwrap().get(b"Rotate").unwrap();
        assert_eq!(rotate.as_i64().unwrap(), 180);
    }
    // The tool list shows the toolbox.
    let list = http
        .get(stack.url("/tools"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for slug in [
        "merge",
        "split",
        "rotate",
        "organize",
        "remove-blank",
        "watermark",
        "page-numbers",
        "metadata",
        "protect",
        "unlock",
        "sanitize",
        "pdf-to-jpg",
        "compare",
        "images-to-pdf",
        "extract-images",
        "flatten",
        "repair",
        "crop",
    ] {
        assert!(list.contains(&format!("href=\"/tools/{slug}\"")), "{slug}");
        let page = http
            .get(stack.url(&format!("/tools/{slug}")))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200, "{slug}");
        let html = page.text().await.unwrap();
        assert!(
            html.contains(&format!("data-endpoint=\"/tools/{slug}/run\"")),
            "{slug}"
        );
    }
}
