// The exif-strip page: photos chosen or dropped, each read in the browser, shown with what it
// carried (GPS first: it tells where the photo was taken), cleaned without touching a pixel,
// and checked again; one clean photo is downloaded as it is, several as a ZIP. Nothing is sent
// anywhere: the files are read with File.arrayBuffer and saved from blob URLs.
import { bytes, downloadLink, element, fileDrop, say, stem, zip } from "../common.mjs";
import { gpsLine, kept, piece, rows } from "./describe.mjs";
import { EXTENSION, stripImage } from "./strip.mjs";

// The extensions a cleaned file may keep from its name (else the one of its real type).
const NAMES = { "image/jpeg": /\.(jpe?g|jfif|jpe)$/i, "image/png": /\.png$/i, "image/webp": /\.webp$/i };

/// "photo.JPG" → "photo-clean.JPG"; a name whose extension lies about the type gets the real one.
export function cleanName(name, type) {
  const extension = NAMES[type].exec(name)?.[0] ?? EXTENSION[type];
  return `${stem(name)}-clean${extension}`;
}

export function mount(root) {
  if (!root) return;
  const removeIcc = element("input", { type: "checkbox", id: "exif-remove-icc" });
  const status = element("p", { id: "exif-status", role: "status", "aria-live": "polite" });
  const download = element("div", { id: "exif-download", class: "exif-download" });
  const results = element("div", { id: "exif-results", class: "exif-results" });
  let files = [];
  let run = 0;

  const start = async () => {
    const mine = ++run; // a newer choice of files makes this run stop
    for (const link of download.querySelectorAll("a[href^='blob:']")) URL.revokeObjectURL(link.href);
    download.replaceChildren();
    results.replaceChildren();
    status.textContent = say("Reading…", "Lecture…");
    const cleaned = [];
    let refused = 0;
    for (const file of files) {
      const card = element("article", { class: "card exif-file" }, element("h2", {}, file.name));
      results.append(card);
      try {
        const data = new Uint8Array(await file.arrayBuffer());
        if (mine !== run) return;
        const result = stripImage(data, { removeIcc: removeIcc.checked });
        card.append(...report(result, data.length));
        cleaned.push({ name: cleanName(file.name, result.type), bytes: result.output, type: result.type });
      } catch (error) {
        if (mine !== run) return;
        refused++;
        card.classList.add("refused");
        card.append(element("p", { class: "error" }, problem(error)));
      }
    }
    if (mine !== run) return;
    offer(cleaned);
    status.textContent = summary(cleaned.length, refused);
  };

  const offer = (cleaned) => {
    if (cleaned.length === 1) {
      const [only] = cleaned;
      download.append(downloadLink(new Blob([only.bytes], { type: only.type }), only.name,
        say(`Download ${only.name}`, `Télécharger ${only.name}`), "exif-download-link"));
    } else if (cleaned.length > 1) {
      download.append(downloadLink(zip(cleaned), say("clean-photos.zip", "photos-nettoyees.zip"),
        say(`Download the ${cleaned.length} clean photos (ZIP)`, `Télécharger les ${cleaned.length} photos nettoyées (ZIP)`),
        "exif-download-link"));
    }
  };

  removeIcc.addEventListener("change", () => files.length && start());
  root.append(
    element("p", { class: "hint" }, say(
      "Photos often carry where and when they were taken, the camera's serial number or the editing software. Choose photos (JPEG, PNG, WebP): this page shows what they carry and removes it, without changing a pixel. Nothing is sent: the photos stay in this browser.",
      "Les photos indiquent souvent où et quand elles ont été prises, le numéro de série de l'appareil ou le logiciel de retouche. Choisissez des photos (JPEG, PNG, WebP) : cette page montre ce qu'elles contiennent et le retire, sans changer un pixel. Rien n'est envoyé : les photos restent dans ce navigateur.")),
    fileDrop({
      id: "exif-files",
      label: say("Photos to clean", "Photos à nettoyer"),
      accept: "image/*,.jpg,.jpeg,.png,.webp",
      multiple: true,
      onFiles: (chosen) => {
        files = chosen;
        start();
      },
    }),
    element("p", { class: "exif-option" }, removeIcc, " ", element("label", { for: "exif-remove-icc" },
      say("Also remove the colour profile (colours may look slightly different)", "Retirer aussi le profil de couleur (les couleurs peuvent changer un peu)"))),
    status, download, results,
  );
}

/// A refusal's message in the page's language; anything else as an unexpected error.
function problem(error) {
  if (error?.name === "Refusal") return say(error.message, error.fr);
  return say(`This file could not be read: ${error?.message ?? error}`, `Ce fichier n'a pas pu être lu : ${error?.message ?? error}`);
}

function summary(done, refused) {
  const parts = [];
  if (done) parts.push(say(`${done} photo${done > 1 ? "s" : ""} cleaned.`, `${done} photo${done > 1 ? "s" : ""} nettoyée${done > 1 ? "s" : ""}.`));
  if (refused) parts.push(say(`${refused} file${refused > 1 ? "s" : ""} refused.`, `${refused} fichier${refused > 1 ? "s" : ""} refusé${refused > 1 ? "s" : ""}.`));
  return parts.join(" ");
}

/// The nodes that tell one file's story: GPS, what was found, what went, what stayed, sizes,
/// and the check of the output.
function report({ found, left, output, removedBytes }, before) {
  const nodes = [];
  const gps = gpsLine(found.exif);
  if (gps) {
    nodes.push(element("p", { class: "exif-gps" },
      element("strong", {}, say("Location: ", "Position : ")), element("span", { class: "exif-position" }, gps),
      element("small", {}, say(" — shows where the photo was taken.", " — révèle où la photo a été prise."))));
  }
  const found_ = rows(found);
  nodes.push(found_.length
    ? element("dl", { class: "exif-found" }, found_.flatMap(([label, value]) => [element("dt", {}, label), element("dd", {}, value)]))
    : element("p", {}, say("No metadata found in this photo.", "Aucune métadonnée trouvée dans cette photo.")));
  if (found.removed.length) {
    nodes.push(element("p", { class: "exif-removed" }, say("Removed: ", "Retiré : "), found.removed.map(piece).join(", "),
      say(` — ${bytes(removedBytes)} in all.`, ` — ${bytes(removedBytes)} en tout.`)));
  }
  if (found.kept.length) nodes.push(element("p", { class: "exif-kept" }, say("Kept: ", "Conservé : "), kept(found.kept)));
  nodes.push(element("p", { class: "exif-sizes" },
    say(`Before: ${bytes(before)} → after: ${bytes(output.length)}`, `Avant : ${bytes(before)} → après : ${bytes(output.length)}`)));
  nodes.push(left.length
    ? element("p", { class: "error exif-left" }, say("Still found after cleaning: ", "Encore présent après nettoyage : "),
      left.map((what) => piece({ what })).join(", "))
    : element("p", { class: "exif-clean" }, say("✓ No metadata left", "✓ Plus aucune métadonnée")));
  return nodes;
}
