//! Images to PDF, on images made here with `image` (and a 3-page TIFF written by hand: the
//! `image` crate's encoder writes one page and does not re-export `tiff`): page count, JPEG
//! bytes kept, soft masks only for real transparency, placement inside the margins, Fit at the
//! recorded resolution, EXIF orientation by the matrix, and poppler's view of the result
//! (pdfimages lists and extracts the images, pdftoppm renders the pages). Bad inputs are
//! errors naming the file, never panics.
#![allow(clippy::unwrap_used)]

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;

use image::codecs::jpeg::{JpegEncoder, PixelDensity, PixelDensityUnit};
use image::{DynamicImage, GrayImage, ImageBuffer, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use lopdf::{Document, Object, ObjectId, Stream};
use quire_toolbox::ToolError;
use quire_toolbox::images_to_pdf::{Layout, Orientation, PageSize, images_to_pdf};

const PDFIMAGES: &str = "/usr/bin/pdfimages";
const PDFTOPPM: &str = "/usr/bin/pdftoppm";

fn rgb(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        Rgb([(x * 7 + y * 3) as u8, (x * y) as u8, (x ^ y) as u8 | 0x40])
    })
}

fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).unwrap();
    out.into_inner()
}

fn jpeg(image: &DynamicImage, dpi: Option<u16>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = JpegEncoder::new_with_quality(&mut out, 85);
    if let Some(dpi) = dpi {
        encoder.set_pixel_density(PixelDensity {
            density: (dpi, dpi),
            unit: PixelDensityUnit::Inches,
        });
    }
    // Not `encode_image`: it takes a DynamicImage's pixels as RGBA and writes 3 components.
    let (width, height) = (image.width(), image.height());
    encoder
        .encode(image.as_bytes(), width, height, image.color().into())
        .unwrap();
    out
}

/// `jpeg` with an EXIF APP1 (big-endian) recording `orientation`, right after SOI.
fn with_exif(jpeg: &[u8], orientation: u16) -> Vec<u8> {
    let mut tiff = b"Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01".to_vec();
    tiff.extend(orientation.to_be_bytes());
    tiff.extend([0, 0, 0, 0, 0, 0]);
    let mut out = jpeg[..2].to_vec();
    out.extend([0xFF, 0xE1]);
    out.extend(u16::try_from(tiff.len() + 2).unwrap().to_be_bytes());
    out.extend(tiff);
    out.extend(&jpeg[2..]);
    out
}

/// `png` with a pHYs chunk of `dpi` (as pixels per metre) after IHDR.
fn with_phys(png: &[u8], dpi: f64) -> Vec<u8> {
    let per_metre = (dpi / 0.0254).round() as u32;
    let mut chunk = b"pHYs".to_vec();
    chunk.extend(per_metre.to_be_bytes());
    chunk.extend(per_metre.to_be_bytes());
    chunk.push(1);
    let mut crc = flate2::Crc::new();
    crc.update(&chunk);
    let ihdr_end = 8 + 8 + 13 + 4;
    let mut out = png[..ihdr_end].to_vec();
    out.extend(9u32.to_be_bytes());
    out.extend(chunk);
    out.extend(crc.sum().to_be_bytes());
    out.extend(&png[ihdr_end..]);
    out
}

/// One page of a hand-written TIFF: uncompressed, one strip.
struct Frame {
    width: u32,
    height: u32,
    bits: u16,
    samples: u16,
    data: Vec<u8>,
    dpi: u32,
}

impl Frame {
    fn rgb(image: &RgbImage, dpi: u32) -> Frame {
        let (width, height) = image.dimensions();
        let data = image.as_raw().clone();
        Frame {
            width,
            height,
            bits: 8,
            samples: 3,
            data,
            dpi,
        }
    }
    fn gray(image: &GrayImage, dpi: u32) -> Frame {
        let (width, height) = image.dimensions();
        let data = image.as_raw().clone();
        Frame {
            width,
            height,
            bits: 8,
            samples: 1,
            data,
            dpi,
        }
    }
    /// Bilevel, black is zero: a checkerboard of 4-pixel squares.
    fn bilevel(width: u32, height: u32) -> Frame {
        let row = width.div_ceil(8) as usize;
        let mut data = vec![0u8; row * height as usize];
        for y in 0..height as usize {
            for x in 0..width as usize {
                if (x / 4 + y / 4) % 2 == 0 {
                    data[y * row + x / 8] |= 0x80 >> (x % 8);
                }
            }
        }
        Frame {
            width,
            height,
            bits: 1,
            samples: 1,
            data,
            dpi: 200,
        }
    }
}

