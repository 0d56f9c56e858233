// /local/text-on-image: a title and subtitle over a photo or a colour, in the browser only
// (src/local/text-on-image/; its fonts are bundled into this script). The page's shell is the
// server's; this fills #local-tool.
import { mount } from "./local/text-on-image/view.mjs";

mount(document.getElementById("local-tool"));
