//! One PDF page to pixels: RGB for PNG output, greyscale for OCR.

use pdfium_render::prelude::*;

use crate::workers::protocol::{Failure, FailureKind};

/// Tightly packed pixels (no row padding).
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    /// 3 (RGB) or 1 (grey) bytes per pixel.
    pub channels: u8,
    pub data: Vec<u8>,
}

/// Renders `page` at `dpi` after checking the result against `max_pixels`.
pub fn render(
    page: &PdfPage,
    index: u32,
    dpi: u32,
    max_pixels: u64,
    grey: bool,
) -> Result<Pixels, Failure> {
    let size = super::pdfium::pixel_size(page.width().value, page.height().value, dpi);
    super::pdfium::check_pixels(index, size, dpi, max_pixels)?;
    let (width, height) = size;
    let config = PdfRenderConfig::new()
        .set_fixed_size(width as i32, height as i32)
        // RGB straight from PDFium (it draws BGR unless asked to reverse), so no channel swap.
        .set_format(PdfBitmapFormat::BGR)
        .set_reverse_byte_order(true)
        .use_grayscale_rendering(grey)
        .render_form_data(true)
        .render_annotations(true);
    // The bitmap first, on its own: PDFium can only fail to create it for want of memory
    // (the worker's limit), which is the input's size at fault, not the engine.
    let mut bitmap =
        PdfBitmap::empty(width as i32, height as i32, PdfBitmapFormat::BGR).map_err(|_| {
            Failure::new(
                FailureKind::OverLimit,
                format!(
                    "page {} at {dpi} dpi ({width}x{height} pixels) needs more memory than a \
                     worker may use: use a lower dpi",
                    index + 1
                ),
            )
        })?;
    page.render_into_bitmap_with_config(&mut bitmap, &config)
        .map_err(|e| {
            Failure::new(
                FailureKind::Engine,
                format!("PDFium could not render page {}: {e}", index + 1),
            )
        })?;
    let raw = bitmap.as_raw_bytes();
    let stride = raw.len() / height as usize;
    let row = width as usize * 3;
    if stride < row {
        return Err(Failure::new(
            FailureKind::Engine,
            "PDFium returned a bitmap smaller than asked",
        ));
    }
    let data = if grey {
        // Greyscale rendering leaves R = G = B; keep one channel.
        raw.chunks_exact(stride)
            .flat_map(|line| line[..row].iter().step_by(3).copied())
            .collect()
    } else if stride == row {
        raw
    } else {
        raw.chunks_exact(stride)
            .flat_map(|line| line[..row].iter().copied())
            .collect()
    };
    Ok(Pixels {
        width,
        height,
        channels: if grey { 1 } else { 3 },
        data,
    })
}
