//! `quire upload FILE [--expires-in S] [--max-downloads N]` → `POST /api/upload`: the share
//! link on stdout.

use crate::{answer, args::UploadArgs, client::Client, error::CliError, input::Input};

pub async fn run(args: UploadArgs) -> Result<(), CliError> {
    let expires = args
        .expires_in
        .map(|seconds| ("expiresIn", seconds.to_string()));
    let downloads = args.max_downloads.map(|n| ("maxDownloads", n.to_string()));
    let fields = expires.into_iter().chain(downloads).collect();
    let client = Client::new(&args.client)?;
    let input = Input::open(&args.input.file, args.filename).await?;
    let response = super::send_file(&client, &input, "/api/upload", fields).await?;
    let body = answer::json(response).await?;
    if args.client.json {
        answer::print_json(&body)
    } else {
        answer::print_text(answer::field(&body, "/url")?)
    }
}
