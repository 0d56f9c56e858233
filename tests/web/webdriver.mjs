// A small W3C WebDriver client for the Firefox checks (local-firefox.mjs): geckodriver started
// on a free port, one session of Firefox ESR headless, and the few commands the checks use.
// Errors carry WebDriver's own error and message.
import { spawn } from "node:child_process";
import net from "node:net";

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function firefox({ geckodriver, binary = "/usr/bin/firefox-esr" }) {
  const port = await freePort();
  const driver = spawn(geckodriver, ["--port", String(port), "--host", "127.0.0.1"], { stdio: ["ignore", "ignore", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const { value } = await response.json();
    if (!response.ok) throw new Error(`webdriver ${method} ${path}: ${value?.error}: ${value?.message}`);
    return value;
  };
  for (let tries = 0; ; tries++) {
    try {
      await call("GET", "/status");
      break;
    } catch (error) {
      if (tries > 100) throw new Error(`geckodriver did not start: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const { sessionId, capabilities } = await call("POST", "/session", {
    capabilities: { alwaysMatch: { browserName: "firefox", "moz:firefoxOptions": { binary, args: ["-headless"] } } },
  });
  const session = (method, path, body) => call(method, `/session/${sessionId}${path}`, body);
  const find = async (css) => (await session("POST", "/element", { using: "css selector", value: css }))[ELEMENT];
  return {
    version: capabilities.browserVersion,
    goto: (url) => session("POST", "/url", { url }),
    /// Runs `script` (a function's body; `arguments` as usual) in the page; a returned promise is awaited.
    run: (script, ...args) => session("POST", "/execute/sync", { script, args }),
    click: async (css) => session("POST", `/element/${await find(css)}/click`, {}),
    /// Files chosen in a file input, by path (several for a `multiple` one).
    choose: async (css, ...paths) => session("POST", `/element/${await find(css)}/value`, { text: paths.join("\n") }),
    /// Waits until `script` returns something truthy, and gives it.
    async until(script, what, timeout = 120_000) {
      const end = Date.now() + timeout;
      for (;;) {
        const value = await session("POST", "/execute/sync", { script, args: [] });
        if (value) return value;
        if (Date.now() > end) throw new Error(`firefox: timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async quit() {
      await session("DELETE", "").catch(() => {});
      driver.kill();
    },
  };
}
