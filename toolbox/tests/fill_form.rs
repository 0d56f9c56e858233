//! The fill-form tool on the test form: the list of fields, the values read back by pikepdf,
//! the appearances read back by pdftotext (poppler draws from appearance streams), flattening.
#![allow(clippy::unwrap_used)]

mod filling;

use lopdf::dictionary;
use quire_toolbox::fill_form::{FieldKind, FieldOption, fill_form, list_fields};

use filling::fixture::{self, Variant};
use filling::{dejavu, fill, pikepdf_fields, poppler, python, qpdf, qpdf_check, text};

#[test]
fn lists_every_terminal_field_in_tree_order() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let fields = list_fields(&pdf).unwrap();
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "name",
            "address",
            "code",
            "person.first",
            "person.last",
            "agree",
            "color",
            "size",
            "country",
            "fruit",
            "toppings",
            "locked",
            "tiny",
            "submit",
            "sig",
            "noap",
            "tip"
        ]
    );
    let field = |name: &str| fields.iter().find(|f| f.name == name).unwrap();
    assert_eq!(field("name").value, ["Old name"]);
    assert_eq!(field("name").page, Some(1));
    assert_eq!(field("person.last").kind, FieldKind::Text);
    assert_eq!(field("person.last").page, Some(2));
    assert!(field("address").multiline);
    assert_eq!(field("code").max_len, Some(6));
    assert_eq!(field("agree").kind, FieldKind::Checkbox);
    assert_eq!(field("agree").value, ["Off"]);
    assert_eq!(field("agree").options[0].export, "Yes");
    assert_eq!(field("color").kind, FieldKind::Radio);
    assert_eq!(field("color").value, ["Green"]);
    let exports: Vec<&str> = field("color")
        .options
        .iter()
        .map(|o| o.export.as_str())
        .collect();
    assert_eq!(exports, ["Red", "Green", "Blue"]);
    assert_eq!(
        field("size").options,
        [
            FieldOption {
                export: "0".into(),
                label: "Small".into()
            },
            FieldOption {
                export: "1".into(),
                label: "Large".into()
            },
        ]
    );
    assert_eq!(field("country").kind, FieldKind::ComboBox);
    assert_eq!(
        field("country").options[1],
        FieldOption {
            export: "de".into(),
            label: "Germany".into()
        }
    );
    assert_eq!(field("toppings").kind, FieldKind::ListBox);
    assert!(field("toppings").multi_select);
    assert!(field("locked").read_only);
    assert_eq!(field("locked").value, ["fixed"]);
    assert_eq!(field("submit").kind, FieldKind::PushButton);
    assert_eq!(field("sig").kind, FieldKind::Signature);
    assert_eq!(field("tip").tooltip.as_deref(), Some("Your tip"));
    assert!(field("tip").required);
    assert!(!field("name").required);
}

#[test]
fn a_pdf_without_a_form_has_no_fields_and_an_xfa_only_form_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = lopdf::Document::with_version("1.5");
    let pages = doc.new_object_id();
    let page = doc.add_object(dictionary! { "Type" => "Page", "Parent" => pages });
    doc.objects.insert(
        pages,
        lopdf::Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages });
    doc.trailer.set("Root", catalog);
    let plain = dir.path().join("plain.pdf");
    doc.save(&plain).unwrap();
    assert!(list_fields(&plain).unwrap().is_empty());

    let xfa = fixture::xfa_only(dir.path());
    let error = list_fields(&xfa).unwrap_err().to_string();
    assert!(error.contains("XFA form"), "{error}");
    let error = fill_form(&xfa, &fill(&[]), &dir.path().join("out.pdf"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("XFA form"), "{error}");
}

const VALUES: [(&str, &str); 11] = [
    ("name", "Jane Quire"),
    (
        "address",
        "12 Long Street\nSpringfield with a rather long town name that wraps",
    ),
    ("code", "AB12CD"),
    ("person.last", "Lastname"),
    ("agree", "true"),
    ("color", "Blue"),
    ("size", "Large"),
    ("country", "de"),
    ("fruit", "Mango"),
    ("toppings", "Ham\nPeppers"),
    ("noap", "yes"),
];

