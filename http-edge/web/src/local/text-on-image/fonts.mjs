// The typefaces, inside the script: esbuild's binary loader turns each .woff2 (from npm,
// @fontsource, latin subset: U+0000–00FF, Œ œ, € and the typographic punctuation, enough for
// "é à ç ü ß") into a Uint8Array. Registered with the page's FontFaceSet, so the canvas draws
// with them and nothing is fetched: the page works with the network cut.
import bebas400 from "@fontsource/bebas-neue/files/bebas-neue-latin-400-normal.woff2";
import caveat400 from "@fontsource/caveat/files/caveat-latin-400-normal.woff2";
import caveat700 from "@fontsource/caveat/files/caveat-latin-700-normal.woff2";
import inter400 from "@fontsource/inter/files/inter-latin-400-normal.woff2";
import inter700 from "@fontsource/inter/files/inter-latin-700-normal.woff2";
import playfair400 from "@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff2";
import playfair700 from "@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2";
import { FAMILIES } from "./families.mjs";

const BYTES = {
  "Inter 400": inter400,
  "Inter 700": inter700,
  "Playfair Display 400": playfair400,
  "Playfair Display 700": playfair700,
  "Bebas Neue 400": bebas400,
  "Caveat 400": caveat400,
  "Caveat 700": caveat700,
};

let ready = null;

/// Resolves once every bundled face is parsed and in document.fonts (once per page: later calls
/// get the same promise). Text drawn before that would come out in a fallback font.
export function loadFonts() {
  ready ??= Promise.all(FAMILIES.flatMap(({ family, weights }) => weights.map(async (weight) => {
    const bytes = BYTES[`${family} ${weight}`];
    if (!bytes) throw new Error(`${family} ${weight} is not bundled`);
    const face = new FontFace(family, bytes, { weight: String(weight), style: "normal", display: "block" });
    document.fonts.add(face);
    await face.load();
  })));
  return ready;
}
