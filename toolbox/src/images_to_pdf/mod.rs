//! Images to PDF: one page per image (per page of a multi-page TIFF), each image an image
//! XObject drawn by a one-line content stream. JPEGs go in as they are (DCTDecode); the other
//! kinds are decoded with `image`, one at a time, and stored Flate-compressed (see
//! [`raster`]). The EXIF orientation is applied by the drawing matrix, never to the samples.
//!
//! The document is built with lopdf and written as every output of the crate is (object
//! streams, a cross-reference stream): its compressed image streams are held until then, but
//! no decoded image outlives its page.

mod jpeg;
mod kind;
mod place;
mod raster;
mod tiff;

use std::path::Path;

use image::metadata::Orientation as Exif;
use lopdf::{Document, Object, ObjectId, Stream, dictionary};

use crate::{ToolError, Written};
use kind::Kind;
use place::{Dpi, Placement};
use raster::{Failure, Raster};

/// The paper of the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageSize {
    /// Each page the image's own size at its DPI (72 when none is recorded).
    Fit,
    A4,
    Letter,
}

/// How the paper is turned (not used with [`PageSize::Fit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// Portrait or landscape per image, whichever fits it better.
    Auto,
    Portrait,
    Landscape,
}

#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub size: PageSize,
    pub orientation: Orientation,
    /// Points, each side (ignored for Fit).
    pub margin: f32,
}

/// One page per image (every frame of a multi-page TIFF), in the order given: JPEG embedded as
/// it is (DCTDecode, never re-encoded; gray, RGB and Adobe CMYK with inverted /Decode; EXIF
/// orientation honoured by the page's placement matrix, not by re-encoding); PNG, WebP, TIFF,
/// BMP decoded with `image` and stored Flate (RGB or Gray, 8-bit, or 1-bit when a gray image
/// is only black and white; alpha as /SMask only when some pixel is not opaque; 16-bit reduced
/// to 8); the image scaled to fit inside the margins, centred, aspect kept. An input that is
/// not an image of these kinds -> BadOptions naming the file's position ("file 3 is not a JPEG,
/// PNG, WebP, TIFF or BMP image"); a damaged or truncated one -> InvalidFile naming it. Images
/// larger than `max_pixels` (width*height of one frame) -> BadOptions naming the file and its
/// size. The resolution is read from JFIF/EXIF (JPEG), pHYs (PNG), the TIFF tags and the BMP
/// header; a Fit page is kept within PDF's 3 to 14400 points a side. The output's /Info
/// /Producer is "Quire". Returns the page count.
pub fn images_to_pdf(
    inputs: &[&Path],
    layout: Layout,
    max_pixels: u64,
    output: &Path,
) -> Result<Written, ToolError> {
    if inputs.is_empty() {
        return Err(ToolError::BadOptions("no images to convert".into()));
    }
    if !place::margin_fits(&layout) {
        return Err(ToolError::BadOptions(format!(
            "a margin of {} points does not fit on the page",
            layout.margin
        )));
    }
    let mut book = Book::new(layout)?;
    for (index, path) in inputs.iter().enumerate() {
        let file = index + 1;
        let bytes = std::fs::read(path)
            .map_err(|e| ToolError::Io(format!("cannot read file {file}: {e}")))?;
        if bytes.is_empty() {
            return Err(ToolError::BadOptions(format!("file {file} is empty")));
        }
        let kind = Kind::sniff(&bytes).ok_or_else(|| {
            ToolError::BadOptions(format!(
                "file {file} is not a JPEG, PNG, WebP, TIFF or BMP image"
            ))
        })?;
        let name = Name {
            file,
            kind,
            page: None,
            max_pixels,
        };
        match kind {
            Kind::Jpeg => {
                let jpeg = jpeg::read(&bytes).map_err(|problem| match problem {
                    jpeg::Problem::Damaged => name.failed(Failure::Damaged(String::new())),
                    jpeg::Problem::Unsupported => name.failed(Failure::Unsupported(
                        "lossless, arithmetic-coded or 12-bit JPEG".into(),
                    )),
                })?;
                name.check(jpeg.width, jpeg.height)?;
                let pixels = (jpeg.width, jpeg.height);
                let (dpi, exif) = (jpeg.dpi, jpeg.exif);
                book.add(jpeg.stream(bytes), None, pixels, dpi, exif)?;
            }
            Kind::Tiff => tiff_pages(&mut book, bytes, file, max_pixels)?,
            _ => {
                let raster = raster::decode(&bytes, kind.format(), max_pixels)
                    .map_err(|failure| name.failed(failure))?;
                book.add_raster(raster, kind.density(&bytes))?;
            }
        }
    }
    book.save(output)
}

/// Every page of a TIFF file, decoded one by one from the file with its header pointed at it.
fn tiff_pages(
    book: &mut Book,
    mut bytes: Vec<u8>,
    file: usize,
    max_pixels: u64,
) -> Result<(), ToolError> {
    let mut name = Name {
        file,
        kind: Kind::Tiff,
        page: None,
        max_pixels,
    };
    let directories = tiff::Tiff::parse(&bytes)
        .map(|t| t.pages())
        .unwrap_or_default();
    if directories.is_empty() {
        return Err(name.failed(Failure::Damaged("no image directory".into())));
    }
    let several = directories.len() > 1;
    for (index, directory) in directories.into_iter().enumerate() {
        name.page = several.then_some(index + 1);
        let dpi = tiff::Tiff::parse(&bytes).and_then(|t| t.resolution(directory));
        tiff::point_at(&mut bytes, directory)
            .ok_or_else(|| name.failed(Failure::Damaged(String::new())))?;
        let raster = raster::decode(&bytes, Kind::Tiff.format(), max_pixels)
            .map_err(|failure| name.failed(failure))?;
        book.add_raster(raster, dpi)?;
    }
    Ok(())
}

