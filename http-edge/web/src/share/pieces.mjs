// What the upload worker (share-upload-worker.js) does with a range of a share's ciphertext:
// seal it piece by piece from the file and PATCH each piece to the tus upload, the next piece
// sealed while one travels. A chunk's ciphertext depends only on the key, the header, its index
// and its plaintext, so a range may start anywhere (inside a chunk, where a cut-off PATCH left
// the server's copy): the chunk is sealed again and the bytes the server has are skipped.
import { HEADER_SIZE, TAG_SIZE, ciphertextLength, readHeader, sealChunk } from "./crypto.mjs";

/// Chunks per PATCH: 32 MiB of plaintext. Each PATCH costs about 10 ms besides its bytes (192
/// MiB of ready Blobs went in 0.32 s as one PATCH, 0.37 s in 32 MiB PATCHes, 0.44 s in 16 MiB
/// ones), so larger pieces are faster (a 200 MiB share: 1.0 to 1.07 s with 32 MiB, 1.1 to
/// 1.2 s with 16); but the browser holds two of them (one sealed while the other travels).
export const CHUNKS_PER_PIECE = 512;

/// A request that failed on the way (connection lost, server restarting): worth retrying.
export class Interrupted extends Error {}

/// A refusal in the server's words (RFC 9457 problem): not worth retrying.
export class Refused extends Error {
  constructor(status, problem) {
    super(problem?.detail || `the server answered ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/// The ciphertext of `source` (a File or Blob) under `key` and `header`, piece by piece.
export class Pieces {
  constructor({ source, key, header }) {
    Object.assign(this, { source, key, header });
    this.chunkSize = readHeader(header).chunkSize;
    this.length = ciphertextLength(source.size, this.chunkSize);
    this.chunks = Math.max(1, Math.ceil(source.size / this.chunkSize));
    this.span = CHUNKS_PER_PIECE * (this.chunkSize + TAG_SIZE);
  }

  /// Where the piece holding `offset` ends: pieces end on chunk boundaries, so only a resumed
  /// piece starts inside a chunk.
  end(offset) {
    return Math.min(this.length, HEADER_SIZE + (Math.floor(Math.max(0, offset - HEADER_SIZE) / this.span) + 1) * this.span);
  }

  /// The ciphertext from `offset` to the end of its piece, as a Blob of the sealed chunks:
  /// Chromium sends a Blob several times faster than a typed array.
  async piece(offset) {
    const sealedSize = this.chunkSize + TAG_SIZE;
    const end = this.end(offset);
    const parts = [];
    if (offset < HEADER_SIZE) parts.push(this.header.subarray(offset, Math.min(HEADER_SIZE, end)));
    if (end <= HEADER_SIZE) return new Blob(parts);
    const first = Math.floor(Math.max(0, offset - HEADER_SIZE) / sealedSize);
    const last = Math.min(this.chunks - 1, Math.floor((end - 1 - HEADER_SIZE) / sealedSize));
    const size = this.chunkSize;
    const plain = new Uint8Array(await this.source.slice(first * size, Math.min((last + 1) * size, this.source.size)).arrayBuffer());
    // WebCrypto seals the chunks in parallel off the calling thread.
    const sealed = await Promise.all(Array.from({ length: last - first + 1 }, (_, k) => {
      const index = first + k;
      return sealChunk(this.key, this.header, index, plain.subarray(k * size, (k + 1) * size), index === this.chunks - 1);
    }));
    sealed.forEach((bytes, k) => {
      const start = HEADER_SIZE + (first + k) * sealedSize;
      const from = Math.max(offset, start);
      const to = Math.min(end, start + bytes.length);
      if (to > from) parts.push(bytes.subarray(from - start, to - start));
    });
    return new Blob(parts);
  }

  /// Sends the ciphertext from `from` to `to` (a piece boundary, or the end) to the tus upload
  /// at `location`, starting with `first` (the piece at `from`, if already being sealed);
  /// `onLast()` is called as the last PATCH starts. Resolves with the server's offset after the
  /// last PATCH.
  async send({ location, csrf, from, to, first, onProgress, onLast = () => {} }) {
    let offset = from;
    let next = first ?? this.piece(offset);
    while (offset < to) {
      let body = await next;
      const end = offset + body.size;
      next = end < to ? this.piece(end) : null;
      // A failed PATCH leaves the piece being sealed to the garbage collector.
      next?.catch(() => {});
      if (!next) onLast();
      const reached = await patch(location, csrf, offset, body, onProgress);
      body = null;
      if (reached !== end) return reached;
      offset = reached;
    }
    return offset;
  }
}

/// One PATCH; resolves with the server's new offset.
function patch(location, csrf, offset, body, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PATCH", location);
    const headers = {
      "Tus-Resumable": "1.0.0", "X-CSRF-Token": csrf, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream",
    };
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", (e) => onProgress(offset + e.loaded));
    request.addEventListener("load", () => {
      if (request.status === 204) {
        resolve(Number(request.getResponseHeader("Upload-Offset")));
        return;
      }
      let problem = null;
      try {
        problem = (request.getResponseHeader("Content-Type") || "").includes("json") ? JSON.parse(request.responseText) : null;
      } catch {
        problem = null;
      }
      // 409: the offset moved under us (a cut-off PATCH still stored part of itself): ask the
      // server again, as after a lost connection.
      const again = request.status === 409 || (request.status >= 500 && request.status !== 507);
      reject(again ? new Interrupted(`the server answered ${request.status}`) : new Refused(request.status, problem));
    });
    const lost = () => reject(new Interrupted("the connection was lost"));
    request.addEventListener("error", lost);
    request.addEventListener("timeout", lost);
    request.send(body);
  });
}
