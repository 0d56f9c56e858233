//! Decompression bombs: zero bytes by the gigabyte behind a chain of filters.

use super::Objects;
use crate::pdf_fixtures::A4;

/// A zlib stream that inflates to `1 + 258 * (1 + 8 * repeats)` zero bytes, written directly:
/// one fixed-Huffman block of a literal zero and length-258, distance-1 matches. Eight matches
/// take 13 bytes, so the stream is a 3-byte head, a 13-byte pattern repeated, and a tail:
/// about 1:159, built without deflating gigabytes first. The pattern repeats, so a second
/// Flate layer over it shrinks it about a thousand times more.
pub struct ZeroBomb {
    head: Vec<u8>,
    pattern: Vec<u8>,
    tail: Vec<u8>,
    pub repeats: u64,
}

#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    len: u32,
}

impl Bits {
    /// `count` bits of `value`, least significant first (Deflate's packing order).
    fn push(&mut self, value: u32, count: u32) {
        for i in 0..count {
            self.acc |= ((value >> i) & 1) << self.len;
            self.len += 1;
            if self.len == 8 {
                self.out.push(self.acc as u8);
                self.acc = 0;
                self.len = 0;
            }
        }
    }

    /// A Huffman code: most significant bit first.
    fn code(&mut self, code: u32, count: u32) {
        for i in (0..count).rev() {
            self.push((code >> i) & 1, 1);
        }
    }

    /// A length-258 (code 285, 8 bits 11000101), distance-1 (code 0, 5 bits) match.
    fn match_258(&mut self) {
        self.code(0b1100_0101, 8);
        self.code(0, 5);
    }
}

impl ZeroBomb {
    pub fn new(repeats: u64) -> ZeroBomb {
        // zlib header: deflate, 32 KiB window, no dictionary, default level.
        let mut head = Bits::default();
        head.push(0x78, 8);
        head.push(0x9c, 8);
        head.push(1, 1); // final block
        head.push(1, 2); // fixed Huffman codes
        head.code(0b0011_0000, 8); // literal 0
        head.match_258(); // 3 + 8 + 13 = 24 bits: byte aligned
        assert_eq!(head.len, 0);
        let mut pattern = Bits::default();
        for _ in 0..8 {
            pattern.match_258();
        }
        assert_eq!((pattern.out.len(), pattern.len), (13, 0));
        let mut tail = Bits::default();
        tail.code(0, 7); // end of block
        if tail.len > 0 {
            tail.push(0, 8 - tail.len); // to a byte boundary
        }
        let decoded = ZeroBomb::decoded_len_of(repeats);
        // Adler-32 of zeros: a stays 1, b adds a for every byte.
        let adler = ((decoded % 65521) << 16) | 1;
        tail.out.extend_from_slice(&(adler as u32).to_be_bytes());
        ZeroBomb {
            head: head.out,
            pattern: pattern.out,
            tail: tail.out,
            repeats,
        }
    }

    fn decoded_len_of(repeats: u64) -> u64 {
        1 + 258 * (1 + 8 * repeats)
    }

    pub fn decoded_len(&self) -> u64 {
        ZeroBomb::decoded_len_of(self.repeats)
    }

    /// The stream's bytes written into `out` (a Vec, or an encoder for another layer).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.head)?;
        let chunk = self.pattern.repeat(64 * 1024);
        let mut left = self.repeats;
        while left > 0 {
            let n = left.min(64 * 1024);
            out.write_all(&chunk[..n as usize * self.pattern.len()])?;
            left -= n;
        }
        out.write_all(&self.tail)
    }
}

/// Where [`bomb_pdf`] hides the bomb.
#[derive(Clone, Copy, Debug)]
pub enum BombIn {
    /// A second content stream of the page.
    Content,
    /// An image XObject of plausible size whose data inflates far past it.
    Image,
}

