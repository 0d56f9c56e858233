//! Sign and fill a form over real gRPC with a real worker: a digital signature that poppler's
//! `pdfsig` validates, visible signatures where they were placed, and a form whose fields are
//! listed, filled and flattened, read back by PDFium.

use std::process::Command;

use lopdf::{Object, Stream, dictionary};
use quire_e2e::{
    Db, Stack,
    documents::pkcs12,
    pdf_check::facts,
    toolbox::{Toolbox, labelled, reason, texts},
    v1,
};
use v1::tool_options::Tool;

/// pdfsig's report on a PDF.
fn pdfsig(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("signed.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdfsig")
        .arg(&path)
        .output()
        .expect("pdfsig (poppler-utils) is installed by scripts/setup.sh");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn signature_png() -> Vec<u8> {
    // A dark stroke on a transparent background, as the page's signature pad exports it.
    let mut image = image::RgbaImage::new(300, 100);
    for x in 20..280 {
        let y = 50 + ((x as f32 / 20.0).sin() * 25.0) as u32;
        for dy in 0..4 {
            image.put_pixel(x, y + dy, image::Rgba([20, 20, 120, 255]));
        }
    }
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn sign(appearance: Option<v1::sign_options::Appearance>, certificate: bool) -> Tool {
    Tool::Sign(v1::SignOptions {
        appearance,
        placement: Some(v1::SignPlacement {
            // 0: the last page (page 2 of the contract), where the drawing is looked for.
            page: 0,
            x: 0.55,
            y: 0.8,
            width: 0.3,
        }),
        certificate,
        certificate_password: "p12 secret".into(),
        reason: "Approved".into(),
        location: "Brest".into(),
        contact: String::new(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signatures_validate_and_show_where_placed() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "signer@example.com").await;
    let pdf = labelled("Contract", 2);
    let p12 = pkcs12("Ada Lovelace", "p12 secret");

    // A drawn signature, signed digitally: pdfsig validates it, over the whole file.
    let (summary, signed) = toolbox
        .run(
            sign(Some(v1::sign_options::Appearance::Image(true)), true),
            &[
                ("contract.pdf", pdf.clone()),
                ("signature.png", signature_png()),
                ("ada.p12", p12.clone()),
            ],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "contract-signed.pdf");
    assert_eq!(summary.page_count, 2);
    let signer = summary.notes.iter().find(|n| n.key == "signer").unwrap();
    assert!(signer.value.contains("Ada Lovelace"), "{}", signer.value);
    let report = pdfsig(&signed);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    assert!(report.contains("ETSI.CAdES.detached"), "{report}");
    // The drawing is on page 2, in the right half, near the bottom: dark blue pixels there.
    let read = facts(signed.clone()).await.unwrap();
    assert_eq!(texts(&read), ["Contract page 1", "Contract page 2"]);
    let render = read.pages[1].render.as_ref().unwrap();
    let (w, h) = (render.width as usize, render.height as usize);
    let inked = |x0: usize, x1: usize, y0: usize, y1: usize| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = &render.rgb[(y * w + x) * 3..][..3];
                p[2] > 80 && p[0] < 80
            })
            .count()
    };
    assert!(
        inked(w / 2, w, h * 3 / 4, h) > 50,
        "the signature is drawn where placed"
    );
    assert_eq!(inked(0, w / 2, 0, h / 2), 0, "and nowhere else");

    // A changed byte in the signed file: pdfsig no longer validates it.
    let mut tampered = signed.clone();
    let at = tampered
        .windows(7)
        .position(|w| w == b"Contrac")
        .unwrap_or(200);
    tampered[at] ^= 0x01;
    assert!(!pdfsig(&tampered).contains("Signature is Valid"));

    // A typed name, visible only: no certificate, the name is text on the page.
    let (_, typed) = toolbox
        .run(
            sign(
                Some(v1::sign_options::Appearance::Text("Ada Lovelace".into())),
                false,
            ),
            &[("contract.pdf", pdf.clone())],
        )
        .await
        .unwrap();
    let text = texts(&facts(typed).await.unwrap()).join(" ");
    assert!(text.contains("Ada Lovelace"), "{text}");

    // A wrong certificate password is the user's to fix; a missing file is named.
    let mut wrong = sign(None, true);
    if let Tool::Sign(options) = &mut wrong {
        options.certificate_password = "guess".into();
    }
    let err = toolbox
        .run(wrong, &[("contract.pdf", pdf.clone()), ("ada.p12", p12)])
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&err), "wrong-password");
    let err = toolbox
        .run(sign(None, true), &[("contract.pdf", pdf)])
        .await
        .unwrap_err();
    assert!(err.message().contains("certificate"), "{}", err.message());
}

