// /local/og-preview: how a link looks when shared, and the <meta> tags that make it so, worked
// out in the browser (src/local/og-preview/); nothing is sent anywhere.
import { mount } from "./local/og-preview/view.mjs";

mount(document.getElementById("local-tool"));
