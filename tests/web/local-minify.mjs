// /local/minify in Chromium, offline (the runner cuts the network once the page has loaded): a
// stylesheet and the page that uses it are pasted and minified, each exactly as the tool's own
// module minifies them in node; then, in the page, the page's body is drawn with the original
// CSS, with the minified CSS, and minified with the minified CSS (each in a shadow root whose
// sheet is a constructed stylesheet: the CSP blocks inline <style>, not adoptedStyleSheets),
// and every element's computed style (every property) and box must be identical. A script is
// minified and run in node's vm beside the original: same output. The sizes shown are the
// real UTF-8 byte counts; a syntax error is told with its line and column; files give one
// download each and a ZIP.
import assert from "node:assert/strict";
import vm from "node:vm";
import zlib from "node:zlib";
import { saveDownload, unzip } from "./local-files.mjs";
// The tool's own module (terser, csso and html-minifier-terser from http-edge/web's lockfile):
// what the page shows must be what it gives.
import { minify } from "../../http-edge/web/src/local/minify/minifiers.mjs";

const CSS = `/* Site styles: csso merges and shortens these; the page must look the same. */
.page {
  --accent: #cc0000;
  font-family: Georgia, "Times New Roman", serif;
  color: #333333;
  padding: 16px 16px 16px 16px;
  max-width: 640px;
}
.page h1 { color: var(--accent); font-size: 2em; margin: 0px 0px 12px 0px; }
.page h1 { letter-spacing: 0.05em; }
.card {
  border: 1px solid #dddddd;
  border-radius: 8px;
  padding: 12px;
  margin-bottom: 12px;
  background-color: #ffffff;
}
.card.featured { border-color: var(--accent); background: #fff8f8; }
.card h2, .card h3 { font-weight: bold; }
.card h2 { font-size: 1.25em; margin: 0 0 8px; }
.card p { line-height: 1.5; margin: 0 0 8px 0; }
.tags { list-style: none; padding: 0; margin: 0; display: flex; gap: 4px; }
.tags li { background: #eeeeee; padding: 2px 6px; border-radius: 4px; font-size: 0.875em; }
.tags li:first-child { font-weight: bold; }
a { color: var(--accent); text-decoration: underline; }
a:hover { text-decoration: none; }
.note::before { content: "→ "; color: #999999; }
.note { font-style: italic; color: #666666; }
.grid { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8px; }
@media (min-width: 600px) {
  .grid { grid-template-columns: repeat(3, 1fr); }
  .card { padding: 16px; }
}
@media (max-width: 400px) {
  .tags { display: none; }
}
.receipt { font-family: monospace; background: #f4f4f4; padding: 8px; }
.hidden { display: none !important; }
.button { display: inline-block; padding: 6px 12px; border: 2px solid transparent; color: white; background: #0055aa; }
.button.secondary { background-color: transparent; color: #0055aa; border-color: #0055aa; }
`;

// No style attribute and no <style> in the body: the page's CSP would refuse them (and log it).
const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Shop — orders</title>
  <link rel="stylesheet" type="text/css" href="site.css">
</head>
<body>
  <!-- The page the stylesheet styles -->
  <main class="page">
    <h1>Orders   this week</h1>
    <p class="note">Totals include   tax.</p>
    <div class="grid">
      <article class="card featured">
        <h2>Order A-1</h2>
        <p>Three books and   a lamp.</p>
        <ul class="tags"><li>books</li> <li>home</li></ul>
        <a class="button" href="#a1">Open</a>
      </article>
      <article class="card">
        <h2>Order B-2</h2>
        <p>Ten pens, <em>gift-wrapped</em>.</p>
        <ul class="tags">
          <li>office</li>
        </ul>
        <a href="#b2">Details</a>
      </article>
      <article class="card">
        <h3>Order C-3</h3>
        <p>Waiting for payment.</p>
      </article>
    </div>
    <pre class="receipt">  A-1   59.97
  B-2   40.50</pre>
    <form method="get" action="#search"><input type="text" name="q"> <button type="submit" class="button secondary">Search</button></form>
    <p class="hidden">Not shown</p>
  </main>
  <script type="text/javascript">
    // Counts the cards.
    var cards = document.querySelectorAll(".card");
    console.log("cards:", cards.length);
  </script>
