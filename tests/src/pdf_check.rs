//! What a reader sees of a PDF, read with PDFium (the library the service renders with), and
//! the comparison of a compressed PDF against its input: page count and sizes, the text PDFium
//! extracts from each page, links and their targets, annotations, form fields and their values,
//! outline titles, and each page's render, compared by PSNR.
//!
//! PDFium is not thread-safe and pdfium-render binds it once per process: one thread owns it
//! and the tests send it their documents.

use std::{
    fmt::Write as _,
    panic::AssertUnwindSafe,
    sync::{OnceLock, mpsc},
};

use pdfium_render::prelude::*;

/// Resolution pages are rendered at for the PSNR comparison: low enough to render a corpus in
/// seconds, high enough that a lost glyph or a blocky image shows.
pub const RENDER_DPI: f32 = 60.0;
/// A render is capped at this many pixels a side (posters, maps): the same cap on both sides.
const MAX_SIDE: i32 = 1200;
/// Pages rendered per document: the first ones (title pages, figures, forms come early); the
/// text, links, annotations and fields of every page are compared all the same. Keeps a corpus
/// of 300-page manuals within the test's time.
pub const MAX_RENDERED_PAGES: usize = 12;
/// Bookmarks read at most; a cycle in a broken outline stops here.
const MAX_BOOKMARKS: usize = 5000;

/// One page as a reader meets it.
#[derive(Clone, Debug)]
pub struct PageFacts {
    /// Width and height in points, as displayed.
    pub size: (f32, f32),
    /// The page's text as PDFium extracts it, whitespace runs collapsed to one space.
    pub text: String,
    /// Each link: `uri <target>`, `page <n>` (1-based) or the kind of action.
    pub links: Vec<String>,
    /// Each annotation's subtype, in page order.
    pub annotations: Vec<String>,
    /// Each form field widget: `name (type) = value`.
    pub fields: Vec<String>,
    /// The render, or why there is none (PDFium failed, or past [`MAX_RENDERED_PAGES`]).
    pub render: Result<Render, String>,
}

/// A page rendered at [`RENDER_DPI`], RGB.
#[derive(Clone, Debug)]
pub struct Render {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Facts {
    pub pages: Vec<PageFacts>,
    /// Outline entries, depth first, each indented by its depth.
    pub outline: Vec<String>,
}

type Job = Box<dyn FnOnce(&Pdfium) + Send>;

fn pdfium_thread() -> &'static mpsc::Sender<Job> {
    static SENDER: OnceLock<mpsc::Sender<Job>> = OnceLock::new();
    SENDER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("pdfium".into())
            .spawn(move || {
                let library = crate::pdfium_lib();
                let bindings = Pdfium::bind_to_library(&library).unwrap_or_else(|e| {
                    panic!(
                        "cannot load PDFium from {} ({e}): run scripts/setup.sh",
                        library.display()
                    )
                });
                let pdfium = Pdfium::new(bindings);
                for job in rx {
                    job(&pdfium);
                }
            })
            .expect("PDFium thread");
        tx
    })
}

/// Reads `pdf` with PDFium on its thread; `Err` when PDFium cannot open it (or panics on it).
pub async fn facts(pdf: Vec<u8>) -> Result<Facts, String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    pdfium_thread()
        .send(Box::new(move |pdfium: &Pdfium| {
            let result = std::panic::catch_unwind(AssertUnwindSafe(|| read(pdfium, pdf)))
                .unwrap_or_else(|_| Err("pdfium-render panicked on the file".into()));
            let _ = tx.send(result);
        }))
        .expect("PDFium thread alive");
    rx.await.expect("PDFium thread answers")
}

fn read(pdfium: &Pdfium, pdf: Vec<u8>) -> Result<Facts, String> {
    let document = pdfium
        .load_pdf_from_byte_vec(pdf, None)
        .map_err(|e| format!("PDFium cannot open it: {e:?}"))?;
    let mut pages = Vec::new();
    for (index, page) in document.pages().iter().enumerate() {
        let rendered = index < MAX_RENDERED_PAGES;
        pages.push(read_page(&page, rendered).map_err(|e| format!("page {}: {e}", index + 1))?);
    }
    Ok(Facts {
        pages,
        outline: outline(&document),
    })
}

