// The support desk's logic (src/support/): pairing a raw log with its anonymized text,
// corrections applied and applied again, the final wording's placeholders and Markdown. Run by
// tests/tests/web.rs; the page itself is tested in Chromium (tests/web/support-desk.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { align, alignLine, countsByKind, tokens } from "../src/support/align.mjs";
import { applyAll, markProblem, nextPlaceholder, replaceValue } from "../src/support/corrections.mjs";
import { fillIn, placeholdersIn, toMarkdown, unresolved } from "../src/support/wording.mjs";

const originals = (segments) => segments.filter((s) => s.placeholder).map((s) => [s.placeholder, s.original]);

test("placeholders split a line, kinds with underscores included", () => {
  assert.deepEqual(tokens("a [DOMAIN_USER_12] b"), [
    { text: "a " }, { placeholder: "[DOMAIN_USER_12]", kind: "DOMAIN_USER", number: 12 }, { text: " b" },
  ]);
  assert.deepEqual(tokens("[x_1] [EMAIL_]"), [{ text: "[x_1] [EMAIL_]" }]);
});

test("an item whose value holds the literal that follows it is paired whole", () => {
  // The "." after the address is also inside it: only the last one lets the line end there.
  assert.deepEqual(originals(alignLine("from 10.0.0.1.", "from [IPV4_1].")), [["[IPV4_1]", "10.0.0.1"]]);
  assert.deepEqual(originals(alignLine("a@b.io and c@d.io and x", "[EMAIL_1] and [EMAIL_2] and x")),
    [["[EMAIL_1]", "a@b.io"], ["[EMAIL_2]", "c@d.io"]]);
  assert.deepEqual(originals(alignLine("CORP\\jdoe@10.1.2.3", "[DOMAIN_USER_1]@[IPV4_1]")),
    [["[DOMAIN_USER_1]", "CORP\\jdoe"], ["[IPV4_1]", "10.1.2.3"]]);
  // Two placeholders side by side: the shortest first value that lets the rest pair.
  assert.deepEqual(originals(alignLine("ab", "[X_1][Y_1]")), [["[X_1]", "a"], ["[Y_1]", "b"]]);
});

test("lines that were not made from each other do not pair", () => {
  assert.equal(alignLine("hello there", "goodbye [NAME_1]"), null);
  assert.equal(alignLine("same", "other"), null);
  assert.equal(alignLine("x", "x [EMAIL_1]"), null);
  // Pathological: many placeholders and one-letter literals over a long line stay bounded.
  const raw = "a".repeat(3000);
  const anonymized = Array.from({ length: 200 }, () => "[X_1]a").join("") + "b";
  assert.equal(alignLine(raw, anonymized), null);
});

test("the texts pair line by line and items count their values", () => {
  const raw = "mail Ann@x.io\nplain line\nagain ann@x.io from 10.0.0.1\nextra";
  const anonymized = "mail [EMAIL_1]\nplain line\nagain [EMAIL_1] from [IPV4_1]";
  const { lines, items } = align(raw, anonymized);
  assert.equal(lines.length, 4);
  assert.equal(lines[3].segments, null);
  assert.deepEqual([...items.keys()], ["[EMAIL_1]", "[IPV4_1]"]);
  assert.equal(items.get("[EMAIL_1]").count, 2);
  assert.deepEqual([...items.get("[EMAIL_1]").originals], [["Ann@x.io", 1], ["ann@x.io", 1]]);
  assert.deepEqual([...countsByKind(anonymized)], [["EMAIL", 2], ["IPV4", 1]]);
});

test("a marked value is replaced as a whole word, outside placeholders, in any case", () => {
  assert.equal(replaceValue("Alice met alice; Alicea [NAME_1] and Al", "alice", "[NAME_2]"), "[NAME_2] met [NAME_2]; Alicea [NAME_1] and Al");
  assert.equal(replaceValue("[NAME_1] NAME", "NAME", "[OTHER_1]"), "[NAME_1] [OTHER_1]");
  assert.equal(replaceValue("id=#42#42", "#42", "[ACCOUNT_1]"), "id=[ACCOUNT_1][ACCOUNT_1]");
  assert.equal(nextPlaceholder("EMAIL", ["[EMAIL_1] [EMAIL_7]", "[EMAILX_9]"]), "[EMAIL_8]");
  assert.equal(markProblem("  "), "empty");
  assert.equal(markProblem("a\nb"), "multiline");
  assert.equal(markProblem("x [EMAIL_1]"), "placeholder");
  assert.equal(markProblem("Alice Martin"), null);
});

test("corrections apply to the three texts and again to the same numbers", () => {
  const raw = "Alice Martin wrote from alice@x.io via docs.example.org\nAlice again";
  const result = {
    anonymized: "Alice Martin wrote from [EMAIL_1] via [FQDN_1]\nAlice again",
    summary: "Alice Martin cannot reach [FQDN_1].",
    draftResponse: "Hello Alice Martin,\nwe checked [FQDN_1] and [EMAIL_1].",
  };
  const corrections = [{ mark: "Alice Martin", kind: "NAME" }, { restore: true, placeholder: "[FQDN_1]" }];
  const texts = applyAll(result, corrections, raw);
  assert.equal(texts.anonymized, "[NAME_1] wrote from [EMAIL_1] via docs.example.org\nAlice again");
  assert.equal(texts.summary, "[NAME_1] cannot reach docs.example.org.");
  assert.equal(texts.draft, "Hello [NAME_1],\nwe checked docs.example.org and [EMAIL_1].");
  assert.equal(corrections[0].placeholder, "[NAME_1]");
  // Stored and applied again after a reload: the same text.
  assert.deepEqual(applyAll(result, JSON.parse(JSON.stringify(corrections)), raw), texts);
  // A second mark of the same kind takes the next number; the comparison pairs it.
  const more = applyAll(result, [...corrections, { mark: "Alice", kind: "NAME" }], raw);
  assert.equal(more.anonymized, "[NAME_1] wrote from [EMAIL_1] via docs.example.org\n[NAME_2] again");
  assert.deepEqual([...align(raw, more.anonymized).items.keys()], ["[NAME_1]", "[EMAIL_1]", "[NAME_2]"]);
});

test("a restored value written in two cases keeps each in the log", () => {
  const raw = "Bob@X.io then bob@x.io";
  const result = { anonymized: "[EMAIL_1] then [EMAIL_1]", summary: "[EMAIL_1]", draftResponse: "" };
  const texts = applyAll(result, [{ restore: true, placeholder: "[EMAIL_1]" }], raw);
  assert.equal(texts.anonymized, raw);
  assert.equal(texts.summary, "Bob@X.io");
});

test("the final wording: placeholders to resolve, and Markdown", () => {
  const draft = "Hello [NAME_1],\n\nTo move forward:\n- your *exact* error;\n- the time of [IPV4_1]'s failure.\n\n# not a heading\nBest";
  assert.deepEqual(placeholdersIn(draft), ["[NAME_1]", "[IPV4_1]"]);
  const kept = new Set(["[IPV4_1]"]);
  assert.deepEqual(unresolved(draft, kept), ["[NAME_1]"]);
  const filled = fillIn(draft, "[NAME_1]", "Alice");
  assert.deepEqual(unresolved(filled, kept), []);
  assert.equal(toMarkdown(filled, kept),
    "Hello Alice,\n\nTo move forward:\n- your \\*exact\\* error;\n- the time of `[IPV4_1]`'s failure.\n\n\\# not a heading  \nBest\n");
});
