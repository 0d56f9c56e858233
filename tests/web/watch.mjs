// What a browser context's pages log as errors, CSP violations among them (Chromium logs a
// refused script or image as a console error; the init script also reports the
// `securitypolicyviolation` events, which catch what the console would word differently);
// and what a tool form sends.

export async function watch(context) {
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline code"} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const logged = [];
  const follow = (page) => page.on("console", (message) => {
    if (message.type() === "error") logged.push(`${page.url()}: ${message.text()}`);
  });
  context.on("page", follow);
  for (const page of context.pages()) follow(page);
  return {
    // The errors logged since the last call; `refusals` lets through the "failed to load
    // resource" lines of requests a step expects the service to refuse.
    take({ refusals = false } = {}) {
      const errors = logged.splice(0).filter((line) => !(refusals && /Failed to load resource: the server responded with a status of [45]\d\d/.test(line)));
      return errors;
    },
  };
}

// What the page's tool form sends, as [name, value or file name] in order, read in the page:
// Chromium does not show a test the body of a multipart request that carries files.
export const recordSends = (page) => page.evaluate(() => {
  window.sentParts = null;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (body) {
    if (body instanceof FormData) window.sentParts = Array.from(body.entries(), ([k, v]) => [k, v instanceof File ? `file:${v.name}` : v]);
    return send.call(this, body);
  };
});
export const sentParts = async (page) => (await page.waitForFunction(() => window.sentParts)).jsonValue();