/// A little-endian TIFF of `frames`, each directory pointing at the next.
fn tiff(frames: &[Frame]) -> Vec<u8> {
    let mut out = b"II*\0\0\0\0\0".to_vec();
    let mut link = 4;
    for frame in frames {
        let strip = out.len() as u32;
        out.extend(&frame.data);
        if out.len() % 2 == 1 {
            out.push(0);
        }
        let bits = out.len() as u32;
        for _ in 0..frame.samples {
            out.extend(frame.bits.to_le_bytes());
        }
        let resolution = out.len() as u32;
        out.extend(frame.dpi.to_le_bytes());
        out.extend(1u32.to_le_bytes());
        let directory = out.len() as u32;
        out[link..link + 4].copy_from_slice(&directory.to_le_bytes());
        let photometric = if frame.samples == 3 { 2 } else { 1 };
        let bits = if frame.samples == 1 {
            u32::from(frame.bits)
        } else {
            bits
        };
        let entries: [(u16, u16, u32, u32); 12] = [
            (256, 4, 1, frame.width),
            (257, 4, 1, frame.height),
            (258, 3, u32::from(frame.samples), bits),
            (259, 3, 1, 1),
            (262, 3, 1, photometric),
            (273, 4, 1, strip),
            (277, 3, 1, u32::from(frame.samples)),
            (278, 4, 1, frame.height),
            (279, 4, 1, frame.data.len() as u32),
            (282, 5, 1, resolution),
            (283, 5, 1, resolution),
            (296, 3, 1, 2),
        ];
        out.extend((entries.len() as u16).to_le_bytes());
        for (tag, kind, count, value) in entries {
            out.extend(tag.to_le_bytes());
            out.extend(kind.to_le_bytes());
            out.extend(count.to_le_bytes());
            out.extend(value.to_le_bytes());
        }
        link = out.len();
        out.extend(0u32.to_le_bytes());
    }
    out
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn layout(size: PageSize, orientation: Orientation, margin: f32) -> Layout {
    Layout {
        size,
        orientation,
        margin,
    }
}

fn convert(paths: &[PathBuf], layout: Layout, out: &Path) -> Result<u32, ToolError> {
    let inputs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    images_to_pdf(&inputs, layout, 50_000_000, out).map(|written| written.pages)
}

fn pages(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

/// The page's image XObject /Im0.
fn image(doc: &Document, page: ObjectId) -> &Stream {
    let page = doc.get_dictionary(page).unwrap();
    let resources = page.get(b"Resources").and_then(Object::as_dict).unwrap();
    let xobjects = resources.get(b"XObject").and_then(Object::as_dict).unwrap();
    let id = xobjects.get(b"Im0").and_then(Object::as_reference).unwrap();
    doc.get_object(id).and_then(Object::as_stream).unwrap()
}

fn media_box(doc: &Document, page: ObjectId) -> (f32, f32) {
    let page = doc.get_dictionary(page).unwrap();
    let media = page.get(b"MediaBox").and_then(Object::as_array).unwrap();
    let number = |i: usize| media[i].as_float().unwrap();
    (number(2) - number(0), number(3) - number(1))
}

/// The operands of the page content's `cm`.
fn matrix(doc: &Document, page: ObjectId) -> [f32; 6] {
    let content = String::from_utf8(doc.get_page_content(page)).unwrap();
    let words: Vec<&str> = content.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "cm").unwrap();
    let numbers: Vec<f32> = words[at - 6..at]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect();
    numbers.try_into().unwrap()
}

/// The box the unit square is drawn into: x0, y0, x1, y1.
fn drawn(m: [f32; 6]) -> (f32, f32, f32, f32) {
    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
        .map(|(u, v)| (m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5]));
    let xs = corners.map(|c| c.0);
    let ys = corners.map(|c| c.1);
    let min = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
    let max = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
    (min(xs), min(ys), max(xs), max(ys))
}

fn near(a: f32, b: f32) -> bool {
    (a - b).abs() < 0.01
}

fn poppler(tool: &str) -> Option<&str> {
    let found = Path::new(tool).exists();
    if !found {
        println!("{tool} not installed: its checks are skipped");
    }
    found.then_some(tool)
}

/// A row of `pdfimages -list`: page, type, width, height, color, bpc and encoding.
type Listed = (u32, String, u32, u32, String, u32, String);

