//! Bad stamp options: refused with a message that says what to fix, nothing written.
#![allow(clippy::unwrap_used)]

mod stamping;

use quire_toolbox::stamp::{Mark, Numbering, Watermark, number_pages, watermark};
use stamping::marks::{bad_options, image_mark, jpeg_file, numbering, text_mark};
use stamping::sample;

#[test]
fn bad_options_say_what_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let text = text_mark("DRAFT", None);
    for opacity in [1.5, -0.1, f32::NAN] {
        let message = bad_options(watermark(
            &input,
            &Watermark {
                opacity,
                ..text.clone()
            },
            &out,
        ));
        assert!(message.contains("from 0 (invisible) to 1"), "{message}");
    }
    let message = bad_options(watermark(
        &input,
        &Watermark {
            pages: Some("2-9".into()),
            ..text.clone()
        },
        &out,
    ));
    assert!(message.contains("5 pages"), "{message}");
    for size in [0.0, 501.0] {
        let big = Watermark {
            mark: Mark::Text {
                text: "A".into(),
                size,
                rgb: [0; 3],
                font: None,
            },
            ..text.clone()
        };
        assert!(bad_options(watermark(&input, &big, &out)).contains("1 to 500"));
        let numbers = Numbering {
            size,
            ..numbering("{n}")
        };
        assert!(bad_options(number_pages(&input, &numbers, &out)).contains("1 to 500"));
    }
    assert!(bad_options(watermark(&input, &text_mark(" ", None), &out)).contains("empty"));
    assert!(bad_options(watermark(&input, &text_mark("a\nb", None), &out)).contains("one line"));
    for first_page in [0, 6] {
        let late = Numbering {
            first_page,
            ..numbering("{n}")
        };
        let message = bad_options(number_pages(&input, &late, &out));
        assert!(message.contains("page"), "{message}");
    }
    assert!(bad_options(number_pages(&input, &numbering("Page"), &out)).contains("{n}"));
    let not_an_image = dir.path().join("notes.png");
    std::fs::write(&not_an_image, "not a picture").unwrap();
    for path in [not_an_image, dir.path().join("missing.jpg")] {
        let message = bad_options(watermark(&input, &image_mark(&path, 0.5), &out));
        assert_eq!(message, "the watermark image is not a PNG or JPEG");
    }
    let (jpeg, _) = jpeg_file(dir.path());
    for share in [0.0, 1.5] {
        assert!(bad_options(watermark(&input, &image_mark(&jpeg, share), &out)).contains("share"));
    }
    assert!(!out.exists());
}
