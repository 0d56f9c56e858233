// The safe-area guides: per format of ../social-resize/formats.mjs, the part of the image that
// each network shows uncovered everywhere, where the text is wrapped and laid out. Drawn on the
// preview only (draw.mjs), never in the exported file. Free of imports for the Node tests,
// which check every guide lies inside its canvas.
//
// { safe: { x, y, w, h } (the text goes here), round (the safe area is the circle inscribed in
//   `safe`), avoid: [{ x, y, w, h, en, fr }] (covered by the network's own interface on some
//   screens: text there is warned about), areas: [{ x, y, w, h, en, fr }] (other crops, drawn
//   as outlines for information), en, fr (the legend), source (who says so) }
// Pixel values are for the format's own size (w × h in formats.mjs).

export const GUIDES = {
  "instagram-square": {
    // 1080 × 1080 → the middle 3:4 is 810 × 1080.
    safe: { x: 135, y: 0, w: 810, h: 1080 },
    en: "Profile grid: only the middle 3:4 shows.", fr: "Grille du profil : seul le centre en 3:4 est visible.",
    source: "Instagram (January 2025): profile grids show posts as 3:4 thumbnails, cropping the sides of square and 4:5 posts",
  },
  "instagram-portrait": {
    // 1080 × 1350 → 3:4 of 1350 is 1012.5 wide: 1012 centred.
    safe: { x: 34, y: 0, w: 1012, h: 1350 },
    en: "Profile grid: only the middle 3:4 shows.", fr: "Grille du profil : seul le centre en 3:4 est visible.",
    source: "Instagram (January 2025): profile grids show posts as 3:4 thumbnails",
  },
  story: {
    safe: { x: 0, y: 250, w: 1080, h: 1330 },
    avoid: [
      { x: 0, y: 0, w: 1080, h: 250, en: "the profile name and progress bar", fr: "le nom du profil et la barre de progression" },
      { x: 0, y: 1580, w: 1080, h: 340, en: "the reply box, caption and buttons", fr: "la zone de réponse, la légende et les boutons" },
    ],
    en: "Stories and Reels: the top 250 px and bottom 340 px are under the app's controls.",
    fr: "Stories et Reels : les 250 px du haut et les 340 px du bas sont sous les commandes de l'appli.",
    source: "Meta Business Help (Stories and Reels safe zones, 1080 × 1920): keep text and logos out of the top 250 px and the bottom 340 px",
  },
  "link-preview": {
    // 1200 × 630 shown at 2:1 is 1200 × 600: 15 px off the top and the bottom.
    safe: { x: 0, y: 15, w: 1200, h: 600 },
    en: "Link cards on X are 2:1: a thin strip goes at the top and bottom.", fr: "Les cartes de lien sur X sont en 2:1 : une fine bande disparaît en haut et en bas.",
    source: "X Developer docs, summary_large_image card: images shown at 2:1",
  },
  "x-post": {
    safe: { x: 0, y: 0, w: 1600, h: 900 },
    en: "Shown whole in the timeline.", fr: "Affichée en entier dans le fil.",
    source: "X Help Center: single 16:9 images are shown uncropped in the timeline",
  },
  "linkedin-cover": {
    // The profile photo overlaps the cover, but at a place that changes with the layout (lower
    // left on computers, centred on the app): no single area to draw.
    safe: { x: 0, y: 0, w: 1584, h: 396 },
    en: "The profile photo covers part of it, lower left on computers.", fr: "La photo de profil en couvre une partie, en bas à gauche sur ordinateur.",
    source: "LinkedIn Help: background photo 1584 × 396",
  },
  "facebook-cover": {
    // 820 × 312 on computers, 640 × 360 on phones: the phone keeps 624 × 640 / 360 ≈ 1109 of
    // the 1640 pixels, centred ((1640 − 1110) / 2 = 265).
    safe: { x: 265, y: 0, w: 1110, h: 624 },
    areas: [{ x: 0, y: 0, w: 1640, h: 624, en: "computers", fr: "ordinateurs" }],
    en: "Phones show only the middle 16:9.", fr: "Les téléphones n'en montrent que le centre en 16:9.",
    source: "Facebook Help Center: cover photos display at 820 × 312 on computers and 640 × 360 on smartphones",
  },
  "x-header": {
    safe: { x: 0, y: 0, w: 1500, h: 500 },
    // x.com's profile: the photo is a quarter of the header's width (375 px here), 16/600 of it
    // from the left (40 px) and rises 15 % of the width (225 px) into the header. Approximate:
    // measured on the web layout, X does not publish it.
    avoid: [{ x: 40, y: 275, w: 375, h: 225, en: "the profile photo", fr: "la photo de profil" }],
    en: "The profile photo covers the lower left.", fr: "La photo de profil couvre le coin inférieur gauche.",
    source: "X Help Center: header 1500 × 500; the photo's place measured on x.com's profile layout",
  },
  "youtube-thumbnail": {
    safe: { x: 0, y: 0, w: 1280, h: 720 },
    // The duration stamp, at its size on a 1280-pixel thumbnail (approximate, measured).
    avoid: [{ x: 1100, y: 630, w: 180, h: 90, en: "the video's duration", fr: "la durée de la vidéo" }],
    en: "The video's length is shown at the lower right.", fr: "La durée de la vidéo s'affiche en bas à droite.",
    source: "YouTube Help: thumbnails 1280 × 720; the duration stamp's place measured on youtube.com",
  },
  "youtube-banner": {
    // (2560 − 1546) / 2 = 507; (1440 − 423) / 2 = 508.5, rounded down.
    safe: { x: 507, y: 508, w: 1546, h: 423 },
    areas: [
      { x: 0, y: 508, w: 2560, h: 423, en: "computers", fr: "ordinateurs" },
      { x: 352, y: 508, w: 1856, h: 423, en: "tablets", fr: "tablettes" },
    ],
    en: "Only the middle 1546 × 423 shows on every device (TVs show it all).", fr: "Seul le centre de 1546 × 423 s'affiche sur tous les appareils (les téléviseurs montrent tout).",
    source: "YouTube Help, channel banner: 2560 × 1440; safe area for text and logos 1546 × 423; desktop 2560 × 423, tablet 1855 × 423",
  },
  profile: {
    safe: { x: 0, y: 0, w: 400, h: 400 },
    round: true,
    en: "Shown as a circle: the corners are cut.", fr: "Affichée en cercle : les coins sont coupés.",
    source: "X, LinkedIn, Instagram, Facebook: profile photos are shown in a circle",
  },
};

/// The guide for format `id` at w × h; a custom size has no network's interface over it: the
/// whole image is safe.
export function guideFor(id, w, h) {
  const guide = GUIDES[id];
  if (guide) return guide;
  return { safe: { x: 0, y: 0, w, h }, en: "Custom size: no network's frame.", fr: "Taille libre : aucun cadre de réseau." };
}
