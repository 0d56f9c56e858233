//! Glyph names of the standard simple-font encodings (PDF 32000 annex D), and the Unicode
//! value of each of those names (Adobe Glyph List), generated with fontTools.
//! An empty name is a code with no glyph.

#[rustfmt::skip]
pub const STANDARD: [&[u8]; 256] = [
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"space", b"exclam",
    b"quotedbl", b"numbersign", b"dollar", b"percent", b"ampersand", b"quoteright", b"parenleft",
    b"parenright", b"asterisk", b"plus", b"comma", b"hyphen", b"period", b"slash", b"zero", b"one",
    b"two", b"three", b"four", b"five", b"six", b"seven", b"eight", b"nine", b"colon",
    b"semicolon", b"less", b"equal", b"greater", b"question", b"at", b"A", b"B", b"C", b"D", b"E",
    b"F", b"G", b"H", b"I", b"J", b"K", b"L", b"M", b"N", b"O", b"P", b"Q", b"R", b"S", b"T", b"U",
    b"V", b"W", b"X", b"Y", b"Z", b"bracketleft", b"backslash", b"bracketright", b"asciicircum",
    b"underscore", b"quoteleft", b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"i", b"j", b"k",
    b"l", b"m", b"n", b"o", b"p", b"q", b"r", b"s", b"t", b"u", b"v", b"w", b"x", b"y", b"z",
    b"braceleft", b"bar", b"braceright", b"asciitilde", b"", b"", b"", b"", b"", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"exclamdown", b"cent", b"sterling", b"fraction", b"yen",
    b"florin", b"section", b"currency", b"quotesingle", b"quotedblleft", b"guillemotleft",
    b"guilsinglleft", b"guilsinglright", b"fi", b"fl", b"", b"endash", b"dagger", b"daggerdbl",
    b"periodcentered", b"", b"paragraph", b"bullet", b"quotesinglbase", b"quotedblbase",
    b"quotedblright", b"guillemotright", b"ellipsis", b"perthousand", b"", b"questiondown", b"",
    b"grave", b"acute", b"circumflex", b"tilde", b"macron", b"breve", b"dotaccent", b"dieresis",
    b"", b"ring", b"cedilla", b"", b"hungarumlaut", b"ogonek", b"caron", b"emdash", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"AE", b"", b"ordfeminine",
    b"", b"", b"", b"", b"Lslash", b"Oslash", b"OE", b"ordmasculine", b"", b"", b"", b"", b"",
    b"ae", b"", b"", b"", b"dotlessi", b"", b"", b"lslash", b"oslash", b"oe", b"germandbls", b"",
    b"", b"", b"",
];

