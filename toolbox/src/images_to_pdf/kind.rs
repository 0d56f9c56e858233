//! Which kind of image a file is, by its signature, and the resolution PNG (pHYs) and BMP
//! (its info header) record; JPEG's and TIFF's are read with their structure.

use image::ImageFormat;

use super::place::Dpi;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Jpeg,
    Png,
    Webp,
    Tiff,
    Bmp,
}

/// Metres to inches.
const INCHES_PER_METRE: f64 = 1.0 / 0.0254;

impl Kind {
    pub fn sniff(bytes: &[u8]) -> Option<Kind> {
        let tiff = [b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"];
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Kind::Jpeg)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Kind::Png)
        } else if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
            Some(Kind::Webp)
        } else if tiff.iter().any(|magic| bytes.starts_with(*magic)) {
            Some(Kind::Tiff)
        } else if bytes.starts_with(b"BM") && bytes.len() >= 26 {
            Some(Kind::Bmp)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Jpeg => "JPEG",
            Kind::Png => "PNG",
            Kind::Webp => "WebP",
            Kind::Tiff => "TIFF",
            Kind::Bmp => "BMP",
        }
    }

    pub fn format(self) -> ImageFormat {
        match self {
            Kind::Jpeg => ImageFormat::Jpeg,
            Kind::Png => ImageFormat::Png,
            Kind::Webp => ImageFormat::WebP,
            Kind::Tiff => ImageFormat::Tiff,
            Kind::Bmp => ImageFormat::Bmp,
        }
    }

    /// The resolution a PNG or BMP records (WebP records none outside EXIF).
    pub fn density(self, bytes: &[u8]) -> Option<Dpi> {
        match self {
            Kind::Png => png_density(bytes),
            Kind::Bmp => bmp_density(bytes),
            _ => None,
        }
    }
}

fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// The pHYs chunk (before the image data), when its unit is the metre.
fn png_density(bytes: &[u8]) -> Option<Dpi> {
    let mut at = 8;
    loop {
        let length = usize::try_from(be32(bytes, at)?).ok()?;
        let kind = bytes.get(at + 4..at + 8)?;
        if kind == b"IDAT" || kind == b"IEND" {
            return None;
        }
        if kind == b"pHYs" && length == 9 {
            let data = bytes.get(at + 8..at + 17)?;
            let (x, y) = (be32(data, 0)?, be32(data, 4)?);
            return (data.get(8) == Some(&1)).then(|| {
                Dpi::new(
                    f64::from(x) / INCHES_PER_METRE,
                    f64::from(y) / INCHES_PER_METRE,
                )
            })?;
        }
        at = at.checked_add(length)?.checked_add(12)?;
    }
}

/// The pixels per metre of a BMP's info header (BITMAPINFOHEADER and later).
fn bmp_density(bytes: &[u8]) -> Option<Dpi> {
    let le32 = |at: usize| -> Option<i32> {
        Some(i32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if le32(14)? < 40 {
        return None;
    }
    let (x, y) = (le32(38)?, le32(42)?);
    Dpi::new(
        f64::from(x) / INCHES_PER_METRE,
        f64::from(y) / INCHES_PER_METRE,
    )
}
