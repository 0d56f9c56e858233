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
use utoipa::{
    ToSchema,
    openapi::{ObjectBuilder, RefOr, Schema, Type, schema::SchemaType},
};

use super::json_with_metadata;
use crate::{
    EdgeState, forward,
    openapi::problems::{
        Forbidden, KeyInUse, KeyReused, QuotaExceeded, SupportBadRequest, TicketTooLarge,
        Unauthorized, Unavailable,
    },
    problem::Problem,
};

// SPEC 4.5.
/// A support ticket. Unknown fields are refused (400).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = SupportRequest, example = json!({
    "rawLog": "2026-11-21 10:14:22 ERROR vpn auth failed for CORP\\jdoe from 10.2.3.4",
    "locale": "en"
}))]
struct SupportInput {
    /// The raw ticket log.
    raw_log: String,
    /// Free-form context (the customer's message, say): anonymized with the log, weighs more
    /// than a log line in the classification.
    ticket_context: Option<String>,
    #[schema(schema_with = locale_schema)]
    locale: Option<String>,
}

fn locale_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        // Empty is the default as over gRPC, where an empty string is the field left out.
        .enum_values(Some([Some("fr"), Some("en"), Some(""), None]))
        .default(Some("fr".into()))
        .description(Some(
            "The language of the summary and the draft reply: `fr` when left out, null or empty.",
        ))
        .into()
}

// SPEC 2.3.
/// What the workflow made of the ticket.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SupportResult {
    /// The log and the context with every sensitive item replaced by a pseudonym
    /// (`[IPV4_1]`, `[EMAIL_1]`, ...) that stays the same for the same value.
    anonymized: String,
    /// Category, time span, counts, failing service, telling lines, what was masked.
    summary: String,
    /// A polite reply in the requested locale, asking for what is still missing.
    draft_response: String,
    stats: Stats,
}

/// Replacements made in `anonymized`, by kind.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AnonymizationStats)]
struct Stats {
    ipv4: u64,
    ipv6: u64,
    email: u64,
    domain_user: u64,
    fqdn: u64,
    /// The sum of the others.
    total: u64,
}

/// The workflow's answer.
#[derive(Serialize, ToSchema)]
#[schema(as = SupportResponse, example = json!({"ok": true, "result": {
    "anonymized": "2026-11-21 10:14:22 ERROR vpn auth failed for [DOMAIN_USER_1] from [IPV4_1]",
    "summary": "Category: network / VPN / DNS (keywords: vpn)\nLog: 1 line, at 2026-11-21 10:14:22; 1 error, 0 warnings.",
    "draftResponse": "Hello,\n\nThank you for your message, and sorry for the network connection trouble.",
    "stats": {"ipv4": 1, "ipv6": 0, "email": 0, "domainUser": 1, "fqdn": 0, "total": 2}
}}))]
struct Envelope {
    /// Always true: errors are problem+json.
    ok: bool,
    result: SupportResult,
}

/// Anonymize a support ticket and draft a reply.
///
/// IPv4 and IPv6 addresses, e-mail addresses, `DOMAIN\user` names and host names are replaced
/// by pseudonyms; the ticket is classified (authentication, network, performance, storage,
/// e-mail, crash, billing, other), its log read for errors, time span and failing service, and a
/// summary and a draft reply written from the anonymized text only. Deterministic, no model.
/// Scope `read`, `upload` or `process`; the call counts against the daily quota.
#[utoipa::path(
    post,
    path = "/api/workflows/support/auto",
    tag = "support",
    security(("apiKey" = [])),
    params(("Idempotency-Key" = String, Header)),
    request_body(content = SupportInput, content_type = "application/json"),
    responses(
        (status = 200, description = "The anonymized ticket, its summary and a draft reply.", body = Envelope,
            headers(("Idempotent-Replayed"))),
        (status = 400, response = inline(SupportBadRequest)),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, response = inline(Forbidden)),
        (status = 409, response = inline(KeyInUse)),
        (status = 413, response = inline(TicketTooLarge)),
        (status = 422, response = inline(KeyReused)),
        (status = 429, response = inline(QuotaExceeded)),
        (status = 503, response = inline(Unavailable)),
    )
)]
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
