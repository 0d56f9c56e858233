// The encryption of a one-time share, done in the browser before anything leaves it (issue 37):
// the server stores only what this writes and never sees the key, which travels in the link's
// fragment or as a separate secret.
//
// Format (version 1), the STREAM construction of Hoang, Reyhanitabar, Rogaway and Vizár over
// AES-256-GCM, as age and Tink's streaming AEAD use it:
//   header  = "QSH1" | chunk size (u32 BE) | nonce prefix (7 random bytes) | salt (16 random bytes)
//   chunk i = AES-GCM(content key, nonce = prefix | i (u32 BE) | last (1 byte: 1 on the final
//             chunk, else 0), plaintext of chunk size bytes (the final one shorter, possibly
//             empty), additional data = header)
// so that a chunk moved, dropped, duplicated or cut off, or a stream whose end is missing, fails
// to decrypt. The keys come from the share's 256-bit secret (and the password, when one is set)
// through HKDF-SHA-256 with the salt: one for the content, one for the metadata (name, type,
// size: a JSON object encrypted apart, so a page can show them before the download), and one
// that proves possession of the secret when a download is claimed (HMAC of the server's nonce)
// without handing the server anything that decrypts. A password is stretched with
// PBKDF2-SHA-256 (600,000 iterations) and mixed into the HKDF input: neither the secret alone
// nor the password alone opens the share.

const MAGIC = [0x51, 0x53, 0x48, 0x31]; // "QSH1"
export const HEADER_SIZE = 4 + 4 + 7 + 16;
export const TAG_SIZE = 16;
/// Plaintext bytes per chunk: 64 KiB keeps memory flat and the per-chunk overhead at 0.02 %.
export const CHUNK_SIZE = 64 * 1024;
export const PBKDF2_ITERATIONS = 600_000;
const MAX_CHUNKS = 0xffffffff;

const subtle = globalThis.crypto.subtle;
const encoder = new TextEncoder();

/// A new random secret: 32 bytes.
export function newSecret() {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

/// The secret as URL-safe base64 without padding (43 characters), and back.
export function secretToText(secret) {
  let binary = "";
  for (const byte of secret) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function secretFromText(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const secret = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (secret.length !== 32) throw new Error("the secret is not 32 bytes: the link or the secret is cut short");
  return secret;
}

/// The typeable secret, for sending apart from the link: 20 Crockford base32 characters (100
/// random bits), shown in groups of 4. Crockford's alphabet has no I, L, O or U, so what a
/// person reads aloud or retypes maps back (I and L to 1, O to 0, any case, any separators).
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 20;

export function newCode() {
  const random = globalThis.crypto.getRandomValues(new Uint8Array(13));
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  bits >>= 4n; // 104 random bits, 100 kept
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) {
    code = CROCKFORD[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return formatCode(code);
}

/// The code as typed → its 20 characters, or null when it cannot be one (a character outside
/// the alphabet, or the wrong count): the page says so before spending one of the share's tries.
export function normalizeCode(typed) {
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  if (code.length !== CODE_LENGTH || [...code].some((c) => !CROCKFORD.includes(c))) return null;
  return code;
}

/// `XXXX-XXXX-XXXX-XXXX-XXXX`.
export function formatCode(code) {
  return code.match(/.{1,4}/g).join("-");
}

/// The share's 32-byte secret from its code: PBKDF2-SHA-256 (600,000 iterations) salted with the
/// share's salt, so that each guess costs as much as a password's and no guess serves two shares.
export async function secretFromCode(typed, salt) {
  const code = normalizeCode(typed);
  if (!code) throw new Error(`a secret is ${CODE_LENGTH} characters from 0-9 and A-Z (no U)`);
  const base = await subtle.importKey("raw", encoder.encode(code), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS }, base, 256));
}

/// Bytes of ciphertext for `size` bytes of plaintext: the header, and a tag per chunk (at least
/// one: an empty file has one empty final chunk).
export function ciphertextLength(size, chunkSize = CHUNK_SIZE) {
  return HEADER_SIZE + size + TAG_SIZE * Math.max(1, Math.ceil(size / chunkSize));
}

/// The three keys of a share: content (AES-GCM), metadata (AES-GCM), and the proof key's 32
/// bytes, which the sender's page hands the server when the share is made (as Firefox Send's
/// auth key): HKDF keeps it apart from the other two, so it decrypts nothing, and the server
/// checks a claim's HMAC with it.
export async function deriveKeys(secret, salt, password) {
  let material = secret;
  if (password) {
    const base = await subtle.importKey("raw", encoder.encode(password.normalize("NFC")), "PBKDF2", false, ["deriveBits"]);
    const stretched = new Uint8Array(await subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt, iterations: PBKDF2_ITERATIONS }, base, 256));
    material = new Uint8Array(64);
    material.set(secret, 0);
    material.set(stretched, 32);
  }
  const root = await subtle.importKey("raw", material, "HKDF", false, ["deriveKey", "deriveBits"]);
  const params = (info) => ({ name: "HKDF", hash: "SHA-256", salt, info: encoder.encode(info) });
  const aes = (info) => subtle.deriveKey(params(info), root, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  return {
    content: await aes("quire share v1 content"),
    metadata: await aes("quire share v1 metadata"),
    proof: new Uint8Array(await subtle.deriveBits(params("quire share v1 proof"), root, 256)),
  };
}

