// The bundled encoders, for the worker (local-image-encoder.js): libwebp and libavif (with
// libaom) compiled to WebAssembly by the jSquash project, from npm through the lockfile. Their
// .wasm files are in this script as bytes: the page allows no connection (connect-src 'none'),
// so nothing may be fetched, and the page keeps working offline. Each encoder is compiled the
// first time it is asked for.
import { simd } from "wasm-feature-detect";
import avifFactory from "@jsquash/avif/codec/enc/avif_enc.js";
import avifWasm from "@jsquash/avif/codec/enc/avif_enc.wasm";
import { defaultOptions as avifDefaults } from "@jsquash/avif/meta.js";
import webpFactory from "@jsquash/webp/codec/enc/webp_enc.js";
import webpWasm from "@jsquash/webp/codec/enc/webp_enc.wasm";
import webpSimdFactory from "@jsquash/webp/codec/enc/webp_enc_simd.js";
import webpSimdWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import { defaultOptions as webpDefaults } from "@jsquash/webp/meta.js";

/// An Emscripten module from its factory and its bytes: `locateFile` keeps it from building
/// a URL for the .wasm from the script's (there is none in a bundle), `wasmBinary` from
/// fetching it.
const load = (factory, wasm) => factory({ noInitialRun: true, locateFile: (name) => name, wasmBinary: wasm });

const modules = new Map();
function codec(type) {
  if (!modules.has(type)) {
    const module = type === "image/webp"
      ? simd().then((yes) => (yes ? load(webpSimdFactory, webpSimdWasm) : load(webpFactory, webpWasm)))
      : load(avifFactory, avifWasm);
    modules.set(type, module);
  }
  return modules.get(type);
}

/// `pixels` (RGBA, width × height) encoded as `type` at `quality` (1–100, the encoder's own
/// scale: cwebp's -q, avifenc's -q), as bytes. Speeds are the reference tools' defaults
/// (cwebp -m 4, avifenc -s 6) so that a comparison with them is like for like.
export async function encodeBundled(type, pixels, width, height, quality) {
  const module = await codec(type);
  const output = type === "image/webp"
    ? module.encode(pixels, width, height, { ...webpDefaults, quality })
    : module.encode(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height, { ...avifDefaults, quality, speed: 6 });
  if (!output) throw new Error(`the bundled ${type} encoder failed`);
  return output;
}
