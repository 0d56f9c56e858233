// The recipient's page (/s/{token}): opening it changes nothing (the facts come from
// /s/{token}/info). The key comes from the link's fragment, or from the secret typed here (and
// the password, when the share has one); a proof of it opens the sealed name and size without
// using a download, so a wrong secret says so and costs only one of the share's tries. Only the
// Download button claims a download: the page decrypts the file and its service worker
// (share-sw.js) hands it to the browser's download as it comes; a text is decrypted in the page
// and shown.
import {
  ciphertextLength, decryptStream, deriveKeys, normalizeCode, openMetadata, proof, secretFromCode, secretFromText,
} from "./share/crypto.mjs";
import { base64url, bytes, byId, copyRow, element, fromBase64url, problemOf, problemText, say, when } from "./share/ui.mjs";

/// A download stopped on the recipient's side (cancelled in the browser).
class Stopped extends Error {}

const root = byId("share");
/// The service worker, registered as soon as the page opens so that it is ready by the time
/// the download is asked for; null where there is none (no support, or a private window).
const worker = root ? registerWorker() : null;
if (root) start(root.dataset.token);

async function registerWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    await navigator.serviceWorker.register("/s/sw.js", { scope: "/s/" });
    const timeout = new Promise((resolve) => setTimeout(() => resolve(null), 10_000));
    const registration = await Promise.race([navigator.serviceWorker.ready, timeout]);
    return registration?.active || null;
  } catch {
    return null;
  }
}

