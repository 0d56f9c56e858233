//! The JSON side of an encrypted share's page (`/s/{token}`), which the recipient's browser
//! calls: the facts (changing nothing), a challenge, and a proof of the secret that opens the
//! sealed metadata or claims one download of the ciphertext. Translated into ShareService
//! calls; no key or session (the secret is the authority), and not part of the public API
//! (docs/sharing.md): the web interface's own routes.

use axum::{
    body::{Body, Bytes},
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use futures::StreamExt;
use quire_proto::{
    ErrorCode,
    v1::{
        ChallengeShareRequest, ClaimShareRequest, ClaimShareResponse, GetShareRequest,
        OpenShareRequest, ShareInfo, ShareProof, claim_share_response::Payload,
    },
};
use serde::{Deserialize, Serialize};

use super::upload::rfc3339;
use crate::{EdgeState, forward, problem::Problem};

/// What the page shows before anything is proven.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Facts {
    size: u64,
    expires_at: Option<String>,
    downloads_left: u64,
    password: bool,
    tries_left: u32,
    /// base64url of the header's salt.
    salt: String,
}

impl From<ShareInfo> for Facts {
    fn from(info: ShareInfo) -> Self {
        let ShareInfo {
            size,
            expires_at,
            downloads_left,
            password,
            tries_left,
            salt,
        } = info;
        Facts {
            size,
            expires_at: expires_at.map(|t| rfc3339(t.seconds, t.nanos)),
            downloads_left,
            password,
            tries_left,
            salt: URL_SAFE_NO_PAD.encode(&salt),
        }
    }
}

/// GET /s/{token}/info
pub async fn info(
    State(state): State<EdgeState>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let mut client = state.core.shares.clone();
    let share = client
        .get_share(forward::request(&headers, GetShareRequest { token }))
        .await?
        .into_inner()
        .share
        .unwrap_or_default();
    Ok(private_json(Facts::from(share)))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Challenge {
    nonce: String,
    expires_at: Option<String>,
}

/// POST /s/{token}/challenge
pub async fn challenge(
    State(state): State<EdgeState>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let mut client = state.core.shares.clone();
    let answer = client
        .challenge_share(forward::request(&headers, ChallengeShareRequest { token }))
        .await?
        .into_inner();
    Ok(private_json(Challenge {
        nonce: URL_SAFE_NO_PAD.encode(&answer.nonce),
        expires_at: answer.expires_at.map(|t| rfc3339(t.seconds, t.nanos)),
    }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Opened {
    metadata: String,
    #[serde(flatten)]
    facts: Facts,
}

/// POST /s/{token}/open `{"nonce", "proof"}`: the sealed metadata.
pub async fn open(
    State(state): State<EdgeState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    let proof = parse_proof(token, &body)?;
    let mut client = state.core.shares.clone();
    let answer = client
        .open_share(forward::request(
            &headers,
            OpenShareRequest { proof: Some(proof) },
        ))
        .await?
        .into_inner();
    Ok(private_json(Opened {
        metadata: URL_SAFE_NO_PAD.encode(&answer.sealed_metadata),
        facts: Facts::from(answer.share.unwrap_or_default()),
    }))
}

/// POST /s/{token}/claim `{"nonce", "proof"}`: one download of the ciphertext.
pub async fn claim(
    State(state): State<EdgeState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    let proof = parse_proof(token, &body)?;
    let mut client = state.core.shares.clone();
    let mut stream = client
        .claim_share(forward::request(
            &headers,
            ClaimShareRequest { proof: Some(proof) },
        ))
        .await?
        .into_inner();
    let share = match stream.message().await? {
        Some(ClaimShareResponse {
            payload: Some(Payload::Share(share)),
        }) => share,
        _ => {
            return Err(Problem::new(
                ErrorCode::Internal,
                "the core sent no share before the ciphertext",
            ));
        }
    };
    let body = stream.filter_map(|message| async move {
        match message {
            Ok(ClaimShareResponse {
                payload: Some(Payload::Chunk(bytes)),
            }) => Some(Ok(bytes)),
            Ok(_) => None,
            // The length is already sent: a broken stream must reach the page as an error.
            Err(status) => Some(Err(std::io::Error::other(status.message().to_owned()))),
        }
    });
    let mut response = (StatusCode::OK, Body::from_stream(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(share.size));
    headers.insert(
        header::HeaderName::from_static("x-share-downloads-left"),
        HeaderValue::from(share.downloads_left),
    );
    private(headers);
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProofBody {
    nonce: String,
    proof: String,
}

/// The body as a proof, or a 400 that says what the page must send.
fn parse_proof(token: String, body: &[u8]) -> Result<ShareProof, Problem> {
    const SHAPE: &str = r#"send {"nonce": the challenge's nonce, "proof": base64url of HMAC-SHA-256(proof key, nonce)}"#;
    let invalid = |why: String| Problem::new(ErrorCode::InvalidArgument, format!("{why}: {SHAPE}"));
    let ProofBody { nonce, proof } = serde_json::from_slice(body)
        .map_err(|err| invalid(format!("the body is not the proof's JSON ({err})")))?;
    let decode = |field: &str, value: &str| {
        URL_SAFE_NO_PAD
            .decode(value.trim_end_matches('='))
            .map_err(|_| invalid(format!("{field} is not base64url")))
    };
    Ok(ShareProof {
        token,
        nonce: decode("nonce", &nonce)?.into(),
        proof: decode("proof", &proof)?.into(),
    })
}

/// JSON that no cache or referrer keeps.
fn private_json<T: Serialize>(body: T) -> Response {
    let mut response = axum::Json(body).into_response();
    private(response.headers_mut());
    response
}

fn private(headers: &mut HeaderMap) {
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}
