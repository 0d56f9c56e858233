//! Which strings each font shows: page contents, the Form XObjects they draw (with the font
//! they inherit), tiling patterns, annotation appearances and Type 3 glyph procedures, with
//! the font selected by `Tf` (or an ExtGState /Font) through the resources, nearest first.
//! Anything not understood marks the fonts concerned as needing their whole program.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId, content::Content};

use crate::pages::{Forms, PageContent};

mod annots;

/// Form XObjects nested deeper than this are not followed (their fonts stay whole).
const MAX_DEPTH: usize = 12;
/// Content streams walked in all. Forms and patterns that draw one another can be reached
/// along very many paths; past this the usage is unknown and every program stays whole.
const MAX_VISITS: usize = 20_000;
/// Resource dictionaries a visit is told apart by: the stream's own and its caller's. The
/// whole chain would make one key per path through nested forms, exponential in depth.
const CONTEXT: usize = 2;

#[derive(Default)]
pub struct Usage {
    /// The strings shown with each font dictionary, not yet split into codes.
    pub shown: HashMap<ObjectId, HashSet<Vec<u8>>>,
    /// Fonts listed in a resource dictionary whose content was walked: only these have a
    /// known usage; a font never seen may be used from a place this walk does not know.
    pub seen: HashSet<ObjectId>,
    /// Fonts that keep their whole program (form field fonts, unreadable content).
    pub whole: HashSet<ObjectId>,
    /// The walk stopped at its budget: no font's usage is known.
    pub incomplete: bool,
}

impl<'a> Walker<'a> {
    pub fn new(doc: &'a Document, forms: &'a Forms) -> Self {
        Walker {
            doc,
            forms,
            usage: Usage::default(),
            visited: HashSet::new(),
            walked: HashSet::new(),
        }
    }

    /// One page: its content and its annotations' appearances.
    pub fn page(&mut self, page: &PageContent<'a>) {
        self.walk(page.content.as_ref(), &page.resources, None, 0);
        self.annotations(page.id);
    }

    /// The form fields' fonts, and the streams no page reached.
    pub fn finish(mut self) -> Usage {
        self.acroform();
        // Forms and patterns no page reaches this way (odd references) are walked on their
        // own, so that a font they use is never taken for unused.
        let doc = self.doc;
        for (&id, object) in &doc.objects {
            if let Object::Stream(stream) = object
                && !self.walked.contains(&id)
                && may_show_text(&stream.dict)
            {
                self.stream(id, &[], None, 0);
                // No other walk reads these: nothing to keep parsed.
                self.forms.clear();
            }
        }
        self.usage
    }
}

fn is_content_stream(dict: &Dictionary) -> bool {
    let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
    name(b"Subtype") == Some(b"Form")
        || dict.get(b"PatternType").and_then(Object::as_i64).ok() == Some(1)
}

/// Streams walked on their own when nothing reached them: forms and patterns, and anything
/// else with resources or a bounding box (appearance streams missing their /Subtype).
fn may_show_text(dict: &Dictionary) -> bool {
    let name = |key: &[u8]| dict.get(key).and_then(Object::as_name).ok();
    is_content_stream(dict)
        || (name(b"Subtype") != Some(b"Image") && (dict.has(b"Resources") || dict.has(b"BBox")))
}

/// What a font name in a resource dictionary stands for.
enum FontRef {
    Indirect(ObjectId),
    /// A font dictionary written inline: its usage cannot be keyed, so the programs it
    /// reaches are kept whole by the reference count in mod.rs.
    Direct,
}

pub struct Walker<'a> {
    doc: &'a Document,
    forms: &'a Forms,
    usage: Usage,
    /// (stream, inherited font, resource context) already walked.
    visited: HashSet<(ObjectId, Option<ObjectId>, Vec<usize>)>,
    walked: HashSet<ObjectId>,
}