/// A new header: chunk size, random nonce prefix and salt.
export function newHeader(chunkSize = CHUNK_SIZE) {
  const header = new Uint8Array(HEADER_SIZE);
  header.set(MAGIC, 0);
  new DataView(header.buffer).setUint32(4, chunkSize);
  globalThis.crypto.getRandomValues(header.subarray(8));
  return header;
}

/// The header's fields, checked.
export function readHeader(header) {
  if (header.length < HEADER_SIZE || MAGIC.some((b, i) => header[i] !== b)) {
    throw new Error("not a Quire share (version 1): the file is damaged or of another kind");
  }
  const chunkSize = new DataView(header.buffer, header.byteOffset).getUint32(4);
  if (chunkSize < 1024 || chunkSize > 16 * 1024 * 1024) throw new Error(`a chunk size of ${chunkSize} bytes is not one Quire writes`);
  return { chunkSize, prefix: header.slice(8, 15), salt: header.slice(15, 31) };
}

function nonce(prefix, index, last) {
  const bytes = new Uint8Array(12);
  bytes.set(prefix, 0);
  new DataView(bytes.buffer).setUint32(7, index);
  bytes[11] = last ? 1 : 0;
  return bytes;
}

/// Chunk `index` of the ciphertext, sealed on its own: the same key, header, index and
/// plaintext always give the same bytes, so an upload cut off mid-chunk resumes by sealing that
/// chunk again and skipping what the server already has.
export async function sealChunk(key, header, index, plain, last) {
  if (index >= MAX_CHUNKS) throw new Error("the file has more chunks than one share may hold");
  const { prefix } = readHeader(header);
  return new Uint8Array(await subtle.encrypt(
    { name: "AES-GCM", iv: nonce(prefix, index, last), additionalData: header }, key, plain));
}

/// Plaintext stream → header and ciphertext chunks.
export function encryptStream(key, header) {
  const { chunkSize } = readHeader(header);
  let pending = new Uint8Array(0);
  let index = 0;
  const seal = async (controller, plain, last) => {
    controller.enqueue(await sealChunk(key, header, index, plain, last));
    index += 1;
  };
  return new TransformStream({
    start(controller) {
      controller.enqueue(header.slice());
    },
    async transform(chunk, controller) {
      pending = concat(pending, chunk);
      // A full chunk is sealed only once more bytes follow: the final one must carry the flag.
      let at = 0;
      while (pending.length - at > chunkSize) {
        await seal(controller, pending.subarray(at, at + chunkSize), false);
        at += chunkSize;
      }
      pending = pending.slice(at);
    },
    async flush(controller) {
      await seal(controller, pending, true);
    },
  });
}

/// Network reads, and plaintext pieces, a decryption holds ahead of its reader.
const READ_AHEAD = 4;

