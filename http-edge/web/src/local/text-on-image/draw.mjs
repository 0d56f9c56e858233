// Drawing one image: the colour, the covering photo, the darkening, the text; and on the
// preview only, the guides over it all. `compose` is the one function both the preview and the
// export call: the guides are an option the export never passes.
import { say } from "../common.mjs";

/// How the guides look: shade outside the safe area, its edge, the covered parts, other crops.
const SHADE = "rgba(0, 0, 0, 0.45)";
const EDGE = "#22d3ee";
const COVERED = "rgba(239, 68, 68, 0.4)";
const COVERED_EDGE = "#ef4444";
const AREA = "rgba(255, 255, 255, 0.85)";

/// Draws on `ctx` (its canvas's whole size): `scene` = { settings, plan (plan.mjs, null before
/// the fonts are in: no text then), backdrop (a canvas the canvas's size, or null) }. `scale`:
/// canvas pixels per exported pixel (the preview's is below 1). `guide`: draw it (preview).
export function compose(ctx, { settings, plan, backdrop }, { scale = 1, guide = null } = {}) {
  const { width, height } = ctx.canvas;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.shadowColor = "transparent";
  ctx.globalAlpha = 1;
  // The colour first: it shows through a transparent PNG's holes (JPEG has no transparency).
  ctx.fillStyle = settings.background;
  ctx.fillRect(0, 0, width, height);
  if (backdrop) {
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(backdrop, 0, 0, width, height);
  }
  if (settings.overlay > 0) {
    ctx.fillStyle = `rgba(0, 0, 0, ${Math.min(80, settings.overlay) / 100})`;
    ctx.fillRect(0, 0, width, height);
  }
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  if (plan) drawText(ctx, plan, settings, scale);
  if (guide) drawGuide(ctx, guide, settings.w, settings.h);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}

function drawText(ctx, plan, settings, scale) {
  ctx.save();
  ctx.textAlign = settings.align;
  ctx.textBaseline = "alphabetic";
  for (const line of plan.lines) {
    const block = plan.blocks[line.block];
    if (!line.text) continue;
    ctx.font = block.font;
    ctx.fillStyle = block.colour;
    if (settings.shadow) {
      // Shadows ignore the transform (canvas spec): scaled by hand so the preview matches.
      ctx.shadowColor = "rgba(0, 0, 0, 0.6)";
      ctx.shadowBlur = block.size * 0.12 * scale;
      ctx.shadowOffsetX = 0;
      ctx.shadowOffsetY = block.size * 0.05 * scale;
    } else {
      ctx.shadowColor = "transparent";
    }
    ctx.fillText(line.text, line.x, line.baseline);
  }
  ctx.restore();
}

/// The safe area's shape as a path (a rectangle or the circle inscribed in it).
function safePath(ctx, guide) {
  const { x, y, w, h } = guide.safe;
  if (guide.round) {
    ctx.moveTo(x + w / 2 + Math.min(w, h) / 2, y + h / 2);
    ctx.arc(x + w / 2, y + h / 2, Math.min(w, h) / 2, 0, Math.PI * 2);
  } else {
    ctx.rect(x, y, w, h);
  }
}

function drawGuide(ctx, guide, w, h) {
  const line = Math.max(2, Math.max(w, h) / 400);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, 0, w, h);
  safePath(ctx, guide);
  ctx.fillStyle = SHADE;
  ctx.fill("evenodd");
  for (const area of guide.avoid ?? []) {
    ctx.fillStyle = COVERED;
    ctx.fillRect(area.x, area.y, area.w, area.h);
    ctx.strokeStyle = COVERED_EDGE;
    ctx.lineWidth = line;
    ctx.strokeRect(area.x + line / 2, area.y + line / 2, area.w - line, area.h - line);
  }
  ctx.setLineDash([line * 2, line * 2]);
  ctx.strokeStyle = AREA;
  ctx.lineWidth = line / 2;
  for (const area of guide.areas ?? []) ctx.strokeRect(area.x, area.y, area.w, area.h);
  ctx.setLineDash([line * 4, line * 2]);
  ctx.strokeStyle = EDGE;
  ctx.lineWidth = line;
  ctx.beginPath();
  safePath(ctx, guide);
  ctx.stroke();
  ctx.restore();
}

/// The guide in words, under the preview (screen readers do not see the canvas).
export function guideText(guide) {
  const covered = (guide.avoid ?? []).map((a) => say(a.en, a.fr));
  const areas = (guide.areas ?? []).map((a) => say(a.en, a.fr));
  return [
    say(guide.en, guide.fr),
    covered.length ? say(`Red: ${covered.join(", ")}.`, `En rouge : ${covered.join(", ")}.`) : "",
    areas.length ? say(`Dotted: what ${areas.join(" and ")} show.`, `En pointillé : ce que montrent les ${areas.join(" et les ")}.`) : "",
  ].filter(Boolean).join(" ");
}

/// What the text runs into, in words, or "" when it is all in the safe area.
export function problemText(found) {
  if (!found.length) return "";
  const covered = found.filter((p) => p.kind === "avoid").map((p) => say(p.en, p.fr));
  const outside = found.some((p) => p.kind === "outside");
  const parts = [];
  if (outside) parts.push(say("Some text runs outside the safe area: it may be cut off or hidden.", "Une partie du texte sort de la zone sûre : elle risque d'être coupée ou masquée."));
  if (covered.length) parts.push(say(`Text lies under ${covered.join(", ")}.`, `Du texte passe sous ${covered.join(", ")}.`));
  return parts.join(" ");
}