/// `pdfimages -list`, printed and parsed.
fn listed(pdf: &Path) -> Option<Vec<Listed>> {
    let tool = poppler(PDFIMAGES)?;
    let out = Command::new(tool).arg("-list").arg(pdf).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    println!("{text}");
    let rows = text.lines().skip(2).map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| f[i].parse::<u32>().unwrap();
        (
            n(0),
            f[2].into(),
            n(3),
            n(4),
            f[5].into(),
            n(7),
            f[8].into(),
        )
    });
    Some(rows.collect())
}

/// The images of page `page` as pdfimages extracts them (PNG files), in order.
fn extracted(pdf: &Path, page: u32, dir: &Path) -> Option<Vec<DynamicImage>> {
    let tool = poppler(PDFIMAGES)?;
    let prefix = dir.join(format!("x{page}"));
    let page_arg = page.to_string();
    let status = Command::new(tool)
        .args(["-png", "-f", &page_arg, "-l", &page_arg])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&format!("x{page}-"))
        })
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .map(|path| image::open(path).unwrap())
            .collect(),
    )
}

/// Every kind in one document on A4 with margins; returns the inputs' bytes by page.
struct Mixed {
    dir: tempfile::TempDir,
    out: PathBuf,
    jpeg: Vec<u8>,
    gray_jpeg: Vec<u8>,
    opaque: RgbImage,
    deep: DynamicImage,
    frames: (RgbImage, GrayImage),
}

fn mixed() -> Mixed {
    let dir = tempfile::tempdir().unwrap();
    let jpeg_bytes = jpeg(&DynamicImage::ImageRgb8(rgb(120, 80)), None);
    let gray = DynamicImage::ImageRgb8(rgb(50, 90)).into_luma8();
    let gray_jpeg = jpeg(&DynamicImage::ImageLuma8(gray.clone()), None);
    let mut alpha = RgbaImage::from_fn(40, 30, |x, y| Rgba([x as u8 * 5, y as u8 * 7, 90, 255]));
    alpha.put_pixel(3, 4, Rgba([0, 0, 0, 100]));
    let opaque_rgba = RgbaImage::from_fn(33, 21, |x, y| Rgba([x as u8, y as u8, 200, 255]));
    let opaque = DynamicImage::ImageRgba8(opaque_rgba.clone()).into_rgb8();
    let deep = DynamicImage::ImageRgb16(ImageBuffer::from_fn(17, 13, |x, y| {
        Rgb([
            x as u16 * 3000,
            y as u16 * 5000 + 77,
            0xFFFF - x as u16 * 100,
        ])
    }));
    let frames = (rgb(64, 48), gray.clone());
    let tiff_bytes = tiff(&[
        Frame::rgb(&frames.0, 96),
        Frame::gray(&frames.1, 150),
        Frame::bilevel(37, 29),
    ]);
    let webp = RgbaImage::from_fn(24, 24, |x, y| Rgba([200, x as u8 * 9, y as u8 * 9, 128]));
    let inputs = [
        write(dir.path(), "a.jpg", &jpeg_bytes),
        write(dir.path(), "b.jpg", &gray_jpeg),
        write(
            dir.path(),
            "c.png",
            &encoded(&DynamicImage::ImageRgba8(alpha), ImageFormat::Png),
        ),
        write(
            dir.path(),
            "d.png",
            &encoded(&DynamicImage::ImageRgba8(opaque_rgba), ImageFormat::Png),
        ),
        write(dir.path(), "e.png", &encoded(&deep, ImageFormat::Png)),
        write(dir.path(), "f.tif", &tiff_bytes),
        write(
            dir.path(),
            "g.bmp",
            &encoded(&DynamicImage::ImageRgb8(rgb(30, 20)), ImageFormat::Bmp),
        ),
        write(
            dir.path(),
            "h.webp",
            &encoded(&DynamicImage::ImageRgba8(webp), ImageFormat::WebP),
        ),
    ];
    let out = dir.path().join("out.pdf");
    let written = convert(&inputs, layout(PageSize::A4, Orientation::Auto, 36.0), &out).unwrap();
    assert_eq!(written, 10, "8 files, the TIFF of 3 pages");
    Mixed {
        dir,
        out,
        jpeg: jpeg_bytes,
        gray_jpeg,
        opaque,
        deep,
        frames,
    }
}