/// Header and ciphertext chunks → plaintext stream; `keysFor(salt)` gives the keys once the
/// header is read. Any chunk that fails, or a stream without its final chunk, errors the stream.
/// The sealed chunks that arrive together (a network read holds a dozen or so) are opened in
/// parallel, off the calling thread, and go out as one plaintext piece: one 64 KiB piece at a
/// time, the stream's own overhead per piece held a download to a third of a plain one's speed.
export function decryptStream(keysFor) {
  let header = null;
  let parsed = null;
  let key = null;
  // The bytes of a sealed chunk not yet whole, at most one chunk's worth.
  let pending = new Uint8Array(0);
  let index = 0;
  const open = (sealed, last) => {
    const at = index;
    index += 1;
    return subtle.decrypt({ name: "AES-GCM", iv: nonce(parsed.prefix, at, last), additionalData: header }, key, sealed)
      .catch(() => {
        throw new Error(`chunk ${at + 1} does not decrypt: wrong secret or password, or the file was altered`);
      });
  };
  const emit = async (controller, opening) => {
    if (!opening.length) return;
    const plains = await Promise.all(opening);
    if (plains.length === 1) {
      controller.enqueue(new Uint8Array(plains[0]));
      return;
    }
    const out = new Uint8Array(plains.reduce((size, plain) => size + plain.byteLength, 0));
    let at = 0;
    for (const plain of plains) {
      out.set(new Uint8Array(plain), at);
      at += plain.byteLength;
    }
    controller.enqueue(out);
  };
  return new TransformStream({
    async transform(chunk, controller) {
      let bytes = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
      if (!header) {
        pending = concat(pending, bytes);
        if (pending.length < HEADER_SIZE) return;
        header = pending.slice(0, HEADER_SIZE);
        parsed = readHeader(header);
        key = (await keysFor(parsed.salt)).content;
        bytes = pending.subarray(HEADER_SIZE);
        pending = new Uint8Array(0);
      }
      const sealedSize = parsed.chunkSize + TAG_SIZE;
      const opening = [];
      // A chunk begun in an earlier read is completed first, copying only what it lacks.
      if (pending.length) {
        const lacking = sealedSize - pending.length;
        // A whole sealed chunk is opened as not final only once more bytes follow it; bytes
        // after the final chunk make the final chunk fail (it is opened as not final).
        if (bytes.length <= lacking) {
          pending = concat(pending, bytes);
          return;
        }
        opening.push(open(concat(pending, bytes.subarray(0, lacking)), false));
        bytes = bytes.subarray(lacking);
      }
      let at = 0;
      while (bytes.length - at > sealedSize) {
        opening.push(open(bytes.subarray(at, at + sealedSize), false));
        at += sealedSize;
      }
      pending = bytes.slice(at);
      await emit(controller, opening);
    },
    async flush(controller) {
      if (!header) throw new Error("the file ends before its header: it was cut short");
      if (pending.length < TAG_SIZE) throw new Error("the file ends inside a chunk: it was cut short");
      await emit(controller, [open(pending, true)]);
    },
  // Network reads queue while a read's chunks are opened, and plaintext pieces while the
  // browser writes: without the room, each stage waited for the next (a few MiB at most).
  }, { highWaterMark: READ_AHEAD }, { highWaterMark: READ_AHEAD });
}

/// The metadata ({name, type, size}) sealed on its own: 12-byte random nonce, then ciphertext.
export async function sealMetadata(key, metadata) {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv }, key, encoder.encode(JSON.stringify(metadata))));
  return concat(iv, sealed);
}

export async function openMetadata(key, sealed) {
  try {
    const plain = await subtle.decrypt({ name: "AES-GCM", iv: sealed.subarray(0, 12) }, key, sealed.subarray(12));
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw new Error("the file's name does not decrypt: wrong secret or password");
  }
}

/// The proof of holding the secret for a download claim: HMAC-SHA-256 of the server's nonce
/// under the proof key.
export async function proof(proofKey, serverNonce) {
  const key = await subtle.importKey("raw", proofKey, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await subtle.sign("HMAC", key, serverNonce));
}

function concat(a, b) {
  if (!a.length) return b instanceof Uint8Array ? b : new Uint8Array(b);
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
