//! Property tests (proptest) of the anonymizer and the whole support workflow on generated
//! logs: never panics, counts what it replaces, and no item it counted survives anywhere in
//! the anonymized log, the summary or the draft reply.

use proptest::prelude::*;
use quire_core::support::{Locale, Ticket, anonymize::anonymize, auto_reply};

/// Fragments that look like items, half-items and separators, so generated text is dense with
/// candidates and near-misses; plus arbitrary Unicode.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "10.0.0.1", "192.168.1.254", "256.1.1.1", "1.2.3", "10.0.19045.3803", ":8080", "/24",
            "fe80::1", "%eth0", "2001:db8::", "::ffff:1.2.3.4", "[", "]", "10:14:22",
            "00:1A:2B:3C:4D:5E", "std::vector", "a.b@example.com", "<ops+tag@Mail.Example.org>",
            "mailto:", "@", "CORP\\jdoe", "NT AUTHORITY\\SYSTEM", "C:\\Users\\x", "token\\nat",
            "\\", "api.example.co.uk", "https://", "/path?q=1", "README.md", "setup.py",
            "java.lang.NullPointerException", "v1.2.3", "ERROR ", "WARN ", "vpn ", "dns ",
            "2024-03-12 10:14:22 ", "attempt 3/5 ", ".", ":", "-", "_", " ", "\n", "é", "日本",
        ])
        .prop_map(str::to_owned),
        1 => "[a-zA-Z0-9.:@\\\\%\\[\\]_-]{1,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(8).collect()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn no_counted_item_survives(log in text()) {
        let out = anonymize(&log);
        prop_assert_eq!(out.stats.total() as usize, out.found.len());
        for found in &out.found {
            let item = &log[found.start..found.end];
            prop_assert!(!out.text.contains(item), "{:?} survives in {:?}", item, out.text);
        }
    }

    #[test]
    fn the_workflow_never_quotes_an_item(log in text(), context in text(), english in any::<bool>()) {
        let locale = if english { Locale::En } else { Locale::Fr };
        let reply = auto_reply(&Ticket { raw_log: &log, context: &context, locale });
        let items: Vec<&str> = anonymize(&log)
            .found
            .iter()
            .map(|f| &log[f.start..f.end])
            .chain(anonymize(&context).found.iter().map(|f| &context[f.start..f.end]))
            .collect();
        for item in items {
            for (name, text) in [
                ("anonymized", &reply.anonymized),
                ("summary", &reply.summary),
                ("draft", &reply.draft_response),
            ] {
                prop_assert!(!text.contains(item), "{:?} in the {}: {:?}", item, name, text);
            }
        }
    }
}
