// The text's plan for one set of settings: each block's font, its lines wrapped with the
// canvas's own measurements, their places, the baselines, and what they run into. Computed in
// the exported image's pixels, once per change: the preview (scaled) and the export draw the
// same plan, so they break lines at the same words.
import { fontString } from "./families.mjs";
import { layoutText, problems, textArea } from "./layout.mjs";
import { wrapText } from "./wrap.mjs";

/// Line height per block, in ems: a title's lines sit close, a subtitle reads as a paragraph.
const LINE_HEIGHT = { title: 1.15, subtitle: 1.3 };
/// The space between title and subtitle, in the subtitle's ems.
const GAP = 0.6;
export const BLOCKS = ["title", "subtitle"];

let scratch = null;
function context() {
  scratch ??= document.createElement("canvas").getContext("2d");
  return scratch;
}

/// `settings` as form.mjs reads them, `guide` from guides.mjs. Gives { area, blocks: [{ name,
/// font, colour, size }], lines: [{ block, text, x, y, left, width, height, baseline }], boxes,
/// box, problems }.
export function planText(settings, guide) {
  const area = textArea(guide);
  const ctx = context();
  const blocks = BLOCKS.map((name) => {
    const { text, family, weight, size, colour } = settings[name];
    const font = fontString(family, weight, size);
    const measure = (piece) => {
      ctx.font = font;
      return ctx.measureText(piece).width;
    };
    ctx.font = font;
    // The font's own ascent and descent centre its lines in their boxes, as CSS does; guesses
    // where a browser does not give them.
    const metrics = ctx.measureText("Hg");
    const ascent = metrics.fontBoundingBoxAscent ?? size * 0.9;
    const descent = metrics.fontBoundingBoxDescent ?? size * 0.25;
    const lines = wrapText(text, area.w, measure).map((line) => ({ text: line, width: measure(line) }));
    return { name, font, colour, size, ascent, descent, lines, lineHeight: size * LINE_HEIGHT[name], gap: size * GAP };
  });
  const laid = layoutText({ area, align: settings.align, valign: settings.valign, blocks });
  for (const line of laid.lines) {
    const { ascent, descent } = blocks[line.block];
    line.baseline = line.y + (line.height + ascent - descent) / 2;
  }
  return {
    area,
    blocks: blocks.map(({ name, font, colour, size }) => ({ name, font, colour, size })),
    ...laid,
    problems: problems(laid.lines, guide),
  };
}
