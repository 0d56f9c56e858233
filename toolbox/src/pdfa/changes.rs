//! The sentences a conversion reports, counted where the same change is made many times.

/// Changes in the order they were first made.
#[derive(Debug, Default)]
pub struct Changes {
    /// (verb, singular noun, plural noun, count), or a sentence told as it is (count 0).
    entries: Vec<Entry>,
}

#[derive(Debug)]
enum Entry {
    Counted {
        verb: &'static str,
        one: &'static str,
        many: &'static str,
        count: u32,
    },
    Said(String),
}

impl Changes {
    /// A change told as it is (said once however often it is noted).
    pub fn note(&mut self, text: impl Into<String>) {
        let text = text.into();
        if !self
            .entries
            .iter()
            .any(|e| matches!(e, Entry::Said(said) if *said == text))
        {
            self.entries.push(Entry::Said(text));
        }
    }

    /// A change made `count` times, told as "fixed 3 annotations' flags" (`one` is the
    /// singular noun, `many` the plural).
    pub fn count(&mut self, verb: &'static str, count: u32, one: &'static str, many: &'static str) {
        if count == 0 {
            return;
        }
        for entry in &mut self.entries {
            if let Entry::Counted {
                verb: v,
                one: o,
                count: c,
                ..
            } = entry
                && *v == verb
                && *o == one
            {
                *c += count;
                return;
            }
        }
        self.entries.push(Entry::Counted {
            verb,
            one,
            many,
            count,
        });
    }

    /// The sentences, in the order the changes were first made.
    pub fn into_sentences(self) -> Vec<String> {
        self.entries
            .into_iter()
            .map(|entry| match entry {
                Entry::Counted {
                    verb,
                    one,
                    many,
                    count,
                } => format!("{verb} {count} {}", if count == 1 { one } else { many }),
                Entry::Said(text) => text,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_read_in_order() {
        let mut changes = Changes::default();
        changes.count("fixed", 1, "annotation's flags", "annotations' flags");
        changes.note("added an sRGB output intent");
        changes.count("fixed", 2, "annotation's flags", "annotations' flags");
        changes.count("removed", 1, "hidden annotation", "hidden annotations");
        changes.note("added an sRGB output intent");
        assert_eq!(
            changes.into_sentences(),
            [
                "fixed 3 annotations' flags",
                "added an sRGB output intent",
                "removed 1 hidden annotation",
            ]
        );
    }
}
