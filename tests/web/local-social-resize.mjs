// The social-resize tool in Chromium (http-edge/web/src/local/social-resize/), offline: a file
// that is not an image refused in words; landscape.jpg with every format ticked, the focal point
// moved with the keyboard and by dragging, the ZIP read here and each JPEG's real size checked;
// a half red, half blue image made in the page whose 9:16 story comes from the half the focal
// point is on; two images × two formats as PNGs; the editor on a phone's screen.
import assert from "node:assert/strict";
import { fixture, imageSize, pagePixel, saveDownload, unzip } from "./local-files.mjs";

/// What every format must come out as (independent of the page's table on purpose).
export const SIZES = {
  "instagram-square": [1080, 1080],
  "instagram-portrait": [1080, 1350],
  story: [1080, 1920],
  "link-preview": [1200, 630],
  "x-post": [1600, 900],
  "linkedin-cover": [1584, 396],
  "facebook-cover": [1640, 624],
  "x-header": [1500, 500],
  "youtube-thumbnail": [1280, 720],
  "youtube-banner": [2560, 1440],
  profile: [400, 400],
};

/// The focal point as the marker says it: [x, y] in percent.
async function focalPoint(page) {
  const text = await page.getAttribute("#social-focus", "aria-valuetext");
  const numbers = text.match(/\d+/g)?.map(Number);
  assert.equal(numbers?.length, 2, text);
  return numbers;
}

