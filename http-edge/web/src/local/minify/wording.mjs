// What the page says about a result, in the page's language: the kind of text, why it could
// not be minified (minifiers.mjs gives where and the library's own words, in English), what
// was kept as written inside a page, and the sizes.
import { bytes, fr, say } from "../common.mjs";
import { savingText } from "./sizes.mjs";

export const kindName = (kind) => ({ html: "HTML", css: "CSS", js: "JavaScript" })[kind] ?? kind;

const where = ({ line, column }) => (line
  ? say(` at line ${line}, column ${column}`, ` ligne ${line}, colonne ${column}`)
  : "");

/// Why a text was not minified, in words: a syntax error with its line and column, or, for
/// anything unexpected, the error's own message.
export function problem(error) {
  if (error?.name !== "MinifyError") {
    return say(`This could not be minified: ${error?.message ?? error}`, `Impossible de minifier ceci : ${error?.message ?? error}`);
  }
  const at = where(error);
  if (error.kind === "js") {
    return say(`JavaScript syntax error${at}: ${error.reason}. Nothing was minified: correct it and try again.`,
      `Erreur de syntaxe JavaScript${at} : ${error.reason}. Rien n'a été minifié : corrigez-la et réessayez.`);
  }
  if (error.kind === "css") {
    return say(`The CSS cannot be read${at}: ${error.reason}. Nothing was minified, since the minifier would drop that part. It does not know CSS nesting (& .child) nor media ranges such as (width >= 600px).`,
      `Le CSS est illisible${at} : ${error.reason}. Rien n'a été minifié, car le minifieur supprimerait ce passage. Il ne connaît ni l'imbrication CSS (& .enfant) ni les plages de media comme (width >= 600px).`);
  }
  return say(`The HTML cannot be read${at}: ${error.reason}. Nothing was minified.`,
    `Le HTML est illisible${at} : ${error.reason}. Rien n'a été minifié.`);
}

/// An inline script or style of a page that was kept as written, and why.
export function warning({ kind, reason, line, column }) {
  const at = where({ line, column });
  return kind === "js"
    ? say(`Inline JavaScript${at} left unminified: ${reason}.`, `JavaScript intégré${at} laissé non minifié : ${reason}.`)
    : say(`Inline CSS${at} left unminified: ${reason}.`, `CSS intégré${at} laissé non minifié : ${reason}.`);
}

const count = (n) => n.toLocaleString(fr() ? "fr-FR" : "en-US");

/// "Size: 12.3 kB → 8.1 kB (12,345 → 8,101 bytes), −34.4 %".
export function sizeLine({ before, after, saving }) {
  return say(`Size: ${bytes(before)} → ${bytes(after)} (${count(before)} → ${count(after)} bytes), ${savingText(saving)}`,
    `Taille : ${bytes(before)} → ${bytes(after)} (${count(before)} → ${count(after)} octets), ${savingText(saving, true)}`);
}

/// "gzip: 3.2 kB → 2.9 kB, −9.4 %": what travels when the server compresses.
export function gzipLine({ gzipBefore, gzipAfter, gzipSaving }) {
  return say(`gzip: ${bytes(gzipBefore)} → ${bytes(gzipAfter)} (${count(gzipBefore)} → ${count(gzipAfter)} bytes), ${savingText(gzipSaving)}`,
    `gzip : ${bytes(gzipBefore)} → ${bytes(gzipAfter)} (${count(gzipBefore)} → ${count(gzipAfter)} octets), ${savingText(gzipSaving, true)}`);
}

export function summary(done, failed) {
  const parts = [];
  if (done) parts.push(say(`${done} file${done > 1 ? "s" : ""} minified.`, `${done} fichier${done > 1 ? "s" : ""} minifié${done > 1 ? "s" : ""}.`));
  if (failed) parts.push(say(`${failed} could not be minified.`, `${failed} n'${failed > 1 ? "ont" : "a"} pas pu être minifié${failed > 1 ? "s" : ""}.`));
  return parts.join(" ");
}
