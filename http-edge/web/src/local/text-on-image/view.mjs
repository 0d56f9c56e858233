// The text-on-image page (/local/text-on-image): a title and subtitle over a photo or a colour,
// laid out inside the chosen network's safe area, previewed live with the guides over it, then
// made as a PNG or JPEG at the format's exact size. Nothing leaves the page: the photo is
// decoded here and the fonts are inside the script.
import { bytes, decodeImage, downloadLink, element, fileDrop, say } from "../common.mjs";
import { backdrop, enlarged } from "./backdrop.mjs";
import { compose, guideText, problemText } from "./draw.mjs";
import { makeFile } from "./export.mjs";
import { loadFonts } from "./fonts.mjs";
import { settingsForm } from "./form.mjs";
import { guideFor } from "./guides.mjs";
import { planText } from "./plan.mjs";

/// The preview's longest side in canvas pixels: sharp at twice the width it is shown at, and
/// light to redraw at every keystroke (a 2560 × 1440 canvas per key would not be).
const PREVIEW_MAX = 1200;

const box = (rect) => (rect ? [rect.x, rect.y, rect.w, rect.h].map(Math.round).join(" ") : "");

export function mount(root) {
  let fontsReady = false;
  let image = null; // { name, bitmap (EXIF orientation applied), id }
  let shown = { key: "", canvas: null }; // the photo scaled for the preview, kept while it fits
  let frame = 0;
  let run = 0; // bumped by every change: a file made before it is not offered
  let loads = 0; // bumped by every chosen image: only the last one is kept
  let images = 0;

  const errors = element("div", { id: "toi-error", class: "error", role: "alert" });
  const drop = fileDrop({
    id: "toi-file", accept: "image/*", onFiles: ([file]) => load(file),
    label: say("Background image (optional: JPEG, PNG, WebP…)", "Image de fond (facultative : JPEG, PNG, WebP…)"),
  });
  const imageInfo = element("span", { id: "toi-image", class: "hint" });
  const clear = element("button", { type: "button", id: "toi-clear-image", class: "button secondary" }, say("Remove the image", "Retirer l'image"));
  const imageRow = element("p", { class: "toi-image-row", hidden: true }, imageInfo, " ", clear);
  const form = settingsForm({ imageNode: element("div", { class: "toi-image" }, drop, imageRow), onChange: changed });

  const canvas = element("canvas", { id: "toi-preview", class: "toi-preview", role: "img", width: "1", height: "1", "data-ready": "no" });
  const warning = element("p", { id: "toi-warning", class: "warning toi-warning", role: "status" });
  const soft = element("p", { id: "toi-soft", class: "hint toi-soft" });
  const guides = element("input", { id: "toi-guides", type: "checkbox", checked: true });
  const guideNote = element("p", { id: "toi-guide-note", class: "hint" });
  guides.addEventListener("change", () => schedule()); // the preview only: the file is the same

  const make = element("button", { type: "button", id: "toi-make", disabled: true }, say("Make the image", "Créer l'image"));
  const status = element("p", { id: "toi-status", role: "status" }, say("Loading the fonts…", "Chargement des polices…"));
  const result = element("div", { id: "toi-result", class: "toi-result" }, status);
  make.addEventListener("click", produce);

  clear.addEventListener("click", () => {
    loads++;
    dropImage();
    drop.querySelector("input").value = "";
    changed();
  });

  root.classList.add("toi-tool");
  root.replaceChildren(
    element("p", { class: "hint" }, say(
      "Put a title and a subtitle over a photo or a colour, at each network's size, inside the part its apps never cover. Everything happens in this browser: no image is uploaded.",
      "Posez un titre et un sous-titre sur une photo ou une couleur, à la taille de chaque réseau, dans la partie que ses applis ne couvrent jamais. Tout se passe dans ce navigateur : aucune image n'est envoyée.")),
    errors,
    element("div", { class: "columns toi-columns" },
      element("section", { class: "toi-stage", "aria-labelledby": "toi-preview-title" },
        element("h2", { id: "toi-preview-title" }, say("Preview", "Aperçu")),
        element("div", { class: "toi-frame" }, canvas),
        warning, soft,
        element("label", { class: "check", for: "toi-guides" }, guides, " ", say("Show the safe-area guides (never in the file)", "Afficher les repères de zone sûre (jamais dans le fichier)")),
        guideNote),
      element("div", { class: "toi-controls" },
        form.node,
        element("fieldset", { class: "toi-group", id: "toi-export" }, element("legend", {}, say("Export", "Exporter")),
          form.outputBox, element("p", {}, make), result))),
    element("p", { class: "hint toi-licence" },
      say("Fonts: Inter, Playfair Display, Bebas Neue, Caveat — SIL Open Font License 1.1",
        "Polices : Inter, Playfair Display, Bebas Neue, Caveat — SIL Open Font License 1.1"),
      " ", element("small", {}, "© The Inter, Playfair Display, Bebas Neue and Caveat Project Authors.")));

  redraw();
  loadFonts().then(() => {
    fontsReady = true;
    make.disabled = false;
    status.textContent = "";
    redraw();
  }, (error) => {
    status.textContent = "";
    errors.replaceChildren(element("p", {}, say(`The fonts could not be loaded: ${error.message}`, `Les polices n'ont pas pu être chargées : ${error.message}`)));
  });

  function dropImage() {
    image?.bitmap.close();
    image = null;
    if (shown.canvas) shown.canvas.width = 0;
    shown = { key: "", canvas: null };
    imageRow.hidden = true;
    imageInfo.textContent = "";
    delete imageInfo.dataset.name;
  }

  async function load(file) {
    const token = ++loads;
    errors.replaceChildren();
    let bitmap;
    try {
      bitmap = await decodeImage(file);
    } catch (error) {
      if (token === loads) errors.replaceChildren(element("p", {}, error.message));
      return;
    }
    if (token !== loads) return bitmap.close();
    dropImage();
    image = { name: file.name, bitmap, id: ++images };
    imageInfo.textContent = `${file.name}, ${bitmap.width} × ${bitmap.height}`;
    imageInfo.dataset.name = file.name;
    imageRow.hidden = false;
    form.suggestOverlay();
    changed();
  }

  /// A setting changed: the last file is wrong now, and the preview follows at the next frame.
  function changed() {
    stale();
    schedule();
  }
  function schedule() {
    if (!frame) frame = requestAnimationFrame(redraw);
  }

  function redraw() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    const settings = form.read();
    const { w, h } = settings;
    const guide = guideFor(settings.preset, w, h);
    const plan = fontsReady ? planText(settings, guide) : null;
    const scale = Math.min(1, PREVIEW_MAX / Math.max(w, h));
    const [pw, ph] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
    if (canvas.width !== pw || canvas.height !== ph) [canvas.width, canvas.height] = [pw, ph];
    const key = image ? `${image.id} ${w}x${h}` : "";
    if (key !== shown.key) {
      if (shown.canvas) shown.canvas.width = 0;
      shown = { key, canvas: image ? backdrop(image.bitmap, w, h, pw, ph) : null };
    }
    compose(canvas.getContext("2d"), { settings, plan, backdrop: shown.canvas }, { scale, guide: guides.checked ? guide : null });

    // For screen readers, and for the browser check: the size, where the text went, and when
    // the drawing includes the text in its own fonts.
    const words = [settings.title.text, settings.subtitle.text].map((t) => t.trim()).filter(Boolean).join(" — ");
    canvas.setAttribute("aria-label", say(`Preview, ${w} × ${h} pixels${words ? `: ${words}` : ""}`, `Aperçu, ${w} × ${h} pixels${words ? ` : ${words}` : ""}`));
    Object.assign(canvas.dataset, { width: String(w), height: String(h), ready: plan ? "yes" : "no",
      titleBox: box(plan?.boxes[0]), subtitleBox: box(plan?.boxes[1]), guides: guides.checked ? "shown" : "hidden" });
    warning.textContent = plan ? problemText(plan.problems) : "";
    guideNote.textContent = guideText(guide);
    const small = image && enlarged(image.bitmap.width, image.bitmap.height, w, h);
    soft.textContent = small ? say(`The image is enlarged from ${small.w} × ${small.h} pixels: it may look soft.`,
      `L'image est agrandie depuis ${small.w} × ${small.h} pixels : elle peut paraître floue.`) : "";
  }

  /// A change makes the last download wrong: it goes, and its object URL with it.
  function stale() {
    run++;
    for (const link of result.querySelectorAll("a[href^='blob:']")) URL.revokeObjectURL(link.href);
    result.replaceChildren(status);
    if (fontsReady) {
      status.textContent = "";
      make.disabled = false;
    }
  }

  async function produce() {
    if (!fontsReady) return;
    stale();
    const token = run;
    make.disabled = true;
    status.textContent = say("Making the image…", "Création de l'image…");
    try {
      const settings = form.read();
      const plan = planText(settings, guideFor(settings.preset, settings.w, settings.h));
      const { blob, name } = await makeFile(settings, plan, image?.bitmap ?? null);
      if (token !== run) return;
      errors.replaceChildren();
      status.textContent = say(`Ready: ${name}, ${settings.w} × ${settings.h} (${bytes(blob.size)}).`, `Prêt : ${name}, ${settings.w} × ${settings.h} (${bytes(blob.size)}).`);
      result.append(element("p", {}, downloadLink(blob, name, say(`Download ${name}`, `Télécharger ${name}`), "toi-download")));
    } catch (error) {
      if (token !== run) return;
      status.textContent = "";
      errors.replaceChildren(element("p", {}, error.message));
    } finally {
      if (token === run) make.disabled = false;
    }
  }
}