fn read_page(page: &PdfPage, rendered: bool) -> Result<PageFacts, String> {
    let text = page
        .text()
        .map(|t| normalise(&t.all()))
        .map_err(|e| format!("no text layer: {e:?}"))?;
    let links = page
        .links()
        .iter()
        .map(|link| describe_link(&link))
        .collect();
    let mut annotations = Vec::new();
    let mut fields = Vec::new();
    for annotation in page.annotations().iter() {
        annotations.push(format!("{:?}", annotation.annotation_type()));
        if let Some(field) = annotation.as_form_field() {
            fields.push(describe_field(field));
        }
    }
    Ok(PageFacts {
        size: (page.width().value, page.height().value),
        text,
        links,
        annotations,
        fields,
        render: if rendered {
            render(page)
        } else {
            Err("not rendered".into())
        },
    })
}

fn describe_link(link: &PdfLink) -> String {
    let page_of = |d: &PdfDestination| {
        d.page_index()
            .map_or_else(|_| "page ?".to_owned(), |i| format!("page {}", i + 1))
    };
    if let Some(action) = link.action() {
        if let Some(uri) = action.as_uri_action() {
            return format!("uri {}", uri.uri().unwrap_or_default());
        }
        if let Some(local) = action.as_local_destination_action() {
            return local
                .destination()
                .map_or_else(|_| "goto ?".to_owned(), |d| page_of(&d));
        }
        return format!("action {:?}", action.action_type());
    }
    match link.destination() {
        Some(destination) => page_of(&destination),
        None => "no target".to_owned(),
    }
}

fn describe_field(field: &PdfFormField) -> String {
    let value = match field {
        PdfFormField::Text(f) => f.value(),
        PdfFormField::ComboBox(f) => f.value(),
        PdfFormField::ListBox(f) => f.value(),
        PdfFormField::Checkbox(f) => f.is_checked().ok().map(|c| c.to_string()),
        PdfFormField::RadioButton(f) => f.is_checked().ok().map(|c| c.to_string()),
        _ => None,
    };
    format!(
        "{} ({:?}) = {}",
        field.name().unwrap_or_default(),
        field.field_type(),
        value.unwrap_or_default()
    )
}

fn outline(document: &PdfDocument) -> Vec<String> {
    let mut titles = Vec::new();
    let mut stack: Vec<(PdfBookmark, usize)> = Vec::new();
    if let Some(root) = document.bookmarks().root() {
        stack.push((root, 0));
    }
    // Depth first: a bookmark, its children, then its next sibling.
    while let Some((bookmark, depth)) = stack.pop() {
        if titles.len() >= MAX_BOOKMARKS || depth > 64 {
            break;
        }
        titles.push(format!(
            "{}{}",
            "  ".repeat(depth),
            bookmark.title().unwrap_or_default().trim()
        ));
        if let Some(next) = bookmark.next_sibling() {
            stack.push((next, depth));
        }
        if let Some(child) = bookmark.first_child() {
            stack.push((child, depth + 1));
        }
    }
    titles
}

fn render(page: &PdfPage) -> Result<Render, String> {
    let config = PdfRenderConfig::new()
        .scale_page_by_factor(RENDER_DPI / 72.0)
        .set_maximum_width(MAX_SIDE)
        .set_maximum_height(MAX_SIDE)
        .render_annotations(true)
        .render_form_data(true);
    let bitmap = page
        .render_with_config(&config)
        .map_err(|e| format!("{e:?}"))?;
    let rgba = bitmap.as_rgba_bytes();
    Ok(Render {
        width: bitmap.width() as u32,
        height: bitmap.height() as u32,
        rgb: rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
    })
}

