//! POST /api/workflows/support/auto: JSON → SupportService.AutoReply → SPEC 2.3 JSON.

use axum::{
    body::Body,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::Response,
};
use http_body_util::BodyExt;
use quire_proto::{
    ErrorCode,
    v1::{AnonymizationStats, AutoReplyRequest},
};
use serde::{Deserialize, Serialize};

use super::json_with_metadata;
use crate::{EdgeState, forward, problem::Problem};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SupportInput {
    raw_log: String,
    ticket_context: Option<String>,
    locale: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SupportResult {
    anonymized: String,
    summary: String,
    draft_response: String,
    stats: Stats,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stats {
    ipv4: u64,
    ipv6: u64,
    email: u64,
    domain_user: u64,
    fqdn: u64,
    total: u64,
}

#[derive(Serialize)]
struct Envelope {
    ok: bool,
    result: SupportResult,
}

pub async fn auto_reply(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .eq_ignore_ascii_case("application/json")
    {
        return Err(Problem::new(
            ErrorCode::InvalidArgument,
            format!(
                "send the ticket as JSON with Content-Type: application/json (got {content_type:?})"
            ),
        ));
    }
    let limit = state.max_ticket;
    let bytes = http_body_util::Limited::new(body, limit)
        .collect()
        .await
        .map_err(|err| {
            if err
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some()
            {
                Problem::new(
                    ErrorCode::TicketTooLarge,
                    format!(
                        "the JSON body is larger than {limit} bytes: send the relevant part of the log"
                    ),
                )
            } else {
                Problem::new(
                    ErrorCode::InvalidArgument,
                    format!("the request body could not be read: {err}"),
                )
            }
        })?
        .to_bytes();
    let input = parse(&bytes)?;
    let SupportInput {
        raw_log,
        ticket_context,
        locale,
    } = input;
    let request = AutoReplyRequest {
        raw_log,
        ticket_context,
        locale: locale.unwrap_or_default(),
    };
    let mut client = state.core.support.clone();
    let response = client
        .auto_reply(forward::request(&headers, request))
        .await?;
    let (metadata, reply, _) = response.into_parts();
    let AnonymizationStats {
        ipv4,
        ipv6,
        email,
        domain_user,
        fqdn,
        total,
    } = reply.stats.unwrap_or_default();
    let body = Envelope {
        ok: true,
        result: SupportResult {
            anonymized: reply.anonymized,
            summary: reply.summary,
            draft_response: reply.draft_response,
            stats: Stats {
                ipv4,
                ipv6,
                email,
                domain_user,
                fqdn,
                total,
            },
        },
    };
    Ok(json_with_metadata(StatusCode::OK, &metadata, body))
}

/// The body as a ticket, or a 400 that names the field at fault and shows the expected shape.
fn parse(bytes: &[u8]) -> Result<SupportInput, Problem> {
    const SHAPE: &str =
        r#"send {"rawLog": string, "ticketContext"?: string, "locale"?: "fr" | "en"}"#;
    let invalid = |detail: String| Problem::new(ErrorCode::InvalidArgument, detail);
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let input: SupportInput = serde_path_to_error::deserialize(&mut json).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        invalid(if inner.is_syntax() || inner.is_eof() {
            format!("the body is not valid JSON ({inner}): {SHAPE}")
        } else if path == "." {
            // Missing and unknown fields are reported on the object; serde names them.
            format!("the JSON body does not fit ({inner}): {SHAPE}")
        } else {
            format!("field {path}: {inner}; {SHAPE}")
        })
    })?;
    json.end()
        .map_err(|err| invalid(format!("the body is not valid JSON ({err}): {SHAPE}")))?;
    Ok(input)
}
