// What a file carried, in words for the page (English or French): the rows of its "found"
// list, its GPS position, and the names of the pieces removed. Kept apart from view.mjs so
// that the page's flow and its wording each stay short.
import { bytes, say } from "../common.mjs";

const ORIENTATION = {
  1: ["upright", "droite"],
  2: ["mirrored", "en miroir"],
  3: ["turned 180°", "tournée de 180°"],
  4: ["mirrored upside down", "en miroir, à l'envers"],
  5: ["mirrored and turned 90°", "en miroir et tournée de 90°"],
  6: ["turned 90°", "tournée de 90°"],
  7: ["mirrored and turned 270°", "en miroir et tournée de 270°"],
  8: ["turned 270°", "tournée de 270°"],
};

/// "2026:11:28 10:00:00" (EXIF's way) as "2026-11-28 10:00:00".
const date = (value) => value.replace(/^(\d{4}):(\d{2}):(\d{2})/, "$1-$2-$3");

/// A signed decimal latitude or longitude in words: "48.85840° N".
export function coordinate(value, positive, negative) {
  return `${Math.abs(value).toFixed(5)}° ${value < 0 ? negative : positive}`;
}

/// The GPS line of a file: its position (and altitude) when the EXIF has one, a note when the
/// GPS block is there but holds no usable position; null when there is no GPS at all.
export function gpsLine(exif) {
  if (!exif || exif.unreadable || !exif.gps.present) return null;
  const position = exif.gps.position;
  if (!position) return say("GPS data present (no usable position).", "Données GPS présentes (sans position utilisable).");
  const where = `${coordinate(position.latitude, "N", "S")}, ${coordinate(position.longitude, "E", say("W", "O"))}`;
  const altitude = position.altitude === undefined ? ""
    : say(`, altitude ${position.altitude.toFixed(1)} m`, `, altitude ${position.altitude.toFixed(1).replace(".", ",")} m`);
  return `${where}${altitude}`;
}

/// [label, value] rows for what the file carried besides GPS.
export function rows(found) {
  const out = [];
  const add = (label, value) => value && out.push([label, value]);
  const exif = found.exif;
  if (exif?.unreadable) {
    add("EXIF", say("unreadable EXIF (removed all the same)", "EXIF illisible (retiré quand même)"));
  } else if (exif) {
    add(say("Camera", "Appareil"), [exif.make, exif.model].filter(Boolean).join(" "));
    add(say("Date taken", "Date de prise de vue"), exif.dateTaken && date(exif.dateTaken));
    add(say("Software", "Logiciel"), exif.software);
    add(say("Lens", "Objectif"), exif.lens);
    add(say("Serial number", "Numéro de série"), exif.serial);
    add(say("Owner", "Propriétaire"), exif.ownerName);
    add(say("Artist", "Auteur"), exif.artist);
    add("Copyright", exif.copyright);
    add(say("Description", "Description"), exif.description);
    add(say("Image ID", "Identifiant d'image"), exif.uniqueId);
    add(say("GPS date", "Date GPS"), exif.gps.date);
    const turn = ORIENTATION[exif.orientation];
    if (turn) add("Orientation", `${exif.orientation} (${say(...turn)})`);
    if (exif.thumbnail) add(say("Thumbnail", "Vignette"), say("a small copy of the photo", "une petite copie de la photo"));
    if (exif.damaged) add("EXIF", say("partly unreadable", "en partie illisible"));
  }
  if (found.xmp) add("XMP", say("XMP present", "XMP présent"));
  if (found.iptc) add("IPTC", say("IPTC present (Photoshop)", "IPTC présent (Photoshop)"));
  for (const comment of found.comments) add(say("Comment", "Commentaire"), comment);
  for (const { keyword, text, compressed } of found.texts) {
    add(say("PNG text", "Texte PNG"), `${keyword}: ${compressed ? say("(compressed text)", "(texte compressé)") : text}`);
  }
  if (found.icc) add(say("Colour profile", "Profil de couleur"), say("present", "présent"));
  return out;
}

const PIECES = {
  "data after the picture": ["data after the picture (previews, depth maps…)", "données après l'image (aperçus, cartes de profondeur…)"],
  "changed by a second pass": ["changed by a second pass", "modifié par un second passage"],
};

/// A removed piece's name in words, with its size.
export function piece({ what, size }) {
  const name = PIECES[what] ? say(...PIECES[what]) : what;
  return size === undefined ? name : `${name} (${bytes(size)})`;
}

/// What was kept on purpose, in words.
export function kept(names) {
  const words = {
    orientation: say("orientation (so the photo stays upright)", "orientation (pour que la photo reste droite)"),
    "colour profile": say("colour profile", "profil de couleur"),
  };
  return names.map((name) => words[name] ?? name).join(", ");
}
