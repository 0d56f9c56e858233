// The minify tool's logic (src/local/minify/): what a text is, what its minified copy is
// called, the sizes, and the three minifiers themselves (terser, csso, html-minifier-terser's
// browser bundle) called as the page calls them, with their exact output; syntax errors come
// back with their line and column. The page itself (pasted code, rendering compared, the
// minified script run) is checked in Chromium by tests/web/local-minify.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { guessKind, kindOfName, minName, moduleFromName } from "../src/local/minify/detect.mjs";
import { cssProblem, DEFAULTS, minify, minifyCss, minifyHtml, minifyJs, position, readsAsModule } from "../src/local/minify/minifiers.mjs";
import { byteLength, gzipSize, measure, saving, savingText } from "../src/local/minify/sizes.mjs";

// A MinifyError of `kind` at `line`:`column`, its reason matching `reason`.
const failsAt = (kind, line, column, reason = /./) => (error) => {
  assert.equal(error.name, "MinifyError");
  assert.deepEqual([error.kind, error.line, error.column], [kind, line, column], error.message);
  assert.match(error.reason, reason);
  return true;
};

test("a file's type comes from its extension", () => {
  assert.equal(kindOfName("index.html"), "html");
  assert.equal(kindOfName("PAGE.HTM"), "html");
  assert.equal(kindOfName("site.css"), "css");
  assert.equal(kindOfName("app.js"), "js");
  assert.equal(kindOfName("worker.mjs"), "js");
  assert.equal(kindOfName("config.cjs"), "js");
  assert.equal(kindOfName("notes.txt"), null);
  assert.equal(kindOfName("css"), null);
  assert.equal(moduleFromName("a.mjs"), true);
  assert.equal(moduleFromName("a.cjs"), false);
  assert.equal(moduleFromName("a.js"), null);
});

test("pasted text's type is guessed from how it starts", () => {
  for (const html of ["<!DOCTYPE html>\n<html>", "  <div class=x>", "<!-- header -->\n<p>hi</p>"]) assert.equal(guessKind(html), "html", html);
  for (const css of ["body { margin: 0 }", "/* theme */\n.card, .note > p {\n  color: red;\n}", "@media print { a { color: black } }",
    ":root { --gap: 1rem }", "[hidden]{display:none}", "*{box-sizing:border-box}", "#main{padding:0}"]) assert.equal(guessKind(css), "css", css);
  for (const js of ["function f() { return 1 }", "const a = { b: 1 }", "export default { a: 1 }", "import x from \"y\";",
    "\"use strict\";\nvar a;", "(function () {})();", "foo({ a: 1 })", "class A { m() {} }", "document.title = \"x\"", "x = 1", ""]) {
    assert.equal(guessKind(js), "js", js);
  }
});

test("the minified copy is called <stem>.min<extension>", () => {
  assert.equal(minName("app.js", "js"), "app.min.js");
  assert.equal(minName("site.css", "css"), "site.min.css");
  assert.equal(minName("index.HTML", "html"), "index.min.HTML");
  assert.equal(minName("jquery.ui.js", "js"), "jquery.ui.min.js");
  assert.equal(minName("lib.mjs", "js"), "lib.min.mjs");
  assert.equal(minName("app.min.js", "js"), "app.min.js", "no app.min.min.js");
  assert.equal(minName("styles", "css"), "styles.min.css", "no extension: the type's");
  assert.equal(minName(null, "html"), "pasted.min.html");
  assert.equal(minName(null, "js"), "pasted.min.js");
});

test("sizes are UTF-8 bytes, the saving a percentage, gzip measured with CompressionStream", async () => {
  assert.equal(byteLength("abc"), 3);
  assert.equal(byteLength("é€😀"), 2 + 3 + 4);
  assert.equal(saving(1000, 250), 75);
  assert.equal(saving(3, 2), 33.3);
  assert.equal(saving(100, 101), -1);
  assert.equal(saving(0, 0), 0);
  assert.equal(savingText(75), "−75 %");
  assert.equal(savingText(33.3), "−33.3 %");
  assert.equal(savingText(33.3, true), "−33,3 %");
  assert.equal(savingText(-1), "+1 %");
  assert.equal(savingText(0), "0 %");
  const text = "body { color: red; }\n".repeat(200);
  const gz = await gzipSize(text);
  assert.ok(gz > 20 && gz < 200, `gzip of a repeated line: ${gz}`);
  assert.equal(await gzipSize(""), 20, "an empty gzip stream: header and trailer");
  const sizes = await measure("a  b", "a b");
  assert.deepEqual([sizes.before, sizes.after, sizes.saving], [4, 3, 25]);
  assert.equal(typeof sizes.gzipBefore, "number");
});

