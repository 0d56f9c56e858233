//! Whole-font tests: a small Type 1 font generated here, converted, and the CFF read back
//! with a minimal CFF reader and Type 2 interpreter, outlines compared glyph by glyph.

use std::collections::BTreeSet;

use super::cff_reader::{rd16, read_dict, read_index, run_t2};
use super::charstring::{Ev, interpret};
use super::eexec::{CHARSTRING_KEY, EEXEC_KEY, encrypt};
use super::names::STANDARD_STRINGS;
use super::test_asm::t1_asm;
use super::{Type1Font, charstring};

const GLYPHS: [(&str, &str); 7] = [
    (".notdef", "0 250 hsbw endchar"),
    (
        "A",
        "10 600 hsbw 0 20 hstem 50 40 vstem 0 0 rmoveto 300 700 rlineto 300 -700 rlineto closepath endchar",
    ),
    (
        "acute",
        "100 333 hsbw 0 600 rmoveto 50 100 rlineto 30 hlineto -50 -100 rlineto closepath endchar",
    ),
    ("Aacute", "10 600 hsbw 100 150 20 65 194 seac"),
    (
        "B",
        "20 550 hsbw 0 0 rmoveto 1 callsubr \
         10 0 rmoveto 2 callsubr 10 5 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr \
         10 -5 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr \
         10 0 rmoveto 2 callsubr 50 90 0 0 callsubr 5 4 callsubr 0 10 rlineto closepath \
         6 4 callsubr 0 100 rmoveto 7 2 div vlineto 20 hlineto closepath endchar",
    ),
    (
        "C",
        "30 500 hsbw 0 300 rmoveto 0 100 100 100 100 0 rrcurveto 100 100 0 -100 hvcurveto \
         -100 0 -100 -100 vhcurveto 10 20 30 40 50 60 rrcurveto 0 50 50 0 50 0 rrcurveto \
         5 7 rlineto 10 20 30 40 50 60 rrcurveto 9 0 rlineto 0 10 20 30 0 40 rrcurveto \
         5 10 20 30 0 40 rrcurveto 0 10 20 30 0 40 rrcurveto 10 0 20 30 40 0 rrcurveto \
         10 7 20 30 40 0 rrcurveto 0 10 20 30 40 7 rrcurveto 10 0 20 30 40 50 rrcurveto closepath endchar",
    ),
    ("D", "0 400 hsbw 5 5 rmoveto 100 0 rlineto endchar"),
];

const SUBRS: [&str; 7] = [
    "3 0 callothersubr pop pop setcurrentpoint return",
    "0 1 callothersubr return",
    "0 2 callothersubr return",
    "return",
    "1 3 callothersubr pop callsubr return",
    "5 10 hstem 30 10 vstem return",
    "50 20 hstem return",
];

/// A complete Type 1 program (binary eexec section) built from the tables above.
pub(crate) fn sample_font() -> Vec<u8> {
    sample_font_from(&sample_private())
}

/// The decrypted private part of the sample font.
fn sample_private() -> Vec<u8> {
    let mut private = b"\x11\x22\x33\x44dup /Private 9 dict dup begin\n\
        /RD {string currentfile exch readstring pop} executeonly def\n\
        /ND {noaccess def} executeonly def /NP {noaccess put} executeonly def\n\
        /BlueValues [-20 0 700 720] def /BlueScale 0.039625 def /StdVW [85] def\n\
        /StemSnapH [30 40] def /ForceBold true def /lenIV 4 def\n\
        /OtherSubrs [ {} {} {} {systemdict /internaldict known not {pop 3} if} {currentfile closefile} ] ND\n"
        .to_vec();
    let enc_cs = |src: &str| {
        let mut plain = vec![1, 2, 3, 4];
        plain.extend(t1_asm(src));
        encrypt(&plain, CHARSTRING_KEY)
    };
    private.extend(format!("/Subrs {} array\n", SUBRS.len()).as_bytes());
    for (i, s) in SUBRS.iter().enumerate() {
        let c = enc_cs(s);
        private.extend(format!("dup {i} {} RD ", c.len()).as_bytes());
        private.extend(c);
        private.extend(b" NP\n");
    }
    private
        .extend(format!("ND\n2 index /CharStrings {} dict dup begin\n", GLYPHS.len()).as_bytes());
    for (name, s) in GLYPHS {
        let c = enc_cs(s);
        private.extend(format!("/{name} {} RD ", c.len()).as_bytes());
        private.extend(c);
        private.extend(b" ND\n");
    }
    private.extend(b"end\nend\nreadonly put\nnoaccess put\ndup /FontName get exch definefont pop\nmark currentfile closefile\n");
    private
}

