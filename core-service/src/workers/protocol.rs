//! What the core and a worker process say to each other over the worker's stdin and stdout:
//! one job in, one outcome out, each a length-prefixed protobuf message. Files travel by path
//! (the core stages every input on disk), so only results cross the pipe.

use std::io::{self, Read, Write};

use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A frame larger than this means the stream is out of step (a stray write to stdout), not a
/// real message: the worker is then treated as broken.
const MAX_FRAME: usize = 1 << 30;
/// Every frame starts with these bytes, so garbage on the pipe is caught at once.
const MAGIC: [u8; 4] = *b"QWK1";

#[derive(Clone, PartialEq, Message)]
pub struct Job {
    #[prost(oneof = "Task", tags = "1, 2, 3, 4, 5, 6")]
    pub task: Option<Task>,
}

// One task per job, made once and sent over a pipe: the size of the largest variant (a tool's
// typed options) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Task {
    /// Page count and page sizes of a PDF, frame count of an image.
    #[prost(message, tag = "1")]
    Inspect(Inspect),
    /// One PDF page to PNG.
    #[prost(message, tag = "2")]
    Render(Render),
    /// Text of one PDF page or image frame.
    #[prost(message, tag = "3")]
    Ocr(Ocr),
    /// A whole PDF, compressed into another file.
    #[prost(message, tag = "4")]
    Compress(Compress),
    /// One toolbox tool over one or more PDFs.
    #[prost(message, tag = "5")]
    Tool(Tool),
    /// A share of the pages of a compressed PDF checked against its input.
    #[prost(message, tag = "6")]
    CompressCheck(CompressCheck),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, prost::Enumeration)]
#[repr(i32)]
pub enum Source {
    Pdf = 0,
    Image = 1,
}

#[derive(Clone, PartialEq, Message)]
pub struct Inspect {
    #[prost(string, tag = "1")]
    pub path: String,
    #[prost(enumeration = "Source", tag = "2")]
    pub source: i32,
}

#[derive(Clone, PartialEq, Message)]
pub struct Render {
    #[prost(string, tag = "1")]
    pub path: String,
    /// Zero-based.
    #[prost(uint32, tag = "2")]
    pub page: u32,
    #[prost(uint32, tag = "3")]
    pub dpi: u32,
    #[prost(uint64, tag = "4")]
    pub max_pixels: u64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Ocr {
    #[prost(string, tag = "1")]
    pub path: String,
    #[prost(enumeration = "Source", tag = "2")]
    pub source: i32,
    /// Zero-based page (PDF) or frame (TIFF).
    #[prost(uint32, tag = "3")]
    pub page: u32,
    /// Tesseract language, `fra+eng` form, already validated.
    #[prost(string, tag = "4")]
    pub lang: String,
    #[prost(uint64, tag = "5")]
    pub max_pixels: u64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Compress {
    #[prost(string, tag = "1")]
    pub input: String,
    #[prost(string, tag = "2")]
    pub output: String,
    /// `quire.v1.CompressionQuality` number, never UNSPECIFIED.
    #[prost(int32, tag = "3")]
    pub quality: i32,
    #[prost(uint64, tag = "4")]
    pub max_pixels: u64,
}

/// Part `part` of `parts` of the compressed file's check: the checked pages are dealt out in
/// turn, so that the parts run on several workers at once.
#[derive(Clone, PartialEq, Message)]
pub struct CompressCheck {
    #[prost(string, tag = "1")]
    pub input: String,
    #[prost(string, tag = "2")]
    pub output: String,
    #[prost(int32, tag = "3")]
    pub quality: i32,
    #[prost(uint64, tag = "4")]
    pub max_pixels: u64,
    #[prost(uint32, tag = "5")]
    pub part: u32,
    #[prost(uint32, tag = "6")]
    pub parts: u32,
}

#[derive(Clone, PartialEq, Message)]
pub struct Tool {
    /// Staged inputs, in the order the user gave them.
    #[prost(string, repeated, tag = "1")]
    pub inputs: Vec<String>,
    /// The inputs' names without extension (merge titles its bookmarks with them).
    #[prost(string, repeated, tag = "2")]
    pub titles: Vec<String>,
    /// An empty directory the tool writes its files into.
    #[prost(string, tag = "3")]
    pub output_dir: String,
    /// File-name stem of the outputs, already safe.
    #[prost(string, tag = "4")]
    pub stem: String,
    /// The tool and its options, as the caller sent them (checked by the core first).
    #[prost(message, optional, tag = "5")]
    pub options: Option<quire_proto::v1::ToolOptions>,
    /// Pixel cap of one rendered page.
    #[prost(uint64, tag = "6")]
    pub max_pixels: u64,
}

#[derive(Clone, PartialEq, Message)]
pub struct Outcome {
    #[prost(oneof = "Answer", tags = "1, 2, 3, 4, 5, 6, 7")]
    pub answer: Option<Answer>,
}

#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Answer {
    #[prost(message, tag = "1")]
    Info(Info),
    #[prost(message, tag = "2")]
    Page(Page),
    #[prost(message, tag = "3")]
    Text(Text),
    #[prost(message, tag = "4")]
    Compressed(Compressed),
    #[prost(message, tag = "5")]
    Failure(Failure),
    #[prost(message, tag = "6")]
    Tooled(Tooled),
    #[prost(message, tag = "7")]
    Checked(Checked),
}

#[derive(Clone, PartialEq, Message)]
pub struct Info {
    #[prost(uint32, tag = "1")]
    pub pages: u32,
    /// Page sizes in PDF points (1/72 inch), PDFs only.
    #[prost(float, repeated, tag = "2")]
    pub widths: Vec<f32>,
    #[prost(float, repeated, tag = "3")]
    pub heights: Vec<f32>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Page {
    #[prost(bytes = "bytes", tag = "1")]
    pub png: bytes::Bytes,
    #[prost(uint32, tag = "2")]
    pub width: u32,
    #[prost(uint32, tag = "3")]
    pub height: u32,
}

#[derive(Clone, PartialEq, Message)]
pub struct Text {
    #[prost(string, tag = "1")]
    pub text: String,
    /// True when the page's own text layer was used instead of OCR.
    #[prost(bool, tag = "2")]
    pub from_text_layer: bool,
}

#[derive(Clone, PartialEq, Message)]
pub struct Compressed {
    #[prost(uint64, tag = "1")]
    pub size: u64,
}

/// What a part of a compressed file's check found.
#[derive(Clone, PartialEq, Message)]
pub struct Checked {
    /// Pages compared.
    #[prost(uint32, tag = "1")]
    pub compared: u32,
    /// Why the output cannot be handed back; empty when it passed.
    #[prost(string, tag = "2")]
    pub failure: String,
}

/// The files a tool wrote, in the order they go into the answer.
#[derive(Clone, PartialEq, Message)]
pub struct Tooled {
    #[prost(message, repeated, tag = "1")]
    pub files: Vec<ToolFile>,
    /// What the tool reports besides its files.
    #[prost(message, repeated, tag = "2")]
    pub notes: Vec<quire_proto::v1::ToolNote>,
}

#[derive(Clone, PartialEq, Message)]
pub struct ToolFile {
    #[prost(string, tag = "1")]
    pub path: String,
    /// Name in the ZIP, or of the single result.
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(uint32, tag = "3")]
    pub pages: u32,
}

/// Why a job failed, as far as the worker can tell.
#[derive(Clone, Copy, PartialEq, Eq, Debug, prost::Enumeration)]
#[repr(i32)]
pub enum FailureKind {
    /// Not a file of the expected kind, corrupt or truncated.
    InvalidFile = 0,
    /// Over the pixel cap.
    TooManyPixels = 1,
    /// Needs a password.
    Encrypted = 2,
    /// The engine failed for a reason of its own.
    Engine = 3,
    /// The job needs more memory than a worker may use, or its PDF is over the limits every
    /// PDF is checked against (`quire_compress::pdf_limits`).
    OverLimit = 4,
    /// The options do not fit this input (a page past the end, a bad range).
    BadOptions = 5,
    /// The password given does not open the PDF.
    WrongPassword = 6,
    /// The tool's own check of its result failed (a redaction it cannot verify, a file that
    /// cannot be made to conform): nothing is handed back.
    CheckFailed = 7,
}

#[derive(Clone, PartialEq, Message)]
pub struct Failure {
    #[prost(enumeration = "FailureKind", tag = "1")]
    pub kind: i32,
    #[prost(string, tag = "2")]
    pub message: String,
}

impl Failure {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Self {
            kind: kind as i32,
            message: message.into(),
        }
    }
}