impl<'a> Walker<'a> {
    fn dict(&self, object: &'a Object) -> Option<&'a Dictionary> {
        self.doc.dereference(object).ok()?.1.as_dict().ok()
    }

    /// Every indirect font of the resource dictionaries.
    fn fonts(&self, resources: &[&'a Dictionary]) -> Vec<(ObjectId, &'a Dictionary)> {
        let mut out = Vec::new();
        for res in resources {
            let Some(fonts) = res.get(b"Font").ok().and_then(|o| self.dict(o)) else {
                continue;
            };
            for (_, value) in fonts.iter() {
                if let Ok(id) = value.as_reference()
                    && let Ok(font) = self.doc.get_dictionary(id)
                {
                    out.push((id, font));
                }
            }
        }
        out
    }

    fn all_whole(&mut self, resources: &[&'a Dictionary]) {
        for (id, _) in self.fonts(resources) {
            self.usage.whole.insert(id);
        }
    }

    /// The font a name stands for, and whether it was found in the nearest `CONTEXT`
    /// dictionaries (the ones a visit is keyed by).
    fn font_named(&self, resources: &[&'a Dictionary], name: &[u8]) -> Option<(FontRef, bool)> {
        resources.iter().enumerate().find_map(|(at, res)| {
            let fonts = self.dict(res.get(b"Font").ok()?)?;
            let near = at < CONTEXT;
            match fonts.get(name).ok()? {
                Object::Reference(id) => Some((FontRef::Indirect(*id), near)),
                _ => Some((FontRef::Direct, near)),
            }
        })
    }

    fn named(&self, resources: &[&'a Dictionary], kind: &[u8], name: &[u8]) -> Option<&'a Object> {
        resources.iter().find_map(|res| {
            let dict = self.dict(res.get(kind).ok()?)?;
            dict.get(name).ok()
        })
    }

    /// Marks the resources' fonts as seen and walks the patterns and Type 3 glyphs they hold.
    fn scan_resources(&mut self, resources: &[&'a Dictionary], depth: usize) {
        for (id, font) in self.fonts(resources) {
            if !self.usage.seen.insert(id) {
                continue;
            }
            if font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type3") {
                self.type3(font, resources, depth);
            }
        }
        for res in resources {
            let Some(patterns) = res.get(b"Pattern").ok().and_then(|o| self.dict(o)) else {
                continue;
            };
            for (_, value) in patterns.iter() {
                if let Ok(id) = value.as_reference() {
                    self.stream(id, resources, None, depth + 1);
                }
            }
        }
    }

    /// A Type 3 font's glyph procedures, all of them (which ones are shown does not matter
    /// for the fonts they use in turn).
    fn type3(&mut self, font: &'a Dictionary, outer: &[&'a Dictionary], depth: usize) {
        let own: Vec<&'a Dictionary> = font
            .get(b"Resources")
            .ok()
            .and_then(|o| self.dict(o))
            .into_iter()
            .collect();
        // The caller's resources follow the font's own, as lenient viewers look there too.
        let resources: Vec<&'a Dictionary> = own.into_iter().chain(outer.iter().copied()).collect();
        let Some(procs) = font.get(b"CharProcs").ok().and_then(|o| self.dict(o)) else {
            return;
        };
        for (_, value) in procs.iter() {
            if let Ok(id) = value.as_reference() {
                self.stream(id, &resources, None, depth + 1);
            }
        }
    }

    /// A content stream object (form, pattern, glyph procedure, appearance) with its own
    /// /Resources first, then those of the caller (which lenient viewers fall back to).
    fn stream(
        &mut self,
        id: ObjectId,
        outer: &[&'a Dictionary],
        font: Option<ObjectId>,
        depth: usize,
    ) {
        let Ok(Object::Stream(stream)) = self.doc.get_object(id) else {
            return;
        };
        let own = stream
            .dict
            .get(b"Resources")
            .ok()
            .and_then(|o| self.dict(o));
        let resources: Vec<&'a Dictionary> = own.into_iter().chain(outer.iter().copied()).collect();
        let context = resources
            .iter()
            .take(CONTEXT)
            .map(|d| std::ptr::from_ref::<Dictionary>(d) as usize)
            .collect();
        if self.usage.incomplete || !self.visited.insert((id, font, context)) {
            return;
        }
        if self.visited.len() > MAX_VISITS {
            self.usage.incomplete = true;
            return;
        }
        self.walked.insert(id);
        if depth > MAX_DEPTH {
            self.all_whole(&resources);
            font.map(|f| self.usage.whole.insert(f));
            return;
        }
        let content = self.forms.content(id, stream);
        self.walk(content.as_ref().as_ref(), &resources, font, depth);
    }

    /// A content stream, parsed, or `None` when it could not be read: then every font in
    /// reach keeps its program.
    fn walk(
        &mut self,
        content: Option<&Content>,
        resources: &[&'a Dictionary],
        inherited: Option<ObjectId>,
        depth: usize,
    ) {
        self.scan_resources(resources, depth);
        let Some(content) = content else {
            self.all_whole(resources);
            inherited.map(|f| self.usage.whole.insert(f));
            return;
        };
        // `None` with text shown: the font is unknown (inline or missing), and since it may
        // be one the caller set, every font in reach keeps its program.
        let mut font = inherited;
        let mut stack = Vec::new();
        for op in &content.operations {
            match op.operator.as_str() {
                "q" => stack.push(font),
                "Q" => font = stack.pop().unwrap_or(font),
                "Tf" => {
                    font = match op.operands.first().and_then(|o| o.as_name().ok()) {
                        Some(name) => match self.font_named(resources, name) {
                            Some((FontRef::Indirect(id), near)) => {
                                // Found only through a far caller: another path to this
                                // stream may be skipped as already visited, so its usage
                                // would be incomplete.
                                if !near {
                                    self.usage.whole.insert(id);
                                }
                                Some(id)
                            }
                            Some((FontRef::Direct, _)) | None => None,
                        },
                        None => None,
                    };
                }
                "gs" => {
                    let Some(state) = op
                        .operands
                        .first()
                        .and_then(|o| o.as_name().ok())
                        .and_then(|name| self.named(resources, b"ExtGState", name))
                        .and_then(|o| self.dict(o))
                    else {
                        continue;
                    };
                    if let Ok(entry) = state.get(b"Font") {
                        let pair = self.doc.dereference(entry).ok().map(|(_, o)| o);
                        font = pair
                            .and_then(|o| o.as_array().ok())
                            .and_then(|a| a.first())
                            .and_then(|o| o.as_reference().ok());
                        if font.is_none() {
                            self.all_whole(resources);
                        }
                    }
                }
                "Tj" | "'" | "\"" | "TJ" => {
                    let strings: Vec<&[u8]> = match op.operands.last() {
                        Some(Object::String(s, _)) => vec![s.as_slice()],
                        Some(Object::Array(items)) => items
                            .iter()
                            .filter_map(|o| match o {
                                Object::String(s, _) => Some(s.as_slice()),
                                _ => None,
                            })
                            .collect(),
                        _ => Vec::new(),
                    };
                    match font {
                        Some(id) => {
                            let set = self.usage.shown.entry(id).or_default();
                            for s in strings {
                                if !set.contains(s) {
                                    set.insert(s.to_vec());
                                }
                            }
                        }
                        None => self.all_whole(resources),
                    }
                }
                "Do" => {
                    let Some(id) = op
                        .operands
                        .first()
                        .and_then(|o| o.as_name().ok())
                        .and_then(|name| self.named(resources, b"XObject", name))
                        .and_then(|o| o.as_reference().ok())
                    else {
                        continue;
                    };
                    let is_form = matches!(
                        self.doc.get_object(id),
                        Ok(Object::Stream(s)) if is_content_stream(&s.dict)
                    );
                    if is_form {
                        self.stream(id, resources, font, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}
