// Line wrapping for canvas text, which has none of its own. Pure: the width of a piece of text
// comes from `measure(text) → width` (the canvas's measureText in the page, a fake in the
// Node tests), so the same function decides the preview's lines and the export's.

// Graphemes, not code points, when a word must be cut: "é" typed as e + U+0301, or an emoji
// with its modifiers, stays whole on one line.
const segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
export const graphemes = (text) => (segmenter ? [...segmenter.segment(text)].map((s) => s.segment) : Array.from(text));

/// `word` cut into pieces each no wider than `maxWidth`, as long as they can be (a piece is at
/// least one grapheme, however narrow the line: text never disappears).
export function breakWord(word, maxWidth, measure) {
  const pieces = [];
  let piece = "";
  for (const g of graphemes(word)) {
    if (piece && measure(piece + g) > maxWidth) {
      pieces.push(piece);
      piece = g;
    } else {
      piece += g;
    }
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/// The lines `text` takes at `maxWidth`: greedy, word by word. Line breaks typed by the user
/// are kept (an empty line stays an empty line); a word wider than the line is cut and the
/// next words may follow its last piece. Words are split on spaces and tabs only, so a
/// no-break space (French "Noël !" with U+00A0 or U+202F) keeps its neighbours together.
export function wrapText(text, maxWidth, measure) {
  const lines = [];
  const clean = String(text ?? "").replace(/\r\n?/g, "\n").trim();
  if (!clean) return lines;
  for (const paragraph of clean.split("\n")) {
    const words = paragraph.split(/[ \t]+/).filter(Boolean);
    if (!words.length) {
      lines.push("");
      continue;
    }
    let line = "";
    for (const word of words) {
      if (line) {
        const longer = `${line} ${word}`;
        if (measure(longer) <= maxWidth) {
          line = longer;
          continue;
        }
        lines.push(line);
      }
      if (measure(word) <= maxWidth) {
        line = word;
        continue;
      }
      const pieces = breakWord(word, maxWidth, measure);
      lines.push(...pieces.slice(0, -1));
      line = pieces[pieces.length - 1];
    }
    lines.push(line);
  }
  return lines;
}
