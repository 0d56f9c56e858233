// /local/qr in Chromium, offline (the runner cuts the network once the page has loaded): a link,
// a Wi-Fi network and a contact, each saved as a PNG that jsQR decodes to exactly the text
// shown in the page; the SVG saved is an SVG that decodes too once drawn; the error correction
// level changes the code's size; too much text is refused in words.
import assert from "node:assert/strict";
import jsQR from "jsqr";
import { pagePixels, saveDownload } from "./local-files.mjs";

const URL_TEXT = "https://example.com/quire?x=1&y=été"; // 37 UTF-8 bytes
const WIFI = { ssid: `Café "Lab"; 2,4:GHz`, password: String.raw`p\w;d:1,"x"` };
const WIFI_TEXT = String.raw`WIFI:T:WPA;S:Café \"Lab\"\; 2\,4\:GHz;P:p\\w\;d\:1\,\"x\";H:true;;`;
const CONTACT = { name: "Zoé Martin", org: "Acme, Inc; R&D", phone: "+33 1 23 45 67 89", email: "zoe@example.com", url: "https://example.com/zoe" };
const CONTACT_TEXT = ["BEGIN:VCARD", "VERSION:3.0", "N:Martin;Zoé;;;", "FN:Zoé Martin", "ORG:Acme\\, Inc\\; R&D",
  "TEL:+33 1 23 45 67 89", "EMAIL:zoe@example.com", "URL:https://example.com/zoe", "END:VCARD"].join("\r\n");

// An image (PNG or SVG bytes) as the page draws it, on white, at `size` px for an SVG; then
// its width as drawn and what jsQR reads in it.
async function decode(page, bytes, type, size) {
  const image = await pagePixels(page, bytes, { type, size, background: "#fff" });
  const found = jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length), image.width, image.height);
  return { width: image.width, text: found?.data ?? null };
}

const modules = async (page) => Number(await page.getAttribute("#qr-preview", "data-modules"));
const encoded = (page) => page.$eval("#qr-text", (pre) => pre.textContent);

// The PNG saved now decodes to `text`, at the size asked for.
async function pngSays(page, text, stem) {
  const png = await saveDownload(page, "#qr-save-png");
  assert.equal(png.name, `${stem}.png`);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG");
  const read = await decode(page, png.bytes, "image/png");
  assert.equal(read.width, 400, "the PNG is the size asked for");
  assert.equal(read.text, text, `${stem}.png decodes to the text`);
}

export async function check(page, { step, shot }) {
  step("local qr: a link, shown as encoded, its PNG decodes to it");
  await page.selectOption("#qr-kind", "url");
  await page.fill("#qr-size", "400");
  await page.fill("#qr-margin", "4");
  await page.fill("#qr-url", URL_TEXT);
  await page.waitForSelector("#qr-preview[data-modules]");
  assert.equal(await encoded(page), URL_TEXT);
  assert.equal(await page.isVisible("#qr-error"), false);
  await page.waitForFunction(() => {
    const img = document.getElementById("qr-preview");
    return img.src.startsWith("blob:") && img.complete && img.naturalWidth > 0;
  });
  await pngSays(page, URL_TEXT, "qr-link");

  step("local qr: the SVG is one path in a viewBox, and decodes once drawn");
  const svg = await saveDownload(page, "#qr-save-svg");
  assert.equal(svg.name, "qr-link.svg");
  const markup = svg.bytes.toString("utf8");
  assert.ok(markup.startsWith("<svg"), markup.slice(0, 80));
  const count = await modules(page);
  assert.match(markup, new RegExp(`viewBox="0 0 ${count + 8} ${count + 8}"`));
  assert.equal(markup.match(/<path /g)?.length, 1, "one path");
  assert.ok(markup.trimEnd().endsWith("</svg>"));
  assert.equal((await decode(page, svg.bytes, "image/svg+xml", 400)).text, URL_TEXT, "the SVG decodes to the link");

  step("local qr: the error correction level sets the code's size");
  const sizes = {};
  for (const level of ["L", "M", "Q", "H"]) {
    await page.selectOption("#qr-level", level);
    sizes[level] = await modules(page);
  }
  // 37 bytes: version 3 at L and M, 4 at Q, 5 at H.
  assert.deepEqual(sizes, { L: 29, M: 29, Q: 33, H: 37 });
  await pngSays(page, URL_TEXT, "qr-link");
  await page.selectOption("#qr-level", "M");

  step("local qr: a Wi-Fi network, its special characters escaped");
  await page.selectOption("#qr-kind", "wifi");
  assert.equal(await page.isVisible("#qr-url"), false);
  await page.fill("#qr-wifi-ssid", WIFI.ssid);
  await page.fill("#qr-wifi-password", WIFI.password);
  await page.selectOption("#qr-wifi-security", "WPA");
  await page.check("#qr-wifi-hidden");
  assert.equal(await encoded(page), WIFI_TEXT);
  await shot(page, "wifi");
  await pngSays(page, WIFI_TEXT, "qr-wifi");
  // An open network: no password in the code, the field disabled.
  await page.selectOption("#qr-wifi-security", "nopass");
  assert.equal(await page.isDisabled("#qr-wifi-password"), true);
  assert.equal(await encoded(page), String.raw`WIFI:T:nopass;S:Café \"Lab\"\; 2\,4\:GHz;H:true;;`);
  await page.selectOption("#qr-wifi-security", "WPA");

  step("local qr: a contact as a vCard 3.0");
  await page.selectOption("#qr-kind", "vcard");
  await page.fill("#qr-vcard-name", CONTACT.name);
  await page.fill("#qr-vcard-org", CONTACT.org);
  await page.fill("#qr-vcard-phone", CONTACT.phone);
  await page.fill("#qr-vcard-email", CONTACT.email);
  await page.fill("#qr-vcard-url", CONTACT.url);
  assert.equal(await encoded(page), CONTACT_TEXT);
  await pngSays(page, CONTACT_TEXT, "qr-contact");
  await shot(page, "vcard");

  step("local qr: more than a QR code holds is refused in words");
  await page.selectOption("#qr-kind", "url");
  await page.selectOption("#qr-level", "H");
  await page.fill("#qr-url", `https://example.com/${"x".repeat(1400)}`);
  await page.waitForSelector("#qr-error:not([hidden])");
  assert.equal(await page.isDisabled("#qr-save-png"), true);
  assert.equal(await page.isVisible("#qr-preview"), false);
  await page.fill("#qr-url", URL_TEXT);
  await page.waitForSelector("#qr-error", { state: "hidden" });
  assert.equal(await modules(page), 37);
}
