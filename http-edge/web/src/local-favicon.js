// /local/favicon: a favicon set (ICO, PNGs, manifest, <head> tags) made in the browser from one
// image or SVG. The page's shell comes from the server; everything else is in local/favicon/.
import { mount } from "./local/favicon/view.mjs";

mount(document.getElementById("local-tool"));
