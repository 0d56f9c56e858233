// The three minifiers, as the page calls them: terser for JavaScript, csso for CSS,
// html-minifier-terser for HTML (its inline <style> and <script> going through the same csso
// and terser). Plain functions of text, no DOM: node tests them. A text that cannot be read
// gives a MinifyError with the line and column, never an empty or silently shortened result.
import { minify as csso, minifyBlock as cssoBlock, syntax as cssSyntax } from "csso";
import { minify as terser } from "terser";
import { DEFAULTS } from "./defaults.mjs";
import { minifyHtmlWith } from "./html-engine.mjs";

export { DEFAULTS };

/// What could not be minified: `kind` ("js", "css", "html"), where (1-based line and column,
/// as editors count; null when unknown) and the library's own words (`reason`, in English).
/// The view words it in the page's language.
export class MinifyError extends Error {
  constructor(kind, reason, line = null, column = null) {
    super(line ? `${kind} at line ${line}, column ${column}: ${reason}` : `${kind}: ${reason}`);
    this.name = "MinifyError";
    Object.assign(this, { kind, reason, line, column });
  }
}


/// The 1-based line and column of `offset` in `text`.
export function position(text, offset) {
  const before = text.slice(0, Math.max(0, offset));
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

// ---- JavaScript ----

const terserOptions = ({ mangle = true, keepConsole = true } = {}, module, bareReturns = false) => ({
  module,
  compress: { drop_console: !keepConsole },
  mangle,
  parse: { bare_returns: bareReturns },
  format: { comments: false },
});

// terser's syntax errors carry line (1-based), col (0-based) and pos; anything else is a bug
// and is thrown as it is.
const isTerserSyntax = (error) => error?.name === "SyntaxError" && Number.isInteger(error.line);
const jsError = (error) => new MinifyError("js", error.message, error.line, error.col + 1);

// The code read, not minified: its top-level statements (terser's AST), or its syntax error.
const parse = async (code, module) =>
  (await terser(code, { module, compress: false, mangle: false, format: { ast: true, code: false } })).ast;

/// Whether `code` is an ES module. A module's top-level names are its own, so terser may
/// rename or drop them; a classic script's are globals that other scripts may use. terser
/// reads import and export either way: the code is a module when it has them (or import.meta,
/// looked for in the text: rare, and a false match only means top-level names get renamed),
/// or when only a module reading works (top-level await). When neither works, the reading
/// that went further is the one the author meant: its error is the one to show.
export async function readsAsModule(code) {
  let asScript;
  try {
    const ast = await parse(code, false);
    return ast.body.some((node) => node.TYPE === "Import" || node.TYPE === "Export") || /\bimport\.meta\b/.test(code);
  } catch (error) {
    if (!isTerserSyntax(error)) throw error;
    asScript = error;
  }
  try {
    await parse(code, true);
    return true;
  } catch (asModule) {
    if (!isTerserSyntax(asModule)) throw asModule;
    return asModule.pos > asScript.pos;
  }
}

/// { code, module }: `code` minified, read as a module or not as `options.module` says (null:
/// readsAsModule finds out). `bareReturns` for an event attribute's code (onclick="return …").
export async function minifyJs(code, options = {}, { bareReturns = false } = {}) {
  try {
    const module = bareReturns ? false : options.module ?? (await readsAsModule(code));
    const result = await terser(code, terserOptions(options, module, bareReturns));
    return { code: result.code ?? "", module };
  } catch (error) {
    throw isTerserSyntax(error) ? jsError(error) : error;
  }
}

// ---- CSS ----

// At-rules that csso drops when their prelude is one it could not parse (it then sees "no
// prelude"); other at-rules keep an unparsed prelude as written (lib/clean/Atrule.js).
const DROPPED_WHEN_UNREAD = new Set(["media", "supports", "keyframes"]);
const basename = (name) => name.toLowerCase().replace(/^-[a-z]+-/, "");

/// The first parse error in `css` that would make csso lose something, or null. csso (through
/// css-tree) never refuses a stylesheet: what it cannot parse it keeps as raw text, then drops
/// raw rules and declarations, and @media/@supports/@keyframes whose condition it could not
/// read. That is how CSS nesting (`& .b {}`) and media ranges (`(width >= 600px)`) would
/// silently vanish. An unread prelude of another at-rule (@container, @scope, @import …
/// layer()) is kept as written: not an error.
export function cssProblem(css, context = "stylesheet") {
  const errors = [];
  const ast = cssSyntax.parse(css, { context, positions: true, onParseError: (error) => errors.push(error) });
  if (!errors.length) return null;
  const keptAsWritten = [];
  cssSyntax.walk(ast, {
    visit: "Atrule",
    enter(node) {
      if (node.prelude?.type === "Raw" && node.prelude.loc && !DROPPED_WHEN_UNREAD.has(basename(node.name))) {
        keptAsWritten.push([node.prelude.loc.start.offset, node.prelude.loc.end.offset]);
      }
    },
  });
  const lossy = errors.find((error) => !keptAsWritten.some(([start, end]) => error.offset >= start && error.offset <= end));
  return lossy ? new MinifyError("css", lossy.message, lossy.line, lossy.column) : null;
}

/// { code }: the stylesheet minified; `restructure` merges rules and declarations (csso's
/// structural optimisations). A stylesheet csso would cut is refused (cssProblem).
export function minifyCss(css, { restructure = true } = {}) {
  const problem = cssProblem(css);
  if (problem) throw problem;
  return { code: csso(css, { restructure }).css };
}

// ---- HTML ----

/// Where `inner` (a script or style as the HTML minifier hands it, its ends trimmed or
/// collapsed) sits in `html`, so that an error inside it is told at its line in the page.
function locateInner(html, inner, innerOffset) {
  const body = inner.trim();
  const at = body ? html.indexOf(body) : -1;
  if (at < 0) return { line: null, column: null };
  const lead = inner.length - inner.trimStart().length;
  return position(html, at + Math.max(0, innerOffset - lead));
}

// html-minifier-terser's own refusal: "Parse Error: <the rest of the page from there>".
function htmlError(html, message) {
  const rest = message.replace(/^Parse Error:\s*/, "");
  const snippet = rest.trim().split("\n")[0].slice(0, 80);
  const at = rest.trimEnd() ? html.lastIndexOf(rest.trimEnd()) : -1;
  const where = at >= 0 ? position(html, at) : { line: null, column: null };
  return new MinifyError("html", `cannot read the markup at “${snippet}”`, where.line, where.column);
}

/// { code, warnings }: the page minified. Whitespace is collapsed conservatively (a run of
/// blanks becomes one space, never none: inline elements keep their gaps), and <pre>,
/// <textarea> and the like are left as they are by html-minifier-terser itself. Inline CSS and
/// JS go through csso and terser with the same options as files; one that cannot be read is
/// kept as written and reported in `warnings` ({ kind, reason, line, column }), the rest of the
/// page is still minified.
export async function minifyHtml(html, options = DEFAULTS.html, jsOptions = DEFAULTS.js, cssOptions = DEFAULTS.css) {
  const warnings = [];
  const minifyJS = async (text, inline) => {
    // Old pages wrap scripts in <!-- … -->, as html-minifier-terser's own minifyJS allows.
    const start = text.match(/^\s*<!--.*/);
    const code = start ? text.slice(start[0].length).replace(/\n\s*-->\s*$/, "") : text;
    try {
      const result = await minifyJs(code, inline ? { ...jsOptions, module: false } : jsOptions, { bareReturns: Boolean(inline) });
      return result.code.replace(/;$/, ""); // as html-minifier-terser does: no ";" before </script> or the quote
    } catch (error) {
      if (error?.name !== "MinifyError") throw error;
      const offset = offsetOf(code, error) + (start ? start[0].length : 0);
      warnings.push({ kind: "js", reason: error.reason, ...locateInner(html, text, offset) });
      return text;
    }
  };
  const minifyCSS = async (text, type) => {
    if (type === "media") return text; // a media attribute: left as written
    const context = type === "inline" ? "declarationList" : "stylesheet";
    const problem = cssProblem(text, context);
    if (problem) {
      warnings.push({ kind: "css", reason: problem.reason, ...locateInner(html, text, offsetOf(text, problem)) });
      return text;
    }
    // A style attribute is a declaration list (csso's minifyBlock), a <style> a stylesheet.
    const restructure = cssOptions.restructure ?? true;
    return (type === "inline" ? cssoBlock : csso)(text, { restructure }).css;
  };
  const redundant = Boolean(options.removeRedundant);
  try {
    const code = await minifyHtmlWith(html, {
      collapseWhitespace: Boolean(options.collapseWhitespace),
      conservativeCollapse: true,
      removeComments: Boolean(options.removeComments),
      removeRedundantAttributes: redundant,
      removeScriptTypeAttributes: redundant,
      removeStyleLinkTypeAttributes: redundant,
      ...(options.minifyInline ? { minifyCSS, minifyJS } : {}),
    });
    return { code, warnings };
  } catch (error) {
    if (/^Parse Error:/.test(error?.message)) throw htmlError(html, error.message);
    throw error;
  }
}

// The offset in `text` of an error's 1-based line and column.
function offsetOf(text, { line, column }) {
  if (!line) return 0;
  let at = 0;
  for (let n = 1; n < line; n++) at = text.indexOf("\n", at) + 1;
  return at + column - 1;
}

/// The text minified as `kind` ("html", "css", "js"): { code, warnings, module? }.
export async function minify(kind, text, options = DEFAULTS) {
  const { js = DEFAULTS.js, css = DEFAULTS.css, html = DEFAULTS.html } = options;
  if (kind === "js") return { warnings: [], ...(await minifyJs(text, js)) };
  if (kind === "css") return { warnings: [], ...minifyCss(text, css) };
  if (kind === "html") return minifyHtml(text, html, js, css);
  throw new Error(`unknown kind ${kind}`);
}
