// The favicon tool's pure logic (src/local/favicon/): the ICO container parsed back, the
// manifest, the <head> tags, where the image sits on the icon, and the size of an SVG.
import assert from "node:assert/strict";
import { test } from "node:test";
import { headTags } from "../src/local/favicon/head-tags.mjs";
import { writeIco } from "../src/local/favicon/ico.mjs";
import { fitBox } from "../src/local/favicon/layout.mjs";
import { buildManifest, hexColour, manifestText, shortName } from "../src/local/favicon/manifest.mjs";
import { isSvgText, sizedSvg, svgLength, svgSize } from "../src/local/favicon/svg-size.mjs";

/// A fake PNG: the signature, an IHDR chunk with `size` × `size`, then `extra` filler bytes.
function fakePng(size, extra = 0) {
  const out = new Uint8Array(33 + extra);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(out.buffer);
  view.setUint32(8, 13);
  out.set([...'IHDR'].map((c) => c.charCodeAt(0)), 12);
  view.setUint32(16, size);
  view.setUint32(20, size);
  out.fill(size & 0xff, 33);
  return out;
}

/// The ICO's header and entries, read back as the spec has them.
function readIco(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(4, true);
  const entries = Array.from({ length: count }, (_, i) => {
    const at = 6 + 16 * i;
    return {
      width: view.getUint8(at), height: view.getUint8(at + 1), colours: view.getUint8(at + 2), reserved: view.getUint8(at + 3),
      planes: view.getUint16(at + 4, true), bits: view.getUint16(at + 6, true), size: view.getUint32(at + 8, true), offset: view.getUint32(at + 12, true),
    };
  });
  return { reserved: view.getUint16(0, true), type: view.getUint16(2, true), count, entries };
}

test("the ICO has its header, one entry per image, and the PNGs back to back", () => {
  const pngs = [fakePng(16, 5), fakePng(32, 40), fakePng(48, 100)];
  const ico = writeIco(pngs.map((png, i) => ({ size: [16, 32, 48][i], png })));
  const { reserved, type, count, entries } = readIco(ico);
  assert.deepEqual([reserved, type, count], [0, 1, 3]);
  let offset = 6 + 16 * 3;
  entries.forEach((entry, i) => {
    const size = [16, 32, 48][i];
    assert.deepEqual(entry, { width: size, height: size, colours: 0, reserved: 0, planes: 1, bits: 32, size: pngs[i].length, offset });
    assert.deepEqual(ico.subarray(entry.offset, entry.offset + entry.size), pngs[i]);
    // The PNG's own IHDR says the same size as the entry.
    assert.equal(new DataView(ico.buffer, entry.offset + 16, 8).getUint32(0), size);
    offset += entry.size;
  });
  assert.equal(ico.length, offset, "nothing after the last image");
});

test("a 256-pixel image is written as 0 in the one-byte width and height", () => {
  const { entries } = readIco(writeIco([{ size: 256, png: fakePng(256) }]));
  assert.equal(entries[0].width, 0);
  assert.equal(entries[0].height, 0);
});

test("the ICO writer refuses what it cannot write", () => {
  assert.throws(() => writeIco([]), /1 to 65535/);
  assert.throws(() => writeIco([{ size: 300, png: fakePng(16) }]), /1 to 256/);
  assert.throws(() => writeIco([{ size: 16, png: new Uint8Array([1, 2, 3]) }]), /not a PNG/);
});

test("the manifest lists the two icons for any use, and the maskable ones when asked", () => {
  const plain = buildManifest({ name: "  Quire   Docs ", themeColour: "#2553D8", backgroundColour: "#fff" });
  assert.deepEqual(plain, {
    name: "Quire Docs",
    short_name: "Quire Docs",
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    ],
    theme_color: "#2553d8",
    background_color: "#ffffff",
    display: "standalone",
  });
  const masked = buildManifest({ name: "", fallbackName: "Mon site", themeColour: "nonsense", backgroundColour: "#000000", maskable: true });
  assert.equal(masked.name, "Mon site");
  assert.equal(masked.theme_color, "#ffffff");
  assert.deepEqual(masked.icons.map((i) => [i.src, i.sizes, i.purpose]), [
    ["/icon-192.png", "192x192", "any"], ["/icon-512.png", "512x512", "any"],
    ["/icon-maskable-192.png", "192x192", "maskable"], ["/icon-maskable-512.png", "512x512", "maskable"],
  ]);
  const text = manifestText({ name: 'A "quoted" </script> name', themeColour: "#123456", backgroundColour: "#abcdef" });
  assert.equal(JSON.parse(text).name, 'A "quoted" </script> name');
  assert.ok(text.endsWith("}\n"));
});

