// The user's corrections to an anonymization, before anything goes out: a missed item marked
// (replaced everywhere it occurs, outside placeholders, with a new placeholder of the chosen
// kind) or a false positive restored (the placeholder gives its raw value back everywhere). Each
// is a plain record, so the page keeps the list in the browser's storage and applies it again
// to the API's answer after a reload.
import { PLACEHOLDER, align, mainOriginal } from "./align.mjs";

/// The kinds a user may mark, beside the anonymizer's own.
export const KINDS = ["NAME", "PHONE", "ADDRESS", "ACCOUNT", "EMAIL", "IPV4", "IPV6", "DOMAIN_USER", "FQDN", "OTHER"];

/// Texts a correction applies to: the anonymized log, the summary and the draft reply.
export const FIELDS = ["anonymized", "summary", "draft"];

const WORD = /[\p{L}\p{N}_]/u;

/// `[KIND_n]` with `n` one past the highest number that kind has in any of `texts`.
export function nextPlaceholder(kind, texts) {
  let highest = 0;
  for (const text of texts) {
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1] === kind) highest = Math.max(highest, Number(match[2]));
  }
  return `[${kind}_${highest + 1}]`;
}

/// Why `value` cannot be marked, or null: it must be a few characters of one line, not a
/// placeholder's text.
export function markProblem(value) {
  if (!value.trim()) return "empty";
  if (value.includes("\n")) return "multiline";
  if (/[[\]]/.test(value) && value.match(PLACEHOLDER)) return "placeholder";
  return null;
}

/// `text` with every occurrence of `value` (any case; whole words where `value` starts or ends
/// with a letter or digit) outside placeholders replaced by `placeholder`.
export function replaceValue(text, value, placeholder) {
  const needle = value.toLocaleLowerCase();
  let out = "";
  let at = 0;
  for (const match of [...text.matchAll(PLACEHOLDER), null]) {
    const end = match ? match.index : text.length;
    out += replaceInRun(text.slice(at, end), needle, value, placeholder);
    if (match) out += match[0];
    at = end + (match ? match[0].length : 0);
  }
  return out;
}

function replaceInRun(run, needle, value, placeholder) {
  const lower = run.toLocaleLowerCase();
  // Lowercasing keeps lengths for the scripts logs use; where it does not, match exactly.
  const haystack = lower.length === run.length ? lower : run;
  const wanted = lower.length === run.length ? needle : value;
  let out = "";
  let at = 0;
  for (let found = haystack.indexOf(wanted); found !== -1; found = haystack.indexOf(wanted, found + 1)) {
    if (found < at) continue;
    const end = found + wanted.length;
    const startsWord = WORD.test(value[0]) && found > 0 && WORD.test(run[found - 1]);
    const endsWord = WORD.test(value[value.length - 1]) && end < run.length && WORD.test(run[end]);
    if (startsWord || endsWord) continue;
    out += run.slice(at, found) + placeholder;
    at = end;
  }
  return out + run.slice(at);
}

/// `texts` ({ anonymized, summary, draft }) with one correction applied; `raw` is the raw log,
/// which gives a restored placeholder its values. A mark records its placeholder the first time
/// it is applied, so that applying the list again gives the same numbers.
export function applyOne(texts, correction, raw) {
  if (correction.mark !== undefined) {
    correction.placeholder ||= nextPlaceholder(correction.kind, FIELDS.map((f) => texts[f]));
    return Object.fromEntries(FIELDS.map((f) => [f, replaceValue(texts[f], correction.mark, correction.placeholder)]));
  }
  const { placeholder } = correction;
  const { lines, items } = align(raw, texts.anonymized);
  const item = items.get(placeholder);
  const fallback = item ? mainOriginal(item) : correction.original || "";
  // In the log each occurrence gets its own raw value back (the same address written in two
  // cases keeps both); elsewhere the value it stands for most often.
  const anonymized = lines.filter((line) => line.anonymized !== undefined).map((line) => line.segments
    ? line.segments.map((s) => (s.placeholder === placeholder ? s.original : s.placeholder || s.text)).join("")
    : line.anonymized.split(placeholder).join(fallback)).join("\n");
  const elsewhere = (text) => text.split(placeholder).join(fallback);
  return { anonymized, summary: elsewhere(texts.summary), draft: elsewhere(texts.draft) };
}

/// The API's texts with every correction applied in order.
export function applyAll(result, corrections, raw) {
  let texts = { anonymized: result.anonymized, summary: result.summary, draft: result.draftResponse };
  for (const correction of corrections) texts = applyOne(texts, correction, raw);
  return texts;
}
