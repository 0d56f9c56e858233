//! `quire compress FILE [--quality Q] -o OUT` → `POST /api/v1/process/compress-pdf`: the PDF
//! to OUT, the sizes from the answer's headers on stderr (or as JSON).

use serde_json::json;

use crate::{
    answer::{self, header_number, human_size},
    args::{CompressArgs, api_value},
    client::Client,
    error::CliError,
    input::Input,
    output,
};

pub async fn run(args: CompressArgs) -> Result<(), CliError> {
    super::binary_output_allows_json(&args.output, args.client.json)?;
    let fields = args
        .quality
        .map(|q| ("quality", api_value(q)))
        .into_iter()
        .collect();
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, None).await?;
    let response =
        super::send_file(&client, &input, "/api/v1/process/compress-pdf", fields).await?;
    let headers = response.headers().clone();
    let original: Option<u64> = header_number(&headers, "x-original-size");
    let compressed: Option<u64> = header_number(&headers, "x-compressed-size");
    let savings: Option<f64> = header_number(&headers, "x-savings-percent");
    let written = output::save(
        response,
        &args.output,
        compressed.or(response_len(&headers)),
        client.bars(),
    )
    .await?;
    if args.client.json {
        answer::print_json(&json!({
            "output": args.output,
            "originalSize": original,
            "compressedSize": compressed,
            "savingsPercent": savings,
            "bytesWritten": written,
        }))
    } else {
        if !client.quiet() {
            eprintln!(
                "quire: compressed {}: {} → {} ({:.2} % saved), written to {}",
                input.shown.display(),
                human_size(original.unwrap_or(input.len)),
                human_size(compressed.unwrap_or(written)),
                savings.unwrap_or(0.0),
                args.output.display()
            );
        }
        Ok(())
    }
}

fn response_len(headers: &reqwest::header::HeaderMap) -> Option<u64> {
    header_number(headers, "content-length")
}
