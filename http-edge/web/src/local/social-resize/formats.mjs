// The formats the tool makes: one row per network and use, with the exact pixel size that
// network asks for. Kept free of imports so the Node tests (and the Chromium check) can read it.
// Sizes checked against each network's own help pages (2024–2025); where a network only gives a
// ratio, the width is the one it recommends uploading. All even, so halving stays exact.

/// { id (used in file names), en, fr (labels), w, h (output pixels), round (shown as a circle),
///   checked (ticked by default), source (who says so, for what) }
export const FORMATS = [
  {
    id: "instagram-square", en: "Instagram square post", fr: "Publication Instagram carrée",
    w: 1080, h: 1080, checked: true,
    source: "Instagram Help Center: feed photos are shown 1080 px wide; 1:1 square",
  },
  {
    id: "instagram-portrait", en: "Instagram portrait post", fr: "Publication Instagram portrait",
    w: 1080, h: 1350, checked: true,
    source: "Instagram Help Center: the tallest feed photo is 4:5, 1080 × 1350",
  },
  {
    id: "story", en: "Story / Reel (9:16)", fr: "Story / Reel (9:16)",
    w: 1080, h: 1920, checked: true,
    source: "Instagram, Facebook (Meta Ads Guide) and TikTok: full-screen stories and reels, 9:16, 1080 × 1920",
  },
  {
    id: "link-preview", en: "Link preview (1.91:1)", fr: "Aperçu de lien (1,91:1)",
    w: 1200, h: 630, checked: true,
    // LinkedIn documents 1200 × 627 and X's summary_large_image is nominally 2:1, but both crop
    // a 1.91:1 image without loss worth mentioning: one image serves all three.
    source: "Open Graph og:image: Facebook sharing best practices (1200 × 630), LinkedIn, X cards",
  },
  {
    id: "x-post", en: "X (Twitter) post", fr: "Publication X (Twitter)",
    w: 1600, h: 900, checked: false,
    source: "X Help Center: single images in posts are shown 16:9 in the timeline",
  },
  {
    id: "linkedin-cover", en: "LinkedIn cover", fr: "Couverture LinkedIn",
    w: 1584, h: 396, checked: false,
    source: "LinkedIn Help: profile background photo, 1584 × 396 (4:1)",
  },
  {
    id: "facebook-cover", en: "Facebook cover", fr: "Couverture Facebook",
    w: 1640, h: 624, checked: false,
    // Facebook shows the cover at 820 × 312 on desktop (and crops its sides on phones); 2× that
    // keeps it sharp on high-density screens.
    source: "Facebook Help Center: page cover shown 820 × 312 on computers; uploaded at 2×",
  },
  {
    id: "x-header", en: "X (Twitter) header", fr: "Bannière X (Twitter)",
    w: 1500, h: 500, checked: false,
    source: "X Help Center: profile header image, 1500 × 500 (3:1)",
  },
  {
    id: "youtube-thumbnail", en: "YouTube thumbnail", fr: "Miniature YouTube",
    w: 1280, h: 720, checked: false,
    source: "YouTube Help: custom video thumbnails, 1280 × 720 (16:9)",
  },
  {
    id: "youtube-banner", en: "YouTube channel banner", fr: "Bannière de chaîne YouTube",
    w: 2560, h: 1440, checked: false,
    // Only the middle 1546 × 423 is shown on every device: keep the subject near the focal point.
    source: "YouTube Help: channel banner image, 2560 × 1440 recommended (safe area 1546 × 423)",
  },
  {
    id: "profile", en: "Profile picture", fr: "Photo de profil",
    w: 400, h: 400, round: true, checked: false,
    source: "X and LinkedIn: profile photo 400 × 400, shown as a circle (Instagram, Facebook too)",
  },
];

export const formatById = (id) => FORMATS.find((f) => f.id === id);

/// The characters file systems or ZIP readers refuse in a name, replaced by "-".
const unsafe = /[\\/:*?"<>|\u0000-\u001f]/g;

/// The output's file name: "<stem>-<format id>-<w>x<h>.<jpg|png>".
export function outputName(stem, format, type) {
  const extension = type === "image/png" ? "png" : "jpg";
  const safe = String(stem).replace(unsafe, "-").trim() || "image";
  return `${safe}-${format.id}-${format.w}x${format.h}.${extension}`;
}
