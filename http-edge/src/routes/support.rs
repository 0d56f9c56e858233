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

/// Largest JSON body accepted.
pub const MAX_BODY: usize = 10 * 1024 * 1024;

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
    let bytes = http_body_util::Limited::new(body, MAX_BODY)
        .collect()
        .await
        .map_err(|err| {
            if err
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some()
            {
                Problem::new(
                    ErrorCode::FileTooLarge,
                    format!("the JSON body is larger than {MAX_BODY} bytes: send a shorter log"),
                )
            } else {
                Problem::new(
                    ErrorCode::InvalidArgument,
                    format!("the request body could not be read: {err}"),
                )
            }
        })?
        .to_bytes();
    let input: SupportInput = serde_json::from_slice(&bytes).map_err(|err| {
        Problem::new(
            ErrorCode::InvalidArgument,
            format!(
                "the JSON body is invalid ({err}): send {{\"rawLog\": string, \"ticketContext\"?: string, \"locale\"?: \"fr\"|\"en\"}}"
            ),
        )
    })?;
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
