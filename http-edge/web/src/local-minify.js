// /local/minify: HTML, CSS and JavaScript minified in the browser (src/local/minify/), with
// terser, csso and html-minifier-terser bundled into the page's worker; nothing is sent anywhere.
import { mount } from "./local/minify/view.mjs";

mount(document.getElementById("local-tool"), "/assets/local-minify-worker.js");
