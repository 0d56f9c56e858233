// /local/og-preview in Chromium, offline (the runner cuts the network once the page has loaded):
// a long title cut per network with its warning, a local image (fixtures/landscape.jpg, 1920 ×
// 1080) shown in every card from a blob: URL and cropped to 1.91:1, the warnings on the image
// URL, and the <meta> tags exactly as expected, escaped.
import assert from "node:assert/strict";
import { fixture } from "./local-files.mjs";

const FIELDS = {
  title: `Tom & Jerry's "Big" Day: how a cat and a mouse share one small flat in Paris for a year together`, // 96
  description: "Cats <and> mice & friends, in one short film.",
  imageUrl: "https://example.com/card.jpg?w=1200&h=630",
  url: "https://www.example.com/blog/big-day?ref=a&b=c",
  site: "Tom & Co",
};
const TITLE_88 = `Tom & Jerry's "Big" Day: how a cat and a mouse share one small flat in Paris for a year…`;
const TITLE_70 = `Tom & Jerry's "Big" Day: how a cat and a mouse share one small flat i…`;
const TAGS = [
  `<meta property="og:title" content="Tom &amp; Jerry's &quot;Big&quot; Day: how a cat and a mouse share one small flat in Paris for a year together">`,
  `<meta property="og:description" content="Cats &lt;and&gt; mice &amp; friends, in one short film.">`,
  `<meta property="og:image" content="https://example.com/card.jpg?w=1200&amp;h=630">`,
  `<meta property="og:url" content="https://www.example.com/blog/big-day?ref=a&amp;b=c">`,
  `<meta property="og:type" content="website">`,
  `<meta property="og:site_name" content="Tom &amp; Co">`,
  `<meta name="twitter:card" content="summary_large_image">`,
  `<meta name="twitter:title" content="Tom &amp; Jerry's &quot;Big&quot; Day: how a cat and a mouse share one small flat in Paris for a year together">`,
  `<meta name="twitter:description" content="Cats &lt;and&gt; mice &amp; friends, in one short film.">`,
  `<meta name="twitter:image" content="https://example.com/card.jpg?w=1200&amp;h=630">`,
].join("\n");
const NETWORKS = ["facebook", "x", "linkedin", "slack", "discord"];

const warnings = (page) => page.$$eval("#og-warnings li", (items) => items.map((li) => li.dataset.warning));
const text = (page, selector) => page.$eval(selector, (node) => node.textContent);

export async function check(page, { fixtures, step, shot }) {
  step("local og-preview: the cards show the title, cut where a network cuts it, with a warning");
  await page.fill("#og-title", FIELDS.title);
  await page.fill("#og-description", FIELDS.description);
  await page.fill("#og-image-url", FIELDS.imageUrl);
  await page.fill("#og-url", FIELDS.url);
  await page.fill("#og-site", FIELDS.site);
  assert.deepEqual(await warnings(page), ["title-long"]);
  assert.equal(await text(page, "#og-title-count"), "96 / 60");
  const titles = Object.fromEntries(await Promise.all(NETWORKS.map(async (n) => [n, await text(page, `#og-card-${n} .og-title`)])));
  assert.deepEqual(titles, { facebook: TITLE_88, x: TITLE_70, linkedin: TITLE_70, slack: FIELDS.title, discord: FIELDS.title });
  assert.equal(await text(page, "#og-card-facebook .og-site"), "EXAMPLE.COM");
  assert.equal(await text(page, "#og-card-slack .og-site"), "Tom & Co");
  assert.equal(await text(page, "#og-card-discord .og-description"), FIELDS.description);
  assert.equal(await page.locator("#og-card-x .og-description, #og-card-linkedin .og-description").count(), 0);
  // An image URL typed, no file: the cards say why they show no image rather than fetch it.
  assert.equal(await page.locator(".og-card img.og-img:visible").count(), 0);
  assert.equal(await page.locator(".og-card .og-placeholder:visible").count(), 5);

  step("local og-preview: the exact <meta> tags, escaped");
  assert.equal(await page.inputValue("#og-tags"), TAGS);
  await page.click("#og-copy");
  await page.waitForFunction(() => document.getElementById("og-copy-status").textContent !== "");
  assert.match(await text(page, "#og-copy-status"), /^(Copied|Selected|Copié|Sélectionné)/);

  step("local og-preview: a local image in every card, from a blob: URL, cropped to 1.91:1");
  await page.setInputFiles("#og-image-file", fixture(fixtures, "landscape.jpg"));
  await page.waitForFunction(() => {
    const images = [...document.querySelectorAll(".og-card img.og-img")];
    return images.length === 5 && images.every((img) => !img.hidden && img.src.startsWith("blob:") && img.complete && img.naturalWidth > 0);
  });
  assert.match(await text(page, "#og-image-info"), /landscape\.jpg: 1920 × 1080 px/);
  const shown = await page.$$eval(".og-card img.og-img", (images) => images.map((img) => {
    const box = img.getBoundingClientRect();
    return { natural: img.naturalWidth, fit: getComputedStyle(img).objectFit, ratio: box.width / box.height, width: box.width };
  }));
  for (const image of shown) {
    assert.equal(image.natural, 1920);
    assert.equal(image.fit, "cover");
    assert.ok(image.width > 100 && Math.abs(image.ratio - 1.91) < 0.03, JSON.stringify(image));
  }
  assert.equal(await page.locator(".og-card .og-placeholder:visible").count(), 0);
  assert.deepEqual(await warnings(page), ["title-long"], "a 1920 × 1080 image is large enough");
  assert.equal(await page.inputValue("#og-tags"), TAGS, "the local file does not change the tags");
  await shot(page, "cards");

  step("local og-preview: warnings on the description and the image URL");
  await page.fill("#og-title", "Tom & Jerry");
  await page.fill("#og-description", "abcdefghij".repeat(17)); // 170 characters, no space to drop before the cut
  assert.deepEqual(await warnings(page), ["description-long"]);
  assert.equal([...await text(page, "#og-card-facebook .og-description")].length, 100);
  assert.ok((await text(page, "#og-card-facebook .og-description")).endsWith("…"));
  await page.fill("#og-description", FIELDS.description);
  await page.fill("#og-image-url", "/img/card.jpg");
  assert.deepEqual(await warnings(page), ["image-not-https"]);
  await page.fill("#og-image-url", "http://example.com/card.jpg");
  assert.deepEqual(await warnings(page), ["image-not-https"]);
  await page.fill("#og-image-url", "");
  assert.deepEqual(await warnings(page), ["image-url-missing"]);
  assert.ok(!(await page.inputValue("#og-tags")).includes("og:image"));

  step("local og-preview: the image removed");
  await page.click("#og-image-clear");
  assert.equal(await page.locator(".og-card img.og-img:visible").count(), 0);
  assert.deepEqual(await warnings(page), ["image-missing"]);
  await shot(page, "warnings");
}
