// The image-optimize page: images chosen or dropped, each decoded in the browser (its EXIF
// orientation applied), made to fit the size limits and encoded in each chosen format by the
// browser or by the bundled encoders (encode.mjs); sizes, savings, a before/after view, each
// file to download and all of them as a ZIP. Nothing is sent anywhere.
import { bytes, decodeImage, downloadLink, element, fileDrop, say, zip } from "../common.mjs";
import { render } from "../social-resize/resample.mjs";
import { compareView } from "./compare.mjs";
import { BundledEncoder, encode } from "./encode.mjs";
import { fit, outputName } from "./formats.mjs";
import { changeText, fileCard, outputRow, refusal } from "./results.mjs";
import { settingsForm } from "./settings.mjs";

export function mount(root, workerUrl) {
  if (!root) return;
  const bundled = new BundledEncoder(workerUrl);
  // Loading until the encoders' worker has come: the page works offline only from then on.
  root.dataset.loading = "encoders";
  bundled.ready.then(() => delete root.dataset.loading);
  const status = element("p", { id: "optimize-status", role: "status", "aria-live": "polite" });
  const progress = element("progress", { id: "optimize-progress", max: "1", value: "0", hidden: true });
  const problem = element("p", { id: "optimize-error", class: "error", role: "alert", hidden: true });
  const totals = element("p", { id: "optimize-totals" });
  const download = element("div", { id: "optimize-download", class: "optimize-download" });
  const results = element("div", { id: "optimize-results" });
  const compare = compareView();
  const settings = settingsForm(() => (files.length ? start()
    : showProblem(say("Choose images first.", "Choisissez d'abord des images."))));
  let files = [];
  let urls = [];
  let run = 0;

  const showProblem = (text) => {
    problem.textContent = text;
    problem.hidden = !text;
  };

  const start = async () => {
    const chosen = settings.read();
    showProblem(chosen.problem || "");
    if (chosen.problem) return;
    const mine = ++run;
    for (const url of urls) URL.revokeObjectURL(url);
    urls = [];
    compare.hide();
    download.replaceChildren();
    results.replaceChildren();
    totals.textContent = "";
    const jobs = files.length * chosen.formats.length;
    Object.assign(progress, { max: jobs, value: 0, hidden: false });
    const outputs = [];
    const taken = new Set();
    const sums = new Map(); // per format: the originals' bytes and the outputs'
    let refused = 0;
    for (const file of files) {
      const original = URL.createObjectURL(file);
      urls.push(original);
      let bitmap;
      try {
        bitmap = await decodeImage(file);
      } catch (error) {
        if (mine !== run) return;
        const card = fileCard(file, "?", "?");
        results.append(card);
        refusal(card, error.message);
        refused++;
        progress.value += chosen.formats.length;
        continue;
      }
      if (mine !== run) return bitmap.close();
      const card = fileCard(file, bitmap.width, bitmap.height);
      results.append(card);
      const size = fit(bitmap.width, bitmap.height, chosen.maxWidth, chosen.maxHeight);
      const whole = { x: 0, y: 0, w: bitmap.width, h: bitmap.height };
      const canvases = {};
      for (const { format, quality } of chosen.formats) {
        status.textContent = say(`Encoding ${file.name} as ${format.label}…`, `Encodage de ${file.name} en ${format.label}…`);
        // JPEG has no transparency: what is transparent comes out white, not black.
        const background = format.key === "jpeg" ? "#ffffff" : null;
        canvases[background] ??= render(bitmap, whole, size.width, size.height, background);
        try {
          const result = await encode(canvases[background], format, quality, bundled);
          if (mine !== run) return bitmap.close();
          const name = outputName(file.name, format, taken);
          const blob = new Blob([result.bytes], { type: format.type });
          const output = { ...result, name, format, blob, ...size, url: URL.createObjectURL(blob) };
          urls.push(output.url);
          outputs.push(output);
          const sum = sums.get(format) ?? { before: 0, after: 0 };
          sums.set(format, { before: sum.before + file.size, after: sum.after + result.bytes.length });
          const show = () => compare.show(original, output, `${file.name} → ${name}, ${bytes(result.bytes.length)}`);
          outputRow(card, file, output, show);
          if (outputs.length === 1) show();
        } catch (error) {
          if (mine !== run) return bitmap.close();
          refusal(card, say(`${format.label}: ${error.message}`, `${format.label} : ${error.message}`));
        }
        progress.value += 1;
      }
      for (const canvas of Object.values(canvases)) canvas.width = 0;
      bitmap.close();
    }
    if (mine !== run) return;
    progress.hidden = true;
    status.textContent = summary(outputs.length, refused);
    totals.textContent = [...sums].map(([format, { before, after }]) =>
      `${format.label}: ${bytes(before)} → ${bytes(after)} (${changeText(before, after).text})`).join(" · ");
    offer(outputs);
  };

  const offer = (outputs) => {
    if (outputs.length < 2) return;
    const archive = zip(outputs.map((o) => ({ name: o.name, bytes: o.bytes })));
    const link = downloadLink(archive, say("optimized-images.zip", "images-optimisees.zip"),
      say(`Download all ${outputs.length} (ZIP)`, `Tout télécharger, ${outputs.length} fichiers (ZIP)`), "optimize-zip");
    urls.push(link.href);
    download.append(link);
  };

  root.append(
    element("p", { class: "hint" }, say(
      "Convert and compress photos and images to WebP, AVIF or JPEG, and see what you save. Where this browser cannot write a format itself, an encoder bundled in this page does. Nothing is sent: the images stay in this browser.",
      "Convertissez et compressez photos et images en WebP, AVIF ou JPEG, et voyez ce que vous gagnez. Quand ce navigateur ne sait pas écrire un format, un encodeur intégré à la page s'en charge. Rien n'est envoyé : les images restent dans ce navigateur.")),
    fileDrop({
      id: "optimize-files",
      label: say("Images to optimize", "Images à optimiser"),
      accept: "image/*",
      multiple: true,
      onFiles: (chosen) => {
        files = chosen;
        start();
      },
    }),
    settings.root, problem, status, progress, totals, download, compare.root, results,
  );
}

function summary(done, refused) {
  const parts = [];
  if (done) parts.push(say(`${done} image${done > 1 ? "s" : ""} written.`, `${done} image${done > 1 ? "s" : ""} écrite${done > 1 ? "s" : ""}.`));
  if (refused) parts.push(say(`${refused} file${refused > 1 ? "s" : ""} refused.`, `${refused} fichier${refused > 1 ? "s" : ""} refusé${refused > 1 ? "s" : ""}.`));
  return parts.join(" ");
}