#[test]
fn every_kind_makes_its_pages_with_jpegs_as_they_are_and_masks_only_when_needed() {
    let m = mixed();
    let doc = Document::load(&m.out).unwrap();
    let pages = pages(&doc);
    assert_eq!(pages.len(), 10);
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(Object::as_reference)
        .unwrap();
    let producer = doc.get_dictionary(info).unwrap().get(b"Producer").unwrap();
    assert_eq!(producer.as_str().unwrap(), b"Quire");
    for (page, original, space) in [(0, &m.jpeg, "DeviceRGB"), (1, &m.gray_jpeg, "DeviceGray")] {
        let stream = image(&doc, pages[page]);
        assert_eq!(
            stream.dict.get(b"Filter").unwrap().as_name().unwrap(),
            b"DCTDecode"
        );
        assert_eq!(
            stream.dict.get(b"ColorSpace").unwrap().as_name().unwrap(),
            space.as_bytes()
        );
        assert!(
            &stream.content == original,
            "page {}: the JPEG's bytes changed",
            page + 1
        );
    }
    let mask = |page: usize| image(&doc, pages[page]).dict.has(b"SMask");
    assert!(mask(2), "a PNG with a translucent pixel has a soft mask");
    assert!(!mask(3), "an opaque RGBA PNG has none");
    assert!(mask(9), "a translucent WebP has one");
    let deep = image(&doc, pages[4]);
    assert_eq!(
        deep.dict
            .get(b"BitsPerComponent")
            .unwrap()
            .as_i64()
            .unwrap(),
        8
    );
    let bilevel = image(&doc, pages[7]);
    assert_eq!(
        bilevel
            .dict
            .get(b"BitsPerComponent")
            .unwrap()
            .as_i64()
            .unwrap(),
        1
    );

    // What poppler sees: every image at its size, JPEGs as jpeg, masks as smask.
    let Some(list) = listed(&m.out) else { return };
    let expected: [(u32, &str, u32, u32, &str, u32, &str); 12] = [
        (1, "image", 120, 80, "rgb", 8, "jpeg"),
        (2, "image", 50, 90, "gray", 8, "jpeg"),
        (3, "image", 40, 30, "rgb", 8, "image"),
        (3, "smask", 40, 30, "gray", 8, "image"),
        (4, "image", 33, 21, "rgb", 8, "image"),
        (5, "image", 17, 13, "rgb", 8, "image"),
        (6, "image", 64, 48, "rgb", 8, "image"),
        (7, "image", 50, 90, "gray", 8, "image"),
        (8, "image", 37, 29, "gray", 1, "image"),
        (9, "image", 30, 20, "rgb", 8, "image"),
        (10, "image", 24, 24, "rgb", 8, "image"),
        (10, "smask", 24, 24, "gray", 8, "image"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(p, t, w, h, c, b, e)| (p, t.to_string(), w, h, c.to_string(), b, e.to_string()))
        .collect();
    assert_eq!(list, expected);

    // The lossless kinds decode to their samples (16-bit reduced to 8).
    let dir = m.dir.path();
    let page = |n: u32| extracted(&m.out, n, dir).unwrap();
    assert_eq!(page(4)[0].to_rgb8(), m.opaque);
    assert_eq!(page(5)[0].to_rgb8(), m.deep.to_rgb8());
    assert_eq!(page(6)[0].to_rgb8(), m.frames.0);
    assert_eq!(page(7)[0].to_luma8(), m.frames.1);
    let checker = page(8)[0].to_luma8();
    assert_eq!(checker.get_pixel(0, 0).0, [255]);
    assert_eq!(checker.get_pixel(4, 0).0, [0]);
    assert_eq!(page(3)[1].to_luma8().get_pixel(3, 4).0, [100]);
}

#[test]
fn a4_keeps_the_image_inside_the_margins_centred_and_pdftoppm_renders_every_page() {
    let m = mixed();
    let doc = Document::load(&m.out).unwrap();
    let a4 = (595.28, 841.89);
    for (index, page) in pages(&doc).into_iter().enumerate() {
        let (width, height) = media_box(&doc, page);
        let (x0, y0, x1, y1) = drawn(matrix(&doc, page));
        let what = format!(
            "page {}: {x0} {y0} {x1} {y1} on {width} x {height}",
            index + 1
        );
        // Wide images on landscape paper, tall and square ones portrait.
        let landscape = !matches!(index, 1 | 6 | 9);
        let paper = if landscape { (a4.1, a4.0) } else { a4 };
        assert!(near(width, paper.0) && near(height, paper.1), "{what}");
        assert!(
            x0 >= 35.99 && y0 >= 35.99 && x1 <= width - 35.99 && y1 <= height - 35.99,
            "{what}"
        );
        assert!(
            near(x0 - 36.0, 0.0) || near(y0 - 36.0, 0.0),
            "{what}: fits one way"
        );
        assert!(
            near(x0 + x1, width) && near(y0 + y1, height),
            "{what}: centred"
        );
    }
    // Page 1, 120 x 80 on landscape A4 within 36 pt margins: 770 x 523 pt, the width limits.
    let (x0, y0, x1, y1) = drawn(matrix(&doc, pages(&doc)[0]));
    assert!(near(x1 - x0, a4.1 - 72.0) && near((x1 - x0) / (y1 - y0), 1.5));

    let Some(tool) = poppler(PDFTOPPM) else {
        return;
    };
    let prefix = m.dir.path().join("render");
    let out = Command::new(tool)
        .args(["-r", "10"])
        .arg(&m.out)
        .arg(&prefix)
        .output()
        .unwrap();
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && errors.trim().is_empty(), "{errors}");
    let rendered = std::fs::read_dir(m.dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("render")
        })
        .count();
    assert_eq!(rendered, 10);
}

