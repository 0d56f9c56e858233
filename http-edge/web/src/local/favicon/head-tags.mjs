// The <link> tags to paste in a page's <head>, as current practice has them (2024-): the ICO
// for old browsers and feed readers, marked sizes="32x32" so that browsers which read SVG pick
// the SVG instead of the ICO; the SVG icon when the source was one; the Apple touch icon (iOS
// reads no manifest icons); the manifest for everything else. Pure, for the node tests.

/// The tags, one per line. `svg`: whether favicon.svg is part of the set.
export function headTags({ svg = false } = {}) {
  return [
    '<link rel="icon" href="/favicon.ico" sizes="32x32">',
    svg && '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    '<link rel="apple-touch-icon" href="/apple-touch-icon.png">',
    '<link rel="manifest" href="/site.webmanifest">',
  ].filter(Boolean).join("\n") + "\n";
}
