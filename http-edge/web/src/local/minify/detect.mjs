// What a text is (HTML, CSS or JavaScript) and what its minified copy is called. A file's type
// comes from its extension; pasted text has no name, so the page offers a choice, and "auto"
// guesses from the first lines. No DOM here: node tests it.

export const KINDS = ["html", "css", "js"];

/// The extension each kind is saved with when it has no name of its own (pasted text).
export const EXTENSIONS = { html: ".html", css: ".css", js: ".js" };

const BY_EXTENSION = [
  [/\.(html?|xhtml)$/i, "html"],
  [/\.css$/i, "css"],
  [/\.(m?js|cjs)$/i, "js"],
];

/// "page.HTM" → "html", "app.mjs" → "js"; null when the extension is not one this tool knows.
export function kindOfName(name) {
  for (const [pattern, kind] of BY_EXTENSION) if (pattern.test(name)) return kind;
  return null;
}

/// Whether a JS file's name says how to read it: .mjs is a module, .cjs is not; null for .js
/// (the minifier then finds out from the code, see minifiers.mjs).
export function moduleFromName(name) {
  if (/\.mjs$/i.test(name)) return true;
  if (/\.cjs$/i.test(name)) return false;
  return null;
}

// Comments first: a licence header says nothing about the language below it.
const withoutLeadingComments = (text) => text.replace(/^(\s+|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n|<!--[\s\S]*?-->)*/, "");

// A JS statement start that no stylesheet has (a selector never begins with these words
// followed by a space, a brace or a quote).
const JS_START = /^(import[\s{*"'(]|export\s|const\s|let\s|var\s|function[\s*(]|class\s|async\s|return\b|if\s*\(|for\s*\(|while\s*\(|["']use strict["']|window\.|document\.|console\.)/;
// A stylesheet: an at-rule CSS has, or a rule whose selector holds none of ( ) ; = and whose
// block starts with "property:".
const CSS_START = /^(@(charset|import|media|font-face|keyframes|-webkit-keyframes|layer|supports|container|namespace|page|property)\b|:root\b|[^{}();=]*\{\s*(--)?[a-z-]+\s*:)/i;

/// The kind pasted text most likely is: markup starts with "<", a stylesheet with a rule or an
/// at-rule; anything else is taken for JavaScript. The user can always choose.
export function guessKind(text) {
  const start = withoutLeadingComments(text);
  if (start.startsWith("<")) return "html";
  if (JS_START.test(start)) return "js";
  if (CSS_START.test(start)) return "css";
  return "js";
}

/// "app.js" → "app.min.js"; a name that has ".min" already keeps it (no "app.min.min.js");
/// pasted text is "pasted.min.<ext>".
export function minName(name, kind) {
  const fallback = EXTENSIONS[kind] ?? "";
  if (!name) return `pasted.min${fallback}`;
  const match = /^(.+?)(\.[^.]*)?$/.exec(name); // ".htaccess" is all stem
  const stem = match[1];
  const extension = match[2] ?? fallback;
  if (/\.min$/i.test(stem)) return `${stem}${extension}`;
  return `${stem}.min${extension}`;
}
