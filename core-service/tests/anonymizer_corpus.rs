//! Labelled corpus for the anonymizer: every kind, every look-alike the product must leave
//! alone, French and English, realistic mixed logs. Prints precision and recall per kind and
//! requires 1.0 for both.

use std::collections::BTreeMap;

use quire_core::support::anonymize::{Kind, anonymize};

use Kind::{DomainUser as Du, Email as Em, Fqdn as Fq, Ipv4 as V4, Ipv6 as V6};

/// (text, items that must be replaced). Everything else must stay.
const CORPUS: &[(&str, &[(Kind, &str)])] = &[
    // IPv4
    ("connection from 10.0.0.1 refused", &[(V4, "10.0.0.1")]),
    (
        "upstream 192.168.1.254:8080 timed out",
        &[(V4, "192.168.1.254")],
    ),
    ("route 172.16.0.0/12 added", &[(V4, "172.16.0.0")]),
    (
        "connexion refusée depuis 8.8.8.8, nouvel essai",
        &[(V4, "8.8.8.8")],
    ),
    ("peer=255.255.255.255;", &[(V4, "255.255.255.255")]),
    ("(0.0.0.0) bind", &[(V4, "0.0.0.0")]),
    ("version 1.2.300.4 installed", &[]),
    ("Windows 10.0.19045.3803 build", &[]),
    ("lib v1.2.3.4 loaded", &[]),
    ("value 3.14 and 2.5.1", &[]),
    ("256.1.1.1 is not an address", &[]),
    // IPv6
    ("client 2001:db8::1 connected", &[(V6, "2001:db8::1")]),
    (
        "full 2001:0db8:85a3:0000:0000:8a2e:0370:7334 ok",
        &[(V6, "2001:0db8:85a3:0000:0000:8a2e:0370:7334")],
    ),
    (
        "link-local fe80::1ff:fe23:4567:890a%eth0 up",
        &[(V6, "fe80::1ff:fe23:4567:890a%eth0")],
    ),
    ("listen [::1]:8080", &[(V6, "::1")]),
    (
        "mapped ::ffff:192.0.2.128 seen",
        &[(V6, "::ffff:192.0.2.128")],
    ),
    (
        "l'hôte 2001:db8:0:1::42 ne répond plus",
        &[(V6, "2001:db8:0:1::42")],
    ),
    ("at 10:14:22 the job started", &[]),
    ("mac 00:1A:2B:3C:4D:5E on port 3", &[]),
    ("std::vector<int> overflow in std::map", &[]),
    ("2024-03-01T10:14:22Z start", &[]),
    // E-mail
    (
        "contact jane.doe@example.com please",
        &[(Em, "jane.doe@example.com")],
    ),
    (
        "From: <John.Smith+billing@Mail.Example.CO.UK>",
        &[(Em, "John.Smith+billing@Mail.Example.CO.UK")],
    ),
    ("href=mailto:support@acme.io", &[(Em, "support@acme.io")]),
    (
        "écrire à marie-claire@exemple.fr svp",
        &[(Em, "marie-claire@exemple.fr")],
    ),
    (
        "ADMIN@CORP.EXAMPLE.ORG locked",
        &[(Em, "ADMIN@CORP.EXAMPLE.ORG")],
    ),
    ("git@github.com:org/repo.git", &[(Em, "git@github.com")]),
    ("user@localhost failed", &[]),
    ("decorator @override on line 3", &[]),
    // DOMAIN\user
    ("logon failure for CORP\\jdoe", &[(Du, "CORP\\jdoe")]),
    (
        "compte ACME-FR\\m.dupont verrouillé",
        &[(Du, "ACME-FR\\m.dupont")],
    ),
    (
        "service runs as NT AUTHORITY\\SYSTEM",
        &[(Du, "NT AUTHORITY\\SYSTEM")],
    ),
    (
        "user corp.example.com\\svc_backup denied",
        &[(Du, "corp.example.com\\svc_backup")],
    ),
    ("CORP\\nathan logged in", &[(Du, "CORP\\nathan")]),
    ("path C:\\Users\\jdoe\\AppData\\Local", &[]),
    ("C:\\WINDOWS\\System32\\drivers", &[]),
    ("%SYSTEMROOT%\\system32\\cmd.exe", &[]),
    ("unexpected token\\nat line 4", &[]),
    ("\\\\server\\share\\file.txt", &[]),
    // FQDN
    (
        "resolving api.example.com failed",
        &[(Fq, "api.example.com")],
    ),
    (
        "GET https://portal.acme-corp.co.uk/login?next=/home",
        &[(Fq, "portal.acme-corp.co.uk")],
    ),
    (
        "dns: host.example.org. NXDOMAIN",
        &[(Fq, "host.example.org")],
    ),
    (
        "le serveur mail.exemple.fr est injoignable",
        &[(Fq, "mail.exemple.fr")],
    ),
    (
        "vpn.company.io refused the tunnel",
        &[(Fq, "vpn.company.io")],
    ),
    (
        "ssh deploy@build.example.net",
        &[(Em, "deploy@build.example.net")],
    ),
    ("see README.md and setup.py", &[]),
    ("compile main.rs then run build.sh", &[]),
    ("open report.pdf and app.log", &[]),
    (
        "java.lang.NullPointerException at com.acme.billing.InvoiceService.run",
        &[],
    ),
    ("org.apache.commons.io failed", &[]),
    ("release 2.4.1 of the agent", &[]),
    ("call self.client.connect()", &[]),
    ("config.yaml missing", &[]),
    ("internal host db01.corp has no public suffix", &[]),
    // Mixed, realistic
    (
        "2024-03-01 10:14:22 ERROR vpn: auth failed for CORP\\jdoe from 203.0.113.7 (gw vpn.example.com)",
        &[
            (Du, "CORP\\jdoe"),
            (V4, "203.0.113.7"),
            (Fq, "vpn.example.com"),
        ],
    ),
    (
        "2024-03-01 10:15:01 WARN retry 3/5 to 203.0.113.7:443, notify ops@example.com",
        &[(V4, "203.0.113.7"), (Em, "ops@example.com")],
    ),
    (
        "[erreur] 01/03 10:16 échec de synchro de m.dupont@exemple.fr vers imap.exemple.fr (2001:db8::25)",
        &[
            (Em, "m.dupont@exemple.fr"),
            (Fq, "imap.exemple.fr"),
            (V6, "2001:db8::25"),
        ],
    ),
    (
        "Traceback: File \"app/main.py\", line 12, in handler; requests to https://api.stripe.com/v1/charges",
        &[(Fq, "api.stripe.com")],
    ),
    (
        "kernel: eth0 link up 00:1A:2B:3C:4D:5E, dhcp lease 10.1.2.3 from 10.1.2.1 at 10:14:22",
        &[(V4, "10.1.2.3"), (V4, "10.1.2.1")],
    ),
    (
        "User ACME\\alice (alice@acme.com) on WS-0042.acme.com uploaded invoice.xlsx",
        &[
            (Du, "ACME\\alice"),
            (Em, "alice@acme.com"),
            (Fq, "WS-0042.acme.com"),
        ],
    ),
    (
        "panic: runtime error at github.com/acme/api/server.go:42 (v1.22.3)",
        &[(Fq, "github.com")],
    ),
    (
        "Le poste de Jean (10.20.30.40) n'accède plus à intranet.exemple.fr depuis 9h",
        &[(V4, "10.20.30.40"), (Fq, "intranet.exemple.fr")],
    ),
];