/// Whitespace runs become one space: where a writer breaks lines or pads is not text.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Peak signal-to-noise ratio of two RGB renders of one size, in dB (infinite when equal).
pub fn psnr(a: &Render, b: &Render) -> f64 {
    let squared: u64 = a
        .rgb
        .iter()
        .zip(&b.rgb)
        .map(|(&x, &y)| {
            let d = i64::from(x) - i64::from(y);
            (d * d) as u64
        })
        .sum();
    if squared == 0 {
        return f64::INFINITY;
    }
    let mse = squared as f64 / a.rgb.len() as f64;
    10.0 * (255.0 * 255.0 / mse).log10()
}

/// What a comparison measured, for the log.
#[derive(Clone, Debug, Default)]
pub struct Measured {
    /// Each compared page's PSNR: (page, dB), pages from 1.
    pub psnr: Vec<(usize, f64)>,
}

impl Measured {
    /// The lowest page PSNR: (page, dB).
    pub fn worst(&self) -> Option<(usize, f64)> {
        self.psnr.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1))
    }
}

/// Compares `output` to `input`: every difference becomes one line naming `label` (file and
/// preset), the page (1-based) and the fact. A page whose PSNR against the input's render is
/// under `floor_db` is a difference too.
pub fn compare(
    label: &str,
    input: &Facts,
    output: &Facts,
    floor_db: f64,
) -> (Vec<String>, Measured) {
    let mut diffs = Vec::new();
    let mut measured = Measured::default();
    if input.pages.len() != output.pages.len() {
        diffs.push(format!(
            "{label}: page count {} became {}",
            input.pages.len(),
            output.pages.len()
        ));
    }
    if input.outline != output.outline {
        diffs.push(format!(
            "{label}: outline differs: {}",
            first_difference(&input.outline, &output.outline)
        ));
    }
    for (index, (a, b)) in input.pages.iter().zip(&output.pages).enumerate() {
        let page = index + 1;
        let at = |fact: &str| format!("{label}: page {page}: {fact}");
        if (a.size.0 - b.size.0).abs() > 0.01 || (a.size.1 - b.size.1).abs() > 0.01 {
            diffs.push(format!("{} {:?} became {:?}", at("size"), a.size, b.size));
        }
        if a.text != b.text {
            diffs.push(format!(
                "{} {}",
                at("extracted text differs:"),
                text_difference(&a.text, &b.text)
            ));
        }
        for (fact, x, y) in [
            ("links", &a.links, &b.links),
            ("annotations", &a.annotations, &b.annotations),
            ("form fields", &a.fields, &b.fields),
        ] {
            if x != y {
                diffs.push(format!(
                    "{} {} in the input, {} in the output: {}",
                    at(fact),
                    x.len(),
                    y.len(),
                    first_difference(x, y)
                ));
            }
        }
        match (&a.render, &b.render) {
            (Ok(x), Ok(y)) if (x.width, x.height) != (y.width, y.height) => diffs.push(format!(
                "{} {}x{} became {}x{}",
                at("render size"),
                x.width,
                x.height,
                y.width,
                y.height
            )),
            (Ok(x), Ok(y)) => {
                let db = psnr(x, y);
                measured.psnr.push((page, db));
                if db < floor_db {
                    diffs.push(format!(
                        "{} {db:.2} dB against the input's render, under the floor of {floor_db} dB",
                        at("PSNR")
                    ));
                }
            }
            (Ok(_), Err(e)) => diffs.push(format!("{} {e}", at("the output does not render:"))),
            // The input does not render either: nothing to hold the output to.
            (Err(_), _) => {}
        }
    }
    (diffs, measured)
}

fn first_difference(a: &[String], b: &[String]) -> String {
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    format!(
        "entry {}: {:?} became {:?}",
        at + 1,
        a.get(at).map_or("(none)", String::as_str),
        b.get(at).map_or("(none)", String::as_str)
    )
}

/// Where two texts part, with some context on each side.
pub fn text_difference(a: &str, b: &str) -> String {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let around = |t: &[char]| -> String {
        let start = at.saturating_sub(30);
        let end = (at + 50).min(t.len());
        t[start.min(end)..end].iter().collect()
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "{} chars vs {}, first difference at char {at}: input «{}» output «{}»",
        a.len(),
        b.len(),
        around(&a),
        around(&b)
    );
    out
}
