// The warnings of checks.mjs in words, in the page's language.
import { say } from "../common.mjs";

export function warningText(w) {
  switch (w.id) {
    case "title-missing":
      return say("No title: networks fall back to the page's <title>, or show the bare address.",
        "Pas de titre : les réseaux reprennent le <title> de la page, ou n'affichent que l'adresse.");
    case "title-long":
      return say(`The title has ${w.length} characters: over ${w.max}, most cards and search results cut it.`,
        `Le titre fait ${w.length} caractères : au-delà de ${w.max}, la plupart des cartes et des résultats de recherche le coupent.`);
    case "description-long":
      return say(`The description has ${w.length} characters: over ${w.max}, it is cut.`,
        `La description fait ${w.length} caractères : au-delà de ${w.max}, elle est coupée.`);
    case "image-missing":
      return say("No image: most networks then show a small card, or only the link.",
        "Pas d'image : la plupart des réseaux montrent alors une petite carte, ou seulement le lien.");
    case "image-url-missing":
      return say("The tags have no og:image: give the address where the image will be online (https://…).",
        "Les balises n'ont pas d'og:image : indiquez l'adresse où l'image sera en ligne (https://…).");
    case "image-not-https":
      return say("The image URL must be absolute and https (https://example.com/card.jpg): networks do not resolve relative paths, and some refuse http.",
        "L'adresse de l'image doit être absolue et en https (https://example.com/carte.jpg) : les réseaux ne résolvent pas les chemins relatifs, et certains refusent le http.");
    case "image-small":
      return say(`The image is ${w.width} × ${w.height} px: 1200 × 630 or more gives a sharp large card.`,
        `L'image fait ${w.width} × ${w.height} px : 1200 × 630 ou plus donne une grande carte nette.`);
    case "url-not-absolute":
      return say("The page URL should be absolute (https://…): it is the address the networks count shares for.",
        "L'adresse de la page doit être absolue (https://…) : c'est celle pour laquelle les réseaux comptent les partages.");
    default:
      return w.id;
  }
}
