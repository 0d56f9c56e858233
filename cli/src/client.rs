//! One POST to the server, retried as `retry` decides on 429, 503, 409 `idempotency-key-in-use`
//! and failed connections, with the same `Idempotency-Key` on every attempt: a retry of a call
//! the server did finish gets that first answer again, instead of doing the work, and counting
//! the call, twice.

use std::time::{Duration, SystemTime};

use bytes::Bytes;
use futures::StreamExt;
use reqwest::{
    Response, StatusCode, Url,
    header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, LOCATION, RETRY_AFTER},
    multipart::{Form, Part},
};

use crate::{
    args::ClientArgs,
    error::CliError,
    input::Input,
    problem::{self, Problem},
    progress,
    retry::{Next, RetryPolicy},
    retry_after,
};

/// An error answer's body is read up to this size for its problem.
const PROBLEM_MAX: usize = 64 * 1024;

/// What a call sends; rebuilt for each attempt.
pub enum Payload<'a> {
    /// Multipart: the option fields, then the `file` part.
    File {
        fields: Vec<(&'static str, String)>,
        input: &'a Input,
    },
    Json(Bytes),
}

pub struct Client {
    http: reqwest::Client,
    base: Url,
    authorization: HeaderValue,
    idempotency_key: HeaderValue,
    policy: RetryPolicy,
    quiet: bool,
    bars: bool,
}