/// A one-page form: a text field `name` and a check box `agree`, with appearances.
fn form_pdf() -> Vec<u8> {
    let mut doc = lopdf::Document::load_mem(&labelled("Form", 1)).unwrap();
    let page = *doc.get_pages().get(&1).unwrap();
    let helv = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let zadb = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "ZapfDingbats",
    });
    let on = doc.add_object(Stream::new(
        dictionary! { "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 14.into(), 14.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "ZaDb" => zadb } } },
        b"q BT /ZaDb 12 Tf 2 2 Td (4) Tj ET Q".to_vec(),
    ));
    let off = doc.add_object(Stream::new(
        dictionary! { "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 14.into(), 14.into()] },
        Vec::new(),
    ));
    let name = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => Object::string_literal("name"),
        "Rect" => vec![100.into(), 600.into(), 300.into(), 620.into()], "P" => page,
        "DA" => Object::string_literal("/Helv 12 Tf 0 g"), "F" => 4,
    });
    let agree = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Btn", "T" => Object::string_literal("agree"),
        "Rect" => vec![100.into(), 560.into(), 114.into(), 574.into()], "P" => page,
        "V" => "Off", "AS" => "Off", "F" => 4,
        "AP" => dictionary! { "N" => dictionary! { "Yes" => on, "Off" => off } },
    });
    doc.get_object_mut(page)
        .unwrap()
        .as_dict_mut()
        .unwrap()
        .set("Annots", vec![name.into(), agree.into()]);
    let form = doc.add_object(dictionary! {
        "Fields" => vec![name.into(), agree.into()],
        "DA" => Object::string_literal("/Helv 0 Tf 0 g"),
        "DR" => dictionary! { "Font" => dictionary! { "Helv" => helv, "ZaDb" => zadb } },
    });
    doc.catalog_mut().unwrap().set("AcroForm", form);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_are_listed_filled_and_flattened() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "forms@example.com").await;
    let list = Tool::FillForm(v1::FillFormOptions {
        action: Some(v1::fill_form_options::Action::List(true)),
    });
    let (summary, json) = toolbox
        .run(list, &[("form.pdf", form_pdf())])
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/json");
    let listed: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let fields = listed["fields"].as_array().unwrap();
    let kinds: Vec<(&str, &str)> = fields
        .iter()
        .map(|f| (f["name"].as_str().unwrap(), f["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("name", "text"), ("agree", "checkbox")]);
    assert_eq!(fields[1]["options"][0]["export"], "Yes");

    let fill = |flatten: bool, name: &str| {
        Tool::FillForm(v1::FillFormOptions {
            action: Some(v1::fill_form_options::Action::Fill(v1::FormValues {
                values: [
                    ("name".to_owned(), "Grace Hopper".to_owned()),
                    ("agree".to_owned(), "true".to_owned()),
                ]
                .into_iter()
                .chain((!name.is_empty()).then(|| (name.to_owned(), "x".to_owned())))
                .collect(),
                flatten,
            })),
        })
    };
    let (summary, filled) = toolbox
        .run(fill(false, ""), &[("form.pdf", form_pdf())])
        .await
        .unwrap();
    assert_eq!(summary.filename, "form-filled.pdf");
    let page = &facts(filled).await.unwrap().pages[0];
    assert!(
        page.fields
            .iter()
            .any(|f| f.contains("name") && f.contains("Grace Hopper")),
        "{:?}",
        page.fields
    );
    let (_, flat) = toolbox
        .run(fill(true, ""), &[("form.pdf", form_pdf())])
        .await
        .unwrap();
    let page = &facts(flat).await.unwrap().pages[0];
    assert!(page.fields.is_empty(), "no field left: {:?}", page.fields);
    assert!(
        page.text.contains("Grace Hopper"),
        "burnt in: {}",
        page.text
    );

    let unknown = toolbox
        .run(fill(false, "nickname"), &[("form.pdf", form_pdf())])
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::InvalidArgument);
    assert!(
        unknown.message().contains("nickname"),
        "{}",
        unknown.message()
    );
}

/// A form that asks viewers to draw its fields (/NeedAppearances), its text field filled but
/// with no appearance, which every viewer shows: flattened, the value is page text and the
/// box is still checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flatten_keeps_the_values_viewers_draw() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "flatten-forms@example.com").await;
    let mut doc = lopdf::Document::load_mem(&form_pdf()).unwrap();
    let form = doc
        .catalog()
        .unwrap()
        .get(b"AcroForm")
        .unwrap()
        .as_reference()
        .unwrap();
    let form = doc.get_dictionary_mut(form).unwrap();
    form.set("NeedAppearances", true);
    let fields = form.get(b"Fields").unwrap().as_array().unwrap().clone();
    let [name, agree] = [&fields[0], &fields[1]].map(|f| f.as_reference().unwrap());
    let name = doc.get_dictionary_mut(name).unwrap();
    name.set("V", Object::string_literal("Hello 42"));
    let agree = doc.get_dictionary_mut(agree).unwrap();
    agree.set("V", "Yes");
    agree.set("AS", "Yes");
    let mut pdf = Vec::new();
    doc.save_to(&mut pdf).unwrap();

    let (summary, flat) = toolbox
        .run(
            Tool::Flatten(v1::FlattenOptions::default()),
            &[("form.pdf", pdf)],
        )
        .await
        .unwrap();
    let notes: Vec<(&str, &str)> = summary
        .notes
        .iter()
        .map(|n| (n.key.as_str(), n.value.as_str()))
        .collect();
    assert!(
        notes.contains(&("form fields drawn from their values first", "1")),
        "{notes:?}"
    );
    assert!(notes.contains(&("form fields burnt in", "2")), "{notes:?}");
    let page = &facts(flat).await.unwrap().pages[0];
    assert!(page.fields.is_empty(), "no field left: {:?}", page.fields);
    assert!(page.text.contains("Hello 42"), "burnt in: {}", page.text);
    // The check mark of the /AS state's appearance (its off state draws nothing): dark pixels
    // in the box, [100 560 114 574] on the A4 page.
    let render = page.render.as_ref().unwrap();
    let (w, h) = (render.width as usize, render.height as usize);
    let (sx, sy) = (w as f32 / 595.276, h as f32 / 841.89);
    let (x0, x1) = ((100.0 * sx) as usize, (114.0 * sx) as usize);
    let (y0, y1) = (
        ((841.89 - 574.0) * sy) as usize,
        ((841.89 - 560.0) * sy) as usize,
    );
    let dark = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| render.rgb[(y * w + x) * 3] < 100)
        .count();
    assert!(dark > 3, "the box is checked: {dark} dark pixels");
}
