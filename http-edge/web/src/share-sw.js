// The recipient's service worker (/s/sw.js, scope /s/): it saves a share's file as it decrypts
// it, so memory stays at a chunk or two whatever the file's size (as Firefox Send and
// StreamSaver do). The page hands over what a download needs (the content key as a
// non-extractable CryptoKey, the challenge's nonce and proof, name, type and size) with a
// message port, then sends a hidden frame to /s/save/{id}: this worker answers that navigation
// with the claimed ciphertext piped through the decryption, as an attachment, and reports
// progress and failures on the port. A chunk that does not decrypt errors the stream: the
// browser marks the download failed, and the page says the file is damaged.
import { decryptStream } from "./share/crypto.mjs";

const SAVE = /^\/s\/save\/([A-Za-z0-9_-]{16,64})$/;
/// Downloads handed over and not yet started, by id; each is taken once.
const pending = new Map();

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  const save = event.data?.save;
  const port = event.ports[0];
  // Other messages are the page's pings, which keep this worker alive during a long download.
  if (!save || !port) return;
  pending.set(save.id, { ...save, port });
  // A download handed over and never started (the page went away) is dropped.
  setTimeout(() => pending.delete(save.id), 60_000);
  port.postMessage({ ready: true });
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const match = url.origin === self.location.origin && SAVE.exec(url.pathname);
  if (!match) return;
  const job = pending.get(match[1]);
  pending.delete(match[1]);
  job?.port.postMessage({ started: true });
  event.respondWith(job ? save(job) : new Response("this download was already started, or the page that asked for it is gone", { status: 404 }));
});

async function save(job) {
  const { port } = job;
  let response;
  try {
    response = await fetch(`/s/${encodeURIComponent(job.token)}/claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ nonce: job.nonce, proof: job.proof }),
      cache: "no-store",
    });
  } catch (error) {
    port.postMessage({ error: `the connection was lost: ${error.message}`, lost: true });
    return new Response(null, { status: 204 });
  }
  if (!response.ok) {
    const type = response.headers.get("Content-Type") || "";
    const problem = type.includes("json") ? await response.json().catch(() => null) : null;
    port.postMessage({ status: response.status, problem });
    // 204: the hidden frame stays as it is, nothing is saved.
    return new Response(null, { status: 204 });
  }
  const reader = response.body.pipeThrough(decryptStream(async () => ({ content: job.key }))).getReader();
  let saved = 0;
  let reported = 0;
  const body = new ReadableStream({
    async pull(controller) {
      let read;
      try {
        read = await reader.read();
      } catch (error) {
        port.postMessage({ error: error.message, saved });
        controller.error(error);
        return;
      }
      if (read.done) {
        port.postMessage({ done: true, saved });
        controller.close();
        return;
      }
      saved += read.value.length;
      if (saved - reported >= 1 << 20) {
        reported = saved;
        port.postMessage({ progress: saved });
      }
      controller.enqueue(read.value);
    },
    cancel(reason) {
      port.postMessage({ error: "the download was cancelled", cancelled: true, saved });
      return reader.cancel(reason);
    },
  }, { highWaterMark: 1 });
  const headers = {
    "Content-Type": job.type || "application/octet-stream",
    "Content-Disposition": disposition(job.name),
    "X-Content-Type-Options": "nosniff",
    // Whatever the sender named the type, the frame never runs it.
    "Content-Security-Policy": "sandbox; default-src 'none'",
  };
  if (Number.isSafeInteger(job.size)) headers["Content-Length"] = String(job.size);
  return new Response(body, { headers });
}

/// RFC 6266: an ASCII fallback name, and the real one in UTF-8 (RFC 8187).
function disposition(name) {
  const fallback = (name || "download").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name || "download").replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
