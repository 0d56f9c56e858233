//! The stylesheet and the scripts, compiled into the binary: the pages need nothing else. The
//! scripts are written in `http-edge/web/src/` and minified by esbuild at build time.
//! pdf.js (npm `pdfjs-dist`, pinned in web/package-lock.json, checked for by build.rs) draws
//! PDF pages in the browser for the toolbox's thumbnails; it is served from here too, under
//! the pages' CSP: nothing is fetched from elsewhere.

use axum::{
    extract::Path,
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};

use super::{layout::secure, local::csp as local_csp};
use crate::problem::Problem;

/// The site's stylesheet, then the browser-local tools' own rules (`web/src/local/*/style.css`).
const STYLE: &str = concat!(
    include_str!("assets/style.css"),
    include_str!("../../web/src/local/social-resize/style.css"),
    include_str!("../../web/src/local/og-preview/style.css"),
    include_str!("../../web/src/local/qr/style.css"),
    include_str!("../../web/src/local/favicon/style.css"),
    include_str!("../../web/src/local/exif-strip/style.css"),
    include_str!("../../web/src/local/text-on-image/style.css"),
    include_str!("../../web/src/local/minify/style.css"),
    include_str!("../../web/src/local/image-optimize/style.css"),
);
/// The page scripts, from `web/src/`, minified by esbuild (build.rs) into `OUT_DIR/web/`.
macro_rules! script {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/web/", $name))
    };
}
const SCRIPT: &str = script!("app.js");
/// The toolbox pages' scripts: results, file order (toolbox.js), sign's pad and placement,
/// the form filler, redact's areas and hits, and the pages drawn with pdf.js (thumbnails.js,
/// an ES module).
const TOOLBOX: &str = script!("toolbox.js");
const SIGN: &str = script!("sign.js");
const FILL_FORM: &str = script!("fill-form.js");
const THUMBNAILS: &str = script!("thumbnails.js");
const REDACT: &str = script!("redact.js");
/// The encrypted share pages' scripts, bundled with the encryption and the QR library, the
/// sender's upload worker, and the recipient's service worker, served at `/s/sw.js` (its scope
/// is where it is served from).
const SHARE_SEND: &str = script!("share-send.js");
const SHARE_UPLOAD_WORKER: &str = script!("share-upload-worker.js");
const SHARE_RECEIVE: &str = script!("share-receive.js");
const SHARE_WORKER: &str = script!("share-sw.js");
/// The support tool's desk: comparison, corrections, final wording.
const SUPPORT_DESK: &str = script!("support-desk.js");
/// The browser-local tools' scripts (`/local/{slug}`), each with everything it needs.
const LOCAL: [(&str, &str); 8] = [
    ("local-social-resize.js", script!("local-social-resize.js")),
    ("local-og-preview.js", script!("local-og-preview.js")),
    ("local-qr.js", script!("local-qr.js")),
    ("local-favicon.js", script!("local-favicon.js")),
    ("local-exif-strip.js", script!("local-exif-strip.js")),
    ("local-text-on-image.js", script!("local-text-on-image.js")),
    ("local-minify.js", script!("local-minify.js")),
    (
        "local-image-optimize.js",
        script!("local-image-optimize.js"),
    ),
];
/// The local tools' workers, served with the local pages' CSP (a worker's own policy is the one
/// its script comes with), with whether it compiles WebAssembly (image-optimize's encoders).
const LOCAL_WORKERS: [(&str, &str, bool); 2] = [
    (
        "local-minify-worker.js",
        script!("local-minify-worker.js"),
        false,
    ),
    (
        "local-image-encoder.js",
        script!("local-image-encoder.js"),
        true,
    ),
];
const PDFJS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/web/node_modules/pdfjs-dist/build/pdf.min.mjs"
));
const PDFJS_WORKER: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/web/node_modules/pdfjs-dist/build/pdf.worker.min.mjs"
));
/// The icon as pages link it (`rel="icon"`), and as `/favicon.ico` for what asks there
/// anyway (browsers on a page without the link, feed readers, bookmarks).
const ICON_SVG: &str = include_str!("assets/favicon.svg");
const ICON_ICO: &[u8] = include_bytes!("assets/favicon.ico");

/// GET /assets/{name}.
pub async fn serve(Path(name): Path<String>) -> Response {
    if let Some((_, script, wasm)) = LOCAL_WORKERS.iter().find(|(n, ..)| *n == name) {
        let mut response = asset(script.as_bytes(), "text/javascript; charset=utf-8");
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, local_csp(*wasm));
        return response;
    }
    let (body, kind): (&'static [u8], _) = match name.as_str() {
        "style.css" => (STYLE.as_bytes(), "text/css; charset=utf-8"),
        "app.js" => (SCRIPT.as_bytes(), "text/javascript; charset=utf-8"),
        "toolbox.js" => (TOOLBOX.as_bytes(), "text/javascript; charset=utf-8"),
        "sign.js" => (SIGN.as_bytes(), "text/javascript; charset=utf-8"),
        "fill-form.js" => (FILL_FORM.as_bytes(), "text/javascript; charset=utf-8"),
        "thumbnails.js" => (THUMBNAILS.as_bytes(), "text/javascript; charset=utf-8"),
        "redact.js" => (REDACT.as_bytes(), "text/javascript; charset=utf-8"),
        "share-send.js" => (SHARE_SEND.as_bytes(), "text/javascript; charset=utf-8"),
        "share-receive.js" => (SHARE_RECEIVE.as_bytes(), "text/javascript; charset=utf-8"),
        "support-desk.js" => (SUPPORT_DESK.as_bytes(), "text/javascript; charset=utf-8"),
        "share-upload-worker.js" => (
            SHARE_UPLOAD_WORKER.as_bytes(),
            "text/javascript; charset=utf-8",
        ),
        // One path segment each, as the route is `/assets/{name}`.
        "pdf.min.mjs" => (PDFJS, "text/javascript; charset=utf-8"),
        "pdf.worker.min.mjs" => (PDFJS_WORKER, "text/javascript; charset=utf-8"),
        "favicon.svg" => (ICON_SVG.as_bytes(), "image/svg+xml"),
        other => match LOCAL.iter().find(|(name, _)| *name == other) {
            Some((_, script)) => (script.as_bytes(), "text/javascript; charset=utf-8"),
            None => {
                return Problem::new(quire_proto::ErrorCode::NotFound, "no such asset")
                    .into_response();
            }
        },
    };
    asset(body, kind)
}

/// GET /s/sw.js: the recipient's service worker, with the pages' CSP (which also binds what
/// the worker fetches: this site only). Revalidated on every registration so that a new
/// version takes over at once.
pub async fn share_worker() -> Response {
    let mut response = asset(SHARE_WORKER.as_bytes(), "text/javascript; charset=utf-8");
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// GET /favicon.ico.
pub async fn favicon() -> Response {
    asset(ICON_ICO, "image/x-icon")
}

fn asset(body: &'static [u8], kind: &'static str) -> Response {
    let mut response = body.into_response();
    secure(&mut response);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=3600"),
    );
    response
}
