//! One module per subcommand: what it sends, and what it prints.

mod compress;
mod ocr;
mod pdf_to_images;
mod support;
mod upload;

use std::path::Path;

use crate::{args::Command, error::CliError, input::is_stdio};

pub async fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Upload(args) => upload::run(args).await,
        Command::Ocr(args) => ocr::run(args).await,
        Command::Compress(args) => compress::run(args).await,
        Command::PdfToImages(args) => pdf_to_images::run(args).await,
        Command::Support(args) => support::run(args).await,
    }
}

/// With `-o -` stdout carries the file: `--json` has no room there.
fn binary_output_allows_json(output: &Path, json: bool) -> Result<(), CliError> {
    if json && is_stdio(output) {
        return Err(CliError::Usage(
            "--json needs -o FILE: with -o - stdout carries the file itself".to_owned(),
        ));
    }
    Ok(())
}
