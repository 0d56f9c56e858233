// How each network shows a link card, approximately: where the title, description and site go,
// and how many characters of each it keeps before cutting with "…". The networks change their
// layouts often and cut by width rather than by count; these counts are the usual figures for a
// desktop card, close enough to tell whether a title will survive. Pure, tested in Node.
import { clean } from "./meta.mjs";

/// `order`: the parts top to bottom ("image", "site", "title", "description"); a limit of 0
/// means the network does not show that part. X shows the title over the image.
export const NETWORKS = [
  { id: "facebook", name: "Facebook", title: 88, description: 100, site: "domain-upper", order: ["image", "site", "title", "description"] },
  { id: "x", name: "X (Twitter)", title: 70, description: 0, site: "domain", order: ["image", "site"], titleOverImage: true },
  { id: "linkedin", name: "LinkedIn", title: 70, description: 0, site: "domain", order: ["image", "title", "site"] },
  { id: "slack", name: "Slack", title: 100, description: 200, site: "name", order: ["site", "title", "description", "image"] },
  { id: "discord", name: "Discord", title: 256, description: 350, site: "name", order: ["site", "title", "description", "image"] },
];

/// `text` cut to at most `max` characters (code points, so an emoji is never split), the last
/// one an ellipsis, spaces before it dropped.
export function truncate(text, max) {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/// The host a card shows for a page URL: "www.example.com/a" → "example.com"; "" when the URL is
/// not an absolute http(s) one.
export function domainOf(url) {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "";
    return parsed.hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/// The texts one network's card shows for `fields` ({ title, description, url, siteName }).
export function cardText(network, fields) {
  const domain = domainOf(fields.url || "");
  const site = network.site === "name" ? clean(fields.siteName) || domain
    : network.site === "domain-upper" ? domain.toUpperCase() : domain;
  return {
    title: truncate(clean(fields.title), network.title),
    description: network.description ? truncate(clean(fields.description), network.description) : "",
    site,
  };
}