/// A one-page PDF with a small text and a stream of `/Filter [/ASCIIHexDecode /FlateDecode
/// /FlateDecode]` that decodes to `gib` GiB of zeros: hex of a Flate layer of a Flate layer
/// of zeros. Returns the PDF and the size the stream decodes to.
pub fn bomb_pdf(gib: u64, place: BombIn) -> (Vec<u8>, u64) {
    let repeats = (gib << 30) / (258 * 8);
    let bomb = ZeroBomb::new(repeats);
    let mut outer = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    bomb.write_to(&mut outer).expect("in memory");
    let outer = outer.finish().expect("in memory");
    let mut hex: Vec<u8> = Vec::with_capacity(outer.len() * 2 + 1);
    for (i, byte) in outer.iter().enumerate() {
        hex.extend_from_slice(format!("{byte:02x}").as_bytes());
        if i % 40 == 39 {
            hex.push(b'\n');
        }
    }
    hex.push(b'>');
    let chain = "/Filter [/ASCIIHexDecode /FlateDecode /FlateDecode]";

    let mut o = Objects::default();
    let catalog = o.reserve();
    let pages = o.reserve();
    let page = o.reserve();
    let font =
        o.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    let text = o.flate_stream("", b"BT /F1 14 Tf 50 780 Td (A page over a bomb) Tj ET\n");
    let (contents, xobjects) = match place {
        BombIn::Content => {
            let bomb = o.stream(chain, &hex);
            (format!("[{text} 0 R {bomb} 0 R]"), String::new())
        }
        BombIn::Image => {
            let image = o.stream(
                &format!(
                    "/Type /XObject /Subtype /Image /Width 4000 /Height 4000 \
                     /ColorSpace /DeviceGray /BitsPerComponent 8 {chain}"
                ),
                &hex,
            );
            let draw = o.flate_stream("", b"q 500 0 0 500 50 200 cm /Im0 Do Q\n");
            (
                format!("[{text} 0 R {draw} 0 R]"),
                format!("/XObject << /Im0 {image} 0 R >>"),
            )
        }
    };
    let (w, h) = A4;
    o.set(
        page,
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << /Font << /F1 {font} 0 R >> {xobjects} >> /Contents {contents} >>"
        ),
    );
    o.set(
        pages,
        format!("<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>"),
    );
    o.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    (o.finish(catalog), bomb.decoded_len())
}

/// A one-page PDF that also holds `count` objects (small integers no page uses) packed in one
/// object stream: a few megabytes of Flate for a million objects.
pub fn object_flood_pdf(count: u64) -> Vec<u8> {
    let mut o = Objects::default();
    let catalog = o.reserve();
    let pages = o.reserve();
    let page = o.reserve();
    let font =
        o.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    let text = o.flate_stream("", b"BT /F1 14 Tf 50 780 Td (A page over a flood) Tj ET\n");
    // Numbered past the objects above, which come first in the file.
    let first_id = 100u64;
    let mut header = String::new();
    let mut body = String::new();
    for i in 0..count {
        header.push_str(&format!("{} {} ", first_id + i, body.len()));
        body.push_str("0 ");
    }
    let first = header.len();
    o.flate_stream(
        &format!("/Type /ObjStm /N {count} /First {first}"),
        (header + &body).as_bytes(),
    );
    let (w, h) = A4;
    o.set(
        page,
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << /Font << /F1 {font} 0 R >> >> /Contents {text} 0 R >>"
        ),
    );
    o.set(
        pages,
        format!("<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>"),
    );
    o.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    o.finish(catalog)
}

/// [`bomb_pdf`]'s content bomb encrypted by qpdf with AES-128 under an empty user password
/// (its stream data kept as it is): PDFium opens it without asking, and the guard must
/// decrypt it to see the bomb.
pub fn encrypted_bomb_pdf(gib: u64) -> Vec<u8> {
    let (pdf, _) = bomb_pdf(gib, BombIn::Content);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, output) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&input, pdf).expect("in a temporary directory");
    let status = std::process::Command::new("qpdf")
        .args(["--stream-data=preserve", "--encrypt", "", "owner", "128"])
        .args(["--use-aes=y", "--"])
        .arg(&input)
        .arg(&output)
        .status()
        .expect("qpdf is installed by scripts/setup.sh");
    assert!(status.success(), "qpdf: {status}");
    std::fs::read(&output).expect("qpdf's output")
}
