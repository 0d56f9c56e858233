// The QR tool's logic (src/local/qr/): the WIFI: and vCard texts with their escaping, the
// module matrix and its UTF-8 bytes, the SVG's one path and the PNG's pixel edges. The page
// itself (downloads decoded by jsQR) is checked in Chromium by tests/web/local-qr.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LEVELS, qrMatrix, TooLong, utf8Binary } from "../src/local/qr/matrix.mjs";
import { hasScheme, ready, splitName, urlPayload, vcardEscape, vcardPayload, wifiEscape, wifiPayload } from "../src/local/qr/payload.mjs";
import { edges } from "../src/local/qr/png.mjs";
import { modulesPath, qrSvg } from "../src/local/qr/svg.mjs";

test("a link is encoded as typed, trimmed; a missing scheme is noticed", () => {
  assert.equal(urlPayload("  https://example.com/a?b=1&c=2 \n"), "https://example.com/a?b=1&c=2");
  assert.equal(hasScheme("https://example.com"), true);
  assert.equal(hasScheme("mailto:a@b.c"), true);
  assert.equal(hasScheme("example.com/path"), false);
  assert.equal(hasScheme("www.example.com:8080"), false);
  assert.equal(hasScheme("localhost:3000/app"), false);
  assert.equal(hasScheme("geo:48.85,2.35"), true);
  assert.equal(hasScheme("tel:+33123456789"), true);
});

test("WIFI: values escape backslash, semicolon, comma, colon and double quote", () => {
  assert.equal(wifiEscape(String.raw`a\b;c,d:e"f'g`), String.raw`a\\b\;c\,d\:e\"f'g`);
  assert.equal(wifiEscape("plain"), "plain");
});

test("WIFI: networks, WPA, WEP, open and hidden", () => {
  assert.equal(wifiPayload({ ssid: "Home", password: "secret", security: "WPA" }), "WIFI:T:WPA;S:Home;P:secret;;");
  assert.equal(wifiPayload({ ssid: "Old", password: "12345", security: "WEP", hidden: true }), "WIFI:T:WEP;S:Old;P:12345;H:true;;");
  // An open network has no password field, even when one was typed before switching.
  assert.equal(wifiPayload({ ssid: "Café", password: "ignored", security: "nopass" }), "WIFI:T:nopass;S:Café;;");
  assert.equal(wifiPayload({ ssid: `My "Net"; 2,4:GHz`, password: String.raw`p\w;d`, security: "WPA", hidden: true }),
    String.raw`WIFI:T:WPA;S:My \"Net\"\; 2\,4\:GHz;P:p\\w\;d;H:true;;`);
  // Spaces in a network name are part of it: not trimmed.
  assert.equal(wifiPayload({ ssid: " Lab ", password: "", security: "WPA" }), "WIFI:T:WPA;S: Lab ;P:;;");
  assert.equal(wifiPayload({ ssid: "X", password: "y", security: "bogus" }), "WIFI:T:WPA;S:X;P:y;;");
});

test("vCard text values escape backslash, comma, semicolon and line breaks", () => {
  assert.equal(vcardEscape("a\\b,c;d\ne\r\nf"), "a\\\\b\\,c\\;d\\ne\\nf");
});

test("one name field gives N (family; given) and FN as typed", () => {
  assert.deepEqual(splitName("  Ada King  Lovelace "), { family: "Lovelace", given: "Ada King" });
  assert.deepEqual(splitName("Cher"), { family: "Cher", given: "" });
  assert.deepEqual(splitName(""), { family: "", given: "" });
});

test("a vCard 3.0 with CRLF lines, empty fields left out", () => {
  assert.equal(vcardPayload({ name: "Zoé Martin", org: "Acme, Inc; R&D", phone: "+33 1 23 45 67 89",
    email: "zoe@example.com", url: "https://example.com/a,b" }), [
    "BEGIN:VCARD", "VERSION:3.0", "N:Martin;Zoé;;;", "FN:Zoé Martin", "ORG:Acme\\, Inc\\; R&D",
    "TEL:+33 1 23 45 67 89", "EMAIL:zoe@example.com", "URL:https://example.com/a,b", "END:VCARD",
  ].join("\r\n"));
  assert.equal(vcardPayload({ name: "", org: "", phone: "0612", email: "", url: "" }),
    "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:\r\nTEL:0612\r\nEND:VCARD");
});

