//! Inside a worker: the engines, loaded once, and what each job does with them.

use std::path::{Path, PathBuf};

use pdfium_render::prelude::Pdfium;

use super::protocol::{
    Answer, Checked, Compress, CompressCheck, Compressed, Failure, FailureKind, Inspect, Job, Ocr,
    Page, Render, Source, Task, Text,
};
use super::toolbox::{Converters, EngineSettings};
use quire_compress as compress;

use crate::{
    ocr::{image_input, tesseract::Tesseract},
    pdf::{self, render},
};

/// Resolution pages without a text layer are rendered at for OCR, as the issue asks and as
/// Tesseract's models expect.
pub const OCR_DPI: u32 = 300;
/// A page whose text layer has at least this many letters and digits is taken as text.
const REAL_TEXT: usize = 16;

pub struct Engines {
    pdfium_lib: PathBuf,
    pdfium: Option<Pdfium>,
    tesseract: Tesseract,
    converters: Converters,
    guard: pdf::guard::Guard,
}

impl Engines {
    pub fn new(pdfium_lib: PathBuf, tessdata: PathBuf, settings: EngineSettings) -> Self {
        Self {
            pdfium_lib,
            pdfium: None,
            tesseract: Tesseract::new(tessdata),
            converters: Converters::new(settings),
            guard: pdf::guard::Guard::default(),
        }
    }

    pub fn preload(&mut self, lang: Option<&str>, engines: &[String]) -> anyhow::Result<()> {
        self.pdfium().map_err(|f| anyhow::anyhow!(f.message))?;
        if let Some(lang) = lang {
            self.tesseract
                .preload(lang)
                .map_err(|f| anyhow::anyhow!(f.message))?;
        }
        self.converters.prewarm(engines)
    }

    pub fn run(&mut self, job: Job) -> Answer {
        // Before any engine sees a PDF: the decoded-size and object limits, for every job.
        if let Err(failure) = self.guard.check(&job) {
            return Answer::Failure(failure);
        }
        let result = match job.task {
            Some(Task::Inspect(inspect)) => self.inspect(inspect),
            Some(Task::Render(render)) => self.render(render),
            Some(Task::Ocr(ocr)) => self.ocr(ocr),
            Some(Task::Compress(compress)) => self.compress(compress),
            Some(Task::CompressCheck(check)) => self.compress_check(check),
            Some(Task::Tool(tool)) => {
                let Engines {
                    pdfium_lib,
                    pdfium,
                    converters,
                    tesseract,
                    ..
                } = self;
                super::toolbox::run(
                    tool,
                    || load_pdfium(pdfium_lib, pdfium),
                    converters,
                    tesseract,
                )
            }
            None => Err(Failure::new(FailureKind::Engine, "empty job")),
        };
        result.unwrap_or_else(Answer::Failure)
    }

    /// Called between jobs, once the answer is sent.
    pub fn idle(&mut self) {
        self.converters.idle();
    }

    fn pdfium(&mut self) -> Result<&Pdfium, Failure> {
        load_pdfium(&self.pdfium_lib, &mut self.pdfium)
    }

    fn inspect(&mut self, Inspect { path, source }: Inspect) -> Result<Answer, Failure> {
        match Source::try_from(source) {
            Ok(Source::Pdf) => pdf::pdfium::inspect(self.pdfium()?, &path).map(Answer::Info),
            _ => {
                let pages = image_input::frames(&path, u64::MAX)?;
                Ok(Answer::Info(super::protocol::Info {
                    pages,
                    ..Default::default()
                }))
            }
        }
    }

    fn render(
        &mut self,
        Render {
            path,
            page,
            dpi,
            max_pixels,
        }: Render,
    ) -> Result<Answer, Failure> {
        let pdfium = self.pdfium()?;
        let document = pdf::pdfium::open(pdfium, &path)?;
        let pdf_page = pdf::pdfium::page(&document, page)?;
        let pixels = render::render(&pdf_page, page, dpi, max_pixels, false)?;
        let png = pdf::png::encode(&pixels)
            .map_err(|e| Failure::new(FailureKind::Engine, format!("PNG encoding failed: {e}")))?;
        Ok(Answer::Page(Page {
            png: png.into(),
            width: pixels.width,
            height: pixels.height,
        }))
    }