/// Worker side: blocking reads and writes on its stdin and stdout.
pub fn read_frame<M: Message + Default>(input: &mut impl Read) -> io::Result<Option<M>> {
    let mut head = [0u8; 8];
    match input.read_exact(&mut head) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(err) => return Err(err),
    }
    let len = frame_len(head)?;
    let mut body = vec![0u8; len];
    input.read_exact(&mut body)?;
    M::decode(body.as_slice())
        .map(Some)
        .map_err(io::Error::other)
}

pub fn write_frame(output: &mut impl Write, message: &impl Message) -> io::Result<()> {
    output.write_all(&frame(message)?)?;
    output.flush()
}

/// Core side: the same frames over the child's pipes.
pub async fn read_frame_async<M: Message + Default>(
    input: &mut (impl tokio::io::AsyncRead + Unpin),
) -> io::Result<M> {
    let mut head = [0u8; 8];
    input.read_exact(&mut head).await?;
    let len = frame_len(head)?;
    let mut body = vec![0u8; len];
    input.read_exact(&mut body).await?;
    M::decode(body.as_slice()).map_err(io::Error::other)
}

pub async fn write_frame_async(
    output: &mut (impl tokio::io::AsyncWrite + Unpin),
    message: &impl Message,
) -> io::Result<()> {
    output.write_all(&frame(message)?).await?;
    output.flush().await
}

fn frame(message: &impl Message) -> io::Result<Vec<u8>> {
    let len = message.encoded_len();
    if len > MAX_FRAME {
        return Err(io::Error::other(format!(
            "message of {len} bytes is too large"
        )));
    }
    let mut out = Vec::with_capacity(8 + len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    message.encode(&mut out).map_err(io::Error::other)?;
    Ok(out)
}

fn frame_len(head: [u8; 8]) -> io::Result<usize> {
    if head[..4] != MAGIC {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "worker stream out of step (bad frame marker)",
        ));
    }
    let len = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("frame of {len} bytes is over the limit"),
        ));
    }
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_reject_garbage() {
        let job = Job {
            task: Some(Task::Render(Render {
                path: "/tmp/x.pdf".into(),
                page: 3,
                dpi: 150,
                max_pixels: 10,
            })),
        };
        let mut buf = Vec::new();
        write_frame(&mut buf, &job).unwrap();
        let back: Job = read_frame(&mut buf.as_slice()).unwrap().unwrap();
        assert_eq!(back, job);
        assert!(read_frame::<Job>(&mut &b""[..]).unwrap().is_none());
        let err = read_frame::<Job>(&mut &b"Tesseract says hi"[..]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    }
}
