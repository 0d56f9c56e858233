// The minify page: code pasted or files chosen, minified when asked (a button, not every
// keystroke: a large script takes a while), one result per text with its sizes before and
// after, a copy button and a download; several files are also offered as one ZIP. Nothing is
// sent anywhere: files are read with File.text() and saved from blob URLs. The minifiers run
// in the page's worker (local-minify-worker.js), so a large script does not freeze the page.
import { copy } from "../../shared/dom.mjs";
import { downloadLink, element, fileDrop, say, zip } from "../common.mjs";
import { guessKind, KINDS, kindOfName, minName } from "./detect.mjs";
import { WorkerJobs } from "../worker-jobs.mjs";
import { buildOptions, readOptions } from "./options.mjs";
import { measure, utf8 } from "./sizes.mjs";
import { gzipLine, kindName, problem, sizeLine, summary, warning } from "./wording.mjs";

const TYPES = { html: "text/html", css: "text/css", js: "text/javascript" };

export function mount(root, workerUrl) {
  if (!root) return;
  const worker = new WorkerJobs(workerUrl);
  // Loading until the minifiers' worker has come: the page works offline only from then on.
  root.dataset.loading = "minifiers";
  worker.ready.then(() => delete root.dataset.loading);
  const minify = (kind, code, options) => worker.run({ kind, code, options });
  root.classList.add("min-tool");
  const text = element("textarea", { id: "min-text", name: "min-text", rows: "10", spellcheck: "false",
    autocomplete: "off", autocapitalize: "off", "aria-describedby": "min-text-hint" });
  const kind = element("select", { id: "min-kind", name: "min-kind" },
    element("option", { value: "auto" }, say("Guess from the code", "Deviner d'après le code")),
    KINDS.map((k) => element("option", { value: k }, kindName(k))));
  const chosen = element("p", { id: "min-chosen", class: "min-chosen", hidden: true });
  const run = element("button", { type: "button", id: "min-run" }, say("Minify", "Minifier"));
  const status = element("p", { id: "min-status", role: "status", "aria-live": "polite" });
  const zipArea = element("div", { id: "min-zip", class: "min-zip" });
  const results = element("div", { id: "min-results", class: "min-results", "data-run": "0" });
  let files = [];
  let runs = 0;

  const showChosen = () => {
    chosen.hidden = !files.length;
    if (!files.length) return chosen.replaceChildren();
    const clear = element("button", { type: "button", id: "min-clear", class: "link" },
      say("Minify the pasted code instead", "Minifier plutôt le code collé"));
    clear.addEventListener("click", () => {
      files = [];
      showChosen();
      text.focus();
    });
    chosen.replaceChildren(say(`${files.length} file${files.length > 1 ? "s" : ""} chosen: `, `${files.length} fichier${files.length > 1 ? "s" : ""} choisi${files.length > 1 ? "s" : ""} : `),
      files.map((f) => f.name).join(", "), ". ", clear);
  };

  // What the button minifies: the files chosen last, else the pasted code.
  const sources = async () => {
    if (!files.length) {
      const code = text.value;
      const type = kind.value === "auto" ? guessKind(code) : kind.value;
      return [{ name: null, code, kind: type, guessed: kind.value === "auto" }];
    }
    return Promise.all(files.map(async (file) => {
      const code = await file.text();
      const known = kindOfName(file.name);
      return { name: file.name, code, kind: known ?? guessKind(code), guessed: !known, binary: code.includes("\0") };
    }));
  };

  const start = async () => {
    const mine = ++runs; // a newer run makes this one stop
    for (const link of root.querySelectorAll("a[href^='blob:']")) URL.revokeObjectURL(link.href);
    zipArea.replaceChildren();
    results.replaceChildren();
    run.disabled = true;
    status.textContent = say("Working…", "Traitement…");
    try {
      const list = await sources();
      if (!list.length || (list.length === 1 && !list[0].name && !list[0].code.trim())) {
        status.textContent = say("Paste some code or choose files first.", "Collez du code ou choisissez des fichiers d'abord.");
        return;
      }
      const done = [];
      let failed = 0;
      for (const [index, source] of list.entries()) {
        if (list.length > 1) status.textContent = say(`Working… ${index + 1} of ${list.length}`, `Traitement… ${index + 1} sur ${list.length}`);
        const card = await result(source, index);
        if (mine !== runs) return;
        results.append(card.node);
        if (card.output) done.push(card.output);
        else failed++;
      }
      if (done.length > 1) {
        zipArea.append(downloadLink(zip(done.map(({ name, code }) => ({ name, bytes: utf8(code) }))),
          say("minified.zip", "fichiers-minifies.zip"),
          say(`Download the ${done.length} minified files (ZIP)`, `Télécharger les ${done.length} fichiers minifiés (ZIP)`), "min-download-zip"));
      }
      status.textContent = list.length > 1 || list[0].name ? summary(done.length, failed) : done.length
        ? say("Minified.", "Minifié.") : say("Not minified.", "Non minifié.");
      results.dataset.run = String(mine);
    } catch (error) { // a file that cannot be read any more (moved, deleted since chosen)
      if (mine === runs) status.textContent = problem(error);
    } finally {
      if (mine === runs) run.disabled = false;
    }
  };

  run.addEventListener("click", start);
  // Ctrl+Enter (⌘+Enter) in the code runs it too, as in many code editors.
  text.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      start();
    }
  });
  // Typing or pasting means this code, not the files chosen before.
  text.addEventListener("input", () => {
    if (files.length) {
      files = [];
      showChosen();
    }
  });

  root.append(
    element("p", { class: "hint" }, say(
      "Make HTML, CSS and JavaScript smaller for the web: spaces, comments and long names go, the behaviour stays. Paste code or choose files; nothing is sent: it is all done in this browser.",
      "Allégez HTML, CSS et JavaScript pour le web : espaces, commentaires et noms longs disparaissent, le comportement reste. Collez du code ou choisissez des fichiers ; rien n'est envoyé : tout se fait dans ce navigateur.")),
    element("div", { class: "columns min-layout" },
      element("section", { class: "stack min-input", "aria-label": say("Code to minify", "Code à minifier") },
        fileDrop({
          id: "min-files",
          label: say("HTML, CSS or JavaScript files", "Fichiers HTML, CSS ou JavaScript"),
          accept: ".html,.htm,.css,.js,.mjs,.cjs,text/html,text/css,text/javascript",
          multiple: true,
          onFiles: (picked) => {
            files = picked;
            showChosen();
            start();
          },
        }),
        chosen,
        element("label", { for: "min-text" }, say("Or paste code", "Ou collez du code")),
        text,
        element("small", { id: "min-text-hint" }, say("Ctrl+Enter minifies.", "Ctrl+Entrée minifie.")),
        element("div", { class: "min-field" }, element("label", { for: "min-kind" }, say("Pasted code is", "Le code collé est")), kind)),
      element("section", { class: "stack", "aria-label": say("Options", "Options") }, buildOptions())),
    element("div", { class: "actions min-actions" }, run),
    status, zipArea, results,
  );

  /// One text minified, as a card: { node, output: { name, code } or null when it failed }.
  async function result(source, index) {
    const output = minName(source.name, source.kind);
    const title = source.name ?? say(`Pasted ${kindName(source.kind)}`, `${kindName(source.kind)} collé`);
    const node = element("article", { class: "card min-result", id: `min-result-${index}`, "data-kind": source.kind },
      element("h2", {}, title));
    if (source.binary) {
      node.append(element("p", { class: "error", id: `min-error-${index}`, role: "alert" },
        say("This is not a text file: nothing to minify.", "Ce n'est pas un fichier texte : rien à minifier.")));
      return { node, output: null };
    }
    let minified;
    try {
      minified = await minify(source.kind, source.code, readOptions(source.name));
    } catch (error) {
      node.append(element("p", { class: "min-detected" }, detected(source, null)),
        element("p", { class: "error", id: `min-error-${index}`, role: "alert" }, problem(error)));
      return { node, output: null };
    }
    const sizes = await measure(source.code, minified.code);
    const area = element("textarea", { id: `min-output-${index}`, class: "min-output", rows: "8", readonly: true, spellcheck: "false" });
    area.value = minified.code;
    const copyButton = element("button", { type: "button", id: `min-copy-${index}`, class: "button secondary" }, say("Copy", "Copier"));
    copyButton.addEventListener("click", () => copy(minified.code, copyButton));
    const type = `${TYPES[source.kind]};charset=utf-8`;
    node.append(...[ // (append would write a null as the text "null")
      element("p", { class: "min-detected" }, detected(source, minified.module)),
      element("p", { class: "min-sizes", id: `min-sizes-${index}`, "data-before": sizes.before, "data-after": sizes.after }, sizeLine(sizes)),
      sizes.gzipBefore === null ? null : element("p", { class: "min-gzip", id: `min-gzip-${index}`,
        "data-before": sizes.gzipBefore, "data-after": sizes.gzipAfter }, gzipLine(sizes)),
      minified.warnings.length ? element("ul", { class: "min-warnings", id: `min-warnings-${index}` },
        minified.warnings.map((w) => element("li", { class: "warning" }, warning(w)))) : null,
      element("label", { for: `min-output-${index}` }, say(`Minified code (${output})`, `Code minifié (${output})`)),
      area,
      element("div", { class: "actions" }, copyButton,
        downloadLink(new Blob([minified.code], { type }), output, say(`Download ${output}`, `Télécharger ${output}`), `min-download-${index}`)),
    ].filter(Boolean));
    return { node, output: { name: output, code: minified.code } };
  }
}

// "JavaScript, read as an ES module (guessed from the code)".
function detected(source, module) {
  const parts = [kindName(source.kind)];
  if (module === true) parts.push(say("read as an ES module", "lu comme module ES"));
  if (module === false) parts.push(say("read as a classic script", "lu comme script classique"));
  let line = parts.join(", ");
  if (source.guessed) line += say(" (guessed from the code)", " (deviné d'après le code)");
  return line;
}
