//! `quire ocr FILE [--lang L]` → `POST /api/v1/process/ocr`: the text on stdout (pages
//! separated by a form feed, as the API gives them).

use crate::{
    answer,
    args::OcrArgs,
    client::{Client, Payload},
    error::CliError,
    input::Input,
};

pub async fn run(args: OcrArgs) -> Result<(), CliError> {
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, None).await?;
    let fields = args.lang.map(|lang| ("lang", lang)).into_iter().collect();
    let response = client
        .post(
            "/api/v1/process/ocr",
            &Payload::File {
                fields,
                input: &input,
            },
        )
        .await?;
    answer::note_calls_left(response.headers(), client.quiet());
    let body = answer::json(response).await?;
    if args.client.json {
        answer::print_json(&body)
    } else {
        answer::print_text(answer::field(&body, "/text")?)
    }
}