/// The sample font around a given private part.
fn sample_font_from(private: &[u8]) -> Vec<u8> {
    let mut font = b"%!PS-AdobeFont-1.0: TestFont 001.000\n\
        11 dict begin\n/FontInfo 3 dict dup begin /Notice (Test \\(c\\)) readonly def\n\
        /FullName (Test Font) readonly def /ItalicAngle -12.5 def end readonly def\n\
        /FontName /ABCDEF+TestFont def /PaintType 0 def /FontType 1 def\n\
        /FontMatrix [0.001 0 0 0.001 0 0] readonly def\n\
        /Encoding 256 array 0 1 255 {1 index exch /.notdef put} for\n\
        dup 65 /A put dup 66 /B put dup 67 /C put dup 68 /Aacute put dup 97 /A put\n\
        readonly def\n/FontBBox {-10 -20 700 800} readonly def\ncurrentdict end\ncurrentfile eexec\n"
        .to_vec();
    font.extend(encrypt(private, EEXEC_KEY));
    font.extend(
        b"\n0000000000000000000000000000000000000000000000000000000000000000\ncleartomark\n",
    );
    font
}

/// Type 1 events as drawn: flex as two curves, no hints, no closepath.
fn drawn(evs: &[Ev]) -> Vec<Ev> {
    let mut out = Vec::new();
    for e in evs {
        match e {
            Ev::Flex(p, _) => {
                out.push(Ev::Curve([p[0], p[1], p[2], p[3], p[4], p[5]]));
                out.push(Ev::Curve([p[6], p[7], p[8], p[9], p[10], p[11]]));
            }
            Ev::Move(..) | Ev::Line(..) | Ev::Curve(_) => out.push(e.clone()),
            _ => {}
        }
    }
    out
}

