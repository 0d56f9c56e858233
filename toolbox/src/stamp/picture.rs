//! Image marks as image XObjects: a JPEG as it is (DCTDecode, never re-encoded), a PNG decoded
//! to 8-bit gray or RGB samples, Flate-compressed, its alpha channel as a soft mask.

use std::path::Path;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use crate::ToolError;

/// What the decoder may allocate for a PNG: a 8000 x 8000 RGBA image, well above any mark.
const MAX_DECODED: u64 = 256 << 20;

/// An image ready to be added to a document.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    image: Stream,
    mask: Option<Stream>,
}

fn not_an_image() -> ToolError {
    ToolError::BadOptions("the watermark image is not a PNG or JPEG".into())
}

impl Picture {
    pub fn load(path: &Path) -> Result<Picture, ToolError> {
        let bytes = std::fs::read(path).map_err(|_| not_an_image())?;
        Picture::from_bytes(bytes)
    }

    /// A PNG or JPEG file's bytes (the redaction's page pictures come as bytes).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Picture, ToolError> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            jpeg(bytes)
        } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            png(&bytes)
        } else {
            Err(not_an_image())
        }
    }

    /// Adds the image (and its soft mask) to `doc`.
    pub fn add_to(&self, doc: &mut Document) -> ObjectId {
        let mut image = self.image.clone();
        if let Some(mask) = &self.mask {
            let mask = doc.add_object(mask.clone());
            image.dict.set("SMask", mask);
        }
        doc.add_object(image)
    }
}

fn sampled(width: u32, height: u32, space: &str, samples: Vec<u8>) -> Stream {
    let mut object = Object::Stream(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => width, "Height" => height,
            "ColorSpace" => space, "BitsPerComponent" => 8,
        },
        samples,
    ));
    crate::streams::compress(&mut object);
    match object {
        Object::Stream(stream) => stream,
        _ => Stream::new(Dictionary::new(), Vec::new()),
    }
}

fn png(bytes: &[u8]) -> Result<Picture, ToolError> {
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), ImageFormat::Png);
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODED);
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => ToolError::BadOptions(
            "the watermark image is too large: use one of at most 8000 x 8000 pixels".into(),
        ),
        _ => not_an_image(),
    })?;
    let (width, height) = (decoded.width(), decoded.height());
    let color = decoded.color();
    let (space, samples) = if color.has_color() {
        ("DeviceRGB", decoded.to_rgb8().into_raw())
    } else {
        ("DeviceGray", decoded.to_luma8().into_raw())
    };
    let mask = color
        .has_alpha()
        .then(|| alpha(&decoded))
        .filter(|alpha| alpha.iter().any(|&a| a != u8::MAX))
        .map(|alpha| sampled(width, height, "DeviceGray", alpha));
    Ok(Picture {
        width,
        height,
        image: sampled(width, height, space, samples),
        mask,
    })
}

fn alpha(image: &DynamicImage) -> Vec<u8> {
    image
        .to_luma_alpha8()
        .pixels()
        .map(|pixel| pixel.0[1])
        .collect()
}

/// The JPEG as is, described by its frame header: size and components (gray, RGB or CMYK;
/// Adobe's CMYK is stored inverted).
fn jpeg(bytes: Vec<u8>) -> Result<Picture, ToolError> {
    let frame = frame(&bytes).ok_or_else(not_an_image)?;
    let space = match frame.components {
        1 => "DeviceGray",
        3 => "DeviceRGB",
        4 => "DeviceCMYK",
        _ => return Err(not_an_image()),
    };
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Image", "Width" => frame.width,
        "Height" => frame.height, "ColorSpace" => space, "BitsPerComponent" => 8,
        "Filter" => "DCTDecode",
    };
    if frame.components == 4 && frame.adobe {
        dict.set(
            "Decode",
            [1, 0, 1, 0, 1, 0, 1, 0].map(Object::from).to_vec(),
        );
    }
    Ok(Picture {
        width: frame.width.into(),
        height: frame.height.into(),
        image: Stream::new(dict, bytes).with_compression(false),
        mask: None,
    })
}

struct JpegFrame {
    width: u16,
    height: u16,
    components: u8,
    adobe: bool,
}

/// Reads the markers up to the first frame header (SOF0..SOF15 but DHT, JPG and DAC).
fn frame(bytes: &[u8]) -> Option<JpegFrame> {
    let mut at = 2;
    let mut adobe = false;
    loop {
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        at += 2;
        match marker {
            // Fill bytes, and markers without a length.
            0xFF => at -= 1,
            0x01 | 0xD0..=0xD7 => {}
            0xD9 | 0xDA => return None,
            _ => {
                let length =
                    usize::from(u16::from_be_bytes([*bytes.get(at)?, *bytes.get(at + 1)?]));
                let segment = bytes.get(at + 2..at + length.max(2))?;
                if marker == 0xEE && segment.starts_with(b"Adobe") {
                    adobe = true;
                }
                if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
                    let (precision, rest) = segment.split_first()?;
                    let height = u16::from_be_bytes([*rest.first()?, *rest.get(1)?]);
                    let width = u16::from_be_bytes([*rest.get(2)?, *rest.get(3)?]);
                    let components = *rest.get(4)?;
                    return (*precision == 8 && width > 0 && height > 0).then_some(JpegFrame {
                        width,
                        height,
                        components,
                        adobe,
                    });
                }
                at += length;
            }
        }
    }
}