    fn ocr(
        &mut self,
        Ocr {
            path,
            source,
            page,
            lang,
            max_pixels,
        }: Ocr,
    ) -> Result<Answer, Failure> {
        let (pixels, dpi) = match Source::try_from(source) {
            Ok(Source::Pdf) => {
                let pdfium = self.pdfium()?;
                let document = pdf::pdfium::open(pdfium, &path)?;
                let pdf_page = pdf::pdfium::page(&document, page)?;
                if let Some(text) = text_layer(&pdf_page) {
                    return Ok(Answer::Text(Text {
                        text,
                        from_text_layer: true,
                    }));
                }
                let pixels = render::render(&pdf_page, page, OCR_DPI, max_pixels, true)?;
                (pixels, Some(OCR_DPI))
            }
            _ => (
                image_input::decode(&path, page, max_pixels)?,
                image_input::declared_dpi(&path),
            ),
        };
        let text = self.tesseract.recognize(&lang, &pixels, dpi)?;
        Ok(Answer::Text(Text {
            text,
            from_text_layer: false,
        }))
    }

    fn compress(
        &mut self,
        Compress {
            input,
            output,
            quality,
            max_pixels,
        }: Compress,
    ) -> Result<Answer, Failure> {
        let preset = compress::Preset::from_quality(quality).ok_or_else(|| {
            Failure::new(FailureKind::Engine, format!("unknown quality {quality}"))
        })?;
        let size = compress::compress(Path::new(&input), Path::new(&output), preset, max_pixels)
            .map_err(compress_failure)?;
        Ok(Answer::Compressed(Compressed { size }))
    }

    fn compress_check(
        &mut self,
        CompressCheck {
            input,
            output,
            quality,
            max_pixels,
            part,
            parts,
        }: CompressCheck,
    ) -> Result<Answer, Failure> {
        let preset = compress::Preset::from_quality(quality).ok_or_else(|| {
            Failure::new(FailureKind::Engine, format!("unknown quality {quality}"))
        })?;
        let verdict = pdf::compress_check::check_part(
            self.pdfium()?,
            Path::new(&input),
            Path::new(&output),
            preset,
            max_pixels,
            (part, parts),
        );
        let (compared, failure) = match verdict {
            Ok(compared) => (compared, String::new()),
            Err(why) => (0, why),
        };
        Ok(Answer::Checked(Checked { compared, failure }))
    }
}

/// PDFium, bound at its first use.
fn load_pdfium<'a>(lib: &Path, slot: &'a mut Option<Pdfium>) -> Result<&'a Pdfium, Failure> {
    if slot.is_none() {
        let bound =
            pdf::pdfium::bind(lib).map_err(|e| Failure::new(FailureKind::Engine, e.to_string()))?;
        *slot = Some(bound);
    }
    slot.as_ref()
        .ok_or_else(|| Failure::new(FailureKind::Engine, "PDFium is not loaded"))
}

fn compress_failure(err: compress::CompressError) -> Failure {
    let kind = match err {
        compress::CompressError::Encrypted => FailureKind::Encrypted,
        compress::CompressError::InvalidFile(_) => FailureKind::InvalidFile,
        compress::CompressError::OverLimit(_) => FailureKind::OverLimit,
        compress::CompressError::Io(_) => FailureKind::Engine,
    };
    Failure::new(kind, err.to_string())
}

/// The page's own text when it has real text (a born-digital page, or a scan that already
/// carries an OCR layer): exact and far faster than OCR.
fn text_layer(page: &pdfium_render::prelude::PdfPage) -> Option<String> {
    let text = page.text().ok()?.all();
    let meaningful = text.chars().filter(|c| c.is_alphanumeric()).count();
    (meaningful >= REAL_TEXT).then(|| text.replace("\r\n", "\n").replace('\r', "\n"))
}
