//! Annotations: their appearance streams (every state) are walked like page content, and
//! the fonts their /DA (and the form's) names keep their whole program, since a user may
//! type any character into a field.

use std::collections::HashSet;

use lopdf::{Dictionary, Object, ObjectId};

use super::{FontRef, Walker};

impl<'a> Walker<'a> {
    /// Appearance streams of the page's annotations (every state), and the fonts their
    /// /DA names, which stay whole.
    pub(super) fn annotations(&mut self, page_id: ObjectId) {
        let Ok(annots) = self.doc.get_page_annotations(page_id) else {
            return;
        };
        for annot in annots {
            let mut ap_resources = Vec::new();
            for id in crate::pages::appearance_streams(self.doc, annot) {
                if let Ok(Object::Stream(s)) = self.doc.get_object(id)
                    && let Some(res) = s.dict.get(b"Resources").ok().and_then(|o| self.dict(o))
                {
                    ap_resources.push(res);
                }
                self.stream(id, &[], None, 1);
            }
            if let Ok(Object::String(da, _)) = annot.get(b"DA") {
                let da = da.clone();
                self.default_appearance(&da, &ap_resources);
            }
        }
    }

    /// The form's default appearances, at the top and in every field: a user may type any
    /// character with these fonts, so they keep their whole program.
    pub(super) fn acroform(&mut self) {
        let Some(form) = self
            .doc
            .catalog()
            .ok()
            .and_then(|c| c.get(b"AcroForm").ok())
            .and_then(|o| self.dict(o))
        else {
            return;
        };
        if let Ok(Object::String(da, _)) = form.get(b"DA") {
            let da = da.clone();
            self.default_appearance(&da, &[]);
        }
        let mut stack: Vec<(&'a Object, usize)> = match form.get(b"Fields") {
            Ok(fields) => match self.doc.dereference(fields) {
                Ok((_, Object::Array(items))) => items.iter().map(|o| (o, 0)).collect(),
                _ => Vec::new(),
            },
            Err(_) => Vec::new(),
        };
        let mut seen = HashSet::new();
        while let Some((object, depth)) = stack.pop() {
            if let Object::Reference(id) = object
                && !seen.insert(*id)
            {
                continue;
            }
            let Some(field) = self.dict(object) else {
                continue;
            };
            if let Ok(Object::String(da, _)) = field.get(b"DA") {
                let da = da.clone();
                self.default_appearance(&da, &[]);
            }
            if depth < 32
                && let Ok((_, Object::Array(kids))) = field
                    .get(b"Kids")
                    .map_or(Err(lopdf::Error::ObjectNotFound((0, 0))), |k| {
                        self.doc.dereference(k)
                    })
            {
                stack.extend(kids.iter().map(|k| (k, depth + 1)));
            }
        }
    }

    fn default_appearance(&mut self, da: &[u8], extra: &[&'a Dictionary]) {
        let form_resources: Vec<&'a Dictionary> = self
            .doc
            .catalog()
            .ok()
            .and_then(|c| c.get(b"AcroForm").ok())
            .and_then(|o| self.dict(o))
            .and_then(|f| f.get(b"DR").ok())
            .and_then(|o| self.dict(o))
            .into_iter()
            .chain(extra.iter().copied())
            .collect();
        let names: Vec<Vec<u8>> = match crate::content::parse(da, |op| op == b"Tf") {
            Some(content) => content
                .operations
                .iter()
                .filter(|op| op.operator == "Tf")
                .filter_map(|op| op.operands.first()?.as_name().ok().map(<[u8]>::to_vec))
                .collect(),
            None => {
                self.all_whole(&form_resources);
                return;
            }
        };
        for name in names {
            for res in &form_resources {
                if let Some((FontRef::Indirect(id), _)) = self.font_named(&[res], &name) {
                    self.usage.whole.insert(id);
                }
            }
        }
    }
}
