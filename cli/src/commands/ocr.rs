//! `quire ocr FILE [--lang L]` → `POST /api/v1/process/ocr`: the text on stdout (pages
//! separated by a form feed, as the API gives them).

use crate::{answer, args::OcrArgs, client::Client, error::CliError, input::Input};

pub async fn run(args: OcrArgs) -> Result<(), CliError> {
    let fields = args.lang.map(|lang| ("lang", lang)).into_iter().collect();
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, None).await?;
    let response = super::send_file(&client, &input, "/api/v1/process/ocr", fields).await?;
    let body = answer::json(response).await?;
    if args.client.json {
        answer::print_json(&body)
    } else {
        answer::print_text(answer::field(&body, "/text")?)
    }
}
