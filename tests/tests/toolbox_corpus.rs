//! Every PDF of the pypdf and pikepdf test resources (real-world, odd and deliberately broken
//! files, in .cache/pdf-corpus) through every toolbox tool that takes one PDF, over real gRPC
//! with the workers: no answer may be an internal error, no call may hang, and a PDF answer
//! must open in PDFium with the page count the summary gives.

use std::time::Duration;

use futures::StreamExt;
use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack,
    pdf_check::facts,
    pdf_corpus,
    toolbox::{Toolbox, reason},
    v1,
};
use tonic::Code;
use v1::tool_options::Tool;

/// Far above any single file's time with the per-job limit; reaching it means a hang.
const HANG: Duration = Duration::from_secs(240);

/// Each one-PDF tool with options a person would pick; `QUIRE_CORPUS_TOOLS=redact,pdfa`
/// keeps only those (a developer's run after changing one engine).
fn tools() -> Vec<(&'static str, Tool)> {
    let only = std::env::var("QUIRE_CORPUS_TOOLS").unwrap_or_default();
    let mut tools = all_tools();
    if !only.is_empty() {
        tools.retain(|(slug, _)| only.split(',').any(|o| o.trim() == *slug));
    }
    tools
}

fn all_tools() -> Vec<(&'static str, Tool)> {
    vec![
        (
            "split",
            Tool::Split(v1::SplitOptions {
                mode: Some(v1::split_options::Mode::Every(1)),
            }),
        ),
        (
            "rotate",
            Tool::Rotate(v1::RotateOptions {
                degrees: 90,
                pages: String::new(),
            }),
        ),
        (
            "organize",
            Tool::Organize(v1::OrganizeOptions {
                slots: vec![
                    v1::PageSlot {
                        slot: Some(v1::page_slot::Slot::Page(1)),
                    },
                    v1::PageSlot {
                        slot: Some(v1::page_slot::Slot::Blank(true)),
                    },
                ],
            }),
        ),
        (
            "protect",
            Tool::Protect(v1::ProtectOptions {
                user_password: "corpus".into(),
                ..Default::default()
            }),
        ),
        (
            "metadata",
            Tool::Metadata(v1::MetadataOptions {
                action: Some(v1::metadata_options::Action::Read(true)),
            }),
        ),
        ("sanitize", Tool::Sanitize(v1::SanitizeOptions::default())),
        (
            "watermark",
            Tool::Watermark(v1::WatermarkOptions {
                text: "Brouillon — Черновик".into(),
                position: v1::StampPosition::Tiled as i32,
                ..Default::default()
            }),
        ),
        (
            "page-numbers",
            Tool::PageNumbers(v1::PageNumbersOptions {
                format: "ACME-{n:6}".into(),
                ..Default::default()
            }),
        ),
        (
            "remove-blank",
            Tool::RemoveBlank(v1::RemoveBlankOptions::default()),
        ),
        (
            "pdf-to-jpg",
            Tool::PdfToJpg(v1::PdfToJpgOptions {
                dpi: 36,
                ..Default::default()
            }),
        ),
        (
            "extract-images",
            Tool::ExtractImages(v1::ExtractImagesOptions::default()),
        ),
        ("flatten", Tool::Flatten(v1::FlattenOptions::default())),
        ("repair", Tool::Repair(v1::RepairOptions {})),
        (
            "crop",
            Tool::Crop(v1::CropOptions {
                mode: Some(v1::crop_options::Mode::Auto(v1::CropAuto::default())),
            }),
        ),
        (
            "n-up",
            Tool::Crop(v1::CropOptions {
                mode: Some(v1::crop_options::Mode::NUp(v1::NUp {
                    per_sheet: 4,
                    paper: 0,
                })),
            }),
        ),
        (
            "sign",
            Tool::Sign(v1::SignOptions {
                appearance: Some(v1::sign_options::Appearance::Text("Ada Lovelace".into())),
                placement: Some(v1::SignPlacement {
                    page: 1,
                    x: 0.6,
                    y: 0.85,
                    width: 0.3,
                }),
                ..Default::default()
            }),
        ),
        (
            "fill-form",
            Tool::FillForm(v1::FillFormOptions {
                action: Some(v1::fill_form_options::Action::List(true)),
            }),
        ),
        (
            "redact",
            Tool::Redact(v1::RedactOptions {
                action: Some(v1::redact_options::Action::Apply(v1::RedactApply {
                    areas: vec![v1::RedactArea {
                        page: 1,
                        x: 0.25,
                        y: 0.4,
                        width: 0.5,
                        height: 0.2,
                    }],
                    search: Some(v1::RedactSearch {
                        presets: vec![v1::RedactPreset::Email as i32],
                        ..Default::default()
                    }),
                    label: "REDACTED".into(),
                    clean_document: true,
                    ..Default::default()
                })),
            }),
        ),
        (
            "pdfa",
            Tool::Pdfa(v1::PdfaOptions {
                level: v1::PdfaLevel::A2b as i32,
            }),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_corpus_pdf_through_every_tool_gets_an_answer_and_never_an_internal_error() {
    let stack = Stack::start(Db::Sqlite).await;
    let toolbox = Toolbox::open(&stack, "corpus@example.com").await;
    // Pro: the run makes far more calls than a Free day allows.
    quire_core::auth::accounts::set_plan(&stack.core.db, "corpus@example.com", Plan::Pro)
        .await
        .unwrap();
    let jobs: Vec<_> = pdf_corpus()
        .into_iter()
        .flat_map(|file| tools().into_iter().map(move |tool| (file.clone(), tool)))
        .collect();
    let total = jobs.len();
    let outcomes: Vec<Result<(), String>> = futures::stream::iter(jobs)
        .map(|(file, (slug, tool))| {
            let mut toolbox = Toolbox {
                client: toolbox.client.clone(),
                session: toolbox.session.clone(),
            };
            async move {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                let bytes = std::fs::read(&file).unwrap();
                let what = format!("{slug} {name}");
                let answer = tokio::time::timeout(HANG, toolbox.run(tool, &[(&name, bytes)]))
                    .await
                    .map_err(|_| format!("{what}: no answer within {HANG:?}"))?;
                match answer {
                    Ok((summary, bytes)) => {
                        if summary.media_type == "application/pdf" && slug != "protect" {
                            let read = facts(bytes)
                                .await
                                .map_err(|e| format!("{what}: the PDF does not open: {e}"))?;
                            if read.pages.len() != summary.page_count as usize {
                                return Err(format!(
                                    "{what}: {} pages, the summary says {}",
                                    read.pages.len(),
                                    summary.page_count
                                ));
                            }
                        }
                        Ok(())
                    }
                    Err(status) if matches!(status.code(), Code::Internal | Code::Unknown) => {
                        Err(format!(
                            "{what}: internal error {}: {}",
                            reason(&status),
                            status.message()
                        ))
                    }
                    Err(status) if status.message().is_empty() => Err(format!(
                        "{what}: a refusal that says nothing ({})",
                        reason(&status)
                    )),
                    Err(_) => Ok(()),
                }
            }
        })
        .buffer_unordered(2)
        .collect()
        .await;
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    println!(
        "{total} tool runs over the corpus, {} failures",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
