//! Colour spaces as content uses them: device families only where the output intent (or a
//! /Default colour space of the resources) gives them a meaning (ISO 19005-1 6.2.3.3, ISO
//! 19005-2 6.2.4.3), ICC profiles PDF/A accepts, well-formed Indexed and CIE spaces.

use std::collections::HashSet;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::super::icc::Header;
use super::super::walk;
use super::Findings;

/// The components of a resolved colour space (`None`: a pattern, or not known).
pub type Components = Option<usize>;

pub struct Resolver<'a> {
    pub doc: &'a Document,
    pub intent: Option<[u8; 4]>,
    /// The /ColorSpace resources of the content stream.
    pub spaces: Option<&'a Dictionary>,
    pub inline: bool,
}

const DEPTH: usize = 4;

impl Resolver<'_> {
    /// Resolves a colour space given as a name or array, checking device use.
    pub fn resolve(&self, value: &Object, f: &mut Findings, where_: &str) -> Components {
        self.at(value, f, where_, 0, true)
    }

    fn at(
        &self,
        value: &Object,
        f: &mut Findings,
        where_: &str,
        depth: usize,
        names: bool,
    ) -> Components {
        if depth > DEPTH {
            return None;
        }
        let value = match value {
            Object::Reference(_) => match self.doc.dereference(value) {
                Ok((_, v)) => v,
                Err(_) => {
                    f.add(
                        "6.2.3-1",
                        "6.2.4-1",
                        format!("{where_}: a colour space that does not exist"),
                    );
                    return None;
                }
            },
            other => other,
        };
        match value {
            Object::Name(name) => {
                let name = match (self.inline, name.as_slice()) {
                    (true, b"G") => b"DeviceGray".as_slice(),
                    (true, b"RGB") => b"DeviceRGB",
                    (true, b"CMYK") => b"DeviceCMYK",
                    (_, n) => n,
                };
                match name {
                    b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" => {
                        self.device(name, f, where_, depth)
                    }
                    b"Pattern" => None,
                    _ if names => {
                        let found = self.spaces.and_then(|s| s.get(name).ok()).cloned();
                        match found {
                            Some(space) => self.at(&space, f, where_, depth + 1, false),
                            None => {
                                f.add(
                                    "6.2.2-1",
                                    "6.2.2-2",
                                    format!(
                                        "{where_}: the colour space {} is not in the resources",
                                        String::from_utf8_lossy(name)
                                    ),
                                );
                                None
                            }
                        }
                    }
                    _ => {
                        f.add(
                            "6.2.3-1",
                            "6.2.4-1",
                            format!(
                                "{where_}: {} is not a colour space",
                                String::from_utf8_lossy(name)
                            ),
                        );
                        None
                    }
                }
            }
            Object::Array(items) => self.array(items, f, where_, depth),
            _ => {
                f.add(
                    "6.2.3-1",
                    "6.2.4-1",
                    format!("{where_}: a colour space that is neither a name nor an array"),
                );
                None
            }
        }
    }

    fn device(&self, name: &[u8], f: &mut Findings, where_: &str, depth: usize) -> Components {
        let (n, default, wanted): (usize, &[u8], &[u8; 4]) = match name {
            b"DeviceGray" => (1, b"DefaultGray", b"GRAY"),
            b"DeviceRGB" => (3, b"DefaultRGB", b"RGB "),
            _ => (4, b"DefaultCMYK", b"CMYK"),
        };
        if let Some(space) = self.spaces.and_then(|s| s.get(default).ok()) {
            let inner = Resolver {
                doc: self.doc,
                intent: self.intent,
                spaces: None,
                inline: false,
            };
            let independent = self
                .doc
                .dereference(space)
                .ok()
                .and_then(|(_, s)| s.as_array().ok())
                .and_then(|a| a.first())
                .and_then(|f| f.as_name().ok())
                .is_some_and(|family| {
                    matches!(family, b"ICCBased" | b"CalGray" | b"CalRGB" | b"Lab")
                });
            let got = inner.at(space, f, where_, depth + 1, false);
            if !independent || got != Some(n) {
                f.add(
                    "6.2.3.3-1",
                    "6.2.4.3-1",
                    format!(
                        "{where_}: /{} is not a device-independent space of {n} components",
                        String::from_utf8_lossy(default)
                    ),
                );
            }
            return Some(n);
        }
        let ok = match name {
            b"DeviceGray" => self.intent.is_some(),
            _ => self.intent.as_ref() == Some(wanted),
        };
        if !ok {
            f.add(
                "6.2.3.3-2",
                "6.2.4.3-2",
                format!(
                    "{where_}: {} is used but the output intent is {}",
                    String::from_utf8_lossy(name),
                    self.intent
                        .map_or("missing".into(), |i| String::from_utf8_lossy(&i)
                            .trim()
                            .to_string())
                ),
            );
        }
        Some(n)
    }

    fn array(&self, items: &[Object], f: &mut Findings, where_: &str, depth: usize) -> Components {
        let family = items.first().and_then(|v| v.as_name().ok()).unwrap_or(b"");
        let family = match (self.inline, family) {
            (true, b"I") => b"Indexed".as_slice(),
            (_, fam) => fam,
        };
        match family {
            b"ICCBased" => self.icc(items, f, where_, depth),
            b"Indexed" => {
                let [_, base, hival, lookup] = items else {
                    f.add(
                        "6.2.3-1",
                        "6.2.4-1",
                        format!("{where_}: a malformed Indexed colour space"),
                    );
                    return None;
                };
                let n = self.at(base, f, where_, depth + 1, self.inline)?;
                let hival = self
                    .doc
                    .dereference(hival)
                    .ok()
                    .and_then(|(_, h)| h.as_i64().ok())
                    .unwrap_or(-1);
                let size = match self.doc.dereference(lookup).map(|(_, l)| l) {
                    Ok(Object::String(bytes, _)) => bytes.len(),
                    Ok(Object::Stream(s)) => s.decompressed_content().map_or(0, |d| d.len()),
                    _ => 0,
                };
                if !(0..=255).contains(&hival) || size < (hival.max(0) as usize + 1) * n {
                    f.add(
                        "6.2.3-1",
                        "6.2.4-1",
                        format!("{where_}: an Indexed colour space's table is too short"),
                    );
                }
                Some(1)
            }
            b"CalGray" | b"CalRGB" | b"Lab" => {
                let params = items
                    .get(1)
                    .and_then(|p| self.doc.dereference(p).ok())
                    .and_then(|(_, p)| p.as_dict().ok());
                if !params.is_some_and(|p| p.has(b"WhitePoint")) {
                    f.add(
                        "6.2.3-1",
                        "6.2.4-1",
                        format!("{where_}: a CIE colour space without a white point"),
                    );
                }
                Some(if family == b"CalGray" { 1 } else { 3 })
            }
            b"Separation" | b"DeviceN" => {
                // The alternate space is what a reader without the colorants draws.
                let alternate = items.get(2);
                if let Some(alternate) = alternate {
                    self.at(alternate, f, where_, depth + 1, false);
                }
                if family == b"Separation" {
                    Some(1)
                } else {
                    items
                        .get(1)
                        .and_then(|n| self.doc.dereference(n).ok())
                        .and_then(|(_, n)| n.as_array().ok())
                        .map(Vec::len)
                }
            }
            b"Pattern" => None,
            b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" if items.len() == 1 => {
                self.device(family, f, where_, depth)
            }
            _ => {
                f.add(
                    "6.2.3-1",
                    "6.2.4-1",
                    format!(
                        "{where_}: unknown colour space {}",
                        String::from_utf8_lossy(family)
                    ),
                );
                None
            }
        }
    }

    fn icc(&self, items: &[Object], f: &mut Findings, where_: &str, depth: usize) -> Components {
        let stream = items
            .get(1)
            .and_then(|s| self.doc.dereference(s).ok())
            .and_then(|(_, s)| s.as_stream().ok());
        let Some(stream) = stream else {
            f.add(
                "6.2.3.2-1",
                "6.2.4.2-1",
                format!("{where_}: an ICCBased space without a profile stream"),
            );
            return None;
        };
        let n = stream.dict.get(b"N").and_then(Object::as_i64).ok();
        let header = stream
            .decompressed_content()
            .ok()
            .and_then(|d| Header::parse(&d));
        let ok = match (n, header) {
            (Some(n), Some(h)) => h.input_ok(n, f.level.part1()),
            _ => false,
        };
        if !ok {
            f.add(
                "6.2.3.2-1",
                "6.2.4.2-1",
                format!("{where_}: an ICC profile PDF/A does not accept"),
            );
        }
        if stream.dict.has(b"F") {
            f.add(
                "6.1.7-3",
                "6.1.7.1-3",
                format!("{where_}: an ICC profile with external data"),
            );
        }
        if let Ok(alternate) = stream.dict.get(b"Alternate") {
            let inner = Resolver {
                doc: self.doc,
                intent: self.intent,
                spaces: None,
                inline: false,
            };
            // Declared, not drawn with: the alternate is not a device use.
            let mut scratch = Findings::new(f.level);
            let got = inner.at(alternate, &mut scratch, where_, depth + 1, false);
            if got.is_some() && got != n.and_then(|n| usize::try_from(n).ok()) {
                f.add(
                    "6.2.3.2-1",
                    "6.2.4.2-1",
                    format!("{where_}: an ICC profile's /Alternate has other components"),
                );
            }
        }
        n.and_then(|n| usize::try_from(n).ok())
    }
}

