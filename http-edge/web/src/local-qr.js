// /local/qr: QR codes for a link, a Wi-Fi network or a contact, made in the browser
// (src/local/qr/); nothing is sent anywhere.
import { mount } from "./local/qr/view.mjs";

mount(document.getElementById("local-tool"));
