// /local/image-optimize: images converted and compressed to WebP, AVIF and JPEG in the browser
// only (src/local/image-optimize/). The page's shell is the server's; this fills #local-tool.
// The bundled encoders run in their own worker, loaded with the page.
import { mount } from "./local/image-optimize/view.mjs";

mount(document.getElementById("local-tool"), "/assets/local-image-encoder.js");