</body>
</html>
`;

const SCRIPT = `// Order totals, with tax and a discount: the minified copy must print the same.
const TAX_RATE = 0.2;
function lineTotal(item) {
  const subtotal = item.price * item.quantity;
  return Math.round(subtotal * (1 + TAX_RATE) * 100) / 100;
}
function orderTotal(order) {
  let total = 0;
  for (const item of order.items) {
    total += lineTotal(item);
  }
  if (order.coupon === "WELCOME10") {
    total = total * 0.9;
  }
  return total.toFixed(2);
}
const orders = [
  { id: "A-1", items: [{ price: 9.99, quantity: 3 }, { price: 25, quantity: 1 }], coupon: null },
  { id: "B-2", items: [{ price: 4.5, quantity: 10 }], coupon: "WELCOME10" },
];
for (const order of orders) {
  console.log(\`\${order.id}: \${orderTotal(order)} €\`);
}
console.log(orders.map((o) => o.items.length).reduce((a, b) => a + b, 0), "items in all");
`;

const BROKEN = "const list = [1, 2];\nfor (const item of list) {\n  console.log(item * 2;\n}\n";

// Pastes `text` as `kind`, presses Minify and waits for this run's results.
async function minifyPasted(page, kind, text) {
  await page.fill("#min-text", text);
  await page.selectOption("#min-kind", kind);
  await runAndWait(page, () => page.click("#min-run"));
}

async function runAndWait(page, action) {
  const before = Number(await page.getAttribute("#min-results", "data-run"));
  await action();
  await page.waitForFunction((n) => Number(document.getElementById("min-results").dataset.run) > n, before, { timeout: 60_000 });
}

const output = (page, n = 0) => page.inputValue(`#min-output-${n}`);

// The sizes shown for result `n` are the real UTF-8 byte counts of `original` and `minified`,
// the saving rounded as shown, and gzip near node's (Chromium's zlib is not byte-identical).
async function sizesMatch(page, original, minified, n = 0) {
  const before = Buffer.byteLength(original);
  const after = Buffer.byteLength(minified);
  assert.ok(before > original.length || !/[^\x00-\x7f]/.test(original), "a non-ASCII text counts bytes, not characters");
  assert.equal(Number(await page.getAttribute(`#min-sizes-${n}`, "data-before")), before);
  assert.equal(Number(await page.getAttribute(`#min-sizes-${n}`, "data-after")), after);
  const line = await page.textContent(`#min-sizes-${n}`);
  assert.ok(line.includes(`${before.toLocaleString("en-US")} → ${after.toLocaleString("en-US")} bytes`), line);
  const saving = Math.round((1 - after / before) * 1000) / 10;
  assert.ok(line.includes(`−${saving.toFixed(saving % 1 ? 1 : 0)} %`), `${line} (saving ${saving})`);
  for (const [attribute, text] of [["data-before", original], ["data-after", minified]]) {
    const shown = Number(await page.getAttribute(`#min-gzip-${n}`, attribute));
    const node = zlib.gzipSync(Buffer.from(text)).length;
    assert.ok(Math.abs(shown - node) <= Math.max(8, node * 0.05), `gzip ${attribute}: ${shown} in the page, ${node} in node`);
  }
  assert.match(await page.textContent(`#min-gzip-${n}`), /^gzip: .+ → .+ bytes\), −\d/);
}

// In the page: `markup`'s body drawn in a shadow root styled by `css` (a constructed sheet),
// for each render; every element's computed style (all properties, the custom one, ::before
// and ::after) and box, relative to its host, compared with the first render's.
function compareRenders(page, renders) {
  return page.evaluate((renders) => {
    const hosts = renders.map(({ markup, css }) => {
      const doc = new DOMParser().parseFromString(markup, "text/html"); // inert: nothing loads, nothing runs
      for (const script of doc.querySelectorAll("script")) script.remove();
      const host = document.createElement("div");
      host.style.width = "800px";
      document.body.append(host);
      const shadow = host.attachShadow({ mode: "open" });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      shadow.adoptedStyleSheets = [sheet];
      shadow.append(...doc.body.childNodes);
      return host;
    });
    const snapshot = (host) => {
      const origin = host.getBoundingClientRect();
      return [...host.shadowRoot.querySelectorAll("*")].map((element) => {
        const style = getComputedStyle(element);
        const properties = {};
        for (let i = 0; i < style.length; i++) properties[style[i]] = style.getPropertyValue(style[i]);
        properties["--accent"] = style.getPropertyValue("--accent");
        for (const pseudo of ["::before", "::after"]) {
          const p = getComputedStyle(element, pseudo);
          for (const name of ["content", "color", "display"]) properties[`${pseudo} ${name}`] = p.getPropertyValue(name);
        }
        const r = element.getBoundingClientRect();
        // An element not rendered (display: none) has an all-zero rectangle wherever its host is.
        const unrendered = !r.x && !r.y && !r.width && !r.height;
        return { tag: element.tagName, properties, box: unrendered ? "none" : [r.x - origin.x, r.y - origin.y, r.width, r.height].join(",") };
      });
    };
    const [first, ...others] = hosts.map(snapshot);
    const differences = others.map((other) => {
      const found = [];
      if (other.length !== first.length) found.push(`${other.length} elements, not ${first.length}`);
      first.forEach((a, i) => {
        const b = other[i];
        if (!b) return;
        if (a.tag !== b.tag) found.push(`#${i}: ${b.tag}, not ${a.tag}`);
        if (a.box !== b.box) found.push(`#${i} ${a.tag}: box ${b.box}, not ${a.box}`);
        for (const name of new Set([...Object.keys(a.properties), ...Object.keys(b.properties)])) {
          if (a.properties[name] !== b.properties[name]) found.push(`#${i} ${a.tag} ${name}: ${b.properties[name]}, not ${a.properties[name]}`);
        }
      });
      return found.slice(0, 20);
    });
    const h1 = hosts[0].shadowRoot.querySelector("h1");
    const facts = {
      elements: first.length,
      properties: Object.keys(first[0].properties).length,
      h1Color: getComputedStyle(h1).color,
      hiddenDisplay: getComputedStyle(hosts[0].shadowRoot.querySelector(".hidden")).display,
      noteBefore: getComputedStyle(hosts[0].shadowRoot.querySelector(".note"), "::before").content,
    };
    for (const host of hosts) host.remove();
    return { differences, facts };
  }, renders);
}

// What a script prints to console.log when run in a fresh vm context.
function printed(code) {
  const lines = [];
  vm.runInNewContext(code, { console: { log: (...args) => lines.push(args.join(" ")) } }, { timeout: 5000 });
  return lines;
}

export async function check(page, { step, shot }) {
  step("local minify: a stylesheet pasted, minified as the tool's module does, its sizes the real byte counts");
  await minifyPasted(page, "css", CSS);
  const css = await output(page);
  assert.equal(css, (await minify("css", CSS)).code, "the page's CSS is csso's with the default options");
  assert.ok(css.length < CSS.length * 0.8, `minified: ${css.length} of ${CSS.length} characters`);
  assert.ok(!css.includes("/*"), "comments gone");
  await sizesMatch(page, CSS, css);
  assert.equal(await page.isVisible("#min-error-0"), false);
  await shot(page, "css");

  step("local minify: the copy button copies the minified text");
  await page.click("#min-copy-0");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), css);

  step("local minify: the page that uses it, inline script minified, <pre> kept");
  await minifyPasted(page, "html", HTML);
  const html = await output(page);
  assert.equal(html, (await minify("html", HTML)).code, "the page's HTML is html-minifier-terser's with the default options");
  assert.ok(html.includes("<pre class=\"receipt\">  A-1   59.97\n  B-2   40.50</pre>"), "the <pre> byte for byte");
  assert.ok(!html.includes("<!--"), "comments gone");
  assert.ok(html.includes("<script>var cards=document.querySelectorAll(\".card\");console.log(\"cards:\",cards.length)</script>"), html);
  await sizesMatch(page, HTML, html);

  step("local minify: the minified CSS renders the same, and so does the minified page with it");
  await page.mouse.move(0, 0); // no :hover on the renders, drawn at the end of the page
  const { differences, facts } = await compareRenders(page, [
    { markup: HTML, css: CSS },
    { markup: HTML, css },
    { markup: html, css },
  ]);
  assert.equal(facts.h1Color, "rgb(204, 0, 0)", "the stylesheet applies in the render");
  assert.equal(facts.hiddenDisplay, "none");
  assert.equal(facts.noteBefore, "\"→ \"");
  assert.ok(facts.elements >= 25, `${facts.elements} elements compared`);
  assert.ok(facts.properties >= 200, `${facts.properties} properties per element`);
  assert.deepEqual(differences[0], [], "original page: original CSS against minified CSS");
  assert.deepEqual(differences[1], [], "original page and CSS against minified page and CSS");

  step("local minify: a script, minified, prints what the original prints");
  await minifyPasted(page, "js", SCRIPT);
  const js = await output(page);
  assert.equal(js, (await minify("js", SCRIPT)).code);
  assert.ok(js.length < SCRIPT.length * 0.7, `minified: ${js.length} of ${SCRIPT.length} characters`);
  assert.ok(!js.includes("lineTotal(item)") && !js.includes("subtotal"), "local names shortened");
  const expected = printed(SCRIPT);
  assert.deepEqual(expected, ["A-1: 65.96 €", "B-2: 48.60 €", "3 items in all"]);
  assert.deepEqual(printed(js), expected);
  await sizesMatch(page, SCRIPT, js);
  assert.match(await page.textContent("#min-result-0 .min-detected"), /classic script/);

  step("local minify: a syntax error is told with its line and column");
  await minifyPasted(page, "js", BROKEN);
  await page.waitForSelector("#min-error-0");
  assert.match(await page.textContent("#min-error-0"), /JavaScript syntax error at line 3, column 23: .+\. Nothing was minified/);
  assert.equal(await page.$("#min-output-0"), null, "no result beside the error");
  await shot(page, "error");

  step("local minify: files, one download each, all three in a ZIP");
  await runAndWait(page, () => page.setInputFiles("#min-files", [
    { name: "orders.js", mimeType: "text/javascript", buffer: Buffer.from(SCRIPT) },
    { name: "site.css", mimeType: "text/css", buffer: Buffer.from(CSS) },
    { name: "index.html", mimeType: "text/html", buffer: Buffer.from(HTML) },
  ]));
  assert.equal(await page.$$eval(".min-result", (cards) => cards.length), 3);
  const outputs = [await output(page, 0), await output(page, 1), await output(page, 2)];
  assert.deepEqual(outputs, [js, css, html], "files minified as the same text pasted");
  const one = await saveDownload(page, "#min-download-1");
  assert.equal(one.name, "site.min.css");
  assert.equal(one.bytes.toString("utf8"), css);
  const all = await saveDownload(page, "#min-download-zip");
  assert.equal(all.name, "minified.zip");
  const entries = unzip(all.bytes, all.name);
  assert.deepEqual([...entries.keys()], ["orders.min.js", "site.min.css", "index.min.html"]);
  assert.deepEqual([...entries.values()].map((bytes) => bytes.toString("utf8")), [js, css, html]);
  assert.match(await page.textContent("#min-status"), /3 files minified\./);
  await shot(page, "files");
}
