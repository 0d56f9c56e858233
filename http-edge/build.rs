//! The edge embeds browser libraries from npm (web/package-lock.json), which scripts/setup.sh
//! installs: Swagger UI for the API documentation page, pdf.js for the toolbox's page
//! thumbnails. Without them the build stops here with what to do, rather than at an
//! `include_bytes!` that names a missing file.

use std::path::Path;

const FILES: [(&str, &str); 4] = [
    ("swagger-ui-dist", "swagger-ui-bundle.js"),
    ("swagger-ui-dist", "swagger-ui.css"),
    ("pdfjs-dist", "build/pdf.min.mjs"),
    ("pdfjs-dist", "build/pdf.worker.min.mjs"),
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
}
