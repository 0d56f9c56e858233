// The share format (src/share/crypto.mjs) in Node's WebCrypto, the same API the browser has:
// round trips at chunk boundaries, and every alteration refused. Run by tests/tests/web.rs.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CHUNK_SIZE, HEADER_SIZE, TAG_SIZE, ciphertextLength, decryptStream, deriveKeys, encryptStream,
  formatCode, newCode, newHeader, newSecret, normalizeCode, openMetadata, proof, readHeader,
  sealChunk, sealMetadata, secretFromCode, secretFromText, secretToText,
} from "../src/share/crypto.mjs";
import { random } from "./random-bytes.mjs";

const SMALL = 1024;

/// The stream's bytes, fed in pieces of `piece` bytes, through `transform`.
async function through(transform, bytes, piece = 997) {
  const source = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += piece) controller.enqueue(bytes.slice(i, i + piece));
      controller.close();
    },
  });
  const parts = [];
  for await (const part of source.pipeThrough(transform)) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

async function sealed(plain, secret, password, chunkSize = SMALL) {
  const header = newHeader(chunkSize);
  const keys = await deriveKeys(secret, readHeader(header).salt, password);
  return through(encryptStream(keys.content, header), plain);
}

const opener = (secret, password) => (salt) => deriveKeys(secret, salt, password);

test("files of every size around the chunk boundaries come back whole", async () => {
  const secret = newSecret();
  for (const size of [0, 1, SMALL - 1, SMALL, SMALL + 1, 3 * SMALL, 3 * SMALL + 7]) {
    const plain = random(size, size + 1);
    const cipher = await sealed(plain, secret);
    // Full chunks, the final one flagged: an exact multiple ends on a full final chunk.
    const chunks = Math.max(1, Math.ceil(size / SMALL));
    assert.equal(cipher.length, HEADER_SIZE + size + chunks * TAG_SIZE, `size ${size}`);
    // Reads smaller than a chunk, of exactly one sealed chunk, of several and a bit (opened
    // together), and of the whole stream at once.
    for (const piece of [333, SMALL + TAG_SIZE, 3 * (SMALL + TAG_SIZE) + 5, 1 << 20]) {
      assert.deepEqual(await through(decryptStream(opener(secret)), cipher, piece), plain, `size ${size}, reads of ${piece}`);
    }
  }
});

test("a wrong secret or password is refused", async () => {
  const secret = newSecret();
  const plain = random(5000, 7);
  const cipher = await sealed(plain, secret, "hunter2");
  await assert.rejects(through(decryptStream(opener(newSecret(), "hunter2")), cipher), /does not decrypt/);
  await assert.rejects(through(decryptStream(opener(secret, "hunter3")), cipher), /does not decrypt/);
  await assert.rejects(through(decryptStream(opener(secret)), cipher), /does not decrypt/);
  assert.deepEqual(await through(decryptStream(opener(secret, "hunter2")), cipher), plain);
});

test("a chunk altered, moved, dropped or cut off, or bytes added, are refused", async () => {
  const secret = newSecret();
  const plain = random(4 * SMALL + 100, 3);
  const cipher = await sealed(plain, secret);
  const sealedSize = SMALL + TAG_SIZE;
  const chunk = (i) => cipher.slice(HEADER_SIZE + i * sealedSize, HEADER_SIZE + (i + 1) * sealedSize);
  const header = cipher.slice(0, HEADER_SIZE);
  const join = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const flipped = cipher.slice();
  flipped[HEADER_SIZE + sealedSize + 10] ^= 1;
  const cases = {
    "a bit flipped": flipped,
    "two chunks swapped": join(header, chunk(1), chunk(0), cipher.slice(HEADER_SIZE + 2 * sealedSize)),
    "a chunk dropped": join(header, chunk(0), cipher.slice(HEADER_SIZE + 2 * sealedSize)),
    "the final chunk cut off": cipher.slice(0, HEADER_SIZE + 4 * sealedSize),
    "cut inside a chunk": cipher.slice(0, cipher.length - 50),
    "bytes added": join(cipher, new Uint8Array(20)),
    "the header changed": (() => { const c = cipher.slice(); c[10] ^= 1; return c; })(),
  };
  for (const [what, bytes] of Object.entries(cases)) {
    for (const piece of [997, 1 << 20]) {
      await assert.rejects(through(decryptStream(opener(secret)), bytes, piece), /does not decrypt|cut short/, `${what}, reads of ${piece}`);
    }
  }
});

test("the default chunk size keeps a large file's overhead small", async () => {
  const secret = newSecret();
  const plain = random(CHUNK_SIZE * 5 + 123, 11);
  const cipher = await sealed(plain, secret, undefined, CHUNK_SIZE);
  assert.equal(cipher.length - plain.length, HEADER_SIZE + 6 * TAG_SIZE);
  assert.deepEqual(await through(decryptStream(opener(secret)), cipher, 100_000), plain);
});

