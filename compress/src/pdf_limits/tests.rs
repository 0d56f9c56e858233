use std::io::Write;

use super::*;

/// A zlib stream of `1 + 258 * (1 + 8 * repeats)` zeros without deflating them first: one
/// fixed-Huffman block of a literal zero and length-258, distance-1 matches, 13 bytes per
/// eight matches (the end-to-end tests' ZeroBomb, small enough to inline here).
fn zero_bomb(decoded_at_least: u64) -> Vec<u8> {
    let repeats = decoded_at_least / (258 * 8) + 1;
    // Bits are packed least significant first; Huffman codes most significant first.
    let mut bits: Vec<bool> = Vec::new();
    let code = |bits: &mut Vec<bool>, code: u32, count: u32| {
        bits.extend((0..count).rev().map(|i| (code >> i) & 1 == 1));
    };
    bits.extend([true, true, false]); // final block, fixed codes (01, low bit first)
    code(&mut bits, 0b0011_0000, 8); // literal 0
    let matches = |bits: &mut Vec<bool>, n: u64| {
        for _ in 0..n {
            code(bits, 0b1100_0101, 8); // length 258
            code(bits, 0, 5); // distance 1
        }
    };
    matches(&mut bits, 1);
    let pack = |bits: &[bool]| -> Vec<u8> {
        bits.chunks(8)
            .map(|byte| {
                byte.iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &bit)| b | (bit as u8) << i)
            })
            .collect()
    };
    assert_eq!(bits.len() % 8, 0);
    let mut out = vec![0x78, 0x9c];
    out.extend(pack(&bits));
    let mut pattern = Vec::new();
    matches(&mut pattern, 8);
    out.extend(pack(&pattern).repeat(repeats as usize));
    let mut tail = Vec::new();
    code(&mut tail, 0, 7); // end of block
    tail.resize(8, false);
    out.extend(pack(&tail));
    out
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(data).expect("in the test");
    z.finish().expect("in the test")
}