#[rustfmt::skip]
pub const WIN_ANSI: [&[u8]; 256] = [
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"space", b"exclam",
    b"quotedbl", b"numbersign", b"dollar", b"percent", b"ampersand", b"quotesingle", b"parenleft",
    b"parenright", b"asterisk", b"plus", b"comma", b"hyphen", b"period", b"slash", b"zero", b"one",
    b"two", b"three", b"four", b"five", b"six", b"seven", b"eight", b"nine", b"colon",
    b"semicolon", b"less", b"equal", b"greater", b"question", b"at", b"A", b"B", b"C", b"D", b"E",
    b"F", b"G", b"H", b"I", b"J", b"K", b"L", b"M", b"N", b"O", b"P", b"Q", b"R", b"S", b"T", b"U",
    b"V", b"W", b"X", b"Y", b"Z", b"bracketleft", b"backslash", b"bracketright", b"asciicircum",
    b"underscore", b"grave", b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"i", b"j", b"k",
    b"l", b"m", b"n", b"o", b"p", b"q", b"r", b"s", b"t", b"u", b"v", b"w", b"x", b"y", b"z",
    b"braceleft", b"bar", b"braceright", b"asciitilde", b"bullet", b"Euro", b"bullet",
    b"quotesinglbase", b"florin", b"quotedblbase", b"ellipsis", b"dagger", b"daggerdbl",
    b"circumflex", b"perthousand", b"Scaron", b"guilsinglleft", b"OE", b"bullet", b"Zcaron",
    b"bullet", b"bullet", b"quoteleft", b"quoteright", b"quotedblleft", b"quotedblright",
    b"bullet", b"endash", b"emdash", b"tilde", b"trademark", b"scaron", b"guilsinglright", b"oe",
    b"bullet", b"zcaron", b"Ydieresis", b"space", b"exclamdown", b"cent", b"sterling", b"currency",
    b"yen", b"brokenbar", b"section", b"dieresis", b"copyright", b"ordfeminine", b"guillemotleft",
    b"logicalnot", b"hyphen", b"registered", b"macron", b"degree", b"plusminus", b"", b"",
    b"acute", b"mu", b"paragraph", b"periodcentered", b"cedilla", b"", b"ordmasculine",
    b"guillemotright", b"onequarter", b"onehalf", b"threequarters", b"questiondown", b"Agrave",
    b"Aacute", b"Acircumflex", b"Atilde", b"Adieresis", b"Aring", b"AE", b"Ccedilla", b"Egrave",
    b"Eacute", b"Ecircumflex", b"Edieresis", b"Igrave", b"Iacute", b"Icircumflex", b"Idieresis",
    b"Eth", b"Ntilde", b"Ograve", b"Oacute", b"Ocircumflex", b"Otilde", b"Odieresis", b"multiply",
    b"Oslash", b"Ugrave", b"Uacute", b"Ucircumflex", b"Udieresis", b"Yacute", b"Thorn",
    b"germandbls", b"agrave", b"aacute", b"acircumflex", b"atilde", b"adieresis", b"aring", b"ae",
    b"ccedilla", b"egrave", b"eacute", b"ecircumflex", b"edieresis", b"igrave", b"iacute",
    b"icircumflex", b"idieresis", b"eth", b"ntilde", b"ograve", b"oacute", b"ocircumflex",
    b"otilde", b"odieresis", b"divide", b"oslash", b"ugrave", b"uacute", b"ucircumflex",
    b"udieresis", b"yacute", b"thorn", b"ydieresis",
];

#[rustfmt::skip]
pub const MAC_ROMAN: [&[u8]; 256] = [
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"",
    b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"", b"space", b"exclam",
    b"quotedbl", b"numbersign", b"dollar", b"percent", b"ampersand", b"quotesingle", b"parenleft",
    b"parenright", b"asterisk", b"plus", b"comma", b"hyphen", b"period", b"slash", b"zero", b"one",
    b"two", b"three", b"four", b"five", b"six", b"seven", b"eight", b"nine", b"colon",
    b"semicolon", b"less", b"equal", b"greater", b"question", b"at", b"A", b"B", b"C", b"D", b"E",
    b"F", b"G", b"H", b"I", b"J", b"K", b"L", b"M", b"N", b"O", b"P", b"Q", b"R", b"S", b"T", b"U",
    b"V", b"W", b"X", b"Y", b"Z", b"bracketleft", b"backslash", b"bracketright", b"asciicircum",
    b"underscore", b"grave", b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h", b"i", b"j", b"k",
    b"l", b"m", b"n", b"o", b"p", b"q", b"r", b"s", b"t", b"u", b"v", b"w", b"x", b"y", b"z",
    b"braceleft", b"bar", b"braceright", b"asciitilde", b"", b"Adieresis", b"Aring", b"Ccedilla",
    b"Eacute", b"Ntilde", b"Odieresis", b"Udieresis", b"aacute", b"agrave", b"acircumflex",
    b"adieresis", b"atilde", b"aring", b"ccedilla", b"eacute", b"egrave", b"ecircumflex",
    b"edieresis", b"iacute", b"igrave", b"icircumflex", b"idieresis", b"ntilde", b"oacute",
    b"ograve", b"ocircumflex", b"odieresis", b"otilde", b"uacute", b"ugrave", b"ucircumflex",
    b"udieresis", b"dagger", b"degree", b"cent", b"sterling", b"section", b"bullet", b"paragraph",
    b"germandbls", b"registered", b"copyright", b"trademark", b"acute", b"dieresis", b"notequal",
    b"AE", b"Oslash", b"infinity", b"plusminus", b"lessequal", b"greaterequal", b"yen", b"mu",
    b"partialdiff", b"summation", b"product", b"pi", b"integral", b"ordfeminine", b"ordmasculine",
    b"Omega", b"ae", b"oslash", b"questiondown", b"exclamdown", b"logicalnot", b"radical",
    b"florin", b"approxequal", b"Delta", b"guillemotleft", b"guillemotright", b"ellipsis",
    b"nbspace", b"Agrave", b"Atilde", b"Otilde", b"OE", b"oe", b"endash", b"emdash",
    b"quotedblleft", b"quotedblright", b"quoteleft", b"quoteright", b"divide", b"lozenge",
    b"ydieresis", b"Ydieresis", b"fraction", b"currency", b"guilsinglleft", b"guilsinglright",
    b"fi", b"fl", b"daggerdbl", b"periodcentered", b"quotesinglbase", b"quotedblbase",
    b"perthousand", b"Acircumflex", b"Ecircumflex", b"Aacute", b"Edieresis", b"Egrave", b"Iacute",
    b"Icircumflex", b"Idieresis", b"Igrave", b"Oacute", b"Ocircumflex", b"apple", b"Ograve",
    b"Uacute", b"Ucircumflex", b"Ugrave", b"dotlessi", b"circumflex", b"tilde", b"macron",
    b"breve", b"dotaccent", b"ring", b"cedilla", b"hungarumlaut", b"ogonek", b"caron",
];

