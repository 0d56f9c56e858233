//! What each input of a tool must be, told from its first bytes, before a worker is asked:
//! a file of the wrong kind is refused with a sentence that names it and what was expected.

use quire_proto::{
    ErrorCode,
    v1::{SignOptions, ToolOptions, sign_options, tool_options::Tool},
};

use super::intake::Input;
use crate::{
    error::{ApiError, ApiResult},
    process::{InputKind, sniff},
};

/// The kinds of file the tools take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Pdf,
    /// A PNG or JPEG to stamp or sign with.
    Mark,
    /// A page image: JPEG, PNG, WebP, TIFF or BMP.
    Picture,
    /// A word processor, spreadsheet or presentation document.
    Office,
    /// An HTML or Markdown file, or a ZIP of a site.
    Page,
    /// A PKCS#12 file.
    Certificate,
}

pub fn check(options: &ToolOptions, inputs: &[Input]) -> ApiResult<()> {
    for (index, input) in inputs.iter().enumerate() {
        let expect = expected(options, index, inputs.len());
        if !fits(expect, &input.staged.head) {
            return Err(ApiError::new(
                ErrorCode::UnsupportedFileType,
                format!("{} is not {}", input.filename, described(expect)),
            ));
        }
    }
    Ok(())
}

fn expected(options: &ToolOptions, index: usize, count: usize) -> Expect {
    match &options.tool {
        Some(Tool::ImagesToPdf(_)) => Expect::Picture,
        // Watermark's second file is the image it stamps.
        Some(Tool::Watermark(_)) if index == 1 => Expect::Mark,
        Some(Tool::OfficeToPdf(_)) => Expect::Office,
        Some(Tool::HtmlToPdf(_)) => Expect::Page,
        Some(Tool::Sign(SignOptions {
            appearance,
            certificate,
            ..
        })) if index > 0 => {
            let image = matches!(appearance, Some(sign_options::Appearance::Image(_)));
            if *certificate && index == count - 1 {
                Expect::Certificate
            } else if image {
                Expect::Mark
            } else {
                Expect::Pdf
            }
        }
        _ => Expect::Pdf,
    }
}

fn described(expect: Expect) -> &'static str {
    match expect {
        Expect::Pdf => "a PDF: this tool takes PDFs",
        Expect::Mark => "a PNG or JPEG image",
        Expect::Picture => "a JPEG, PNG, WebP, TIFF or BMP image",
        Expect::Office => {
            "an office document: DOCX, DOC, ODT, RTF, XLSX, XLS, ODS, PPTX, PPT or ODP"
        }
        Expect::Page => "an HTML or Markdown file, or a ZIP of a site with its index.html",
        Expect::Certificate => "a PKCS#12 certificate (.p12 or .pfx)",
    }
}

fn fits(expect: Expect, head: &[u8]) -> bool {
    let kind = sniff(head);
    match expect {
        Expect::Pdf => matches!(kind, Ok(InputKind::Pdf)),
        Expect::Mark => {
            matches!(
                infer::get(head).map(|t| t.mime_type()),
                Some("image/png" | "image/jpeg")
            )
        }
        Expect::Picture => matches!(kind, Ok(InputKind::Image | InputKind::Tiff)),
        // LibreOffice tells the format apart; here only the containers it reads: a ZIP
        // (OOXML, ODF), an OLE compound file (DOC, XLS, PPT) and RTF.
        Expect::Office => {
            is_zip(head)
                || head.starts_with(&[0xD0, 0xCF, 0x11, 0xE0])
                || head.starts_with(b"{\\rtf")
        }
        Expect::Page => !matches!(kind, Ok(InputKind::Pdf)) && (is_zip(head) || is_text(head)),
        // DER: a SEQUENCE with a long length.
        Expect::Certificate => head.first() == Some(&0x30),
    }
}

fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04")
}

/// UTF-8 text (an HTML or Markdown file): no NUL, and valid UTF-8 up to a character the
/// sniffed head may have cut.
fn is_text(head: &[u8]) -> bool {
    !head.is_empty()
        && !head.contains(&0)
        && match std::str::from_utf8(head) {
            Ok(_) => true,
            Err(e) => e.error_len().is_none(),
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_and_text_are_told_apart() {
        assert!(fits(Expect::Office, b"PK\x03\x04rest"));
        assert!(fits(Expect::Office, &[0xD0, 0xCF, 0x11, 0xE0, 0xA1]));
        assert!(fits(Expect::Office, b"{\\rtf1\\ansi"));
        assert!(!fits(Expect::Office, b"%PDF-1.7"));
        assert!(fits(Expect::Page, "<!doctype html><p>été".as_bytes()));
        assert!(fits(Expect::Page, b"# Title\n\nSome *markdown*"));
        assert!(!fits(Expect::Page, b"\x00\x01binary"));
        assert!(!fits(Expect::Page, b"%PDF-1.7\n\xff\xfe"));
        // A multi-byte character cut at the end of the head is still text.
        assert!(fits(Expect::Page, &"é".as_bytes()[..1]));
        assert!(fits(Expect::Certificate, &[0x30, 0x82, 0x0a, 0x1b]));
        assert!(!fits(Expect::Certificate, b"-----BEGIN"));
    }
}