test("a code is made once the kind's form has something to encode", () => {
  assert.equal(ready("url", { url: "  " }), false);
  assert.equal(ready("url", { url: "x" }), true);
  assert.equal(ready("wifi", { ssid: "" }), false);
  assert.equal(ready("wifi", { ssid: " " }), true);
  const contact = { name: "", org: "", phone: "", email: "", url: "" };
  assert.equal(ready("vcard", contact), false);
  assert.equal(ready("vcard", { ...contact, email: "a@b.c" }), true);
});

test("text reaches the library as UTF-8 bytes", () => {
  assert.equal(utf8Binary("aé€"), "a\xc3\xa9\xe2\x82\xac");
});

test("the matrix grows with the error correction level and with the text", () => {
  const url = "https://example.com/quire?x=1"; // 29 bytes: version 2 at L, version 4 at H
  const counts = LEVELS.map((level) => qrMatrix(url, level).count);
  assert.deepEqual(counts, [25, 29, 29, 33]);
  const m = qrMatrix(url, "L");
  assert.equal(m.version, 2);
  assert.equal(m.dark.length, 25);
  assert.ok(m.dark.every((row) => row.length === 25 && row.every((v) => typeof v === "boolean")));
  // The finder pattern's corner: dark ring, light ring, dark core.
  assert.deepEqual(m.dark[0].slice(0, 8), [true, true, true, true, true, true, true, false]);
  assert.deepEqual(m.dark[3].slice(0, 7), [true, false, true, true, true, false, true]);
  // Non-ASCII text takes its UTF-8 length: 17 "é" are 34 bytes, past version 2-L's 32.
  assert.equal(qrMatrix("é".repeat(16), "L").count, 25);
  assert.equal(qrMatrix("é".repeat(17), "L").count, 29);
  assert.throws(() => qrMatrix("x".repeat(1300), "H"), TooLong);
  assert.equal(qrMatrix("x".repeat(1270), "H").count, 177);
});

test("the SVG path: one rectangle per run of dark modules, shifted by the margin", () => {
  const dark = [
    [true, true, false],
    [false, true, false],
    [true, false, true],
  ];
  assert.equal(modulesPath(dark), "M0 0h2v1h-2zM1 1h1v1h-1zM0 2h1v1h-1zM2 2h1v1h-1z");
  assert.equal(modulesPath(dark, 4), "M4 4h2v1h-2zM5 5h1v1h-1zM4 6h1v1h-1zM6 6h1v1h-1z");
  assert.equal(modulesPath([[false, false], [false, false]]), "");
  assert.equal(modulesPath([[true, true, true]]), "M0 0h3v1h-3z");
});

test("the SVG document: size, viewBox in modules, white ground, one path", () => {
  assert.equal(qrSvg([[true, false], [false, true]], { size: 300, margin: 1 }),
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 4 4" shape-rendering="crispEdges">'
    + '<rect width="4" height="4" fill="#fff"/><path d="M1 1h1v1h-1zM2 2h1v1h-1z" fill="#000"/></svg>\n');
  const svg = qrSvg(qrMatrix("https://example.com", "M").dark, { size: 512, margin: 4 });
  assert.match(svg, /viewBox="0 0 33 33"/); // version 2 (25 modules) and 4 each side
  assert.equal(svg.match(/<path /g).length, 1);
});

test("the PNG's module edges are whole pixels that cover the size exactly", () => {
  assert.deepEqual(edges(4, 10), [0, 3, 5, 8, 10]);
  const at = edges(33, 512);
  assert.equal(at[0], 0);
  assert.equal(at[33], 512);
  const widths = at.slice(1).map((x, i) => x - at[i]);
  assert.ok(widths.every((w) => w === 15 || w === 16), widths.join());
});
