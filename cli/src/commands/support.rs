//! `quire support --log FILE [--context FILE] [--locale L]` →
//! `POST /api/workflows/support/auto`: the summary and the draft reply on stdout.

use bytes::Bytes;
use serde_json::{Map, Value};

use crate::{
    answer,
    args::{SupportArgs, api_value},
    client::{Client, Payload},
    error::CliError,
    input::{Input, is_stdio},
};

pub async fn run(args: SupportArgs) -> Result<(), CliError> {
    if args.context.as_deref().is_some_and(is_stdio) && is_stdio(&args.log) {
        return Err(CliError::Usage(
            "--log and --context cannot both read stdin".to_owned(),
        ));
    }
    let client = Client::new(&args.client)?;
    let mut request = Map::new();
    let log = Input::open(&args.log, None).await?.text().await?;
    request.insert("rawLog".into(), Value::String(log));
    if let Some(path) = &args.context {
        let context = Input::open(path, None).await?.text().await?;
        request.insert("ticketContext".into(), Value::String(context));
    }
    if let Some(locale) = args.locale {
        request.insert("locale".into(), Value::String(api_value(locale)));
    }
    let body = Bytes::from(Value::Object(request).to_string());
    let response = client
        .post("/api/workflows/support/auto", &Payload::Json(body))
        .await?;
    answer::note_calls_left(response.headers(), client.quiet());
    let body = answer::json(response).await?;
    if args.client.json {
        return answer::print_json(&body);
    }
    let summary = answer::field(&body, "/result/summary")?;
    let draft = answer::field(&body, "/result/draftResponse")?;
    answer::print_text(&format!(
        "summary\n-------\n{}\n\ndraft reply\n-----------\n{}",
        summary.trim_end(),
        draft.trim_end()
    ))?;
    if !client.quiet()
        && let Some(total) = body.pointer("/result/stats/total").and_then(Value::as_u64)
    {
        eprintln!("quire: {total} sensitive items masked; --json gives the anonymized log too");
    }
    Ok(())
}
