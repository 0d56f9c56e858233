//! `quire pdf-to-images FILE [--dpi N] -o OUT.zip` → `POST /api/v1/process/pdf-to-images`:
//! the ZIP of PNG pages to OUT, the page count and resolution on stderr (or as JSON).

use serde_json::json;

use crate::{
    answer::{self, header_number, human_size},
    args::PdfToImagesArgs,
    client::Client,
    error::CliError,
    input::Input,
    output,
};

pub async fn run(args: PdfToImagesArgs) -> Result<(), CliError> {
    super::binary_output_allows_json(&args.output, args.client.json)?;
    let fields = args
        .dpi
        .map(|dpi| ("dpi", dpi.to_string()))
        .into_iter()
        .collect();
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, None).await?;
    let response =
        super::send_file(&client, &input, "/api/v1/process/pdf-to-images", fields).await?;
    let headers = response.headers().clone();
    let pages: Option<u64> = header_number(&headers, "x-page-count");
    let dpi: Option<u32> = header_number(&headers, "x-dpi");
    // The ZIP streams as pages finish: its length is known only at the end.
    let written = output::save(response, &args.output, None, client.bars()).await?;
    if args.client.json {
        answer::print_json(&json!({
            "output": args.output,
            "pageCount": pages,
            "dpi": dpi,
            "bytesWritten": written,
        }))
    } else {
        if !client.quiet() {
            let count = pages.map_or_else(|| "?".to_owned(), |p| p.to_string());
            let dpi = dpi.map_or_else(|| "?".to_owned(), |d| d.to_string());
            let plural = if pages == Some(1) { "" } else { "s" };
            eprintln!(
                "quire: {} page{plural} of {} at {dpi} dpi: {} ZIP written to {}",
                count,
                input.shown.display(),
                human_size(written),
                args.output.display()
            );
        }
        Ok(())
    }
}