test("the metadata, the secret's text and the claim proof", async () => {
  const secret = newSecret();
  const text = secretToText(secret);
  assert.equal(text.length, 43);
  assert.match(text, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(secretFromText(text), secret);
  assert.throws(() => secretFromText(text.slice(0, 20)), /32 bytes/);
  const salt = readHeader(newHeader()).salt;
  const keys = await deriveKeys(secret, salt);
  const meta = { name: "payroll été.xlsx", type: "application/vnd.ms-excel", size: 123 };
  const box = await sealMetadata(keys.metadata, meta);
  assert.deepEqual(await openMetadata(keys.metadata, box), meta);
  const other = await deriveKeys(newSecret(), salt);
  await assert.rejects(openMetadata(other.metadata, box), /wrong secret/);
  // The proof key the server keeps verifies the claim as the server will (HMAC-SHA-256).
  assert.equal(keys.proof.length, 32);
  const nonce = random(32, 5);
  const a = await proof(keys.proof, nonce);
  assert.equal(a.length, 32);
  const { createHmac } = await import("node:crypto");
  assert.deepEqual(new Uint8Array(createHmac("sha256", keys.proof).update(nonce).digest()), a);
  assert.deepEqual(await proof((await deriveKeys(secret, salt)).proof, nonce), a);
  assert.notDeepEqual(await proof(other.proof, nonce), a);
});

test("a typeable code: 20 Crockford characters in groups of 4, read back whatever the typing", async () => {
  const codes = new Set();
  for (let i = 0; i < 200; i++) {
    const code = newCode();
    assert.match(code, /^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}$/);
    codes.add(code);
  }
  assert.equal(codes.size, 200);
  // Every character of the alphabet turns up (100 bits, 5 per character, none favoured).
  const seen = new Set([...codes].join("").replaceAll("-", ""));
  assert.equal(seen.size, 32);
  const code = "7K3M-Q0ZX-1B9T-WR5H-E2NA";
  assert.equal(normalizeCode(code), "7K3MQ0ZX1B9TWR5HE2NA");
  assert.equal(normalizeCode(" 7k3m q0zx-lb9t wr5h e2na "), "7K3MQ0ZX1B9TWR5HE2NA");
  assert.equal(normalizeCode("7K3M-QOZX-IB9T-WR5H-E2NA"), "7K3MQ0ZX1B9TWR5HE2NA");
  assert.equal(normalizeCode("7K3M-Q0ZX-1B9T-WR5H-E2N"), null, "one character short");
  assert.equal(normalizeCode("7K3M-Q0ZX-1B9T-WR5H-E2NU"), null, "U is not in the alphabet");
  assert.equal(formatCode("7K3MQ0ZX1B9TWR5HE2NA"), code);
});

test("a code gives the share's secret through PBKDF2 with the share's salt", async () => {
  const salt = readHeader(newHeader()).salt;
  const code = newCode();
  const secret = await secretFromCode(code, salt);
  assert.equal(secret.length, 32);
  assert.deepEqual(await secretFromCode(code.toLowerCase().replaceAll("-", " "), salt), secret);
  const { pbkdf2Sync } = await import("node:crypto");
  const expected = pbkdf2Sync(normalizeCode(code), salt, 600_000, 32, "sha256");
  assert.deepEqual(secret, new Uint8Array(expected));
  const otherSalt = readHeader(newHeader()).salt;
  assert.notDeepEqual(await secretFromCode(code, otherSalt), secret);
  await assert.rejects(secretFromCode("not a code", salt), /20 characters/);
  // The recipient, with the code and the share's salt, opens what the sender sealed.
  const header = newHeader(SMALL);
  const sent = await secretFromCode(code, readHeader(header).salt);
  const plain = random(3000, 9);
  const cipher = await through(encryptStream((await deriveKeys(sent, readHeader(header).salt)).content, header), plain);
  const received = await secretFromCode(code.toLowerCase(), readHeader(cipher).salt);
  assert.deepEqual(await through(decryptStream(opener(received)), cipher), plain);
});

test("chunks sealed one by one are the stream's bytes: an upload resumes mid-chunk", async () => {
  const secret = newSecret();
  for (const size of [0, SMALL, 5 * SMALL + 77]) {
    const header = newHeader(SMALL);
    const { content } = await deriveKeys(secret, readHeader(header).salt);
    const plain = random(size, size + 3);
    const whole = await through(encryptStream(content, header), plain);
    assert.equal(whole.length, ciphertextLength(size, SMALL));
    const chunks = Math.max(1, Math.ceil(size / SMALL));
    const parts = [header];
    for (let i = 0; i < chunks; i++) {
      parts.push(await sealChunk(content, header, i, plain.subarray(i * SMALL, (i + 1) * SMALL), i === chunks - 1));
    }
    const joined = new Uint8Array(whole.length);
    let at = 0;
    for (const part of parts) { joined.set(part, at); at += part.length; }
    assert.deepEqual(joined, whole, `size ${size}`);
  }
  assert.equal(ciphertextLength(CHUNK_SIZE * 2), HEADER_SIZE + CHUNK_SIZE * 2 + 2 * TAG_SIZE);
});
