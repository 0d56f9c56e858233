// The sender's page (/share): a file or a text is encrypted here before any byte leaves the
// browser, sent with the resumable uploader, and handed back as a link whose fragment holds the
// key (never sent to a server), or as a link and a short typeable secret for two channels.
// Bundled by esbuild with the crypto and the QR library (build.rs).
import {
  deriveKeys, newCode, newHeader, newSecret, readHeader, sealMetadata, secretFromCode, secretToText,
} from "./share/crypto.mjs";
import { qrImage } from "./share/qr.mjs";
import { bytes, byId, copyRow, element, problemText, say, when } from "./share/ui.mjs";
import { Interrupted, Refused, ShareUpload } from "./share/upload.mjs";

const form = byId("share-form");
if (form) setUp(form);

function setUp(form) {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content || "";
  const button = form.querySelector("button[type=submit]");
  const label = button.textContent;
  const progress = byId("share-progress");
  const status = byId("share-status");
  const error = byId("share-error");
  const result = byId("share-result");
  // An upload the connection broke off for good: the button resumes it with the same keys.
  let interrupted = null;

  const kinds = () => {
    const text = form.elements.kind.value === "text";
    byId("file-part").hidden = text;
    byId("text-part").hidden = !text;
    byId("share-file").required = !text;
    byId("share-text").required = text;
  };
  for (const radio of form.elements.kind) radio.addEventListener("change", kinds);
  kinds();
  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
  };

  async function send(job) {
    button.disabled = true;
    progress.hidden = false;
    status.textContent = say("Encrypting and sending…", "Chiffrement et envoi…");
    try {
      const stored = await job.upload.run();
      interrupted = null;
      button.textContent = label;
      progress.hidden = true;
      status.textContent = "";
      showResult(result, stored, job);
      // What was typed is no longer needed in the page.
      form.reset();
      kinds();
      form.hidden = true;
    } catch (failure) {
      progress.hidden = true;
      status.textContent = "";
      if (failure instanceof Refused) {
        interrupted = null;
        fail(problemText(failure.status, failure.problem));
      } else if (failure instanceof Interrupted) {
        interrupted = job;
        const done = Math.floor((progress.value || 0));
        fail(say(`The connection was lost at ${done} %: check it, then resume (what was sent is kept).`,
          `La connexion a été perdue à ${done} % : vérifiez-la, puis reprenez (ce qui est envoyé est gardé).`));
        button.textContent = say("Resume the upload", "Reprendre l'envoi");
      } else {
        interrupted = null;
        fail(say(`The file could not be sent: ${failure.message}`, `Le fichier n'a pas pu être envoyé : ${failure.message}`));
      }
    } finally {
      button.disabled = false;
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    if (interrupted) {
      await send(interrupted);
      return;
    }
    const text = form.elements.kind.value === "text";
    const file = byId("share-file").files[0];
    const typed = byId("share-text").value;
    if (text ? !typed : !file) {
      fail(text ? say("Type the text to share.", "Saisissez le texte à partager.") : say("Choose a file.", "Choisissez un fichier."));
      return;
    }
    const source = text ? new Blob([typed], { type: "text/plain;charset=utf-8" }) : file;
    const metadata = text ? { kind: "text", size: source.size }
      : { kind: "file", name: file.name, type: file.type || "application/octet-stream", size: file.size };
    const password = byId("share-password").value;
    const separate = form.elements.delivery.value === "separate";
    button.disabled = true;
    status.textContent = say("Making the keys…", "Création des clés…");
    const header = newHeader();
    const { salt } = readHeader(header);
    const code = separate ? newCode() : null;
    const secret = separate ? await secretFromCode(code, salt) : newSecret();
    const keys = await deriveKeys(secret, salt, password || undefined);
    const tus = {
      shareProofKey: keys.proof,
      shareMetadata: await sealMetadata(keys.metadata, metadata),
      expiresIn: form.elements.expiresIn.value,
      maxDownloads: form.elements.maxDownloads.value || "1",
    };
    if (password) tus.sharePassword = "1";
    const upload = new ShareUpload({
      source, key: keys.content, header, metadata: tus, csrf,
      onProgress: (sent, total) => {
        progress.value = Math.round((sent / total) * 100);
        status.textContent = `${say("Encrypting and sending", "Chiffrement et envoi")}: ${bytes(sent)} / ${bytes(total)}`;
      },
      onRetry: (seconds) => {
        status.textContent = say(`Connection lost: trying again in ${seconds} s…`, `Connexion perdue : nouvel essai dans ${seconds} s…`);
      },
    });
    await send({ upload, secret, code, password: Boolean(password), text });
  });
}

function step(title, hint, id, label, value) {
  return element("section", { class: "card share-step" },
    element("h2", {}, title), element("p", {}, hint),
    copyRow(id, label, value), qrImage(value, `${say("QR code", "Code QR")}: ${label}`));
}

function showResult(result, stored, job) {
  const link = job.code ? stored.url : `${stored.url}#${secretToText(job.secret)}`;
  const allowed = stored.maxDownloads ?? 1;
  const facts = say(
    `Expires ${when(stored.expiresAt)}; ${allowed} download(s) allowed, then it is deleted.`,
    `Expire le ${when(stored.expiresAt)} ; ${allowed} téléchargement(s) permis, puis il est supprimé.`);
  const parts = [element("h2", {}, job.text ? say("Your text is ready to share", "Votre texte est prêt à partager")
    : say("Your file is ready to share", "Votre fichier est prêt à partager")), element("p", { id: "share-facts" }, facts)];
  if (job.code) {
    parts.push(
      element("p", { class: "warning", id: "two-channels" }, say(
        "Send the link and the secret by two different channels (say, the link by e-mail and the secret by text message or aloud): whoever intercepts one of them cannot open the share.",
        "Envoyez le lien et le secret par deux canaux différents (par exemple le lien par e-mail et le secret par SMS ou de vive voix) : qui intercepte l'un des deux ne peut pas ouvrir le partage.")),
      step(say("1. Send the link", "1. Envoyez le lien"), say("It does not hold the key: alone, it opens nothing.", "Il ne contient pas la clé : seul, il n'ouvre rien."),
        "share-link", say("Link", "Lien"), link),
      step(say("2. Send the secret another way", "2. Envoyez le secret par un autre canal"),
        say("The recipient types it on the link's page; 5 wrong tries delete the share.", "Le destinataire le saisit sur la page du lien ; 5 essais faux suppriment le partage."),
        "share-code", say("Secret", "Secret"), job.code));
  } else {
    parts.push(step(say("Send this link", "Envoyez ce lien"),
      say("It holds the key (after the #, which browsers never send to the server): send it to the recipient only.",
        "Il contient la clé (après le #, que les navigateurs n'envoient jamais au serveur) : ne l'envoyez qu'au destinataire."),
      "share-link", say("Link", "Lien"), link));
  }
  if (job.password) {
    parts.push(element("p", { class: "notice" }, say(
      "The recipient also needs the password: tell it to them another way, never beside the link.",
      "Le destinataire a aussi besoin du mot de passe : donnez-le-lui autrement, jamais à côté du lien.")));
  }
  parts.push(element("p", {}, element("a", { class: "button secondary", href: "/share" }, say("Share something else", "Partager autre chose")),
    " ", element("a", { href: "/dashboard/files" }, say("Your shares and files", "Vos partages et fichiers"))));
  result.replaceChildren(...parts);
  result.hidden = false;
  byId("share-link").focus();
}
