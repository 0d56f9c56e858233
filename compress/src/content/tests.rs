use lopdf::content::Content;

use super::{Parser, Stop};

/// What lopdf makes of `data`, and what the parser here does when it does not defer.
fn both(data: &[u8]) -> (String, Option<String>) {
    let lopdf = format!("{:?}", Content::decode(data).ok().map(|c| c.operations));
    let own = match Parser::new(data, |_| true).content() {
        Ok(content) => Some(format!("{:?}", Some(content.operations))),
        Err(Stop::Defer) => None,
        Err(Stop::Miss) => Some("miss".to_owned()),
    };
    (lopdf, own)
}

fn same_as_lopdf(data: &[u8]) -> bool {
    let (lopdf, own) = both(data);
    if let Some(own) = &own {
        assert_eq!(own, &lopdf, "{:?}", String::from_utf8_lossy(data));
    }
    assert_eq!(
        format!("{:?}", super::parse(data, |_| true).map(|c| c.operations)),
        lopdf
    );
    // Only the operations kept, the others read just as far.
    let kept = |op: &[u8]| matches!(op, b"Tj" | b"TJ" | b"q" | b"BI");
    let lopdf_kept = Content::decode(data).ok().map(|mut content| {
        content.operations.retain(|op| kept(op.operator.as_bytes()));
        content.operations
    });
    assert_eq!(
        format!("{:?}", super::parse(data, kept).map(|c| c.operations)),
        format!("{:?}", lopdf_kept)
    );
    own.is_some()
}

#[test]
fn reads_what_lopdf_reads() {
    let cases: &[&[u8]] = &[
        b"",
        b"   \n",
        b"q 1 0 0 1 72 720 cm /Im0 Do Q",
        b"BT /F1 12 Tf 14.4 TL (Hello, \\(world\\)) Tj T* [(A) -120 (V) 3.5 (\\101\\7\\0123)] TJ ET",
        b"(a\\\nb\\\r\nc\rd\r\ne\n) Tj (nested (paren (deep)) x) Tj (\\n\\r\\t\\b\\f\\q\\\\) Tj",
        b"<48 65 6C6c 6f> Tj <4> Tj <> Tj < 4 1 > Tj",
        b"/Span <</MCID 0 /Alt (x) /N null /B true /F false /A [1 2.0 -3 .5 +4 5.]>> BDC EMC",
        b"/P <</R 12 0 R /S [1 0 R 2 %c\n 0 R]>> BDC EMC",
        b"0.00-4142502 1 -2.5-3 l -.5 +.25 m 5. 6 m",
        b"% a comment\nq % another\r\n  Q %trailing\n",
        b"q %unterminated",
        b"1 0 0 RG 0 g 0g 1 1 1 rg f* B* b* ' \" d0 d1",
        b"/Name#20with#2Fescapes#zz /A#4 Tf",
        b"/ Tf //double Tf /a/b/c Do",
        b"nullx truefalse falsehood n",
        b"1 %comment between operands\n 2 m",
        b"q ] Q",
        b"1.2.3 4 m",
        b"99999999999999999999 1 m 9223372036854775807 -9223372036854775808 1 m",
        b"-9223372036854775809 1 m",
        b"[[[[1]]]] d <<>> BDC <</A<</B<</C 1>>>>>> BDC",
        b"(unterminated Tj",
        b"(trailing backslash\\",
        b"<zz> Tj",
        b"<< /A 1 /A 2 >> BDC",
        b"[1 0 R] [4294967296 0 R] [1 65536 R] [1 0 Q] TJ",
        b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x80 EI Q",
        b"q\x00Q\x0cq",
        b"{ q }",
        b"12abc 1.5e3 m",
        b"- 1 m",
        b". 1 m",
        b"16777216.5 16777217.0 1677721.75 0.12345678901 -0.0 -.000 123456789012.5 1e5 m",
        b"q BI /W 2 /H 2 /CS /G /BPC 8 ID \x01\x02\x03\x04 EI Q",
        b"BI/W 1/H 1/CS/RGB/BPC 8 ID\r\nabc\nEI\nq",
        b"BI /IM true /W 8 /H 2 ID \xFF\x00 EI Q",
        b"BI /W 8 /H 2 ID \xFF\x00 EI Q",
        b"BI /W 1 /H 1 /CS [/I /RGB 1 <000000FFFFFF>] /BPC 8 ID \x00 EI Q",
        b"BI /W 10 /H 1 /CS /RGB /BPC 8 /F /Fl ID x\x9c EI junk\nEI Q",
        b"BI /W 1 /H 1 /CS /R7 /BPC 8 ID \x00 EI Q",
        b"BI /W 4 /H 1 /CS /G /BPC 8 ID ab",
        b"BI /W 1 /H 1 /CS /G /BPC 8 ID a XX",
        b"BI /W -1 /H 1 /CS /G /BPC 8 ID a EI",
        b"BI /Width 1 /Height 1 /ColorSpace /DeviceCMYK /BitsPerComponent 8 ID abcd EI",
        b"BI /W 1 /H 1 /CS /Pattern /BPC 8 ID a EI Q",
        b"1 2 BI",
        b"BI ID EI",
    ];
    let handled = cases.iter().filter(|case| same_as_lopdf(case)).count();
    // Only the inline images lopdf cannot end (no `EI`, no `ID`) are left to it.
    assert_eq!(handled, cases.len() - 3);
}