/// An image's colour: its space (with the painting stream's defaults), its colour key mask.
pub fn image(resolver: &Resolver<'_>, image: &Dictionary, f: &mut Findings, where_: &str) {
    if image.get(b"ImageMask").and_then(Object::as_bool).ok() == Some(true) {
        return;
    }
    let Ok(space) = image.get(b"ColorSpace") else {
        let jpx = matches!(image.get(b"Filter"), Ok(Object::Name(n)) if n == b"JPXDecode");
        if !jpx {
            f.add(
                "6.2.3-1",
                "6.2.4-1",
                format!("{where_}: an image without a colour space"),
            );
        }
        return;
    };
    let n = resolver.resolve(space, f, where_);
    if let (Ok(Object::Array(mask)), Some(n)) = (image.get(b"Mask"), n)
        && mask.len() != 2 * n
    {
        f.add(
            "6.2.4-1",
            "6.2.8-1",
            format!("{where_}: a colour key mask of the wrong length"),
        );
    }
}

/// Images a resource dictionary lists but no content stream paints are checked with no
/// /Default colour spaces.
pub fn unpainted_images(
    doc: &Document,
    intent: Option<[u8; 4]>,
    painted: &HashSet<ObjectId>,
    f: &mut Findings,
) {
    let resolver = Resolver {
        doc,
        intent,
        spaces: None,
        inline: false,
    };
    let mut listed: HashSet<ObjectId> = HashSet::new();
    for object in doc.objects.values() {
        let dict = match object {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        let resources = match dict.get(b"Resources") {
            Ok(r) => doc.dereference(r).ok().and_then(|(_, r)| r.as_dict().ok()),
            Err(_) => Some(dict),
        };
        if let Some(xobjects) = resources.and_then(|r| walk::category(doc, r, b"XObject")) {
            listed.extend(xobjects.iter().filter_map(|(_, v)| v.as_reference().ok()));
        }
    }
    for id in listed {
        if painted.contains(&id) {
            continue;
        }
        if let Ok(stream) = doc.get_object(id).and_then(Object::as_stream)
            && stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
        {
            image(
                &resolver,
                &stream.dict,
                f,
                &format!("image {} {}", id.0, id.1),
            );
        }
    }
}