test("line and column of an offset are 1-based, as editors count", () => {
  assert.deepEqual(position("ab\ncd\nef", 0), { line: 1, column: 1 });
  assert.deepEqual(position("ab\ncd\nef", 4), { line: 2, column: 2 });
  assert.deepEqual(position("ab\ncd\nef", 6), { line: 3, column: 1 });
});

const SCRIPT = "function add(first, second) {\n  // sum\n  return first + second;\n}\nconsole.log(add(1, 2));\n";
const MODULE = "export function total(items) {\n  const sum = items.reduce((a, b) => a + b, 0);\n  console.log(\"total\", sum);\n  return sum;\n}\n";

test("JavaScript: a classic script keeps its global names, its locals are shortened", async () => {
  assert.deepEqual(await minifyJs(SCRIPT), { code: "function add(d,n){return d+n}console.log(add(1,2));", module: false });
  assert.deepEqual(await minifyJs(SCRIPT, { mangle: false }),
    { code: "function add(first,second){return first+second}console.log(add(1,2));", module: false });
});

test("JavaScript: a module is found out, console calls kept or dropped", async () => {
  assert.deepEqual(await minifyJs(MODULE),
    { code: "export function total(o){const t=o.reduce((o,t)=>o+t,0);return console.log(\"total\",t),t}", module: true });
  assert.deepEqual(await minifyJs(MODULE, { keepConsole: false }),
    { code: "export function total(t){return t.reduce((t,e)=>t+e,0)}", module: true });
  // Told it is a module, a top-level name no one exports is the module's own: dropped.
  assert.deepEqual(await minifyJs("var unused = 1;", { module: true }), { code: "", module: true });
  assert.deepEqual(await minifyJs("var kept = 1;", { module: false }), { code: "var kept=1;", module: false });
  assert.equal(await readsAsModule("import a from \"b\"; a();"), true);
  assert.equal(await readsAsModule("const x = await load();"), true, "top-level await");
  assert.equal(await readsAsModule("const u = import.meta.url;"), true);
  assert.equal(await readsAsModule("import(\"./lazy.js\").then(run);"), false, "a dynamic import is fine in a script");
  assert.equal(await readsAsModule("with (o) f();"), false, "sloppy mode only");
});

test("JavaScript: a syntax error gives its line and column, not an empty result", async () => {
  await assert.rejects(minifyJs("const list = [1, 2];\nfor (const item of list) {\n  console.log(item * 2;\n}\n"),
    failsAt("js", 3, 23, /expected punc «,»/));
  await assert.rejects(minifyJs("let x = ;"), failsAt("js", 1, 9, /Unexpected token/));
  await assert.rejects(minifyJs("import a from \"b\";\nlet = 3;"), failsAt("js", 2, 5, /Name expected/));
  // Neither reading works: the error is the one further in (here the module reading's).
  await assert.rejects(minifyJs("const x = await f(;"), failsAt("js", 1, 19));
});

const STYLESHEET = "/* theme */\na {\n  color: red;\n}\nb {\n  color: #ff0000;\n  margin: 0px 0px;\n}\n";

test("CSS: shortened, and merged when restructured", () => {
  assert.deepEqual(minifyCss(STYLESHEET), { code: "a,b{color:red}b{margin:0}" });
  assert.deepEqual(minifyCss(STYLESHEET, { restructure: false }), { code: "a{color:red}b{color:red;margin:0 0}" });
  assert.deepEqual(minifyCss(""), { code: "" });
  // An at-rule csso cannot parse but keeps as written is not an error.
  assert.deepEqual(minifyCss("@container sidebar (min-width: 400px) {\n  .card { display: grid }\n}\n"),
    { code: "@container sidebar (min-width: 400px){.card{display:grid}}" });
  assert.equal(cssProblem("@import url(a.css) layer(base);\na { color: red }"), null);
});