#[test]
fn defers_nesting_to_lopdf() {
    let deep: Vec<u8> = std::iter::repeat_n(b'[', 120)
        .chain(std::iter::repeat_n(b']', 120))
        .chain(*b" d")
        .collect();
    assert!(!same_as_lopdf(&deep));
    let parens: Vec<u8> = std::iter::once(b'(')
        .chain(std::iter::repeat_n(b'(', 120))
        .chain(std::iter::repeat_n(b')', 120))
        .chain(*b") Tj q")
        .collect();
    same_as_lopdf(&parens);
}

/// Random soups of content tokens and stray bytes: wherever the parser here does not defer,
/// it gives lopdf's operations.
#[test]
fn random_content_matches_lopdf() {
    const PIECES: &[&[u8]] = &[
        b" ", b"\n", b"\r", b"\r\n", b"\t", b"%", b"(", b")", b"\\", b"<", b">", b"<<", b">>",
        b"[", b"]", b"/", b"#", b"#41", b"0", b"1", b"42", b"-", b"+", b".", b"3.25", b"-.5",
        b"0.00-4", b"R", b"0 R", b"null", b"true", b"false", b"q", b"Q", b"Tj", b"TJ", b"cm",
        b"BT", b"ET", b"f*", b"'", b"\"", b"d0", b"a", b"F", b"\\n", b"\\053", b"\\(", b"\x80",
        b"\x00", b"{", b"}", b"BI", b"ID", b"EI",
    ];
    // Whole tokens, each followed by white space: mostly content lopdf reads to the end.
    const TOKENS: &[&[u8]] = &[
        b"q",
        b"Q",
        b"1",
        b"-2",
        b"3.5",
        b".25",
        b"-0.00-4",
        b"/F1",
        b"/A#20B",
        b"(a(b)c\\)d)",
        b"(x\\\nline)",
        b"<4142>",
        b"<4 1 4>",
        b"[1 (a) -2.5 <41>]",
        b"[1 0 R /N [true null]]",
        b"<</MCID 3 /A [1 2] /D <</E (s)>>>>",
        b"Tj",
        b"TJ",
        b"cm",
        b"Tf",
        b"BDC",
        b"%note\n",
        b"f*",
        b"'",
        b"\"",
        b"d1",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pick = |list: &[&[u8]]| list[(next() % list.len() as u64) as usize].to_vec();
    let (mut soups, mut streams) = (0, 0);
    for round in 0..40_000 {
        let mut data = Vec::new();
        for _ in 0..round % 24 {
            if round % 2 == 0 {
                data.extend(pick(PIECES));
            } else {
                data.extend(pick(TOKENS));
                data.extend(pick(&[b" ", b"\n", b"\r\n", b""]));
            }
        }
        let handled = usize::from(same_as_lopdf(&data));
        if round % 2 == 0 {
            soups += handled;
        } else {
            streams += handled;
        }
    }
    // Most token streams are read here, not deferred, or this would test little.
    assert!(soups > 1_000 && streams > 5_000, "{soups} {streams}");
}

/// Every stream but images of the PDFs in the directory `CORPUS` names, read here and by
/// lopdf: the same operations wherever this parser does not defer, and how long each took.
/// `CORPUS=dir cargo test --release -p quire-compress corpus -- --ignored --nocapture`
#[test]
#[ignore = "needs a directory of PDFs in CORPUS"]
fn a_corpus_reads_as_lopdf_reads_it() {
    let dir = std::env::var("CORPUS").expect("CORPUS names a directory of PDFs");
    let (mut total, mut deferred, mut own_ns, mut lopdf_ns) = (0, 0, 0u128, 0u128);
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "pdf") {
            continue;
        }
        let Ok(doc) = lopdf::Document::load(&path) else {
            continue;
        };
        for object in doc.objects.values() {
            let lopdf::Object::Stream(stream) = object else {
                continue;
            };
            let subtype = stream.dict.get(b"Subtype").and_then(lopdf::Object::as_name);
            if subtype.is_ok_and(|s| s == b"Image") {
                continue;
            }
            let Ok(bytes) = stream.decompressed_content_with_limit(1 << 28) else {
                continue;
            };
            let started = std::time::Instant::now();
            let own = Parser::new(&bytes, |_| true).content();
            own_ns += started.elapsed().as_nanos();
            let started = std::time::Instant::now();
            let theirs = Content::decode(&bytes).ok().map(|c| c.operations);
            lopdf_ns += started.elapsed().as_nanos();
            total += 1;
            match own {
                Ok(own) => assert_eq!(
                    format!("{:?}", Some(own.operations)),
                    format!("{theirs:?}"),
                    "{}",
                    path.display()
                ),
                Err(_) => deferred += 1,
            }
        }
    }
    eprintln!(
        "{total} streams, {deferred} left to lopdf; {} ms here, {} ms in lopdf",
        own_ns / 1_000_000,
        lopdf_ns / 1_000_000
    );
}
