//! One module per subcommand: what it sends, and what it prints.

mod compress;
mod ocr;
mod pdf_to_images;
mod support;
mod upload;

use std::path::Path;

use reqwest::Response;

use crate::{
    answer,
    args::Command,
    client::{Client, Payload},
    error::CliError,
    input::{Input, is_stdio},
};

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

/// Sends `input` with its option `fields` to one of the endpoints that take a multipart file,
/// and notes the calls left on stderr.
async fn send_file(
    client: &Client,
    input: &Input,
    path: &str,
    fields: Vec<(&'static str, String)>,
) -> Result<Response, CliError> {
    let response = client.post(path, &Payload::File { fields, input }).await?;
    answer::note_calls_left(response.headers(), client.quiet());
    Ok(response)
}
