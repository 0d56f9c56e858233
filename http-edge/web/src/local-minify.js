// /local/minify: HTML, CSS and JavaScript minified in the browser (src/local/minify/), with
// terser, csso and html-minifier-terser bundled in; nothing is sent anywhere.
import { mount } from "./local/minify/view.mjs";

mount(document.getElementById("local-tool"));