#[test]
fn filled_values_read_back_with_pikepdf_and_show_in_pdftotext() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let out = dir.path().join("filled.pdf");
    let filled = fill_form(&pdf, &fill(&VALUES), &out).unwrap();
    assert_eq!(filled.pages, 2);
    assert_eq!(filled.filled, 11);
    assert!(!filled.flattened);
    if qpdf() {
        qpdf_check(&out).unwrap();
    }
    // Our own reader agrees.
    let fields = list_fields(&out).unwrap();
    let value = |name: &str| {
        fields
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .value
            .clone()
    };
    assert_eq!(value("agree"), ["Yes"]);
    assert_eq!(value("toppings"), ["Ham", "Peppers"]);
    assert_eq!(value("size"), ["1"]);

    if let Some(python) = python() {
        let read = pikepdf_fields(&python, &out);
        let field = |name: &str| {
            read.fields
                .get(name)
                .unwrap_or_else(|| panic!("{name} read"))
        };
        assert_eq!(field("name").0, "Jane Quire");
        assert_eq!(
            field("address").0,
            "12 Long Street\\nSpringfield with a rather long town name that wraps"
        );
        assert_eq!(field("code").0, "AB12CD");
        assert_eq!(field("person.last").0, "Lastname");
        assert_eq!(field("person.first").0, "");
        assert_eq!(
            field("agree"),
            &("/Yes".to_string(), vec!["/Yes".to_string()])
        );
        assert_eq!(field("color").0, "/Blue");
        assert_eq!(field("color").1, ["/Off", "/Off", "/Blue"]);
        assert_eq!(field("size").1, ["/Off", "/1"]);
        assert_eq!(field("country").0, "de");
        assert_eq!(field("fruit").0, "Mango");
        assert_eq!(field("toppings").0, "Ham|Peppers");
        assert_eq!(field("noap").1, ["/Yes"]);
        assert_eq!(field("locked").0, "fixed");
        let (_, need_appearances, xfa) = read.form.unwrap();
        assert!(!need_appearances && !xfa);
    }
    if poppler() {
        let shown = text(&out);
        for expected in [
            "Jane Quire",
            "12 Long Street",
            "Lastname",
            "Germany",
            "Mango",
            "Cheese",
            "Peppers",
        ] {
            assert!(
                shown.contains(expected),
                "{expected:?} not shown in {shown:?}"
            );
        }
        // The comb draws each character in its cell; the old appearance is gone.
        assert!(!shown.contains("Old name"), "{shown}");
        let squeezed: String = shown.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(squeezed.contains("AB12CD"), "{shown}");
        assert!(squeezed.contains("wraps"), "{shown}");
    }
}

#[test]
fn a_flattened_fill_keeps_the_text_and_no_field() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(
        dir.path(),
        "form.pdf",
        Variant {
            xfa: true,
            ..Variant::default()
        },
    );
    let out = dir.path().join("flat.pdf");
    let mut request = fill(&VALUES);
    request.flatten = true;
    let filled = fill_form(&pdf, &request, &out).unwrap();
    assert!(filled.flattened);
    assert_eq!(filled.pages, 2);
    assert!(list_fields(&out).unwrap().is_empty());
    if qpdf() {
        qpdf_check(&out).unwrap();
    }
    if let Some(python) = python() {
        let read = pikepdf_fields(&python, &out);
        assert!(
            read.fields.is_empty(),
            "fields left: {:?}",
            read.fields.keys()
        );
        assert!(read.form.is_none_or(|(count, _, _)| count == 0));
    }
    if poppler() {
        let shown = text(&out);
        for expected in [
            "Jane Quire",
            "Lastname",
            "Germany",
            "Mango",
            "fixed",
            "Form page two",
        ] {
            assert!(
                shown.contains(expected),
                "{expected:?} not shown in {shown:?}"
            );
        }
    }
}

