//! `quire upload FILE [--expires-in S]` → `POST /api/upload`: the share link on stdout.

use crate::{
    answer,
    args::UploadArgs,
    client::{Client, Payload},
    error::CliError,
    input::Input,
};

pub async fn run(args: UploadArgs) -> Result<(), CliError> {
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, args.filename).await?;
    let mut fields = Vec::new();
    if let Some(seconds) = args.expires_in {
        fields.push(("expiresIn", seconds.to_string()));
    }
    let response = client
        .post(
            "/api/upload",
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
        answer::print_text(answer::field(&body, "/url")?)
    }
}
