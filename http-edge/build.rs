//! The API documentation page embeds Swagger UI from npm (web/package-lock.json), which
//! scripts/setup.sh installs; without it the build stops here with what to do, rather than
//! at an `include_bytes!` that names a missing file.

use std::path::Path;

const FILES: [&str; 2] = ["swagger-ui-bundle.js", "swagger-ui.css"];

fn main() {
    let dir = Path::new("web/node_modules/swagger-ui-dist");
    println!("cargo::rerun-if-changed=web/package-lock.json");
    for file in FILES {
        let path = dir.join(file);
        println!("cargo::rerun-if-changed={}", path.display());
        if !path.is_file() {
            panic!(
                "http-edge/{} is missing: run scripts/setup.sh, which installs Swagger UI \
                 (npm ci in http-edge/web)",
                path.display()
            );
        }
    }
}
