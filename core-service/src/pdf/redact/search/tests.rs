//! The search's tests: matching on text, and on a real-world PDF through PDFium.

use super::*;

fn search(terms: &[&str], patterns: &[&str], presets: Vec<Preset>) -> Search {
    let own = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    Search::new(&own(terms), &own(patterns), presets).expect("valid search")
}

fn found<'t>(text: &'t str, search: &Search) -> Vec<&'t str> {
    matches(text, search)
        .into_iter()
        .map(|(start, end, _)| &text[start..end])
        .collect()
}

#[test]
fn terms_ignore_case_and_the_spacing_between_words() {
    let s = search(&["Jane  Doe"], &[], vec![]);
    assert_eq!(
        found("JANE DOE met jane\r\ndoe and janedoe.", &s),
        ["JANE DOE", "jane\r\ndoe", "janedoe"]
    );
}

#[test]
fn a_word_hyphenated_at_a_line_end_is_found_whole() {
    let s = search(&["extensions", "R-devel"], &[], vec![]);
    assert_eq!(
        found(
            "are exten-\r\nsions and exten- sions, R-devel, R-\r\ndevel",
            &s
        ),
        ["exten-\r\nsions", "R-devel", "R-\r\ndevel"]
    );
}

#[test]
fn patterns_are_regular_expressions() {
    let s = search(&[], &[r"\b\d{3}-\d{4}\b"], vec![]);
    assert_eq!(found("call 555-1234 or 555-12345", &s), ["555-1234"]);
    assert!(Search::new(&[], &["(".to_owned()], vec![]).is_err());
}

#[test]
fn presets_take_only_their_kind() {
    let text = r"mail ops@example.com from 10.0.0.7 as CORP\jdoe on db1.example.org";
    let s = search(&[], &[], vec![Preset::Email, Preset::Account]);
    assert_eq!(found(text, &s), ["ops@example.com", r"CORP\jdoe"]);
    let s = search(&[], &[], vec![Preset::IpAddress, Preset::HostName]);
    assert_eq!(found(text, &s), ["10.0.0.7", "db1.example.org"]);
}

#[test]
fn a_hit_on_two_lines_gets_two_rectangles() {
    let line = |x: f64, y: f64| {
        Some(Rect {
            x0: x,
            y0: y,
            x1: x + 5.0,
            y1: y + 10.0,
        })
    };
    let text = PageText {
        text: "ab\ncd".to_owned(),
        chars: vec![
            (0, line(100.0, 700.0)),
            (1, line(105.0, 700.0)),
            (2, None),
            (3, line(50.0, 686.0)),
            (4, line(55.0, 686.0)),
        ],
    };
    let rects = text.rects(0, 5);
    assert_eq!(rects.len(), 2);
    assert!(
        (rects[0].x0 - (100.0 - PAD)).abs() < 1e-9 && (rects[0].x1 - (110.0 + PAD)).abs() < 1e-9
    );
    assert!((rects[1].y0 - (686.0 - PAD)).abs() < 1e-9);
}

mod corpus {
    use super::*;
    use crate::pdf::tools::testing::with_pdfium;

    /// A line-end hyphen inside a word (PDFium's U+0002) does not hide the word from a search.
    #[test]
    fn a_soft_hyphen_inside_a_word_is_found() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/compress-corpus/ghostscript-doc__GS9_Color_Management.pdf");
        if !path.exists() {
            return;
        }
        with_pdfium(|pdfium| {
            let document =
                crate::pdf::pdfium::open(pdfium, &path.to_string_lossy()).expect("opens");
            let search = Search::new(&["architecture".to_owned()], &[], vec![]).expect("search");
            let (hits, _) = find(&document, &search).expect("find");
            let on_page_3: Vec<&str> = hits
                .iter()
                .filter(|h| h.page == 3)
                .map(|h| h.text.as_str())
                .collect();
            assert!(
                !on_page_3.is_empty(),
                "{:?}",
                hits.iter().map(|h| (h.page, &h.text)).collect::<Vec<_>>()
            );
        });
    }
}
