//! Markdown to a printable HTML page (CommonMark with tables, strikethrough, task lists and
//! footnotes). Raw HTML in the Markdown is kept: the page is printed by the same Chromium under
//! the same no-network rules as an uploaded HTML file, so it can reach nothing an HTML upload
//! could not.

use pulldown_cmark::{Options, Parser, html};

/// A print stylesheet: readable body text, tables with rules, code that wraps instead of
/// running off the page, and headings kept with what follows them.
const STYLE: &str = r#"
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 11pt;
  line-height: 1.45; color: #111; margin: 0; }
h1, h2, h3, h4, h5, h6 { line-height: 1.2; margin: 1.2em 0 0.5em; break-after: avoid; }
h1 { font-size: 1.9em; } h2 { font-size: 1.5em; border-bottom: 1px solid #ccc; padding-bottom: 0.15em; }
h3 { font-size: 1.25em; }
p, ul, ol, dl, table, pre, blockquote { margin: 0 0 0.8em; }
a { color: #0645ad; text-decoration: none; }
img { max-width: 100%; }
table { border-collapse: collapse; break-inside: auto; }
th, td { border: 1px solid #999; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #eee; }
tr { break-inside: avoid; }
code, pre { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.9em; }
code { background: #f3f3f3; padding: 0 0.2em; }
pre { background: #f6f6f6; padding: 0.6em; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
blockquote { border-left: 3px solid #ccc; padding-left: 0.8em; color: #444; }
ul.contains-task-list, li.task-list-item { list-style: none; }
.footnote-definition { font-size: 0.9em; }
.footnote-definition p { display: inline; }
hr { border: 0; border-top: 1px solid #ccc; }
"#;

/// The whole HTML page for `markdown`, titled `title` (the document's title, not shown).
pub fn to_html(markdown: &str, title: &str) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut body, Parser::new_ext(markdown, options));
    format!(
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_task_lists_and_footnotes_are_rendered() {
        let page = to_html(
            "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\nText[^1]\n\n[^1]: note\n\n~~old~~",
            "<x>",
        );
        assert!(page.contains("<h1>Title</h1>"));
        assert!(page.contains("<table>"));
        assert!(page.contains("type=\"checkbox\""));
        assert!(page.contains("footnote-definition"));
        assert!(page.contains("<del>old</del>"));
        assert!(page.contains("<title>&lt;x&gt;</title>"));
    }
}
