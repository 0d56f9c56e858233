//! A cheap look at the first bytes, so that a PDF, an image or random bytes named .docx is
//! refused before LibreOffice (which would read most of them as plain text or a drawing).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::ConvertError;

/// OOXML and OpenDocument files are ZIP archives; DOC, XLS, PPT and password-protected OOXML
/// files are OLE compound files; RTF is text that starts with `{\rtf`.
const SIGNATURES: &[&[u8]] = &[
    b"PK\x03\x04",
    b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1",
    b"{\\rtf",
];

pub(super) fn check(input: &Path) -> Result<(), ConvertError> {
    let mut head = [0u8; 8];
    let mut read = 0;
    let mut file = File::open(input).map_err(|e| {
        ConvertError::Engine(format!(
            "cannot open the uploaded file {}: {e}",
            input.display()
        ))
    })?;
    while read < head.len() {
        match file.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) => {
                return Err(ConvertError::Engine(format!(
                    "cannot read the uploaded file {}: {e}",
                    input.display()
                )));
            }
        }
    }
    let head = &head[..read];
    if SIGNATURES
        .iter()
        .any(|signature| head.starts_with(signature))
    {
        return Ok(());
    }
    Err(ConvertError::Unreadable(if head.starts_with(b"%PDF") {
        "the file is already a PDF, not an office document: upload the .docx, .xlsx, .pptx, \
         .odt or other office file instead"
            .to_owned()
    } else {
        "the file is not an office document (Word, Excel, PowerPoint, OpenDocument or RTF): \
         check that you uploaded the right file"
            .to_owned()
    }))
}
