// The reply's final wording: the placeholders left in the draft must each be filled in (the
// customer's own address back, say) or kept on purpose before the text can be made final; the
// final text is copied as plain text or as Markdown.
import { PLACEHOLDER } from "./align.mjs";

/// The distinct placeholders of `text`, in the order they first appear.
export function placeholdersIn(text) {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[0]))];
}

/// `text` with every `placeholder` replaced by `value`.
export function fillIn(text, placeholder, value) {
  return text.split(placeholder).join(value);
}

/// The placeholders of `text` not kept on purpose (`kept`: a Set): the text is final only when
/// there are none.
export function unresolved(text, kept) {
  return placeholdersIn(text).filter((p) => !kept.has(p));
}

/// Markdown for the reply: its paragraphs and list items as written, the characters Markdown
/// would read as formatting escaped, line breaks inside a paragraph kept (two trailing spaces),
/// and kept placeholders as code so they stand out as such.
export function toMarkdown(text, kept) {
  const paragraphs = text.replace(/\r\n?/g, "\n").trim().split(/\n{2,}/);
  return paragraphs.map((paragraph) => {
    const lines = paragraph.split("\n").map((line) => markdownLine(line.trimEnd(), kept));
    return lines.map((line, i) => (i < lines.length - 1 && !isListItem(lines[i + 1]) ? `${line}  ` : line)).join("\n");
  }).join("\n\n") + "\n";
}

const LIST = /^(\s*)([-*•]|\d+[.)])\s+/;

function isListItem(line) {
  return LIST.test(line);
}

function markdownLine(line, kept) {
  const list = LIST.exec(line);
  let marker = "";
  let rest = line;
  if (list) {
    // "•" is not a Markdown list marker; "1)" is, as is "1.".
    marker = `${list[1]}${list[2] === "•" ? "-" : list[2]} `;
    rest = line.slice(list[0].length);
  }
  let out = "";
  let at = 0;
  for (const match of rest.matchAll(PLACEHOLDER)) {
    out += escape(rest.slice(at, match.index));
    out += kept.has(match[0]) ? `\`${match[0]}\`` : escape(match[0]);
    at = match.index + match[0].length;
  }
  out += escape(rest.slice(at));
  // A line that would read as a heading, quote or rule once its marker is gone.
  if (!marker) out = out.replace(/^(\s*)([#+-])/, "$1\\$2").replace(/^(\s*\d+)([.)])/, "$1\\$2");
  return marker + out;
}

function escape(text) {
  return text.replace(/([\\`*_[\]<>|~])/g, "\\$1");
}
