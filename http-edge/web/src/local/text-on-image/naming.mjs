// The exported file's name, from the title: "Fête à Noël !" at 1080 × 1080 as PNG gives
// "fete-a-noel-1080x1080.png". Accents dropped (a name that survives every file system, ZIP and
// mail client), other scripts' letters kept, everything else a single dash.

/// The longest title part of a name, in characters: enough to recognise it in a folder.
const LONGEST = 60;

export function slug(title) {
  const plain = String(title ?? "").toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "")
    .replace(/ß/g, "ss").replace(/œ/g, "oe").replace(/æ/g, "ae").replace(/ø/g, "o").replace(/ł/g, "l").replace(/đ/g, "d");
  const dashed = plain.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return Array.from(dashed).slice(0, LONGEST).join("").replace(/-+$/, "");
}

/// "<title>-<w>x<h>.<png|jpg>", or "text-on-image-…" when the title has no letter or digit.
export function fileName(title, w, h, type) {
  const extension = type === "image/png" ? "png" : "jpg";
  return `${slug(title) || "text-on-image"}-${w}x${h}.${extension}`;
}