#[test]
fn a_hybrid_form_loses_its_xfa_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(
        dir.path(),
        "form.pdf",
        Variant {
            xfa: true,
            ..Variant::default()
        },
    );
    let out = dir.path().join("filled.pdf");
    let filled = fill_form(&pdf, &fill(&[("name", "X")]), &out).unwrap();
    assert!(
        filled.notes.iter().any(|n| n.contains("XFA")),
        "{:?}",
        filled.notes
    );
    if let Some(python) = python() {
        let (_, _, xfa) = pikepdf_fields(&python, &out).form.unwrap();
        assert!(!xfa);
    }
}

#[test]
fn need_appearances_goes_once_every_field_is_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(
        dir.path(),
        "form.pdf",
        Variant {
            need_appearances: true,
            ..Variant::default()
        },
    );
    // Only "name" is filled; "address" had no appearance and a value set before.
    let mut doc = lopdf::Document::load(&pdf).unwrap();
    let address = doc
        .objects
        .iter()
        .find(|(_, o)| {
            o.as_dict().is_ok_and(|d| {
                d.get(b"T")
                    .is_ok_and(|t| t.as_str().is_ok_and(|t| t == b"address"))
            })
        })
        .map(|(id, _)| *id)
        .unwrap();
    doc.get_dictionary_mut(address)
        .unwrap()
        .set("V", lopdf::Object::string_literal("Before the fill"));
    doc.save(&pdf).unwrap();
    let out = dir.path().join("filled.pdf");
    fill_form(&pdf, &fill(&[("name", "Jane")]), &out).unwrap();
    if let Some(python) = python() {
        let (_, need_appearances, _) = pikepdf_fields(&python, &out).form.unwrap();
        assert!(!need_appearances);
    }
    if poppler() {
        let shown = text(&out);
        assert!(
            shown.contains("Jane") && shown.contains("Before the fill"),
            "{shown}"
        );
    }
}

#[test]
fn text_outside_winansi_is_drawn_in_dejavu() {
    let Some(font) = dejavu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let out = dir.path().join("filled.pdf");
    let error = fill_form(&pdf, &fill(&[("name", "Пётр")]), &out).unwrap_err();
    assert!(error.to_string().contains("Latin"), "{error}");
    let mut request = fill(&[("name", "Пётр Quire"), ("tip", "Ünïcödé ok")]);
    request.font = Some(font.into());
    let filled = fill_form(&pdf, &request, &out).unwrap();
    assert!(
        filled.notes.iter().any(|n| n.contains("DejaVu")),
        "{:?}",
        filled.notes
    );
    if qpdf() {
        qpdf_check(&out).unwrap();
    }
    if poppler() {
        let shown = text(&out);
        assert!(shown.contains("Пётр Quire"), "{shown}");
        assert!(shown.contains("Ünïcödé ok"), "{shown}");
    }
}

#[test]
fn a_checkbox_can_be_cleared_and_a_radio_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = fixture::sample(dir.path(), "form.pdf", Variant::default());
    let once = dir.path().join("once.pdf");
    fill_form(&pdf, &fill(&[("agree", "Yes")]), &once).unwrap();
    let twice = dir.path().join("twice.pdf");
    fill_form(
        &once,
        &fill(&[("agree", "false"), ("color", "Off")]),
        &twice,
    )
    .unwrap();
    let fields = list_fields(&twice).unwrap();
    let value = |name: &str| {
        fields
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .value
            .clone()
    };
    assert_eq!(value("agree"), ["Off"]);
    assert_eq!(value("color"), ["Off"]);
    if let Some(python) = python() {
        let read = pikepdf_fields(&python, &twice);
        assert_eq!(read.fields["agree"].1, ["/Off"]);
        assert_eq!(read.fields["color"].1, ["/Off", "/Off", "/Off"]);
    }
}
