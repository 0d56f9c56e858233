// Loaded just before html-minifier-terser's browser bundle (html-engine.mjs undoes this right
// after). That bundle carries a Node "http" polyfill for clean-css which, as the bundle is
// evaluated, builds an XMLHttpRequest and opens it (never sends it) on location.host to probe
// which response types the browser has. Nothing here uses that polyfill, and this page must
// make no request and trip no Content Security Policy (connect-src 'none'); node, where the
// tests run, has neither XMLHttpRequest nor location and the bundle would throw. So while it
// loads, both are inert stand-ins.

const STAND_INS = {
  XMLHttpRequest: class InertRequest {
    open() {}
  },
};
// A page has its location; node gets one with no host only for the bundle's probe.
if (!("location" in globalThis)) STAND_INS.location = { host: "" };

const saved = Object.fromEntries(Object.keys(STAND_INS).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
for (const [name, value] of Object.entries(STAND_INS)) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

/// Puts the real globals back (or none, as in node).
export function restoreGlobals() {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
  }
}