#[test]
fn fit_uses_the_recorded_resolution_and_exif_orientation_turns_the_placement() {
    let dir = tempfile::tempdir().unwrap();
    let wide = DynamicImage::ImageRgb8(rgb(600, 300));
    let at_300 = jpeg(&wide, Some(300));
    // White, its stored top-left 20 x 10 red.
    let marked = RgbImage::from_fn(60, 30, |x, y| {
        Rgb(if x < 20 && y < 10 {
            [255, 0, 0]
        } else {
            [255, 255, 255]
        })
    });
    let turned = with_exif(&jpeg(&DynamicImage::ImageRgb8(marked), None), 6);
    let png = with_phys(
        &encoded(&DynamicImage::ImageRgb8(rgb(150, 75)), ImageFormat::Png),
        150.0,
    );
    let inputs = [
        write(dir.path(), "300.jpg", &at_300),
        write(dir.path(), "turned.jpg", &turned),
        write(dir.path(), "150.png", &png),
        write(
            dir.path(),
            "frames.tif",
            &tiff(&[Frame::rgb(&rgb(96, 48), 96)]),
        ),
    ];
    let out = dir.path().join("fit.pdf");
    // The margin and orientation are not used with Fit.
    convert(
        &inputs,
        layout(PageSize::Fit, Orientation::Portrait, 500.0),
        &out,
    )
    .unwrap();
    let doc = Document::load(&out).unwrap();
    let pages = pages(&doc);
    let sizes: Vec<(f32, f32)> = pages.iter().map(|&p| media_box(&doc, p)).collect();
    let expected = [(144.0, 72.0), (30.0, 60.0), (72.0, 36.0), (72.0, 36.0)];
    for (index, (size, want)) in sizes.iter().zip(expected).enumerate() {
        assert!(
            near(size.0, want.0) && near(size.1, want.1),
            "page {}: {size:?}",
            index + 1
        );
        let (x0, y0, x1, y1) = drawn(matrix(&doc, pages[index]));
        assert!(near(x0, 0.0) && near(y0, 0.0) && near(x1, want.0) && near(y1, want.1));
    }
    // Orientation 6: the stored 60 x 30 image is drawn 30 wide, 60 tall, its first row on the
    // right (the unit square's top edge, v = 1, at x = 30).
    let m = matrix(&doc, pages[1]);
    assert_eq!(image(&doc, pages[1]).content, turned);
    assert!(near(m[0] * 0.0 + m[2] + m[4], 30.0), "{m:?}");

    // Rendered by poppler at 1 pixel per point: the red corner at the top right.
    if let Some(tool) = poppler(PDFTOPPM) {
        let prefix = dir.path().join("turned");
        let status = Command::new(tool)
            .args(["-r", "72", "-f", "2", "-l", "2", "-singlefile", "-png"])
            .arg(&out)
            .arg(&prefix)
            .status()
            .unwrap();
        assert!(status.success());
        let shown = image::open(prefix.with_extension("png")).unwrap().to_rgb8();
        assert_eq!(shown.dimensions(), (30, 60));
        let red = |x: u32, y: u32| {
            let [r, g, b] = shown.get_pixel(x, y).0;
            r > 200 && g < 80 && b < 80
        };
        assert!(red(25, 5) && red(25, 15) && !red(4, 5) && !red(25, 25) && !red(25, 55));
    }

    // On paper, Auto picks portrait for the turned image.
    let a4 = dir.path().join("a4.pdf");
    convert(
        &inputs[1..2],
        layout(PageSize::A4, Orientation::Auto, 0.0),
        &a4,
    )
    .unwrap();
    let doc = Document::load(&a4).unwrap();
    let page = pages_of(&doc)[0];
    let (x0, y0, x1, y1) = drawn(matrix(&doc, page));
    assert!(near(media_box(&doc, page).0, 595.28));
    assert!(
        near(y0, 0.0) && near(y1, 841.89) && near(x1 - x0, 841.89 / 2.0),
        "{x0} {y0} {x1} {y1}"
    );
    let list = listed(&a4).unwrap_or_default();
    assert!(
        list.iter()
            .all(|row| (row.2, row.3, row.6.as_str()) == (60, 30, "jpeg"))
    );
}

