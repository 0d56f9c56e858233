//! gRPC server reflection, `grpc.reflection.v1` and `v1alpha` (the only one the Python
//! project's own client, `grpc_reflection`, and older tools speak). Unlike tonic-reflection's
//! server, a file is answered with the dependencies the stream has not sent yet, as the
//! protocol asks and as grpc-go and grpc-java do: a client that does not then ask for each
//! import by name (Python's descriptor database among them) can still build every message.
//! v1alpha's messages are v1's, field for field: requests and answers cross as bytes.

mod index;

use std::collections::HashSet;
use std::sync::Arc;

use prost::Message;
use tokio::sync::mpsc;
use tokio_stream::{StreamExt, wrappers::ReceiverStream};
use tonic::{Request, Response, Status, Streaming};
use tonic_reflection::pb::{v1, v1alpha};
use v1::server_reflection_request::MessageRequest;
use v1::server_reflection_response::MessageResponse;

pub use index::Index;

/// Answers one request, `sent` being the files this stream already sent.
fn answer(
    index: &Index,
    request: v1::ServerReflectionRequest,
    sent: &mut HashSet<String>,
) -> v1::ServerReflectionResponse {
    let files = |name: &str, sent: &mut HashSet<String>| {
        index
            .with_dependencies(name, sent)
            .map(|file_descriptor_proto| {
                MessageResponse::FileDescriptorResponse(v1::FileDescriptorResponse {
                    file_descriptor_proto,
                })
            })
    };
    let not_found = |what: String| {
        MessageResponse::ErrorResponse(v1::ErrorResponse {
            error_code: tonic::Code::NotFound as i32,
            error_message: what,
        })
    };
    let message = match &request.message_request {
        Some(MessageRequest::FileByFilename(name)) => {
            files(name, sent).unwrap_or_else(|| not_found(format!("no file {name}")))
        }
        Some(MessageRequest::FileContainingSymbol(symbol)) => index
            .file_of(symbol)
            .and_then(|name| files(name, sent))
            .unwrap_or_else(|| not_found(format!("no symbol {symbol}"))),
        Some(MessageRequest::FileContainingExtension(_)) => {
            not_found("this server defines no extensions".to_owned())
        }
        // Clients such as grpcurl ask this of every message type; none has extensions.
        Some(MessageRequest::AllExtensionNumbersOfType(base_type_name)) => {
            MessageResponse::AllExtensionNumbersResponse(v1::ExtensionNumberResponse {
                base_type_name: base_type_name.clone(),
                extension_number: Vec::new(),
            })
        }
        Some(MessageRequest::ListServices(_)) => {
            MessageResponse::ListServicesResponse(v1::ListServiceResponse {
                service: index
                    .services()
                    .iter()
                    .map(|name| v1::ServiceResponse { name: name.clone() })
                    .collect(),
            })
        }
        None => MessageResponse::ErrorResponse(v1::ErrorResponse {
            error_code: tonic::Code::InvalidArgument as i32,
            error_message: "a reflection request needs a message_request".to_owned(),
        }),
    };
    v1::ServerReflectionResponse {
        valid_host: request.host.clone(),
        original_request: Some(request),
        message_response: Some(message),
    }
}

/// Serves one reflection stream: each request in `requests`, converted to v1, answered in
/// order, converted back by `reply`.
fn serve<In, Out>(
    index: Arc<Index>,
    mut requests: Streaming<In>,
    reply: fn(v1::ServerReflectionResponse) -> Option<Out>,
    read: fn(In) -> Option<v1::ServerReflectionRequest>,
) -> ReceiverStream<Result<Out, Status>>
where
    In: Send + 'static,
    Out: Send + 'static,
{
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let mut sent = HashSet::new();
        while let Some(Ok(request)) = requests.next().await {
            let out = match read(request) {
                Some(request) => reply(answer(&index, request, &mut sent))
                    .ok_or_else(|| Status::internal("reflection answer not encodable")),
                None => Err(Status::invalid_argument("unreadable reflection request")),
            };
            let failed = out.is_err();
            if tx.send(out).await.is_err() || failed {
                return;
            }
        }
    });
    ReceiverStream::new(rx)
}

/// The reflection services, both versions, over one index.
#[derive(Clone)]
pub struct Reflection {
    index: Arc<Index>,
}

impl Reflection {
    pub fn new(sets: &[&[u8]]) -> anyhow::Result<Reflection> {
        Ok(Reflection {
            index: Arc::new(Index::new(sets)?),
        })
    }

    pub fn v1(&self) -> v1::server_reflection_server::ServerReflectionServer<Reflection> {
        v1::server_reflection_server::ServerReflectionServer::new(self.clone())
    }

    pub fn v1alpha(&self) -> v1alpha::server_reflection_server::ServerReflectionServer<Reflection> {
        v1alpha::server_reflection_server::ServerReflectionServer::new(self.clone())
    }
}

/// One message as the other version's, through its bytes.
fn convert<A: Message, B: Message + Default>(message: A) -> Option<B> {
    B::decode(message.encode_to_vec().as_slice()).ok()
}

#[tonic::async_trait]
impl v1::server_reflection_server::ServerReflection for Reflection {
    type ServerReflectionInfoStream = ReceiverStream<Result<v1::ServerReflectionResponse, Status>>;

    async fn server_reflection_info(
        &self,
        request: Request<Streaming<v1::ServerReflectionRequest>>,
    ) -> Result<Response<Self::ServerReflectionInfoStream>, Status> {
        let stream = serve(self.index.clone(), request.into_inner(), Some, Some);
        Ok(Response::new(stream))
    }
}

#[tonic::async_trait]
impl v1alpha::server_reflection_server::ServerReflection for Reflection {
    type ServerReflectionInfoStream =
        ReceiverStream<Result<v1alpha::ServerReflectionResponse, Status>>;

    async fn server_reflection_info(
        &self,
        request: Request<Streaming<v1alpha::ServerReflectionRequest>>,
    ) -> Result<Response<Self::ServerReflectionInfoStream>, Status> {
        let stream = serve(self.index.clone(), request.into_inner(), convert, convert);
        Ok(Response::new(stream))
    }
}