test("CSS: what csso would silently drop is refused with its line and column", () => {
  // Nesting: csso 5 would output ".card{color:red}", the nested rule gone.
  assert.throws(() => minifyCss(".card {\n  color: red;\n  & .title { font-weight: bold; }\n}\n"), failsAt("css", 3, 4, /Identifier is expected/));
  // A media range: csso would drop the whole @media block.
  assert.throws(() => minifyCss("a { color: blue }\n@media (width >= 600px) {\n  a { color: red }\n}\n"), failsAt("css", 2, 15));
  assert.throws(() => minifyCss("a { color: red }\n.x { color red }"), failsAt("css", 2, 12, /Colon is expected/));
});

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <title>  Demo  </title>
    <style type="text/css">
      p { color: #ff0000; }
      .note { margin: 0px 0px 0px 0px; }
    </style>
  </head>
  <body>
    <!-- greeting -->
    <p class="note">Hello,   <b>world</b>!</p>
    <pre>  two  spaces
    kept </pre>
    <textarea name="t">  as  typed </textarea>
    <input type="text" name="q">
    <script type="text/javascript">
      function greet(name) {
        return "Hello " + name;
      }
      console.log(greet("you"));
    </script>
  </body>
</html>
`;

test("HTML: inline <style> and <script> minified, comments and redundant attributes gone, <pre> and <textarea> kept", async () => {
  const { code, warnings } = await minifyHtml(PAGE);
  assert.deepEqual(warnings, []);
  assert.equal(code, "<!DOCTYPE html> <html lang=\"en\"> <head> <title> Demo </title> <style>p{color:red}.note{margin:0}</style> </head> "
    + "<body> <p class=\"note\">Hello, <b>world</b>!</p> <pre>  two  spaces\n    kept </pre> <textarea name=\"t\">  as  typed </textarea> "
    + "<input name=\"q\"> <script>function greet(e){return\"Hello \"+e}console.log(greet(\"you\"))</script> </body> </html> ");
  assert.ok(code.includes("<pre>  two  spaces\n    kept </pre>"), "the <pre> whitespace, byte for byte");
  // The same through the page's entry point.
  assert.deepEqual(await minify("html", PAGE, DEFAULTS), { code, warnings });
});

test("HTML: attributes' CSS and JS, and every option off", async () => {
  assert.deepEqual(await minifyHtml("<p  onclick=\"  return  check( 1 );\"  style=\"color: red ; margin: 0px\">x</p>"),
    { code: "<p onclick=\"return check(1)\" style=\"color:red;margin:0\">x</p>", warnings: [] });
  const off = { collapseWhitespace: false, removeComments: false, minifyInline: false, removeRedundant: false };
  assert.deepEqual(await minifyHtml("<!-- c -->\n<p>a</p>  <p>b</p>\n<script type=\"text/javascript\">var  x = 1;</script>", off),
    { code: "<!-- c -->\n<p>a</p>  <p>b</p>\n<script type=\"text/javascript\">var  x = 1;</script>", warnings: [] });
});

test("HTML: an inline script or style that cannot be read is left unminified, and said where", async () => {
  const { code, warnings } = await minifyHtml("<p>x</p>\n<script>\n  let ok = 1;\n  let broken = ;\n</script>\n<style>\n.a { & .b { color: red } }\n</style>\n");
  assert.ok(code.includes("let broken = ;"), code);
  assert.ok(code.includes(".a { & .b { color: red } }"), code);
  assert.deepEqual(warnings, [
    { kind: "js", reason: "Unexpected token: punc (;)", line: 4, column: 16 },
    { kind: "css", reason: "Identifier is expected", line: 7, column: 7 },
  ]);
});

test("HTML: markup that cannot be read gives its line and column", async () => {
  await assert.rejects(minifyHtml("<main>\n  <p>fine</p>\n  <div <p>broken</p>\n</main>\n"), failsAt("html", 3, 3, /<div <p>broken/));
  await assert.rejects(minify("html", "<p>a</p>\n<"), failsAt("html", 2, 1));
});

test("minify() dispatches by kind and always says what it kept aside", async () => {
  assert.deepEqual(await minify("css", STYLESHEET), { warnings: [], code: "a,b{color:red}b{margin:0}" });
  assert.deepEqual(await minify("js", SCRIPT, { js: { mangle: false, keepConsole: true, module: null } }),
    { warnings: [], code: "function add(first,second){return first+second}console.log(add(1,2));", module: false });
  await assert.rejects(minify("txt", "x"), /unknown kind/);
});