#[derive(Default)]
struct Score {
    tp: u32,
    fp: u32,
    fn_: u32,
}

#[test]
fn corpus_precision_and_recall_are_one_for_every_kind() {
    assert!(
        CORPUS.len() >= 60,
        "the corpus needs at least 60 cases, has {}",
        CORPUS.len()
    );
    let mut scores: BTreeMap<Kind, Score> =
        Kind::ALL.iter().map(|k| (*k, Score::default())).collect();
    let mut misses = Vec::new();
    for (text, expected) in CORPUS {
        let out = anonymize(text);
        let mut found: Vec<(Kind, &str)> = out
            .found
            .iter()
            .map(|f| (f.kind, &text[f.start..f.end]))
            .collect();
        for item in *expected {
            if let Some(pos) = found.iter().position(|f| f == item) {
                found.swap_remove(pos);
                scores.entry(item.0).or_default().tp += 1;
            } else {
                scores.entry(item.0).or_default().fn_ += 1;
                misses.push(format!("missed {item:?} in {text:?} → {:?}", out.text));
            }
        }
        for extra in found {
            scores.entry(extra.0).or_default().fp += 1;
            misses.push(format!(
                "wrongly took {extra:?} in {text:?} → {:?}",
                out.text
            ));
        }
        // Nothing replaced may survive in the output.
        for f in &out.found {
            let item = &text[f.start..f.end];
            assert!(
                !out.text.contains(item),
                "{item:?} survives in {:?}",
                out.text
            );
        }
    }
    println!(
        "{:<12} {:>9} {:>9} {:>4} {:>4} {:>4}",
        "kind", "precision", "recall", "tp", "fp", "fn"
    );
    for (kind, s) in &scores {
        let precision = f64::from(s.tp) / f64::from((s.tp + s.fp).max(1));
        let recall = f64::from(s.tp) / f64::from((s.tp + s.fn_).max(1));
        println!(
            "{:<12} {precision:>9.3} {recall:>9.3} {:>4} {:>4} {:>4}",
            format!("{kind:?}"),
            s.tp,
            s.fp,
            s.fn_
        );
    }
    assert!(
        misses.is_empty(),
        "{} misses:\n{}",
        misses.len(),
        misses.join("\n")
    );
}
