// The support desk's comparison: which bytes of the raw log each placeholder of the anonymized
// log stands for. The anonymizer replaces items in place and never across a line, so the two
// texts pair line by line, and in each line the anonymized text's literal runs appear in the raw
// line in order; what lies between them is the placeholders' originals. Computed in the browser
// from the two texts the page already has: the raw log goes nowhere new.

/// `[EMAIL_1]`, `[DOMAIN_USER_12]`: the kind, then the number.
export const PLACEHOLDER = /\[([A-Z][A-Z0-9_]*?)_(\d+)\]/g;

/// Steps one line's matching may take before the line is shown unpaired: a line thousands of
/// characters long with many placeholders and short literals between them could otherwise take
/// quadratic time or worse.
const BUDGET = 200_000;

/// A line's literal runs and placeholders, in order.
export function tokens(line) {
  const out = [];
  let at = 0;
  for (const match of line.matchAll(PLACEHOLDER)) {
    if (match.index > at) out.push({ text: line.slice(at, match.index) });
    out.push({ placeholder: match[0], kind: match[1], number: Number(match[2]) });
    at = match.index + match[0].length;
  }
  if (at < line.length) out.push({ text: line.slice(at) });
  return out;
}

/// The segments of an anonymized line paired with its raw line: literal `{ text }` runs and
/// `{ placeholder, kind, original }` items; null if the lines do not pair (the line was not
/// made from that raw line). Every item stands for at least one character; among several ways
/// to pair, the shortest originals win, from the left.
export function alignLine(raw, anonymized) {
  const list = tokens(anonymized);
  if (!list.some((t) => t.placeholder)) return raw === anonymized ? list : null;
  const failed = new Set();
  let steps = 0;
  const ends = [];
  // Whether tokens from `i` on cover exactly raw[pos..]; fills `ends[i]` on the way.
  const fits = (i, pos) => {
    if (++steps > BUDGET) throw new RangeError("line too complex to pair");
    if (i === list.length) return pos === raw.length;
    const key = i * (raw.length + 1) + pos;
    if (failed.has(key)) return false;
    const token = list[i];
    let ok = false;
    if (token.text !== undefined) {
      ok = raw.startsWith(token.text, pos) && fits(i + 1, pos + token.text.length);
    } else {
      const next = list[i + 1];
      if (next === undefined) {
        ok = raw.length > pos;
        if (ok) ends[i] = raw.length;
      } else if (next.text !== undefined) {
        for (let end = raw.indexOf(next.text, pos + 1); end !== -1; end = raw.indexOf(next.text, end + 1)) {
          if (fits(i + 1, end)) {
            ends[i] = end;
            ok = true;
            break;
          }
        }
      } else {
        for (let end = pos + 1; end < raw.length && !ok; end++) {
          if (fits(i + 1, end)) {
            ends[i] = end;
            ok = true;
          }
        }
      }
    }
    if (!ok) failed.add(key);
    return ok;
  };
  try {
    if (!fits(0, 0)) return null;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  let pos = 0;
  return list.map((token, i) => {
    if (token.text !== undefined) {
      pos += token.text.length;
      return token;
    }
    const original = raw.slice(pos, ends[i]);
    pos = ends[i];
    return { ...token, original };
  });
}

/// The two texts paired line by line: `lines` of `{ raw, anonymized, segments }` (segments null
/// where a line does not pair, or where one text has a line the other lacks) and `items`, a Map
/// from each placeholder to `{ kind, number, count, originals }` (originals: a Map of each raw
/// value it stands for to its count), in the order they first appear.
export function align(raw, anonymized) {
  const rawLines = raw.split("\n");
  const anonymizedLines = anonymized.split("\n");
  const items = new Map();
  const lines = [];
  for (let i = 0; i < Math.max(rawLines.length, anonymizedLines.length); i++) {
    const pair = { raw: rawLines[i], anonymized: anonymizedLines[i] };
    pair.segments = pair.raw === undefined || pair.anonymized === undefined ? null : alignLine(pair.raw, pair.anonymized);
    for (const segment of pair.segments || []) {
      if (!segment.placeholder) continue;
      const item = items.get(segment.placeholder) || { kind: segment.kind, number: segment.number, count: 0, originals: new Map() };
      item.count += 1;
      item.originals.set(segment.original, (item.originals.get(segment.original) || 0) + 1);
      items.set(segment.placeholder, item);
    }
    lines.push(pair);
  }
  return { lines, items };
}

/// The raw value an item stands for most often.
export function mainOriginal(item) {
  let best = null;
  for (const [original, count] of item.originals) if (best === null || count > best[1]) best = [original, count];
  return best?.[0] ?? "";
}

/// Occurrences per kind in the anonymized text, in the order kinds first appear.
export function countsByKind(anonymized) {
  const counts = new Map();
  for (const match of anonymized.matchAll(PLACEHOLDER)) counts.set(match[1], (counts.get(match[1]) || 0) + 1);
  return counts;
}
