//! A gRPC transport to the core's services inside this process. `quire serve`'s edge calls the
//! core through it: the same tonic stack as a remote client (codec, message size limits, auth,
//! metadata, status details), without a socket, HTTP/2 framing or the kernel's copies on the
//! hop every uploaded byte crosses.

use std::task::{Context, Poll};

use futures::future::BoxFuture;
use tokio_util::task::AbortOnDropHandle;
use tonic::{Status, body::Body, codegen::http, service::Routes};
use tower::{Service, ServiceExt};
use tracing::Instrument;

use super::{peer::Peer, server::request_span};

#[derive(Clone)]
pub struct InProcess {
    routes: Routes,
}

impl InProcess {
    pub(super) fn new(routes: Routes) -> Self {
        Self { routes }
    }
}

impl Service<http::Request<Body>> for InProcess {
    type Response = http::Response<Body>;
    type Error = Status;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Each call clones the routes and waits for them itself.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: http::Request<Body>) -> Self::Future {
        // What no remote caller can send: the mark of the edge in this process.
        request.extensions_mut().insert(Peer::InProcess);
        let span = request_span(request.uri(), request.headers());
        let call = self.routes.clone().oneshot(request).instrument(span);
        // A task per call, as an HTTP/2 server gives each stream one, so the core's side of an
        // upload runs beside the edge's parser rather than taking turns with it. Aborted when
        // the caller gives up, as a reset stream would be: a cut upload is then never committed.
        let task = AbortOnDropHandle::new(tokio::spawn(call));
        Box::pin(async move {
            match task.await {
                Ok(Ok(response)) => Ok(response),
                Ok(Err(never)) => match never {},
                Err(join) => {
                    tracing::error!(error = %join, "core handler failed");
                    Err(Status::internal("the core failed on this request"))
                }
            }
        })
    }
}