/// Names of the tables above with their Unicode values, sorted by name for binary search.
#[rustfmt::skip]
const UNICODE: [(&[u8], u32); 241] = [
    (b"A", 0x0041), (b"AE", 0x00C6), (b"Aacute", 0x00C1), (b"Acircumflex", 0x00C2),
    (b"Adieresis", 0x00C4), (b"Agrave", 0x00C0), (b"Aring", 0x00C5), (b"Atilde", 0x00C3),
    (b"B", 0x0042), (b"C", 0x0043), (b"Ccedilla", 0x00C7), (b"D", 0x0044), (b"Delta", 0x2206),
    (b"E", 0x0045), (b"Eacute", 0x00C9), (b"Ecircumflex", 0x00CA), (b"Edieresis", 0x00CB),
    (b"Egrave", 0x00C8), (b"Eth", 0x00D0), (b"Euro", 0x20AC), (b"F", 0x0046), (b"G", 0x0047),
    (b"H", 0x0048), (b"I", 0x0049), (b"Iacute", 0x00CD), (b"Icircumflex", 0x00CE),
    (b"Idieresis", 0x00CF), (b"Igrave", 0x00CC), (b"J", 0x004A), (b"K", 0x004B), (b"L", 0x004C),
    (b"Lslash", 0x0141), (b"M", 0x004D), (b"N", 0x004E), (b"Ntilde", 0x00D1), (b"O", 0x004F),
    (b"OE", 0x0152), (b"Oacute", 0x00D3), (b"Ocircumflex", 0x00D4), (b"Odieresis", 0x00D6),
    (b"Ograve", 0x00D2), (b"Omega", 0x2126), (b"Oslash", 0x00D8), (b"Otilde", 0x00D5),
    (b"P", 0x0050), (b"Q", 0x0051), (b"R", 0x0052), (b"S", 0x0053), (b"Scaron", 0x0160),
    (b"T", 0x0054), (b"Thorn", 0x00DE), (b"U", 0x0055), (b"Uacute", 0x00DA),
    (b"Ucircumflex", 0x00DB), (b"Udieresis", 0x00DC), (b"Ugrave", 0x00D9), (b"V", 0x0056),
    (b"W", 0x0057), (b"X", 0x0058), (b"Y", 0x0059), (b"Yacute", 0x00DD), (b"Ydieresis", 0x0178),
    (b"Z", 0x005A), (b"Zcaron", 0x017D), (b"a", 0x0061), (b"aacute", 0x00E1),
    (b"acircumflex", 0x00E2), (b"acute", 0x00B4), (b"adieresis", 0x00E4), (b"ae", 0x00E6),
    (b"agrave", 0x00E0), (b"ampersand", 0x0026), (b"apple", 0xF8FF), (b"approxequal", 0x2248),
    (b"aring", 0x00E5), (b"asciicircum", 0x005E), (b"asciitilde", 0x007E), (b"asterisk", 0x002A),
    (b"at", 0x0040), (b"atilde", 0x00E3), (b"b", 0x0062), (b"backslash", 0x005C), (b"bar", 0x007C),
    (b"braceleft", 0x007B), (b"braceright", 0x007D), (b"bracketleft", 0x005B),
    (b"bracketright", 0x005D), (b"breve", 0x02D8), (b"brokenbar", 0x00A6), (b"bullet", 0x2022),
    (b"c", 0x0063), (b"caron", 0x02C7), (b"ccedilla", 0x00E7), (b"cedilla", 0x00B8),
    (b"cent", 0x00A2), (b"circumflex", 0x02C6), (b"colon", 0x003A), (b"comma", 0x002C),
    (b"copyright", 0x00A9), (b"currency", 0x00A4), (b"d", 0x0064), (b"dagger", 0x2020),
    (b"daggerdbl", 0x2021), (b"degree", 0x00B0), (b"dieresis", 0x00A8), (b"divide", 0x00F7),
    (b"dollar", 0x0024), (b"dotaccent", 0x02D9), (b"dotlessi", 0x0131), (b"e", 0x0065),
    (b"eacute", 0x00E9), (b"ecircumflex", 0x00EA), (b"edieresis", 0x00EB), (b"egrave", 0x00E8),
    (b"eight", 0x0038), (b"ellipsis", 0x2026), (b"emdash", 0x2014), (b"endash", 0x2013),
    (b"equal", 0x003D), (b"eth", 0x00F0), (b"exclam", 0x0021), (b"exclamdown", 0x00A1),
    (b"f", 0x0066), (b"fi", 0xFB01), (b"five", 0x0035), (b"fl", 0xFB02), (b"florin", 0x0192),
    (b"four", 0x0034), (b"fraction", 0x2044), (b"g", 0x0067), (b"germandbls", 0x00DF),
    (b"grave", 0x0060), (b"greater", 0x003E), (b"greaterequal", 0x2265),
    (b"guillemotleft", 0x00AB), (b"guillemotright", 0x00BB), (b"guilsinglleft", 0x2039),
    (b"guilsinglright", 0x203A), (b"h", 0x0068), (b"hungarumlaut", 0x02DD), (b"hyphen", 0x002D),
    (b"i", 0x0069), (b"iacute", 0x00ED), (b"icircumflex", 0x00EE), (b"idieresis", 0x00EF),
    (b"igrave", 0x00EC), (b"infinity", 0x221E), (b"integral", 0x222B), (b"j", 0x006A),
    (b"k", 0x006B), (b"l", 0x006C), (b"less", 0x003C), (b"lessequal", 0x2264),
    (b"logicalnot", 0x00AC), (b"lozenge", 0x25CA), (b"lslash", 0x0142), (b"m", 0x006D),
    (b"macron", 0x00AF), (b"mu", 0x00B5), (b"multiply", 0x00D7), (b"n", 0x006E),
    (b"nbspace", 0x00A0), (b"nine", 0x0039), (b"notequal", 0x2260), (b"ntilde", 0x00F1),
    (b"numbersign", 0x0023), (b"o", 0x006F), (b"oacute", 0x00F3), (b"ocircumflex", 0x00F4),
    (b"odieresis", 0x00F6), (b"oe", 0x0153), (b"ogonek", 0x02DB), (b"ograve", 0x00F2),
    (b"one", 0x0031), (b"onehalf", 0x00BD), (b"onequarter", 0x00BC), (b"ordfeminine", 0x00AA),
    (b"ordmasculine", 0x00BA), (b"oslash", 0x00F8), (b"otilde", 0x00F5), (b"p", 0x0070),
    (b"paragraph", 0x00B6), (b"parenleft", 0x0028), (b"parenright", 0x0029),
    (b"partialdiff", 0x2202), (b"percent", 0x0025), (b"period", 0x002E),
    (b"periodcentered", 0x00B7), (b"perthousand", 0x2030), (b"pi", 0x03C0), (b"plus", 0x002B),
    (b"plusminus", 0x00B1), (b"product", 0x220F), (b"q", 0x0071), (b"question", 0x003F),
    (b"questiondown", 0x00BF), (b"quotedbl", 0x0022), (b"quotedblbase", 0x201E),
    (b"quotedblleft", 0x201C), (b"quotedblright", 0x201D), (b"quoteleft", 0x2018),
    (b"quoteright", 0x2019), (b"quotesinglbase", 0x201A), (b"quotesingle", 0x0027), (b"r", 0x0072),
    (b"radical", 0x221A), (b"registered", 0x00AE), (b"ring", 0x02DA), (b"s", 0x0073),
    (b"scaron", 0x0161), (b"section", 0x00A7), (b"semicolon", 0x003B), (b"seven", 0x0037),
    (b"six", 0x0036), (b"slash", 0x002F), (b"space", 0x0020), (b"sterling", 0x00A3),
    (b"summation", 0x2211), (b"t", 0x0074), (b"thorn", 0x00FE), (b"three", 0x0033),
    (b"threequarters", 0x00BE), (b"tilde", 0x02DC), (b"trademark", 0x2122), (b"two", 0x0032),
    (b"u", 0x0075), (b"uacute", 0x00FA), (b"ucircumflex", 0x00FB), (b"udieresis", 0x00FC),
    (b"ugrave", 0x00F9), (b"underscore", 0x005F), (b"v", 0x0076), (b"w", 0x0077), (b"x", 0x0078),
    (b"y", 0x0079), (b"yacute", 0x00FD), (b"ydieresis", 0x00FF), (b"yen", 0x00A5), (b"z", 0x007A),
    (b"zcaron", 0x017E), (b"zero", 0x0030),
];