/// A file of `objects` in order (no cross-reference table: the guard reads none).
fn pdf(objects: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = b"%PDF-1.7\n".to_vec();
    for (id, body) in objects {
        out.extend(format!("{id} 0 obj\n").as_bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    out.extend(b"trailer\n<< /Root 1 0 R /Size 9 >>\n%%EOF\n");
    out
}

fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend(data);
    out.extend(b"\nendstream");
    out
}

fn page_over(content: Vec<u8>) -> Vec<(u32, Vec<u8>)> {
    vec![
        (1, b"<< /Type /Catalog /Pages 2 0 R >>".to_vec()),
        (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec()),
        (
            3,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>".to_vec(),
        ),
        (4, content),
    ]
}

#[test]
fn an_ordinary_file_passes_with_its_figures() {
    let text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n".repeat(1000);
    let file = pdf(&page_over(stream("/Filter /FlateDecode", &zlib(&text))));
    let survey = check(&file).expect("in the test");
    assert_eq!(
        survey,
        Survey {
            objects: 4,
            streams: 1,
            decoded: text.len() as u64
        }
    );
}

#[test]
fn a_content_stream_bomb_is_refused_with_its_object() {
    let bomb = zero_bomb(MAX_STREAM_DECODED + 1);
    assert!(bomb.len() < 2 << 20);
    let file = pdf(&page_over(stream("/Filter /FlateDecode", &bomb)));
    assert_eq!(check(&file), Err(Refusal::StreamTooLarge(4)));
    // Under the limit, the same stream passes.
    let file = pdf(&page_over(stream(
        "/Filter /FlateDecode",
        &zero_bomb(1 << 20),
    )));
    assert!(check(&file).is_ok());
}

#[test]
fn a_bomb_is_found_wherever_it_hides() {
    let bomb = zero_bomb(MAX_STREAM_DECODED + 1);
    // A second Flate layer, behind hexadecimal.
    let outer = zlib(&bomb);
    let hex: Vec<u8> = outer
        .iter()
        .flat_map(|b| format!("{b:02x}").into_bytes())
        .chain(*b">")
        .collect();
    let file = pdf(&page_over(stream("/Filter [/AHx /Fl /FlateDecode]", &hex)));
    assert_eq!(check(&file), Err(Refusal::StreamTooLarge(4)));

    // Raw deflate, without zlib's header: lopdf inflates it all the same.
    let raw = pdf(&page_over(stream("/Filter /FlateDecode", &bomb[2..])));
    assert_eq!(check(&raw), Err(Refusal::StreamTooLarge(4)));

    // Its /Length lies (no `endstream` where it points): the data runs to `endstream`.
    let mut lying = b"<< /Filter /FlateDecode /Length 10 >>\nstream\n".to_vec();
    lying.extend(&bomb);
    lying.extend(b"\nendstream");
    assert_eq!(
        check(&pdf(&page_over(lying))),
        Err(Refusal::StreamTooLarge(4))
    );

    // Its filter chain named by a reference to an object inside an object stream (a filter
    // that cannot be resolved is tried as Flate, which would not decode hexadecimal).
    let packed = b"7 0 [/AHx /Fl /Fl] ".to_vec();
    let mut objects = page_over(stream("/Filter 7 0 R", &hex));
    objects.push((
        6,
        stream(
            "/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode",
            &zlib(&packed),
        ),
    ));
    assert_eq!(check(&pdf(&objects)), Err(Refusal::StreamTooLarge(4)));

    // Inside what reads as a string of an earlier object: engines reach it by its offset.
    let mut swallowed = b"<< /Title (".to_vec();
    swallowed.extend(b"\nendobj\n5 0 obj\n");
    swallowed.extend(stream("/Filter /FlateDecode", &bomb));
    swallowed.extend(b") >>");
    let mut objects = page_over(b"<< >>".to_vec());
    objects.push((8, swallowed));
    assert_eq!(check(&pdf(&objects)), Err(Refusal::StreamTooLarge(5)));

    // An image whose data inflates far past what it declares.
    let image = stream(
        "/Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray \
         /BitsPerComponent 8 /Filter /FlateDecode",
        &bomb,
    );
    let mut objects = page_over(b"<< >>".to_vec());
    objects.push((5, image));
    assert_eq!(check(&pdf(&objects)), Err(Refusal::StreamTooLarge(5)));
}

#[test]
fn too_many_objects_are_refused_before_anything_is_decoded() {
    let mut objects = page_over(b"<< >>".to_vec());
    objects.push((
        5,
        stream(
            "/Type /ObjStm /N 2000000 /First 0 /Filter /FlateDecode",
            &zlib(b""),
        ),
    ));
    assert_eq!(
        check(&pdf(&objects)),
        Err(Refusal::TooManyObjects(2_000_005))
    );
    let file = pdf(&page_over(b"<< >>".to_vec()));
    let declared = String::from_utf8(file)
        .expect("in the test")
        .replace("/Size 9", "/Size 5000000");
    assert_eq!(
        check(declared.as_bytes()),
        Err(Refusal::TooManyObjects(5_000_000))
    );
    let headers: Vec<(u32, Vec<u8>)> = (1..=MAX_OBJECTS as u32 + 1)
        .map(|id| (id, b"0".to_vec()))
        .collect();
    assert_eq!(
        check(&pdf(&headers)),
        Err(Refusal::TooManyObjects(MAX_OBJECTS + 1))
    );
}

#[test]
fn deep_nesting_and_huge_images_are_refused() {
    let deep = [b"[".repeat(100_000), b"]".repeat(100_000)].concat();
    assert_eq!(check(&pdf(&page_over(deep))), Err(Refusal::TooDeep));
    let image = stream(
        "/Subtype /Image /Width 100000 /Height 100000 /ColorSpace /DeviceRGB \
         /BitsPerComponent 8 /Filter /DCTDecode",
        b"\xff\xd8\xff\xd9",
    );
    let mut objects = page_over(b"<< >>".to_vec());
    objects.push((5, image));
    assert_eq!(
        check(&pdf(&objects)),
        Err(Refusal::ImageTooLarge {
            object: 5,
            width: 100_000,
            height: 100_000
        })
    );
}

#[test]
fn the_message_names_the_limit_and_the_way_out() {
    let message = Refusal::StreamTooLarge(4).to_string();
    assert!(message.contains("stream 4"), "{message}");
    assert!(message.contains("256 MiB"), "{message}");
    assert!(message.contains("split it"), "{message}");
}

/// `file` encrypted by qpdf with `args` (`--encrypt user owner bits [options] --`), its stream
/// data kept as it is: a bomb stays a bomb, sealed.
fn encrypted(file: &[u8], args: &[&str]) -> Vec<u8> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("quire-pdf-limits-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("in the test");
    let (input, output) = (dir.join("in.pdf"), dir.join("out.pdf"));
    std::fs::write(&input, file).expect("in the test");
    let status = std::process::Command::new("qpdf")
        .args([
            "--stream-data=preserve",
            "--allow-weak-crypto",
            "--no-warn",
            "--warning-exit-0",
        ])
        .arg("--encrypt")
        .args(args)
        .arg(&input)
        .arg(&output)
        .status()
        .expect("qpdf runs (scripts/setup.sh installs it)");
    // Warnings: the fixtures have no cross-reference table.
    assert!(status.success(), "qpdf: {status}");
    let out = std::fs::read(&output).expect("in the test");
    std::fs::remove_dir_all(&dir).expect("in the test");
    assert!(memchr::memmem::find(&out, b"/Encrypt").is_some());
    out
}

/// The security handlers the engines open with the empty user password: RC4 40 and 128 bits,
/// AES-128, AES-256 (revision 6).
const SEALS: [&[&str]; 4] = [
    &["", "owner", "40", "--"],
    &["", "owner", "128", "--use-aes=n", "--"],
    &["", "owner", "128", "--use-aes=y", "--"],
    &["", "owner", "256", "--"],
];

#[test]
fn an_encrypted_bomb_is_decrypted_and_refused() {
    let bomb = pdf(&page_over(stream(
        "/Filter /FlateDecode",
        &zero_bomb(MAX_STREAM_DECODED + 1),
    )));
    let text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n".repeat(1000);
    let ordinary = pdf(&page_over(stream("/Filter /FlateDecode", &zlib(&text))));
    for seal in SEALS {
        let sealed = encrypted(&bomb, seal);
        assert!(
            matches!(check(&sealed), Err(Refusal::StreamTooLarge(_))),
            "{seal:?}: {:?}",
            check(&sealed)
        );
        // The same file without the bomb passes, its content measured decrypted.
        let survey = check(&encrypted(&ordinary, seal)).expect("in the test");
        assert_eq!(survey.decoded, text.len() as u64, "{seal:?}");
    }
}

#[test]
fn a_file_under_a_real_password_is_checked_with_the_jobs_password() {
    let bomb = pdf(&page_over(stream(
        "/Filter /FlateDecode",
        &zero_bomb(MAX_STREAM_DECODED + 1),
    )));
    for seal in [
        &["secret", "owner", "128", "--use-aes=y", "--"][..],
        &["secret", "owner", "256", "--"],
    ] {
        let sealed = encrypted(&bomb, seal);
        // Without the password no engine can open it (it fails as an encrypted PDF): what the
        // guard reads is the encrypted bytes, as the engines would.
        assert!(check(&sealed).is_ok());
        assert!(check_with_password(&sealed, "wrong").is_ok());
        for password in ["secret", "owner"] {
            assert!(
                matches!(
                    check_with_password(&sealed, password),
                    Err(Refusal::StreamTooLarge(_))
                ),
                "{seal:?} {password}"
            );
        }
    }
}

#[test]
fn an_encryption_dictionary_the_guard_cannot_read_is_refused() {
    let bomb = pdf(&page_over(stream(
        "/Filter /FlateDecode",
        &zero_bomb(MAX_STREAM_DECODED + 1),
    )));
    let sealed = encrypted(&bomb, &["", "owner", "128", "--use-aes=y", "--"]);
    let replace = |from: &[u8], to: &[u8]| {
        let at = memchr::memmem::find(&sealed, from).expect("in the test");
        [&sealed[..at], to, &sealed[at + from.len()..]].concat()
    };
    // A revision no handler knows: lopdf cannot derive the key, and what PDFium would make of
    // it is not worth the bet.
    assert!(matches!(
        check(&replace(b"/R 4", b"/R 9")),
        Err(Refusal::Unreadable(_))
    ));
    // Another security handler: PDFium opens none but the standard one, and lopdf reads the
    // file undecrypted, as the guard does.
    assert!(check(&replace(b"/Filter /Standard", b"/Filter /Elsewher")).is_ok());
}

#[test]
fn streams_stored_in_clear_in_an_encrypted_file_are_measured_as_stored() {
    let text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n".repeat(10);
    let ordinary = pdf(&page_over(stream("/Filter /FlateDecode", &zlib(&text))));
    let clear = [
        "",
        "owner",
        "128",
        "--use-aes=y",
        "--cleartext-metadata",
        "--",
    ];
    let sealed = encrypted(&ordinary, &clear);
    assert!(memchr::memmem::find(&sealed, b"/EncryptMetadata false").is_some());
    let bomb = zero_bomb(MAX_STREAM_DECODED + 1);
    // Objects appended after the file's end: the guard reads every header, as the engines
    // reach objects by their offsets.
    let with = |id: u32, dict: &str| {
        let mut file = sealed.clone();
        file.extend(format!("\n{id} 0 obj\n").as_bytes());
        file.extend(stream(dict, &bomb));
        file.extend(b"\nendobj\n");
        file
    };
    // Metadata under `/EncryptMetadata false` is not encrypted: decrypting it would hide it.
    let metadata = with(90, "/Type /Metadata /Subtype /XML /Filter /FlateDecode");
    assert_eq!(check(&metadata), Err(Refusal::StreamTooLarge(90)));
    // Neither is a stream whose `/Crypt` filter is `/Identity`.
    let identity = with(
        91,
        "/Filter [/Crypt /FlateDecode] /DecodeParms [<< /Name /Identity >> null]",
    );
    assert_eq!(check(&identity), Err(Refusal::StreamTooLarge(91)));
}
