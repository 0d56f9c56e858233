// /local/social-resize: crop and resize images to the social networks' sizes, in the browser
// only (src/local/social-resize/). The page's shell is the server's; this fills #local-tool.
import { mount } from "./local/social-resize/view.mjs";

mount(document.getElementById("local-tool"));
