// The <meta> tags to paste in a page's <head> for link previews: Open Graph (Facebook, LinkedIn,
// Slack, Discord read it) and the twitter: tags X reads first. Pure: tested by
// test/local-og-preview.test.mjs.

/// A value as the networks read it: runs of spaces and line breaks are one space.
export const clean = (text = "") => text.replace(/\s+/g, " ").trim();

/// Text safe inside a double-quoted attribute (and anywhere in HTML): & first, then < > ".
export const escapeHtml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/// The tags for `fields` ({ title, description, imageUrl, url, siteName }), one a line, in the
/// order pages usually carry them. A tag whose value is empty is left out (an empty og:image
/// is worse than none); og:type and twitter:card are always there.
export function metaTags({ title = "", description = "", imageUrl = "", url = "", siteName = "" }) {
  const t = clean(title), d = clean(description), image = imageUrl.trim(), page = url.trim(), site = clean(siteName);
  const tags = [
    ["property", "og:title", t],
    ["property", "og:description", d],
    ["property", "og:image", image],
    ["property", "og:url", page],
    ["property", "og:type", "website"],
    ["property", "og:site_name", site],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", t],
    ["name", "twitter:description", d],
    ["name", "twitter:image", image],
  ];
  return tags.filter(([, , value]) => value !== "")
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`)
    .join("\n");
}