impl Client {
    pub fn new(args: &ClientArgs) -> Result<Client, CliError> {
        let key = args
            .api_key
            .as_ref()
            .filter(|k| !k.expose().is_empty())
            .ok_or(CliError::MissingKey)?;
        let mut authorization = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
            .map_err(|_| CliError::Usage("the api key holds characters a header cannot".into()))?;
        authorization.set_sensitive(true);
        let idempotency_key = HeaderValue::from_str(&uuid::Uuid::new_v4().to_string())
            .map_err(|e| CliError::Unexpected(e.to_string()))?;
        let http = reqwest::Client::builder()
            .user_agent(concat!("quire-cli/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(30))
            // A redirected POST loses its body (or its method): say where QUIRE_URL should
            // point instead of following it.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| CliError::Unexpected(format!("cannot set up the http client: {e}")))?;
        Ok(Client {
            http,
            base: args.url.clone(),
            authorization,
            idempotency_key,
            policy: RetryPolicy {
                retries: args.retries,
                max_wait: Duration::from_secs(args.max_wait),
            },
            quiet: args.quiet,
            bars: progress::wanted(args.quiet),
        })
    }

    /// Whether progress bars may be drawn.
    pub fn bars(&self) -> bool {
        self.bars
    }

    pub fn quiet(&self) -> bool {
        self.quiet
    }

    /// `path` under the base URL, which may have a path of its own (`https://host/quire/`).
    fn endpoint(&self, path: &str) -> String {
        format!("{}{path}", self.base.as_str().trim_end_matches('/'))
    }

    /// POSTs `payload` to `path`: the 2xx answer, or the error it ended with.
    pub async fn post(&self, path: &str, payload: &Payload<'_>) -> Result<Response, CliError> {
        let url = self.endpoint(path);
        let mut retries = 0;
        loop {
            let (retry_after, failure) = match self.attempt(&url, payload, retries).await? {
                Attempt::Answered(response) => return Ok(response),
                Attempt::Retryable {
                    retry_after,
                    failure,
                } => (retry_after, failure),
            };
            match self
                .policy
                .next(retries, retry_after, rand::random::<f64>())
            {
                Next::GiveUp => return Err(failure),
                Next::Wait(wait) => {
                    retries += 1;
                    if !self.quiet {
                        let (title, _) = failure.title_and_detail();
                        eprintln!(
                            "quire: {title}: retry {retries} of {} in {:.1} s",
                            self.policy.retries,
                            wait.as_secs_f64()
                        );
                    }
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// Sends the request once; `retries` (done so far) goes into the error it may end with.
    async fn attempt(
        &self,
        url: &str,
        payload: &Payload<'_>,
        retries: u32,
    ) -> Result<Attempt, CliError> {
        let bar = match payload {
            Payload::File { input, .. } => progress::upload(input.len, self.bars, "uploading"),
            Payload::Json(_) => None,
        };
        let request = self
            .http
            .post(url)
            .header(AUTHORIZATION, self.authorization.clone())
            .header("idempotency-key", self.idempotency_key.clone());
        let request = match payload {
            Payload::File { fields, input } => {
                request.multipart(form(fields, input, bar.clone()).await?)
            }
            Payload::Json(body) => request
                .header(CONTENT_TYPE, "application/json")
                .body(body.clone()),
        };
        let sent = request.send().await;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let response = match sent {
            Ok(response) => response,
            Err(source) if source.is_builder() => {
                return Err(CliError::Usage(format!("cannot call {url}: {source}")));
            }
            Err(source) => {
                return Ok(Attempt::Retryable {
                    retry_after: None,
                    failure: CliError::Unreachable {
                        url: url.to_owned(),
                        source: source.without_url(),
                        retries,
                    },
                });
            }
        };
        let status = response.status();
        if status.is_success() {
            return Ok(Attempt::Answered(response));
        }
        if status.is_redirection() {
            return Err(redirected(&response));
        }
        let retry_after = header_retry_after(response.headers());
        let problem = read_problem(response).await;
        let retry = retryable(status, &problem);
        let failure = CliError::Answer {
            status: status.as_u16(),
            problem,
            retries,
        };
        if retry {
            Ok(Attempt::Retryable {
                retry_after,
                failure,
            })
        } else {
            Err(failure)
        }
    }
}

/// How one attempt ended, when not with an error to give up on at once.
enum Attempt {
    Answered(Response),
    Retryable {
        retry_after: Option<Duration>,
        failure: CliError,
    },
}

/// 429 (a quota or limit: its Retry-After says whether waiting helps), 503 (the scanner, the
/// job queue or the core, for now), and 409 `idempotency-key-in-use` (an earlier attempt whose
/// connection failed still runs: once it ends, the same key gets its answer). Any other error
/// answer would be the same again.
fn retryable(status: StatusCode, problem: &Problem) -> bool {
    match status {
        StatusCode::TOO_MANY_REQUESTS | StatusCode::SERVICE_UNAVAILABLE => true,
        StatusCode::CONFLICT => problem.code.as_deref() == Some("idempotency-key-in-use"),
        _ => false,
    }
}

fn redirected(response: &Response) -> CliError {
    let location = response
        .headers()
        .get(LOCATION)
        .and_then(|l| l.to_str().ok())
        .unwrap_or("elsewhere");
    CliError::Usage(format!(
        "the server answers {} to {location}: set QUIRE_URL to the address it redirects to",
        response.status().as_u16(),
    ))
}

fn header_retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?;
    retry_after::parse(value, SystemTime::now())
}

async fn form(
    fields: &[(&'static str, String)],
    input: &Input,
    bar: Option<indicatif::ProgressBar>,
) -> Result<Form, CliError> {
    // Options first: the server can refuse a bad one before the file's bytes arrive.
    let form = fields.iter().fold(Form::new(), |form, (name, value)| {
        form.text(*name, value.clone())
    });
    let part = Part::stream_with_length(input.body(bar).await?, input.len)
        .file_name(input.name.clone())
        .mime_str("application/octet-stream")
        .map_err(|e| CliError::Unexpected(e.to_string()))?;
    Ok(form.part("file", part))
}

/// The problem in an error answer, read up to [`PROBLEM_MAX`] bytes.
async fn read_problem(response: Response) -> Problem {
    let status = response.status().as_u16();
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(Ok(chunk)) = stream.next().await {
        body.extend_from_slice(&chunk);
        if body.len() >= PROBLEM_MAX {
            break;
        }
    }
    problem::read(status, &body)
}
