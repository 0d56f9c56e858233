//! The minifier on the cases producers write.

use super::*;

fn exact(data: &str) -> String {
    String::from_utf8(minify(data.as_bytes(), Numbers::Exact).expect("shorter")).expect("utf-8")
}

fn rounded(data: &str) -> String {
    String::from_utf8(minify(data.as_bytes(), Numbers::Rounded).expect("shorter")).expect("utf-8")
}

fn shortest(text: &str, numbers: Numbers) -> String {
    let mut out = String::new();
    number(text.as_bytes(), numbers, &mut out);
    out
}

#[test]
fn numbers_lose_only_redundant_characters_when_exact() {
    for (text, short) in [
        ("0.500", ".5"),
        ("-0.25", "-.25"),
        ("+3", "3"),
        ("007", "7"),
        ("-0", "0"),
        ("-0.000", "0"),
        ("12.", "12"),
        (".0", "0"),
        ("100", "100"),
        ("612.00000000", "612"),
        ("0.123456789", ".123456789"),
    ] {
        assert_eq!(shortest(text, Numbers::Exact), short, "{text}");
    }
}

#[test]
fn rounded_numbers_keep_six_significant_digits_and_integers_whole() {
    for (text, short) in [
        ("0.123456789", ".123457"),
        ("0.000123456789", ".000123457"),
        ("123.456789", "123.457"),
        ("1234567.89", "1234568"),
        ("9.9999999", "10"),
        ("-0.99999999", "-1"),
        ("0.0000001", ".0000001"),
        ("-0.00000001", "-.00000001"),
        ("12345678", "12345678"),
        ("1.5", "1.5"),
        ("0.1234565", ".123457"),
    ] {
        assert_eq!(shortest(text, Numbers::Rounded), short, "{text}");
    }
}

#[test]
fn spaces_stay_only_between_regular_tokens() {
    assert_eq!(
        exact("q 1.000 0 0 1.000 0.0 0.0 cm\n/F1  12 Tf [ (a) -250 (b) ] TJ\nQ"),
        "q\n1 0 0 1 0 0 cm/F1 12 Tf[(a)-250(b)]TJ\nQ"
    );
    assert_eq!(
        exact("/P << /MCID 0 >> BDC <00410042> Tj EMC % a comment\n/ 1 d0"),
        "/P<</MCID 0>>BDC<00410042>Tj\nEMC/ 1 d0"
    );
    assert_eq!(
        rounded("0.33333333 0.66666666 0.1 rg"),
        ".333333 .666667 .1 rg"
    );
    // Text positions and the matrix stay exact; paths are rounded.
    assert_eq!(
        rounded(
            "BT 1.0000001 0 0 1 15.5924481 0 Tm [(a) -12.3456789 (b)] TJ ET 0.12345678 0 m 1.23456789 2 l S"
        ),
        "BT\n1.0000001 0 0 1 15.5924481 0 Tm[(a)-12.3456789(b)]TJ\nET\n.123457 0 m\n1.23457 2 l\nS"
    );
}

#[test]
fn strings_and_odd_tokens_are_copied_as_they_are() {
    assert_eq!(
        exact("( a  (b)  \\)  0.50 )   Tj   0.00-4142502   1e5 w"),
        "( a  (b)  \\)  0.50 )Tj\n0.00-4142502\n1e5\nw"
    );
}

#[test]
fn inline_images_are_copied_whole() {
    let data = b"q 10.00 0 0 10.00 0 0 cm BI /W 2 /H 1 /CS /G /BPC 8 ID \x00  EI Q";
    let out = minify(data, Numbers::Exact).expect("shorter");
    assert_eq!(
        out,
        b"q\n10 0 0 10 0 0 cm\nBI /W 2 /H 1 /CS /G /BPC 8 ID \x00  EI\nQ"
    );
}

#[test]
fn an_inline_image_whose_end_is_in_doubt_leaves_the_stream_alone() {
    let data = b"q 1.00 0 0 1.00 0 0 cm BI /W 9 /H 9 /F /Fl ID x EI y EI Q 1.000 w";
    assert_eq!(minify(data, Numbers::Exact), None);
}

#[test]
fn streams_it_cannot_read_whole_are_left_alone() {
    for data in [
        "1.000 w (unbalanced",
        "1.000 w ) Tj",
        "1.000 w <0041 z> Tj",
        "1.000 w > Tj",
    ] {
        assert_eq!(minify(data.as_bytes(), Numbers::Exact), None, "{data}");
    }
}

#[test]
fn what_is_already_short_is_left_alone() {
    assert_eq!(minify(b"1 w", Numbers::Rounded), None);
    assert_eq!(
        minify(b"  % only a comment\n", Numbers::Rounded).as_deref(),
        Some(&b""[..])
    );
}
