// The sender's upload of a share with tus (/api/tus): the page creates the upload, asks where
// the server's copy ends after a failure, and hands each range of the ciphertext to a new
// worker (share-upload-worker.js) that seals it from the file and sends it (pieces.mjs). The
// worker is ended after its range: what it allocated (the pieces' buffers and Blobs, which a
// garbage collector frees late) goes with it, so the browser's memory stays bounded whatever
// the file's size; and a cut connection resumes where the server stopped.
import { Interrupted, Pieces, Refused } from "./pieces.mjs";

export { Interrupted, Refused };

/// Pieces a worker sends before it is ended: 64 MiB.
const PIECES_PER_WORKER = 2;
/// Failed tries in a row (without any byte getting through) before the page gives up and
/// offers to resume by hand; waits double from 1 s to 15 s between them.
const RETRIES = 8;
const WORKER = "/assets/share-upload-worker.js";

const base64 = (bytes) => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function refusal(response) {
  const type = response.headers.get("Content-Type") || "";
  const problem = type.includes("json") ? await response.json().catch(() => null) : null;
  return response.status >= 500 && response.status !== 507 ? new Interrupted(`the server answered ${response.status}`) : new Refused(response.status, problem);
}

export class ShareUpload {
  /// `source`: the plaintext (a File, or a Blob of the text); `key`: the content key;
  /// `metadata`: the tus Upload-Metadata entries (raw bytes or strings); `csrf`: the session's
  /// anti-CSRF token; `onProgress(sent, total)`, `onRetry(seconds)` for the page.
  constructor({ source, key, header, metadata, csrf, onProgress = () => {}, onRetry = () => {} }) {
    Object.assign(this, { source, key, header, metadata, csrf, onProgress, onRetry });
    this.pieces = new Pieces({ source, key, header });
    this.length = this.pieces.length;
    this.location = null;
    this.spare = null;
  }

  headers(extra = {}) {
    return { "Tus-Resumable": "1.0.0", "X-CSRF-Token": this.csrf, ...extra };
  }

  /// Sends what the server does not have yet, creating the upload the first time; call again
  /// after a failure to resume. Resolves with the stored share (GET /api/tus/{id}'s JSON).
  async run() {
    let failures = 0;
    let offset = null;
    for (;;) {
      try {
        if (!this.location) {
          // The first worker seals its first pieces while the upload is created, which then
          // holds nothing: no need to ask where it ends.
          if (this.spare?.from !== 0) {
            this.dropSpare();
            this.spare = this.worker(0);
          }
          await this.create();
          offset = 0;
        }
        if (offset === null) offset = await this.offset();
        if (offset >= this.length) {
          this.dropSpare();
          return await this.stored();
        }
        const reached = await this.range(offset);
        if (reached > offset) failures = 0;
        offset = reached;
      } catch (error) {
        if (!(error instanceof Interrupted) || ++failures > RETRIES) {
          this.dropSpare();
          throw error;
        }
        const wait = Math.min(15, 2 ** (failures - 1));
        this.onRetry(wait);
        await sleep(wait * 1000);
        offset = null;
      }
    }
  }

  /// One worker's range from `offset`; resolves with the server's offset after it. The worker
  /// for the next range is started while this one sends its last piece, and seals its first
  /// piece meanwhile: a new worker's first piece left the connection idle for 60 to 100 ms.
  range(offset) {
    let worker = this.spare?.from === offset ? this.spare : null;
    if (!worker) worker = this.worker(offset);
    else this.spare = null;
    this.dropSpare();
    worker.post({ go: true, location: new URL(this.location, document.baseURI).href });
    return new Promise((resolve, reject) => {
      worker.listen((data) => {
        if (data.progress !== undefined) {
          this.onProgress(data.progress, this.length);
          return;
        }
        if (data.last !== undefined) {
          if (worker.to < this.length) this.spare = this.worker(worker.to);
          return;
        }
        worker.end();
        if (data.reached !== undefined) {
          this.onProgress(data.reached, this.length);
          resolve(data.reached);
        } else if (data.refused !== undefined) {
          reject(new Refused(data.refused, data.problem));
        } else if (data.interrupted !== undefined) {
          reject(new Interrupted(data.interrupted));
        } else {
          reject(new Error(data.failed));
        }
      }, (message) => {
        worker.end();
        reject(new Error(`the upload worker failed: ${message}`));
      });
    });
  }

  /// A worker told its range from `from`: it seals its first pieces at once and sends them
  /// when told to go, and where.
  worker(from) {
    let to = from;
    for (let i = 0; i < PIECES_PER_WORKER && to < this.length; i++) to = this.pieces.end(to);
    const worker = new Worker(WORKER);
    const { source, key, header, csrf } = this;
    worker.postMessage({ source, key, header, csrf, from, to });
    return {
      from,
      to,
      post: (message) => worker.postMessage(message),
      listen: (onMessage, onError) => {
        worker.addEventListener("message", ({ data }) => onMessage(data));
        worker.addEventListener("error", (event) => onError(event.message));
      },
      end: () => worker.terminate(),
    };
  }

  /// Ends a spare worker that will not be used (the upload stopped, or resumes elsewhere).
  dropSpare() {
    this.spare?.end();
    this.spare = null;
  }

  async create() {
    const entries = Object.entries(this.metadata).map(([k, v]) => `${k} ${base64(typeof v === "string" ? new TextEncoder().encode(v) : v)}`);
    const response = await this.fetch("/api/tus", {
      method: "POST",
      headers: this.headers({ "Upload-Length": String(this.length), "Upload-Metadata": entries.join(",") }),
    });
    if (response.status !== 201) throw await refusal(response);
    this.location = response.headers.get("Location");
  }

  /// Where the server's copy ends (HEAD).
  async offset() {
    const response = await this.fetch(this.location, { method: "HEAD", headers: this.headers(), cache: "no-store" });
    if (!response.ok) throw await refusal(response);
    return Number(response.headers.get("Upload-Offset"));
  }

  async stored() {
    const response = await this.fetch(this.location, { headers: this.headers(), cache: "no-store" });
    if (!response.ok) throw await refusal(response);
    return response.json();
  }

  async fetch(url, init) {
    try {
      return await fetch(url, init);
    } catch (error) {
      throw new Interrupted(error.message);
    }
  }
}
