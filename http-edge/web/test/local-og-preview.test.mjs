// The link preview's logic (src/local/og-preview/): the <meta> tags and their escaping, the
// cuts each card makes, the host a card shows and the warnings. The page itself (cards, the
// local image, the tags) is checked in Chromium by tests/web/local-og-preview.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { checks, isAbsoluteHttps } from "../src/local/og-preview/checks.mjs";
import { clean, escapeHtml, metaTags } from "../src/local/og-preview/meta.mjs";
import { cardText, domainOf, NETWORKS, truncate } from "../src/local/og-preview/networks.mjs";

const network = (id) => NETWORKS.find((n) => n.id === id);

test("attribute values escape & < > and double quotes, & first", () => {
  assert.equal(escapeHtml(`Tom & "Jerry" <b>'s</b> &amp;`), "Tom &amp; &quot;Jerry&quot; &lt;b&gt;'s&lt;/b&gt; &amp;amp;");
  assert.equal(clean("  a \n\t b  "), "a b");
});

test("the tags for every field, in order, escaped", () => {
  assert.equal(metaTags({
    title: `Tom & Jerry's "Big" Day`,
    description: "Cats <and> mice,\n  together",
    imageUrl: " https://example.com/card.jpg?w=1200&h=630 ",
    url: "https://example.com/a?b=1&c=2",
    siteName: "Q & A",
  }), [
    `<meta property="og:title" content="Tom &amp; Jerry's &quot;Big&quot; Day">`,
    `<meta property="og:description" content="Cats &lt;and&gt; mice, together">`,
    `<meta property="og:image" content="https://example.com/card.jpg?w=1200&amp;h=630">`,
    `<meta property="og:url" content="https://example.com/a?b=1&amp;c=2">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Q &amp; A">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="Tom &amp; Jerry's &quot;Big&quot; Day">`,
    `<meta name="twitter:description" content="Cats &lt;and&gt; mice, together">`,
    `<meta name="twitter:image" content="https://example.com/card.jpg?w=1200&amp;h=630">`,
  ].join("\n"));
});

test("empty fields leave their tags out; type and card stay", () => {
  assert.equal(metaTags({ title: "Hello", description: " ", imageUrl: "", url: "", siteName: "" }), [
    `<meta property="og:title" content="Hello">`,
    `<meta property="og:type" content="website">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="Hello">`,
  ].join("\n"));
  assert.equal(metaTags({}), `<meta property="og:type" content="website">\n<meta name="twitter:card" content="summary_large_image">`);
});

test("a cut keeps max characters, the last an ellipsis, never half an emoji", () => {
  assert.equal(truncate("short", 5), "short");
  assert.equal(truncate("abcdef", 5), "abcd…");
  assert.equal(truncate("abc def", 5), "abc…"); // the space before the ellipsis goes
  assert.equal(truncate("😀😀😀😀😀😀", 4), "😀😀😀…");
  assert.equal([...truncate("x".repeat(100), 88)].length, 88);
});

test("the host a card shows", () => {
  assert.equal(domainOf("https://www.example.com/a/b?c"), "example.com");
  assert.equal(domainOf("http://blog.example.org"), "blog.example.org");
  assert.equal(domainOf("example.com/page"), "");
  assert.equal(domainOf("ftp://example.com"), "");
  assert.equal(domainOf(""), "");
});

test("each network's card: its cuts and its site line", () => {
  const title = "A".repeat(50) + " " + "B".repeat(49); // 100 characters
  const fields = { title, description: "d".repeat(400), url: "https://www.example.com/x", siteName: "Example  Site" };
  assert.deepEqual(cardText(network("facebook"), fields),
    { title: `${"A".repeat(50)} ${"B".repeat(36)}…`, description: `${"d".repeat(99)}…`, site: "EXAMPLE.COM" });
  assert.deepEqual(cardText(network("x"), fields), { title: `${"A".repeat(50)} ${"B".repeat(18)}…`, description: "", site: "example.com" });
  assert.deepEqual(cardText(network("linkedin"), fields), { title: `${"A".repeat(50)} ${"B".repeat(18)}…`, description: "", site: "example.com" });
  assert.deepEqual(cardText(network("slack"), fields), { title, description: `${"d".repeat(199)}…`, site: "Example Site" });
  assert.deepEqual(cardText(network("discord"), fields), { title, description: `${"d".repeat(349)}…`, site: "Example Site" });
  // No site name: the host stands in.
  assert.equal(cardText(network("slack"), { ...fields, siteName: "" }).site, "example.com");
  assert.deepEqual(NETWORKS.map((n) => n.id), ["facebook", "x", "linkedin", "slack", "discord"]);
});

test("image URLs the networks can fetch", () => {
  assert.equal(isAbsoluteHttps("https://example.com/a.jpg"), true);
  assert.equal(isAbsoluteHttps("HTTPS://example.com/a.jpg"), true);
  assert.equal(isAbsoluteHttps("http://example.com/a.jpg"), false);
  assert.equal(isAbsoluteHttps("/img/a.jpg"), false);
  assert.equal(isAbsoluteHttps("//example.com/a.jpg"), false);
  assert.equal(isAbsoluteHttps("https:example.com/a.jpg"), false);
  assert.equal(isAbsoluteHttps("https://"), false);
});

const ids = (fields, image = null) => checks({ title: "", description: "", imageUrl: "", url: "", ...fields }, image).map((w) => w.id);

test("warnings: lengths, image, addresses", () => {
  assert.deepEqual(ids({ title: "x".repeat(60), description: "y".repeat(160), imageUrl: "https://e.com/i.jpg", url: "https://e.com" }), []);
  assert.deepEqual(checks({ title: "x".repeat(61), description: "y".repeat(161), imageUrl: "https://e.com/i.jpg", url: "" }, null), [
    { id: "title-long", length: 61, max: 60 },
    { id: "description-long", length: 161, max: 160 },
  ]);
  assert.deepEqual(ids({}), ["title-missing", "image-missing"]);
  assert.deepEqual(ids({ title: "t" }, { width: 1920, height: 1080 }), ["image-url-missing"]);
  assert.deepEqual(ids({ title: "t", imageUrl: "/card.jpg" }), ["image-not-https"]);
  assert.deepEqual(ids({ title: "t", imageUrl: "http://e.com/card.jpg" }), ["image-not-https"]);
  assert.deepEqual(checks({ title: "t", description: "", imageUrl: "https://e.com/c.jpg", url: "" }, { width: 800, height: 418 }),
    [{ id: "image-small", width: 800, height: 418 }]);
  assert.deepEqual(ids({ title: "t", imageUrl: "https://e.com/c.jpg", url: "example.com/page" }), ["url-not-absolute"]);
  assert.deepEqual(ids({ title: "t", imageUrl: "https://e.com/c.jpg", url: "http://example.com/page" }), []);
  // Lengths count characters as seen: spaces collapsed, an emoji is one.
  assert.deepEqual(ids({ title: `${"😀".repeat(60)}   `, imageUrl: "https://e.com/c.jpg" }), []);
});