test("short names fit under an icon", () => {
  assert.equal(shortName("Quire"), "Quire");
  assert.equal(shortName("Quire Documentation Portal"), "Quire");
  assert.equal(shortName("Supercalifragilistic app"), "Supercalifra");
  assert.equal(shortName("Éléphant rose"), "Éléphant");
  assert.equal(shortName("Été à Noël 2"), "Été à Noël 2", "counted in characters, not UTF-16 units or bytes");
  assert.equal(hexColour("#AbC"), "#aabbcc");
  assert.equal(hexColour("red", "#000000"), "#000000");
});

test("the head tags: the ICO marked 32x32, the SVG only when there is one", () => {
  assert.equal(headTags({ svg: false }), [
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    '<link rel="manifest" href="/site.webmanifest">',
    "",
  ].join("\n"));
  const svg = headTags({ svg: true }).split("\n");
  assert.equal(svg[1], '<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  assert.equal(svg.length, 5);
});

test("the image is centred whole, in whole pixels, inside the padding and the safe zone", () => {
  assert.deepEqual(fitBox(16, 600, 600), { x: 0, y: 0, width: 16, height: 16 });
  assert.deepEqual(fitBox(16, 600, 300), { x: 0, y: 4, width: 16, height: 8 });
  assert.deepEqual(fitBox(32, 100, 400), { x: 12, y: 0, width: 8, height: 32 });
  assert.deepEqual(fitBox(100, 50, 50, { padding: 10 }), { x: 10, y: 10, width: 80, height: 80 });
  assert.deepEqual(fitBox(500, 10, 10, { maskable: true }), { x: 50, y: 50, width: 400, height: 400 });
  assert.deepEqual(fitBox(500, 10, 10, { maskable: true, padding: 20 }), { x: 130, y: 130, width: 240, height: 240 });
  assert.deepEqual(fitBox(100, 10, 10, { padding: 90 }), fitBox(100, 10, 10, { padding: 20 }), "padding capped at 20 %");
  assert.deepEqual(fitBox(16, 1000, 1), { x: 0, y: 8, width: 16, height: 1 }, "never less than a pixel");
});

test("an SVG's size from width/height, from the viewBox, or unknown", () => {
  const viewBoxOnly = '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32"><path d="M0 0h64v32z"/></svg>';
  assert.ok(isSvgText(viewBoxOnly));
  assert.ok(isSvgText('\uFEFF<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg/>'));
  assert.ok(!isSvgText("<html><body><svg></svg></body></html>"));
  assert.ok(!isSvgText("hello"));
  assert.deepEqual(svgSize(viewBoxOnly), { width: 64, height: 32 });
  assert.deepEqual(svgSize('<svg width="100px" height="50" viewBox="0 0 1 1"/>'), { width: 100, height: 50 });
  assert.deepEqual(svgSize('<svg width="100%" height="100%" viewBox="0,0,24,12"/>'), { width: 24, height: 12 });
  assert.deepEqual(svgSize('<svg width="48" viewBox="0 0 24 12"/>'), { width: 48, height: 24 });
  assert.deepEqual(svgSize('<svg width="1in" height="72pt"/>'), { width: 96, height: 96 });
  assert.equal(svgSize('<svg width="10em" height="10em"/>'), null);
  assert.equal(svgSize('<svg viewBox="0 0 0 10"/>'), null);
  assert.equal(svgLength("-3"), null);
});

test("an SVG rewritten to an exact size keeps its drawing, scaled not cropped", () => {
  const viewBoxOnly = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32" stroke-width="2"><g width="9"/></svg>';
  const sized = sizedSvg(viewBoxOnly, 16, 8);
  assert.equal(sized, '<svg width="16" height="8" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 32" stroke-width="2"><g width="9"/></svg>');
  assert.deepEqual(svgSize(sized), { width: 16, height: 8 });
  // Without a viewBox, one is added from the size it had, so the drawing scales.
  const fixed = sizedSvg("<svg width='100' height='50' data-x='a>b'>\n</svg>", 32, 16);
  assert.equal(fixed, "<svg width=\"32\" height=\"16\" viewBox=\"0 0 100 50\" data-x='a>b'>\n</svg>");
  assert.equal(sizedSvg("<svg/>", 10.12345, 5, { width: 300, height: 150 }), '<svg width="10.123" height="5" viewBox="0 0 300 150"/>');
});