/// An input named in messages: "file 3", "file 3 (page 2 of the TIFF)".
struct Name {
    file: usize,
    kind: Kind,
    page: Option<usize>,
    max_pixels: u64,
}

impl Name {
    fn label(&self) -> String {
        match self.page {
            Some(page) => format!("file {} (page {page} of the TIFF)", self.file),
            None => format!("file {}", self.file),
        }
    }

    fn check(&self, width: u32, height: u32) -> Result<(), ToolError> {
        if u64::from(width) * u64::from(height) > self.max_pixels {
            return Err(self.failed(Failure::TooLarge(width, height)));
        }
        Ok(())
    }

    fn failed(&self, failure: Failure) -> ToolError {
        let (label, kind) = (self.label(), self.kind.name());
        match failure {
            Failure::TooLarge(width, height) => ToolError::BadOptions(format!(
                "{label} is {width} x {height} pixels ({}): images of at most {} can be converted",
                megapixels(u64::from(width) * u64::from(height)),
                megapixels(self.max_pixels),
            )),
            Failure::Unsupported(detail) => ToolError::BadOptions(format!(
                "{label} is a {kind} image of a kind that cannot be converted ({detail})"
            )),
            Failure::Damaged(detail) if detail.is_empty() => {
                ToolError::InvalidFile(format!("{label} is a damaged or truncated {kind} image"))
            }
            Failure::Damaged(detail) => ToolError::InvalidFile(format!(
                "{label} is a damaged or truncated {kind} image: {detail}"
            )),
        }
    }
}

/// "12.3 megapixels"; below 0.1 megapixel, in pixels.
fn megapixels(pixels: u64) -> String {
    if pixels < 100_000 {
        format!("{pixels} pixels")
    } else {
        format!("{:.1} megapixels", pixels as f64 / 1e6)
    }
}

/// The document being built: its page tree's kids so far.
struct Book {
    doc: Document,
    pages: ObjectId,
    kids: Vec<Object>,
    layout: Layout,
}

impl Book {
    fn new(layout: Layout) -> Result<Book, ToolError> {
        let mut doc = Document::with_version("1.7");
        let pages = crate::io::new_id(&mut doc)?;
        Ok(Book {
            doc,
            pages,
            kids: Vec::new(),
            layout,
        })
    }

    fn add_raster(&mut self, raster: Raster, dpi: Option<Dpi>) -> Result<(), ToolError> {
        let pixels = (raster.width, raster.height);
        self.add(raster.image, raster.mask, pixels, dpi, raster.exif)
    }

    /// A page showing `image` (of `pixels` as stored) placed by the layout.
    fn add(
        &mut self,
        mut image: Stream,
        mask: Option<Stream>,
        pixels: (u32, u32),
        dpi: Option<Dpi>,
        exif: Exif,
    ) -> Result<(), ToolError> {
        let Placement { page, matrix } =
            place::place(pixels, dpi.unwrap_or(Dpi::DEFAULT), exif, &self.layout);
        if let Some(mask) = mask {
            image.dict.set("SMask", self.doc.add_object(mask));
        }
        let image = self.doc.add_object(image);
        let [a, b, c, d, e, f] = matrix.map(number);
        let drawing = format!("q {a} {b} {c} {d} {e} {f} cm /Im0 Do Q");
        let contents = self
            .doc
            .add_object(Stream::new(dictionary! {}, drawing.into_bytes()));
        let media: Vec<Object> = vec![0.into(), 0.into(), real(page.0), real(page.1)];
        let page = self.doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => self.pages, "MediaBox" => media,
            "Resources" => dictionary! { "XObject" => dictionary! { "Im0" => image } },
            "Contents" => contents,
        });
        self.kids.push(page.into());
        Ok(())
    }

    fn save(mut self, output: &Path) -> Result<Written, ToolError> {
        let count = crate::count(self.kids.len());
        let pages = dictionary! { "Type" => "Pages", "Count" => count, "Kids" => self.kids };
        self.doc.objects.insert(self.pages, pages.into());
        let catalog = self
            .doc
            .add_object(dictionary! { "Type" => "Catalog", "Pages" => self.pages });
        let info = self
            .doc
            .add_object(dictionary! { "Producer" => Object::string_literal("Quire") });
        self.doc.trailer.set("Root", catalog);
        self.doc.trailer.set("Info", info);
        crate::io::save(&mut self.doc, output)?;
        tracing::debug!(pages = count, "images converted");
        Ok(Written { pages: count })
    }
}

/// A number for a content stream: at most 4 decimals, no trailing zeros.
fn number(value: f64) -> String {
    crate::geometry::number_to(value, 4)
}

fn real(value: f64) -> Object {
    Object::Real(value as f32)
}
