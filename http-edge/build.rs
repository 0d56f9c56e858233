//! The edge's browser code, embedded at build time. From npm (web/package-lock.json), which
//! scripts/setup.sh installs: Swagger UI for the API documentation page, pdf.js for the
//! toolbox's page thumbnails, qrcode-generator for the share page's QR codes, fflate for the
//! browser-local tools' ZIPs, and esbuild (its WebAssembly build: one package on every
//! platform) which turns each page's script in `web/src/` into the file served, minified, in
//! `OUT_DIR/web/`. Without them the build stops here with what to do, rather than at an
//! `include_bytes!` that names a missing file.

use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: [(&str, &str); 7] = [
    ("fflate", "package.json"),
    ("swagger-ui-dist", "swagger-ui-bundle.js"),
    ("swagger-ui-dist", "swagger-ui.css"),
    ("pdfjs-dist", "build/pdf.min.mjs"),
    ("pdfjs-dist", "build/pdf.worker.min.mjs"),
    ("qrcode-generator", "dist/qrcode.mjs"),
    ("esbuild-wasm", "bin/esbuild"),
];

/// One entry per page script. Each is transformed on its own, not bundled: the classic
/// scripts share app.js's globals, and the modules import each other by their served URLs.
const ENTRIES: [&str; 6] = [
    "app.js",
    "toolbox.js",
    "sign.js",
    "fill-form.js",
    "redact.js",
    "thumbnails.js",
];

/// The share pages' scripts and their workers (the sender's uploader, the recipient's service
/// worker), each bundled with what it imports (`web/src/share/`: the encryption, the uploader;
/// the QR library from npm) into one classic script: not every browser runs module workers.
/// And the support tool's desk (`web/src/support/`), and each browser-local tool (`web/src/local/`,
/// with fflate from npm for its ZIPs; the workers that keep heavy work off the page: minify's,
/// with terser, csso and html-minifier-terser, and image-optimize's, with the WebP and AVIF
/// encoders compiled to WebAssembly, their .wasm embedded as bytes).
const BUNDLES: [&str; 15] = [
    "share-send.js",
    "share-upload-worker.js",
    "share-receive.js",
    "share-sw.js",
    "support-desk.js",
    "local-social-resize.js",
    "local-og-preview.js",
    "local-qr.js",
    "local-favicon.js",
    "local-exif-strip.js",
    "local-text-on-image.js",
    "local-minify.js",
    "local-minify-worker.js",
    "local-image-optimize.js",
    "local-image-encoder.js",
];
/// What the bundles import, for cargo to watch.
const SHARED: [&str; 4] = [
    "web/src/share",
    "web/src/shared",
    "web/src/support",
    "web/src/local",
];

fn main() {
    let modules = Path::new("web/node_modules");
    println!("cargo::rerun-if-changed=web/package-lock.json");
    for (package, file) in FILES {
        let path = modules.join(package).join(file);
        println!("cargo::rerun-if-changed={}", path.display());
        if !path.is_file() {
            panic!(
                "http-edge/{} is missing: run scripts/setup.sh, which installs the browser \
                 libraries ({package}; npm ci in http-edge/web)",
                path.display()
            );
        }
    }
    let esbuild = modules.join("esbuild-wasm/bin/esbuild");
    for folder in SHARED {
        println!("cargo::rerun-if-changed={folder}");
    }
    run_esbuild(&esbuild, &ENTRIES, &[]);
    // Fonts a tool draws with (text-on-image) go into its script as bytes: its page loads
    // nothing after it, and works with the network cut. The target makes esbuild decode them
    // with its own code: untargeted, it calls `Uint8Array.fromBase64`, which browsers older
    // than Chrome 140, Firefox 133 or Safari 18.2 lack.
    run_esbuild(
        &esbuild,
        &BUNDLES,
        &[
            "--bundle",
            "--format=iife",
            "--loader:.woff2=binary",
            "--loader:.wasm=binary",
            "--target=es2020",
        ],
    );
}

/// Runs esbuild over `entries` of `web/src` into `OUT_DIR/web`.
fn run_esbuild(esbuild: &Path, entries: &[&str], mode: &[&str]) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("web");
    let sources: Vec<PathBuf> = entries
        .iter()
        .map(|e| Path::new("web/src").join(e))
        .collect();
    for source in &sources {
        println!("cargo::rerun-if-changed={}", source.display());
    }
    let status = Command::new("node")
        .arg(esbuild)
        .args(&sources)
        .args(mode)
        .arg("--minify")
        .arg("--log-level=warning")
        .arg(format!("--outdir={}", out.display()))
        .status();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => {
            panic!("esbuild failed on http-edge/web/src ({status}): see its messages above")
        }
        Err(error) => panic!(
            "cannot run node for esbuild ({error}): run scripts/setup.sh, which installs Node.js"
        ),
    }
}
