// Reads an EXIF block (a small TIFF file: header II/MM, IFD0, the Exif IFD 0x8769, the GPS IFD
// 0x8825, the thumbnail's IFD1) to show what a photo tells before it is stripped. EXIF written
// by cameras, phones and editors is often damaged, and a crafted one may point anywhere: every
// read is bounds-checked, IFDs are read once each (no loops), value counts are capped, and a
// bad entry is skipped. Nothing thrown here leaves `readExif`: a block whose header or IFD0 is
// broken comes back as { unreadable: true }.
import { text } from "./report.mjs";

// Bytes per value of each TIFF type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 6 SBYTE,
// 7 UNDEFINED, 8 SSHORT, 9 SLONG, 10 SRATIONAL, 11 FLOAT, 12 DOUBLE, 13 IFD).
const SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
const MAX_ENTRIES = 1000; // more is no real IFD: the block is garbage
const MAX_NUMBERS = 16; // we only show values of up to 3 numbers

export const TAG = {
  description: 0x010e, make: 0x010f, model: 0x0110, orientation: 0x0112, software: 0x0131,
  dateTime: 0x0132, artist: 0x013b, copyright: 0x8298, exifIfd: 0x8769, gpsIfd: 0x8825,
  dateTaken: 0x9003, ownerName: 0xa430, serial: 0xa431, lensMake: 0xa433, lensModel: 0xa434,
  lensSerial: 0xa435, uniqueId: 0xa420,
};

class Broken extends Error {}

function reader(tiff) {
  if (tiff.length < 8) throw new Broken("too short");
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) throw new Broken("no TIFF byte order");
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const need = (at, length) => {
    if (!(at >= 0 && length >= 0 && at + length <= tiff.length)) throw new Broken(`offset ${at} outside the block`);
  };
  const r = {
    tiff,
    u8: (at) => (need(at, 1), tiff[at]),
    u16: (at) => (need(at, 2), view.getUint16(at, little)),
    u32: (at) => (need(at, 4), view.getUint32(at, little)),
    i32: (at) => (need(at, 4), view.getInt32(at, little)),
    need,
  };
  if (r.u16(2) !== 42) throw new Broken("not TIFF");
  return r;
}

/// One entry's value: a string for ASCII, an array of numbers for the numeric types (rationals
/// as numbers, x/0 as NaN), raw bytes for UNDEFINED; undefined for types we do not read.
function value(r, entry) {
  const type = r.u16(entry + 2);
  const count = r.u32(entry + 4);
  const size = SIZE[type];
  if (!size) return undefined;
  const at = size * count <= 4 ? entry + 8 : r.u32(entry + 8);
  if (type === 2 || type === 7) {
    const length = Math.min(count, 2000);
    r.need(at, length);
    const raw = r.tiff.subarray(at, at + length);
    return type === 2 ? text(raw) : raw;
  }
  const n = Math.min(count, MAX_NUMBERS);
  r.need(at, n * size);
  const numbers = [];
  for (let i = 0; i < n; i++) {
    const p = at + i * size;
    if (type === 1) numbers.push(r.u8(p));
    else if (type === 3) numbers.push(r.u16(p));
    else if (type === 4 || type === 13) numbers.push(r.u32(p));
    else if (type === 9) numbers.push(r.i32(p));
    else if (type === 5) numbers.push(ratio(r.u32(p), r.u32(p + 4)));
    else if (type === 10) numbers.push(ratio(r.i32(p), r.i32(p + 4)));
    else return undefined; // SBYTE, SSHORT, FLOAT, DOUBLE: nothing we show uses them
  }
  return numbers;
}

const ratio = (top, bottom) => (bottom === 0 ? NaN : top / bottom);

/// The entries of the IFD at `offset`: Map(tag → value). An entry whose value is out of bounds
/// is left out and marks the result damaged; an IFD whose table is out of bounds throws.
function readIfd(r, offset, state) {
  if (state.seen.has(offset)) throw new Broken("IFD loop");
  state.seen.add(offset);
  const count = r.u16(offset);
  if (count > MAX_ENTRIES) throw new Broken("too many entries");
  r.need(offset + 2, count * 12);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + i * 12;
    const tag = r.u16(entry);
    try {
      entries.set(tag, value(r, entry));
    } catch (error) {
      if (!(error instanceof Broken)) throw error;
      entries.set(tag, undefined);
      state.damaged = true;
    }
  }
  // Some writers end the block without the "next IFD" word: read as none.
  const end = offset + 2 + count * 12;
  return { entries, next: end + 4 <= r.tiff.length ? r.u32(end) : 0 };
}

