//! Lingering read: when an API route answers before it has read the whole request body (a bad
//! key or a missing scope is known from the headers, a quota error from the first bytes), the
//! rest of the body is still read and thrown away for a while after the answer, as nginx's
//! lingering close does. Closing the connection on a client that is still sending makes many
//! HTTP clients (Node's fetch, Python's requests) report a broken pipe or a reset instead of
//! the 401/403/413 that explains what went wrong.

use std::{
    pin::Pin,
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    body::{Body, Bytes},
    extract::Request,
    middleware::Next,
    response::Response,
};
use http_body::{Body as _, Frame, SizeHint};
use http_body_util::BodyExt;

/// How long the rest of a body is read after the answer, in all and between two reads.
const LINGER_TOTAL: Duration = Duration::from_secs(30);
const LINGER_IDLE: Duration = Duration::from_secs(5);

pub async fn linger(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let body = Body::new(Lingering {
        inner: Some(body),
        finished: false,
    });
    next.run(Request::from_parts(parts, body)).await
}

/// A request body that, dropped unfinished, hands what is left to a task that drains it.
struct Lingering {
    inner: Option<Body>,
    finished: bool,
}

impl http_body::Body for Lingering {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let Some(inner) = self.inner.as_mut() else {
            return Poll::Ready(None);
        };
        let polled = Pin::new(inner).poll_frame(cx);
        // An error ends the body too: the client went away, there is nothing to drain.
        if matches!(polled, Poll::Ready(None | Some(Err(_)))) {
            self.finished = true;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(|b| b.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), |b| b.size_hint())
    }
}

impl Drop for Lingering {
    fn drop(&mut self) {
        let Some(rest) = self.inner.take() else {
            return;
        };
        if self.finished || rest.is_end_stream() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(drain(rest));
        }
    }
}

async fn drain(mut body: Body) {
    let started = tokio::time::Instant::now();
    let mut discarded = 0u64;
    while started.elapsed() < LINGER_TOTAL {
        match tokio::time::timeout(LINGER_IDLE, body.frame()).await {
            Ok(Some(Ok(frame))) => {
                discarded += frame.data_ref().map_or(0, |d| d.len() as u64);
            }
            // Ended, failed, or idle too long.
            _ => break,
        }
    }
    tracing::debug!(discarded, "request body drained after an early answer");
}