/// The table a PDF /BaseEncoding (or /Encoding) name selects.
pub fn named(name: &[u8]) -> Option<&'static [&'static [u8]; 256]> {
    match name {
        b"StandardEncoding" => Some(&STANDARD),
        b"WinAnsiEncoding" => Some(&WIN_ANSI),
        b"MacRomanEncoding" => Some(&MAC_ROMAN),
        _ => None,
    }
}

/// The Unicode value a glyph name stands for: the tables above, then the `uniXXXX` and
/// `uXXXX[XX]` forms. `None` for any other name (the caller then keeps the font whole).
pub fn unicode_of(name: &[u8]) -> Option<u32> {
    if let Ok(i) = UNICODE.binary_search_by(|(n, _)| n.cmp(&name)) {
        return UNICODE.get(i).map(|&(_, u)| u);
    }
    let hex = |digits: &[u8]| {
        if digits.iter().all(u8::is_ascii_hexdigit) {
            u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
        } else {
            None
        }
    };
    match name {
        [b'u', b'n', b'i', digits @ ..] if digits.len() == 4 => hex(digits),
        [b'u', digits @ ..] if (4..=6).contains(&digits.len()) => hex(digits),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_unicode() {
        assert!(UNICODE.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(unicode_of(b"eacute"), Some(0xE9));
        assert_eq!(unicode_of(b"uni20AC"), Some(0x20AC));
        assert_eq!(unicode_of(b"u1F600"), Some(0x1F600));
        assert_eq!(unicode_of(b"g123"), None);
        assert_eq!(WIN_ANSI[0x80], b"Euro");
        assert_eq!(STANDARD[0xAE], b"fi");
        assert_eq!(MAC_ROMAN[0x8E], b"eacute");
    }
}