/// A sub-IFD (Exif, GPS, thumbnail) read if it can be; a broken one marks the result damaged.
function subIfd(r, offset, state) {
  if (!offset) return null;
  try {
    return readIfd(r, offset, state).entries;
  } catch (error) {
    if (!(error instanceof Broken)) throw error;
    state.damaged = true;
    return null;
  }
}

const first = (v) => (Array.isArray(v) && v.length ? v[0] : undefined);
const str = (v) => (typeof v === "string" && v ? v : undefined);

/// Degrees, minutes, seconds and a reference letter as signed decimal degrees, or null.
function degrees(parts, ref, limit) {
  if (!Array.isArray(parts) || parts.length < 1) return null;
  const [d, m = 0, s = 0] = parts;
  const value = d + m / 60 + s / 3600;
  if (!Number.isFinite(value) || value < 0 || value > limit) return null;
  const negative = typeof ref === "string" && /^[SW]/i.test(ref);
  return negative ? -value : value;
}

function gpsOf(entries) {
  // 1/2: latitude reference (N/S) and value, 3/4: longitude (E/W), 5/6: altitude (0 above sea
  // level, 1 below), 0x1d: the date stamp.
  const latitude = degrees(entries.get(2), entries.get(1), 90);
  const longitude = degrees(entries.get(4), entries.get(3), 180);
  const position = latitude !== null && longitude !== null ? { latitude, longitude } : null;
  const height = first(entries.get(6));
  if (position && Number.isFinite(height)) position.altitude = first(entries.get(5)) === 1 ? -height : height;
  const date = str(entries.get(0x1d));
  return { position, date };
}

/// The EXIF block `tiff` (the bytes after "Exif\0\0") read: { make, model, software, dateTaken,
/// lens, serial, artist, copyright, description, ownerName, orientation, gps: { present,
/// position: { latitude, longitude, altitude? } | null, date }, thumbnail, tags: { ifd0, exif,
/// gps } (the tag numbers seen), damaged } — or { unreadable: true, reason }.
export function readExif(tiff) {
  try {
    return readOrThrow(tiff);
  } catch (error) {
    if (error instanceof Broken) return { unreadable: true, reason: error.message };
    throw error;
  }
}

function readOrThrow(tiff) {
  const r = reader(tiff);
  const state = { seen: new Set(), damaged: false };
  const { entries: ifd0, next } = readIfd(r, r.u32(4), state);
  const exif = subIfd(r, first(ifd0.get(TAG.exifIfd)), state) ?? new Map();
  const gpsEntries = subIfd(r, first(ifd0.get(TAG.gpsIfd)), state);
  const ifd1 = subIfd(r, next, state);
  const get = (tag) => str(ifd0.get(tag)) ?? str(exif.get(tag));
  const lens = [get(TAG.lensMake), get(TAG.lensModel)].filter(Boolean);
  const orientation = first(ifd0.get(TAG.orientation));
  return {
    make: get(TAG.make),
    model: get(TAG.model),
    software: get(TAG.software),
    dateTaken: get(TAG.dateTaken) ?? get(TAG.dateTime),
    lens: lens.length ? lens.join(" ") : undefined,
    serial: get(TAG.serial) ?? get(TAG.lensSerial),
    ownerName: get(TAG.ownerName),
    artist: get(TAG.artist),
    copyright: get(TAG.copyright),
    description: get(TAG.description),
    uniqueId: get(TAG.uniqueId),
    orientation: Number.isInteger(orientation) && orientation >= 1 && orientation <= 8 ? orientation : undefined,
    gps: gpsEntries ? { present: true, ...gpsOf(gpsEntries) } : { present: false, position: null },
    thumbnail: Boolean(ifd1 && ifd1.size),
    tags: { ifd0: [...ifd0.keys()], exif: [...exif.keys()], gps: gpsEntries ? [...gpsEntries.keys()] : [] },
    damaged: state.damaged,
  };
}

/// Whether a read block holds nothing but the Orientation tag (the one this tool writes).
export function orientationOnly(exif) {
  return Boolean(exif && !exif.unreadable && !exif.thumbnail && exif.tags.ifd0.length === 1
    && exif.tags.ifd0[0] === TAG.orientation && !exif.tags.exif.length && !exif.tags.gps.length);
}

/// The orientation to keep (2..8: the picture is stored turned or mirrored), or null.
export function orientationToKeep(exif) {
  return exif && !exif.unreadable && exif.orientation > 1 ? exif.orientation : null;
}

/// A minimal EXIF block (TIFF, big-endian) holding only Orientation = `orientation`: the 8-byte
/// header, one IFD with one SHORT entry, and no next IFD. 26 bytes.
export function orientationTiff(orientation) {
  return new Uint8Array([
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // "MM", 42, IFD0 at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, orientation >> 8, orientation & 0xff, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ]);
}