async function start(token) {
  const api = (action) => `/s/${encodeURIComponent(token)}/${action}`;
  const facts = byId("share-facts");
  const error = byId("share-error");
  const unlock = byId("unlock");
  const fragment = decodeURIComponent(location.hash.slice(1));
  let info;
  let keys;
  let metadata;

  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
  };
  const gone = (status, problem) => {
    fail(problemText(status, problem));
    unlock.hidden = true;
    byId("opened").hidden = true;
  };
  const showFacts = () => {
    const left = say(`${info.downloadsLeft} download(s) left`, `${info.downloadsLeft} téléchargement(s) restant(s)`);
    const expires = info.expiresAt ? say(`expires ${when(info.expiresAt)}`, `expire le ${when(info.expiresAt)}`) : "";
    facts.textContent = [left, expires].filter(Boolean).join(" · ");
  };

  /// The share's facts, refreshed; null (and the page says why) once it cannot be read.
  async function fetchInfo() {
    const response = await fetch(api("info"), { cache: "no-store" });
    if (!response.ok) {
      gone(response.status, await problemOf(response));
      return null;
    }
    info = await response.json();
    showFacts();
    return info;
  }

  if (!(await fetchInfo())) return;
  if (!info.salt) {
    fail(say("This server does not give what the page needs to open the share (its salt).",
      "Ce serveur ne donne pas ce dont la page a besoin pour ouvrir le partage (son sel)."));
    return;
  }
  const salt = fromBase64url(info.salt);
  byId("code-part").hidden = Boolean(fragment);
  byId("password-part").hidden = !info.password;
  byId("share-code").required = !fragment;
  byId("share-password").required = info.password;

  /// Asks a challenge and answers it: `{nonce, proof}` for open or claim.
  async function answer() {
    const challenge = await fetch(api("challenge"), { method: "POST", cache: "no-store" });
    if (!challenge.ok) throw Object.assign(new Error("challenge"), { status: challenge.status, problem: await problemOf(challenge) });
    const { nonce } = await challenge.json();
    return { nonce, proof: base64url(await proof(keys.proof, fromBase64url(nonce))) };
  }
  /// POST /s/{token}/{action} with a fresh proof; a stale challenge is asked again once.
  async function proven(action) {
    for (let attempt = 0; ; attempt++) {
      const body = JSON.stringify(await answer());
      const reply = await fetch(api(action), { method: "POST", headers: { "Content-Type": "application/json" }, body, cache: "no-store" });
      if (reply.status !== 409 || attempt > 0) return reply;
    }
  }

  async function open() {
    error.hidden = true;
    const button = unlock.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      let secret;
      if (fragment) {
        secret = secretFromText(fragment);
      } else {
        const typed = byId("share-code").value;
        if (!normalizeCode(typed)) {
          fail(say("A secret is 20 letters and digits (like ABCD-EFGH-JKMN-PQRS-TVWX): check what you typed.",
            "Un secret compte 20 lettres et chiffres (comme ABCD-EFGH-JKMN-PQRS-TVWX) : vérifiez la saisie."));
          return;
        }
        secret = await secretFromCode(typed, salt);
      }
      keys = await deriveKeys(secret, salt, byId("share-password").value || undefined);
      const reply = await proven("open");
      const problem = reply.ok ? null : await problemOf(reply);
      if (problem?.code === "share-secret-wrong") {
        const header = reply.headers.get("X-Share-Tries-Left");
        const left = header !== null ? Number(header) : (await fetchInfo())?.triesLeft;
        // The last wrong try deleted the share: fetchInfo said so.
        if (left === undefined) return;
        fail(say(`Wrong ${info.password ? "secret or password" : "secret"}: ${left} tries left before the share is deleted.`,
          `${info.password ? "Secret ou mot de passe incorrect" : "Secret incorrect"} : encore ${left} essai(s) avant que le partage soit supprimé.`));
        unlock.hidden = false;
        return;
      }
      if (!reply.ok) {
        gone(reply.status, problem);
        return;
      }
      const opened = await reply.json();
      metadata = await openMetadata(keys.metadata, fromBase64url(opened.metadata));
      showOpened();
    } catch (failure) {
      fail(failure.status ? problemText(failure.status, failure.problem) : failure.message);
      unlock.hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  function showOpened() {
    unlock.hidden = true;
    const text = metadata.kind === "text";
    byId("share-name").textContent = text ? say("A text (a password, a note…)", "Un texte (un mot de passe, une note…)")
      : `${metadata.name} (${bytes(metadata.size)})`;
    byId("download").textContent = text ? say("Show the text", "Afficher le texte") : say("Download", "Télécharger");
    byId("opened").hidden = false;
  }

  unlock.addEventListener("submit", (event) => {
    event.preventDefault();
    open();
  });
  byId("download").addEventListener("click", () => (metadata.kind === "text" ? reveal() : download()));

  const progress = byId("download-progress");
  const status = byId("download-status");
  const finished = async () => {
    // The last download deletes the share: the facts say so rather than a stale count.
    const again = await fetch(api("info"), { cache: "no-store" });
    if (again.ok) {
      info = await again.json();
      showFacts();
      // Downloads left: the button works again (a new challenge, a new claim).
      byId("download").disabled = info.downloadsLeft < 1;
    } else {
      facts.textContent = say("That was the last download: the share is deleted from the server.",
        "C'était le dernier téléchargement : le partage est supprimé du serveur.");
    }
  };
  const damaged = (why) => {
    progress.hidden = true;
    fail(say(`The file is damaged: it does not decrypt (${why}). Nothing usable was saved.`,
      `Le fichier est endommagé : il ne se déchiffre pas (${why}). Rien d'utilisable n'a été enregistré.`));
  };

  /// Claims a download and decrypts it, each plaintext piece handed to `sink` (which may take
  /// its time: the next network read waits); `claimed()` is called once the server gave the
  /// download. True when the whole file went through; otherwise the page says why (a refusal,
  /// a lost connection, a file that does not decrypt, a download cancelled) and false.
  async function decryptInPage(sink, claimed = () => {}) {
    let reply;
    try {
      reply = await proven("claim");
    } catch (failure) {
      progress.hidden = true;
      status.textContent = "";
      if (failure.status) gone(failure.status, failure.problem);
      else fail(say(`The connection was lost: ${failure.message}. Try again.`, `La connexion a été perdue : ${failure.message}. Réessayez.`));
      return false;
    }
    if (!reply.ok) {
      progress.hidden = true;
      status.textContent = "";
      gone(reply.status, await problemOf(reply));
      return false;
    }
    claimed();
    const reader = reply.body.pipeThrough(decryptStream(async () => keys)).getReader();
    let saved = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return true;
        await sink(value);
        saved += value.length;
        progress.value = metadata.size ? Math.round((saved / metadata.size) * 100) : 100;
      }
    } catch (failure) {
      reader.cancel(failure).catch(() => {});
      status.textContent = "";
      // A network error is a TypeError; a chunk that does not decrypt, an Error of the format's.
      if (failure instanceof Stopped || failure instanceof TypeError) {
        progress.hidden = true;
        fail(say(`The download stopped: ${failure.message}. It counted as one download.`, `Le téléchargement s'est arrêté : ${failure.message}. Il compte pour un téléchargement.`));
      } else {
        damaged(failure.message);
      }
      finished();
      return false;
    }
  }

  async function reveal() {
    byId("download").disabled = true;
    const decoder = new TextDecoder();
    let text = "";
    if (!(await decryptInPage((piece) => (text += decoder.decode(piece, { stream: true }))))) return;
    text += decoder.decode();
    byId("opened").hidden = true;
    const shown = byId("share-text-result");
    shown.replaceChildren(element("h2", {}, say("The text", "Le texte")), copyRow("share-text-value", say("The text", "Le texte"), text, true));
    shown.hidden = false;
    finished();
  }

  /// The hidden frame of the last download through the service worker.
  let lastFrame = null;

  async function download() {
    const button = byId("download");
    button.disabled = true;
    error.hidden = true;
    progress.hidden = false;
    progress.value = 0;
    status.textContent = say("Downloading and decrypting…", "Téléchargement et déchiffrement…");
    const active = await worker;
    if (!active) {
      await saveFromMemory();
      return;
    }
    const id = base64url(crypto.getRandomValues(new Uint8Array(18)));
    const channel = new MessageChannel();
    const port = channel.port1;
    const ready = new Promise((resolve) => (port.onmessage = resolve));
    // The size goes in Content-Length only when it agrees with the ciphertext's.
    const size = ciphertextLength(metadata.size) === info.size ? metadata.size : undefined;
    active.postMessage({ save: { id, name: metadata.name, type: metadata.type, size } }, [channel.port2]);
    await ready;
    const frame = element("iframe", { hidden: "", src: `/s/save/${id}`, title: "download" });
    // Pings keep the worker alive however long the download takes.
    const ping = setInterval(() => active.postMessage({ ping: true }), 10_000);
    // A frame the worker does not see (a worker replaced meanwhile) would wait forever: after
    // a while without a word from it, the page decrypts in memory instead.
    const unseen = setTimeout(() => {
      clearInterval(ping);
      frame.remove();
      saveFromMemory();
    }, 15_000);
    port.onmessage = async ({ data }) => {
      if (!data.started) return;
      clearTimeout(unseen);
      try {
        await saveThrough(port);
      } finally {
        clearInterval(ping);
      }
    };
    // The last download's frame stays until the next: removed as soon as the page has sent the
    // last piece, it cancelled the download when the browser had not yet made one of it (a
    // small file, one time in fifteen).
    lastFrame?.remove();
    lastFrame = frame;
    document.body.append(frame);
  }

  /// The download through the service worker, whose frame waits on `port`: the claim, then
  /// the plaintext piece by piece as the worker asks for it (share-sw.js).
  async function saveThrough(port) {
    let claimed = false;
    let credit = 0;
    let cancelled = false;
    let saved = 0;
    let shown = 0;
    let wake = () => {};
    port.onmessage = ({ data }) => {
      if (data.more) credit += data.more;
      if (data.cancelled) cancelled = true;
      wake();
    };
    const send = async (piece) => {
      while (credit < 1 && !cancelled) await new Promise((resolve) => (wake = resolve));
      if (cancelled) throw new Stopped(say("the download was cancelled", "le téléchargement a été annulé"));
      credit -= 1;
      saved += piece.length;
      if (saved - shown >= 1 << 20) {
        shown = saved;
        status.textContent = `${say("Downloading and decrypting", "Téléchargement et déchiffrement")}: ${bytes(saved)} / ${bytes(metadata.size)}`;
      }
      // The piece's buffer moves to the worker rather than being copied.
      const buffer = piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength ? piece.buffer : piece.slice().buffer;
      port.postMessage({ piece: buffer }, [buffer]);
    };
    const begin = () => {
      claimed = true;
      port.postMessage({ begin: true });
    };
    if (!(await decryptInPage(send, begin))) {
      // Not claimed: the frame is answered with nothing; claimed: the browser's download fails.
      port.postMessage(claimed ? { error: "the download stopped" } : { refused: true });
      return;
    }
    port.postMessage({ done: true });
    progress.value = 100;
    status.textContent = say(`Saved: ${metadata.name}. Find it in your downloads.`, `Enregistré : ${metadata.name}. Retrouvez-le dans vos téléchargements.`);
    finished();
  }

  /// Without a service worker: the whole file in memory, then saved.
  async function saveFromMemory() {
    byId("memory-notice").hidden = false;
    const parts = [];
    if (!(await decryptInPage((piece) => parts.push(piece)))) return;
    const url = URL.createObjectURL(new Blob(parts, { type: metadata.type || "application/octet-stream" }));
    const link = element("a", { href: url, download: metadata.name, class: "button" }, say("Save the file again", "Enregistrer à nouveau"));
    status.textContent = say(`Decrypted: ${metadata.name}.`, `Déchiffré : ${metadata.name}.`);
    status.append(" ", link);
    link.click();
    finished();
  }

  if (fragment && !info.password) {
    await open();
  } else {
    unlock.hidden = false;
  }
}
