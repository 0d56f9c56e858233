//! A stream's resources: what a name stands for, and the dictionary extended with the
//! resources the rewritten stream names (redacted copies of images and forms, properties
//! without their descriptions). The original dictionaries are never changed: other pages and
//! forms may share them.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Run;

/// The resource `name` of `category`: its object id when indirect, and the object resolved.
pub fn lookup<'d>(
    doc: &'d Document,
    resources: &'d Dictionary,
    category: &[u8],
    name: &[u8],
) -> Option<(Option<ObjectId>, &'d Object)> {
    let (_, group) = doc.dereference(resources.get(category).ok()?).ok()?;
    let value = group.as_dict().ok()?.get(name).ok()?;
    let (id, object) = doc.dereference(value).ok()?;
    Some((id, object))
}

/// `resources` with `added` written into copies of their categories.
pub fn extended(
    doc: &Document,
    resources: &Dictionary,
    added: &[(&'static [u8], Vec<u8>, Object)],
) -> Dictionary {
    let mut out = resources.clone();
    for (category, name, value) in added {
        let mut group = out
            .get(category)
            .ok()
            .and_then(|g| doc.dereference(g).ok())
            .and_then(|(_, g)| g.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        group.set(name.clone(), value.clone());
        out.set(*category, Object::Dictionary(group));
    }
    out
}

/// Removes `stale` names from copies of their categories.
pub fn remove(doc: &Document, resources: &mut Dictionary, stale: &[(&'static [u8], Vec<u8>)]) {
    for (category, name) in stale {
        let Some(mut group) = resources
            .get(category)
            .ok()
            .and_then(|g| doc.dereference(g).ok())
            .and_then(|(_, g)| g.as_dict().ok())
            .cloned()
        else {
            continue;
        };
        if group.remove(name).is_some() {
            resources.set(*category, Object::Dictionary(group));
        }
    }
}

impl Run<'_, '_> {
    /// Adds `value` to the stream's resources under a name neither they nor earlier additions
    /// use, and returns the name.
    pub(super) fn add_resource(
        &mut self,
        category: &'static [u8],
        prefix: &str,
        value: Object,
    ) -> Vec<u8> {
        loop {
            self.w.fresh += 1;
            let name = format!("{prefix}{}", self.w.fresh).into_bytes();
            let taken = lookup(self.w.doc, self.resources, category, &name).is_some()
                || self
                    .added
                    .iter()
                    .any(|(c, n, _)| *c == category && *n == name);
            if !taken {
                self.added.push((category, name.clone(), value));
                return name;
            }
        }
    }
}
