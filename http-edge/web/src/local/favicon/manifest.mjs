// site.webmanifest: what Android and desktop browsers read to install the site as an app. Pure,
// so the node tests check it. The icon paths are absolute: the files go to the site's root,
// next to favicon.ico, where head.html points too.

/// Longest short_name shown whole under an app icon on a home screen (web.dev advice: 12).
const SHORT_NAME_MAX = 12;

/// "#abc" or "#AABBCC" as "#aabbcc"; anything else (an input left empty) as `fallback`.
export function hexColour(value, fallback = "#ffffff") {
  const text = String(value ?? "").trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((c) => c + c).join("")}`;
  return fallback;
}

/// A short name that fits under an icon: the name if short, else its first word if that fits,
/// else its first characters.
export function shortName(name) {
  const whole = name.trim().replace(/\s+/g, " ");
  if ([...whole].length <= SHORT_NAME_MAX) return whole;
  const first = whole.split(" ")[0];
  if ([...first].length <= SHORT_NAME_MAX) return first;
  return [...whole].slice(0, SHORT_NAME_MAX).join("").trim();
}

/// The manifest as an object. `maskable`: also list the padded icons (drawn inside the 80 %
/// safe zone on the background), which Android crops to its own shape; the plain ones keep
/// purpose "any" so they are never cropped.
export function buildManifest({ name, fallbackName = "My site", themeColour, backgroundColour, maskable = false }) {
  const appName = String(name ?? "").trim().replace(/\s+/g, " ") || fallbackName;
  const icon = (src, size, purpose) => ({ src, sizes: `${size}x${size}`, type: "image/png", purpose });
  const icons = [icon("/icon-192.png", 192, "any"), icon("/icon-512.png", 512, "any")];
  if (maskable) icons.push(icon("/icon-maskable-192.png", 192, "maskable"), icon("/icon-maskable-512.png", 512, "maskable"));
  return {
    name: appName,
    short_name: shortName(appName),
    icons,
    theme_color: hexColour(themeColour),
    background_color: hexColour(backgroundColour),
    display: "standalone",
  };
}

/// The manifest file's text, indented so it reads well when opened.
export const manifestText = (options) => `${JSON.stringify(buildManifest(options), null, 2)}\n`;