fn pages_of(doc: &Document) -> Vec<ObjectId> {
    pages(doc)
}

#[test]
fn bad_inputs_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let good_jpeg = jpeg(&DynamicImage::ImageRgb8(rgb(40, 30)), None);
    let good_png = encoded(&DynamicImage::ImageRgb8(rgb(40, 30)), ImageFormat::Png);
    let good = write(dir.path(), "good.jpg", &good_jpeg);
    let out = dir.path().join("out.pdf");
    let a4 = layout(PageSize::A4, Orientation::Auto, 20.0);
    let run = |name: &str, bytes: &[u8]| {
        let bad = write(dir.path(), name, bytes);
        convert(&[good.clone(), good.clone(), bad], a4, &out)
    };
    let cases: [(&str, &[u8]); 7] = [
        ("notes.txt", b"just some text, not an image\n"),
        ("empty.png", b""),
        ("cut.jpg", &good_jpeg[..good_jpeg.len() / 2]),
        ("head.jpg", &good_jpeg[..20]),
        ("cut.png", &good_png[..good_png.len() / 2]),
        ("cut.tif", &tiff(&[Frame::rgb(&rgb(20, 20), 72)])[..300]),
        ("fake.webp", b"RIFF\0\0\0\0WEBPVP8 garbage"),
    ];
    for (name, bytes) in cases {
        match run(name, bytes) {
            Err(ToolError::BadOptions(message) | ToolError::InvalidFile(message)) => {
                assert!(message.starts_with("file 3 "), "{name}: {message}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    assert!(matches!(
        run("notes.txt", b"hello"),
        Err(ToolError::BadOptions(m)) if m == "file 3 is not a JPEG, PNG, WebP, TIFF or BMP image"
    ));
    assert!(matches!(
        run("cut.jpg", &good_jpeg[..good_jpeg.len() - 200]),
        Err(ToolError::InvalidFile(_))
    ));

    // Too many pixels, for a JPEG (header) and a decoded kind.
    let png = write(dir.path(), "big.png", &good_png);
    for path in [&good, &png] {
        let inputs = [path.as_path()];
        match images_to_pdf(&inputs, a4, 1199, &out) {
            Err(ToolError::BadOptions(m)) => {
                assert_eq!(
                    m,
                    "file 1 is 40 x 30 pixels (1200 pixels): images of at most 1199 pixels can be converted"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(images_to_pdf(&inputs, a4, 1200, &out).unwrap().pages, 1);
    }
    let inputs: [&Path; 0] = [];
    assert!(matches!(
        images_to_pdf(&inputs, a4, 1200, &out),
        Err(ToolError::BadOptions(_))
    ));
    let wide_margin = layout(PageSize::Letter, Orientation::Auto, 400.0);
    assert!(matches!(
        convert(std::slice::from_ref(&good), wide_margin, &out),
        Err(ToolError::BadOptions(_))
    ));
}

#[test]
fn a_tiff_whose_directories_loop_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = tiff(&[Frame::rgb(&rgb(8, 8), 72), Frame::rgb(&rgb(9, 9), 72)]);
    // The last directory's next pointer (the file's last 4 bytes) back at the first.
    let first = bytes[4..8].to_vec();
    let end = bytes.len();
    bytes[end - 4..].copy_from_slice(&first);
    let path = write(dir.path(), "loop.tif", &bytes);
    let out = dir.path().join("loop.pdf");
    let a4 = layout(PageSize::A4, Orientation::Auto, 0.0);
    assert_eq!(convert(&[path], a4, &out).unwrap(), 2);
}
