// The link cards as each network draws them (roughly: see networks.mjs), built once and updated
// as the fields change, so the image is not reloaded at every key typed. Every card crops the
// image to 1.91:1 with object-fit: cover (style.css), as the networks do.
import { element, say } from "../common.mjs";
import { cardText, NETWORKS } from "./networks.mjs";

function buildCard(network) {
  const img = element("img", { class: "og-img", alt: "", hidden: true });
  const placeholder = element("p", { class: "og-placeholder" });
  const parts = {
    title: element("p", { class: "og-title" }),
    description: element("p", { class: "og-description" }),
    site: element("p", { class: "og-site" }),
  };
  parts.image = element("div", { class: "og-media" }, img, placeholder, network.titleOverImage && parts.title);
  // The text parts next to each other share one box (Facebook's grey band, Slack's column).
  const children = [];
  for (const part of network.order) {
    if (part === "image") children.push(parts.image);
    else if (children.at(-1)?.classList.contains("og-body")) children.at(-1).append(parts[part]);
    else children.push(element("div", { class: "og-body" }, parts[part]));
  }
  const card = element("div", { class: `og-card og-card-${network.id}`, id: `og-card-${network.id}` }, children);
  const figure = element("figure", { class: "og-network" }, element("figcaption", {}, network.name), card);

  /// `image`: { src } of the local file, or null; `typedUrl`: whether an image URL was typed.
  function update(fields, image, typedUrl) {
    const text = cardText(network, fields);
    for (const key of ["title", "description", "site"]) {
      parts[key].textContent = text[key];
      parts[key].hidden = text[key] === "";
    }
    if (image) {
      if (img.getAttribute("src") !== image.src) img.src = image.src;
    } else {
      img.removeAttribute("src");
    }
    img.hidden = !image;
    placeholder.hidden = Boolean(image);
    placeholder.textContent = typedUrl
      ? say("Image from its URL: not loaded here. Choose the file to see it.", "Image de l'adresse : pas chargée ici. Choisissez le fichier pour la voir.")
      : say("No image", "Pas d'image");
    card.classList.toggle("has-image", Boolean(image));
  }
  return { figure, update };
}

export function buildCards() {
  const cards = NETWORKS.map(buildCard);
  const node = element("div", { id: "og-cards", class: "og-cards" }, cards.map((c) => c.figure));
  return { node, update: (...args) => cards.forEach((c) => c.update(...args)) };
}
