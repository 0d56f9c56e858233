// The recipient's service worker (/s/sw.js, scope /s/): it saves a share's file as the page
// decrypts it, so memory stays at a few pieces whatever the file's size (as StreamSaver does).
// The page hands over what the answer needs (name, type, size) with a message port, then sends
// a hidden frame to /s/save/{id}. This worker tells the page it has the frame, and answers it
// once the page has claimed the download: with nothing (204) when the claim was refused, else
// with the plaintext pieces the page sends on the port, as an attachment, asking for the next
// as the browser takes them. The page fetches and decrypts: the same fetch made here and piped
// into the download ran at half the speed. A piece that does not decrypt errors the stream,
// and the browser marks the download failed.

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
  event.respondWith(job ? save(job) : new Response("this download was already started, or the page that asked for it is gone", { status: 404 }));
});

/// Pieces queued here or on their way from the page, at most.
const WINDOW = 8;

/// The frame's answer, once the page says how the claim went.
function save(job) {
  const { port } = job;
  return new Promise((resolve) => {
    let controller;
    let asked = 0;
    let received = 0;
    const body = new ReadableStream({
      start(c) {
        controller = c;
      },
      // Asks for as many pieces as the queue has room for, less those on their way.
      pull(c) {
        const more = c.desiredSize - (asked - received);
        if (more <= 0) return;
        asked += more;
        port.postMessage({ more });
      },
      cancel() {
        port.postMessage({ cancelled: true });
      },
    }, { highWaterMark: WINDOW });
    port.onmessage = ({ data }) => {
      if (data.piece) {
        received += 1;
        controller.enqueue(new Uint8Array(data.piece));
      }
      else if (data.begin) resolve(new Response(body, { headers: headers(job) }));
      // 204: the hidden frame stays as it is, nothing is saved.
      else if (data.refused) resolve(new Response(null, { status: 204 }));
      else if (data.done) controller.close();
      else if (data.error) controller.error(new Error(data.error));
    };
    port.postMessage({ started: true });
  });
}

function headers(job) {
  const headers = {
    "Content-Type": job.type || "application/octet-stream",
    "Content-Disposition": disposition(job.name),
    "X-Content-Type-Options": "nosniff",
    // Whatever the sender named the type, the frame never runs it.
    "Content-Security-Policy": "sandbox; default-src 'none'",
  };
  if (Number.isSafeInteger(job.size)) headers["Content-Length"] = String(job.size);
  return headers;
}

/// RFC 6266: an ASCII fallback name, and the real one in UTF-8 (RFC 8187).
function disposition(name) {
  const fallback = (name || "download").replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name || "download").replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