async function press(page, key, times) {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

/// The file the download link gives: [suggested name, bytes].
async function download(page) {
  await page.click("#social-make");
  const link = page.locator("#social-download");
  await link.waitFor({ timeout: 60_000 });
  const saved = await saveDownload(page, link);
  assert.equal(saved.name, await link.getAttribute("download"));
  return [saved.name, saved.bytes];
}

async function tick(page, ids) {
  await page.click("#social-none");
  for (const id of ids) await page.check(`#format-${id}`);
}

export async function check(page, { fixtures, step, shot }) {
  step("local social-resize: a file that is not an image is refused in words");
  await page.waitForSelector("#social-file");
  await page.setInputFiles("#social-file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture\n") });
  await page.waitForSelector("#social-error p");
  assert.match(await page.textContent("#social-error"), /notes\.txt (is not an image|n'est pas une image)/);
  assert.ok(await page.isHidden("#social-editor"));

  step("local social-resize: landscape.jpg, every format, the focal point moved by keyboard and by drag");
  await page.setInputFiles("#social-file", fixture(fixtures, "landscape.jpg"));
  await page.waitForSelector("#social-source[data-name='landscape.jpg']");
  assert.equal(await page.textContent("#social-error"), "", "the earlier error is gone");
  assert.deepEqual(await focalPoint(page), [50, 50]);
  await page.click("#social-all");
  const boxes = page.locator("#social-formats input[type=checkbox]");
  assert.equal(await boxes.count(), Object.keys(SIZES).length);
  for (let i = 0; i < (await boxes.count()); i++) assert.ok(await boxes.nth(i).isChecked());
  assert.equal(await page.locator("#social-previews figure").count(), Object.keys(SIZES).length);
  // 1920 × 1080 has 1080 × 1080 for the square, but only 608 × 1080 for the 9:16 story.
  assert.ok(await page.isHidden("#social-previews figure[data-format='instagram-square'] .upscaled"));
  assert.match(await page.textContent("#social-previews figure[data-format='story'] .upscaled"), /608×1080/);
  assert.match(await page.textContent("#social-previews figure[data-format='youtube-banner'] .upscaled"), /1920×1080/);
  assert.ok(await page.locator("#social-previews figure[data-format='profile'] canvas.round").count(), "the avatar is previewed round");

  await page.focus("#social-focus");
  await press(page, "ArrowRight", 10);
  assert.deepEqual(await focalPoint(page), [60, 50]);
  await press(page, "Shift+ArrowDown", 2);
  await press(page, "ArrowUp", 3);
  assert.deepEqual(await focalPoint(page), [60, 67]);
  await press(page, "Shift+ArrowRight", 6);
  assert.deepEqual(await focalPoint(page), [100, 67], "the point stops at the edge");

  const source = page.locator("#social-source");
  await source.scrollIntoViewIfNeeded();
  const box = await source.boundingBox();
  const marker = await page.locator("#social-focus").boundingBox();
  await page.mouse.move(marker.x + marker.width / 2, marker.y + marker.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3, { steps: 6 });
  await page.mouse.up();
  const [dx, dy] = await focalPoint(page);
  assert.ok(Math.abs(dx - 20) <= 1 && Math.abs(dy - 30) <= 1, `dragged to ${dx}, ${dy}`);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "social-focus", "the marker keeps the focus after a drag");
  await shot(page, "landscape-all-formats");

  step("local social-resize: the ZIP, each JPEG at its format's exact size");
  const [zipName, zipBytes] = await download(page);
  assert.equal(zipName, "social-images.zip");
  const entries = unzip(zipBytes);
  const expected = Object.keys(SIZES).map((id) => `landscape-${id}-${SIZES[id][0]}x${SIZES[id][1]}.jpg`);
  assert.deepEqual([...entries.keys()].sort(), expected.sort());
  for (const [name, bytes] of entries) {
    const id = name.replace(/^landscape-/, "").replace(/-\d+x\d+\.jpg$/, "");
    assert.deepEqual(imageSize(bytes, name), SIZES[id], name);
  }
  assert.match(await page.textContent("#social-outputs li[data-name='landscape-story-1080x1920.jpg']"), /upscaled from 608×1080|agrandie depuis 608×1080/);
  await shot(page, "landscape-zip");

  step("local social-resize: the story comes from the side the focal point is on");
  const halves = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [1920, 1080];
    const context = canvas.getContext("2d");
    context.fillStyle = "#ff0000";
    context.fillRect(0, 0, 960, 1080);
    context.fillStyle = "#0000ff";
    context.fillRect(960, 0, 960, 1080);
    return canvas.toDataURL("image/png").split(",")[1];
  });
  await page.setInputFiles("#social-file", { name: "halves.png", mimeType: "image/png", buffer: Buffer.from(halves, "base64") });
  await page.waitForSelector("#social-source[data-name='halves.png']");
  assert.deepEqual(await focalPoint(page), [50, 50], "a new image starts centred");
  await tick(page, ["story"]);
  await page.check("#social-png");
  assert.ok(await page.isDisabled("#social-quality"), "PNG has no quality to set");
  await page.focus("#social-focus");
  await press(page, "Shift+ArrowRight", 5);
  assert.deepEqual(await focalPoint(page), [100, 50]);
  let [name, bytes] = await download(page);
  assert.equal(name, "halves-story-1080x1920.png", "one output is downloaded as it is");
  assert.deepEqual(imageSize(bytes, name), [1080, 1920]);
  for (const x of [540, 0, 1079]) {
    const [r, g, b] = await pagePixel(page, bytes, x, 960);
    assert.ok(b > 200 && r < 50 && g < 50, `focus right: pixel ${x} is blue, not ${r},${g},${b}`);
  }
  await page.focus("#social-focus");
  await press(page, "Shift+ArrowLeft", 10);
  assert.deepEqual(await focalPoint(page), [0, 50]);
  [name, bytes] = await download(page);
  const [r, g, b] = await pagePixel(page, bytes, 540, 960);
  assert.ok(r > 200 && g < 50 && b < 50, `focus left: the centre is red, not ${r},${g},${b}`);

  step("local social-resize: two images × two formats as PNGs in one ZIP");
  await page.setInputFiles("#social-file", [fixture(fixtures, "landscape.jpg"), fixture(fixtures, "logo.png")]);
  await page.waitForSelector("#social-source[data-name='landscape.jpg']");
  assert.ok(await page.isVisible("#social-current"), "several images: a choice of the one framed");
  await tick(page, ["instagram-square", "profile"]);
  await page.selectOption("#social-current", { index: 1 });
  await page.waitForSelector("#social-source[data-name='logo.png']");
  assert.match(await page.textContent("#social-previews figure[data-format='instagram-square'] .upscaled"), /600×600/);
  assert.ok(await page.isHidden("#social-previews figure[data-format='profile'] .upscaled"));
  assert.ok(await page.isChecked("#social-png"), "the output type is kept across files");
  const [pair, pairBytes] = await download(page);
  assert.equal(pair, "social-images.zip");
  const files = unzip(pairBytes);
  assert.deepEqual([...files.keys()].sort(), [
    "landscape-instagram-square-1080x1080.png", "landscape-profile-400x400.png",
    "logo-instagram-square-1080x1080.png", "logo-profile-400x400.png",
  ]);
  for (const [entry, data] of files) {
    assert.deepEqual(imageSize(data, entry), entry.includes("profile") ? [400, 400] : [1080, 1080], entry);
  }
  // The logo is transparent around its disc: PNG keeps it so.
  const [, , , corner] = await pagePixel(page, files.get("logo-profile-400x400.png"), 0, 0);
  assert.equal(corner, 0, "the PNG keeps the logo's transparency");

  step("local social-resize: the editor fits a phone's screen");
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await tick(page, Object.keys(SIZES));
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the editor is ${width}px wide on a 390px screen`);
  await shot(page, "phone");
  if (viewport) await page.setViewportSize(viewport);
}
