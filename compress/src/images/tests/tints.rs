//! Palettes over Separation and DeviceN: expanded to their tints, resampled, and written
//! under the same base space (or a palette over it), the tints kept.

use lopdf::{Document, Object, Stream, dictionary};

use super::{flate_image, read, run, size, stream};
use crate::Preset;

fn separation(doc: &mut Document) -> Object {
    let transform = doc.add_object(dictionary! {
        "FunctionType" => 2, "Domain" => vec![0.into(), 1.into()],
        "C0" => vec![0.into(), 0.into(), 0.into(), 0.into()],
        "C1" => vec![0.into(), 0.5.into(), 1.into(), 0.into()],
        "N" => 1,
    });
    Object::Array(vec![
        "Separation".into(),
        "Spot Orange".into(),
        "DeviceCMYK".into(),
        transform.into(),
    ])
}

fn device_n(doc: &mut Document) -> Object {
    let transform = doc.add_object(Stream::new(
        dictionary! {
            "FunctionType" => 4,
            "Domain" => vec![0.into(), 1.into(), 0.into(), 1.into()],
            "Range" => vec![0.into(), 1.into(), 0.into(), 1.into(), 0.into(), 1.into(),
                            0.into(), 1.into()],
        },
        b"{ 0 0 4 2 roll }".to_vec(),
    ));
    Object::Array(vec![
        "DeviceN".into(),
        vec!["Yellow".into(), "Black".into()].into(),
        "DeviceCMYK".into(),
        transform.into(),
    ])
}

/// A 256-entry palette of smooth ramps (`inks` bytes each), and 8-bit indices drawing a
/// gradient with it: a photo-like image in spot inks.
fn ramp_image(base: Object, inks: usize) -> Stream {
    let lookup: Vec<u8> = (0..=255u8)
        .flat_map(|i| (0..inks).map(move |ink| if ink == 0 { i } else { 255 - i / 2 }))
        .collect();
    // Grain, as in a scan, so that the source's Flate is no smaller than a resampled one.
    let mut state = 0x2545_f491_u32;
    let indices: Vec<u8> = (0..400 * 400u32)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            ((i % 400 + i / 400) * 239 / 798 + state % 16) as u8
        })
        .collect();
    let space = Object::Array(vec![
        "Indexed".into(),
        base,
        255.into(),
        Object::string_literal(lookup),
    ]);
    flate_image(400, 400, space, 8, &indices)
}

fn means(data: &[u8], inks: usize) -> Vec<f64> {
    (0..inks)
        .map(|ink| {
            let values: Vec<f64> = data
                .iter()
                .skip(ink)
                .step_by(inks)
                .map(|&v| v.into())
                .collect();
            values.iter().sum::<f64>() / values.len() as f64
        })
        .collect()
}

#[test]
fn palettes_over_separation_and_device_n_are_resampled_in_their_tints() {
    for inks in [1usize, 2] {
        let mut doc = Document::with_version("1.7");
        let base = if inks == 1 {
            separation(&mut doc)
        } else {
            device_n(&mut doc)
        };
        let id = doc.add_object(ramp_image(base.clone(), inks));
        let before = read(&doc, stream(&doc, id), Preset::Ebook)
            .expect("readable")
            .0;
        assert_eq!(before.channels as usize, inks);
        let report = run(&mut doc, &[(id, (100.0, 100.0))], Preset::Ebook);
        assert_eq!(report.replaced, 1, "{inks} inks");
        assert_eq!(size(&doc, id), (208, 208));
        let (after, space) = read(&doc, stream(&doc, id), Preset::Ebook).expect("readable");
        // Still the spot inks: the base space itself, or a palette over it.
        let written = match &space {
            Object::Array(items) if items.first() == Some(&"Indexed".into()) => &items[1],
            other => other,
        };
        assert_eq!(written, &base, "{inks} inks");
        assert_eq!(after.channels as usize, inks);
        for (old, new) in means(&before.data, inks)
            .iter()
            .zip(means(&after.data, inks))
        {
            assert!((old - new).abs() < 2.0, "{inks} inks: {old} against {new}");
        }
    }
}
