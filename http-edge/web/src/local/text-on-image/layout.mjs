// Where the text goes: the box it is wrapped in (the guide's safe area less a margin), each
// line's position for the alignment and the vertical position, and what the text runs into.
// Pure, in the exported image's pixels: the preview draws the same plan scaled down.

/// The margin between the safe area's edge and the text, as a share of the area's smaller side.
export const MARGIN = 0.05;

/// The rectangle text is wrapped in for `guide`: its safe area (for a round one, the square
/// inscribed in the circle, whose corners touch it) less the margin.
export function textArea(guide, margin = MARGIN) {
  let { x, y, w, h } = guide.safe;
  if (guide.round) {
    const side = Math.min(w, h) / Math.SQRT2;
    [x, y, w, h] = [x + (w - side) / 2, y + (h - side) / 2, side, side];
  }
  const inset = Math.round(margin * Math.min(w, h));
  return { x: x + inset, y: y + inset, w: Math.max(1, w - 2 * inset), h: Math.max(1, h - 2 * inset) };
}

/// The text size that suits a guide, from the square root of its safe area: a title at 9 % of
/// it is 97 px on a 1080 × 1080 post and 25 px on a 400 × 400 avatar.
export const reference = (guide) => Math.sqrt(guide.safe.w * guide.safe.h);

/// A size carried from one guide to another, so a title keeps its share of the image when the
/// format changes (never below 8 px).
export const rescale = (size, from, to) => Math.max(8, Math.round((size * reference(to)) / reference(from)));

const ANCHOR = { left: 0, center: 0.5, right: 1 };

/// The lines of `blocks` ([{ lines: [{ text, width }], lineHeight, gap }]: the title, then the
/// subtitle) placed in `area`. `align` "left" | "center" | "right" (x is where the canvas's
/// textAlign anchors the line: its left end, middle or right end), `valign` "top" | "middle" |
/// "bottom" (the whole text, both blocks). `gap` is the space above a block when one with lines
/// comes before it. Gives { lines: [{ block, text, x, y (top of its line box), left, width,
/// height }], boxes: [per block: { x, y, w, h } or null], box (all of it, or null) }.
export function layoutText({ area, align = "center", valign = "middle", blocks }) {
  const anchor = ANCHOR[align] ?? 0.5;
  let total = 0;
  let any = false;
  for (const block of blocks) {
    if (!block.lines.length) continue;
    if (any) total += block.gap ?? 0;
    total += block.lines.length * block.lineHeight;
    any = true;
  }
  let y = valign === "top" ? area.y : valign === "bottom" ? area.y + area.h - total : area.y + (area.h - total) / 2;
  const x = area.x + anchor * area.w;
  const lines = [];
  const boxes = [];
  any = false;
  blocks.forEach((block, index) => {
    if (!block.lines.length) {
      boxes.push(null);
      return;
    }
    if (any) y += block.gap ?? 0;
    any = true;
    const mine = [];
    for (const { text, width } of block.lines) {
      mine.push({ block: index, text, x, y, left: x - anchor * width, width, height: block.lineHeight });
      y += block.lineHeight;
    }
    lines.push(...mine);
    boxes.push(union(mine));
  });
  return { lines, boxes, box: union(lines) };
}

/// The smallest rectangle around the lines (their line boxes), or null for none.
export function union(lines) {
  if (!lines.length) return null;
  const left = Math.min(...lines.map((l) => l.left));
  const right = Math.max(...lines.map((l) => l.left + l.width));
  const top = Math.min(...lines.map((l) => l.y));
  const bottom = Math.max(...lines.map((l) => l.y + l.height));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

// Half a pixel of slack: the layout's fractions must not warn about a line that touches an edge.
const SLACK = 0.5;

function insideSafe(rect, guide) {
  const s = guide.safe;
  if (guide.round) {
    const [cx, cy, r] = [s.x + s.w / 2, s.y + s.h / 2, Math.min(s.w, s.h) / 2 + SLACK];
    return [[rect.x, rect.y], [rect.x + rect.w, rect.y], [rect.x, rect.y + rect.h], [rect.x + rect.w, rect.y + rect.h]]
      .every(([px, py]) => (px - cx) ** 2 + (py - cy) ** 2 <= r * r);
  }
  return rect.x >= s.x - SLACK && rect.y >= s.y - SLACK && rect.x + rect.w <= s.x + s.w + SLACK && rect.y + rect.h <= s.y + s.h + SLACK;
}

const overlaps = (a, b) => a.x < b.x + b.w - SLACK && b.x < a.x + a.w - SLACK && a.y < b.y + b.h - SLACK && b.y < a.y + a.h - SLACK;

/// What the laid-out lines run into: [{ kind: "outside" }] when a line leaves the safe area,
/// then [{ kind: "avoid", en, fr }] per covered area a line overlaps. Empty lines (a typed
/// blank line) have nothing to show and are not counted.
export function problems(lines, guide) {
  const boxes = lines.filter((l) => l.width > 0).map((l) => ({ x: l.left, y: l.y, w: l.width, h: l.height }));
  const found = [];
  if (boxes.some((b) => !insideSafe(b, guide))) found.push({ kind: "outside" });
  for (const area of guide.avoid ?? []) {
    if (boxes.some((b) => overlaps(b, area))) found.push({ kind: "avoid", en: area.en, fr: area.fr });
  }
  return found;
}