#[test]
fn whole_font_round_trip() {
    let program = sample_font();
    let font = Type1Font::parse(&program, 0, 0).expect("parses");
    assert_eq!(font.builtin_name(65), Some(&b"A"[..]));
    assert_eq!(font.builtin_name(97), Some(&b"A"[..]));
    assert_eq!(font.builtin_name(1), None);
    let keep: BTreeSet<Vec<u8>> = [&b"Aacute"[..], b"B", b"C", b"D", b"missing"]
        .iter()
        .map(|n| n.to_vec())
        .collect();
    let cff = font.to_cff(&keep).expect("converts");

    assert_eq!(&cff[..3], &[1, 0, 4]);
    let (names, p) = read_index(&cff, 4);
    assert_eq!(names, vec![b"ABCDEF+TestFont".to_vec()]);
    let (tops, p) = read_index(&cff, p);
    let (strings, p) = read_index(&cff, p);
    let (gsubrs, _) = read_index(&cff, p);
    assert!(gsubrs.is_empty());
    let top = read_dict(&tops[0]);
    let get = |op: u16| top.iter().find(|(o, _)| *o == op).map(|(_, v)| v.clone());
    let sid_str = |sid: f64| {
        let sid = sid as usize;
        STANDARD_STRINGS
            .get(sid)
            .map(|s| s.as_bytes().to_vec())
            .unwrap_or_else(|| strings[sid - 391].clone())
    };
    assert_eq!(sid_str(get(1).expect("Notice")[0]), b"Test (c)");
    assert_eq!(get(1202), Some(vec![-12.5]));
    assert_eq!(get(5), Some(vec![-10.0, -20.0, 700.0, 800.0]));
    assert_eq!(get(1207), None, "default FontMatrix omitted");
    let (charstrings, _) = read_index(&cff, get(17).expect("CharStrings")[0] as usize);
    let n = charstrings.len();
    // charset: read whichever format was written.
    let cs_off = get(15).expect("charset")[0] as usize;
    let mut gnames = vec![b".notdef".to_vec()];
    let mut p = cs_off + 1;
    while gnames.len() < n {
        match cff[cs_off] {
            0 => {
                gnames.push(sid_str(rd16(&cff, p) as f64));
                p += 2;
            }
            1 => {
                let (first, left) = (rd16(&cff, p), usize::from(cff[p + 2]));
                (first..=first + left).for_each(|s| gnames.push(sid_str(s as f64)));
                p += 3;
            }
            _ => {
                let (first, left) = (rd16(&cff, p), rd16(&cff, p + 2));
                (first..=first + left).for_each(|s| gnames.push(sid_str(s as f64)));
                p += 4;
            }
        }
    }
    let expect: Vec<Vec<u8>> = [".notdef", "A", "B", "C", "Aacute", "acute", "D"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    assert_eq!(gnames, expect);
    // Encoding: A=65 (and 97 as supplement), B=66, C=67, Aacute=68.
    let e = get(16).expect("Encoding")[0] as usize;
    assert_eq!(&cff[e..e + 4], &[0x81, 1, 65, 3]);
    assert_eq!(&cff[e + 4..e + 8], &[1, 97, 0, 34]);

    let pr = get(18).expect("Private");
    let private = read_dict(&cff[pr[1] as usize..(pr[1] + pr[0]) as usize]);
    let pget = |op: u16| {
        private
            .iter()
            .find(|(o, _)| *o == op)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(pget(6), Some(vec![-20.0, 20.0, 700.0, 20.0]));
    assert_eq!(pget(1209), Some(vec![0.039625]));
    assert_eq!(pget(11), Some(vec![85.0]));
    assert_eq!(pget(1212), Some(vec![30.0, 10.0]));
    assert_eq!(pget(1214), Some(vec![1.0]));
    let default_w = pget(20).map_or(0.0, |v| v[0]);
    let nominal_w = pget(21).map_or(0.0, |v| v[0]);

    let subrs: Vec<Vec<u8>> = SUBRS.iter().map(|s| t1_asm(s)).collect();
    for (name, cs) in gnames.iter().zip(&charstrings) {
        let src = GLYPHS
            .iter()
            .find(|(g, _)| g.as_bytes() == name.as_slice())
            .expect("glyph")
            .1;
        let t1 = interpret(&t1_asm(src), &subrs).expect("type 1 runs");
        let (w, ev, seac) = run_t2(cs);
        assert_eq!(
            w.map_or(default_w, |w| w + nominal_w),
            t1.width,
            "width of {name:?}"
        );
        assert_eq!(ev, drawn(&t1.events), "outline of {name:?}");
        assert_eq!(seac, t1.seac.map(|s| s.to_vec()), "seac of {name:?}");
    }
    // Accent offset: adx - asb + sbx = 150 - 100 + 10.
    let aacute = &charstrings[4];
    assert_eq!(run_t2(aacute).2, Some(vec![60.0, 20.0, 65.0, 194.0]));
    // B uses hint replacement -> hintmask; C is plain.
    assert!(charstrings[2].contains(&19));
    assert_eq!(
        charstring::decrypt(b"abc", -1),
        b"abc",
        "lenIV -1: not encrypted"
    );
}

#[test]
fn hex_eexec_and_errors() {
    let program = sample_font();
    let split = program
        .windows(6)
        .position(|w| w == b"eexec\n")
        .expect("eexec")
        + 6;
    let mut hex = program[..split].to_vec();
    for (k, b) in program[split..program.len() - 80].iter().enumerate() {
        hex.extend(format!("{b:02X}").as_bytes());
        if k % 32 == 31 {
            hex.push(b'\n');
        }
    }
    let font = Type1Font::parse(&hex, 12345, 7).expect("hex parses");
    let keep: BTreeSet<Vec<u8>> = [b"C".to_vec()].into();
    assert!(font.to_cff(&keep).is_ok());
    assert!(Type1Font::parse(b"%!PS no font here", 0, 0).is_err());
}

#[test]
fn damaged_fonts_never_panic() {
    // Deterministic pseudo-random damage to the plaintext private part (charstrings stay
    // encrypted, so a flipped byte there scrambles the rest of that charstring) and
    // truncations of the whole program: parse and convert must return, not panic.
    let private = sample_private();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let all: BTreeSet<Vec<u8>> = GLYPHS.iter().map(|(n, _)| n.as_bytes().to_vec()).collect();
    let (mut parsed, mut converted) = (0, 0);
    for round in 0..600 {
        let mut p = private.clone();
        for _ in 0..1 + rand(4) {
            let at = rand(p.len());
            p[at] = rand(256) as u8;
        }
        let mut program = sample_font_from(&p);
        if round % 5 == 0 {
            program.truncate(rand(program.len()));
        }
        if let Ok(font) = Type1Font::parse(&program, rand(3000), rand(3000)) {
            parsed += 1;
            converted += usize::from(font.to_cff(&all).is_ok());
        }
    }
    assert!(
        parsed > 100 && converted > 50,
        "parsed {parsed}, converted {converted}"
    );
}
