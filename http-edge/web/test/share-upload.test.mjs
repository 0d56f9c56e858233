// The sender's upload worker (src/share/pieces.mjs) builds each PATCH's bytes by sealing chunks
// on their own: from any offset (inside the header, inside a chunk, where a cut-off PATCH leaves
// the server's copy) they must be the bytes the whole stream has there. Run by tests/tests/web.rs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deriveKeys, encryptStream, newHeader, newSecret, readHeader } from "../src/share/crypto.mjs";
import { CHUNKS_PER_PIECE, Pieces } from "../src/share/pieces.mjs";
import { random } from "./random-bytes.mjs";

const CHUNK = 1024;
/// Bytes of ciphertext a piece holds after the header.
const PIECE = CHUNKS_PER_PIECE * (CHUNK + 16);
/// Two full pieces and a bit.
const PIECES = 2 * CHUNKS_PER_PIECE * CHUNK;

async function whole(key, header, plain) {
  const parts = [];
  const source = new Blob([plain]).stream().pipeThrough(encryptStream(key, header));
  for await (const part of source) parts.push(part);
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

async function setUp(size) {
  const header = newHeader(CHUNK);
  const { content } = await deriveKeys(newSecret(), readHeader(header).salt);
  const plain = random(size, size + 5);
  const upload = new Pieces({ source: new Blob([plain]), key: content, header });
  return { upload, expected: await whole(content, header, plain) };
}

test("pieces from the start are the whole stream, in pieces that end on chunk boundaries", async () => {
  for (const size of [0, 1, CHUNK, CHUNKS_PER_PIECE * CHUNK, CHUNKS_PER_PIECE * CHUNK + 1, PIECES + 77]) {
    const { upload, expected } = await setUp(size);
    assert.equal(upload.length, expected.length, `size ${size}`);
    const sent = [];
    for (let offset = 0; offset < upload.length;) {
      const piece = new Uint8Array(await (await upload.piece(offset)).arrayBuffer());
      assert.ok(piece.length > 0 && piece.length <= PIECE + 31);
      const end = offset + piece.length;
      assert.ok(end === upload.length || (end - 31) % PIECE === 0, `piece ends at ${end}`);
      sent.push(piece);
      offset = end;
    }
    assert.deepEqual(new Uint8Array(await new Blob(sent).arrayBuffer()), expected, `size ${size}`);
  }
});

test("a piece from any offset is the stream's bytes there: an upload resumes mid-chunk", async () => {
  const { upload, expected } = await setUp(PIECES + 77);
  const sealed = CHUNK + 16;
  const offsets = [1, 30, 31, 32, 31 + sealed - 1, 31 + sealed, 31 + 5 * sealed + 500, 31 + PIECE - 1, 31 + PIECE,
    31 + PIECE + 3, expected.length - 100, expected.length - 1];
  for (const offset of offsets) {
    const piece = new Uint8Array(await (await upload.piece(offset)).arrayBuffer());
    assert.deepEqual(piece, expected.subarray(offset, offset + piece.length), `offset ${offset}`);
    const end = offset + piece.length;
    assert.ok(end === expected.length || (end - 31) % PIECE === 0, `offset ${offset}: the piece ends on its boundary`);
  }
});
