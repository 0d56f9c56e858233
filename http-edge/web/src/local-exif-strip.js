// The exif-strip page (/local/exif-strip): photos cleaned of their metadata in the browser.
import { mount } from "./local/exif-strip/view.mjs";

mount(document.getElementById("local-tool"));
