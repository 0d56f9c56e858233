// The bundled typefaces as the form offers them: each family with the weights whose files are
// in the script (fonts.mjs holds the bytes). Free of imports so the Node tests can read it.
// Only these are drawn with: a system font would make the same settings give different images
// on different machines, and the page loads nothing once it is open.

/// { family (the FontFace name), label, weights (bundled, lightest first), title (the weight a
///   title gets by default) }
export const FAMILIES = [
  { family: "Inter", label: "Inter", weights: [400, 700], title: 700 },
  { family: "Playfair Display", label: "Playfair Display", weights: [400, 700], title: 700 },
  // One weight only: the form hides the weight choice for it.
  { family: "Bebas Neue", label: "Bebas Neue", weights: [400], title: 400 },
  { family: "Caveat", label: "Caveat", weights: [400, 700], title: 700 },
];

export const familyOf = (name) => FAMILIES.find((f) => f.family === name) ?? FAMILIES[0];

/// The bundled weight nearest to `weight` (a family may lack the one asked for: Bebas Neue has
/// no bold, and the browser would fake one by smearing the regular).
export function nearestWeight(name, weight) {
  const { weights } = familyOf(name);
  return weights.reduce((best, w) => (Math.abs(w - weight) < Math.abs(best - weight) ? w : best), weights[0]);
}

/// The canvas `font` string: the family quoted (names with spaces), a generic fallback for
/// characters outside the latin subset (emoji, Greek…), which the browser takes from the system.
export function fontString(name, weight, size) {
  const { family } = familyOf(name);
  return `${nearestWeight(family, weight)} ${size}px "${family}", sans-serif`;
}
